"""The bridge to SWI-Prolog: limits, load errors, quoting, hostile input."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games import BadInput
from engine.prolog import (
    KBLoadError, PrologGoalError, SearchLimitError, atom, configure_limits, current_limits,
    session, string,
)
from engine.search import outcome_of, search

DATA = Path(__file__).parent / "data"

HOSTILE = [
    "foo)), halt, assertz(x(y",
    "a' , halt, '",
    'a" , halt, "',
    "\\' halt",
    "x)), halt, (y",
    "tab\there\nnewline\x00nul",
    "ünïcødé ✓",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_quoted_text_reads_back_as_the_same_datum(text):
    s = session()
    assert s.ask(f"atom_length({atom(text)}, N), Out = N") == str(len(text))
    assert s.ask(f"string_length({string(text)}, N), Out = N") == str(len(text))
    assert s.ask(f"atom_string(A, {string(text)}), atom_codes(A, C), sum_list(C, Out)") \
        == str(sum(map(ord, text)))


def test_time_limit_leaves_the_session_usable():
    s = session()
    with pytest.raises(SearchLimitError, match="time limit of 0.2 s"):
        s.ask("repeat, fail", seconds=0.2)
    assert s.ask("Out is 6 * 7") == "42"


def test_a_users_time_limit_bounds_the_loading_of_users_files_only(tmp_path):
    """A Prolog process that starts again loads the engine's files again,
    whatever time limit a user set for the searches."""
    slow = tmp_path / "slow.pl"
    slow.write_text(":- numlist(1, 2000000, L), msort(L, _).\n")
    limits = current_limits()
    configure_limits(seconds=0.001)
    try:
        s = session()
        assert s.use_module("chess/krrk.pl") is None
        with pytest.raises(SearchLimitError,
                           match=f"loading {slow} ran past its time limit of 0.001 s"):
            s.load_file(slow, trusted=True)
    finally:
        configure_limits(seconds=limits.seconds, inferences=limits.inferences,
                         memory=limits.memory)


def test_inference_limit_leaves_the_session_usable():
    s = session()
    with pytest.raises(SearchLimitError, match="limit of 50,000 inferences"):
        s.ask("between(1, inf, _), fail", inferences=50_000)
    assert s.ask("Out is 6 * 7") == "42"


def test_runaway_recursion_is_an_error_not_a_crash():
    s = session()
    with pytest.raises(SearchLimitError):
        s.ask("length(L, N), N > 10**9", seconds=1)
    assert s.ask("Out = alive") == "alive"


def test_prolog_errors_become_python_errors():
    with pytest.raises(PrologGoalError, match="Arguments are not sufficiently instantiated"):
        session().ask("atom_length(_, Out)")


def test_syntax_error_in_a_student_file_names_file_and_line():
    path = DATA / "broken_syntax.pl"
    with pytest.raises(KBLoadError) as caught:
        session().load_file(path)
    assert str(caught.value).startswith(f"{path}:3:")
    assert "Syntax error" in str(caught.value)
    assert session().ask("Out = alive") == "alive"


def test_a_missing_file_is_named():
    with pytest.raises(KBLoadError, match="no_such.pl: no such file"):
        session().load_file(DATA / "no_such.pl")


def test_a_students_game_plugs_into_the_searches():
    r = search("", kb_file=str(DATA / "countdown.pl"), algo="minimax")
    assert (r.position, r.value, r.best) == ("c(4,max)", 999_999_997, "c(3,min)")
    assert r.nodes == 12  # T(n) = 1 + T(n-1) + T(n-2), T(1) = 2, T(0) = 1


def test_a_students_position_is_read_not_run():
    r = search("", "c(2, max)", kb_file=str(DATA / "countdown.pl"), algo="alphabeta")
    assert outcome_of(r.value) == {"winner": "max", "plies": 1}
    for hostile in ["halt", "c(1, max)), halt, (x", "X"]:
        with pytest.raises(BadInput, match="malformed countdown position"):
            search("", hostile, kb_file=str(DATA / "countdown.pl"))
    assert session().ask("Out = alive") == "alive"


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_through_every_cli_entry_point(cli, name, tmp_path):
    canary = tmp_path / "canary.pl"
    canary.write_text("moves(_, []).\n")
    runs = [
        cli("search", name),
        cli("search", "tictactoe", "--position", name),
        cli("search", "nim", "--position", name),
        cli("search", "--kb", name),
        cli("search", "--kb", str(DATA / "countdown.pl"), "--position", name),
        cli("play", name),
        cli("search", "--kb", str(canary), "--position", name),
    ]
    for run in runs:
        assert run.code == 2, run.err
        assert run.err.startswith("advice: error: ")
    s = session()
    assert s.ask("Out = alive") == "alive"
    assert s.ask("( current_predicate(x/1) -> Out = ran ; Out = clean )") == "clean"


def test_cli_student_kb_errors(cli):
    run = cli("search", "--kb", str(DATA / "broken_syntax.pl"))
    assert run.code == 2
    assert f"{DATA / 'broken_syntax.pl'}:3:" in run.err
    run = cli("search", "--kb", str(DATA / "half_interface.pl"))
    assert run.code == 2
    assert run.err.strip() == (
        f"advice: error: {DATA / 'half_interface.pl'}: does not define "
        "staticval/2, max_to_move/1, min_to_move/1"
    )


def test_load_warnings_are_collected_with_file_and_line(tmp_path, cli):
    game = tmp_path / "warned.pl"
    game.write_text((DATA / "countdown.pl").read_text() + "unused(X, Y) :- true.\n")
    r = search("", kb_file=str(game), algo="minimax")
    assert r.warnings == (f"{game}:19: Singleton variables: [X,Y]",)
    run = cli("search", "--kb", str(game))
    assert run.code == 0
    assert run.err == f"warning: {game}:19: Singleton variables: [X,Y]\n"
