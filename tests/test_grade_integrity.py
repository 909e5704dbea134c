"""advice grade cannot be fooled by a submission: it cannot take a module
name the grader uses, hand in a symbolic link (to the reference, to a
file of the machine), grade a table over a knowledge base of its own,
have a report quote a file outside it, or see the grader's predicates."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.prolog import kb_path

ROOT = Path(__file__).resolve().parent.parent
#: a Nim table and its AL0 domain, a knowledge base of a user's own
DOMAINS = Path(__file__).resolve().parent / "data" / "domains"
NIM_TABLE = (DOMAINS / "nim.adv").read_text()      # uses nim_al0
NIM_DOMAIN = (DOMAINS / "nim_al0.pl").read_text()

#: a right Nim player (leaves 4k + 1), as a body for take/2
RIGHT = "T0 is (S - 1) mod 4, ( T0 =:= 0 -> T = 1 ; T = T0 )"


def example(cli, tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    run = cli("grade", "--example", name, str(folder))
    assert run.code == 0, run.err
    return folder


def student(tmp_path: Path, name: str, files: dict[str, str]) -> Path:
    """A student's folder holding ``files`` (name -> text)."""
    folder = tmp_path / name
    for file, text in files.items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(text)
    return folder


def graded(cli, *args: str) -> dict[str, dict]:
    run = cli("grade", *args, "--json")
    assert run.code == 0, run.err
    return {s["student"]: s for s in run.json()["submissions"]}


def outputs(submission: dict) -> set[str]:
    return {t["output"] for t in submission["results"]["tests"]}


# -- module names -----------------------------------------------------------------------

