"""A user's knowledge base is checked before anything in it runs
(kb/guard.pl): a hostile file is refused with one line per offence,
nothing of it runs or touches the disk, and the engine lives on."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from engine.prolog import (
    KBLoadError, atom, kb_path, session, trust_user_files, user_files_trusted,
)

DATA = Path(__file__).parent / "data"
HOSTILE = DATA / "hostile"

#: the rest of a game for the searches, so that only the hostile part is wrong
GAME = "staticval(_, 0).\nmax_to_move(_).\nmin_to_move(_) :- fail.\ninitial(a).\n"


def snapshot(folder: Path) -> dict[Path, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time."""
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def assert_engine_alive() -> None:
    """The Prolog process answers, and nothing was asserted into the engine."""
    s = session()
    assert s.ask("Out = alive") == "alive"
    assert s.ask("( ( current_predicate(bridge:foo/0) ; current_predicate(user:foo/0) ) "
                 "-> Out = ran ; Out = clean )") == "clean"


def offences(err: str) -> list[str]:
    """The lines of an error on stderr, without the ``advice: error:`` prefix."""
    return [line.removeprefix("advice: error: ") for line in err.splitlines()]


def run_hostile(cli, tmp_path: Path, name: str, *args: str):
    """``advice search --kb`` on ``tests/data/hostile/NAME.pl`` copied into
    ``tmp_path`` with its canary pointing there; checks that the canary
    was not made, that nothing in ``tmp_path`` changed and that the engine
    lives. Returns the run and the copy's path."""
    canary = tmp_path / "canary"
    kb = tmp_path / f"{name}.pl"
    kb.write_text((HOSTILE / f"{name}.pl").read_text().replace("CANARY", str(canary)) + GAME)
    before = snapshot(tmp_path)
    run = cli("search", "--kb", str(kb), *args)
    assert run.code == 2, run.err
    assert not canary.exists()
    assert snapshot(tmp_path) == before
    assert_engine_alive()
    return run, kb


# -- refused before anything runs ---------------------------------------------------

LIBRARIES = ("aggregate, apply, assoc, clpfd, dcg/basics, dicts, error, lists, occurs, "
             "ordsets, pairs, random, rbtrees, solution_sequences, strings, ugraphs, yall")
SHIPPED = "advice(chess/endgame), advice(chess/concepts)"

