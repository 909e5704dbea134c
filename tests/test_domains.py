"""Domains that declare themselves in Prolog: written as a new user would
(tests/data/domains), copied into the test's temporary folder, and
checked, explained, played and verified through the command line with
no change to the engine."""

from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advice.ast import Span
from advice.errors import AdviceCheckError, AdviceSyntaxError, Diagnostic
from engine.prolog import InterfaceError, KBLoadError, kb_path, session

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = Path(__file__).resolve().parent / "data" / "domains"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A temporary folder holding the test domains and their tables (one for
    the module: a Prolog session holds one file per module name)."""
    tmp = tmp_path_factory.mktemp("domains")
    for path in DOMAINS.iterdir():
        shutil.copy(path, tmp / path.name)
    return tmp


def variant(folder: Path, module: str, edit) -> Path:
    """A copy of the Nim domain as module ``module``, its source passed
    through ``edit``, with a copy of the Nim table that uses it."""
    source = (folder / "nim_al0.pl").read_text().replace("module(nim_al0", f"module({module}")
    (folder / f"{module}.pl").write_text(edit(source))
    table = folder / f"{module}.adv"
    table.write_text((folder / "nim.adv").read_text().replace("uses nim_al0", f"uses {module}"))
    return table


def advice(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The ``advice`` command in a process of its own (a person at a terminal)."""
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=300)


def without_run_figures(report: dict) -> dict:
    return {k: v for k, v in report.items()
            if k not in ("seconds", "positions_per_second", "peak_memory")}


# -- one-pile Nim, a two-rule table ------------------------------------------

def test_nim_table_checks_and_explains(cli, folder):
    table = str(folder / "nim.adv")
    assert cli("check", table).code == 0
    assert cli("explain", table, "--position", "14").out == (
        "rule winning: condition holds -> fires\n"
        "  advice leave_losing: satisfiable; forcing tree (2 positions):\n"
        "      take 1\n"
        "chosen: rule winning, advice leave_losing\n")


def test_nim_table_is_proved_from_every_winning_start_up_to_30_sticks(cli, folder):
    table = str(folder / "nim.adv")
    run = cli("verify", table, "--defender", "all", "--json")
    assert run.code == 0
    report = run.json()
    assert (report["positions"], report["by_result"], report["failures"]) == (22, {"success": 22}, 0)
    assert (report["max_moves"], round(report["mean_moves"], 2), report["states"]) == (8, 4.18, 22)
    assert "proved: the table succeeds from every position; worst case 8 moves" in cli(
        "verify", table, "--defender", "all").out


def test_nim_against_the_search_defender(cli, folder):
    report = cli("verify", str(folder / "nim.adv"), "--defender", "perfect", "--json").json()
    assert without_run_figures(report) == {
        "table": str(folder / "nim.adv"), "defender": "perfect", "mode": "compiled",
        "positions": 22, "chosen": 22, "population": 22, "complete": True, "sample": False,
        "proved": False,
        "by_result": {"won": 22}, "successes": 22, "failures": 0, "counterexamples": [],
        "max_moves": 8, "mean_moves": 92 / 22, "mean_optimal": 92 / 22, "mean_ratio": 1.0,
        "histogram": {str(n): 3 for n in range(1, 8)} | {"8": 1}}


def test_nim_losing_starts_are_refuted_with_their_lines(cli, folder):
    run = cli("verify", str(folder / "nim.adv"), "--positions", "all", "--defender", "all",
              "--json")
    assert run.code == 1
    report = run.json()
    assert report["by_result"] == {"lost": 8, "success": 22}
    assert sorted(int(c["position"]) for c in report["counterexamples"]) == [
        1, 5, 9, 13, 17, 21, 25, 29]
    assert report["shortest_refutation"] == {"result": "lost", "position": "1", "line": ["take 1"]}


def test_a_person_plays_nim_and_typed_moves_match_atoms(folder):
    run = advice("play", str(folder / "nim.adv"), "--defender", "human", "--position", "14",
                 stdin="take 5\ntake 1\ntake 2\ntake 3\n")
    assert run.returncode == 0, run.stderr
    assert "Refused: 'take 5' is not a legal move here: take 1, take 2, take 3" in run.stdout
    assert run.stdout.count("Refused") == 1
    assert "14 sticks: ||||||||||||||" in run.stdout
    assert "4. take 1  [winning / leave_losing]" in run.stdout
    assert "1 stick: | (them to move)" in run.stdout


# -- King and Queen against King, a chess domain --------------------------------

