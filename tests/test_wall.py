"""The operating-system wall alone (engine/sandbox.py): with the Prolog
guard switched off by its test-only setting, a hostile knowledge base
that starts a program, creates a process, writes or reads a file it may
not, or opens a socket is stopped by the wall; the command names the
file and what was refused, exits 2, and nothing is created. The
engine's own jobs and a shipped table still work inside the wall, with
the same figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import command_lines
from engine import sandbox
from engine.prolog import kb_path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
WALL = DATA / "wall"
ADVICE = [sys.executable, "-m", "engine.cli"]

#: the rest of a game for the searches, so that only the hostile part is wrong
GAME = "staticval(_, 0).\nmax_to_move(_).\nmin_to_move(_) :- fail.\ninitial(a).\n"

pytestmark = pytest.mark.skipif(not sandbox.support().complete,
                                reason="this kernel lacks Landlock or seccomp: "
                                       f"{', '.join(sandbox.support().missing)}")

PROGRAM = "tried to start a program or create a process; the wall ended its Prolog process"


def advice(*args: str, env: dict | None = None, cwd: Path | None = None):
    """``advice ARGS...`` in a process of its own."""
    return subprocess.run([*ADVICE, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd=cwd or ROOT)


def unguarded(*args: str, **kwargs):
    """``advice ARGS...`` with the Prolog guard off: only the wall stands."""
    return advice(*args, env={sandbox.UNGUARDED_VARIABLE: "1"}, **kwargs)


def hostile(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """tests/data/wall/NAME.pl in ``tmp_path``, its canary there; and the canary."""
    canary = tmp_path / "canary"
    kb = tmp_path / f"{name}.pl"
    text = (WALL / f"{name}.pl").read_text()
    kb.write_text(text.replace("CANARY", str(canary)).replace("SECRET", str(tmp_path / "secret"))
                  + GAME)
    return kb, canary


@pytest.mark.parametrize("name, refused", [
    ("shell", PROGRAM),
    ("process_create", PROGRAM),
    ("fork", PROGRAM),
    ("load_time", PROGRAM),
    ("open_write", "tried to open {canary}, outside what it may read or write"),
    ("open_read", "tried to open {secret}, outside what it may read or write"),
    ("tcp_connect", "tried to open a network socket"),
])
def test_the_wall_alone_stops_a_hostile_file(tmp_path, name, refused):
    kb, canary = hostile(tmp_path, name)
    (tmp_path / "secret").write_text("password.\n")
    # run from the folder of the secret: `python -m` puts it on sys.path,
    # which gives the wall no reason to let it be read
    run = unguarded("search", "--kb", str(kb), cwd=tmp_path)
    words = refused.format(canary=canary, secret=tmp_path / "secret")
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines()[-1] == \
        f"advice: error: {kb}: refused by the wall: a knowledge base {words}"
    assert "Traceback" not in run.stderr
    assert not canary.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([kb.name, "secret"])


def test_the_guard_stops_the_same_file_first(tmp_path):
    kb, canary = hostile(tmp_path, "shell")
    run = advice("search", "--kb", str(kb))
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1] == \
        f"advice: error: {kb}:2: shell/1 is not allowed in a knowledge base"
    assert not canary.exists()


def test_json_says_what_was_refused(tmp_path):
    kb, canary = hostile(tmp_path, "tcp_connect")
    run = unguarded("search", "--kb", str(kb), "--json")
    assert run.returncode == 2
    assert json.loads(run.stdout)["error"] == \
        f"{kb}: refused by the wall: a knowledge base tried to open a network socket"


def test_trusted_takes_the_wall_down(tmp_path):
    kb, canary = hostile(tmp_path, "open_write")
    run = advice("search", "--kb", str(kb), "--trusted")
    assert run.returncode == 0, run.stderr
    assert canary.read_text() == "owned"
    assert "outside the wall" in run.stderr


def test_a_kernel_without_landlock_is_named_once(tmp_path):
    kb, canary = hostile(tmp_path, "open_write")
    run = advice("search", "--kb", str(kb), "--json",
                 env={sandbox.UNGUARDED_VARIABLE: "1", sandbox.LACKS_VARIABLE: "landlock"})
    warning = ("advice: warning: this machine has no Landlock (the file-system wall): that "
               "part of the wall is missing, the Prolog guard and the rest stand")
    assert run.stderr.count(warning) == 1, run.stderr
    assert json.loads(run.stdout)["wall"] == {
        "landlock_abi": 0, "seccomp": True, "complete": False,
        "missing": ["Landlock (the file-system wall)"]}
    assert canary.read_text() == "owned"  # with the guard off and no Landlock, it wrote


def test_a_walled_game_plays_as_the_shipped_one(tmp_path):
    """A user's copy of a shipped domain runs behind the wall (its
    tablebases read from the cache, its Prolog in the wall): the same
    figures as the shipped table, which runs outside it."""
    domain = tmp_path / "my_kqk.pl"
    domain.write_text(kb_path("chess/kqk.pl").read_text().replace(
        ":- module(kqk,", ":- module(my_kqk,").replace(
        ":- reexport(endgame).", ":- reexport(advice(chess/endgame))."))
    table = tmp_path / "my_kqk.adv"
    table.write_text(kb_path("chess/kqk.adv").read_text().replace(
        "uses chess/kqk", "uses my_kqk"))
    args = ["--sample", "15", "--seed", "3", "--json"]
    shipped = advice("verify", "chess/kqk", *args)
    walled = advice("verify", str(table), *args)
    assert walled.returncode == shipped.returncode == 0, walled.stderr
    mine, theirs = json.loads(walled.stdout), json.loads(shipped.stdout)
    for key in ("positions", "successes", "by_result", "histogram", "max_moves",
                "mean_moves", "mean_ratio"):
        assert mine[key] == theirs[key], key
    assert mine["successes"] == 15


@pytest.mark.skipif(not Path("/usr/bin/setpriv").exists(), reason="no setpriv (util-linux)")
def test_the_wall_needs_no_privilege(tmp_path):
    """The wall stands up in a process without any capability (it needs
    only no_new_privs): the same refusal as root's."""
    kb, canary = hostile(tmp_path, "open_write")
    run = subprocess.run(["/usr/bin/setpriv", "--inh-caps=-all", "--bounding-set=-all",
                          *ADVICE, "search", "--kb", str(kb)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**os.environ, sandbox.UNGUARDED_VARIABLE: "1"})
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        f"advice: error: {kb}: refused by the wall: a knowledge base tried to open "
        f"{canary}, outside what it may read or write")
    assert not canary.exists()


