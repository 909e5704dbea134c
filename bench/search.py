"""Benchmark: Bratko's searches in Prolog against plain Python.

Prints positions visited, seconds and positions per second for minimax
and alpha-beta on tic-tac-toe from the empty board, next to a plain-Python
minimax and alpha-beta over the same game (written here as a reference,
same move order, same cut test), and the ratios.

Timings on this kind of machine vary from run to run: each search is
timed as the best of three runs.

Then Connect Four 7 x 6 from the empty board to depth 8: alpha-beta,
alpha-beta with move ordering, with ordering and a transposition table
(Prolog, kb/search/refined.pl), and plain alpha-beta in Python over the
same game (bitboards, the same static evaluation, move order and cut
test: it visits the same positions); and iterative deepening given the
time plain alpha-beta took in Prolog, with the depth it reaches.

Run: .venv/bin/python bench/search.py
"""

from __future__ import annotations

import time

from engine.search import DECIDED, WON, search

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
    """The value of a finished game (kb/search/outcomes.pl)."""
    return WON if won(x) else -WON if won(o) else 0


def farther(v):
    """A value one ply before: a win or a loss one ply farther away."""
    return v - 1 if v > DECIDED else v + 1 if v < -DECIDED else v


def nearer(v):
    """A window bound one ply later (the inverse of farther)."""
    if abs(v) == float("inf"):
        return v
    return v + 1 if v > DECIDED else v - 1 if v < -DECIDED else v


def py_minimax(x: int, o: int, x_to_move: bool, count: Counter) -> int:
    count.nodes += 1
    succ = successors(x, o, x_to_move)
    if not succ:
        return value(x, o)
    vals = [py_minimax(a, b, not x_to_move, count) for a, b in succ]
    return farther(max(vals) if x_to_move else min(vals))


def py_alphabeta(x, o, x_to_move, alpha, beta, count: Counter) -> int:
    count.nodes += 1
    succ = successors(x, o, x_to_move)
    if not succ:
        return value(x, o)
    alpha, beta = nearer(alpha), nearer(beta)
    best = -float("inf") if x_to_move else float("inf")
    for a, b in succ:
        v = py_alphabeta(a, b, not x_to_move, alpha, beta, count)
        if x_to_move:
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            if best <= alpha:
                break
            beta = min(beta, best)
    return farther(best)


def timed(fn):
    t0 = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t0


# -- Connect Four 7 x 6, as kb/games/connect4.pl plays it ----------------------

W, H = 7, 6
COLUMN = (1 << H) - 1
FULL = sum(COLUMN << (c * (H + 1)) for c in range(W))


def c4_windows() -> list[int]:
    masks = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for c in range(W):
            for r in range(H):
                if 0 <= c + 3 * dc < W and 0 <= r + 3 * dr < H:
                    masks.append(sum(1 << ((c + k * dc) * (H + 1) + r + k * dr)
                                     for k in range(4)))
    return masks


WINDOWS = c4_windows()
CENTRE = COLUMN << (3 * (H + 1))
WEIGHT = (0, 1, 4, 16, 0)