def test_kqk_explains_plays_and_draws_from_a_fen(cli, folder, tmp_path):
    table = str(folder / "kqk.adv")
    assert cli("explain", table).out == (
        "rule edge: condition holds -> fires\n"
        "  advice mate_in_1: no forcing tree within the move constraints\n"
        "  advice mate_in_2: satisfiable; forcing tree (4 positions):\n"
        "      Kc7\n"
        "        ... Ka7\n"
        "          Qa2#\n"
        "chosen: rule edge, advice mate_in_2\n")
    # Black holds the queen here: mirrored for the domain, shown in the FEN's colours.
    game = cli("play", table, "--fen", "1q6/8/8/8/8/8/2k5/K7 b - - 0 1", "--defender",
               "perfect", "--svg", str(tmp_path / "boards"), "--json").json()
    assert (game["result"], game["us_moves"], game["optimal"]) == ("mate", 1, 1)
    assert game["moves"] == ["Qa7#"]
    assert len(list((tmp_path / "boards").glob("*.svg"))) == 2


def test_kqk_is_proved_and_matches_the_search_defender(cli, folder):
    table = str(folder / "kqk.adv")
    every = cli("verify", table, "--defender", "all", "--json").json()
    assert (every["by_result"], every["max_moves"], every["mean_moves"]) == (
        {"success": 24}, 2, 1.5)
    perfect = cli("verify", table, "--defender", "perfect", "--json").json()
    assert (perfect["by_result"], perfect["histogram"]) == ({"mate": 24}, {"1": 12, "2": 12})
    assert (perfect["mean_optimal"], perfect["mean_ratio"]) == (1.5, 1.0)


def test_a_person_defends_kqk_in_san(folder):
    run = advice("play", str(folder / "kqk.adv"), "--defender", "human",
                 stdin="Kb8\nKa7\n")
    assert run.returncode == 0, run.stderr
    assert "Refused: 'Kb8' is not a legal move here (in SAN or UCI): legal moves are Ka7" \
        in run.stdout
    assert "2. Qa2#  [edge / mate_in_2]" in run.stdout
    assert "result: mate after 2 moves of the table" in run.stdout


def test_the_search_defender_says_when_a_domain_is_too_large(cli, folder):
    s = session()
    s.use_module("al0/solver.pl")
    s.ask("al0_solver:search_limit(L), nb_setval(limit_before, L), "
          "al0_solver:set_search_limit(20000), Out = ok")
    try:
        run = cli("play", str(folder / "kqk.adv"), "--fen", "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
                  "--defender", "perfect")
    finally:
        s.ask("nb_getval(limit_before, L), al0_solver:set_search_limit(L), Out = ok")
    assert run.code == 2
    assert run.err == (
        "advice: error: playing table kqk: the search defender of kqk_al0 gave up after "
        "20,000 positions from kqk(w,4,0,35,0): the domain is too large for search; give it "
        "perfect_reply/3 and optimal_moves/2\n")
    assert s.ask("Out = alive") == "alive"


def test_solve_names_a_domain_of_ones_own(cli, folder):
    data = cli("solve", "--kb", str(folder / "kqk_al0.pl"), "--fen",
               "k7/8/1K6/8/8/8/8/1Q6 w - - 0 1", "--json").json()
    assert (data["domain"], data["optimal"], data["result"]) == ("kqk_al0", 2, "mate")
    assert len(data["moves"]) == 3 and data["moves"][-1].endswith("#")
    general = cli("solve", "--fen", "k7/8/1K6/8/8/8/8/1Q6 w - - 0 1", "--json").json()
    assert (general["value"], general["dtm"], len(general["moves"])) == ("win", 2, 3)


# -- errors that name the place --------------------------------------------------

@pytest.fixture(scope="module")
def plain_nim(folder: Path) -> Path:
    """The Nim domain without its own way of reading and writing positions:
    positions are Prolog terms."""
    def plain(source: str) -> str:
        for name in ("parse_position/2", "position_text/2", "valid_position/1"):
            source = re.sub(rf"\n\s*{re.escape(name)},[^\n]*", "", source)
        return source

    return variant(folder, "nim_plain", plain)


@pytest.mark.parametrize(("args", "message"), [
    (["--position", "7"], "'7' is not a position of nim_plain (e.g. nim(21,us,0))"),
    (["--position", "nim(13,them,0)"],
     "the table nim moves for us, and at nim(13,them,0) it is not our move (nim_plain)"),
    (["--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"],
     "--fen gives chess positions, and nim_plain is not a chess domain: give --position "
     "(e.g. nim(21,us,0))"),
])
def test_a_position_that_is_not_the_domains_is_refused_in_one_line(cli, plain_nim, args,
                                                                    message):
    run = cli("explain", str(plain_nim), *args)
    assert run.code == 2
    assert run.err.strip().endswith(message)
    assert len(run.err.strip().splitlines()) == 1


