"""Benchmark: Bratko's searches in Prolog against plain Python.

Prints positions visited, seconds and positions per second for minimax
and alpha-beta on tic-tac-toe from the empty board, next to a plain-Python
minimax and alpha-beta over the same game (written here as a reference,
same move order, same cut test), and the ratios.

Run: .venv/bin/python bench/search.py
"""

from __future__ import annotations

import time

from engine.search import search

LINES = [0b000000111, 0b000111000, 0b111000000, 0b001001001,
         0b010010010, 0b100100100, 0b100010001, 0b001010100]


def won(mask: int) -> bool:
    return any(mask & line == line for line in LINES)


class Counter:
    nodes = 0


def successors(x: int, o: int, x_to_move: bool):
    taken = x | o
    if taken == 511 or won(x) or won(o):
        return []
    return [((x | 1 << i, o) if x_to_move else (x, o | 1 << i))
            for i in range(9) if not taken >> i & 1]


def value(x: int, o: int) -> int:
    return 100 if won(x) else -100 if won(o) else 0


def py_minimax(x: int, o: int, x_to_move: bool, count: Counter) -> int:
    count.nodes += 1
    succ = successors(x, o, x_to_move)
    if not succ:
        return value(x, o)
    vals = [py_minimax(a, b, not x_to_move, count) for a, b in succ]
    return max(vals) if x_to_move else min(vals)


def py_alphabeta(x, o, x_to_move, alpha, beta, count: Counter) -> int:
    count.nodes += 1
    succ = successors(x, o, x_to_move)
    if not succ:
        return value(x, o)
    best = -1000 if x_to_move else 1000
    for a, b in succ:
        v = py_alphabeta(a, b, not x_to_move, alpha, beta, count)
        if x_to_move:
            best = max(best, v)
            if best >= beta:
                return best
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            if best <= alpha:
                return best
            beta = min(beta, best)
    return best


def timed(fn):
    t0 = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t0


def main() -> None:
    rows = []
    for algo in ("minimax", "alphabeta"):
        r = search("tictactoe", algo=algo)  # seconds measured inside Prolog
        count = Counter()
        if algo == "minimax":
            val, secs = timed(lambda: py_minimax(0, 0, True, count))
        else:
            val, secs = timed(lambda: py_alphabeta(0, 0, True, -1000, 1000, count))
        assert (val, count.nodes) == (r.value, r.nodes), (val, count.nodes, r)
        rows.append((algo, r.nodes, r.seconds, secs))
    print(f"{'search':10} {'positions':>10} {'prolog s':>9} {'pos/s':>10} "
          f"{'python s':>9} {'pos/s':>10} {'python/prolog':>14}")
    for algo, nodes, pl, py in rows:
        print(f"{algo:10} {nodes:>10,} {pl:>9.3f} {nodes / pl:>10,.0f} "
              f"{py:>9.3f} {nodes / py:>10,.0f} {py / pl:>14.2f}")


if __name__ == "__main__":
    main()
