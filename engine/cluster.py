"""Run a job's pieces on Ray: actors that each hold a Prolog, work sent in batches.

:class:`RayPool` is the cluster twin of :class:`engine.workers.WorkerPool`
(the same ``with`` block and the same :meth:`RayPool.run`), for a job
that outgrows one machine. Ray schedules; this module only says what
runs where:

- each **actor** is one process with one SWI-Prolog in a child process
  of its own (which walls itself in before it loads a user's file, as
  the command's own does: :mod:`engine.prolog_process`), set up once
  (``setup(*args)``, e.g. loading a table) and then given batch after
  batch;
- each piece goes out as one Ray task: the caller makes its pieces
  batches of work big enough to pay for a task (Ray's guidance: tasks
  much under 10 ms do not);
- a batch whose actor **dies** is sent again to a new actor, and counted
  (``retried``); the results are the same, because a piece's result does
  not depend on where it runs;
- leaving the pool (normally, by an error or by Ctrl-C) kills every
  actor of ours, and stops the local Ray instance when the pool started
  one.

An **isolated** pool (``isolated=True``, for grading) runs every piece
as one Ray task in a fresh process, which runs it in an isolated
:class:`~engine.workers.WorkerPool` of one worker on its node: the same
limits, deadline and reports of a worker's death as a local run, with
Ray choosing the node. Whatever ends a piece is its result, and a task
is never run again (a submission that crashes its worker loses its
points, as it does locally).

A Ray the pool starts itself listens on **loopback only** (every
service bound to 127.0.0.1, no dashboard; see :func:`_loopback`): its
ports take no password, and other machines must not reach them. A
cluster given by ``--address`` (or ``RAY_ADDRESS``) is used as it is.

Ray is an optional extra (``pip install 'advice[cluster]'``); without it
the pool raises :class:`engine.prolog.BadInput` saying how to install it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import sys
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterator, Sequence

from engine.prolog import (
    BadInput, Limits, configure_limits, current_limits, trust_user_files,
    user_files_trusted,
)
from engine.workers import Exchange, Lanes, NoExchange, WorkerDied, WorkerPool

#: the start positions verify sends in one Ray task (a batch), chosen by
#: measurement on the every-defence proof of bench/cluster.py (50, 250 and 1,000
#: ran it at 0.74x, 1x and 1.06x the speed; 250 leaves a big cluster more batches)
BATCH = 250

#: how long the pool waits for a batch before it looks up (Ctrl-C is seen between waits)
POLL = 0.2

INSTALL = "--cluster ray needs Ray, an optional extra: pip install 'advice[cluster]'"


def pool_for(cluster: str | None, address: str | None = None) -> Callable[..., Any]:
    """What makes the worker pool of ``--cluster``: WorkerPool for None
    (processes here), RayPool at ``address`` for ``"ray"``; both are
    called alike. Raises :class:`BadInput` for another name."""
    if cluster is None:
        return WorkerPool
    if cluster == "ray":
        return partial(RayPool, address=address)
    raise BadInput(f"unknown cluster {cluster!r}: the one there is is ray")


def import_ray():
    """The ``ray`` module, or :class:`BadInput` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BadInput(INSTALL) from None
    return ray


@dataclass
class ClusterFigures:
    """What a run on Ray used: for ``--json``'s ``cluster``."""

    address: str
    nodes: int
    workers: int
    batches: int = 0
    batches_retried: int = 0


def _here() -> tuple[Limits, bool, str]:
    """What a process that Ray starts does not inherit from ours: the
    limits, the trust in users' files, and the working folder (which
    relative paths of tables and submissions are read from)."""
    return current_limits(), user_files_trusted(), os.getcwd()


def _as_here(limits: Limits, trusted: bool, folder: str) -> None:
    """Make this process (one that Ray started) as the one that sent it
    work (see :func:`_here`)."""
    configure_limits(seconds=limits.seconds, inferences=limits.inferences,
                     memory=limits.memory)
    trust_user_files(trusted)
    try:
        os.chdir(folder)
    except OSError:
        raise BadInput(f"{folder}, the folder advice ran in, is not on the Ray node "
                       f"{os.uname().nodename}: run it from a folder every node shares") from None


#: the one address a Ray started here listens on
LOOPBACK = "127.0.0.1"


