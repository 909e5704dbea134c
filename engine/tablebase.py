"""The KRK tablebase: built once by retrograde analysis in Prolog, cached
on disk, loaded into the session when a job needs it.

The cache file lives in :func:`engine.cache.cache_dir`; a missing or
corrupt file (unreadable, or not the expected number of positions) is
rebuilt, which takes a few seconds.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

from engine.cache import cache_dir
from engine.prolog import PrologGoalError, atom, session, string

CACHE_NAME = "krk_tablebase.v1.fastrw"
WTM_POSITIONS = 175_168
BTM_POSITIONS = 223_944


@dataclass(frozen=True)
class TablebaseLoad:
    """How the tablebase got into the session: ``cache``, ``built`` or ``session``."""

    source: str
    seconds: float


def ensure_krk_tablebase(*, rebuild: bool = False) -> TablebaseLoad:
    """Make the KRK tablebase available to Prolog jobs in this session."""
    s = session()
    s.use_module("chess/krk_tablebase.pl")
    t0 = time.perf_counter()
    if not rebuild and s.ask("( krk_tablebase:tablebase_loaded -> Out = yes ; Out = no )") == "yes":
        return TablebaseLoad("session", 0.0)
    path = cache_dir() / CACHE_NAME
    if not rebuild and path.is_file() and _load(path):
        return TablebaseLoad("cache", time.perf_counter() - t0)
    s.ask("krk_tablebase:build_tablebase", what="building the KRK tablebase", seconds=600)
    partial = path.with_suffix(f".tmp{os.getpid()}")
    s.ask(f"krk_tablebase:save_tablebase({atom(str(partial))})", what="saving the tablebase")
    partial.replace(path)
    return TablebaseLoad("built", time.perf_counter() - t0)


def _load(path) -> bool:
    s = session()
    try:
        s.ask(f"krk_tablebase:load_tablebase({atom(str(path))})", what="loading the tablebase")
        counts = s.ask("aggregate_all(count, krk_tablebase:wtm(_, _), W), "
                       "aggregate_all(count, krk_tablebase:btm(_, _), B), Out = W-B")
    except PrologGoalError:
        return False
    return counts == f"{WTM_POSITIONS}-{BTM_POSITIONS}"


def krk_statistics() -> dict:
    """Figures of the tablebase, as ``advice tablebase krk --json`` prints them."""
    load = ensure_krk_tablebase()
    t0 = time.perf_counter()
    stats = json.loads(session().ask("krk_tablebase:stats_json(Out)", what="tablebase statistics"))
    return {
        "wtm_positions": stats["wtm"],
        "btm_positions": stats["btm"],
        "max_dtm": stats["max_wtm"],
        "btm_canonical": stats["canonical_btm_classes"],
        "wtm_canonical_positions": stats["canonical_wtm"],
        "btm_canonical_positions": stats["canonical_btm"],
        "btm_classes": stats["btm_classes"],
        "source": load.source,
        "seconds": load.seconds + (time.perf_counter() - t0),
    }


def solve(fen: str) -> dict:
    """The optimal line from a KRK position (either side to move).

    Returns ``dtm`` (White moves to mate; None for a draw), ``result``
    (``mate`` or how the draw comes) and ``moves`` (SAN, both sides).
    """
    from engine.chess_io import read_fen

    position = read_fen(fen)
    ensure_krk_tablebase()
    session().use_module("al0/jobs.pl")
    reply = session().ask(
        f"term_string(P, {string(position.term())}), krk_tablebase:dtm(P, D), "
        "krk_tablebase:optimal_line(P, Ms), "
        "al0_jobs:line_texts(krk, P, Ms, Ts), "
        "foldl([M, P0, P1]>>once(krk:legalmove(P0, M, P1)), Ms, P, Last), "
        "( krk:outcome(Last, R) -> true ; R = none ), "
        "atomic_list_concat(Ts, ' ', Line), format(string(Out), '~w;~w;~w', [D, R, Line])",
        what="solving the position")
    dtm, result, line = reply.split(";")
    ucis = line.split()
    return {"dtm": None if dtm == "draw" else int(dtm), "result": result,
            "moves": position.san_line(ucis)}


def optimal_moves(term: str) -> int | None:
    """White's optimal number of moves to mate from a KRK position term."""
    ensure_krk_tablebase()
    reply = session().ask(f"term_string(P, {string(term)}), krk_tablebase:dtm(P, Out)")
    return None if reply == "draw" else int(reply)
