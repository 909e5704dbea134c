"""An assignment file: what a student hands in and how it is graded.

An assignment is a TOML file (read with :mod:`tomllib`)::

    [assignment]
    title = "A player that never loses from a winning position"
    files = ["player.pl"]            # what each student hands in
    reference = "reference.pl"       # the teacher's solution (optional)

    [[test]]                         # one table per test point
    name = "winning moves"
    kind = "compare"                 # plunit, compare, search or table
    points = 3
    ...

:func:`load_assignment` reads and checks it, and raises
:class:`AssignmentError` naming ``file:line`` (of the syntax error, or
of the ``[[test]]`` table or key that is wrong). Paths in the file are
relative to its folder. :data:`KEYS` lists every key; ``advice grade
--help`` shows the same in words.
"""

from __future__ import annotations

import json
import re
import secrets
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from engine.games import SEARCH_INTERFACE
from engine.prolog import BadInput, KBLoadError, atom, integer, kb_path, session, string

KINDS = ("plunit", "compare", "search", "table")
ALGORITHMS = ("minimax", "alphabeta")
DEFENDERS = ("perfect", "all", "random")
CHECKS = ("equal", "accepts")

#: the default limits of one call of a student's code (a plunit test, one
#: input of a compare test, one search)
CALL_SECONDS = 10.0
CALL_INFERENCES = 100_000_000

_COMMON = ("name", "kind", "points", "file")
_LIMITS = ("time_limit", "inference_limit")
#: the keys of ``[assignment]`` and of each kind of ``[[test]]``
KEYS = {
    "assignment": ("title", "files", "reference"),
    "plunit": _COMMON + ("tests",) + _LIMITS,
    "compare": _COMMON + ("predicate", "reference_predicate", "outputs", "check", "inputs",
                          "inputs_from") + _LIMITS,
    "search": _COMMON + ("positions", "algorithms", "depth", "fewer") + _LIMITS,
    "table": _COMMON + ("domain", "allow_own_domain", "defender", "start_set", "sample",
                        "seed", "max_moves"),
}


def private_module(kind: str) -> str:
    """A name for a module of the grader's (the context it loads a file
    into, or its grading jobs') that no submission can know, and so
    cannot take for its own: ``kind`` and 64 random bits."""
    return f"{kind}_{secrets.token_hex(8)}"


#: the module the grading jobs are loaded into (see :func:`load_grading_jobs`)
GRADER_CONTEXT = private_module("grader")


def load_grading_jobs() -> None:
    """Load the grading jobs (``kb/grading/grading.pl``, called as
    ``grading:...``) into a module of their own, not into ``user``, whose
    predicates every module sees: no knowledge base or submission in the
    same Prolog can see them (a file of the engine's loads once)."""
    session().load_file(kb_path("grading/grading.pl"), context=GRADER_CONTEXT, trusted=True)


class AssignmentError(BadInput):
    """An assignment file that cannot be used, with ``file:line`` first."""


@dataclass(frozen=True)
class CallLimits:
    """The limits of one call of a student's code: seconds and inferences."""

    seconds: float = CALL_SECONDS
    inferences: int = CALL_INFERENCES

    def prolog(self) -> str:
        """The limits as the grading jobs take them: ``limits(S, I)``."""
        return f"limits({float(self.seconds)!r}, {integer(self.inferences)})"


@dataclass(frozen=True)
class TestPoint:
    """One ``[[test]]`` table: its name, points, the submitted file it
    grades and the line of its header in the assignment file."""

    name: str
    points: float
    file: str
    line: int
    kind: ClassVar[str]


@dataclass(frozen=True)
class PlunitTest:
    """One plunit test of a teacher's file: its unit and name as Prolog
    writes them (``~q``) and its line."""

    unit: str
    test: str
    line: int