@contextlib.contextmanager
def _loopback(ray) -> Iterator[None]:
    """While a local Ray starts: its node on loopback, every service
    bound to 127.0.0.1.

    Ray (2.x) binds its gRPC servers (GCS, raylet, object manager, every
    worker's) to 127.0.0.1 only when the node's address is 127.0.0.1,
    else to all interfaces; but ``ray.init(_node_ip_address="127.0.0.1")``
    alone is turned into the machine's network address
    (``services.resolve_ip_for_localhost``), unless Ray's
    "clusters disabled" setting holds (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``,
    Ray's default on macOS and Windows, where it keeps a local Ray on
    loopback). So that setting holds while Ray starts: in this process
    (``ray_constants``, read when ray was imported) and in the environment
    its processes inherit. It is put back afterwards, for a later
    ``--address`` in the same process, which needs the node's own
    address.
    """
    from ray._private import ray_constants

    name = ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR
    saved_env, saved_flag = os.environ.get(name), ray_constants.ENABLE_RAY_CLUSTER
    os.environ[name] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved_flag
        if saved_env is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = saved_env


class PrologActor:
    """One Ray actor: a process with a Prolog of its own, set up once."""

    def __init__(self, here: tuple[Limits, bool, str], setup: Callable, args: tuple,
                 work: Callable):
        self.work, self.state, self.error = work, None, None
        try:
            _as_here(*here)
            # the actor's Prolog runs in a child process of its own, which walls
            # itself in before it loads a user's file (engine.sandbox): the
            # actor itself must keep talking to Ray
            self.state = setup(*args)
        except Exception as error:  # noqa: BLE001 - the pool raises it (see ready)
            self.error = error

    def ready(self) -> Exception | None:
        """None once set up, else what setting up raised (an actor whose
        set-up raises dies with no word of why, under Ray)."""
        return self.error

    def run(self, piece: Any) -> Any:
        """The result of ``work`` on ``piece``."""
        return self.work(self.state, piece)


def run_isolated(here: tuple[Limits, bool, str], setup: Callable, args: tuple,
                 work: Callable, describe: Callable[[Any], str], deadline: float | None,
                 piece: Any) -> Any:
    """One piece of an isolated pool, in a Ray task: whatever ends it in an
    isolated local pool of one worker (its result, its error, or how its
    worker died)."""
    _as_here(*here)
    with WorkerPool(1, setup, args, work, describe=describe, isolated=True,
                    deadline=deadline) as pool:
        for _, result in pool.run([piece]):
            return result


