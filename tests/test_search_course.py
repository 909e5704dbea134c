"""Alpha-beta refined (kb/search/refined.pl): move ordering, a
transposition table, iterative deepening; and Connect Four
(kb/games/connect4.pl). The true values of small Connect Four boards come
from a solver written here in plain Python, with memoisation."""
from __future__ import annotations

from functools import lru_cache

import pytest

from engine.search import search


@lru_cache(maxsize=None)
def connect_four_value(width: int, height: int) -> int:
    """The value of the empty board for the first player: 1 win, 0 draw,
    -1 loss. Negamax with alpha-beta over bitboards (one spare bit on top
    of each column), remembering what each position was found to be."""
    column = (1 << height) - 1
    full = sum(column << (c * (height + 1)) for c in range(width))

    def four(b: int) -> bool:
        for shift in (1, height + 1, height, height + 2):
            m = b & (b >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

    known: dict[tuple[int, int], tuple[int, int]] = {}   # position -> (low, high)

    def value(mine: int, theirs: int, alpha: int, beta: int) -> int:
        occupied = mine | theirs
        if occupied == full:
            return 0
        low, high = known.get((mine, theirs), (-1, 1))
        alpha, beta = max(alpha, low), min(beta, high)
        if alpha >= beta:
            return alpha
        alpha0, best = alpha, -1
        for c in range(width):
            shift = c * (height + 1)
            if occupied & (1 << (shift + height - 1)):
                continue
            disc = (occupied + (1 << shift)) & (column << shift)
            v = 1 if four(mine | disc) else -value(theirs, mine | disc, -beta, -alpha)
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        if best <= alpha0:
            known[(mine, theirs)] = (low, best)
        elif best >= beta:
            known[(mine, theirs)] = (best, high)
        else:
            known[(mine, theirs)] = (best, best)
        return best

    return value(0, 0, -1, 1)


@pytest.mark.parametrize(("width", "height", "true_value"), [(4, 4, 0), (5, 4, 0), (4, 5, 0)])
def test_the_reference_solver(width, height, true_value):
    assert connect_four_value(width, height) == true_value


@pytest.mark.parametrize(("algo", "board", "value", "nodes"), [
    ("alphabeta", "4x4:", 0, 72_271),
    ("ordered", "4x4:", 0, 66_127),
    ("tt", "4x4:", 0, 17_906),
    ("tt", "5x4:", 0, 146_854),
])
def test_connect_four_small_boards_get_their_true_value(algo, board, value, nodes):
    r = search("connect4", board, algo=algo)
    width, height = (int(n) for n in board.rstrip(":").split("x"))
    assert r.value == 1000 * connect_four_value(width, height) == value
    assert r.nodes == nodes


@pytest.mark.parametrize(("algo", "nodes"), [
    ("minimax", 549_946), ("alphabeta", 20_866), ("ordered", 3_126), ("tt", 856)])
def test_tictactoe_gets_its_true_value_from_every_exact_search(algo, nodes):
    r = search("tictactoe", algo=algo)
    assert (r.value, r.nodes) == (0, nodes)


def test_ordering_and_the_table_visit_fewer_positions():
    ab = search("tictactoe", algo="alphabeta").nodes
    assert search("tictactoe", algo="ordered").nodes < ab
    assert search("tictactoe", algo="tt").nodes < search("tictactoe", algo="ordered").nodes
    c4_ab = search("connect4", "4x4:", algo="alphabeta").nodes
    assert search("connect4", "4x4:", algo="ordered").nodes < c4_ab
    assert search("connect4", "4x4:", algo="tt").nodes < c4_ab


def test_iterative_deepening_reports_each_depth():
    r = search("connect4", algo="id", budget="20000")
    assert (r.depth, r.move) == (9, "4")
    assert r.per_depth == ((1, 8), (2, 21), (3, 61), (4, 128), (5, 453), (6, 1023),
                           (7, 2787), (8, 4092), (9, 8748))
    assert r.nodes > sum(n for _, n in r.per_depth)     # depth 10 ran out of budget


def test_iterative_deepening_stops_once_the_game_is_solved():
    r = search("tictactoe", algo="id", budget="1000000")
    assert (r.value, r.depth) == (0, 9)
    assert r.nodes == sum(n for _, n in r.per_depth)


def test_a_time_budget_gives_a_move():
    r = search("connect4", algo="id", budget="200ms")
    assert r.depth >= 1 and r.move is not None


@pytest.mark.parametrize(("args", "message"), [
    (["--algo", "id", "--budget", "0"], "--budget '0': give a number of positions (e.g. "
     "20000) or of milliseconds (e.g. 500ms), at least 1"),
    (["--algo", "tt", "--budget", "100"], "--budget is for iterative deepening (--algo id) "
     "and Monte Carlo tree search (--algo mcts), not tt"),
    (["--algo", "id", "--depth", "3"], "--depth is not for id: it searches until its --budget "
     "runs out"),
    (["--algo", "mcts", "--budget", "500ms"], "--budget '500ms': Monte Carlo tree search takes "
     "a number of playouts, at least 1"),
    (["--algo", "mcts", "--seed", "-1"], "--seed must be 0 or more, not -1"),
    (["--algo", "alphabeta", "--seed", "3"], "--seed is for Monte Carlo tree search (--algo "
     "mcts), not alphabeta"),
    (["--algo", "quiescence"], "--algo quiescence needs a --depth"),
])
def test_bad_budgets_are_refused(cli, args, message):
    run = cli("search", "connect4", *args)
    assert (run.code, run.err) == (2, f"advice: error: {message}\n")


def test_iterative_deepening_json_has_positions_per_depth(cli):
    data = cli("search", "connect4", "--algo", "id", "--budget", "600", "--json").json()
    assert data["per_depth"] == [[1, 8], [2, 21], [3, 61], [4, 128]]
    assert data["depth"] == 4


def test_connect_four_reads_and_shows_positions(cli):
    run = cli("search", "connect4", "--position", "5x4:3312", "--depth", "2")
    assert run.out.splitlines()[:6] == [
        ". . . . .", ". . . . .", ". . o . .", "x o x . .", "1 2 3 4 5", "max (x) to move"]
    bad = cli("search", "connect4", "--position", "4x4:11111")
    assert (bad.code, bad.err) == (2, "advice: error: '4x4:11111' is not a game: column 1 "
                                   "cannot be played there\n")


def test_quiescence_sees_a_threat_past_the_depth_limit(cli):
    # o has 1, 2, 3 on the bottom row; at depth 1 alpha-beta plays 5, past
    # which o wins on 4
    plain = search("connect4", "53513732", algo="alphabeta", depth=1)
    quiet = search("connect4", "53513732", algo="quiescence", depth=1)
    assert (plain.move, plain.value, plain.nodes) == ("5", 42, 8)
    assert (quiet.move, quiet.value, quiet.nodes) == ("4", 39, 14)
    data = cli("search", "connect4", "--position", "53513732", "--algo", "quiescence",
               "--depth", "1", "--json").json()
    assert (data["move"], data["nodes"]) == ("4", 14)


def test_mcts_from_the_command_line_is_seeded(cli):
    args = ("search", "connect4", "--position", "121212", "--algo", "mcts", "--budget", "200",
            "--seed", "7", "--json")
    first, again = cli(*args).json(), cli(*args).json()
    assert first == {**again, "seconds": first["seconds"]}
    assert first["move"] == "1"                               # four up column 1
    assert sum(c["visits"] for c in first["children"]) == 200
    assert first["nodes"] == again["nodes"]


def test_expectiminimax_from_the_command_line(cli):
    data = cli("search", "pig", "--position", "target 6", "--algo", "expectiminimax",
               "--depth", "8", "--json").json()
    assert (data["move"], data["nodes"]) == ("roll", 887)
