"""A Ray that ``--cluster ray`` starts itself listens on loopback only.

Its ports take no password: while a ``--cluster ray`` run works, every
TCP socket that its processes (and the command's own, Ray's driver)
listen on is bound to 127.0.0.1, and ``--json`` gives that address.
(``--address``, a user's own cluster used as given, is
tests/test_cluster_cli.py's test_a_cluster_given_by_address.)
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import command_lines
from engine.prolog import kb_path

KRK = str(kb_path("chess/krk.adv"))
#: the processes a local Ray instance runs (its actors are ray::ClassName)
RAY_PROCESSES = (b"ray::", b"raylet", b"gcs_server", b"ray/dashboard", b"ray/_private")
LISTEN = "0A"  # the state of a listening socket in /proc/net/tcp


def listening_sockets() -> dict[int, str]:
    """Every listening TCP socket on the machine: its inode -> its
    ``address:port`` (IPv6 addresses that hold an IPv4 one as that)."""
    found = {}
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] != LISTEN:
                continue
            hex_address, hex_port = fields[1].split(":")
            raw = bytes.fromhex(hex_address)
            # the kernel writes each 32-bit word in the machine's order
            words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4)) \
                if sys.byteorder == "little" else raw
            address = ipaddress.ip_address(words)
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
                address = address.ipv4_mapped
            found[int(fields[9])] = f"{address}:{int(hex_port, 16)}"
    return found


def socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets process ``pid`` holds open."""
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
    except OSError:  # it ended meanwhile
        pass
    return inodes


def ray_listeners(driver: int, earlier: set[int]) -> dict[tuple[str, int], str]:
    """What the run's Ray processes (those that were not there before,
    and ``driver``, the command) listen on: (process name, socket inode)
    -> address."""
    sockets = listening_sockets()
    found = {}
    for pid, command in command_lines().items():
        ours = pid == driver or (pid not in earlier
                                 and any(name in command for name in RAY_PROCESSES))
        if not ours:
            continue
        name = command.split(b"\0")[0].decode(errors="replace")
        for inode in socket_inodes(pid) & sockets.keys():
            found[(name, inode)] = sockets[inode]
    return found


def is_loopback(address: str) -> bool:
    return ipaddress.ip_address(address.rsplit(":", 1)[0]).is_loopback


def machine_addresses() -> set[str]:
    """The machine's own addresses besides loopback (where Ray used to listen)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        return set()
    return {info[4][0] for info in infos} - {"127.0.0.1", "::1"}


@pytest.mark.ray
def test_a_ray_started_here_listens_on_loopback_only():
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install "
                        "'advice[cluster]' (make test installs it)")
    earlier = set(command_lines())  # a Ray that ran before is not this run's
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "verify", KRK, "--defender", "all",
         "--sample", "400", "--seed", "3", "--workers", "2", "--cluster", "ray",
         "--batch", "20", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={k: v for k, v in os.environ.items()
             if k not in ("RAY_ADDRESS", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")})
    seen: dict[tuple[str, int], str] = {}
    try:
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline:
            seen.update(ray_listeners(proc.pid, earlier))
            time.sleep(0.2)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait()
    assert proc.returncode == 0, err
    names = {name.rsplit("/", 1)[-1] for name, _ in seen}
    # the run was seen while it worked: Ray's servers and its workers
    assert {"gcs_server", "raylet"} <= names, names
    assert any(name.startswith("ray::") for name in names), names
    assert sorted({(name, address) for (name, _), address in seen.items()
                   if not is_loopback(address)}) == []
    address = json.loads(out)["cluster"]["address"]
    assert address.startswith("127.0.0.1:")
    assert not any(address.startswith(f"{a}:") for a in machine_addresses())