class RayPool:
    """``n`` Ray actors running ``work`` on batches of pieces (see the module).

    ``address`` is a Ray cluster's (else ``RAY_ADDRESS``, else a local
    Ray instance on loopback that the pool starts and stops; a Ray this
    process has already joined is used as it is). With ``isolated``, every piece runs
    in a fresh process, ``deadline`` and ``describe`` as in an isolated
    WorkerPool (see the module), and an ``exchange`` (not with
    ``isolated``) passes what actors found on to the others, as in a
    WorkerPool. Use it as a context manager;
    :meth:`run` yields ``(piece, result)`` pairs as pieces finish.
    ``figures`` says where it ran and how many pieces (batches) it sent,
    and sent again.
    """

    def __init__(self, n: int, setup: Callable, args: tuple, work: Callable, *,
                 address: str | None = None, isolated: bool = False,
                 deadline: float | None = None, describe: Callable[[Any], str] = str,
                 exchange: Exchange | None = None):
        self.n, self.setup, self.args, self.work = n, setup, args, work
        self.isolated, self.deadline, self.describe = isolated, deadline, describe
        self.exchange = exchange or NoExchange()
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.figures: ClusterFigures | None = None
        self._ray = None
        self._here: tuple[Limits, bool, str] | None = None  # what Ray's processes need
        self._actor_class = None  # the remote actor class, or
        self._task = None         # the remote task of an isolated pool
        self._actors: list = []
        self._started = False
        self._stdout_to_stderr = contextlib.redirect_stdout(sys.stderr)

    def __enter__(self) -> "RayPool":
        ray = self._ray = import_ray()
        self._here = _here()
        # Ray's driver prints what its processes publish for it (once, in
        # an interrupted verify, that its raylet had died) on stdout, which
        # is the command's (its --json): send it to stderr
        self._stdout_to_stderr.__enter__()
        try:
            if not ray.is_initialized():
                self._start_or_join(ray)
            if self.isolated:
                self._task = ray.remote(num_cpus=1, max_calls=1, max_retries=0)(run_isolated)
            else:
                self._actor_class = ray.remote(num_cpus=1, max_restarts=0)(PrologActor)
                self._actors = [self._new_actor() for _ in range(self.n)]
                for actor in self._actors:
                    self._started_actor(actor)
            nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
            address = ray.get_runtime_context().gcs_address
        except BaseException:
            self.__exit__()
            raise
        self.figures = ClusterFigures(address=address, nodes=nodes, workers=self.n)
        return self

    def _start_or_join(self, ray) -> None:
        """Join the cluster at ``address``, or start a Ray of our own."""
        if self.address:
            try:
                ray.init(address=self.address, logging_level="ERROR", log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise BadInput(f"cannot join the Ray cluster at {self.address}: "
                               f"{error}") from None
        else:  # a new Ray of our own, even where one runs already, on loopback
            with _loopback(ray):
                ray.init(address="local", num_cpus=self.n, include_dashboard=False,
                         _node_ip_address=LOOPBACK, logging_level="ERROR",
                         log_to_driver=False)
            self._started = True
            node = ray.get_runtime_context().gcs_address.rsplit(":", 1)[0].strip("[]")
            if not ipaddress.ip_address(node).is_loopback:
                # a Ray that bound otherwise is not left open to other machines
                raise BadInput(f"the Ray started here registered its node on {node}, "
                               f"not on loopback ({LOOPBACK}), so its unauthenticated "
                               "ports would be open to other machines: start a Ray "
                               "yourself and give its --address")
        self._started = True

    def _new_actor(self):
        return self._actor_class.remote(self._here, self.setup, self.args, self.work)

    def _started_actor(self, actor) -> None:
        """Waits for ``actor`` to set itself up; raises what its set-up raised."""
        error = self._ray.get(actor.ready.remote())
        if error is not None:
            raise error

    def __exit__(self, *exc) -> bool:
        ray = self._ray
        for actor in self._actors:
            ray.kill(actor, no_restart=True)
        self._actors = []
        if self._started:
            ray.shutdown()
            self._started = False
        self._stdout_to_stderr.__exit__(None, None, None)
        return False

    def run(self, pieces: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        """Send every piece to an actor, each actor a run of them (see
        :class:`~engine.workers.Lanes`); yield each piece with its result."""
        if self.isolated:
            yield from self._run_isolated(pieces)
            return
        ray = self._ray
        todo = Lanes(list(pieces), len(self._actors))
        self.figures.batches += len(pieces)
        idle = list(self._actors)
        running: dict = {}  # the future of a piece -> (its actor, the piece)
        while todo or running:
            while todo and idle:
                actor = idle.pop()
                found, piece = todo.take(actor)
                if found:
                    sent = self.exchange.outgoing(actor, piece)
                    running[actor.run.remote(sent)] = (actor, piece)
            finished, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
            for future in finished:
                actor, piece = running.pop(future)
                try:
                    result = ray.get(future)
                except ray.exceptions.RayActorError:
                    # its actor died: a new one takes its place, and the piece again
                    self._actors.remove(actor)
                    successor = self._new_actor()
                    self._actors.append(successor)
                    self._started_actor(successor)
                    todo.hand_over(actor, successor, piece)
                    actor = successor
                    self.figures.batches_retried += 1
                except ray.exceptions.RayTaskError as error:
                    raise error.cause from None  # what the work raised, as it raised it
                else:
                    yield piece, self.exchange.incoming(actor, result)
                idle.append(actor)

    def _run_isolated(self, pieces: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        ray = self._ray
        todo = list(pieces)
        todo.reverse()
        self.figures.batches += len(todo)
        running: dict = {}  # the future of a piece -> the piece
        while todo or running:
            while todo and len(running) < self.n:
                piece = todo.pop()
                running[self._task.remote(self._here, self.setup, self.args, self.work,
                                          self.describe, self.deadline, piece)] = piece
            finished, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
            for future in finished:
                piece = running.pop(future)
                try:
                    result = ray.get(future)
                except ray.exceptions.RayError as error:  # its process ended under Ray
                    result = WorkerDied(f"a Ray worker ended while working on "
                                        f"{self.describe(piece)}: {type(error).__name__}")
                yield piece, result