def four(b: int) -> bool:
    for shift in (1, H + 1, H, H + 2):
        m = b & (b >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


def c4_value(x: int, o: int, won: int) -> int:
    if won:
        return won * WON
    if x | o == FULL:
        return 0
    lines = 0
    for mask in WINDOWS:
        if not o & mask:
            lines += WEIGHT[(x & mask).bit_count()]
        elif not x & mask:
            lines -= WEIGHT[(o & mask).bit_count()]
    return lines + 2 * ((x & CENTRE).bit_count() - (o & CENTRE).bit_count())


def c4_alphabeta(x, o, x_to_move, won, depth, alpha, beta, count: Counter) -> int:
    count.nodes += 1
    occupied = x | o
    if depth == 0 or won or occupied == FULL:
        return c4_value(x, o, won)
    alpha, beta = nearer(alpha), nearer(beta)
    best = -float("inf") if x_to_move else float("inf")
    for c in range(W):
        shift = c * (H + 1)
        if occupied & (1 << (shift + H - 1)):
            continue
        disc = (occupied + (1 << shift)) & (COLUMN << shift)
        if x_to_move:
            v = c4_alphabeta(x | disc, o, False, 1 if four(x | disc) else 0, depth - 1,
                             alpha, beta, count)
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        else:
            v = c4_alphabeta(x, o | disc, True, -1 if four(o | disc) else 0, depth - 1,
                             alpha, beta, count)
            best = min(best, v)
            if best <= alpha:
                break
            beta = min(beta, best)
    return farther(best)


def best_of(runs: int, fn):
    """The result and the least seconds of `runs` calls of fn (this machine's
    timings vary from run to run)."""
    timings = [timed(fn) for _ in range(runs)]
    return timings[0][0], min(seconds for _, seconds in timings)


def connect_four(depth: int = 8, runs: int = 3) -> None:
    count = Counter()

    def python_alphabeta():
        count.nodes = 0
        return c4_alphabeta(0, 0, True, 0, depth, -float("inf"), float("inf"), count)

    val, py = best_of(runs, python_alphabeta)
    print(f"\nConnect Four 7 x 6, empty board, depth {depth}")
    print(f"{'search':24} {'positions':>10} {'seconds':>8} {'pos/s':>10} {'value':>6}")
    print(f"{'python alpha-beta':24} {count.nodes:>10,} {py:>8.2f} "
          f"{count.nodes / py:>10,.0f} {val:>6}")
    results = {}
    for algo in ("alphabeta", "ordered", "tt"):
        tries = [search("connect4", algo=algo, depth=depth, seconds=3600)
                 for _ in range(runs)]
        r = min(tries, key=lambda t: t.seconds)
        results[algo] = r
        print(f"{'prolog ' + algo:24} {r.nodes:>10,} {r.seconds:>8.2f} "
              f"{r.nodes / r.seconds:>10,.0f} {r.value:>6}")
    ab = results["alphabeta"]
    assert (ab.nodes, ab.value) == (count.nodes, val), (ab.nodes, ab.value, count.nodes, val)
    budget = f"{max(1, round(ab.seconds * 1000))}ms"
    r = search("connect4", algo="id", budget=budget)
    print(f"{'prolog id ' + budget:24} {r.nodes:>10,} {r.seconds:>8.2f} "
          f"{r.nodes / r.seconds:>10,.0f} {r.value:>6}  depth {r.depth}")
    print(f"Prolog alpha-beta per position: {py / ab.seconds:.2f}x the speed of Python's; "
          f"ordering visits {results['ordered'].nodes / ab.nodes:.2f}x, ordering and the "
          f"table {results['tt'].nodes / ab.nodes:.2f}x the positions of alpha-beta")


def main(runs: int = 3) -> None:
    rows = []
    for algo in ("minimax", "alphabeta"):
        # seconds measured inside Prolog; each side's best of `runs` runs
        r = min((search("tictactoe", algo=algo) for _ in range(runs)), key=lambda t: t.seconds)
        count = Counter()
        if algo == "minimax":
            def python_search():
                count.nodes = 0
                return py_minimax(0, 0, True, count)
        else:
            def python_search():
                count.nodes = 0
                return py_alphabeta(0, 0, True, -float("inf"), float("inf"), count)
        val, secs = best_of(runs, python_search)
        assert (val, count.nodes) == (r.value, r.nodes), (val, count.nodes, r)
        rows.append((algo, r.nodes, r.seconds, secs))
    print(f"best of {runs} runs each")
    print(f"{'search':10} {'positions':>10} {'prolog s':>9} {'pos/s':>10} "
          f"{'python s':>9} {'pos/s':>10} {'python/prolog':>14}")
    for algo, nodes, pl, py in rows:
        print(f"{algo:10} {nodes:>10,} {pl:>9.3f} {nodes / pl:>10,.0f} "
              f"{py:>9.3f} {nodes / py:>10,.0f} {py / pl:>14.2f}")
    connect_four(runs=runs)


if __name__ == "__main__":
    main()
