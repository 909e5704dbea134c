"""Prove or refute an advice table over every start position of its domain.

The start positions are cut into slices; each slice is one Prolog job
(al0_verify in kb/al0/verify.pl) run in a worker process with a Prolog
of its own (:class:`engine.workers.WorkerPool`, or Ray actors with
:class:`engine.cluster.RayPool`), so the work spreads over ``workers``
processes, a progress bar can follow the slices, and Ctrl-C stops the
workers and reports the slices done. Only a complete
run of every position against every defence, with no failure, is
reported as proved.
"""

from __future__ import annotations

import json
import math
import os
import signal
import time
from collections import Counter
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Callable, Hashable, Iterable

import numpy as np

from engine.checkpoint import Checkpoint, identity, job_sources
from engine.cluster import BATCH, RayPool, pool_for
from engine.domains import Domain, describe
from engine.prolog import (
    DEFAULT_INFERENCES, BadInput, WallRefusal, atom, integer, session, string, wall_words,
)
from engine.tables import LoadedTable, load_table
from engine.workers import WorkerDied, WorkerPool, peak_memory

DEFENDERS = ("perfect", "all", "random")
#: the start positions in one slice, unless the command gives --batch: a
#: worker's job, a checkpoint's unit, and on a cluster one Ray task (BATCH)
SLICE = 250
#: the time limit of one slice (unless the command gives --time-limit)
SLICE_SECONDS = 3600.0
#: the inference limit of one slice (unless the command gives
#: --inference-limit): about what its hour allows at the 15 to 20
#: million inferences a second of a 2-core machine; one job's default
#: (two minutes' worth) was too few for a slice of 250 random starts of
#: a KBBK table that orders its moves by Black's best reply (README)
SLICE_INFERENCES = 50_000_000_000
MAX_COUNTEREXAMPLES = 1000


@dataclass(frozen=True)
class VerifyJob:
    """What to verify: everything a worker needs to set itself up.

    ``defender`` None takes the domain's own perfect defender where it
    declares one, else the random one (as ``advice play`` does). ``lost``
    (with ``defender="all"``) also sums, for each rule and advice, the
    moves it lost against optimal play along every start's worst line.
    """

    table_path: str
    defender: str | None = "perfect"
    positions: str | None = None
    sample: int | None = None
    seed: int = 0
    mode: str = "compiled"
    move_limit: int = 100
    lost: bool = False


class Interrupted(Exception):
    """Verification stopped by Ctrl-C; ``report`` covers the slices done."""

    def __init__(self, report: dict):
        super().__init__("interrupted")
        self.report = report


def prepare(job: VerifyJob) -> tuple[LoadedTable, Domain, int, int]:
    """Load what ``job`` needs in this process.

    Returns the table, the domain, how many start positions are chosen
    and how many there are in all.
    """
    table, domain, name = _load(job)
    sample = ("none" if job.sample is None
              else f"sample({integer(job.sample)}, {integer(job.seed)})")
    starts = json.loads(session().ask(
        f"al0_verify:prepare_starts_job({atom(domain.module)}, {atom(name)}, {sample}, Out)",
        seconds=SLICE_SECONDS, what="choosing the start positions"))
    if starts["count"] is None:
        raise BadInput(f"--sample {job.sample} is larger than the {starts['population']:,} "
                       "positions there are")
    if starts["population"] == 0:
        raise BadInput(f"the set {name!r} of {domain.module} has no positions")
    return table, domain, starts["count"], starts["population"]


def _load(job: VerifyJob):
    """Load ``job``'s table, its domain and the verifier in this process;
    returns the table, the domain and the name of the set of start
    positions."""
    table = load_table(job.table_path)
    domain = describe(table.domain)
    if not domain.start_sets:
        raise BadInput(f"{job.table_path}: its knowledge base {domain.module} declares no "
                       "start positions (start_set/1 and start/2): verify needs them")
    if not domain.success:
        raise BadInput(f"{job.table_path}: its knowledge base {domain.module} declares no "
                       "success/1: verify needs to know which outcomes count as success")
    name = job.positions or domain.start_sets[0]
    if name not in domain.start_sets:
        raise BadInput(f"unknown set of positions {name!r} for {domain.module}: "
                       f"choose {', '.join(domain.start_sets)}")
    domain.prepare()
    session().use_module("al0/verify.pl")
    return table, domain, name


