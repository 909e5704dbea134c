"""Game-tree search through the Python API and the CLI: exact figures."""

from __future__ import annotations

import pytest

from engine.games import BadInput
from engine.search import search


def test_tictactoe_minimax_visits_the_whole_tree():
    r = search("tictactoe", algo="minimax")
    assert (r.value, r.nodes) == (0, 549_946)
    assert r.move == "X on 1"
    assert len(r.line) == 10  # a draw fills the board


def test_tictactoe_alphabeta_prunes_to_18297():
    r = search("tictactoe", algo="alphabeta")
    assert (r.value, r.nodes) == (0, 18_297)
    assert r.best == "ttt(1,0,o)"


def test_depth_limited_alphabeta_uses_the_static_value():
    r = search("tictactoe", algo="alphabeta", depth=1)
    assert (r.value, r.nodes, r.move) == (4, 10, "X on 5")


def test_a_won_position_is_found():
    r = search("tictactoe", "xx.oo....", algo="minimax")
    assert (r.value, r.move) == (100, "X on 3")


@pytest.mark.parametrize("sticks", range(1, 22))
def test_nim_value_follows_the_mod4_rule(sticks):
    r = search("nim", str(sticks), algo="alphabeta")
    assert r.value == (-100 if sticks % 4 == 1 else 100)


@pytest.mark.parametrize("sticks", [2, 3, 4, 6, 7, 8, 10])
def test_nim_winning_move_leaves_one_mod_4(sticks):
    r = search("nim", str(sticks), algo="minimax")
    assert r.move == f"take {(sticks - 1) % 4}"


def test_nim_depth_limited_search_agrees_with_the_rule():
    lost = search("nim", "21", algo="minimax", depth=2)
    assert (lost.value, lost.nodes) == (-50, 13)
    won = search("nim", "23", algo="minimax", depth=2)
    assert (won.value, won.move) == (50, "take 2")


@pytest.mark.parametrize(
    ("game", "position", "message"),
    [
        ("chess", None, "unknown game 'chess': the games are nim, tictactoe"),
        ("tictactoe", "xxxx.....", "X moves first"),
        ("tictactoe", "x", "malformed tic-tac-toe position 'x'"),
        ("nim", "many", "malformed nim position 'many'"),
    ],
)
def test_bad_input_is_named(game, position, message):
    with pytest.raises(BadInput, match=message):
        search(game, position)


def test_cli_search_json(cli):
    run = cli("search", "tictactoe", "--algo", "alphabeta", "--json")
    assert run.code == 0
    data = run.json()
    assert {k: data[k] for k in ("game", "algo", "value", "move", "nodes")} == {
        "game": "tictactoe", "algo": "alphabeta", "value": 0, "move": "X on 1",
        "nodes": 18_297,
    }
    assert data["seconds"] > 0


def test_cli_search_for_people(cli):
    run = cli("search", "nim", "--position", "13", "--algo", "minimax")
    assert run.code == 0
    assert "value -100" in run.out
    assert "principal variation: take 1, take 3" in run.out


def test_cli_lists_games(cli):
    run = cli("games", "--json")
    assert [g["name"] for g in run.json()["games"]] == ["tictactoe", "nim"]


@pytest.mark.parametrize(
    "args",
    [["search", "go"], ["search", "tictactoe", "--position", "ooo......"],
     ["search", "nim", "--depth", "0"], ["play", "chess"]],
)
def test_cli_bad_input_exits_2(cli, args):
    run = cli(*args)
    assert run.code == 2
    assert run.err.startswith("advice: error: ")
    assert run.err.count("\n") == 1


def test_a_person_plays_tictactoe_and_bad_moves_are_refused():
    from engine.games import GAMES
    from engine.play import play_game

    said = []
    answers = iter(["5", "5", "ten", "0", "1", "3", "7", "9", "8", "6", "4", "2"])
    record = play_game(GAMES["tictactoe"], human_is_max=True, algo="alphabeta",
                       ask=lambda _: next(answers), say=said.append)
    assert "Refused: square 5 is taken" in said
    assert "Refused: 'ten' is not a square: type a number from 1 to 9" in said
    assert "Refused: '0' is not a square: type a number from 1 to 9" in said
    assert record.moves[0] == "X on 5"
    assert record.result in ("draw", "MIN wins")  # the machine never loses


def test_a_person_plays_nim_and_cannot_take_too_many():
    from engine.games import GAMES
    from engine.play import play_game

    said = []
    answers = iter(["4", "3", "3", "1"])
    record = play_game(GAMES["nim"], human_is_max=True, position="5",
                       ask=lambda _: next(answers), say=said.append)
    assert "Refused: '4' is not a move: take 1, 2 or 3 sticks" in said
    assert "Refused: only 1 stick left" in said
    assert record.moves == ["take 3", "take 1", "take 1"]
    assert record.result == "MIN wins"  # 5 mod 4 = 1: the side to move loses
