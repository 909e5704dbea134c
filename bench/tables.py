"""Benchmark: the full proofs of the shipped endgame tables.

For each table (by default every chess table shipped under kb/chess),
runs the proof against every defence from every start position of its
domain's first set and prints one row of the README's table: results,
worst case and mean of the worst cases against every defence, mean
moves and mean ratio to optimal against the perfect defender, states
valued (and how many of them a second worker valued again), seconds,
and the peak memory of a worker process. The proof plays the perfect
defender's games from every start that succeeds; only where some start
fails does a sweep against the perfect defender follow, for the games
from every start (its seconds after a +).

Run: .venv/bin/python bench/tables.py [--workers 2] [TABLE ...]
"""

from __future__ import annotations

import argparse
import resource

from engine.prolog import kb_path
from engine.verify import VerifyJob, verify

TABLES = ("chess/krk.adv", "chess/krk_plus.adv", "chess/kqk.adv", "chess/krrk.adv", "chess/kbbk.adv")


def row(table: str, workers: int) -> str:
    every = verify(VerifyJob(str(kb_path(table)), "all"), workers=workers)
    seconds = f"{every['seconds']:.1f}"
    if every["proved"]:
        perfect = every["perfect"]
    else:
        perfect = verify(VerifyJob(str(kb_path(table)), "perfect"), workers=workers)
        seconds += f" + {perfect['seconds']:.1f}"
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    results = ", ".join(f"{k} {v:,}" for k, v in every["by_result"].items())
    return (f"| `{table}` | {'proved' if every['proved'] else 'refuted'}: {results} "
            f"| {every['max_moves']} | {every['mean_moves']:.2f} "
            f"| {perfect['mean_moves']:.2f} | {perfect['mean_ratio']:.2f} "
            f"| {every['states']:,} | {every['states_repeated']:,} "
            f"| {seconds} "
            f"| {peak_mb:,.0f} MB |")  # the largest worker of this run so far


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="*", default=list(TABLES))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print("| table | every defence | worst case | mean worst | mean against perfect "
          "| mean ratio | states | valued again by another worker "
          "| seconds (every defence + a sweep against the perfect defender where "
          "some start fails) | peak memory |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for table in args.tables:
        print(row(table, args.workers), flush=True)


if __name__ == "__main__":
    main()