REFUSED = {
    "directive_shell": [
        (1, "the directive shell/1 is not allowed in a knowledge base")],
    "initialization_shell": [
        (1, "the directive initialization/1 is not allowed in a knowledge base")],
    "directive_open_write": [
        (1, "the directive open/3, write/2, close/1 is not allowed in a knowledge base")],
    "body_open_write": [
        (3, "open/3 is not allowed in a knowledge base"),
        (4, "format/3 is not allowed in a knowledge base: what it does depends on "
            "arguments only known at run time"),
        (5, "close/1 is not allowed in a knowledge base")],
    "directive_halt": [
        (1, "the directive halt/0 is not allowed in a knowledge base")],
    "body_halt": [
        (2, "halt/0 is not allowed in a knowledge base")],
    "assert_into_engine": [
        (2, "assertz/1 into module bridge is not allowed in a knowledge base"),
        (3, "assertz/1 into module user is not allowed in a knowledge base"),
        (5, "defining user:portray/1 is not allowed in a knowledge base: it is a predicate "
            "of another module")],
    "directive_loop": [
        (1, "the directive repeat/0, fail/0 is not allowed in a knowledge base")],
    "shipped_module": [
        (1, "use_module/1 of advice(chess/tablebase) is not allowed in a knowledge base "
            f"(the libraries it may use: {LIBRARIES}; and {SHIPPED})"),
        (2, "reexport/1 of advice(bridge) is not allowed in a knowledge base "
            f"(the libraries it may use: {LIBRARIES}; and {SHIPPED})")],
    "consult_passwd": [
        (1, "the directive consult/1 is not allowed in a knowledge base: it loads another "
            "file"),
        (2, "the directive ['/etc/passwd'] (consulting a file) is not allowed in a "
            "knowledge base: it loads another file")],
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_hostile_file_is_refused_line_by_line(cli, tmp_path, name):
    run, kb = run_hostile(cli, tmp_path, name)
    assert offences(run.err) == [f"{kb}:{line}: {text}" for line, text in REFUSED[name]]


def test_what_term_expansion_makes_is_checked_while_loading(cli, tmp_path):
    # the file's own term_expansion/2 is safe; what it produces is not
    run, kb = run_hostile(cli, tmp_path, "expansion_shell")
    assert offences(run.err) == [
        f"{kb}:6: the directive shell/1 is not allowed in a knowledge base",
        f"{kb}:6: shell/1 is not allowed in a knowledge base",
    ]


def test_every_syntax_error_is_reported(cli, tmp_path):
    kb = tmp_path / "two_errors.pl"
    kb.write_text("moves(_, []).\nstaticval(P, V) :- V is (P + .\n"
                  "max_to_move(_).\nmin_to_move(X :- .\n")
    run = cli("search", "--kb", str(kb))
    assert run.code == 2
    assert offences(run.err) == [
        f"{kb}:2:30: Syntax error: Unexpected end of clause",
        f"{kb}:4:18: Syntax error: Unexpected end of clause",
    ]


def test_a_50_mb_file_is_refused_before_it_is_read(cli, tmp_path):
    kb = tmp_path / "huge.pl"
    kb.write_bytes(b"% padding\n" * (50 * 2**20 // 10))
    run = cli("search", "--kb", str(kb))
    assert (run.code, offences(run.err)) == (
        2, [f"{kb}: 52,428,800 bytes is more than the 10 MB a knowledge base may have"])
    assert_engine_alive()


# -- allowed, and held by the limits at run time ---------------------------------------

def test_an_infinite_loop_at_query_time_meets_the_time_limit(cli, tmp_path):
    run, kb = run_hostile(cli, tmp_path, "query_loop", "--time-limit", "1")
    assert run.err.startswith(f"advice: error: alphabeta on {kb.stem} ran past its time "
                              "limit of 1 s")


def test_memory_exhaustion_at_query_time_meets_the_memory_limit(cli, tmp_path):
    run, _ = run_hostile(cli, tmp_path, "query_hoard", "--memory-limit", "400M")
    assert "it may have run out of its memory limit of 0.4 GiB" in run.err
    assert cli("search", "nim", "--position", "5", "--json").json()["value"] == -999_999_997


def test_an_ordinary_game_passes(cli, tmp_path):
    # output to strings, meta-calls of named goals, lambdas, grammar rules,
    # assert into its own module, the allowed libraries
    kb = tmp_path / "ordinary.pl"
    kb.write_text((HOSTILE / "ordinary.pl").read_text())
    run = cli("search", "--kb", str(kb), "--json")
    assert run.code == 0, run.err
    assert run.json()["outcome"] == {"winner": "max", "plies": 3}


@pytest.mark.parametrize("path", [DATA / "countdown.pl", DATA / "half_interface.pl",
                                  *sorted((DATA / "domains").glob("*.pl"))],
                         ids=lambda p: p.name)
def test_the_test_domains_and_games_pass(path):
    # in a Prolog of its own: the engine's may hold a copy of the module already
    check = (f"use_module({atom(str(kb_path('guard.pl')))}), "
             f"check_file_json({atom(str(path))}, Json), write(Json)")
    out = subprocess.run(["swipl", "-g", check, "-t", "halt"], capture_output=True,
                         text=True, check=True).stdout
    assert json.loads(out) == []


# -- trust --------------------------------------------------------------------------------

def test_a_trusted_file_is_loaded_unchecked(tmp_path):
    canary = tmp_path / "canary"
    kb = tmp_path / "own.pl"
    kb.write_text(f":- open({atom(str(canary))}, write, S), close(S).\n")
    with pytest.raises(KBLoadError, match="the directive open/3, close/1 is not allowed"):
        session().load_file(kb)
    assert not canary.exists()
    session().load_file(kb, trusted=True)
    assert canary.exists()


def test_trust_reaches_the_prolog_process(tmp_path):
    canary = tmp_path / "canary"
    kb = tmp_path / "own.pl"
    kb.write_text(f":- open({atom(str(canary))}, write, S), close(S).\n")
    assert not user_files_trusted()
    trust_user_files(True)
    try:
        session().load_file(kb)
    finally:
        trust_user_files(False)
    assert canary.exists()
    canary.unlink()
    with pytest.raises(KBLoadError):
        session().load_file(kb)
    assert not canary.exists()


def test_trusted_says_so_and_runs_the_file(cli, tmp_path):
    canary = tmp_path / "canary"
    kb = tmp_path / "own.pl"
    kb.write_text(f":- open({atom(str(canary))}, write, S), close(S).\nmoves(_, []).\n"
                  + GAME)
    run = cli("search", "--kb", str(kb), "--trusted", "--json")
    assert run.code == 0, run.err
    assert run.err == ("advice: --trusted: your Prolog files are loaded unchecked and "
                       "outside the wall; whatever they say runs\n")
    assert canary.exists()
    canary.unlink()
    assert cli("search", "--kb", str(kb)).code == 2  # trust ends with the command
    assert not canary.exists()


def test_a_folder_given_as_a_knowledge_base(cli, tmp_path):
    run = cli("search", "--kb", str(tmp_path))
    assert (run.code, run.err) == (
        2, f"advice: error: {tmp_path}: is a directory, not a Prolog file\n")


# -- runaway recursion meets the stack, which is half the memory limit ------------

RUNAWAY = {
    # an endless game: the search itself recurses for ever
    "endless": ("moves(P, [s(P)]).\n", ""),
    # a successor list too large for the stack
    "numlist": ("moves(_, L) :- numlist(1, 100000000, L).\n", " in moves/2 ({kb})"),
}


@pytest.mark.parametrize("name", sorted(RUNAWAY))
def test_a_runaway_meets_the_stack_limit(cli, tmp_path, name):
    clause, where = RUNAWAY[name]
    kb = tmp_path / f"{name}.pl"
    kb.write_text(f":- module({name}, [moves/2, staticval/2, max_to_move/1, min_to_move/1, "
                  f"initial/1]).\n{clause}" + GAME)
    run = cli("search", "--kb", str(kb), "--memory-limit", "512M")
    assert run.code == 2
    first, rest = run.err.split(" at depth ")
    assert first == f"advice: error: alphabeta on {name}: ran out of its Prolog stack of 0.25 GiB"
    assert re.fullmatch(r"[0-9,]+", re.split("[ :]", rest)[0])
    assert rest.endswith(f"{where.format(kb=kb)}: a recursion that does not end, or data too "
                         "large (--memory-limit sets the stack to half of it)\n")
    assert_engine_alive()


def test_a_tables_uses_file_is_guarded(cli, tmp_path):
    # the test Nim domain, whose goal shells out at 18 sticks
    canary = tmp_path / "canary"
    source = (DATA / "domains" / "nim_al0.pl").read_text().replace(
        "module(nim_al0", "module(nim_shell").replace(
        "winning_for_mover(nim(S, _, _)) :-",
        "winning_for_mover(nim(S, _, _)) :-\n"
        f"    ( S =:= 18 -> shell({atom('touch ' + str(canary))}) ; true ),", 1)
    kb = tmp_path / "nim_shell.pl"
    kb.write_text(source)
    table = tmp_path / "nim.adv"
    table.write_text((DATA / "domains" / "nim.adv").read_text().replace("uses nim_al0",
                                                                        "uses nim_shell"))
    line = source.splitlines().index(next(x for x in source.splitlines() if "shell(" in x)) + 1
    for command in ("check", "explain", "verify"):
        run = cli(command, str(table), *(["--position", "18"] if command == "explain" else []))
        assert (run.code, offences(run.err)) == (
            2, [f"{kb}:{line}: shell/1 is not allowed in a knowledge base"]), command
    assert not canary.exists()
    assert_engine_alive()
