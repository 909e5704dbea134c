"""The one bridge to SWI-Prolog.

Every other module talks to Prolog through :func:`session`, which returns
the process-wide :class:`PrologSession`. The session:

- turns ``debug_on_error`` off, so an error never drops into the debugger;
- runs every goal under a time limit and an inference limit
  (:meth:`PrologSession.ask`), raising :class:`SearchLimitError` when one
  is exceeded; the session stays usable afterwards;
- consumes or closes every query, under one lock;
- takes results back as one string built in Prolog (callers parse it);
- loads knowledge bases with their error and warning messages collected:
  a syntax error raises :class:`KBLoadError` naming ``file:line``.

User text never reaches Prolog unquoted: build goals with :func:`atom`,
:func:`string` and :func:`integer`, which give Prolog literals that read
back as exactly that datum and can run nothing.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.resources
import json
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from advice.terms import quote_atom, quote_string
from engine import sandbox

DEFAULT_SECONDS = 120.0
DEFAULT_INFERENCES = 2_000_000_000


def _quarter_of_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4
    except (ValueError, OSError, AttributeError):
        return None


#: the default memory limit of a Prolog process: a quarter of the machine's
DEFAULT_MEMORY = _quarter_of_memory()


@dataclass(frozen=True)
class Limits:
    """Limits on every Prolog job: ``seconds`` and ``inferences`` replace
    each job's own when set; ``memory`` caps a Prolog process's address
    space in bytes (None: no cap), and its Prolog stacks at half of it."""

    seconds: float | None = None
    inferences: int | None = None
    memory: int | None = DEFAULT_MEMORY


_LIMITS = Limits()

#: the most bytes a user's knowledge base may have (checked before it is read)
MAX_KB_BYTES = 10 * 2**20

#: the environment variable that holds :func:`trust_user_files`'s setting,
#: so that every process the engine starts (its Prolog process, verify's
#: workers) inherits it
TRUST_VARIABLE = "ADVICE_TRUST_USER_FILES"


def trust_user_files(on: bool) -> None:
    """Load users' knowledge bases unchecked (``--trusted``: a person's own
    files) when ``on``, else check each before anything in it runs (the
    default; see :meth:`PrologSession.load_file`)."""
    if on:
        os.environ[TRUST_VARIABLE] = "1"
    else:
        os.environ.pop(TRUST_VARIABLE, None)


def user_files_trusted() -> bool:
    """Whether users' knowledge bases are loaded unchecked (see
    :func:`trust_user_files`)."""
    return os.environ.get(TRUST_VARIABLE) == "1"


def compiled_here(path: Path) -> bool:
    """Whether ``path`` is in the engine's cache of compiled tables (which
    load under the engine's limits, not a user's)."""
    try:
        path = Path(path).resolve()
    except (OSError, ValueError):  # e.g. a NUL in the name: not a file we wrote
        return False
    if path.parent.name != "tables":
        return False
    from engine.cache import cache_dir

    try:
        return path.parent == cache_dir("tables").resolve()
    except BadInput:  # no cache folder can be made here: none of ours
        return False


def configure_limits(*, seconds: float | None = None, inferences: int | None = None,
                     memory: int | None = DEFAULT_MEMORY) -> None:
    """Set the limits of every Prolog job from now on (see :class:`Limits`).

    A running child Prolog is ended, so that the next job starts one
    under the new limits.
    """
    global _LIMITS
    if seconds is not None and seconds <= 0:
        raise BadInput(f"--time-limit must be positive, not {seconds:g}")
    if inferences is not None and inferences < 1:
        raise BadInput(f"--inference-limit must be at least 1, not {inferences}")
    if memory is not None and memory < 2**28:
        raise BadInput(f"--memory-limit must be at least 256 MB, not {memory:,} bytes")
    new = Limits(seconds, inferences, memory)
    if new != _LIMITS:
        _LIMITS = new
        if isinstance(_SESSION, _process_session_class()):
            _SESSION.close()


def current_limits() -> Limits:
    """The limits in force (see :func:`configure_limits`)."""
    return _LIMITS


class EngineError(Exception):
    """Base of every error the engine reports to a user (one line)."""


class BadInput(EngineError):
    """Input a person gave (a position, a move, a name, a file) is not valid."""


class KBLoadError(EngineError):
    """A knowledge base could not be loaded (missing, syntax error, ...)."""

    def __init__(self, message: str, messages: tuple[str, ...] = ()):
        super().__init__(message)
        self.messages = messages

    def __reduce__(self):
        return (type(self), (str(self), self.messages))


class InterfaceError(EngineError):
    """A knowledge base lacks predicates its interface requires."""

    def __init__(self, path: str, missing: list[str]):
        super().__init__(f"{path}: does not define {', '.join(missing)}")
        self.path = path
        self.missing = missing

    def __reduce__(self):
        return (type(self), (self.path, self.missing))


class SearchLimitError(EngineError):
    """A goal ran past its time or inference limit."""


class PrologGoalError(EngineError):
    """A goal raised a Prolog error, or failed where it must succeed."""


class WallRefusal(EngineError):
    """The operating-system wall refused what a user's file tried
    (:mod:`engine.sandbox`): the message names the file and the action."""


class WallTooNarrow(EngineError):
    """A walled process was asked to load a user's file its wall does not
    let it read (a process that runs Prolog in a child starts a new child)."""


def atom(text: str) -> str:
    """Return ``text`` as a Prolog atom (quoted where it must be).

    >>> atom("it's")
    "'it\\\\'s'"
    """
    return quote_atom(text)


def string(text: str) -> str:
    """Return ``text`` as a double-quoted Prolog string literal."""
    return quote_string(text)


def integer(value: int) -> str:
    """Return an integer as Prolog text (refusing anything that is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return str(value)


def kb_path(relative: str) -> Path:
    """Path of a file shipped in the ``kb`` package, e.g. ``search/search.pl``."""
    return Path(str(importlib.resources.files("kb").joinpath(relative)))


@dataclass(frozen=True)
class LoadedKB:
    """A knowledge base loaded into its own context module."""

    path: Path
    module: str
    warnings: tuple[str, ...]


#: the environment variables by which pyswip finds SWI-Prolog without
#: running ``swipl`` itself: name -> the variable of
#: ``swipl --dump-runtime-variables`` that holds its value
SWIPL_LOCATION = {"LIBSWIPL_PATH": "PLLIBSWIPL", "SWI_HOME_DIR": "PLBASE"}


def locate_swipl() -> None:
    """Tell pyswip, in this process and in the processes it starts from
    now on, where SWI-Prolog is (the variables of :data:`SWIPL_LOCATION`,
    where they are not set already).

    Otherwise pyswip, as each process imports it, runs ``swipl
    --dump-runtime-variables`` with its stderr ours: a Prolog process
    ended at that moment (a worker, after a Ctrl-C) left that ``swipl``
    writing to a pipe no one read, and its "Broken pipe" error reached
    the user. Here it runs once, in a session of its own (a Ctrl-C to
    the terminal does not reach it) and with its errors discarded; if it
    cannot run or says nothing useful, pyswip looks as it would have.
    """
    if all(os.environ.get(name) for name in SWIPL_LOCATION):
        return
    try:
        run = subprocess.run(["swipl", "--dump-runtime-variables"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
                             start_new_session=True, timeout=60, check=True)
    except (OSError, subprocess.SubprocessError):
        return
    found = dict(line.rstrip(";").split("=", 1) for line in run.stdout.splitlines()
                 if "=" in line)
    values = {name: found.get(variable, "").strip('"') for name, variable in SWIPL_LOCATION.items()}
    if all(values.values()):
        for name, value in values.items():
            os.environ.setdefault(name, value)


class PrologSession:
    """One embedded SWI-Prolog, used under a lock. Get it with :func:`session`."""

    def __init__(self, on_halt: Callable[[int], None] | None = None, *,
                 inputs: tuple[str, ...] = (), scratch: str | None = None) -> None:
        """``inputs`` are the users' files and folders the wall will let
        this process read (besides each file it loads), ``scratch`` the
        private folder it may write (None: one of its own, made when
        the wall goes up)."""
        locate_swipl()
        self._inputs = tuple(inputs)
        self._scratch = scratch
        self._untrusted: list[Path] = []  # the users' files loaded, in order
        from pyswip import Prolog, registerForeign  # the only import of pyswip in the project

        self._prolog = Prolog()
        if on_halt is not None:
            def advice_on_halt(status):
                on_halt(status)
                return True

            registerForeign(advice_on_halt, arity=1)
        self._lock = threading.RLock()
        self._context_of: dict[Path, str] = {}
        self._raw("set_prolog_flag(debug_on_error, false)")
        self._raw("set_prolog_flag(report_error, true)")
        # what a knowledge base writes, loading or searching, goes to stderr:
        # stdout is the command's (under --json, one JSON object)
        self._raw("set_stream(user_error, alias(user_output)), set_output(user_error)")
        if _LIMITS.memory:
            # a runaway recursion meets this as an error before the process
            # meets its memory limit
            self._raw(f"set_prolog_flag(stack_limit, {integer(_LIMITS.memory // 2)})")
        self._raw(f"use_module({atom(str(kb_path('bridge.pl')))})")
        if on_halt is not None:
            self._raw("at_halt(( current_prolog_flag(exit_status, Status) -> "
                      "advice_on_halt(Status) ; advice_on_halt(0) ))")

    def _raw(self, goal: str) -> dict:
        with self._lock:
            answers = list(self._prolog.query(goal, maxresult=1))
        if not answers:
            raise PrologGoalError(f"Prolog goal failed: {goal}")
        return answers[0]

    def ask(
        self,
        goal: str,
        *,
        seconds: float = DEFAULT_SECONDS,
        inferences: int = DEFAULT_INFERENCES,
        what: str = "the search",
    ) -> str:
        """Run ``goal`` once and return the string it binds to ``Out``.

        ``goal`` is Prolog text built by the caller from its own code and
        from :func:`atom`/:func:`string`/:func:`integer` literals; it must
        bind the variable ``Out`` to a string, atom or number. Raises
        :class:`SearchLimitError` past either limit and
        :class:`PrologGoalError` on an error or a failure. The limits set
        with :func:`configure_limits` replace ``seconds`` and
        ``inferences``.
        """
        return self._ask_within(goal, _LIMITS.seconds or seconds,
                                _LIMITS.inferences or inferences, what)

    def _ask_within(self, goal: str, seconds: float, inferences: int, what: str) -> str:
        """:meth:`ask` under these very limits, whatever a user configured."""
        query = (
            f"bridge:run_limited(({goal}), {float(seconds)!r}, "
            f"{integer(int(inferences))}, Status, Message), "
            "( Status == true -> ( var(Out) -> Text = \"\" ; "
            "format(string(Text), \"~w\", [Out]) ) ; Text = \"\" )"
        )
        answer = self._raw(query)
        status = _text(answer["Status"])
        if status == "true":
            return _text(answer["Text"])
        if status == "false":
            raise PrologGoalError(f"{what} failed")
        if status == "time_limit":
            raise SearchLimitError(f"{what} ran past its time limit of {seconds:g} s")
        if status == "inference_limit":
            raise SearchLimitError(
                f"{what} ran past its limit of {int(inferences):,} inferences"
            )
        message = _text(answer["Message"])
        self._refused(message)
        raise PrologGoalError(f"{what}: {capped(message)}")

    def _refused(self, message: str) -> None:
        """Raise :class:`WallRefusal` when ``message`` (a Prolog error met
        inside the wall) says the wall refused something."""
        words = sandbox.refusal(message)
        if words is not None:
            raise WallRefusal(wall_words(self._untrusted, words))

    def _enter_wall(self, path: Path) -> None:
        """Wall this process in (:mod:`engine.sandbox`) before the user's
        file ``path`` loads, letting it read ``path`` and the inputs."""
        entered = sandbox.entered()
        if entered is not None:
            if not entered.plan.covers(path):
                raise WallTooNarrow(f"{path}: outside the wall of this Prolog process")
            return
        scratch = self._scratch or tempfile.mkdtemp(prefix="advice-wall-")
        # Prolog's own temporary files go to the scratch folder. Landlock
        # holds the thread that enters the wall and the threads it makes
        # afterwards: Prolog's garbage-collection thread, made before, is
        # ended and made again behind the wall
        self._raw(f"set_prolog_flag(tmp_dir, {atom(scratch)}), "
                  "set_prolog_flag(gc_thread, false)")
        sandbox.enter(sandbox.Plan(tuple(dict.fromkeys([*self._inputs, str(path)])), scratch))
        self._raw("set_prolog_flag(gc_thread, true)")

    def declare_inputs(self, inputs) -> None:
        """See :func:`declare_inputs` (before the wall goes up)."""
        self._inputs = tuple(dict.fromkeys([*self._inputs, *inputs]))

    @property
    def scratch(self) -> str:
        """A folder this process's Prolog may write, inside the wall or not."""
        entered = sandbox.entered()
        if entered is not None:
            return entered.plan.scratch
        if self._scratch is None:
            self._scratch = tempfile.mkdtemp(prefix="advice-wall-")
        return self._scratch

    def use_module(self, relative: str) -> None:
        """Load a module shipped in ``kb`` (e.g. ``search/search.pl``)."""
        self.load_file(kb_path(relative), context="user")

    def load_file(self, path: str | Path, context: str | None = None,
                  reload: bool | None = None, trusted: bool | None = None) -> LoadedKB:
        """Load a Prolog file into a context module and return it.

        A module file's exports are imported into the context module; a
        plain file's clauses land in it. Loading the same path again
        reloads it into the same context when ``reload`` is true; when it
        is false a file already loaded is left as it is. By default a
        user's file is reloaded (it may have changed) and the project's
        own are not. Raises :class:`KBLoadError` for
        a missing file or one with errors (each ``file:line: message``).

        A user's file (outside the ``kb`` package) is untrusted unless
        ``trusted`` is true (None: :func:`user_files_trusted`; a table the
        engine compiled is loaded trusted by :func:`engine.tables.load_table`,
        once it has checked the cached file holds what it compiled): it must
        not be larger than
        :data:`MAX_KB_BYTES`, and ``kb/guard.pl`` reads it before
        anything in it runs. A file it refuses raises
        :class:`KBLoadError` with one line per offence (``messages``;
        the message is all of them) and is not loaded.

        A user's file loads under the limits of :func:`configure_limits`,
        as any job; the engine's own files (in ``kb``, or compiled into its
        cache) under the default ones.
        """
        try:
            path = Path(path).resolve()
            found = path.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            what = "is a directory, not a Prolog file" if path.is_dir() else "no such file"
            raise KBLoadError(f"{path}: {what}")
        own = path.is_relative_to(kb_path("").resolve())
        engines = own or compiled_here(path)  # in kb, or a table the engine compiled
        if reload is None:
            reload = not own
        if trusted is None:
            trusted = user_files_trusted()
        guarded = not (own or trusted)
        if guarded:
            self._enter_wall(path)
            size = path.stat().st_size
            if size > MAX_KB_BYTES:
                raise KBLoadError(f"{path}: {size:,} bytes is more than the "
                                  f"{MAX_KB_BYTES // 2**20} MB a knowledge base may have")
        with self._lock:
            if context is None:
                # a file keeps its context module across reloads, even failed
                # ones, and across Prolog processes (one that starts again
                # loads it into the module the parent knows it by)
                context = self._context_of.setdefault(path, context_module(path))
            load = (f"{atom(str(path))}, {atom(context)}, "
                    f"{'true' if reload else 'not_loaded'}, Out")
            checked = guarded and not sandbox.unguarded_for_tests()
            goal = (f"use_module({atom(str(kb_path('guard.pl')))}, []), "
                    f"guard:load_guarded({load})" if checked else f"bridge:load_kb({load})")
            if guarded and path not in self._untrusted:
                self._untrusted.append(path)
            what = f"loading {path}"
            if engines:
                # the engine's own files load under its default limits, not the
                # ones a user set for the searches: a child Prolog that starts
                # again loads them again, whatever the user's --time-limit
                reply = self._ask_within(goal, DEFAULT_SECONDS, DEFAULT_INFERENCES, what)
            else:
                reply = self.ask(goal, what=what)
        messages = [(m["kind"], m["text"]) for m in json.loads(reply)]
        errors = tuple(t for k, t in messages if k == "error")
        for text in errors:
            self._refused(text)
        if len(errors) > MAX_MESSAGES:
            errors = (*errors[:MAX_MESSAGES],
                      f"{path}: ... and {len(errors) - MAX_MESSAGES:,} more errors")
        errors = tuple(capped(e) for e in errors)
        if errors:
            raise KBLoadError("\n".join(errors), errors)
        return LoadedKB(path, context, tuple(t for _, t in messages))

    def require(self, kb: LoadedKB, indicators: list[str], label: str) -> None:
        """Raise :class:`InterfaceError` unless ``kb`` defines every ``name/arity``."""
        terms = ", ".join(
            f"{atom(n)}/{integer(int(a))}" for n, a in (i.rsplit("/", 1) for i in indicators)
        )
        missing = json.loads(self.ask(
            f"bridge:missing_predicates_json({atom(kb.module)}, [{terms}], Out)"))
        if missing:
            raise InterfaceError(label, missing)


#: the most characters of one error message a user sees (a Prolog error
#: can hold a huge term)
MAX_MESSAGE = 2000
#: the most error lines a file's load reports (the rest are counted)
MAX_MESSAGES = 100


def capped(text: str) -> str:
    """``text`` cut at :data:`MAX_MESSAGE` characters, saying how much was cut."""
    if len(text) <= MAX_MESSAGE:
        return text
    return f"{text[:MAX_MESSAGE]} ... ({len(text) - MAX_MESSAGE:,} characters cut)"


def context_module(path: Path) -> str:
    """The context module a file loads into when none is given: named by
    its path, the same in every Prolog process."""
    return f"kb_{hashlib.sha1(str(path).encode()).hexdigest()[:16]}"


def wall_words(files: list[Path], words: str) -> str:
    """The one line that says what the wall refused of ``files``."""
    named = ", ".join(str(f) for f in files) or "a knowledge base"
    return f"{named}: refused by the wall: a knowledge base {words}"


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return str(value)


_SESSION = None
_SESSION_LOCK = threading.Lock()
_IN_PROCESS = False
#: what the wall of an in-process session lets it read and write (see
#: :func:`declare_inputs`, :func:`use_in_process_session`)
_WALL_INPUTS: list[str] = []
_WALL_SCRATCH: str | None = None


def _process_session_class():
    from engine.prolog_process import ProcessSession

    return ProcessSession


def use_in_process_session(scratch: str | None = None) -> None:
    """Run Prolog in this process from now on (for a worker process, which
    is itself the process that can be ended from outside); ``scratch`` is
    the private folder its wall lets it write (None: one of its own)."""
    global _IN_PROCESS, _WALL_SCRATCH
    _IN_PROCESS = True
    _WALL_SCRATCH = scratch


def declare_inputs(paths) -> None:
    """Let the wall of this process's Prolog, once it goes up, read
    ``paths`` (users' files or folders: a submission), besides each user's
    file it loads. No effect on a wall that stands already."""
    global _SESSION
    _WALL_INPUTS.extend(str(Path(p).resolve()) for p in paths)
    if _SESSION is not None:
        _SESSION.declare_inputs(_WALL_INPUTS)


def session():
    """The process-wide Prolog session (started on first use).

    By default Prolog runs in a child process
    (:class:`engine.prolog_process.ProcessSession`), so that a knowledge
    base cannot end, hang or exhaust the engine; after
    :func:`use_in_process_session` it runs in this process
    (:class:`PrologSession`). Both have the same interface.
    """
    global _SESSION
    with _SESSION_LOCK:
        if _SESSION is None:
            if _IN_PROCESS:
                from engine.prolog_process import halt_now

                _SESSION = PrologSession(on_halt=halt_now, inputs=tuple(_WALL_INPUTS),
                                         scratch=_WALL_SCRATCH)
            else:
                _SESSION = _process_session_class()()
                _SESSION.declare_inputs(_WALL_INPUTS)
                atexit.register(end_session)
        return _SESSION


def end_session() -> None:
    """End this process's child Prolog, if it has one, and remove its
    scratch folder (at exit; also before a process leaves with
    ``os._exit``)."""
    if _SESSION is not None and hasattr(_SESSION, "shutdown"):
        _SESSION.shutdown()
