"""Game-tree search through the Python API and the CLI: exact figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games import BadInput
from engine.search import outcome_of, search

DATA = Path(__file__).parent / "data"


def test_tictactoe_minimax_visits_the_whole_tree():
    r = search("tictactoe", algo="minimax")
    assert (r.value, r.nodes) == (0, 549_946)
    assert r.move == "X on 1"
    assert len(r.line) == 10  # a draw fills the board


def test_tictactoe_alphabeta_prunes_to_20866():
    r = search("tictactoe", algo="alphabeta")
    assert (r.value, r.nodes) == (0, 20_866)
    assert r.best == "ttt(1,0,o)"


def test_depth_limited_alphabeta_uses_the_static_value():
    r = search("tictactoe", algo="alphabeta", depth=1)
    assert (r.value, r.nodes, r.move) == (4, 10, "X on 5")


def test_a_won_position_is_found():
    r = search("tictactoe", "xx.oo....", algo="minimax")
    assert (r.value, r.move) == (999_999_999, "X on 3")
    assert outcome_of(r.value) == {"winner": "max", "plies": 1}


@pytest.mark.parametrize("sticks", range(1, 22))
def test_nim_value_follows_the_mod4_rule(sticks):
    r = search("nim", str(sticks), algo="alphabeta")
    winner = outcome_of(r.value)["winner"]
    assert winner == ("min" if sticks % 4 == 1 else "max")


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
        ("chess", None, "unknown game 'chess': the games are connect4, nim, pig, tictactoe"),
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
        "nodes": 20_866,
    }
    assert data["outcome"] is None
    assert data["seconds"] > 0


def test_cli_search_for_people(cli):
    run = cli("search", "nim", "--position", "13", "--algo", "minimax")
    assert run.code == 0
    assert "value MIN wins in 7 plies" in run.out
    assert "principal variation: take 1, take 3" in run.out


def test_cli_lists_games(cli):
    run = cli("games", "--json")
    assert [g["name"] for g in run.json()["games"]] == ["connect4", "nim", "pig", "tictactoe"]


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
    from engine.games import find_game
    from engine.play import play_game

    said = []
    answers = iter(["5", "5", "ten", "0", "1", "3", "7", "9", "8", "6", "4", "2"])
    record = play_game(find_game("tictactoe"), human_is_max=True, algo="alphabeta",
                       ask=lambda _: next(answers), say=said.append)
    assert "Refused: square 5 is taken" in said
    assert "Refused: 'ten' is not a square: type a number from 1 to 9" in said
    assert "Refused: '0' is not a square: type a number from 1 to 9" in said
    assert record.moves[0] == "X on 5"
    assert record.result in ("draw", "MIN wins")  # the machine never loses


def test_a_person_plays_nim_and_cannot_take_too_many():
    from engine.games import find_game
    from engine.play import play_game

    said = []
    answers = iter(["4", "3", "3", "1"])
    record = play_game(find_game("nim"), human_is_max=True, position="5",
                       ask=lambda _: next(answers), say=said.append)
    assert "Refused: '4' is not a move: take 1, 2 or 3 sticks" in said
    assert "Refused: only 1 stick left" in said
    assert record.moves == ["take 3", "take 1", "take 1"]
    assert record.result == "MIN wins"  # 5 mod 4 = 1: the side to move loses


def test_cli_search_for_people_exactly(cli):
    run = cli("search", "tictactoe", "--algo", "alphabeta", "--depth", "2",
              "--position", "x...o....")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[:-1] == [
        " X | 2 | 3", "---+---+---", " 4 | O | 6", "---+---+---", " 7 | 8 | 9", "",
        "alphabeta to depth 2: value -1",
        "best move: X on 3",
        "principal variation: X on 3, O on 7",
    ]
    assert lines[-1].startswith("positions visited: 29 in ")


def test_cli_lists_games_for_people(cli):
    run = cli("games")
    assert run.out == (
        "connect4     Connect Four on a board of up to 7 x 6 (7 x 6 by default)\n"
        "nim          One-pile Nim: take 1 to 3 sticks; whoever takes the last one loses\n"
        "pig          Pig: roll a die to build a turn total and hold to bank it; a 1 loses "
        "it; first to 10 (or the target given) wins\n"
        "tictactoe    Tic-tac-toe: X moves first; three in a line wins\n"
    )


def test_the_games_declare_themselves_in_prolog():
    from engine.games import shipped_games

    games = {g.name: g for g in shipped_games()}
    assert "tictactoe_al0" not in games  # an advice-table domain, not a search game
    assert games["nim"].kb_file.name == "nim.pl"


@pytest.mark.parametrize(
    ("game", "position", "message"),
    [
        ("tictactoe", "x", "malformed tic-tac-toe position 'x': give 9 squares row by row, "
         "each x, o or . (e.g. x...o....)"),
        ("tictactoe", "it's", "malformed tic-tac-toe position \"it's\": give 9 squares row "
         "by row, each x, o or . (e.g. x...o....)"),
        ("tictactoe", "xxxx.....", "impossible tic-tac-toe position 'xxxx.....': X moves "
         "first, so X has as many marks as O or one more (here X 4, O 0)"),
        ("nim", " abc ", "malformed nim position 'abc': give the number of sticks, e.g. 21"),
        ("nim", "10001", "malformed nim position '10001': give the number of sticks, e.g. 21"),
    ],
)
def test_refused_positions_are_named_in_one_line(game, position, message):
    with pytest.raises(BadInput) as refused:
        search(game, position)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("position", "drawing"),
    [("XX./OO./...", " X | X | 3\n---+---+---\n O | O | 6\n---+---+---\n 7 | 8 | 9"),
     (" x-_/-o-/--- ", " X | 2 | 3\n---+---+---\n 4 | O | 6\n---+---+---\n 7 | 8 | 9")],
)
def test_tictactoe_positions_in_every_spelling(position, drawing):
    r = search("tictactoe", position, algo="alphabeta", depth=1)
    assert r.drawing == drawing


def test_a_students_game_uses_the_defaults():
    from engine.games import student_game
    from engine.play import play_game

    game = student_game(str(DATA / "countdown.pl"))
    with pytest.raises(BadInput, match=r"^malformed countdown position 'halt': give a "
                       r"Prolog term that moves/2 or staticval/2 accepts, e\.g\. c\(4,max\)$"):
        search(game, "halt")
    said, prompts = [], []
    answers = iter(["9", "c(3, min)", "1"])
    record = play_game(game, human_is_max=True, algo="minimax",
                       ask=lambda prompt: prompts.append(prompt) or next(answers),
                       say=said.append)
    assert prompts[0] == "MAX to move (1: c(3,min)  2: c(2,min)): "
    assert "Refused: '9' is not a move here: type a number from 1 to 2" in said
    assert record.moves[:2] == ["c(3,min)", "c(2,max)"]
    assert record.result == "MIN wins"


def test_play_prompts_come_from_the_game():
    from engine.games import find_game
    from engine.play import play_game

    prompts = []
    answers = iter(["1"])

    def ask(prompt):
        prompts.append(prompt)
        return next(answers)

    with pytest.raises(StopIteration):
        play_game(find_game("tictactoe"), human_is_max=False, depth=1, ask=ask,
                  say=lambda _: None)
    assert prompts[0] == "MIN to move (free squares: 1 2 3 4 6 7 8 9): "
    assert prompts[1] == "MIN to move (free squares: 2 4 6 7 8 9): "


@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "ordered", "tt"])
def test_a_sooner_win_beats_a_later_one(algo):
    # X on 1 and 4, O on 5 and 9: X on 2 wins too (two threats at once),
    # but X on 7 wins at once; with values that only say "won", X on 2,
    # the first of the winning moves, was chosen
    r = search("tictactoe", "x..xo...o", algo=algo)
    assert (r.move, outcome_of(r.value)) == ("X on 7", {"winner": "max", "plies": 1})


@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "ordered", "tt"])
def test_a_later_loss_beats_a_sooner_one(algo):
    # X on 1 and 4, O on 7 and 8: X loses whatever it does, at once after
    # X on 2 (the first move); X on 9 makes O play on
    r = search("tictactoe", "x..x..oo.", algo=algo)
    assert (r.move, outcome_of(r.value)) == ("X on 9", {"winner": "min", "plies": 4})
