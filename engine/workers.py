"""Worker processes, each with a Prolog of its own, for jobs cut into pieces.

A :class:`WorkerPool` starts ``n`` processes; each sets itself up once
(``setup(*args)``, e.g. loading a table) and then runs ``work(state,
piece)`` for every piece the pool sends it, one at a time, and the
pool yields the results as they come. Neighbouring pieces often share
work (the start positions of a proof reach the same states), so each
worker works through a contiguous run of the pieces (:class:`Lanes`): a
worker whose run is done takes the back half of the longest run left.

What one worker learns can reach the others through the pool: with an
``exchange`` (see :class:`Exchange`), each result passes through
``exchange.incoming(worker, result)`` and each piece, as it is sent,
through ``exchange.outgoing(worker, piece)``, which may add to it what
other workers found since that worker's last piece.

Nothing is shared between the processes but one pipe each, so ending
them never waits on a lock: leaving the pool (normally, by an error or
by Ctrl-C) kills every worker at once. A worker dies with its parent
(``PR_SET_PDEATHSIG``) and runs under the engine's memory limit. A
worker that ends while it holds a piece is an error naming the piece,
never a wait.

An **isolated** pool (``isolated=True``) gives every piece a fresh
worker of its own, ended when the piece is done, so that nothing one
piece does (what it loads, what it breaks) reaches another. Whatever
ends a piece is its result: the value ``work`` returned, the exception
it raised, or a :class:`WorkerDied` saying how its worker ended (it
died, or it was silent for longer than ``deadline`` seconds: a worker
says it is still going with :func:`heartbeat`). The other pieces go on.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import resource
import shutil
import sys
import tempfile
import time
from collections import deque
from typing import Any, Callable, Hashable, Iterable, Iterator, Protocol

from engine import sandbox
from engine.prolog import (
    EngineError, Limits, configure_limits, current_limits, use_in_process_session,
)
from engine.prolog_process import (
    cap_output, die_with_parent, halt_words, ignore_ctrl_c, kill_group, limit_memory,
    own_process_group, start_shielded,
)

#: how often the pool looks up from waiting (Ctrl-C is handled between looks)
POLL = 0.2


class WorkerDied(EngineError):
    """A worker process ended while it held a piece of the job; ``walled``
    says what the wall refused when the wall ended it (else None)."""

    def __init__(self, message: str, walled: str | None = None):
        super().__init__(message)
        self.walled = walled

    def __reduce__(self):
        return (type(self), (str(self), self.walled))


#: this process's connection to its pool, when it is a worker
_POOL_CONNECTION = None


def peak_memory() -> int:
    """The most resident memory this process has held, in bytes: in a
    worker, which runs its Prolog in-process, the worker's and its
    Prolog's together."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # Linux counts kilobytes


def heartbeat() -> None:
    """Tell the pool that the piece this worker holds is still going: an
    isolated pool's ``deadline`` counts from the last heartbeat (a no-op
    outside a worker)."""
    if _POOL_CONNECTION is not None:
        _POOL_CONNECTION.send(("beat", None))


def _worker_main(conn, limits: Limits, scratch: str, setup: Callable, args: tuple,
                 work: Callable) -> None:
    global _POOL_CONNECTION
    _POOL_CONNECTION = conn
    ignore_ctrl_c()  # the parent ends the workers
    own_process_group()
    cap_output()
    die_with_parent()
    limit_memory(limits.memory)
    configure_limits(seconds=limits.seconds, inferences=limits.inferences,
                     memory=limits.memory)
    use_in_process_session(scratch)  # this worker is the process that can be ended
    try:
        state = setup(*args)
    except Exception as error:  # noqa: BLE001 - the parent reports it
        conn.send(("error", error))
        return
    conn.send(("ready", None))
    while True:
        try:
            piece = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("done", work(state, piece)))
        except Exception as error:  # noqa: BLE001 - the parent reports it
            conn.send(("error", error))
            return


class Exchange(Protocol):
    """Passes what workers found on to other workers (see the module):
    ``worker`` is any hashable that names a worker for as long as it
    lives."""

    def outgoing(self, worker: Hashable, piece: Any) -> Any:
        """What to send ``worker`` for ``piece``."""

    def incoming(self, worker: Hashable, result: Any) -> Any:
        """``worker``'s result, as the pool yields it."""


