"""SWI-Prolog in a child process that the engine can always end.

A :class:`ProcessSession` has the interface of
:class:`engine.prolog.PrologSession` and forwards every call to one in a
child process. So a knowledge base that calls ``halt``, loops where
Prolog's own time limit cannot reach (``sleep/1``, a long ``msort/2``),
or eats memory ends or harms only the child:

- the parent waits for each answer in short, interruptible polls: Ctrl-C
  ends the child at once and raises :class:`KeyboardInterrupt`;
- a call that runs past its time limit (plus a grace period for Prolog's
  own limit to fire first) ends the child and raises
  :class:`~engine.prolog.SearchLimitError`;
- the child runs under an address-space limit (``RLIMIT_AS``) and dies
  with its parent (``PR_SET_PDEATHSIG``);
- a child that ends (``halt``, memory, a crash) is reported as a
  :class:`~engine.prolog.PrologGoalError` naming the cause, and the next
  call starts a fresh child that loads again what was loaded;
- the child runs in a process group of its own, killed as a whole when
  the child is ended, so that nothing it started outlives it;
- before the child loads a user's file it walls itself in
  (:mod:`engine.sandbox`): it may read that file and the users' files
  loaded before, and write only in the session's scratch folder. A user's
  file from elsewhere needs a wider wall: the child is ended, and the
  next one loads everything again behind a wall that lets it read all of
  them. A child that the wall ends (it tried to start a program) is
  reported as :class:`~engine.prolog.WallRefusal`, naming the files.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import resource
import shutil
import signal
import tempfile
import threading
import time
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

from engine import sandbox
from engine.cache import cache_root
from engine.prolog import (
    DEFAULT_SECONDS, EngineError, Limits, PrologGoalError, PrologSession, SearchLimitError,
    WallRefusal, WallTooNarrow, compiled_here, current_limits, kb_path, locate_swipl,
    user_files_trusted, wall_words,
)

#: seconds (beyond 5% more) the parent waits past a call's time limit
#: before ending the child
GRACE = 2.0
#: how often the parent looks up from waiting (Ctrl-C is handled between looks)
POLL = 0.1
#: the exit status of a child whose Prolog called halt/0
HALTED = 3
#: the exit status of a child whose Prolog halted with a status not 0: a
#: knowledge base's halt/1, or a fatal error of Prolog's (no memory left)
HALTED_FAILING = 4

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask Linux to kill this process (a multiprocessing child) when its
    parent dies (no-op elsewhere); end at once if the parent is gone already."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)


def start_shielded(proc: multiprocessing.process.BaseProcess) -> None:
    """Start a child process that cannot be interrupted by a Ctrl-C sent to
    the whole process group: we end the children ourselves, and report.

    SIGINT is blocked in this thread while the child is made, and a child
    inherits the mask across exec; its first act is :func:`ignore_ctrl_c`,
    which drops a Ctrl-C that waited. Meanwhile a Ctrl-C meant for us is
    only noted (another thread of ours may be the one that receives it:
    numpy's OpenBLAS keeps one) and raised once the child is made, as
    ``KeyboardInterrupt`` where the old handler would have raised it.

    multiprocessing's resource tracker is started first: starting it
    (with the first child a process makes) unblocks SIGINT; and where
    SWI-Prolog is (:func:`~engine.prolog.locate_swipl`) is found once
    here, for every child to inherit."""
    locate_swipl()
    resource_tracker.ensure_running()
    noted = []
    old_handler = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    finally:
        signal.signal(signal.SIGINT, old_handler)
    if noted:
        signal.raise_signal(signal.SIGINT)  # to the handler we had


def ignore_ctrl_c() -> None:
    """Ignore SIGINT from now on (dropping one that waits) and unblock it:
    the first act of a child of :func:`start_shielded`, and the CLI's once
    it has handled a Ctrl-C, so that a second one does not cut short its
    report of what was done."""
    while True:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            break
        except KeyboardInterrupt:  # one more came before the handler changed
            continue
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def halt_now(status: int = 0) -> None:
    """End this process at once with the status that says Prolog halted:
    :data:`HALTED` for halt/0, :data:`HALTED_FAILING` for a halt with
    another status, which is also how Prolog stops on a fatal error (no
    memory left); Prolog's own halt can wait on a lock of its alarm
    thread for good."""
    os._exit(HALTED if status == 0 else HALTED_FAILING)


def failing_words(limit: int | None = None) -> str:
    """Why a Prolog process ended with :data:`HALTED_FAILING`, naming its
    memory ``limit`` in bytes where given."""
    named = f" (its limit of {limit / 2**30:.1f} GiB)" if limit else ""
    return (f"Prolog halted with an error status: it ran out of memory{named}, or a "
            "knowledge base called halt/1")


def halt_words(code: int | None) -> str:
    """Why a Prolog process ended, from its exit status."""
    if code == HALTED:
        return "a knowledge base called halt/0"
    if code == HALTED_FAILING:
        return failing_words()
    walled = sandbox.ended_words(code)
    if walled:
        return walled
    return f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"


def limit_memory(limit: int | None) -> None:
    """Cap this process's address space at ``limit`` bytes (None: no cap)."""
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


#: the most bytes of what a Prolog process prints (a knowledge base's
#: output, Prolog's warnings) that reach the terminal
MAX_OUTPUT = 2**20


def cap_output(limit: int = MAX_OUTPUT) -> None:
    """Let only the first ``limit`` bytes this process writes to stderr
    through, then one line saying the rest is cut: a thread passes them on
    from a pipe that is the process's stderr from now on."""
    try:
        real = os.dup(2)
        read, write = os.pipe()
        os.dup2(write, 2)
        os.close(write)
    except OSError:  # no stderr to cap
        return

    def pump() -> None:
        passed, told = 0, False
        while True:
            try:
                chunk = os.read(read, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            part = chunk[:max(limit - passed, 0)]
            passed += len(part)
            try:
                while part:
                    part = part[os.write(real, part):]
                if passed >= limit and not told:
                    told = True
                    os.write(real, f"\nadvice: what the Prolog process printed is cut "
                                   f"here, at {limit:,} bytes\n".encode())
            except OSError:
                continue  # nowhere to write: drop it

    threading.Thread(target=pump, name="advice-output", daemon=True).start()


def own_process_group() -> None:
    """Put this process (a child of the engine's) in a process group of its
    own, which its parent kills as a whole (:func:`kill_group`)."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass


def kill_group(proc: multiprocessing.process.BaseProcess) -> None:
    """Kill ``proc`` and whatever else is in its process group (see
    :func:`own_process_group`)."""
    if proc.pid is None:
        return
    try:
        if os.getpgid(proc.pid) == proc.pid:
            os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.kill()


def _serve(conn, limits: Limits, inputs: tuple[str, ...], scratch: str) -> None:
    """The child: one PrologSession answering the parent's calls."""
    ignore_ctrl_c()  # the parent handles Ctrl-C
    own_process_group()
    cap_output()
    die_with_parent()
    limit_memory(limits.memory)
    from engine import prolog

    prolog.configure_limits(seconds=limits.seconds, inferences=limits.inferences,
                            memory=limits.memory)
    session = PrologSession(on_halt=halt_now, inputs=inputs, scratch=scratch)
    while True:
        try:
            method, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", getattr(session, method)(*args, **kwargs))
        except Exception as error:  # noqa: BLE001 - every error goes back to the parent
            reply = ("error", error)
        conn.send(reply)


def _untrusted(load: tuple[str, tuple, dict]) -> bool:
    """Whether a recorded call loads a user's file unchecked by trust (the
    child walls itself in for it)."""
    method, _, kwargs = load
    return method == "load_file" and not kwargs.get("trusted", True)


def _shipped(path) -> bool:
    """Whether ``path`` is one of the engine's own files, under ``kb``."""
    try:
        return Path(path).resolve().is_relative_to(kb_path("").resolve())
    except (OSError, ValueError):
        return False


class ProcessSession:
    """The engine's Prolog session, run in a child process (see the module)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._conn = None
        self._loads: list[tuple[str, tuple, dict]] = []
        self._inputs: list[str] = []  # the users' files the child's wall lets it read
        self._scratch: str | None = None
        self._loading: tuple[str, tuple, dict] | None = None  # the load under way
        self._walled = False  # whether the child has been asked to load a user's file
        self._cache_root = None  # the cache folder the child began with

    # -- the PrologSession interface -------------------------------------

    def ask(self, goal: str, **options: Any) -> str:
        """As :meth:`engine.prolog.PrologSession.ask`, in the child."""
        limits = current_limits()
        seconds = limits.seconds or options.get("seconds") or DEFAULT_SECONDS
        return self._call("ask", (goal,), options, seconds, options.get("what", "the search"))

    def use_module(self, relative: str) -> None:
        """As :meth:`engine.prolog.PrologSession.use_module`, in the child."""
        self._load("use_module", (relative,), {})

    def load_file(self, path, context: str | None = None, reload: bool | None = None,
                  trusted: bool | None = None):
        """As :meth:`engine.prolog.PrologSession.load_file`, in the child; by
        default trusted as :func:`~engine.prolog.user_files_trusted` says here
        (the child's environment is the one it started with)."""
        if trusted is None:
            trusted = user_files_trusted() or _shipped(path)
        if trusted and self._walled and not compiled_here(path):
            self._take_wall_down()
        self._widen_wall(path, announce=not trusted)
        return self._load("load_file", (path,),
                          {"context": context, "reload": reload, "trusted": trusted})

    @property
    def scratch(self) -> str:
        """The private folder the child may write, inside its wall or not
        (made once for this session, removed by :meth:`shutdown`)."""
        if self._scratch is None:
            self._scratch = tempfile.mkdtemp(prefix="advice-wall-")
        return self._scratch

    def shutdown(self) -> None:
        """End the child and remove the scratch folder."""
        self.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def _widen_wall(self, path, announce: bool) -> None:
        """Let the child's wall read the file ``path`` (not the engine's
        own): a child that has loaded a user's file already is behind a
        wall that may not, so it is ended (the next call starts one that
        loads everything again). ``announce``: a user's file is about to
        run, so what the wall lacks here is said (once)."""
        try:
            resolved = Path(path).resolve()
            if _shipped(resolved) or not resolved.is_file():
                return  # the engine's own, or a missing file the child reports
        except (OSError, ValueError):
            return
        if announce:
            sandbox.announce()
        if str(resolved) in self._inputs:
            return
        self._inputs.append(str(resolved))
        if self._walled:
            self.close()

    def declare_inputs(self, inputs) -> None:
        """Let the child's wall read ``inputs`` too (see
        :func:`engine.prolog.declare_inputs`): from the next child on."""
        for path in inputs:
            if path not in self._inputs:
                self._inputs.append(path)

    def _take_wall_down(self) -> None:
        """A person's own file (trusted) is to load in a child that walled
        itself in for users' files loaded before: the child is ended and
        those files forgotten, so that the next child runs outside the wall."""
        self.close()
        self._loads = [load for load in self._loads if not _untrusted(load)]

    def _untrusted_files(self) -> list[Path]:
        """The users' files the child has loaded, or is loading."""
        loads = [*self._loads, *([self._loading] if self._loading else [])]
        return list(dict.fromkeys(Path(load[1][0]).resolve() for load in loads
                                  if _untrusted(load)))

    def require(self, kb, indicators: list[str], label: str) -> None:
        """As :meth:`engine.prolog.PrologSession.require`, in the child."""
        self._call("require", (kb, indicators, label), {}, DEFAULT_SECONDS,
                   f"checking {label}")

    # -- the child -----------------------------------------------------------

    def close(self) -> None:
        """End the child (the next call starts a new one)."""
        with self._lock:
            if self._proc is not None:
                kill_group(self._proc)
                self._proc.join(timeout=5)
                self._conn.close()
            self._proc = self._conn = None
            self._walled = False

    def _load(self, method: str, args: tuple, kwargs: dict):
        with self._lock:
            what = f"loading {args[0]}"
            self._loading = (method, args, kwargs)
            # a user's file loads under the user's time limit, as any job
            seconds = DEFAULT_SECONDS if kwargs.get("trusted", True) else \
                current_limits().seconds or DEFAULT_SECONDS
            try:
                try:
                    result = self._call(method, args, kwargs, seconds, what)
                except WallTooNarrow:  # a child walled before this session knew it
                    self.close()
                    result = self._call(method, args, kwargs, seconds, what)
            finally:
                self._loading = None
            if (method, args, kwargs) not in self._loads:
                self._loads.append((method, args, kwargs))
            return result

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._cache_root = cache_root()
        self._proc = context.Process(target=_serve, name="advice-prolog", daemon=True,
                                     args=(child, current_limits(), tuple(self._inputs),
                                           self.scratch))
        start_shielded(self._proc)
        child.close()
        self._conn = parent
        for method, args, kwargs in list(self._loads):
            self._walled = self._walled or _untrusted((method, args, kwargs))
            try:
                self._exchange(method, args, kwargs, DEFAULT_SECONDS,
                               f"loading {args[0]} again")
            except EngineError:  # it no longer loads (gone, past a new limit): dropped
                self._loads.remove((method, args, kwargs))

    def _call(self, method: str, args: tuple, kwargs: dict, seconds: float, what: str):
        with self._lock:
            if self._walled and cache_root() != self._cache_root:
                self.close()  # its wall lets it read the cache it began with, not this one
            if self._proc is None or not self._proc.is_alive():
                self.close()
                self._start()
            self._walled = self._walled or _untrusted((method, args, kwargs))
            return self._exchange(method, args, kwargs, seconds, what)

    def _exchange(self, method: str, args: tuple, kwargs: dict, seconds: float, what: str):
        deadline = time.monotonic() + seconds * 1.05 + GRACE
        try:
            self._conn.send((method, args, kwargs))
            while not self._conn.poll(POLL):
                if not self._proc.is_alive():
                    raise self._ended(what)
                if time.monotonic() > deadline:
                    self.close()
                    raise SearchLimitError(f"{what} ran past its time limit of {seconds:g} s "
                                           "(the Prolog process was ended)")
            status, value = self._conn.recv()
        except KeyboardInterrupt:
            self.close()
            raise
        except (EOFError, BrokenPipeError, ConnectionResetError):
            raise self._ended(what) from None
        if status == "error":
            raise value
        return value

    def _ended(self, what: str) -> PrologGoalError | WallRefusal:
        self._proc.join(timeout=5)
        code = self._proc.exitcode
        self.close()
        if code == HALTED:
            return PrologGoalError(f"{what}: a knowledge base called halt/0; the Prolog "
                                   "process ended (nothing of it was kept)")
        if code == HALTED_FAILING:
            return PrologGoalError(f"{what}: {failing_words(current_limits().memory)}; the "
                                   "Prolog process ended (nothing of it was kept)")
        if sandbox.ended_words(code):
            return WallRefusal(wall_words(self._untrusted_files(),
                                          sandbox.program_refused("Prolog")))
        memory = current_limits().memory
        ended = f"{what}: the Prolog process ended ({halt_words(code)})"
        return PrologGoalError(f"{ended}; it may have run out of its memory limit of "
                               f"{memory / 2**30:.1f} GiB" if memory else ended)
