"""Benchmark: the compiled table against the interpreted one.

Runs the full perfect-defender sweep of Bratko's KRK table (one game from
every White-to-move position, one per symmetry class) in both modes, in
one worker process each, checks that both play exactly the same games
(same results and move counts), and prints seconds, positions per second
and the ratio.

With ``--against REV`` it instead runs the compiled sweep here and in
the project as it was at git revision REV (extracted into a temporary
folder), one after the other in one run, and prints both times, whether
they play the same games, and the ratio.

Run: .venv/bin/python bench/verify.py [--sample N] [--against REV]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from engine.prolog import kb_path
from engine.verify import VerifyJob, verify

ROOT = Path(__file__).resolve().parent.parent
SWEEP = ("import json, sys\n"
         "from engine.prolog import kb_path\n"
         "from engine.verify import VerifyJob, verify\n"
         "sample = None if sys.argv[1] == 'all' else int(sys.argv[1])\n"
         "r = verify(VerifyJob(str(kb_path('chess/krk.adv')), 'perfect', sample=sample, "
         "seed=1), workers=1)\n"
         "print(json.dumps(r))\n")


def sweep_in(tree: Path, sample: int | None) -> dict:
    """The compiled perfect-defender sweep of the KRK book table, run by
    the project in ``tree`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", SWEEP, str(sample or "all")], cwd=tree,
                          env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def against(revision: str, sample: int | None) -> None:
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True,
                             check=True).stdout
    with tempfile.TemporaryDirectory() as old:
        tarfile.open(fileobj=BytesIO(archive)).extractall(old)
        reports = {revision: sweep_in(Path(old), sample), "this tree": sweep_in(ROOT, sample)}
    keys = ("positions", "by_result", "mean_moves", "max_moves", "histogram", "mean_ratio")
    base, now = reports.values()
    for name, r in reports.items():
        print(f"{name:12} {r['positions']:>7,} positions {r['seconds']:>7.1f} s "
              f"{r['by_result']} max {r['max_moves']}")
    print(f"same games: {all(base[k] == now[k] for k in keys)}; this tree takes "
          f"{now['seconds'] / base['seconds']:.2f}x the time of {revision}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, help="a seeded sample instead of all positions")
    parser.add_argument("--table", default=str(kb_path("chess/krk.adv")))
    parser.add_argument("--against", metavar="REV",
                        help="compare the compiled sweep with the project at git revision REV")
    args = parser.parse_args()
    if args.against:
        return against(args.against, args.sample)
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