def _chosen_starts(job: VerifyJob) -> str | None:
    """The start positions prepare() chose for a sampled ``job``, as
    Prolog text for the workers (None for a whole set, which each worker
    lists itself): a worker then reads the few positions of the sample
    instead of listing every one of them again (7.9 s for KRRK's)."""
    if job.sample is None:
        return None
    return session().ask("al0_verify:starts_text(Out)", what="writing the start positions")


def _slice_goal(job: VerifyJob, ctx: str, start: int, stop: int) -> str:
    if job.defender == "all":
        return (f"al0_verify:verify_all({ctx}, {start}, {stop}, {integer(job.move_limit)}, "
                f"{'true' if job.lost else 'false'}, Out)")
    return (f"al0_verify:verify_games({ctx}, {start}, {stop}, {atom(job.defender)}, "
            f"{integer(job.seed + start)}, {integer(job.move_limit)}, Out)")


def _worker_setup(job: VerifyJob, chosen: str | None) -> str:
    """Set a worker up for ``job``; returns the search context. The start
    positions are ``chosen`` (see :func:`_chosen_starts`) where given,
    else listed here as the parent listed them."""
    if chosen is None:
        table, _, _, _ = prepare(job)
        return table.context(job.mode)
    table, _, _ = _load(job)
    session().ask(f"al0_verify:use_starts({string(chosen)})", what="reading the start positions")
    return table.context(job.mode)


def _run_sources(job: VerifyJob) -> list[str]:
    """The Prolog files ``job``'s workers read (checkpoint.job_sources),
    listed by a fresh worker that loads the job as they do: in this
    process other tables may have been loaded before, and their files
    would count."""
    with WorkerPool(1, _load, (job,), _sources_listed) as pool:
        [(_, sources)] = list(pool.run([job.table_path]))
    return sources


def _sources_listed(_loaded: tuple, _piece: str) -> list[str]:
    return job_sources()


def _worker_slice(job: VerifyJob, ctx: str, piece: tuple[tuple[int, int], list[str]],
                  seconds: float = SLICE_SECONDS,
                  inferences: int = SLICE_INFERENCES) -> tuple[int, dict]:
    """Verify one slice: ``piece`` is its bounds and the states other
    workers valued since this worker's last slice (see :class:`SharedStates`)."""
    (start, stop), states = piece
    goal = _slice_goal(job, ctx, start, stop)
    if states:
        goal = f"al0_verify:use_states([{', '.join(map(string, states))}]), {goal}"
    reply = session().ask(goal, seconds=seconds, inferences=inferences,
                          what=f"verifying positions {start}..{stop - 1}")
    part = json.loads(reply)
    if "valued" in part:
        part["valued"] = _state_keys(part["valued"])
    part["peak_memory"] = peak_memory()
    return stop - start, part


class SharedStates:
    """The memo of a proof shared by its workers (an
    :class:`~engine.workers.Exchange`): the states a worker valued in a
    slice, with their values, go to every other worker with its next
    slice, so that it need not value them again; a worker that starts
    late gets all of them, and every worker gets the states of
    ``earlier`` runs (a checkpoint's). Each worker still values what the
    others are valuing at the same time."""

    def __init__(self, earlier: Iterable[str] = ()) -> None:
        self._valued: list[tuple[Hashable, str]] = [(None, text) for text in earlier]
        self._sent: dict[Hashable, int] = {}  # worker -> how many of them it has seen

    def outgoing(self, worker: Hashable, bounds: tuple[int, int]) -> tuple:
        seen = self._sent.get(worker, 0)
        self._sent[worker] = len(self._valued)
        return bounds, [text for origin, text in self._valued[seen:] if origin != worker]

    def incoming(self, worker: Hashable, result: tuple[int, dict]) -> tuple[int, dict]:
        states = result[1].get("states")
        if states:
            self._valued.append((worker, states))
        return result


