"""Expectiminimax (kb/search/chance.pl) on Pig (kb/games/pig.pl), checked
against a solver of the same rules written again here, by value iteration.

The solver knows every position of a game of Pig to a small target and
values each for MAX as P(MAX wins) - P(MIN wins). Value iteration checks
the search two ways:

- k sweeps started from the static values (Pig's heuristic, written again
  below) give, position by position, exactly the value of expectiminimax
  searched k plies deep: a sweep is one ply of the search everywhere at
  once (a finished game keeps its value);
- iterated to its fixed point, value iteration gives the true value of
  every position; expectiminimax comes nearer to it as it searches
  deeper.

The positions the search visits are counted here too, by walking the
same tree.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

import pytest

from engine.prolog import kb_path, session

MAX, MIN = "max", "min"
CHOOSING, ROLLING = "choosing", "rolling"
FACE = 1 / 6

# The rules of Pig, written again: a position is (target, max_score,
# min_score, turn_total, mover, phase); a roll that reaches the target is
# banked and ends the game.


def over(p):
    target, m, n, _, _, _ = p
    return m >= target or n >= target


def other(side):
    return MIN if side == MAX else MAX


def rolled(p, face):
    target, m, n, k, mover, _ = p
    if face == 1:
        return (target, m, n, 0, other(mover), CHOOSING)
    k += face
    if mover == MAX:
        if m + k >= target:
            return (target, m + k, n, 0, MAX, CHOOSING)
        return (target, m, n, k, MAX, CHOOSING)
    if n + k >= target:
        return (target, m, n + k, 0, MIN, CHOOSING)
    return (target, m, n, k, MIN, CHOOSING)


def successors(p):
    """('chance', outcomes), ('max' | 'min', positions), or None when over."""
    target, m, n, k, mover, phase = p
    if phase == ROLLING:
        return "chance", [rolled(p, face) for face in range(1, 7)]
    if over(p):
        return None
    roll = (target, m, n, k, mover, ROLLING)
    if k == 0:
        return mover, [roll]
    if mover == MAX:
        hold = (target, m + k, n, 0, MIN, CHOOSING)
    else:
        hold = (target, m, n + k, 0, MAX, CHOOSING)
    return mover, [roll, hold]


def heuristic(p):
    """Pig's static value: 1 or -1 once a side has won, else from what
    each side still needs, the mover's turn total counted as banked."""
    target, m, n, k, mover, _ = p
    if m >= target:
        return 1.0
    if n >= target:
        return -1.0
    need_max = target - m - (k if mover == MAX else 0)
    need_min = target - n - (k if mover == MIN else 0)
    return (need_min - need_max) / (need_min + need_max)


def closure(starts):
    """The positions ``starts`` and every position reachable from them."""
    todo = list(starts)
    seen = set(todo)
    while todo:
        node = successors(todo.pop())
        for q in node[1] if node else []:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def positions(target):
    """Every position of a game to ``target``, reachable from its start or
    not (a score of 1, say, is not): those of a game not over, and the
    ends of the game they lead to."""
    return closure([
        (target, m, n, k, mover, phase)
        for m in range(target) for n in range(target)
        for mover in (MAX, MIN)
        for k in range(target - (m if mover == MAX else n))
        for phase in (CHOOSING, ROLLING)
    ])


def sweep(values):
    """One sweep of value iteration (every position from the old values)."""
    new = {}
    for p, v in values.items():
        node = successors(p)
        if node is None:
            new[p] = v
        elif node[0] == "chance":
            total = 0.0
            for q in node[1]:
                total += FACE * values[q]
            new[p] = total
        elif node[0] == MAX:
            new[p] = max(values[q] for q in node[1])
        else:
            new[p] = min(values[q] for q in node[1])
    return new


@cache
def swept(target, k):
    """The values after k sweeps from the heuristic."""
    if k == 0:
        return {p: heuristic(p) for p in positions(target)}
    return sweep(swept(target, k - 1))


@cache
def fixed_point(target):
    """The true values: value iteration until no value moves by 1e-15."""
    values = {p: heuristic(p) for p in positions(target)}
    for sweeps in range(1, 10_000):
        new = sweep(values)
        if max(abs(new[p] - values[p]) for p in values) < 1e-15:
            return new, sweeps
        values = new
    raise AssertionError("value iteration did not converge")


