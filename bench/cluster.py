"""Benchmark: verify on Ray against local worker processes, on one machine.

The every-defence proof of the KRK book table (kb/chess/krk.adv,
--defender all) runs with 2 local worker processes and with 2 Ray
actors on a Ray instance started for the run; the script prints
positions per second for each (the seconds of the whole run, Ray's
start included) and the ratio, Ray's overhead on one machine. The two
reports must agree but for timings and the cluster fields.

With --batches it first times a sample of the positions on Ray under
several batch sizes (start positions per Ray task), to choose one.

Run: .venv/bin/python bench/cluster.py [--positions all] [--sample N] [--batches 10,50,250]
"""

from __future__ import annotations

import argparse

from engine.cluster import BATCH
from engine.prolog import kb_path
from engine.verify import VerifyJob, verify

KRK = str(kb_path("chess/krk.adv"))
#: what may differ between a local and a Ray run of the same job
RUN_FIELDS = {"seconds", "cluster"}


def rate(report: dict) -> float:
    return report["positions"] / report["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, help="verify N positions (default: all)")
    parser.add_argument("--batches", help="batch sizes to compare first, e.g. 10,50,250")
    parser.add_argument("--positions", default="canonical",
                        help="the set of start positions: canonical (21,959, one per "
                        "symmetry class) or all (175,168)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    job = VerifyJob(KRK, "all", positions=args.positions, sample=args.sample, seed=args.seed)
    if args.batches:
        sample = VerifyJob(KRK, "all", sample=args.sample or 2000, seed=args.seed)
        print(f"batch size on Ray, {sample.sample:,} positions, 2 workers")
        for size in (int(b) for b in args.batches.split(",")):
            r = verify(sample, workers=2, cluster="ray", batch=size)
            print(f"  batch {size:>5}: {r['cluster']['batches']:>5} batches, "
                  f"{r['seconds']:7.1f} s, {rate(r):8.1f} positions/s")
    local = verify(job, workers=2)
    ray = verify(job, workers=2, cluster="ray")
    same = ({k: v for k, v in local.items() if k not in RUN_FIELDS}
            == {k: v for k, v in ray.items() if k not in RUN_FIELDS})
    print(f"KRK book table, every defence, {local['positions']:,} positions, 2 workers")
    print(f"  local workers: {local['seconds']:7.1f} s, {rate(local):8.1f} positions/s, "
          f"{local['states']:,} states")
    print(f"  ray (batch {BATCH}): {ray['seconds']:7.1f} s, {rate(ray):8.1f} positions/s, "
          f"{ray['states']:,} states, {ray['cluster']['batches']} batches")
    print(f"  ray / local: {rate(ray) / rate(local):.2f}x the throughput "
          f"(overhead {1 - rate(ray) / rate(local):.0%}); reports agree: {same}")


if __name__ == "__main__":
    main()