def _state_keys(shas: list[str]) -> np.ndarray:
    """The states a slice valued, each as the first 64 bits of its SHA-1
    (the hex digits the Prolog job gives), in a numpy array: the parent
    keeps 8 bytes a state instead of some 100 for the string, so that
    a proof that values millions of states can count them. Two states
    share a key with a chance of about n²/2⁶⁵ among n states (one in
    370,000 for ten million)."""
    return np.fromiter((int(sha[:16], 16) for sha in shas), dtype=np.uint64, count=len(shas))


def _lost_by_advice(parts: list[dict]) -> dict | None:
    """The slices' moves and moves lost for each rule/advice, summed, the
    advice that lost most first; None when they were not asked for (or
    the domain knows no optimal count)."""
    asked = [p["lost_by_advice"] for p in parts if p.get("lost_by_advice") is not None]
    if not asked:
        return None
    sums: dict[str, list[int]] = {}
    for part in asked:
        for why, (moves, lost) in part.items():
            total = sums.setdefault(why, [0, 0])
            total[0] += moves
            total[1] += lost
    return {why: {"moves": moves, "lost": lost}
            for why, (moves, lost) in sorted(sums.items(), key=lambda kv: (-kv[1][1], kv[0]))}


def _perfect_games(parts: list[dict]) -> dict | None:
    """The games against the perfect defender from the starts that
    succeed against every defence, summed over the slices: how many,
    their results, our mean moves, the mean optimal count and the mean
    ratio to it, the longest; None when no start succeeded."""
    games = sum(p["perfect"]["games"] for p in parts)
    if not games:
        return None
    mean_optimal, mean_ratio = _ratio_means([p["perfect"]["ratios"] for p in parts], games)
    return {
        "games": games, "by_result": _summed_counts(p["perfect"]["by_result"] for p in parts),
        "mean_moves": sum(p["perfect"]["sum_moves"] for p in parts) / games,
        "mean_optimal": mean_optimal, "mean_ratio": mean_ratio,
        "max_moves": max(p["perfect"]["max_moves"] for p in parts),
    }


def _summed_counts(counts: Iterable[dict[str, int]],
                   key: Callable[[str], Hashable] = str) -> dict:
    """The slices' counts (each a dict of key -> how many) summed, the
    keys read with ``key``, in the order of the keys."""
    total: Counter = Counter()
    for part in counts:
        for name, n in part.items():
            total[key(name)] += n
    return dict(sorted(total.items()))


def _moves_optimal(key: str) -> tuple[int, int]:
    moves, optimal = key.split("/")
    return int(moves), int(optimal)


def _ratio_means(counted: list[dict[str, int]], games: int) -> tuple[float, float]:
    """The mean optimal count and the mean ratio to it over ``games``
    games, from the slices' counts of games by "moves/optimal" (a game
    whose optimal count is unknown adds nothing to either sum, as a
    game did when the slices summed them): summed in one order, so that
    the last bits do not depend on how the starts were sliced."""
    ordered = _summed_counts(counted, key=_moves_optimal).items()  # (moves, optimal) -> games
    return (sum(optimal * n for (_, optimal), n in ordered) / games,
            math.fsum(n * moves / optimal for (moves, optimal), n in ordered) / games)


def _slice_words(bounds: tuple[int, int]) -> str:
    return f"the start positions {bounds[0]}..{bounds[1] - 1}"


