"""The referee (kb/search/referee.pl, engine/referee.py): two players,
N games, sides alternating, seeded; ``advice match`` and ``advice play
--kb``."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine.prolog import BadInput
from engine.referee import match, parse_player

DATA = Path(__file__).parent / "data"
TABLE = str(Path(__file__).resolve().parent.parent / "kb" / "games" / "tictactoe.adv")


def scores(m):
    return [(p.player.spec, p.wins, p.draws, p.losses, p.unfinished) for p in m.players]


def test_sides_alternate_and_the_stronger_player_wins():
    m = match("tictactoe", "alphabeta:9", "random", games=4, seed=1)
    assert scores(m) == [("alphabeta:9", 4, 0, 0, 0), ("random", 0, 0, 4, 0)]
    assert [g["max"] for g in m.games] == ["alphabeta:9", "random"] * 2
    assert m.players[1].positions == 0 and m.players[0].positions > 0


def test_a_match_is_the_same_for_the_same_seed():
    one = match("connect4", "mcts:100", "random", games=2, seed=5)
    two = match("connect4", "mcts:100", "random", games=2, seed=5)
    assert one.games == two.games
    assert one.players[0].positions == two.players[0].positions
    other = match("connect4", "mcts:100", "random", games=2, seed=6)
    assert other.games != one.games


def test_an_advice_table_plays_the_game_it_has_a_domain_for():
    m = match("tictactoe", f"table:{TABLE}", "alphabeta:9", games=2)
    assert scores(m) == [(f"table:{TABLE}", 0, 2, 0, 0), ("alphabeta:9", 0, 2, 0, 0)]
    m = match("tictactoe", f"table:{TABLE}", "random", games=10, seed=3)
    assert scores(m)[0][3] == 0                      # the table never loses


def test_dice_are_rolled_by_the_referee():
    m = match("pig", "expectiminimax:6", "random", games=10)
    assert scores(m) == [("expectiminimax:6", 8, 0, 2, 0), ("random", 2, 0, 8, 0)]
    assert any(move.startswith("rolled ") for move in m.games[0]["moves"])


def test_a_person_plays_through_ask():
    typed = iter(["5", "1", "9", "3", "7"])
    said = []
    m = match("tictactoe", "human", "alphabeta:9", games=1, ask=lambda _: next(typed),
              say=said.append)
    assert scores(m)[0] == ("human", 0, 0, 1, 0)
    assert "Refused: square 3 is taken" in said
    assert said[-1] == "Game over: MIN wins."


def test_a_students_game_plays_a_match():
    m = match("", "minimax:5", "random", games=3, kb_file=str(DATA / "countdown.pl"))
    assert (m.game, scores(m)[0]) == ("countdown", ("minimax:5", 3, 0, 0, 0))


@pytest.mark.parametrize(("spec", "message"), [
    ("minimax", "player 'minimax': write minimax:DEPTH"),
    ("alphabeta:0", "player 'alphabeta:0': the depth must be a whole number, at least 1"),
    ("id:fast", "player 'id:fast': the milliseconds must be a whole number, at least 1"),
    ("random:2", "player 'random:2': random takes no argument"),
    ("deep", "player 'deep': choose one of human, random, minimax:DEPTH, alphabeta:DEPTH, "
     "expectiminimax:DEPTH, id:MS, mcts:PLAYOUTS, table:FILE.adv"),
])
def test_bad_players_are_one_line_of_bad_input(cli, spec, message):
    with pytest.raises(BadInput, match=f"^{message}$"):
        parse_player(spec)
    run = cli("match", "nim", "--first", spec, "--second", "random")
    assert (run.code, run.err) == (2, f"advice: error: {message}\n")


def test_match_on_the_command_line(cli):
    run = cli("match", "nim", "--first", "alphabeta:6", "--second", "random", "--games", "3",
              "--seed", "2")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "nim: 3 games, seed 2"
    assert lines[2].split()[:5] == ["alphabeta:6", "3", "0", "0", "0"]
    data = cli("match", "nim", "--first", "alphabeta:6", "--second", "random", "--games", "3",
               "--seed", "2", "--json").json()
    assert [p["wins"] for p in data["players"]] == [3, 0]
    assert [g["max"] for g in data["games"]] == ["alphabeta:6", "random", "alphabeta:6"]
    bad = cli("match", "nim", "--first", "random", "--second", "random", "--games", "0")
    assert (bad.code, bad.err) == (2, "advice: error: --games must be at least 1, not 0\n")


def test_play_takes_a_students_game(cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))       # MIN takes 1 from c(3,min)
    run = cli("play", "--kb", str(DATA / "countdown.pl"), "--first", "machine", "--json")
    assert run.code == 0, run.err
    assert run.json() == {"game": "countdown", "moves": ["c(3,min)", "c(2,max)", "c(0,min)"],
                          "result": "MAX wins"}