@pytest.mark.parametrize("command", [
    ["explain", "--position", "18"], ["verify"], ["verify", "--workers", "2"],
    ["play", "--position", "18", "--defender", "random"],
])
def test_a_tables_hostile_domain_is_stopped_by_the_wall(tmp_path, command):
    """A table that ``uses`` a user's domain whose goal starts a program,
    through every command that runs tables: the domain named, exit 2."""
    canary = tmp_path / "canary"
    domain = tmp_path / "nim_evil.pl"
    domain.write_text((DATA / "domains" / "nim_al0.pl").read_text()
                      .replace(":- module(nim_al0,", ":- module(nim_evil,")
                      .replace("winning_for_mover(nim(S, _, _)) :-",
                               f"winning_for_mover(nim(S, _, _)) :- shell('touch {canary}'),"))
    table = tmp_path / "nim_evil.adv"
    table.write_text((DATA / "domains" / "nim.adv").read_text()
                     .replace("uses nim_al0", "uses nim_evil"))
    run = unguarded(command[0], str(table), *command[1:])
    process = "worker" if command[0] == "verify" else "Prolog"
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        f"advice: error: {domain}: refused by the wall: a knowledge base tried to start a "
        f"program or create a process; the wall ended its {process} process")
    assert not canary.exists()