@cache
def tree_size(p, depth):
    """The positions expectiminimax visits from p searched depth plies."""
    node = successors(p)
    if depth == 0 or node is None:
        return 1
    return 1 + sum(tree_size(q, depth - 1) for q in node[1])


# -- the search in Prolog ------------------------------------------------------


@pytest.fixture(scope="module")
def prolog():
    s = session()
    s.use_module("search/chance.pl")
    s.load_file(kb_path("games/pig.pl"), context="test_chance_pig")
    return s


def term(p):
    return "pig({},{},{},{},{},{})".format(*p)


def expectiminimax(s, p, depth):
    """The value, the line (as terms) and the visited count of the search."""
    out = s.ask(
        f"search:reset_visited, chance:expectiminimax_pv(pig:{term(p)}, {int(depth)}, Line, V), "
        'search:visited(N), format(string(Out), "~w ~w ~w", [V, N, Line])',
        what="expectiminimax",
    )
    value, visited, line = out.split(" ", 2)
    return float(value), int(visited), re.findall(r"pig\([^)]*\)", line)


START6 = (6, 0, 0, 0, MAX, CHOOSING)
POSITIONS = [
    START6,
    (6, 2, 4, 0, MIN, CHOOSING),
    (6, 3, 1, 2, MAX, CHOOSING),   # not reachable (a score of 1), but a position
    (6, 0, 5, 3, MAX, ROLLING),
    (6, 4, 4, 1, MIN, CHOOSING),
]


def test_the_game_to_6_has_300_positions():
    assert len(closure([START6])) == 300   # as kb/games/test_pig.pl counts them
    assert len(positions(6)) == 576   # 504 with the game on, 72 over


@pytest.mark.parametrize("p", POSITIONS, ids=term)
@pytest.mark.parametrize("depth", [0, 1, 2, 3, 5, 8, 11])
def test_depth_k_is_k_sweeps_of_value_iteration(prolog, p, depth):
    value, visited, line = expectiminimax(prolog, p, depth)
    assert value == pytest.approx(swept(6, depth)[p], abs=1e-9)
    assert visited == tree_size(p, depth)
    assert line[0] == term(p)


def test_exact_visited_counts_from_the_start(prolog):
    counts = [expectiminimax(prolog, START6, d)[1] for d in (4, 8, 12, 16)]
    assert counts == [51, 887, 10_493, 105_103]
    assert counts == [tree_size(START6, d) for d in (4, 8, 12, 16)]


def principal_line(p, depth):
    """p, then the best successor (the first of equals, by the values of
    one sweep fewer) as long as the positions are decision positions."""
    line = [p]
    while depth > 0 and (node := successors(line[-1])) and node[0] != "chance":
        depth -= 1
        values = swept(6, depth)
        choose = max if node[0] == MAX else min
        line.append(choose(node[1], key=values.__getitem__))   # the first of equals
    return line


@pytest.mark.parametrize("p", POSITIONS, ids=term)
@pytest.mark.parametrize("depth", [1, 2, 10])
def test_the_line_follows_the_best_moves_to_the_first_roll(prolog, p, depth):
    _, _, line = expectiminimax(prolog, p, depth)
    assert line == [term(q) for q in principal_line(p, depth)]


DEPTHS = [4, 8, 12, 16]
TOLERANCE = 2e-4   # |expectiminimax(16) - true value|: 8.5e-5, 3.6e-6, 6.2e-5 below


@pytest.mark.parametrize("p", [START6, (6, 2, 4, 0, MIN, CHOOSING), (6, 0, 5, 3, MAX, ROLLING)],
                         ids=term)
def test_deeper_searches_come_nearer_the_true_value(prolog, p):
    true, _ = fixed_point(6)
    errors = [abs(expectiminimax(prolog, p, d)[0] - true[p]) for d in DEPTHS]
    assert errors[-1] < TOLERANCE, errors
    assert all(a > b for a, b in pairwise(errors)), errors


def test_value_iteration_converges_to_values_between_minus_1_and_1():
    true, sweeps = fixed_point(6)
    assert sweeps < 1000
    assert all(-1 <= v <= 1 for v in true.values())
    # moving first is an advantage: MAX wins a game to 6 with probability 24/31
    assert true[START6] == pytest.approx(24 / 31 - 7 / 31, abs=1e-12)