@dataclass(frozen=True)
class PlunitPoint(TestPoint):
    """The teacher's plunit file run against the submission: ``points``
    for each test that passes."""

    tests_file: Path
    tests: tuple[PlunitTest, ...]
    limits: CallLimits
    kind: ClassVar[str] = "plunit"

    def test_name(self, test: PlunitTest) -> str:
        """The name of one of its tests in the results."""
        return f"{self.name}: {test.test}"


@dataclass(frozen=True)
class ComparePoint(TestPoint):
    """The student's predicate against the reference's, on given inputs
    (``inputs``: each the input arguments written as in a call) or on
    every solution of a reference predicate (``inputs_from``); credit in
    proportion to the inputs answered right."""

    predicate: tuple[str, int]
    reference_predicate: tuple[str, int]
    outputs: int
    check: str
    inputs: tuple[str, ...] | None
    inputs_from: tuple[str, int] | None
    limits: CallLimits
    kind: ClassVar[str] = "compare"


@dataclass(frozen=True)
class SearchPoint(TestPoint):
    """The student's game searched by the project's searches from each
    position (None: the game's initial/1): each value must be the
    reference game's, and with ``fewer`` alpha-beta must visit fewer
    positions than minimax; credit in proportion to the positions."""

    positions: tuple[str, ...] | None
    algorithms: tuple[str, ...]
    depth: int | None
    fewer: bool
    limits: CallLimits
    kind: ClassVar[str] = "search"


@dataclass(frozen=True)
class TablePoint(TestPoint):
    """The student's advice table, checked and verified (``advice
    verify``) from a sample or a set of start positions; credit in
    proportion to the positions won.

    The table must use the assignment's knowledge base: ``domain`` (a
    ``.pl`` file shipped under ``kb/``, as the assignment names it in
    ``domain_name``), else any knowledge base shipped with advice; one
    from the submission's own folder only when ``allow_own_domain``.
    """

    domain: Path | None
    domain_name: str | None
    allow_own_domain: bool
    defender: str | None
    start_set: str | None
    sample: int | None
    seed: int
    max_moves: int
    kind: ClassVar[str] = "table"


@dataclass(frozen=True)
class Assignment:
    """A checked assignment file."""

    path: Path
    title: str
    files: tuple[str, ...]
    reference: Path | None
    tests: tuple[TestPoint, ...]

    def plan(self) -> list[tuple[str, float]]:
        """Every graded test, as the results name them, with its points."""
        out: list[tuple[str, float]] = []
        for point in self.tests:
            if isinstance(point, PlunitPoint):
                out += [(point.test_name(t), point.points) for t in point.tests]
            else:
                out.append((point.name, point.points))
        return out

    @property
    def max_score(self) -> float:
        """The points there are."""
        return sum(points for _, points in self.plan())


