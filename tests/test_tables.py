"""Advice tables end to end: check, compile, the AL0 search in both modes,
explanations, and the tic-tac-toe table that never loses."""

from __future__ import annotations

import pytest

from advice.errors import AdviceCheckError, AdviceSyntaxError
from engine.advice_play import AdvicePlayer
from engine.prolog import kb_path, session
from engine.tables import load_table
from engine.verify import VerifyJob, verify

TTT = str(kb_path("games/tictactoe.adv"))

SMALL = """\
table small
uses games/tictactoe_al0

rule r:
    if not they_threaten
    then centre
advice centre:
    better:  took_centre and fork_safe
    holding: true
    us:      depth = 0 and legal then depth < 2 and legal
    them:    nomove
"""


def test_compiled_clauses_are_readable_prolog():
    source = load_table(text=SMALL, filename="small.adv").compiled.source()
    assert "rule(Pos, r, [centre]) :-\n    \\+ tictactoe_al0:they_threaten(Pos)." in source
    assert ("better(centre, Pos, Root) :-\n    tictactoe_al0:took_centre(Pos, Root),\n"
            "    tictactoe_al0:fork_safe(Pos).") in source
    assert ("us_move(centre, Pos, Move, Pos1) :-\n    tictactoe_al0:depth(Pos, Depth),\n"
            "    Depth < 2,\n    tictactoe_al0:legal(Pos, Move, Pos1).") in source
    assert "them_move(_, _, _, _) :-\n    fail." in source
    assert ("table_advice(centre, and([pred(took_centre, []), pred(fork_safe, [])]), true, "
            "then([and([depth('=', 0), pred(legal, [])]), and([depth('<', 2), pred(legal, [])])]), "
            "nomove).") in source


def test_compile_command_prints_the_module(cli):
    run = cli("compile", TTT)
    assert run.code == 0
    assert run.out.startswith("% Advice table tictactoe, compiled for the knowledge base "
                              "tictactoe_al0.\n:- module(advice_tictactoe_")
    assert "rule(Pos, finish, [win]) :-\n    tictactoe_al0:we_threaten(Pos)." in run.out


def test_check_reports_every_error_against_the_kb(tmp_path, cli):
    bad = tmp_path / "bad.adv"
    bad.write_text(SMALL.replace("took_centre and", "took_centr and")
                   .replace("fork_safe\n", "fork_safe(3)\n")
                   .replace("then centre", "then centre, nowhere"))
    with pytest.raises(AdviceCheckError) as caught:
        load_table(bad)
    assert str(caught.value).splitlines() == [
        f"{bad}:6:18: error: rule 'r' names advice 'nowhere', which is not defined",
        "    then centre, nowhere",
        "                 ^",
        f"{bad}:8:14: error: unknown goal predicate 'took_centr'; "
        "did you mean took_centre, took_corner, took_side?",
        "    better:  took_centr and fork_safe(3)",
        "             ^",
        f"{bad}:8:29: error: goal 'fork_safe' is given 1 literal argument; "
        "the knowledge base defines fork_safe/1, which allows 0",
        "    better:  took_centr and fork_safe(3)",
        "                            ^",
    ]
    run = cli("check", str(bad))
    assert run.code == 2
    assert run.err.startswith("advice: error: ")
    assert "took_centr" in run.err and "nowhere" in run.err


def test_check_syntax_error_names_file_line_column(tmp_path, cli):
    bad = tmp_path / "syntax.adv"
    bad.write_text(SMALL.replace("rule r:", "rule r"))
    with pytest.raises(AdviceSyntaxError) as caught:
        load_table(bad)
    assert str(caught.value).startswith(f"{bad}:5:5: error: ")
    assert cli("check", str(bad)).code == 2
    assert cli("check", TTT).code == 0


def test_unknown_kb_is_named(tmp_path):
    bad = tmp_path / "nokb.adv"
    bad.write_text(SMALL.replace("games/tictactoe_al0", "games/nothing"))
    with pytest.raises(AdviceCheckError, match="no knowledge base 'games/nothing'"):
        load_table(bad)