def verify(job: VerifyJob, workers: int = 1,
           progress: Callable[[int, int], None] | None = None, *,
           force: bool = False, cluster: str | None = None, address: str | None = None,
           batch: int | None = None, checkpoint: str | os.PathLike | None = None) -> dict:
    """Verify a table; returns the merged report (see :func:`merge`).

    The start positions go to the workers in slices of ``batch``
    positions (default :data:`SLICE`, on a cluster
    :data:`engine.cluster.BATCH`). ``progress(done, total)`` is called as
    slices finish. More workers than cores are refused unless ``force``.
    With ``cluster="ray"`` the workers are Ray actors (on the cluster at
    ``address``, else ``RAY_ADDRESS``, else on a Ray started here for the
    run), and the report gains ``cluster``
    (see :class:`engine.cluster.ClusterFigures`). With ``checkpoint`` (a
    file, see :mod:`engine.checkpoint`) each finished slice is kept there,
    the slices an earlier run kept are not verified again, and the report
    gains ``checkpoint``: the file, and the positions and seconds of the
    earlier runs. Raises :class:`Interrupted` (with the report of the
    slices done) on Ctrl-C.
    """
    cores = os.cpu_count() or 1
    if workers < 1:
        raise BadInput(f"--workers must be at least 1, not {workers}")
    make_pool = pool_for(cluster, address)
    if batch is not None and batch < 1:
        raise BadInput(f"--batch must be at least 1, not {batch}")
    if workers > cores and not force and cluster is None:
        raise BadInput(f"--workers {workers} is more than the {cores} cores here (each worker "
                       "holds a Prolog of its own, with its domain's data): "
                       "add --force to start them anyway")
    _check(job)
    t0 = time.perf_counter()
    # Ctrl-C must reach this process even where SIGINT was ignored (a
    # background job), so that it can stop the workers.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parts: list[dict] = []
    domain, count, population, pool, kept, table = None, 0, 0, None, None, None

    def report() -> dict:
        merged = merge(parts, job, domain, time.perf_counter() - t0, count, population)
        if isinstance(pool, RayPool) and pool.figures is not None:
            merged["cluster"] = asdict(pool.figures)
        if kept is not None:
            merged["checkpoint"] = {"file": str(kept.path), "positions_before":
                                    kept.positions_done, "seconds_before": kept.seconds_before}
        return merged

    try:
        table, domain, count, population = prepare(job)  # checks all before any worker starts
        chosen = _chosen_starts(job)
        job = _with_defender(job, domain)
        size = batch or (SLICE if cluster is None else BATCH)
        slices = [(a, min(a + size, count)) for a in range(0, count, size)]
        done = 0
        if checkpoint is not None:
            kept = Checkpoint.open(checkpoint, identity(
                _run_options(job, domain, count, population, size), _run_sources(job)))
            parts.extend(kept.parts)
            slices, done = kept.remaining(count, size), kept.positions_done
        if progress and done:  # the slices earlier runs finished
            progress(done, count)
        if not slices:
            return report()
        pool = make_pool(min(workers, len(slices)), _worker_setup, (job, chosen),
                         partial(_worker_slice, job), describe=_slice_words,
                         exchange=SharedStates(kept.states if kept else ()))
        with pool:
            for bounds, (size, part) in pool.run(slices):
                states = part.pop("states", None)  # the exchange has passed them on
                parts.append(part)
                if kept is not None:
                    kept.save(bounds, part, states, time.perf_counter() - t0)
                done += size
                if progress:
                    progress(done, count)
    except KeyboardInterrupt:
        raise Interrupted(report()) from None
    except WorkerDied as died:
        if table is not None and died.walled:
            raise WallRefusal(wall_words([table.domain_file], died.walled)) from None
        raise
    return report()


def _run_options(job: VerifyJob, domain: Domain, count: int, population: int,
                 size: int) -> dict:
    """What a checkpoint's run is, beside its Prolog sources: the job's
    options (not the table's file name: a copy of the table resumes it)
    and its counts of start positions; against the random defender also
    the slices' ``size``, for each slice seeds the defender with the seed
    plus its first start, so that other slices play other games."""
    options = asdict(job)
    del options["table_path"]
    options["positions"] = job.positions or domain.start_sets[0]
    if job.defender == "random":
        options["slice"] = size
    return {**options, "chosen": count, "population": population}


def verify_here(job: VerifyJob, seconds: float = SLICE_SECONDS) -> dict:
    """Verify a table in this process's Prolog, as one job of at most
    ``seconds`` and one job's default inference limit, and return the
    report (see :func:`merge`): for a process that is itself a worker
    (one that grades a student's table), which starts no workers."""
    _check(job)
    t0 = time.perf_counter()
    table, domain, count, population = prepare(job)
    job = _with_defender(job, domain)
    _, part = _worker_slice(job, table.context(job.mode), ((0, count), []), seconds,
                            DEFAULT_INFERENCES)
    return merge([part], job, domain, time.perf_counter() - t0, count, population)


def _check(job: VerifyJob) -> None:
    if job.defender is not None and job.defender not in DEFENDERS:
        raise BadInput(f"unknown defender {job.defender!r}: choose {', '.join(DEFENDERS)}")
    if job.sample is not None and job.sample < 1:
        raise BadInput(f"--sample must be at least 1, not {job.sample}")
    if job.lost and job.defender != "all":
        raise BadInput("--lost follows the worst line of every start: it needs --defender all")


