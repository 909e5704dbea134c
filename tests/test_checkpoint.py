"""advice verify --checkpoint: a stopped run goes on where it stopped."""

from __future__ import annotations

import errno
import json
import os
import shutil

import pytest

import engine.verify
from engine.checkpoint import Checkpoint, job_sources
from engine.prolog import BadInput, EngineError, kb_path, session
from engine.verify import Interrupted, VerifyJob, verify

KRK = str(kb_path("chess/krk.adv"))
SAME = ("by_result", "histogram", "max_moves", "mean_moves", "longest", "perfect", "states",
        "complete", "proved", "counterexamples")


@pytest.fixture
def slices_of_100(monkeypatch):
    monkeypatch.setattr(engine.verify, "SLICE", 100)


@pytest.fixture
def slices_of_5(monkeypatch):
    monkeypatch.setattr(engine.verify, "SLICE", 5)


def _stop_after(positions):
    def progress(done, total):
        if done >= positions:
            raise KeyboardInterrupt
    return progress


def _stopped_run(job, path):
    """Run ``job`` with a checkpoint in ``path`` and stop it after its
    first slice."""
    with pytest.raises(Interrupted) as stop:
        verify(job, 1, _stop_after(engine.verify.SLICE), checkpoint=path)
    return stop.value.report


def test_a_stopped_run_goes_on_from_its_checkpoint_and_reports_as_one_run(tmp_path,
                                                                         slices_of_100):
    job = VerifyJob(KRK, "all", sample=300, seed=2)
    path = tmp_path / "krk.checkpoint"
    stopped = _stopped_run(job, path)
    assert (stopped["positions"], stopped["complete"]) == (100, False)
    resumed = verify(job, 1, checkpoint=path)
    whole = verify(job, 1)
    for key in SAME:
        assert resumed[key] == whole[key], key
    assert (whole["states"], whole["longest"]["moves"], whole["proved"]) == (10739, 33, False)
    assert resumed["checkpoint"]["positions_before"] == 100
    assert resumed["checkpoint"]["seconds_before"] > 0
    # the states the first run valued came back with their values: the
    # second run valued none of them again
    assert resumed["states_repeated"] == 0
    # a third run finds every slice done, and verifies nothing
    again = verify(job, 2, checkpoint=path)
    assert again["checkpoint"]["positions_before"] == 300
    assert {key: again[key] for key in SAME} == {key: whole[key] for key in SAME}


def test_a_copy_of_the_table_resumes_and_an_edited_one_is_refused(tmp_path, slices_of_100):
    path = tmp_path / "krk.checkpoint"
    _stopped_run(VerifyJob(KRK, "all", sample=200, seed=4), path)
    copy = tmp_path / "krk.adv"
    shutil.copy(KRK, copy)
    resumed = verify(VerifyJob(str(copy), "all", sample=200, seed=4), checkpoint=path)
    assert (resumed["checkpoint"]["positions_before"], resumed["positions"]) == (100, 200)
    copy.write_text(copy.read_text().replace("mate_in_2", "mate_in_two"))
    before = path.read_bytes()
    with pytest.raises(BadInput, match=r"the checkpoint of another run \(not the same "
                                       r"sources\): name another file"):
        verify(VerifyJob(str(copy), "all", sample=200, seed=4), checkpoint=path)
    with pytest.raises(BadInput, match=r"\(not the same seed\)"):
        verify(VerifyJob(KRK, "all", sample=200, seed=5), checkpoint=path)
    with pytest.raises(BadInput, match=r"\(not the same defender\)"):
        verify(VerifyJob(KRK, "perfect", sample=200, seed=4), checkpoint=path)
    assert path.read_bytes() == before


def test_only_an_edit_to_a_file_the_run_reads_starts_it_again(tmp_path, slices_of_5):
    # a user's own KQK domain, the shipped table on it, and a Prolog file
    # beside them that the run does not load
    domain = tmp_path / "kqk_mine.pl"
    domain.write_text(":- module(kqk_mine, [chess_material/2]).\n"
                      ":- reexport(advice(chess/endgame)).\n"
                      "chess_material('KQ', 'K').\n")
    unread = tmp_path / "notes.pl"
    unread.write_text("% not loaded by the run\n")
    table = tmp_path / "kqk.adv"
    table.write_text(kb_path("chess/kqk.adv").read_text().replace("uses chess/kqk",
                                                                   "uses kqk_mine"))
    job = VerifyJob(str(table), "all", sample=10, seed=1)
    path = tmp_path / "kqk.checkpoint"
    _stopped_run(job, path)
    unread.write_text("% edited\n")
    resumed = verify(job, checkpoint=path)
    assert (resumed["checkpoint"]["positions_before"], resumed["positions"]) == (5, 10)
    domain.write_text(domain.read_text() + "% edited\n")
    with pytest.raises(BadInput, match=r"\(not the same sources\)"):
        verify(job, checkpoint=path)


def test_the_files_a_run_reads_include_those_its_files_include(tmp_path):
    part = tmp_path / "part.pl"
    part.write_text("included_fact(1).\n")
    including = tmp_path / "including.pl"
    including.write_text(":- module(including, []).\n:- include(part).\n")
    session().load_file(including, trusted=True)
    assert {str(including.resolve()), str(part.resolve())} <= set(job_sources())