def load_assignment(path: str | Path) -> Assignment:
    """Read and check an assignment file (see the module); raises
    :class:`AssignmentError` with ``file:line`` for anything wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = "no such file" if isinstance(error, FileNotFoundError) else \
            getattr(error, "strerror", None) or str(error)
        raise AssignmentError(f"{path}: {reason}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AssignmentError(_decode_error(path, text, error)) from None
    assignment = _Reader(path, text).assignment(data)
    return _check_with_prolog(assignment, _Lines(path, text))


def _decode_error(path: Path, text: str, error: tomllib.TOMLDecodeError) -> str:
    message = str(error)
    found = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if found:
        return f"{path}:{found[1]}:{found[2]}: {message[:found.start()]}"
    if message.endswith(" (at end of document)"):
        last = max(len(text.splitlines()), 1)
        return f"{path}:{last}: {message.removesuffix(' (at end of document)')} at the end"
    return f"{path}: {message}"


class _Lines:
    """Finds the line of a table or key in the TOML text, for messages."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = text.splitlines()

    def table(self, name: str) -> int:
        """The line of the table (or key) ``name`` at the top level, else 1."""
        pattern = rf"\s*(?:\[+\s*{re.escape(name)}\s*\]|{re.escape(name)}\s*=)"
        return next((n for n, line in enumerate(self.lines, 1) if re.match(pattern, line)), 1)

    def header(self, index: int | None) -> int:
        """The line of ``[assignment]`` (None) or of the index-th ``[[test]]``."""
        pattern = r"\s*\[\s*assignment\s*\]" if index is None else r"\s*\[\[\s*test\s*\]\]"
        found = [n for n, line in enumerate(self.lines, 1) if re.match(pattern, line)]
        if index is None:
            return found[0] if found else 1
        return found[index] if index < len(found) else 1

    def key(self, index: int | None, key: str) -> int:
        """The line of ``key`` in ``[assignment]`` (None) or the index-th
        ``[[test]]``, else the line of the table."""
        start = self.header(index)
        pattern = rf"""\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*="""
        for n in range(start, len(self.lines)):
            line = self.lines[n]
            if re.match(r"\s*\[", line):
                break
            if re.match(pattern, line):
                return n + 1
        return start

    def error(self, index: int | None, key: str | None, message: str) -> AssignmentError:
        line = self.header(index) if key is None else self.key(index, key)
        return AssignmentError(f"{self.path}:{line}: {message}")


