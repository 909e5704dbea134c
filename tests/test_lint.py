"""Diagnostics a student can act on: the linter (``advice check --kb``),
searches that name the predicate and the position at fault, warnings
where a search would be silently wrong, stdout kept for the JSON, and
errors that name the file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import student_game
from engine.lint import lint

DATA = (Path(__file__).parent / "data").resolve()
LINT = DATA / "lint"

#: for each game of tests/data/lint: its findings, each (kind, line of the
#: predicate's first clause, positions, the texts of the first three)
FINDINGS = {
    "staticval_fails": [("staticval_failed", 15, 1, [
        "staticval/2 failed on position c(0,max)"])],
    "staticval_raises": [("staticval_raised", 15, 2, [
        "staticval/2 raised an error on position c(2,min): ///2: Arithmetic: evaluation "
        "error: `zero_divisor'",
        "staticval/2 raised an error on position c(2,max): ///2: Arithmetic: evaluation "
        "error: `zero_divisor'"])],
    "staticval_words": [("staticval_not_a_number", 15, 2, [
        "staticval/2 gave loss on position c(0,max), not a number",
        "staticval/2 gave win on position c(0,min), not a number"])],
    "moves_raises": [("moves_raised", 4, 1, [
        "moves/2 raised an error on position c(4,max): is/2: Arithmetic: `two/0' is not a "
        "function"])],
    "moves_not_a_list": [("moves_not_a_list", 4, 1, [
        "moves/2 gave c(3,min) on position c(4,max), not a list of positions"])],
    "moves_unbound": [("moves_not_ground", 4, 1, [
        "moves/2 gave c(3,_) on position c(4,max): a position must be a ground term"])],
    "moves_numbers": [("moves_not_a_position", 4, 1, [
        "moves/2 gave 3 on position c(4,max), which is not a position: neither moves/2 nor "
        "staticval/2 accepts it"])],
    "moves_nondeterministic": [("moves_several_solutions", 5, 6, [
        "moves/2 has more than one solution on position c(4,max)",
        "moves/2 has more than one solution on position c(3,min)",
        "moves/2 has more than one solution on position c(2,min)"])],
    "moves_choice_point": [("moves_choice_point", 4, 6, [
        "moves/2 left a choice point on position c(4,max)",
        "moves/2 left a choice point on position c(3,min)",
        "moves/2 left a choice point on position c(2,min)"])],
    "moves_twice": [("moves_duplicate", 4, 6, [
        "moves/2 gave c(3,min) twice on position c(4,max)",
        "moves/2 gave c(2,max) twice on position c(3,min)",
        "moves/2 gave c(1,max) twice on position c(2,min)"])],
    "min_never_moves": [("turn_neither", None, 4, [
        "neither max_to_move/1 nor min_to_move/1 holds on position c(3,min)",
        "neither max_to_move/1 nor min_to_move/1 holds on position c(2,min)",
        "neither max_to_move/1 nor min_to_move/1 holds on position c(1,min)"])],
    "max_always_moves": [("turn_both", None, 4, [
        "both max_to_move/1 and min_to_move/1 hold on position c(3,min)",
        "both max_to_move/1 and min_to_move/1 hold on position c(2,min)",
        "both max_to_move/1 and min_to_move/1 hold on position c(1,min)"])],
    "turn_raises": [("min_to_move_raised", 13, 8, [
        "min_to_move/1 raised an error on position c(4,max): =:=/2: Arithmetic: `max/0' is "
        "not a function",
        "min_to_move/1 raised an error on position c(3,min): =:=/2: Arithmetic: `min/0' is "
        "not a function",
        "min_to_move/1 raised an error on position c(2,min): =:=/2: Arithmetic: `min/0' is "
        "not a function"])],
}


def test_every_test_game_is_listed():
    assert sorted(FINDINGS) == sorted(p.stem for p in LINT.glob("*.pl"))


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_each_fault_is_found_and_named(name):
    report = lint(student_game(str(LINT / f"{name}.pl")))
    found = [(f.kind, f.line, f.count, [e.text for e in f.examples]) for f in report.findings]
    assert found == FINDINGS[name]
    assert all(f.file == str(LINT / f"{name}.pl") for f in report.findings)
    assert not report.ok


@pytest.mark.parametrize(("game", "positions", "depth"), [
    ("tictactoe", 5_478, 9), ("nim", 42, 8),
])
def test_the_shipped_games_lint_clean(game, positions, depth):
    report = lint(game)
    assert (report.ok, report.positions, report.depth, report.complete) == \
        (True, positions, depth, True)


def test_bounds_examine_fewer_positions():
    first = lint("tictactoe", positions=100)
    assert (first.positions, first.depth, first.complete) == (100, 3, False)
    shallow = lint("tictactoe", depth=1)
    assert (shallow.positions, shallow.depth, shallow.complete) == (10, 1, False)
    assert lint("nim", "5", depth=2).starts == ("nim(5,max)",)


def test_check_kb_for_people(cli):
    path = LINT / "staticval_raises.pl"
    run = cli("check", "--kb", str(path))
    assert run.code == 1
    assert run.out == (
        f"{path}:15: staticval/2 raises an error on 2 positions\n"
        "    staticval/2 raised an error on position c(2,min): ///2: Arithmetic: evaluation "
        "error: `zero_divisor'\n"
        "    staticval/2 raised an error on position c(2,max): ///2: Arithmetic: evaluation "
        "error: `zero_divisor'\n"
        f"{path}: 1 kind of fault in 8 positions (every position reachable from the start)\n")
    assert run.err == f"advice: {path}: the game has 1 kind of fault\n"


def test_check_kb_more_than_shown(cli):
    run = cli("check", "--kb", str(LINT / "moves_twice.pl"))
    assert run.code == 1
    assert run.out.splitlines()[4] == "    ... and 3 more"


def test_check_kb_clean_and_bounded(cli):
    countdown = DATA / "countdown.pl"
    run = cli("check", "--kb", str(countdown))
    assert (run.code, run.out) == (0, f"{countdown}: no fault in 8 positions (every "
                                      "position reachable from the start)\n")
    run = cli("check", "--kb", "tictactoe", "--positions", "100")
    assert run.code == 0
    assert run.out.endswith(": no fault in 100 positions (the first breadth-first from "
                            "the start, to depth 3: --positions and --depth examine more)\n")


def test_check_kb_json(cli):
    path = LINT / "min_never_moves.pl"
    run = cli("check", "--kb", str(path), "--depth", "1", "--json")
    assert run.code == 1
    assert run.json() == {
        "game": "min_never_moves", "file": str(path), "ok": False, "starts": ["c(4,max)"],
        "positions": 3, "depth": 1, "complete": False, "warnings": [],
        "findings": [{
            "kind": "turn_neither", "predicate": "max_to_move/1 and min_to_move/1",
            "file": str(path), "line": None,
            "summary": "neither max_to_move/1 nor min_to_move/1 holds", "count": 2,
            "examples": [
                {"position": "c(3,min)", "text": "neither max_to_move/1 nor min_to_move/1 "
                 "holds on position c(3,min)"},
                {"position": "c(2,min)", "text": "neither max_to_move/1 nor min_to_move/1 "
                 "holds on position c(2,min)"}]}],
    }


@pytest.mark.parametrize(("args", "message"), [
    (["krk", "--kb", "nim"], "give a table (krk) or --kb nim, not both"),
    (["krk", "--depth", "2"], "--depth: only for a game (--kb)"),
    ([], "name an advice table to check, or give --kb FILE.pl to lint a game"),
    (["--kb", "chess"], "unknown game 'chess': the games are connect4, nim, pig, tictactoe"),
    (["--kb", "nim", "--positions", "0"], "--positions must be at least 1, not 0"),
    (["--kb", "nim", "--position", "x"],
     "malformed nim position 'x': give the number of sticks, e.g. 21"),
])
def test_check_kb_bad_input(cli, args, message):
    run = cli("check", *args)
    assert (run.code, run.err) == (2, f"advice: error: {message}\n")


def test_a_game_without_a_start(cli, tmp_path):
    kb = tmp_path / "nostart.pl"
    kb.write_text("initial(_) :- fail.\nmoves(_, []).\nstaticval(_, 0).\n"
                  "max_to_move(_).\nmin_to_move(_) :- fail.\n")
    run = cli("check", "--kb", str(kb))
    assert (run.code, run.err) == (2, f"advice: error: {kb}: initial/1 gives no position: "
                                      "give one with --position\n")


# -- searches name the predicate and the position ---------------------------------

@pytest.mark.parametrize(("name", "args", "line", "text"), [
    ("staticval_fails", [], 15, "staticval/2 failed on position c(0,max)"),
    ("staticval_words", [], 15, "staticval/2 gave loss on position c(0,max), not a number"),
    ("staticval_raises", ["--algo", "minimax", "--depth", "2"], 15,
     "staticval/2 raised an error on position c(2,max): ///2: Arithmetic: evaluation error: "
     "`zero_divisor'"),
    ("moves_not_a_list", [], 4,
     "moves/2 gave c(3,min) on position c(4,max), not a list of positions"),
    ("moves_numbers", [], 4, "moves/2 gave 3 on position c(4,max), which is not a position: "
     "neither moves/2 nor staticval/2 accepts it"),
])
def test_a_search_names_the_fault(cli, name, args, line, text):
    path = LINT / f"{name}.pl"
    algo = "minimax" if "minimax" in args else "alphabeta"
    message = f"{algo} on {name}: {path}:{line}: {text}"
    run = cli("search", "--kb", str(path), *args)
    assert (run.code, run.out, run.err) == (2, "", f"advice: error: {message}\n")
    run = cli("search", "--kb", str(path), *args, "--json")
    assert (run.code, run.json(), run.err) == (2, {"error": message},
                                               f"advice: error: {message}\n")


@pytest.mark.parametrize(("name", "warning"), [
    ("min_never_moves", "{path}: neither max_to_move/1 nor min_to_move/1 holds on position "
     "c(3,min)"),
    ("moves_twice", "{path}:4: moves/2 gave c(3,min) twice on position c(4,max)"),
    ("moves_unbound", "{path}:4: moves/2 gave c(3,_) on position c(4,max): a position must "
     "be a ground term"),
])
def test_a_search_warns_of_what_would_make_it_wrong(cli, name, warning):
    path = LINT / f"{name}.pl"
    expected = (f"{warning.format(path=path)}; the value may be wrong (`advice check --kb "
                f"{path}` examines the whole game)")
    run = cli("search", "--kb", str(path))
    assert run.code == 0
    assert run.err == f"warning: {expected}\n"
    assert cli("search", "--kb", str(path), "--json").json()["warnings"] == [expected]


# -- stdout is the command's --------------------------------------------------------

PRINTING = """initial(c(2, max)).
moves(c(N, P), Ps) :- N > 0, write(moving), nl, other(P, Q),
    findall(c(M, Q), (member(D, [1, 2]), M is N - D, M >= 0), Ps).