def test_a_slice_cut_short_is_dropped_and_verified_again(tmp_path, slices_of_100):
    job = VerifyJob(KRK, "all", sample=200, seed=4)
    path = tmp_path / "krk.checkpoint"
    with pytest.raises(Interrupted):
        verify(job, 1, _stop_after(200), checkpoint=path)
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 3  # the run, and two slices
    path.write_bytes(b"".join(lines[:2]) + lines[2][:50])  # killed while writing the last
    resumed = verify(job, 1, checkpoint=path)
    assert (resumed["checkpoint"]["positions_before"], resumed["complete"]) == (100, True)
    assert len(path.read_bytes().splitlines()) == 3


@pytest.fixture(scope="module")
def one_slice(tmp_path_factory) -> tuple[VerifyJob, str, dict]:
    """A job, and the lines of its checkpoint after one slice: the run's
    line, and the slice's (read)."""
    job = VerifyJob(KRK, "all", sample=200, seed=4)
    path = tmp_path_factory.mktemp("one_slice") / "krk.checkpoint"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine.verify, "SLICE", 100)
        _stopped_run(job, path)
    run, slice_ = path.read_text().splitlines()
    return job, run, json.loads(slice_)


def _with_bounds(slice_: dict, bounds: list[int] | None) -> str:
    changed = dict(slice_, bounds=bounds)
    if bounds is None:
        del changed["bounds"]
    return json.dumps(changed)


@pytest.mark.parametrize(("slices", "message"), [
    ([None], r"krk.checkpoint:2: not a slice of advice verify \(the file is damaged\)"),
    ([[150, 250]], r"krk.checkpoint:2: not a slice of advice verify"),  # past the 200
    ([[0, 100], [50, 150]], r"krk.checkpoint: two slices hold the same positions \(the file "
                            r"is damaged\)"),
])
def test_a_damaged_checkpoint_is_refused(tmp_path, one_slice, slices, message):
    job, run, slice_ = one_slice
    path = tmp_path / "krk.checkpoint"
    path.write_text("".join(line + "\n" for line in
                            [run, *(_with_bounds(slice_, bounds) for bounds in slices)]))
    with pytest.raises(BadInput, match=message):
        verify(job, checkpoint=path)


def test_a_slice_that_cannot_be_kept_stops_the_run(tmp_path, slices_of_100, monkeypatch):
    job = VerifyJob(KRK, "all", sample=200, seed=4)
    path = tmp_path / "krk.checkpoint"
    write = Checkpoint._write

    def full_after_one_slice(self, line):
        if line.get("bounds", [0])[0] > 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(self, line)

    monkeypatch.setattr(Checkpoint, "_write", full_after_one_slice)
    with pytest.raises(EngineError, match=r"krk.checkpoint: could not keep the start positions "
                                          r"100..199 \(No space left on device\); the slices "
                                          r"before them are kept"):
        verify(job, 1, checkpoint=path)
    monkeypatch.setattr(Checkpoint, "_write", write)  # room again
    resumed = verify(job, 1, checkpoint=path)
    assert resumed["checkpoint"]["positions_before"] == 100


def test_a_file_that_is_no_checkpoint_is_left_as_it_is(cli, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, no newline at the end")
    run = cli("verify", KRK, "--sample", "5", "--checkpoint", str(notes))
    assert run.code == 2
    assert f"{notes}: not a checkpoint of advice verify (left as it is)" in run.err
    assert notes.read_text() == "my notes, no newline at the end"


def test_the_report_says_what_earlier_runs_verified(cli, tmp_path):
    path = tmp_path / "krk.checkpoint"
    first = cli("verify", KRK, "--defender", "all", "--sample", "20", "--seed", "3",
                "--checkpoint", str(path))
    assert first.code == 0
    assert "resumed from" not in first.out
    second = cli("verify", KRK, "--defender", "all", "--sample", "20", "--seed", "3",
                 "--checkpoint", str(path))
    assert second.code == 0
    assert f"  resumed from {path}: 20 of the positions were verified by earlier runs" \
        in second.out
    # the same report, the resumed line aside (the first line gives the seconds)
    resumed = [line for line in second.out.splitlines()[1:] if "resumed from" not in line]
    assert resumed == first.out.splitlines()[1:]


def test_batch_sets_the_slices_of_a_run_here(cli, tmp_path):
    # slices of 10 of 30 starts: the checkpoint keeps three, and the
    # proof is the one a single slice gives
    path = tmp_path / "krk.checkpoint"
    sliced = cli("verify", KRK, "--defender", "all", "--sample", "30", "--seed", "1",
                 "--batch", "10", "--checkpoint", str(path), "--json")
    whole = cli("verify", KRK, "--defender", "all", "--sample", "30", "--seed", "1", "--json")
    assert (sliced.code, whole.code) == (0, 0)
    assert [json.loads(line).get("bounds") for line in path.read_text().splitlines()[1:]] == [
        [0, 10], [10, 20], [20, 30]]
    assert ({key: json.loads(sliced.out)[key] for key in SAME}
            == {key: json.loads(whole.out)[key] for key in SAME})
    refused = cli("verify", KRK, "--sample", "5", "--batch", "0")
    assert (refused.code, refused.err) == (2, "advice: error: --batch must be at least 1, not 0\n")


def test_a_random_defenders_checkpoint_keeps_its_slices(cli, tmp_path):
    # each slice seeds the random defender, so a run in other slices plays
    # other games and may not go on from this one
    path = tmp_path / "krk.checkpoint"
    args = ["verify", KRK, "--defender", "random", "--sample", "10", "--seed", "1",
            "--checkpoint", str(path)]
    assert cli(*args, "--batch", "5").code == 0
    assert cli(*args, "--batch", "5").code == 0
    other = cli(*args)
    assert other.code == 2
    assert other.err.startswith(f"advice: error: {path}: the checkpoint of another run")