def nim_class(tmp_path: Path, students: dict[str, str]) -> Path:
    """The example Nim assignment copied into ``tmp_path``, with a
    submission folder for each student (name -> nim_player.pl's text);
    returns the assignment file."""
    assert advice("grade", "--example", "nim", str(tmp_path / "nim")).returncode == 0
    for student, text in students.items():
        (tmp_path / "nim" / "class" / student).mkdir()
        (tmp_path / "nim" / "class" / student / "nim_player.pl").write_text(text)
    return tmp_path / "nim" / "assignment.toml"


def graded(run) -> dict[str, dict]:
    assert run.returncode == 0, run.stderr
    return {s["student"]: s for s in json.loads(run.stdout)["submissions"]}


def test_a_submission_the_wall_stops_loses_its_points_and_nothing_else(tmp_path):
    canary = tmp_path / "canary"
    reference = tmp_path / "nim" / "reference.pl"
    assignment = nim_class(tmp_path, {
        "mal": ":- module(nim_player, [take/2]).\n"
               f"take(S, 1) :- S > 0, open('{canary}', write, O), close(O).\n",
        "sly": ":- module(nim_player, [take/2]).\n"
               f"take(S, T) :- open('{reference}', read, I), read(I, T), close(I), S > 0.\n",
        "vic": ":- module(nim_player, [take/2]).\n"
               f"take(S, 1) :- S > 0, shell('touch {canary}').\n"})
    folder = assignment.parent / "class"
    run = unguarded("grade", str(assignment), *(str(folder / s) for s in
                                                 ("ada", "mal", "sly", "vic")), "--json")
    results = graded(run)
    assert results["ada"]["score"] == 7.0
    assert [results[s]["score"] for s in ("mal", "sly", "vic")] == [0.0, 0.0, 0.0]
    first = {s: results[s]["results"]["tests"][0]["output"] for s in ("mal", "sly", "vic")}
    assert f"No permission to open source_sink `'{canary}''" in first["mal"]
    assert f"No permission to open source_sink `'{reference}''" in first["sly"]
    assert first["vic"] == ("a worker process ended (the wall ended it: it tried to start a "
                            f"program or create a process) while working on the submission "
                            f"{folder / 'vic'}")
    assert not canary.exists()


def detached_sleeps(marker: str) -> list[int]:
    return [pid for pid, command in command_lines().items()
            if command.split(b"\0")[:2] == [b"sleep", marker.encode()]]


def test_no_process_a_submission_starts_outlives_its_grading(tmp_path):
    """With --trusted (no guard, no wall) a submission may start programs;
    each worker is a process group of its own, killed as a whole when its
    submission is graded, so none of them is left after grade returns."""
    marker = str(3000 + os.getpid() % 1000)
    assignment = nim_class(tmp_path, {
        "sly": ":- module(nim_player, [take/2]).\n"
               f"take(S, 1) :- S > 0, shell('sleep {marker} &').\n"})
    run = advice("grade", str(assignment), str(assignment.parent / "class" / "sly"),
                 "--trusted", "--json")
    assert graded(run)["sly"]["score"] == 3.0  # it ran: some tests pass with take 1
    assert detached_sleeps(marker) == []


def test_grading_names_what_the_wall_lacks_once(tmp_path):
    assignment = nim_class(tmp_path, {})
    run = advice("grade", str(assignment), str(assignment.parent / "class" / "ada"), "--json",
                 env={sandbox.LACKS_VARIABLE: "seccomp"})
    assert run.stderr.count("advice: warning: this machine has no seccomp") == 1, run.stderr
    assert json.loads(run.stdout)["wall"]["missing"] == [
        "seccomp with libseccomp (the wall on programs and sockets)"]
    assert graded(run)["ada"]["score"] == 7.0