other(max, min).
other(min, max).
max_to_move(c(_, max)).
min_to_move(c(_, min)).
staticval(c(0, min), 1) :- !.
staticval(c(0, max), -1) :- !.
staticval(_, 0).
"""


@pytest.mark.parametrize("trusted", [False, True], ids=["searching", "loading"])
def test_what_a_game_prints_stays_off_stdout(tmp_path, trusted):
    kb = tmp_path / "chatty.pl"
    kb.write_text(PRINTING + (":- format(\"loading~n\").\n" if trusted else ""))
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "search", "--kb", str(kb), "--json",
         *(["--trusted"] if trusted else [])],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"]["winner"] == "max"
    assert "moving\n" in done.stderr
    assert ("loading\n" in done.stderr) == trusted


@pytest.mark.parametrize("args", [
    ["search", "nim", "--position", "many"],
    ["check", "no/such/table.adv"],
    ["solve", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
])
def test_errors_under_json_are_json(cli, args):
    run = cli(*args, "--json")
    assert run.code == 2
    message = run.err.removeprefix("advice: error: ").removesuffix("\n")
    assert run.json() == {"error": message}


# -- errors that name the file --------------------------------------------------------

@pytest.mark.parametrize("trusted", [[], ["--trusted"]], ids=["checked", "trusted"])
@pytest.mark.parametrize(("module", "owner"), [
    ("lists", "library/lists.pl"), ("search", "kb/search/search.pl"),
    ("tictactoe", "kb/games/tictactoe.pl"), ("aggregate", "library/aggregate.pl"),
])
def test_a_module_name_that_is_taken_names_the_file(cli, tmp_path, module, owner, trusted):
    kb = tmp_path / f"{module}.pl"
    kb.write_text(f"% a game\n:- module({module}, [moves/2, staticval/2, max_to_move/1, "
                  "min_to_move/1, initial/1]).\ninitial(a).\nmoves(_, []).\nstaticval(_, 0).\n"
                  "max_to_move(_).\nmin_to_move(_) :- fail.\n")
    run = cli("search", "--kb", str(kb), *trusted)
    assert run.code == 2
    error = run.err.splitlines()[-1]
    prefix = f"advice: error: {kb}:2: the module name {module} is taken by /"
    assert error.startswith(prefix), error
    assert error.endswith(f"/{owner}: give the knowledge base a name of its own")


def test_every_syntax_error_of_a_trusted_file(cli, tmp_path):
    kb = tmp_path / "two.pl"
    kb.write_text("moves(P, Ps) :- foo(P, Ps.\nstaticval(P, V) :- V is (P + .\n")
    for args in ([], ["--trusted"]):
        run = cli("search", "--kb", str(kb), *args)
        assert run.code == 2
        errors = run.err.splitlines()[-2:]
        assert re.fullmatch(f"advice: error: {re.escape(str(kb))}:1:[0-9]+: Syntax error: "
                            "Operator expected", errors[0]), errors
        assert re.fullmatch(f"{re.escape(str(kb))}:2:[0-9]+: Syntax error: Unexpected end of "
                            "clause", errors[1]), errors