class Lanes:
    """The pieces of a job cut into ``n`` contiguous runs, one a worker.

    :meth:`take` gives a worker the next piece of its run, in order; a
    worker with no run (a new one, or one whose run is done) claims a
    run no worker has, or else takes the back half of the longest run
    left. True while any piece is left.
    """

    def __init__(self, pieces: list, n: int):
        size = -(-len(pieces) // n) if pieces else 0
        self._unclaimed = [deque(pieces[i:i + size]) for i in range(0, len(pieces), size or 1)]
        self._runs: dict[Any, deque] = {}  # worker -> what is left of its run

    def __bool__(self) -> bool:
        return any(self._unclaimed) or any(self._runs.values())

    def take(self, worker: Hashable) -> tuple[bool, Any]:
        """``(True, piece)``: the next piece for ``worker``; ``(False,
        None)`` when no piece is left for it."""
        run = self._runs.get(worker)
        if not run:
            run = self._unclaimed.pop(0) if self._unclaimed else self._back_half()
            self._runs[worker] = run
        return (True, run.popleft()) if run else (False, None)

    def hand_over(self, worker: Hashable, successor: Hashable, piece: Any) -> None:
        """``worker`` ended holding ``piece``: ``successor`` takes the
        piece again, then the rest of the run."""
        run = self._runs.pop(worker, deque())
        run.appendleft(piece)
        self._runs[successor] = run

    def _back_half(self) -> deque:
        longest = max(self._runs.values(), key=len, default=deque())
        half = deque(longest.pop() for _ in range((len(longest) + 1) // 2))
        half.reverse()
        return half


class NoExchange:
    """The exchange of a pool whose workers share nothing."""

    def outgoing(self, worker: Hashable, piece: Any) -> Any:
        return piece

    def incoming(self, worker: Hashable, result: Any) -> Any:
        return result


class WorkerPool:
    """``n`` worker processes running ``work`` on pieces (see the module).

    Use it as a context manager; :meth:`run` yields ``(piece, result)``
    pairs in the order they finish. ``describe(piece)`` names a piece in
    the error raised when its worker dies. With ``isolated`` each piece
    runs in a fresh worker and whatever ends it is its result (see the
    module); ``deadline`` (isolated only) is how many seconds a worker may
    go without a :func:`heartbeat` (None: no limit). An ``exchange``
    (not with ``isolated``) passes what workers found on to the others.
    """

    def __init__(self, n: int, setup: Callable, args: tuple, work: Callable,
                 describe: Callable[[Any], str] = str, *, isolated: bool = False,
                 deadline: float | None = None, exchange: Exchange | None = None):
        self.n, self.setup, self.args, self.work, self.describe = n, setup, args, work, describe
        self.isolated, self.deadline = isolated, deadline
        self.exchange = exchange or NoExchange()
        self._workers: list[tuple[multiprocessing.process.BaseProcess, Any]] = []
        self._scratch: dict[Any, str] = {}  # a worker's connection -> its scratch folder

    def __enter__(self) -> "WorkerPool":
        if not self.isolated:
            for _ in range(self.n):
                self._workers.append(self._start())
        return self

    def _start(self) -> tuple[multiprocessing.process.BaseProcess, Any]:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        scratch = tempfile.mkdtemp(prefix="advice-wall-")
        proc = context.Process(target=_worker_main, daemon=True, name="advice-worker",
                               args=(child, current_limits(), scratch, self.setup,
                                     self.args, self.work))
        start_shielded(proc)
        child.close()
        self._scratch[parent] = scratch
        return proc, parent

    def __exit__(self, *exc) -> bool:
        for proc, conn in self._workers:
            kill_group(proc)
        for proc, conn in self._workers:
            proc.join(timeout=2)
            self._forget(conn)
        self._workers.clear()
        return False

    def _forget(self, conn) -> None:
        """Close a worker's connection and remove its scratch folder."""
        conn.close()
        scratch = self._scratch.pop(conn, None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)

    def run(self, pieces: Iterable[Hashable]) -> Iterator[tuple[Any, Any]]:
        """Send every piece to a worker, each worker a run of them (see
        :class:`Lanes`); yield each piece with its result."""
        if self.isolated:
            yield from self._run_isolated(pieces)
            return
        todo = Lanes(list(pieces), self.n)
        held: dict[Any, Any] = {}  # conn -> the piece its worker is running
        ready: list = []
        by_sentinel = {proc.sentinel: (proc, conn) for proc, conn in self._workers}
        by_conn = {conn: proc for proc, conn in self._workers}
        self._ready: set = set()
        while todo or held:
            for conn in ready:
                found, piece = todo.take(conn)
                if found:
                    held[conn] = piece
                    conn.send(self.exchange.outgoing(conn, piece))
            ready = []
            events = multiprocessing.connection.wait(
                list(by_conn) + list(by_sentinel), timeout=POLL)
            for event in events:
                if event in by_sentinel:
                    proc, conn = by_sentinel[event]
                    if conn.poll():
                        continue  # its last message first
                    if conn in held or not self._set_up(conn, ready, by_conn):
                        raise self._died(proc, held.get(conn))
                    del by_sentinel[event], by_conn[conn]
                    if not by_conn:
                        raise WorkerDied("every worker process ended")
                    continue
                try:
                    status, value = event.recv()
                except (EOFError, OSError):  # it ended: its sentinel tells how
                    proc = by_conn[event]
                    raise self._died(proc, held.get(event)) from None
                if status == "beat":
                    continue
                if status == "error":
                    raise value
                if status == "ready":
                    self._ready.add(event)
                else:
                    yield held.pop(event), self.exchange.incoming(event, value)
                ready.append(event)

    def _run_isolated(self, pieces: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        todo = list(pieces)
        todo.reverse()
        running: dict[Any, list] = {}  # conn -> [proc, piece, time of its last word]
        while todo or running:
            while todo and len(running) < self.n:
                proc, conn = self._start()
                self._workers.append((proc, conn))
                piece = todo.pop()
                conn.send(piece)  # read once the worker has set itself up
                running[conn] = [proc, piece, time.monotonic()]
            sentinels = {proc.sentinel: conn for conn, (proc, _, _) in running.items()}
            events = multiprocessing.connection.wait(list(running) + list(sentinels),
                                                     timeout=POLL)
            ended: dict[Any, Any] = {}  # conn -> the result of its piece
            for event in events:
                conn = sentinels.get(event, event)
                if conn in ended or (event is not conn and conn.poll()):
                    continue  # ended already, or its last message first
                proc, piece, _ = running[conn]
                try:
                    status, value = conn.recv() if event is conn else ("died", None)
                except (EOFError, OSError):  # it ended: its sentinel tells how
                    status = "died"
                if status == "died":
                    ended[conn] = self._died(proc, piece)
                elif status in ("ready", "beat"):
                    running[conn][2] = time.monotonic()
                else:
                    ended[conn] = value
            now = time.monotonic()
            for conn, (_, piece, last) in running.items():
                if self.deadline is not None and now - last > self.deadline \
                        and conn not in ended:
                    ended[conn] = WorkerDied(
                        f"a worker process was ended: it worked on {self.describe(piece)} "
                        f"for more than {self.deadline:g} s without a word")
            for conn, result in ended.items():
                proc, piece, _ = running.pop(conn)
                self._end(proc, conn)
                yield piece, result

    def _end(self, proc, conn) -> None:
        """Kill one worker of an isolated pool and forget it."""
        kill_group(proc)
        proc.join(timeout=2)
        self._forget(conn)
        self._workers.remove((proc, conn))

    def _set_up(self, conn, ready, by_conn) -> bool:
        """Whether the worker of ``conn`` had finished setting itself up."""
        if conn in ready:
            ready.remove(conn)
        return conn in self._ready

    def _died(self, proc, piece) -> WorkerDied:
        """The error of a worker that ended while it held ``piece``."""
        message = self._death(proc, piece)
        walled = sandbox.program_refused("worker") if sandbox.ended_words(proc.exitcode) \
            else None
        return WorkerDied(message, walled)

    def _death(self, proc, piece) -> str:
        proc.join(timeout=1)
        cause = halt_words(proc.exitcode)
        what = f"while working on {self.describe(piece)}" if piece is not None else \
            "while setting itself up"
        return f"a worker process ended ({cause}) {what}"