def _with_defender(job: VerifyJob, domain: Domain) -> VerifyJob:
    """``job`` with its default defender made explicit: the domain's own
    perfect defender where it declares one, else the random one."""
    if job.defender is not None:
        return job
    return replace(job, defender="perfect" if domain.perfect == "domain" else "random")


def merge(parts: list[dict], job: VerifyJob, domain: Domain | None, seconds: float,
          chosen: int, population: int) -> dict:
    """Merge the slices' sums into one report with means, counterexamples as
    people read them (FEN and SAN for chess), and the seconds taken.

    ``complete`` says that every chosen position was verified, ``sample``
    that the chosen positions are a sample of the population, and
    ``proved`` that the table succeeds against every defence from every
    position of the population: a sample or an interrupted run is never
    a proof. ``domain`` is None when the run was interrupted before its
    start positions were chosen. ``histogram`` counts the successes by
    their moves: each start's worst case against every defence, or each
    game's length against one defender. Against every defence,
    ``perfect`` sums the games against the perfect defender from the
    starts that succeed (:func:`_perfect_games`). ``peak_memory`` is the
    most resident memory one worker process held, in bytes (each of the
    others held at most as much), over this run and the earlier runs of
    its checkpoint; None when no slice was verified.
    """
    positions = sum(p["positions"] for p in parts)
    successes = sum(p["successes"] for p in parts)
    report = {
        "table": job.table_path, "defender": job.defender, "mode": job.mode,
        "positions": positions, "chosen": chosen, "population": population,
        "complete": chosen > 0 and positions == chosen, "sample": chosen < population,
        "by_result": _summed_counts(p["by_result"] for p in parts),
        "successes": successes, "failures": positions - successes,
        "seconds": seconds,
        # what the --memory-limit of each worker process must allow
        "peak_memory": max((p["peak_memory"] for p in parts if "peak_memory" in p),
                           default=None),
    }
    report["proved"] = (job.defender == "all" and report["complete"] and not report["sample"]
                        and report["failures"] == 0)
    report["histogram"] = _summed_counts((p["histogram"] for p in parts), key=int)
    failures_key = "refutations" if job.defender == "all" else "counterexamples"
    failures = sorted((f for p in parts for f in p[failures_key]),
                      key=lambda f: (len(f["line"]), f["position"]["term"]))
    report["counterexamples"] = [domain.failure_for_people(f) for f in
                                 failures[:MAX_COUNTEREXAMPLES]] if domain else []
    if job.defender == "all":
        report["max_moves"] = max((p["max_moves"] for p in parts), default=0)
        report["mean_moves"] = (sum(p["sum_worst"] for p in parts) / successes
                                if successes else None)
        # every state the proof valued, once, whichever worker valued it
        valued = [p["valued"] for p in parts]
        report["states"] = int(np.unique(np.concatenate(valued)).size) if valued else 0
        # the work the workers repeated: states valued again by another worker
        report["states_repeated"] = sum(v.size for v in valued) - report["states"]
        report["shortest_refutation"] = report["counterexamples"][0] if failures else None
        # the start with the most moves, the first of them in the set's order
        longest = min((p["longest"] for p in parts if p.get("longest")),
                      key=lambda start: (-start["moves"], start["start"]), default=None)
        report["longest"] = (domain.line_for_people(
            {k: v for k, v in longest.items() if k != "start"}) if longest and domain else None)
        report["lost_by_advice"] = _lost_by_advice(parts)
        report["perfect"] = _perfect_games(parts)
        return report
    sum_moves = sum(p["sum_moves"] for p in parts)
    optimal_known = bool(parts) and all(p["optimal"] for p in parts)
    mean_optimal, mean_ratio = (_ratio_means([p["ratios"] for p in parts], successes)
                                if successes and optimal_known else (None, None))
    report.update({
        "max_moves": max((p["max_moves"] for p in parts), default=0),
        "mean_moves": sum_moves / successes if successes else None,
        "mean_optimal": mean_optimal,
        "mean_ratio": mean_ratio,
        "positions_per_second": positions / seconds if seconds else None,
    })
    return report
