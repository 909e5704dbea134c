"""advice verify --cluster ray from the command line: Ctrl-C, --json, and no Ray."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection
from pathlib import Path

import pytest

from conftest import command_lines, cpu_time, descendants
from engine.prolog import kb_path

#: a test that starts or joins a Ray runs apart from the others, one
#: after another (make test): two Rays started at once on one machine
#: would meet; those that refuse their input first start none
starts_ray = pytest.mark.ray

KRK = str(kb_path("chess/krk.adv"))
#: the processes a local Ray instance runs (its actors are ray::ClassName)
RAY_PROCESSES = (b"ray::", b"raylet", b"gcs_server", b"ray/dashboard", b"ray/_private")


def ray_processes(ignore: Collection[int] = ()) -> list[str]:
    """The command lines of Ray's processes, but those of ``ignore``."""
    return [command.replace(b"\0", b" ").decode(errors="replace")
            for pid, command in command_lines().items()
            if pid not in ignore and any(name in command for name in RAY_PROCESSES)]


#: CPU seconds an actor spends before it verifies anything (loading the
#: table, listing the 175,168 starts: 4-5 s), and some to verify with; an
#: actor Ctrl-C'd after 6 s had verified 1,240 positions, after 9 s 8,700
ACTOR_CPU_SECONDS = 8.0


def wait_for_port(port: int, head: subprocess.Popen, seconds: float = 60) -> None:
    """Wait until the Ray head ``head`` listens on ``port`` (fails the
    test if it ends first or takes longer than ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert head.poll() is None, f"ray start ended with exit status {head.returncode}"
            assert time.monotonic() < deadline, f"no Ray head on port {port} after {seconds} s"
            time.sleep(0.5)


def wait_for_actors_cpu(actors: int, seconds: float, ignore, deadline: float = 120) -> None:
    """Return once the Prolog processes of ``actors`` Ray actors (not of
    ``ignore``) have each used ``seconds`` of CPU time, or after
    ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        commands = command_lines()
        actors_pids = {pid for pid, command in commands.items()
                       if b"ray::PrologActor" in command and pid not in ignore}
        busy = [pid for actor in actors_pids for pid in descendants(actor)
                if cpu_time(pid) >= seconds]
        if len(busy) >= actors:
            return
        time.sleep(0.25)


@starts_ray
def test_ctrl_c_stops_the_actors_and_ray_and_reports_what_was_done():
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install "
                        "'advice[cluster]' (make test installs it)")
    # a Ray that ran before (another test's, still shutting down) is not this run's
    earlier = set(command_lines())
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "verify", KRK, "--defender", "all",
         "--positions", "all", "--workers", "2", "--cluster", "ray", "--batch", "20",
         "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"})
    # Ray starts, the actors load the table and verify some batches: once,
    # on a fresh clone, none had come back after 14 s, so the test counts
    # the actors' CPU time, not the clock's (the whole run takes about
    # 100 s here)
    # (each actor's Prolog runs in a child process of the actor's)
    wait_for_actors_cpu(2, ACTOR_CPU_SECONDS, ignore=earlier)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; the positions verified so far" in err
    report = json.loads(out)
    assert report["complete"] is False
    assert 0 < report["positions"] < report["chosen"] == 175_168
    assert report["cluster"]["workers"] == 2
    assert report["cluster"]["batches"] == 8_759  # 175,168 positions, 20 a batch
    # Ray's own processes end on their own time: on a fresh clone, with the
    # other test process busy, its GCS server was still up after 15 s
    deadline = time.monotonic() + 60
    while ray_processes(earlier) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ray_processes(earlier) == []


def test_without_ray_one_line_says_how_to_install_it():
    run = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['ray'] = None; "
         "from engine.cli import main; sys.exit(main(sys.argv[1:]))",
         "verify", KRK, "--sample", "5", "--cluster", "ray"],
        capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "advice: error: --cluster ray needs Ray, an optional extra: "
        "pip install 'advice[cluster]'"]


@pytest.mark.parametrize(("args", "message"), [
    (["--batch", "0"], "--batch must be at least 1, not 0"),
    (["--workers", "0"], "--workers must be at least 1, not 0"),
])
def test_bad_cluster_input(cli, args, message):
    run = cli("verify", KRK, "--sample", "5", "--cluster", "ray", *args)
    assert run.code == 2
    assert run.err == f"advice: error: {message}\n"


@starts_ray
def test_a_cluster_given_by_address(tmp_path):
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install "
                        "'advice[cluster]' (make test installs it)")
    ray = str(Path(sys.executable).parent / "ray")
    port = 6391
    env = dict(os.environ, RAY_AUTH_MODE="disabled")  # no token to hand round in a test
    # `ray start --block` keeps the head in the foreground and, when
    # terminated, ends that head's processes and no others (`ray stop`
    # would end every Ray on the machine, a user's too); its own folder
    # keeps the file that names it as the machine's current Ray, which
    # it leaves behind, from Ray's default (/tmp/ray), where a later
    # ray.init() would try to join it. (A short path: Ray's sockets
    # live under it.)
    temp_dir = tempfile.mkdtemp(prefix="ray-")
    head = subprocess.Popen([ray, "start", "--head", "--block", "--port", str(port),
                             "--num-cpus", "2", "--include-dashboard=false",
                             "--disable-usage-stats", "--temp-dir", temp_dir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=tmp_path, env=env, start_new_session=True)
    try:
        wait_for_port(port, head)
        run = subprocess.run(
            [sys.executable, "-m", "engine.cli", "verify", KRK, "--defender", "all",
             "--sample", "20", "--seed", "1", "--workers", "2", "--cluster", "ray",
             "--address", f"127.0.0.1:{port}", "--json"],
            capture_output=True, text=True, env=env)
    finally:  # wait for the head to end, so that it cannot meet the next test's Ray
        head.terminate()
        head.wait(timeout=60)
        shutil.rmtree(temp_dir, ignore_errors=True)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    # the local --workers 2 run's figures
    assert (report["by_result"], report["max_moves"], report["mean_moves"],
            report["states"]) == ({"success": 20}, 29, 21.15, 3757)
    assert report["cluster"]["address"].endswith(f":{port}")
    assert (report["cluster"]["nodes"], report["cluster"]["batches"]) == (1, 1)