def test_a_submission_cannot_take_a_module_name_of_the_graders(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    always_one = "take(_, 1).\n"
    subs = {
        # once the grader's next context: it was graded with the reference's take/2
        "grabber": student(tmp_path, "grabber", {
            "nim_player.pl": ":- module(graded_2, [take/2]).\n" + always_one}),
        "plain": student(tmp_path, "plain", {"nim_player.pl": always_one}),
        # the module of the teacher's plunit unit, and the grader's own
        "unit": student(tmp_path, "unit", {
            "nim_player.pl": ":- module(plunit_nim_player, [take/2]).\n" + always_one}),
        "jobs": student(tmp_path, "jobs", {
            "nim_player.pl": ":- module(grading, [take/2]).\n" + always_one}),
    }
    results = graded(cli, str(nim / "assignment.toml"), *map(str, subs.values()), "--jobs", "2")
    # the same code scores the same under any module name of its own
    assert results["grabber"]["score"] == results["plain"]["score"] < 7
    for name, module in (("unit", "plunit_nim_player"), ("jobs", "grading")):
        file = (subs[name] / "nim_player.pl").resolve()
        assert outputs(results[name]) == {
            f"nim_player.pl was not loaded:\n{file}:1: the module name {module} is taken (by "
            "the grader, a library or a file loaded before it): give the file a module name "
            "of its own"}
        assert results[name]["score"] == 0


# -- symbolic links ---------------------------------------------------------------------

def test_symbolic_links_are_refused_never_followed(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    secret = tmp_path / "secret.pl"
    secret.write_text("db_password('hunter2').\n")  # parses as Prolog
    to_reference = tmp_path / "eve"
    to_reference.mkdir()
    (to_reference / "nim_player.pl").symlink_to(nim / "reference.pl")
    to_secret = tmp_path / "mallet"
    to_secret.mkdir()
    (to_secret / "nim_player.pl").symlink_to(secret)
    dangling = tmp_path / "oscar"
    dangling.mkdir()
    (dangling / "nim_player.pl").symlink_to(tmp_path / "nowhere.pl")
    linked_folder = tmp_path / "trudy"
    linked_folder.symlink_to(nim / "class" / "ada")
    linked_file = tmp_path / "walter.pl"
    linked_file.symlink_to(nim / "reference.pl")
    report = tmp_path / "reports"
    results = graded(cli, str(nim / "assignment.toml"), str(to_reference), str(to_secret),
                     str(dangling), str(linked_folder), str(linked_file),
                     str(nim / "class" / "ada"), "--report", str(report))
    assert {name: r["score"] for name, r in results.items()} == {
        "eve": 0, "mallet": 0, "oscar": 0, "trudy": 0, "walter": 0, "ada": 7}
    for name in ("eve", "mallet", "oscar"):
        assert outputs(results[name]) == {f"{name}/nim_player.pl is a symbolic link: refused"}
    # a submission that is a link is named after the link, and refused whole
    assert results["trudy"]["results"]["output"] == "trudy is a symbolic link: refused"
    assert outputs(results["trudy"]) == {"trudy is a symbolic link: refused"}
    assert results["walter"]["results"]["output"] == "walter.pl is a symbolic link: refused"
    texts = "".join(p.read_text() for p in report.iterdir())
    assert "trudy is a symbolic link: refused" in (report / "trudy.md").read_text()
    assert "mallet/nim_player.pl is a symbolic link: refused" in (report / "mallet.md").read_text()
    assert "hunter2" not in texts and "db_password" not in texts


# -- tables -------------------------------------------------------------------------------

def test_a_krk_table_must_use_the_shipped_krk(cli, tmp_path):
    krk = example(cli, tmp_path, "krk")
    book = kb_path("chess/krk.adv").read_text()
    ttt = kb_path("games/tictactoe.adv").read_text()
    subs = [
        student(tmp_path, "ada", {"krk.adv": book}),
        # a game and its domain of the student's own (a Nim table: once 10.8 of 12)
        student(tmp_path, "own", {"krk.adv": NIM_TABLE, "nim_al0.pl": NIM_DOMAIN}),
        # a shipped knowledge base, but not the assignment's
        student(tmp_path, "other", {"krk.adv": ttt}),
        # a chess/krk.pl of the student's, which `uses chess/krk` finds first
        student(tmp_path, "shadow", {"krk.adv": book, "chess/krk.pl": NIM_DOMAIN}),
        # a link to the shipped folder: never followed, even there
        student(tmp_path, "linker", {"krk.adv": book}),
    ]
    (tmp_path / "linker" / "chess").symlink_to(kb_path("chess"))
    results = graded(cli, str(krk / "assignment.toml"), *map(str, subs), "--jobs", "2")
    assert {name: r["score"] for name, r in results.items()} == {
        "ada": 12, "own": 0, "other": 0, "shadow": 0, "linker": 0}
    assert outputs(results["own"]) == {
        "krk.adv uses nim_al0, a knowledge base of its own: a table of this assignment "
        "must use chess/krk"}
    assert outputs(results["other"]) == {
        "krk.adv uses games/tictactoe_al0, another knowledge base: a table of this "
        "assignment must use chess/krk"}
    assert outputs(results["linker"]) == {"linker/chess is a symbolic link: refused"}
    assert outputs(results["shadow"]) == {
        "krk.adv uses chess/krk, a knowledge base of its own: a table of this assignment "
        "must use chess/krk"}


TABLE_ASSIGNMENT = """[assignment]
title = "tic-tac-toe"
files = ["t.adv"]

[[test]]
name = "plays"
kind = "table"
points = 1
"""


@pytest.mark.parametrize(("key", "scores"), [
    ("", {"shipped": 1, "own": 0, "outside": 0}),
    ("allow_own_domain = true\n", {"shipped": 1, "own": 1, "outside": 0}),
])
def test_a_table_uses_its_own_domain_only_where_allowed(cli, tmp_path, key, scores):
    assignment = tmp_path / "assignment.toml"
    assignment.write_text(TABLE_ASSIGNMENT + key)
    beside = tmp_path / "beside"  # not a submission: a folder beside the class
    beside.mkdir()
    (beside / "nim_al0.pl").write_text(NIM_DOMAIN)
    subs = [student(tmp_path, "shipped", {"t.adv": kb_path("games/tictactoe.adv").read_text()}),
            student(tmp_path, "own", {"t.adv": NIM_TABLE, "nim_al0.pl": NIM_DOMAIN}),
            student(tmp_path, "outside", {"t.adv": NIM_TABLE.replace(
                "uses nim_al0", "uses ../beside/nim_al0")})]
    results = graded(cli, str(assignment), *map(str, subs), "--jobs", "2")
    assert {name: r["score"] for name, r in results.items()} == scores, \
        {name: outputs(r) for name, r in results.items()}
    if key:
        assert outputs(results["outside"]) == {
            "t.adv uses ../beside/nim_al0, which is not a file in the submission's "
            "folder: a table of this assignment must use a knowledge base shipped with "
            "advice or one handed in with it"}
    else:
        assert outputs(results["own"]) == {
            "t.adv uses nim_al0, a knowledge base of its own: a table of this "
            "assignment must use one shipped with advice (under its kb/)"}


@pytest.mark.parametrize(("keys", "message"), [
    ('domain = "chess/nope"\n', "{a}:9: test 'plays': domain = 'chess/nope': no knowledge "
     "base shipped under advice's kb/ has that name (e.g. domain = \"folder/name\")"),
    ('domain = "assignments/nim/reference"\n', "{a}:9: test 'plays': domain = "
     "'assignments/nim/reference': no knowledge base shipped under advice's kb/ has that "
     "name (e.g. domain = \"folder/name\")"),
    ('domain = "chess/krk"\nallow_own_domain = true\n', "{a}:10: test 'plays': give domain "
     "(the knowledge base every table must use) or allow_own_domain = true, not both"),
    ('allow_own_domain = "yes"\n', "{a}:9: test 'plays': allow_own_domain must be true or "
     "false"),
])
def test_a_bad_domain_key_is_refused_at_its_line(cli, tmp_path, keys, message):
    assignment = tmp_path / "assignment.toml"
    assignment.write_text(TABLE_ASSIGNMENT + keys)
    (tmp_path / "t.adv").write_text("")
    run = cli("grade", str(assignment), str(tmp_path / "t.adv"))
    assert (run.code, run.out) == (2, "")
    assert run.err == f"advice: error: {message.format(a=assignment)}\n"


# -- what a report quotes ----------------------------------------------------------------

def test_a_report_quotes_no_line_about_a_file_outside_the_submission(tmp_path):
    from engine.grading.worker import Submission, _Grader

    folder = tmp_path / "ada"
    folder.mkdir()
    grader = _Grader(None, Submission("ada", folder))
    text = (f"nim_player.pl was not loaded:\n{folder.resolve()}/nim_player.pl:3: shell/1 is "
            "not allowed in a knowledge base\n/etc/secret.pl:1: defining db_password:'x'/0 is "
            "not allowed\n/etc/secret.pl:2: defining db_user:'y'/0 is not allowed")
    assert grader._own(text).splitlines() == [
        "nim_player.pl was not loaded:",
        f"{folder.resolve()}/nim_player.pl:3: shell/1 is not allowed in a knowledge base",
        "(a line about a file outside the submission, not shown)"]


# -- what a submission can see -----------------------------------------------------------

#: loads the teacher's files and a submission as a grading worker does, in
#: a Prolog of its own, and lists what the submission's module sees of the
#: engine's modules (those loaded from kb/) and of the grader's contexts
SEES = """
import json, os, sys, tomllib
from pathlib import Path
from engine.prolog import atom, kb_path, session, use_in_process_session
use_in_process_session()
from engine.grading.assignment import GRADER_CONTEXT, _Reader
from engine.grading.worker import Submission, _Grader
path = Path(sys.argv[1])
text = path.read_text()
grader = _Grader(_Reader(path, text).assignment(tomllib.loads(text)),
                 Submission("ada", Path(sys.argv[2])))
grader.load_teachers_files()
me = grader._module("nim_player.pl")
ours = [grader._reference, GRADER_CONTEXT]
kb = atom(str(kb_path("").resolve()))
print(session().ask(
    f"findall(T, (predicate_property({me}:H, visible),"
    f" predicate_property({me}:H, implementation_module(M)), M \\\\== {me},"
    f" ( memberchk(M, [{', '.join(ours)}]), F = context"
    f" ; module_property(M, file(F)), sub_atom(F, 0, _, _, {kb}) ),"
    f" functor(H, N, A), format(string(T), '~w ~w/~w ~w', [M, N, A, F])), Ts0),"
    f" sort(Ts0, Ts),"
    f" ( current_predicate({me}:inputs_json/3) -> Probe = yes ; Probe = no ),"
    f" atom_json_term(Out, json([visible=Ts, inputs_json=Probe]), [as(string)])"),
    flush=True)
os._exit(0)
"""


def test_the_grader_is_invisible_to_a_submission(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    run = subprocess.run([sys.executable, "-c", SEES, str(nim / "assignment.toml"),
                          str(nim / "class" / "ada")], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["inputs_json"] == "no"
    # nothing of the grading jobs, of what they load (the searches, plunit),
    # of the reference or of the grader's contexts: only the engine's bridge,
    # which every Prolog of the engine has (and the guard keeps calls from)
    found = [line.split() for line in seen["visible"]]
    grading = str(kb_path("grading"))
    assert not [entry for entry in found
                if entry[2] == "context" or entry[2].startswith(grading)
                or entry[0] in ("grading", "search", "game_io")], found
    assert {module for module, *_ in found} <= {"bridge"}, found


def test_a_submission_cannot_tell_it_is_being_graded(cli, tmp_path):
    nim = example(cli, tmp_path, "nim")
    probes = " ; ".join(f"predicate_property({p}, defined)" for p in (
        "inputs_json(_, _, _)", "compare_job(_, _, _, _, _)", "plunit_job(_, _, _)",
        "legal_take(_, _)", "pile(_)"))
    # it plays well only where it sees none of the grader
    spy = student(tmp_path, "spy", {
        "nim_player.pl": f"take(S, T) :- ( ( {probes} ) -> T = 1 ; {RIGHT} ).\n"})
    results = graded(cli, str(nim / "assignment.toml"), str(spy))
    output = "\n".join(outputs(results["spy"]))
    if "was not loaded" in output:  # the guard may refuse the probe itself
        assert "predicate_property" in output
    else:
        assert results["spy"]["score"] == 7, output
