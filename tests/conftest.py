"""Shared fixtures: the CLI run in-process, and paths."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Collection
from pathlib import Path

import pytest

from engine.cli import main
from engine.prolog import configure_limits, current_limits, trust_user_files, user_files_trusted

ROOT = Path(__file__).resolve().parent.parent


def command_lines() -> dict[int, bytes]:
    """Every process's command line (arguments joined by NUL), by pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:  # it ended meanwhile
                continue
    return found


def descendants(pid: int) -> list[int]:
    """Processes whose parent chain leads to ``pid`` (read from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found += children
        frontier += children
    return found


def cpu_time(pid: int) -> float:
    """The user and system CPU seconds process ``pid`` has used (0 once
    it has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(marker: bytes, processes: int, seconds: float, *, under: int | None = None,
                 ignore: Collection[int] = (), deadline: float = 120) -> None:
    """Return once ``processes`` processes whose command line holds
    ``marker`` (descendants of ``under``, where given: the engine's
    Prolog processes are each in a process group of their own; not those
    of ``ignore``) have each used ``seconds`` of CPU time, or when
    ``deadline`` seconds have passed: a test that must interrupt work
    under way waits for the work, not for the clock, which a loaded
    machine makes too short."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        within = None if under is None else set(descendants(under))
        used = [cpu_time(pid) for pid, command in command_lines().items()
                if marker in command and pid not in ignore
                and (within is None or pid in within)]
        if len([cpu for cpu in used if cpu >= seconds]) >= processes:
            return
        time.sleep(0.25)


SHARED_REFERENCE = ROOT.parent / "shared" / "reference"


class CliRun:
    """The outcome of one ``advice`` command run in this process."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def cli(capsys):
    """Run ``advice ARGS...`` in-process; returns a :class:`CliRun`. The
    limits and the trust a command sets (``--inference-limit``,
    ``--trusted``, ...) last only as long as it runs, as in a process of
    its own: a test that sets them does not leave them to the tests after
    it in the same worker."""

    def run(*args: str) -> CliRun:
        limits, trusted = current_limits(), user_files_trusted()
        try:
            code = main(list(args))
        finally:
            configure_limits(seconds=limits.seconds, inferences=limits.inferences,
                             memory=limits.memory)
            trust_user_files(trusted)
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)

    return run