def test_symmetries_declared_in_part_are_refused(cli, folder):
    # canonical/3 alone: the table could not map its trees back
    table = variant(folder, "nim_half_symmetric", lambda source: source.replace(
        "move_constraint/1,", "move_constraint/1,\n            canonical/3,", 1)
        + "\ncanonical(Pos, Pos, identity).\n")
    run = cli("check", str(table))
    assert run.code == 2
    assert run.err.strip() == (
        f"advice: error: {folder / 'nim_half_symmetric.pl'}: does not define "
        "symmetric_position/3, symmetric_move/3, inverse_symmetry/2")


def test_a_goal_that_raises_is_named_with_the_position(cli, folder):
    table = variant(folder, "nim_broken", lambda source: source.replace(
        "winning_for_mover(nim(S, _, _)) :-",
        "winning_for_mover(nim(S, _, _)) :-\n    _ is S + foo,", 1))
    for mode in ("compiled", "interpreted"):
        run = cli("explain", str(table), "--position", "14", "--mode", mode)
        assert run.code == 2
        assert "winning_for_mover/1 of nim_broken raised an error at 14: " in run.err, run.err
        assert "foo" in run.err


def test_a_game_that_meets_an_error_prints_the_game_so_far(cli, folder):
    # the goal raises once the pile is below 15: the table's first moves
    # from 30 sticks are played, then the game stops with the error
    table = variant(folder, "nim_breaks_late", lambda source: source.replace(
        "winning_for_mover(nim(S, _, _)) :-",
        "winning_for_mover(nim(S, _, _)) :-\n    ( S < 15 -> _ is S + foo ; true ),", 1))
    run = cli("play", str(table), "--position", "30", "--defender", "random", "--json")
    assert run.code == 2
    game = run.json()
    assert (game["result"], game["us_moves"]) == ("error", 4)
    # we leave 4k+1 sticks (29, 25, 21, 17), the seeded defender takes its share
    assert game["moves"] == ["take 1", "take 1", "take 3", "take 2", "take 2", "take 1",
                             "take 3", "take 3"]
    assert game["error"].startswith("playing table nim: winning_for_mover/1 of nim_breaks_late "
                                    "raised an error at 14: ")
    assert run.err == f"advice: error: {game['error']}; the game so far (4 moves of the table):\n"


# -- the engine holds no domain ---------------------------------------------------

def shipped_domain_modules() -> set[str]:
    names = set()
    for path in kb_path("").rglob("*.pl"):
        head = path.read_text().split(")", 1)[0]
        exports = path.read_text().split("]).", 1)[0]
        match = re.match(r":- module\((\w+),", head)
        if match and re.search(r"\b(legalmove/3|moves/2)", exports):
            names.add(match[1])
    return names


def test_no_domain_is_named_in_the_engine():
    names = shipped_domain_modules()
    assert {"krk", "tictactoe_al0", "tictactoe", "nim"} <= names
    for path in sorted((ROOT / "engine").rglob("*.py")):
        words = set(re.findall(r"\w+", path.read_text().lower()))
        assert not names & words, f"{path.name} names {sorted(names & words)}"


def test_the_interface_is_listed_once_and_documented():
    s = session()
    s.use_module("al0/domain.pl")
    listed = json.loads(s.ask(
        "findall(S, (al0_domain:interface_predicate(N, A, _), "
        "format(string(S), '~w/~w', [N, A])), L), atom_json_term(Out, L, [])"))
    readme = (ROOT / "kb" / "README.md").read_text()
    section = readme.split("## AL0 domains", 1)[1]
    documented = {f"{name}/{args.count(',') + 1}"
                  for name, args in re.findall(r"\| `(\w+)\(([^)`]*)\)`", section)
                  if not name[0].isupper()}
    assert set(listed) == documented


def test_errors_cross_process_boundaries():
    span = Span("t.adv", 1, 2, 1, 4)
    for error in (AdviceSyntaxError("bad", span, "x\n"),
                  AdviceCheckError([Diagnostic("error", "no", span)], "x\n"),
                  InterfaceError("p.pl", ["legalmove/3"]), KBLoadError("m", ("a", "b"))):
        again = pickle.loads(pickle.dumps(error))
        assert (type(again), str(again), again.__dict__) == (type(error), str(error),
                                                              error.__dict__)