class _Reader:
    """Turns the TOML data into an :class:`Assignment`, checking each value."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.folder = path.parent
        self.lines = _Lines(path, text)

    def assignment(self, data: dict) -> Assignment:
        unknown = sorted(set(data) - {"assignment", "test"})
        if unknown:
            raise AssignmentError(f"{self.path}:{self.lines.table(unknown[0])}: unknown "
                                  f"table {unknown[0]!r}: an assignment has [assignment] "
                                  "and [[test]] tables")
        head = data.get("assignment")
        if not isinstance(head, dict):
            raise AssignmentError(f"{self.path}:1: no [assignment] table (with title, files "
                                  "and, if the tests need one, reference)")
        self._keys(head, None, "assignment", "[assignment]")
        title = self._text(head, None, "title")
        files = head.get("files")
        if not (isinstance(files, list) and files and all(
                isinstance(f, str) and f and "/" not in f and "\\" not in f for f in files)):
            raise self.lines.error(None, "files" if "files" in head else None,
                                   "files must list the names of the files a student hands "
                                   "in, e.g. files = [\"player.pl\"]")
        if len(set(files)) != len(files):
            raise self.lines.error(None, "files", "files names a file twice")
        reference = (self._path(head, None, "reference", "[assignment]")
                     if "reference" in head else None)
        tests = data.get("test")
        if not (isinstance(tests, list) and tests):
            raise AssignmentError(f"{self.path}:1: no [[test]] table: an assignment needs "
                                  "at least one test")
        points = [self._point(t, i, tuple(files), reference) for i, t in enumerate(tests)]
        names = [p.name for p in points]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise self.lines.error(i, "name", f"two tests are named {name!r}")
        return Assignment(self.path, title, tuple(files), reference, tuple(points))

    def _point(self, data: Any, i: int, files: tuple[str, ...],
               reference: Path | None) -> TestPoint:
        if not isinstance(data, dict):
            raise self.lines.error(i, None, "a test must be a [[test]] table")
        kind = data.get("kind")
        if kind not in KINDS:
            raise self.lines.error(i, "kind" if "kind" in data else None,
                                   f"unknown kind {kind!r}: choose {', '.join(KINDS)}"
                                   if kind is not None else
                                   f"the test has no kind: choose {', '.join(KINDS)}")
        name = self._text(data, i, "name")
        where = f"test {name!r}"
        self._keys(data, i, kind, where)
        points = data.get("points")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or points <= 0:
            raise self.lines.error(i, "points" if "points" in data else None,
                                   f"{where}: points must be a positive number")
        file = self._file(data, i, files, kind, where)
        common = dict(name=name, points=float(points), file=file, line=self.lines.header(i))
        if kind in ("compare", "search") and reference is None:
            raise self.lines.error(i, "kind", f"{where}: a {kind} test needs the "
                                   "reference solution: give reference = \"FILE.pl\" in "
                                   "[assignment]")
        if kind == "plunit":
            return PlunitPoint(**common, tests_file=self._path(data, i, "tests", where), tests=(),
                               limits=self._limits(data, i, where))
        if kind == "compare":
            return self._compare(data, i, where, common)
        if kind == "search":
            return self._search(data, i, where, common)
        return self._table(data, i, where, common)

    def _compare(self, data: dict, i: int, where: str, common: dict) -> ComparePoint:
        predicate = self._indicator(data, i, "predicate", where)
        reference_predicate = (self._indicator(data, i, "reference_predicate", where)
                               if "reference_predicate" in data else predicate)
        outputs = self._integer(data, i, "outputs", where, 1, 1)
        if outputs >= predicate[1]:
            raise self.lines.error(i, "outputs", f"{where}: {predicate[0]}/{predicate[1]} "
                                   f"cannot have {outputs} outputs and an input")
        if reference_predicate[1] != predicate[1]:
            raise self.lines.error(i, "reference_predicate",
                                   f"{where}: the reference predicate must take as many "
                                   f"arguments as {predicate[0]}/{predicate[1]}")
        check = data.get("check", "equal")
        if check not in CHECKS:
            raise self.lines.error(i, "check", f"{where}: check must be "
                                   f"{' or '.join(repr(c) for c in CHECKS)}, not {check!r}")
        inputs, inputs_from = data.get("inputs"), None
        if ("inputs" in data) == ("inputs_from" in data):
            raise self.lines.error(i, None, f"{where}: give either inputs (a list of the "
                                   "input arguments of each call, e.g. [\"3, [a]\"]) or "
                                   "inputs_from (a reference predicate whose solutions are "
                                   "the inputs)")
        if inputs is not None and not (isinstance(inputs, list) and inputs
                                       and all(isinstance(x, str) for x in inputs)):
            raise self.lines.error(i, "inputs", f"{where}: inputs must be a list of "
                                   "strings, each the input arguments of one call")
        if "inputs_from" in data:
            inputs_from = self._indicator(data, i, "inputs_from", where)
            if inputs_from[1] != predicate[1] - outputs:
                raise self.lines.error(i, "inputs_from", f"{where}: inputs_from must take "
                                       f"{predicate[1] - outputs} arguments, the inputs of "
                                       f"{predicate[0]}/{predicate[1]}")
        return ComparePoint(**common, predicate=predicate,
                            reference_predicate=reference_predicate, outputs=outputs,
                            check=check, inputs=tuple(inputs) if inputs else None,
                            inputs_from=inputs_from, limits=self._limits(data, i, where))

    def _search(self, data: dict, i: int, where: str, common: dict) -> SearchPoint:
        positions = data.get("positions")
        if positions is not None and not (isinstance(positions, list) and positions and
                                          all(isinstance(p, str) for p in positions)):
            raise self.lines.error(i, "positions", f"{where}: positions must be a list of "
                                   "positions, each as the game reads it")
        algorithms = data.get("algorithms", list(ALGORITHMS))
        if not (isinstance(algorithms, list) and algorithms
                and all(a in ALGORITHMS for a in algorithms)):
            raise self.lines.error(i, "algorithms", f"{where}: algorithms must list "
                                   f"{' and/or '.join(ALGORITHMS)}")
        fewer = data.get("fewer", False)
        if not isinstance(fewer, bool):
            raise self.lines.error(i, "fewer", f"{where}: fewer must be true or false")
        if fewer and set(algorithms) != set(ALGORITHMS):
            raise self.lines.error(i, "fewer", f"{where}: fewer compares minimax with "
                                   "alphabeta: algorithms must name both")
        depth = self._integer(data, i, "depth", where, None, 1)
        return SearchPoint(**common, positions=tuple(positions) if positions else None,
                           algorithms=tuple(dict.fromkeys(algorithms)), depth=depth,
                           fewer=fewer, limits=self._limits(data, i, where))

    def _table(self, data: dict, i: int, where: str, common: dict) -> TablePoint:
        defender = data.get("defender")
        if defender is not None and defender not in DEFENDERS:
            raise self.lines.error(i, "defender", f"{where}: defender must be one of "
                                   f"{', '.join(DEFENDERS)}, not {defender!r}")
        start_set = data.get("start_set")
        if start_set is not None and not (isinstance(start_set, str) and start_set):
            raise self.lines.error(i, "start_set", f"{where}: start_set must name a set "
                                   "of start positions the domain declares")
        own = data.get("allow_own_domain", False)
        if not isinstance(own, bool):
            raise self.lines.error(i, "allow_own_domain", f"{where}: allow_own_domain must "
                                   "be true or false")
        name = data.get("domain")
        domain = None
        if name is not None:
            if own:
                raise self.lines.error(i, "allow_own_domain", f"{where}: give domain (the "
                                       "knowledge base every table must use) or "
                                       "allow_own_domain = true, not both")
            domain = shipped_domain(name) if isinstance(name, str) and name else None
            if domain is None:
                raise self.lines.error(i, "domain", f"{where}: domain = {name!r}: no "
                                       "knowledge base shipped under advice's kb/ has that "
                                       "name (e.g. domain = \"folder/name\")")
        return TablePoint(**common, domain=domain, domain_name=name, allow_own_domain=own,
                          defender=defender, start_set=start_set,
                          sample=self._integer(data, i, "sample", where, None, 1),
                          seed=self._integer(data, i, "seed", where, 0, 0),
                          max_moves=self._integer(data, i, "max_moves", where, 100, 1))

    # -- values ------------------------------------------------------------------

    def _keys(self, data: dict, i: int | None, kind: str, where: str) -> None:
        for key in data:
            if key not in KEYS[kind]:
                what = "[assignment]" if i is None else f"a {kind} test"
                raise self.lines.error(i, key, f"{where}: unknown key {key!r}; the keys of "
                                       f"{what} are {', '.join(KEYS[kind])}")

    def _text(self, data: dict, i: int | None, key: str) -> str:
        value = data.get(key)
        if not (isinstance(value, str) and value.strip()):
            where = "[assignment]" if i is None else "the test"
            raise self.lines.error(i, key if key in data else None,
                                   f"{where} needs a {key} (a string)")
        return value

    def _path(self, data: dict, i: int | None, key: str, where: str) -> Path:
        value = data.get(key)
        if not (isinstance(value, str) and value):
            raise self.lines.error(i, key if key in data else None,
                                   f"{where}: {key} must name a file (relative to the "
                                   "assignment file)")
        path = self.folder / value
        if not path.is_file():
            raise self.lines.error(i, key, f"{where}: {key} = {value!r}: no such file {path}")
        return path

    def _file(self, data: dict, i: int, files: tuple[str, ...], kind: str,
              where: str) -> str:
        if "file" not in data and len(files) > 1:
            raise self.lines.error(i, None, f"{where}: say which of the files it grades "
                                   f"(file = one of {', '.join(files)})")
        file = data.get("file", files[0])
        if file not in files:
            raise self.lines.error(i, "file", f"{where}: file {file!r} is not among the "
                                   f"files a student hands in ({', '.join(files)})")
        suffix = ".adv" if kind == "table" else ".pl"
        if not file.endswith(suffix):
            raise self.lines.error(i, "file" if "file" in data else "kind",
                                   f"{where}: a {kind} test grades a {suffix} file, not "
                                   f"{file}")
        return file

    def _indicator(self, data: dict, i: int, key: str, where: str) -> tuple[str, int]:
        value = data.get(key)
        found = re.fullmatch(r"(.+)/(\d+)", value) if isinstance(value, str) else None
        if not found:
            raise self.lines.error(i, key if key in data else None,
                                   f"{where}: {key} must be a predicate as name/arity, e.g. "
                                   "\"take/2\"")
        return found[1], int(found[2])

    def _integer(self, data: dict, i: int, key: str, where: str, default: int | None,
                 least: int) -> int | None:
        value = data.get(key, default)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < least):
            raise self.lines.error(i, key, f"{where}: {key} must be an integer of at "
                                   f"least {least}")
        return value

    def _limits(self, data: dict, i: int, where: str) -> CallLimits:
        seconds = data.get("time_limit", CALL_SECONDS)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0:
            raise self.lines.error(i, "time_limit", f"{where}: time_limit must be a "
                                   "positive number of seconds (per call)")
        inferences = self._integer(data, i, "inference_limit", where, CALL_INFERENCES, 1)
        return CallLimits(float(seconds), inferences)


def shipped_domain(name: str) -> Path | None:
    """The ``.pl`` file shipped under ``kb/`` that ``name`` names, as a
    table's ``uses`` does (``folder/name``, with or without ``.pl``, or a
    bare name one file has), or None; never the example assignments'
    files (their reference solutions)."""
    from engine.tables import find_kb

    if Path(name).is_absolute() or ".." in Path(name).parts:
        return None
    found = find_kb(name, kb_path(""))
    return found if found is not None and is_shipped_domain(found) else None


def is_shipped_domain(path: Path) -> bool:
    """Whether ``path`` (resolved) is a knowledge base shipped under
    ``kb/``, not a file of the example assignments."""
    kb = kb_path("").resolve()
    return path.is_relative_to(kb) and not path.is_relative_to(kb / "assignments")


# -- the checks that need Prolog ----------------------------------------------------

def _check_with_prolog(assignment: Assignment, lines: _Lines) -> Assignment:
    """The assignment with its plunit files read (their tests filled in),
    after loading the reference (trusted: it is the teacher's) and
    checking that it defines what the tests name."""
    s = session()
    load_grading_jobs()
    reference = None
    if assignment.reference is not None:
        try:
            reference = s.load_file(assignment.reference, trusted=True).module
        except KBLoadError as error:
            raise lines.error(None, "reference", f"the reference {assignment.reference} "
                              f"does not load:\n{error}") from None
    points = []
    for i, point in enumerate(assignment.tests):
        where = f"test {point.name!r}"
        if isinstance(point, PlunitPoint):
            point = _read_plunit(point, i, lines)
        elif isinstance(point, ComparePoint):
            _require(reference, [point.reference_predicate], lines, i,
                     "reference_predicate", where)
            if point.inputs_from:
                _require(reference, [point.inputs_from], lines, i, "inputs_from", where)
            if point.inputs:
                _check_inputs(point, lines, i, where)
        elif isinstance(point, SearchPoint):
            _require(reference, [(name, int(arity)) for name, arity in
                                 (p.split("/") for p in SEARCH_INTERFACE)],
                     lines, i, "kind", where, "the reference is no game: it does not define")
        points.append(point)
    return replace(assignment, tests=tuple(points))


def _require(module: str, predicates: list[tuple[str, int]], lines: _Lines, i: int,
             key: str, where: str, what: str = "the reference does not define") -> None:
    missing = json.loads(session().ask(
        f"bridge:missing_predicates_json({atom(module)}, ["
        + ", ".join(f"{atom(n)}/{integer(a)}" for n, a in predicates) + "], Out)"))
    if missing:
        raise lines.error(i, key, f"{where}: {what} {', '.join(missing)}")


def _check_inputs(point: ComparePoint, lines: _Lines, i: int, where: str) -> None:
    arity = point.predicate[1] - point.outputs
    problems = json.loads(session().ask(
        "grading:inputs_json([" + ", ".join(string(t) for t in point.inputs) +
        f"], {integer(arity)}, Out)", what="reading the inputs"))
    for text, problem in zip(point.inputs, problems):
        if problem is not None:
            raise lines.error(i, "inputs", f"{where}: the input {text!r} {problem}")


def _read_plunit(point: PlunitPoint, i: int, lines: _Lines) -> PlunitPoint:
    found = json.loads(session().ask(
        f"grading:plunit_tests_json({atom(str(point.tests_file))}, Out)",
        what=f"reading {point.tests_file}"))
    where = f"test {point.name!r}"
    if found["errors"]:
        raise lines.error(i, "tests", f"{where}: the plunit file does not read:\n"
                          + "\n".join(found["errors"]))
    if not found["tests"]:
        raise lines.error(i, "tests", f"{where}: {point.tests_file} defines no plunit "
                          "tests (test(Name) :- Body, between begin_tests/1 and end_tests/1)")
    tests = tuple(PlunitTest(t["unit"], t["name"], t["line"]) for t in found["tests"])
    names = [t.test for t in tests]
    for n, name in enumerate(names):
        if name in names[:n]:
            raise lines.error(i, "tests", f"{where}: {point.tests_file} has two tests "
                              f"named {name}: each needs a name of its own")
    return replace(point, tests=tests)


def help_text(example_names: list[str]) -> str:
    """How a teacher writes an assignment file (the epilog of ``advice
    grade --help``), with the example assignments' names."""
    return f"""\
An assignment file (TOML; paths in it are relative to it):

  [assignment]
  title = "A player that never loses from a winning position"
  files = ["player.pl"]           # what each student hands in
  reference = "reference.pl"      # the teacher's solution (compare and search need it)

  [[test]]                        # one table per test point
  name = "winning moves"
  kind = "compare"                # plunit, compare, search or table
  points = 3
  file = "player.pl"              # the handed-in file it grades (default: the only one)
  ...

The keys of each kind (time_limit and inference_limit bound each call of
the student's code: a test, an input, a search; default {CALL_SECONDS:g} s and
{CALL_INFERENCES:,} inferences):

  plunit   tests = "tests.pl": a plunit file (no module) loaded into the
           student's module; points for each test that passes
  compare  predicate = "take/2": the student's; its last `outputs` (default 1)
           arguments are its answer. reference_predicate (default: the same):
           the reference's. check = "equal" (the same answer as the reference)
           or "accepts" (the reference, called with the student's answer,
           succeeds). inputs = ["3", "7"] (the input arguments of each call,
           as written in a call) or inputs_from = "pile/1" (every solution of
           this reference predicate is an input). Points in proportion.
  search   the student's game (moves/2, staticval/2, max_to_move/1,
           min_to_move/1) searched by advice's minimax and alpha-beta from
           positions = ["..."] (default: its initial/1) to depth (default: the
           end): each value must be the reference game's; fewer = true asks
           alpha-beta to visit fewer positions than minimax; algorithms =
           ["minimax", "alphabeta"] (the default). Points in proportion.
  table    the student's advice table (.adv) must check, and is verified
           against defender = "perfect", "all" or "random" from the start
           positions of start_set (default: the domain's first), or a sample
           of them (sample = N, seed = S); max_moves = 100. Points in
           proportion to the positions won. The table must use domain =
           "folder/name" (a knowledge base shipped under advice's kb/; default:
           any of them), never one from the student's folder unless
           allow_own_domain = true (then one inside the submission's folder).

Each submission is graded in a process of its own, under the limits
above; one that crashes, hangs or is refused (a Prolog file is checked
before anything in it runs) loses its points, with the reason, and
nothing else. The exit code is 0 when grading ran, 2 for a bad
assignment file (file:line says where).

The example assignments (advice grade --example NAME [DIR] copies one out):
  {', '.join(example_names)}"""