def test_the_tictactoe_table_never_loses_from_either_seat():
    # Every sequence of the opponent's moves, from both seats, in both modes.
    for seat, positions, worst in (("first-seat", 1, 5), ("second-seat", 9, 4)):
        for mode in ("compiled", "interpreted"):
            report = verify(VerifyJob(TTT, "all", positions=seat, mode=mode))
            assert report["by_result"] == {"success": positions}, (seat, mode)
            assert report["counterexamples"] == []
            assert report["max_moves"] == worst


def test_explain_names_the_rule_the_advice_and_the_tree(cli):
    run = cli("explain", TTT, "--position", "x...o....")
    assert run.code == 0
    assert run.out == (
        "rule finish: condition fails (we_threaten is false)\n"
        "rule defend: condition fails (they_threaten is false)\n"
        "rule develop: condition holds -> fires\n"
        "  advice fork: no forcing tree within the move constraints\n"
        "  advice block_fork: satisfiable; forcing tree (2 positions):\n"
        "      2\n"
        "chosen: rule develop, advice block_fork\n")
    data = cli("explain", TTT, "--position", "x...o....", "--json").json()
    assert data["rule"] == "develop" and data["chosen"] == "block_fork"
    assert data["consulted_at"] is None  # a domain without symmetries: consulted where given
    assert data["advice"][1]["tree"] == {"us": "2", "next": {}}


def test_explain_from_the_start_takes_the_centre():
    e = AdvicePlayer(load_table(TTT)).explain()
    assert (e.rule, e.chosen) == ("develop", "centre")
    assert [a["status"] for a in e.advice] == ["no_tree", "no_tree", "satisfiable"]


@pytest.mark.parametrize("position", [None, "x...o....", "xo..x....", "oxx.o....", "x.o.x.o.."])
def test_compiled_and_interpreted_modes_choose_the_same(position):
    table = load_table(TTT)
    compiled = AdvicePlayer(table, "compiled").explain(position)
    interpreted = AdvicePlayer(table, "interpreted").explain(position)
    assert compiled == interpreted


def test_compiled_and_interpreted_play_the_same_games():
    table = load_table(TTT)
    for seed in range(20):
        a = AdvicePlayer(table, "compiled").play(None, "random", seed=seed)
        b = AdvicePlayer(table, "interpreted").play(None, "random", seed=seed)
        assert (a.result, a.moves, a.reasons) == (b.result, b.moves, b.reasons)
        assert a.result in ("won", "draw")


def test_a_person_defends_and_bad_moves_are_refused():
    said = []
    answers = iter(["5", "ten", "1", "3", "7", "8", "9"])
    record = AdvicePlayer(load_table(TTT)).play(
        None, "human", ask=lambda _: next(answers), say=said.append)
    assert "Refused: square 5 is taken" in said
    assert "Refused: 'ten' is not a square: type a number from 1 to 9" in said
    assert record.result in ("won", "draw")
    assert record.moves[:2] == ["5", "1"]


def test_table_from_a_string_through_the_python_api():
    table = load_table(text=SMALL, filename="small.adv")
    e = AdvicePlayer(table).explain()
    assert (e.rule, e.chosen) == ("r", "centre")


@pytest.mark.parametrize("hostile", [
    "x)), halt, (y", "foo')), halt, assertz(x(y", 'a" , halt, "', "\\' halt",
])
def test_hostile_text_in_a_table_is_refused_and_runs_nothing(tmp_path, cli, hostile):
    plain_title = '"' not in hostile and "\\" not in hostile
    for text, good in ((SMALL.replace("they_threaten", hostile), False),
                       (SMALL.replace("games/tictactoe_al0", hostile), False),
                       (SMALL.replace("rule r:", f"rule {hostile}:"), False),
                       (SMALL.replace("table small", f'table small "{hostile}"'), plain_title)):
        path = tmp_path / "hostile.adv"
        path.write_text(text)
        run = cli("check", str(path))
        assert run.code == (0 if good else 2), run.err
    s = session()
    assert s.ask("Out = alive") == "alive"
    assert s.ask("( current_predicate(x/1) -> Out = ran ; Out = clean )") == "clean"
