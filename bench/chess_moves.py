"""The chess endgame KB (kb/chess/chess.pl) against python-chess, full size:
20,000 random positions per signature (one Prolog query each, the boards
passed as terms built from python-chess boards), and the
number of legal positions of every 3-piece signature, each side to move.

    .venv/bin/python bench/chess_moves.py [--positions N] [--no-counts]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import chess  # noqa: E402

from test_chess_kb import (SIGNATURES, chess_session, prolog_answers,  # noqa: E402
                           prolog_count, python_answer, python_count, sample_boards)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--no-counts", action="store_true")
    args = parser.parse_args()
    s = chess_session()
    failures = 0
    print(f"{'signature':10} {'positions':>9} {'agree':>9} {'ep':>6} "
          f"{'prolog s':>9} {'pos/s':>8}")
    for sig in SIGNATURES:
        boards = sample_boards(sig, args.positions)
        t0 = time.perf_counter()
        got = prolog_answers(s, boards)
        dt = time.perf_counter() - t0
        agree = sum(g == python_answer(b) for b, g in zip(boards, got))
        ep = sum(b.has_legal_en_passant() for b in boards)
        failures += agree != len(boards)
        print(f"{sig:10} {len(boards):9,} {agree:9,} {ep:6,} {dt:9.2f} {len(boards) / dt:8,.0f}")
    if not args.no_counts:
        print(f"\n{'signature':10} {'side':4} {'prolog':>9} {'python-chess':>12} "
              f"{'prolog s':>9}")
        for sig in ["KQK", "KRK", "KBK", "KNK", "KPK"]:
            for side, turn in (("w", chess.WHITE), ("b", chess.BLACK)):
                t0 = time.perf_counter()
                mine = prolog_count(s, sig, side)
                dt = time.perf_counter() - t0
                theirs = python_count(sig, turn)
                failures += mine != theirs
                print(f"{sig:10} {side:4} {mine:9,} {theirs:12,} {dt:9.2f}")
    print("\nall agree" if not failures else f"\n{failures} disagreement(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
