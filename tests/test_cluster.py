"""advice verify --cluster ray: the local report, from Ray actors, even when one dies."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from conftest import command_lines
from engine.prolog import kb_path
from engine.verify import Interrupted, VerifyJob, verify

#: every test that starts or joins a Ray runs apart from the others, one
#: after another (make test): two Rays started at once on one machine
#: would meet
pytestmark = pytest.mark.ray

ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install "
                          "'advice[cluster]' (make test installs it)")

KRK = str(kb_path("chess/krk.adv"))
#: 60 start positions of the book table against every defence: 6 batches of 10
JOB = VerifyJob(KRK, "all", sample=60, seed=4)
#: what may differ between runs of the same job: its timing, where it ran, and
#: how many states two workers both valued (which depends on who got which batch)
RUN_FIELDS = {"seconds", "peak_memory", "cluster", "states_repeated"}


def the_job(report: dict) -> str:
    """The report as JSON without the fields of the run."""
    return json.dumps({k: v for k, v in report.items() if k not in RUN_FIELDS}, indent=2)


def actor_pids() -> list[int]:
    """The processes of our Ray actors (Ray names them after the class)."""
    return sorted(pid for pid, command in command_lines().items()
                  if command.startswith(b"ray::PrologActor"))


@pytest.fixture(scope="module")
def local_report() -> dict:
    return verify(JOB, workers=2)


@pytest.fixture(scope="module")
def on_ray():
    """One Ray instance for the module (a pool uses a Ray already joined)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)
    yield
    ray.shutdown()


def test_the_local_report_from_ray(on_ray, local_report):
    assert local_report["by_result"] == {"success": 60}
    assert local_report["max_moves"] == 31
    report = verify(JOB, workers=2, cluster="ray", batch=10)
    assert the_job(report) == the_job(local_report)
    figures = report["cluster"]
    assert (figures["nodes"], figures["workers"], figures["batches"],
            figures["batches_retried"]) == (1, 2, 6, 0)
    assert figures["address"]
    assert "cluster" not in local_report


def test_ray_goes_on_from_a_local_run_that_stopped(on_ray, local_report, tmp_path):
    checkpoint = tmp_path / "krk.checkpoint"

    def stop_after_the_first_batch(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(Interrupted):
        verify(JOB, workers=1, progress=stop_after_the_first_batch, batch=25,
               cluster="ray", checkpoint=checkpoint)
    report = verify(JOB, workers=2, cluster="ray", batch=10, checkpoint=checkpoint)
    assert report["checkpoint"]["positions_before"] == 25
    assert report["cluster"]["batches"] == 4  # 35 positions left, in batches of 10
    kept = report.pop("checkpoint")
    assert the_job(report) == the_job(local_report)
    assert kept["file"] == str(checkpoint)


def test_a_dead_worker_has_its_batch_run_again(on_ray, local_report):
    killed = []

    def end_an_actor(done: int, total: int) -> None:
        if not killed:  # after the first batch: 11 of 12 are still to come
            killed.append(actor_pids()[0])
            os.kill(killed[0], signal.SIGKILL)

    report = verify(JOB, workers=2, progress=end_an_actor, cluster="ray", batch=5)
    assert killed and killed[0] not in actor_pids()
    assert report["cluster"]["batches"] == 12
    assert report["cluster"]["batches_retried"] >= 1
    assert the_job(report) == the_job(local_report)


def test_grading_on_ray_costs_a_dying_submission_only_itself(on_ray, cli, tmp_path):
    nim = tmp_path / "nim"
    assert cli("grade", "--example", "nim", str(nim)).code == 0
    halting = tmp_path / "halting"
    shutil.copytree(Path(__file__).parent / "data" / "grading" / "nim" / "halting", halting)
    args = ["grade", str(nim / "assignment.toml"), str(halting), str(nim / "class" / "ada"),
            "--trusted", "--json"]
    local, on_cluster = cli(*args), cli(*args, "--cluster", "ray", "--jobs", "2")
    assert (local.code, on_cluster.code) == (0, 0)
    assert on_cluster.json() == local.json()
    by_student = {s["student"]: s for s in on_cluster.json()["submissions"]}
    assert by_student["halting"]["results"]["output"] == (
        f"a worker process ended (a knowledge base called halt/0) while working on "
        f"the submission {halting}")
    assert by_student["ada"]["score"] == 7


def test_what_ray_prints_for_the_driver_goes_to_stderr(on_ray, capsys):
    # Ray's driver prints the errors its processes publish on stdout; once
    # an interrupted verify --json printed a raylet's death before its JSON
    from ray._private.worker import print_to_stdstream

    def ray_publishes(done: int, total: int) -> None:
        print_to_stdstream({"lines": [f"news at {done}"], "pid": "raylet", "is_err": False},
                           ignore_prefix=False)

    verify(VerifyJob(KRK, "all", sample=10, seed=4), workers=1, progress=ray_publishes,
           cluster="ray", batch=10)
    captured = capsys.readouterr()
    assert "news at 10" in captured.err
    assert captured.out == ""
