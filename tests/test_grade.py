"""advice grade: the example assignments graded on sample classes (a
right answer, a typical bug, a hostile file), exact scores and reasons;
a submission that hangs, loops or kills its process costs only itself;
a bad assignment file is refused at file:line; the README's walk-through
runs as written."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.prolog import kb_path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "grading"


def example(cli, tmp_path: Path, name: str) -> Path:
    """The example assignment ``name`` copied out by ``advice grade
    --example``; returns its folder."""
    folder = tmp_path / name
    run = cli("grade", "--example", name, str(folder))
    assert (run.code, run.err) == (0, "")
    assert run.out == (f"copied the example assignment {name} into {folder}/; grade with: "
                       f"advice grade {folder}/assignment.toml SUBMISSION...\n")
    return folder


def sample(tmp_path: Path, assignment: str, student: str) -> Path:
    """A sample submission of tests/data/grading, copied beside the class."""
    source = DATA / assignment / student
    target = tmp_path / student
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copy(source, target)
    return target


def graded(cli, *args: str) -> dict[str, dict]:
    """``advice grade ARGS --json``: each submission's results by student."""
    run = cli("grade", *args, "--json")
    assert run.code == 0, run.err
    return {s["student"]: s for s in run.json()["submissions"]}


def results_of(submission: dict) -> dict[str, tuple[float, str]]:
    """Each test of a submission by name: its score and output."""
    return {t["name"]: (t["score"], t["output"]) for t in submission["results"]["tests"]}


# -- the example assignments ----------------------------------------------------

