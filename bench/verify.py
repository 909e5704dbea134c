"""Benchmark: the compiled table against the interpreted one.

Runs the full perfect-defender sweep of Bratko's KRK table (one game from
every White-to-move position, one per symmetry class) in both modes, in
one worker process each, checks that both play exactly the same games
(same results and move counts), and prints seconds, positions per second
and the ratio.

Run: .venv/bin/python bench/verify.py [--sample N]
"""

from __future__ import annotations

import argparse

from engine.prolog import kb_path
from engine.verify import VerifyJob, verify


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, help="a seeded sample instead of all positions")
    parser.add_argument("--table", default=str(kb_path("chess/krk.adv")))
    args = parser.parse_args()
    reports = {}
    for mode in ("compiled", "interpreted"):
        job = VerifyJob(args.table, "perfect", sample=args.sample, seed=1, mode=mode)
        reports[mode] = verify(job, workers=1)
    keys = ("positions", "by_result", "mean_moves", "max_moves", "histogram")
    same = all(reports["compiled"][k] == reports["interpreted"][k] for k in keys)
    print(f"{'mode':12} {'positions':>9} {'seconds':>8} {'positions/s':>12}")
    for mode, r in reports.items():
        print(f"{mode:12} {r['positions']:>9,} {r['seconds']:>8.1f} "
              f"{r['positions'] / r['seconds']:>12,.0f}")
    ratio = reports["interpreted"]["seconds"] / reports["compiled"]["seconds"]
    print(f"compiled is {ratio:.1f}x faster; both modes play the same games: {same}")
    r = reports["compiled"]
    print(f"results {r['by_result']}, mean moves {r['mean_moves']:.2f}, max {r['max_moves']}, "
          f"mean ratio to optimal {r['mean_ratio']:.3f}")


if __name__ == "__main__":
    main()
