"""Tablebase builds: time, positions per second and peak memory.

    python bench/tablebases.py [--workers 2] [--kpkp]

Each of the issue's seven tables (KRK, KQK, KBBK, KBNK, KRRK, KQKR,
KNNK) is built alone in a fresh process with an empty cache (the smaller
tables it needs included, as a user's first build would), and timed
beside the figures of a plain vectorised numpy retrograde measured on this
machine (no symmetry, int8 arrays over 64^n indexes).  Then all seven are
built together from an empty cache by ``--workers`` processes, biggest
first.  ``--kpkp`` also builds KPKP (fourteen four-piece tables first)
and checks its values against python-chess's moves, en passant included.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEVEN = ["KQKR", "KRRK", "KBNK", "KBBK", "KNNK", "KQK", "KRK"]   # biggest first
REFERENCE_SECONDS = {"KRK": 0.13, "KQK": 0.18, "KBBK": 7, "KBNK": 11, "KRRK": 14,
                     "KQKR": 19}
REFERENCE_ALL_SEVEN = 46


def build_in_child(signatures: list[str], cache: str) -> dict:
    """Build ``signatures`` in a fresh Python process; its seconds and
    peak memory."""
    code = ("import json, resource, sys, time\n"
            "from engine.tablebases import Store, parse_signature\n"
            "t = time.perf_counter(); s = Store(); out = {}\n"
            "for sig in sys.argv[1:]:\n"
            "    f = s.ensure(parse_signature(sig)).figures\n"
            "    out[sig] = {k: f[k] for k in ('max_dtm', 'white_to_move', 'black_to_move')}\n"
            "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
            "print(json.dumps({'seconds': time.perf_counter() - t, 'tables': out,"
            " 'peak_mb': peak}))\n")
    proc = subprocess.run([sys.executable, "-c", code, *signatures], capture_output=True,
                          text=True, env={**os.environ, "ADVICE_CACHE_DIR": cache},
                          cwd=ROOT, check=True)
    return json.loads(proc.stdout)


def alone() -> None:
    print(f"{'table':6} {'seconds':>8} {'reference':>9} {'ratio':>6} {'positions/s':>12} "
          f"{'peak MB':>8} {'max DTM':>7}")
    for sig in reversed(SEVEN):
        with tempfile.TemporaryDirectory() as cache:
            run = build_in_child([sig], cache)
        figures = run["tables"][sig]
        positions = sum(figures[s]["positions"]["total"]
                        for s in ("white_to_move", "black_to_move"))
        reference = REFERENCE_SECONDS.get(sig)
        ratio = f"{run['seconds'] / reference:6.2f}" if reference else "     -"
        print(f"{sig:6} {run['seconds']:8.2f} {reference or '-':>9} {ratio} "
              f"{positions / run['seconds']:12,.0f} {run['peak_mb']:8.0f} "
              f"{figures['max_dtm']:7}")


def together(workers: int) -> None:
    shares = [SEVEN[i::workers] for i in range(workers)]
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        procs = [subprocess.Popen(
            [sys.executable, "-c",
             "import sys; from engine.tablebases import Store, parse_signature\n"
             "s = Store()\n[s.ensure(parse_signature(x)) for x in sys.argv[1:]]", *share],
            env={**os.environ, "ADVICE_CACHE_DIR": cache}, cwd=ROOT) for share in shares]
        for proc in procs:
            if proc.wait():
                raise SystemExit("a build failed")
        seconds = time.perf_counter() - started
    print(f"all seven from an empty cache, {workers} process(es): {seconds:.1f} s "
          f"(reference {REFERENCE_ALL_SEVEN} s: ratio {seconds / REFERENCE_ALL_SEVEN:.2f}; "
          f"aim 20 s)")


def kpkp(samples: int) -> None:
    """Build KPKP and check sampled values against python-chess's moves,
    positions after a double step open to en passant included."""
    import chess
    import numpy as np

    from engine.tablebases import Store, parse_signature
    from engine.tablebases.layout import DRAW, ILLEGAL

    store = Store()
    started = time.perf_counter()
    store.ensure(parse_signature("KPKP"))
    print(f"KPKP and the tables it needs: {time.perf_counter() - started:.1f} s")

    def score(byte):
        return 0 if byte == DRAW else (1000 - byte + 1 if (byte - 1) % 2 else byte - 1 - 1000)

    def value(board):
        if board.ep_square is not None and board.has_legal_en_passant():
            return best(board)
        if len(board.piece_map()) == 2:
            return DRAW
        pieces = [("w" if p.color else "b", p.symbol().upper())
                  for _, p in sorted(board.piece_map().items())]
        squares = np.array([[s] for s in sorted(board.piece_map())])
        return int(store.tables.values(pieces, squares, "w" if board.turn else "b")[0])

    def best(board):
        children = []
        for move in board.legal_moves:
            board.push(move)
            children.append(value(board))
            board.pop()
        if not children:
            return 1 if board.is_check() else DRAW
        top = max(-score(c) for c in children)
        q = 1000 - top if top > 0 else top + 1000
        return DRAW if top == 0 else q + 2

    def opens_en_passant(board):
        for move in board.legal_moves:
            board.push(move)
            opened = board.ep_square is not None and board.has_legal_en_passant()
            board.pop()
            if opened:
                return True
        return False

    rng = random.Random(3)
    checked = wrong = opened = 0
    while checked < samples:
        board = chess.Board(None)
        squares = rng.sample(range(8, 56), 4)
        if rng.random() < 0.5:                  # a double step beside a pawn
            white = rng.random() < 0.5
            f = rng.randrange(8)
            g = f + rng.choice([-1, 1]) if 0 < f < 7 else (1 if f == 0 else 6)
            squares[2], squares[3] = ((8 + f, 24 + g) if white else (32 + g, 48 + f))
            board.turn = white
        else:
            board.turn = rng.random() < 0.5
        if len(set(squares)) < 4:
            continue
        for symbol, square in zip("KkPp", squares):
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        if not board.is_valid() or value(board) == ILLEGAL:
            continue
        opened += opens_en_passant(board)
        wrong += value(board) != best(board)
        checked += 1
    print(f"KPKP: {checked:,} sampled positions ({opened:,} with a double step open to "
          f"en passant), {wrong} whose value does not follow from python-chess's moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kpkp", action="store_true")
    parser.add_argument("--samples", type=int, default=3000)
    args = parser.parse_args()
    alone()
    together(args.workers)
    if args.workers != 1:
        together(1)
    if args.kpkp:
        kpkp(args.samples)


if __name__ == "__main__":
    main()