def test_nim(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    mallory = sample(tmp_path, "nim", "mallory")
    looping = sample(tmp_path, "nim", "looping")
    report = tmp_path / "reports"
    results = graded(cli, str(nim / "assignment.toml"), str(nim / "reference.pl"),
                     *sorted(str(p) for p in (nim / "class").iterdir()), str(mallory),
                     str(looping), "--jobs", "2", "--report", str(report))
    assert {name: (r["score"], r["max_score"]) for name, r in results.items()} == {
        "reference": (7, 7), "ada": (7, 7), "bob": (5.75, 7), "mallory": (0, 7),
        "looping": (0, 7)}
    bob = results_of(results["bob"])
    assert bob["legal moves"] == (0.75, "take/2: 30 of 40 inputs answered right\n" + "\n".join(
        f"  take({n}, _): answered 0, which is not a right answer" for n in range(1, 40, 4)))
    assert bob["winning moves"] == (3, "take/2: 30 of 30 inputs answered right")
    assert bob["tests: takes_the_last_stick_only_when_forced"] == (0, "tests.pl:20: failed")
    assert bob["tests: never_loses_from_22_against_every_defence"] == (1, "tests.pl:26: passed")
    refused = (f"nim_player.pl was not loaded:\n{mallory}/nim_player.pl:3: shell/1 is not "
               "allowed in a knowledge base")
    assert set(results_of(results["mallory"]).values()) == {(0, refused)}
    assert not (ROOT / "stolen.txt").exists()
    looped = results_of(results["looping"])
    assert looped["winning moves"][1].splitlines()[1] == \
        "  take(2, _): it ran past its limit of 100,000 inferences"
    assert looped["tests: one_answer_only"] == (
        0, "tests.pl:23: it ran past its limit of 10,000,000 inferences")

    assert (report / "summary.csv").read_text() == (
        "student,score,max_score,legal moves,winning moves,tests,note\n"
        "reference,7,7,1,3,3,\n"
        "ada,7,7,1,3,3,\n"
        "bob,5.75,7,0.75,3,2,\n"
        f"mallory,0,7,0,0,0,{' '.join(refused.split())}\n"
        "looping,0,7,0,0,0,\n")
    assert json.loads((report / "bob.json").read_text()) == results["bob"]["results"]
    bob_md = (report / "bob.md").read_text()
    assert bob_md.startswith("# A Nim player that never loses from a winning position\n\n"
                             "**bob**: 5.75 of 7 points\n")
    assert "| legal moves | 0.75 / 1 | partly |" in bob_md
    assert "### tests: takes_the_last_stick_only_when_forced (0 / 1)\n\n```\n" \
           "tests.pl:20: failed\n```" in bob_md
    assert (report / "mallory.md").read_text().count("shell/1 is not allowed") == 1  # once


def test_alphabeta(cli, tmp_path):
    folder = example(cli, tmp_path, "alphabeta")
    mallory = sample(tmp_path, "alphabeta", "mallory")
    results = graded(cli, str(folder / "assignment.toml"), str(folder / "reference.pl"),
                     str(folder / "class" / "ada"), str(folder / "class" / "bob"),
                     str(mallory), "--jobs", "2")
    assert {name: r["score"] for name, r in results.items()} == {
        "reference": 9, "ada": 9, "bob": 8, "mallory": 0}
    ada = results_of(results["ada"])
    assert ada["the game"] == (2, (
        "pos([x,e,e, e,o,e, e,e,e], x): passed: minimax 0 (7,332 positions), "
        "alphabeta 0 (871 positions)\n"
        "pos([e,e,e, e,x,e, e,e,o], x): passed: minimax 0 (6,812 positions), "
        "alphabeta 0 (1,815 positions)\n"
        "pos([x,x,e, o,o,e, e,e,e], o): passed: minimax MIN wins in 1 ply (145 positions), "
        "alphabeta MIN wins in 1 ply (23 positions)"))
    assert ada["alpha-beta values"] == (4, "alphabeta/5: 8 of 8 inputs answered right")
    bob = results_of(results["bob"])
    assert bob["test routine: alphabeta_visits_fewer"] == (0, "tests.pl:16: failed")
    assert bob["test routine: counts_start_again_each_time"][0] == 1
    refused = results_of(results["mallory"])["the game"][1].splitlines()
    assert refused == [
        "alphabeta.pl was not loaded:",
        f"{mallory}/alphabeta.pl:3: use_module/1 of library(readutil) is not allowed in a "
        "knowledge base (the libraries it may use: aggregate, apply, assoc, clpfd, "
        "dcg/basics, dicts, error, lists, occurs, ordsets, pairs, random, rbtrees, "
        "solution_sequences, strings, ugraphs, yall; and advice(chess/endgame), advice(chess/concepts))",
        f"{mallory}/alphabeta.pl:6: calling search:alphabeta/5 is not allowed in a knowledge "
        "base: it is a call into another module",
        f"{mallory}/alphabeta.pl:9: read_file_to_string/3 is not allowed in a knowledge base"]


CAROL = """table carol "King and rook versus king"
uses chess/krk

rule any:
    if true
    then forward

advice forward:
    better:  mate_soon
    holding: not rooklost
    us:      depth = 0 and legal
    them:    nomove
"""


def test_krk(cli, tmp_path):
    folder = example(cli, tmp_path, "krk")
    reference, ada, carol = (tmp_path / f"{name}.adv" for name in ("reference", "ada", "carol"))
    shutil.copy(kb_path("chess/krk_plus.adv"), reference)  # the README's reference solution
    shutil.copy(kb_path("chess/krk.adv"), ada)  # the book's table: right on the sample
    carol.write_text(CAROL)  # a table that does not check
    results = graded(cli, str(folder / "assignment.toml"), str(reference),
                     str(ada), str(sample(tmp_path, "krk", "bob.adv")), str(carol),
                     str(sample(tmp_path, "krk", "mallory")), "--jobs", "2")
    assert {name: r["score"] for name, r in results.items()} == {
        "reference": 12, "ada": 12, "bob": 7.2, "carol": 0, "mallory": 0}
    assert set(results_of(results["carol"]).values()) == {(0, (
        f"{carol}:9:14: error: unknown goal predicate 'mate_soon'; did you mean mates_in, mate?\n"
        "    better:  mate_soon\n"
        "             ^"))}
    perfect = results_of(results["bob"])["mates against the perfect defender"]
    assert perfect[0] == 6.8
    assert perfect[1].splitlines()[:3] == [
        "table bob: succeeds from 17 of 20 positions (a sample of the 21,959 start "
        "positions) against the perfect defender",
        "it fails from:",
        "  8/8/8/5R2/7k/8/8/1K6 w - - 0 1  (loop): 1. Kc2 Kg4 2. Rf1 Kg3 3. Rf5 Kg4 4. Rf1 "
        "Kg3"]
    every = results_of(results["bob"])["mates against every defence"]
    assert every[0] == 0.4
    assert every[1].startswith("table bob: succeeds from 1 of 10 positions (a sample of the "
                               "175,168 start positions) against every defence\n")
    refused = results_of(results["mallory"])["mates against the perfect defender"][1]
    assert refused.splitlines()[:2] == [
        "krk.adv: its knowledge base was not loaded:",
        f"{tmp_path}/mallory/helpers.pl:6: shell/1 is not allowed in a knowledge base"]


# -- a submission costs only itself -----------------------------------------------

def test_a_worker_that_dies_costs_only_its_submission(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    halting = sample(tmp_path, "nim", "halting")
    results = graded(cli, str(nim / "assignment.toml"), str(halting),
                     str(nim / "class" / "ada"), "--trusted")
    reason = f"a worker process ended (a knowledge base called halt/0) while working on " \
             f"the submission {halting}"
    assert results["halting"]["results"]["output"] == reason
    assert set(results_of(results["halting"]).values()) == {(0, reason)}
    assert results["ada"]["score"] == 7


def test_a_hang_prolog_cannot_interrupt_is_ended(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    sleepy = sample(tmp_path, "nim", "sleepy")
    results = graded(cli, str(nim / "assignment.toml"), str(sleepy),
                     str(nim / "class" / "ada"), "--time-limit", "0.5", "--jobs", "2")
    assert results["sleepy"]["results"]["output"] == (
        f"a worker process was ended: it worked on the submission {sleepy} for more than "
        "11.5 s without a word")
    assert results["sleepy"]["score"] == 0 and results["ada"]["score"] == 7


# -- what a teacher gets wrong -----------------------------------------------------

HEAD = '[assignment]\ntitle = "x"\nfiles = ["p.pl"]\nreference = "reference.pl"\n\n'


@pytest.mark.parametrize(("toml", "message"), [
    ('[assignment]\ntitle = \n', "{a}:2:9: Invalid value"),
    ('[assignment]\ntitle = "x"\nfiles = ["p.pl"\n', "{a}:3: Unclosed array at the end"),
    ('[assignment]\ntitle = "x"\nfiles = ["p.pl"]\n\n[tests]\nname = "t"\n',
     "{a}:5: unknown table 'tests': an assignment has [assignment] and [[test]] tables"),
    ('[assignment]\ntitle = "x"\nfiles = ["p.pl", "q.adv"]\n\n[[test]]\nname = "t"\n'
     'kind = "table"\npoints = 1\n',
     "{a}:5: test 't': say which of the files it grades (file = one of p.pl, q.adv)"),
    (HEAD + '[[test]]\nname = "t"\nkind = "unit"\npoints = 1\n',
     "{a}:8: unknown kind 'unit': choose plunit, compare, search, table"),
    (HEAD + '[[test]]\nname = "t"\nkind = "plunit"\npoints = 1\ntests = "gone.pl"\n',
     "{a}:10: test 't': tests = 'gone.pl': no such file {d}/gone.pl"),
    (HEAD + '[[test]]\nname = "a"\nkind = "plunit"\npoints = 1\ntests = "tests.pl"\n\n'
     '[[test]]\nname = "b"\nkind = "compare"\npredicate = "take/2"\ninputs = ["1"]\n',
     "{a}:12: test 'b': points must be a positive number"),
    (HEAD + '[[test]]\nname = "t"\nkind = "compare"\npoints = 1\npredicate = "take/2"\n'
     'reference_predicate = "lose/2"\ninputs = ["1"]\n',
     "{a}:11: test 't': the reference does not define lose/2"),
    (HEAD + '[[test]]\nname = "t"\nkind = "compare"\npoints = 1\npredicate = "take/2"\n'
     'inputs = ["1", "2, 3"]\n',
     "{a}:11: test 't': the input '2, 3' gives 2 arguments where 1 are needed"),
    (HEAD + '[[test]]\nname = "t"\nkind = "table"\npoints = 1\n',
     "{a}:8: test 't': a table test grades a .adv file, not p.pl"),
    (HEAD + '[[test]]\nname = "t"\nkind = "search"\npoints = 1\nsampel = 3\n',
     "{a}:10: test 't': unknown key 'sampel'; the keys of a search test are name, kind, "
     "points, file, positions, algorithms, depth, fewer, time_limit, inference_limit"),
    (HEAD + '[[test]]\nname = "t"\nkind = "search"\npoints = 1\n',
     "{a}:8: test 't': the reference is no game: it does not define moves/2, staticval/2, "
     "max_to_move/1, min_to_move/1"),
    ('[assignment]\ntitle = "x"\nfiles = ["p.pl"]\n\n[[test]]\nname = "t"\nkind = "plunit"\n'
     'points = 1\ntests = "reference.pl"\n',
     "{a}:9: test 't': {d}/reference.pl defines no plunit tests (test(Name) :- Body, "
     "between begin_tests/1 and end_tests/1)"),
])
def test_a_bad_assignment_file_is_refused_at_its_line(cli, tmp_path, toml, message):
    for name in ("reference.pl", "tests.pl"):
        shutil.copy(kb_path(f"assignments/nim/{name}"), tmp_path / name)
    assignment = tmp_path / "assignment.toml"
    assignment.write_text(toml)
    (tmp_path / "p.pl").write_text("take(_, 1).\n")
    run = cli("grade", str(assignment), str(tmp_path / "p.pl"))
    assert (run.code, run.out) == (2, "")
    assert run.err == f"advice: error: {message.format(a=assignment, d=tmp_path)}\n"


@pytest.mark.parametrize(("args", "message"), [
    (["{a}"], "give an assignment file and the submissions to grade (advice grade "
              "ASSIGNMENT SUBMISSION...), or --example NAME to copy one out"),
    (["{a}", "{t}/nobody.pl"], "{t}/nobody.pl: no such file or folder"),
    (["{a}", str(kb_path("assignments/nim/class/ada"))],
     f"{kb_path('assignments/nim/class/ada')}: is inside advice's own kb folder, whose files "
     "are loaded unchecked: copy it out first (advice grade --example copies an example "
     "assignment out)"),
    (["{a}", "{t}/p.pl", "{t}/q/p.pl"], "{t}/q/p.pl: two submissions are named p "
                                       "({t}/p.pl and {t}/q/p.pl)"),
    (["{a}", "{t}/p.pl", "--jobs", "0"], "--jobs must be at least 1, not 0"),
    (["--example", "chess"], "unknown example assignment 'chess': choose alphabeta, krk, nim"),
    (["--example", "nim", "{t}"], "{t}: is not empty; give a new folder for the example"),
])
def test_bad_arguments(cli, tmp_path, args, message):
    nim = kb_path("assignments/nim")
    shutil.copy(nim / "assignment.toml", tmp_path)
    shutil.copy(nim / "reference.pl", tmp_path)
    shutil.copy(nim / "tests.pl", tmp_path)
    (tmp_path / "q").mkdir()
    for path in (tmp_path / "p.pl", tmp_path / "q" / "p.pl"):
        path.write_text("take(_, 1).\n")
    run = cli("grade", *[a.format(a=tmp_path / "assignment.toml", t=tmp_path) for a in args])
    assert (run.code, run.out) == (2, "")
    assert run.err == f"advice: error: {message.format(t=tmp_path)}\n"


def test_help_shows_how_to_write_an_assignment(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    out = capsys.readouterr().out
    assert "An assignment file (TOML; paths in it are relative to it):" in out
    assert '  compare  predicate = "take/2": the student\'s;' in out
    assert out.rstrip().endswith("alphabeta, krk, nim")


# -- the README's walk-through -------------------------------------------------------

def walk_through() -> list[str]:
    """The commands of the README's teacher's walk-through, as written."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"### A teacher's walk-through\n.*?```sh\n(.*?)```", text, re.S)[1]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_walk_through_runs_as_written(tmp_path):
    commands = walk_through()
    assert len(commands) == 5
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
                                  f"{os.environ['PATH']}"}
    outputs = []
    for command in commands:
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert (done.returncode, done.stderr) == (0, ""), command
        outputs.append(done.stdout)
    assert outputs[1] == (kb_path("assignments/nim/assignment.toml")).read_text()
    assert "| reference | 7 / 7 | 1 | 3 | 3 |  |" in outputs[2]
    table = outputs[3]
    assert "| ada | 7 / 7 | 1 | 3 | 3 |  |\n| bob | 5.75 / 7 | 0.75 | 3 | 2 |  |\n" in table
    readme = (ROOT / "README.md").read_text()
    assert "| ada | 7 / 7 | 1 | 3 | 3 |  |\n| bob | 5.75 / 7 | 0.75 | 3 | 2 |  |\n" in readme
    assert outputs[4] == (tmp_path / "reports" / "bob.md").read_text()
    assert "take(5, _): answered 0, which is not a right answer" in outputs[4]
    rows = list(csv.reader(io.StringIO((tmp_path / "reports" / "summary.csv").read_text())))
    assert rows[1:] == [["ada", "7", "7", "1", "3", "3", ""],
                        ["bob", "5.75", "7", "0.75", "3", "2", ""]]
