"""Grading one submission, inside the worker process that holds it.

:func:`grade_submission` runs every test point of the assignment on one
student's files, in this process's own Prolog (see
:mod:`engine.grading.run`, which starts one such process per
submission). A test point that cannot run (a file not handed in, a file
the guard refuses, a table with errors, a Prolog job past its limits)
scores 0 with the reason; the others still run.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from advice.errors import AdviceError, render_diagnostics
from engine.grading.assignment import (
    Assignment, ComparePoint, PlunitPoint, SearchPoint, TablePoint, TestPoint, load_grading_jobs,
    private_module,
)
from engine.prolog import (
    DEFAULT_SECONDS, EngineError, KBLoadError, atom, current_limits, declare_inputs, integer,
    session, string,
)
from engine.search import value_text
from engine.workers import heartbeat

#: failures shown in a test's output (the rest are counted)
SHOWN_FAILURES = 10


class Lost(Exception):
    """A test point cannot run; the message says why (for the student)."""


@dataclass(frozen=True)
class Submission:
    """What one student handed in: a folder holding the assignment's
    files, or, for an assignment of one file, that file.

    A symbolic link is never followed: a submission that is one is
    refused (:meth:`refusal`), and so is a file in it that is one
    (:meth:`file`), with a note saying so, so that a submission cannot
    hand in the reference solution, another student's file or any file
    of the machine by naming it.
    """

    student: str
    path: Path

    def refusal(self) -> str | None:
        """Why the whole submission is refused (its path is a symbolic
        link), or None."""
        if self.path.is_symlink():
            return f"{self.path.name} is a symbolic link: refused"
        return None

    def file(self, name: str) -> Path | None:
        """The submitted file the assignment calls ``name``, if handed in.
        Raises :class:`Lost` when it (or the submission) is a symbolic link."""
        refused = self.refusal()
        if refused:
            raise Lost(refused)
        if self.path.is_dir():
            found = self.path / name
            if found.is_symlink():
                raise Lost(f"{self.path.name}/{name} is a symbolic link: refused")
            return found if found.is_file() else None
        return self.path

    def holds(self, path: Path) -> bool:
        """Whether ``path`` lies in the submission (the folder, or the one
        file), with no symbolic link on the way from it."""
        root = Path(os.path.abspath(self.path))
        path = Path(os.path.abspath(path))
        if path != root and not (self.path.is_dir() and path.is_relative_to(root)):
            return False
        return not root.is_symlink() and self.link_on_the_way(path) is None

    def link_on_the_way(self, path: Path) -> str | None:
        """The first symbolic link on the way from the submission's folder
        to ``path`` (as ``student/folder``), if ``path`` lies in it and
        there is one."""
        root = Path(os.path.abspath(self.path))
        path = Path(os.path.abspath(path))
        if not (self.path.is_dir() and path.is_relative_to(root)):
            return None
        step = root
        for part in path.relative_to(root).parts:
            step = step / part
            if step.is_symlink():
                return f"{root.name}/{step.relative_to(root)}"
        return None


@dataclass(frozen=True)
class TestResult:
    """One graded test, as Gradescope reads it."""

    name: str
    score: float
    max_score: float
    output: str


@dataclass(frozen=True)
class SubmissionResult:
    """The results of one submission; ``problem`` says why it lost every
    point, when something ended its grading (its worker died)."""

    student: str
    path: str
    tests: tuple[TestResult, ...]
    problem: str | None = None

    @property
    def score(self) -> float:
        """The points earned."""
        return round(sum(t.score for t in self.tests), 2)

    @property
    def max_score(self) -> float:
        """The points there were."""
        return round(sum(t.max_score for t in self.tests), 2)


def quiet() -> None:
    """Send what this process prints nowhere: a student's code must not
    write over the teacher's terminal or the command's JSON (what the
    grading jobs capture goes to the reports instead)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def grade_submission(assignment: Assignment, state: None,
                     submission: Submission) -> SubmissionResult:
    """Run every test point of ``assignment`` on ``submission`` (the work
    of a grading worker; ``state`` is its set-up's, unused)."""
    refused = submission.refusal()
    if refused:
        return SubmissionResult(submission.student, str(submission.path),
                                lost_results(assignment, refused), refused)
    grader = _Grader(assignment, submission)
    try:
        grader.load_teachers_files()
    except (Lost, EngineError) as error:
        return SubmissionResult(submission.student, str(submission.path),
                                lost_results(assignment, str(error)), str(error))
    results: list[TestResult] = []
    for point in assignment.tests:
        heartbeat()
        results += grader.grade(point)
    return SubmissionResult(submission.student, str(submission.path), tuple(results))


def lost_results(assignment: Assignment, reason: str) -> tuple[TestResult, ...]:
    """Every test of ``assignment`` at 0 points, for ``reason``."""
    return tuple(TestResult(name, 0.0, points, reason) for name, points in assignment.plan())


def _share(points: float, passed: int, cases: int) -> float:
    return round(points * passed / cases, 2) if cases else 0.0


class _Grader:
    """Loads the teacher's files, then a submission's, once, and grades.

    Every file goes into a context module of its own with a name no
    submission can know (:func:`private_module`), and the grading jobs
    (``kb/grading/grading.pl``) into one more, never into ``user``,
    whose predicates every module sees: nothing of the grader's or the
    reference's is visible from a submission's code. The teacher's
    trusted files (the grading jobs, the reference, the plunit tests)
    load before anything of the student's (:meth:`load_teachers_files`);
    a submitted file whose module/2 header names a module that exists
    already is refused, never merged with it.
    """

    def __init__(self, assignment: Assignment, submission: Submission):
        self.assignment = assignment
        self.submission = submission
        self._contexts: dict[str, str] = {}   # a submitted file's name -> its context
        self._loaded: set[str] = set()        # the submitted files loaded
        self._refused: dict[str, str] = {}    # a submitted file's name -> why refused
        self._reference: str | None = None
        self._reference_file: str | None = None  # a submitted file that is the reference
        self.seconds = current_limits().seconds or DEFAULT_SECONDS

    def grade(self, point: TestPoint) -> list[TestResult]:
        """The results of one test point (one per plunit test)."""
        try:
            if isinstance(point, PlunitPoint):
                return self._plunit(point)
            if isinstance(point, ComparePoint):
                return [self._compare(point)]
            if isinstance(point, SearchPoint):
                return [self._search(point)]
            return [self._table(point)]
        except (Lost, EngineError, AdviceError) as error:  # a table's errors, with carets
            names = ([point.test_name(t) for t in point.tests]
                     if isinstance(point, PlunitPoint) else [point.name])
            reason = self._own(str(error))
            return [TestResult(name, 0.0, point.points, reason) for name in names]

    # -- loading -----------------------------------------------------------------

    def load_teachers_files(self) -> None:
        """Load what the teacher wrote, before any of the student's files:
        the grading jobs, the reference (when a test needs it) and each
        plunit file, into the context its submitted file will load into
        (so that the tests call the student's predicates by their names,
        and nothing of the student's rewrites them)."""
        load_grading_jobs()
        declare_inputs([self.submission.path])  # what the wall lets it read
        points = self.assignment.tests
        reference = self.assignment.reference
        if reference is not None and any(isinstance(p, (ComparePoint, SearchPoint))
                                         for p in points):
            handed_in = self._handed_in(reference)
            if handed_in is not None:  # the teacher grades the reference itself
                self._reference_file = handed_in
            else:
                self._reference = self._load(reference, private_module("reference"),
                                             trusted=True)
        for point in points:
            if isinstance(point, PlunitPoint):
                self._load(point.tests_file, self._context(point.file), trusted=True)

    def _handed_in(self, reference: Path) -> str | None:
        """The name of the submitted file that is the reference file
        itself (the teacher grading the reference), if one is."""
        for name in self.assignment.files:
            try:
                path = self.submission.file(name)
                if path is not None and os.path.samefile(path, reference):
                    return name
            except (Lost, OSError):
                continue
        return None

    def _reference_module(self) -> str:
        """The reference's module (the submitted file's, when it is the
        reference file itself)."""
        if self._reference is None and self._reference_file is not None:
            return self._module(self._reference_file)
        return self._reference

    def _context(self, name: str) -> str:
        """The context module of the submitted file ``name``."""
        return self._contexts.setdefault(name, private_module("submission"))

    def _file(self, name: str) -> Path:
        path = self.submission.file(name)
        if path is None:
            raise Lost(f"{name} was not handed in ({self.submission.path} holds no {name})")
        return path

    def _module(self, name: str) -> str:
        """The module of the submitted Prolog file ``name``: loaded (guarded)
        into its context, after the teacher's plunit files that test it."""
        if name in self._refused:
            raise Lost(self._refused[name])
        if name not in self._loaded:
            try:
                path = self._file(name)
                self._fresh_module(path)
                self._load(path, self._context(name))
            except Lost as error:
                self._refused[name] = str(error)
                raise
            self._loaded.add(name)
        return self._contexts[name]

    def _fresh_module(self, path: Path) -> None:
        """Raise :class:`Lost` when the module/2 header of the submitted
        file ``path`` names a module that exists in this Prolog already
        (the grader's, a teacher's file's, a library's): loading would
        merge the file with it."""
        answer = self._ask(f"grading:taken_module_json({atom(str(path.absolute()))}, Out)",
                           f"reading the module header of {path.name}")
        if answer["taken"]:
            raise Lost(f"{path.name} was not loaded:\n{path.resolve()}:{answer['line']}: the "
                       f"module name {answer['module']} is taken (by the grader, a library or a "
                       "file loaded before it): give the file a module name of its own")

    def _load(self, path: Path, context: str, trusted: bool | None = None) -> str:
        """Load ``path`` into the module ``context`` (a teacher's file
        ``trusted``; a student's guarded); returns ``context``."""
        try:
            session().load_file(path.resolve(), context=context, trusted=trusted)
        except EngineError as error:
            raise Lost(f"{path.name} was not loaded:\n{error}") from None
        return context

    def _own(self, text: str) -> str:
        """``text`` (for the student's report) without what it would quote
        of a file outside the submission: a line that starts with such a
        file's name says only that it was not shown."""
        lines = []
        for line in text.splitlines():
            named = re.match(r"(/[^:\n]*):", line)
            if named and not self._inside(Path(named[1])):
                line = "(a line about a file outside the submission, not shown)"
            lines.append(line)
        kept = [line for i, line in enumerate(lines)
                if i == 0 or not (line == lines[i - 1] and line.endswith("not shown)"))]
        return "\n".join(kept)

    def _inside(self, path: Path) -> bool:
        """Whether ``path`` (as Prolog names it: resolved) is in the submission."""
        roots = {Path(os.path.abspath(self.submission.path)), self.submission.path.resolve()}
        return any(path == root or path.is_relative_to(root) for root in roots)

    def _ask(self, goal: str, what: str) -> dict:
        heartbeat()
        return json.loads(session().ask(goal, seconds=self.seconds, what=what))

    # -- the kinds ---------------------------------------------------------------

    def _plunit(self, point: PlunitPoint) -> list[TestResult]:
        self._module(point.file)
        tests = ", ".join(f"test({string(t.unit)}, {string(t.test)})" for t in point.tests)
        answer = self._ask(f"grading:plunit_job([{tests}], {point.limits.prolog()}, Out)",
                           f"the tests of {point.tests_file.name}")
        return [TestResult(point.test_name(test), point.points if r["passed"] else 0.0,
                           point.points, f"{point.tests_file.name}:{test.line}: "
                           + (r["output"] or ("passed" if r["passed"] else "failed")))
                for test, r in zip(point.tests, answer["tests"])]

    def _compare(self, point: ComparePoint) -> TestResult:
        module, reference = self._module(point.file), self._reference_module()
        (name, arity), (ref_name, ref_arity) = point.predicate, point.reference_predicate
        inputs = (f"texts([{', '.join(string(t) for t in point.inputs)}])" if point.inputs
                  else f"from({atom(point.inputs_from[0])}/{integer(point.inputs_from[1])})")
        spec = (f"compare({atom(name)}/{integer(arity)}, {atom(ref_name)}/{integer(ref_arity)}, "
                f"{integer(point.outputs)}, {atom(point.check)}, {inputs})")
        answer = self._ask(f"grading:compare_job({atom(module)}, {atom(reference)}, {spec}, "
                           f"{point.limits.prolog()}, Out)", f"comparing {name}/{arity}")
        if "error" in answer:
            raise Lost(answer["error"])
        cases, passed = answer["cases"], answer["passed"]
        lines = [f"{name}/{arity}: {passed} of {cases} inputs answered right"]
        for failure in answer["failures"][:SHOWN_FAILURES]:
            call = ", ".join([failure["input"]] + ["_"] * point.outputs)
            lines.append(f"  {name}({call}): {failure['why']}")
            if failure["printed"]:
                lines.append(f"    it printed: {failure['printed'].strip()}")
        if cases - passed > SHOWN_FAILURES:
            lines.append(f"  ... and {cases - passed - SHOWN_FAILURES} more")
        return TestResult(point.name, _share(point.points, passed, cases), point.points,
                          "\n".join(lines))

    def _search(self, point: SearchPoint) -> TestResult:
        module, reference = self._module(point.file), self._reference_module()
        starts = (", ".join(f"typed({string(p)})" for p in point.positions)
                  if point.positions else "initial")
        spec = (f"search([{starts}], [{', '.join(point.algorithms)}], "
                f"{'inf' if point.depth is None else integer(point.depth)})")
        answer = self._ask(f"grading:search_point_job({atom(module)}, {atom(reference)}, {spec}, "
                           f"{point.limits.prolog()}, Out)", "searching your game")
        lines, passed = [], 0
        for case in answer["positions"]:
            problems = _search_problems(case, point.fewer)
            passed += not problems
            values = ", ".join(f"{r['algo']} {value_text(r['value'])} ({r['nodes']:,} positions)"
                               for r in case["results"] if r["why"] == "")
            lines.append(f"{case['position']}: {'passed' if not problems else 'failed'}"
                         f"{': ' + values if values else ''}")
            lines += [f"  {problem}" for problem in problems]
        return TestResult(point.name, _share(point.points, passed, len(answer["positions"])),
                          point.points, "\n".join(lines))

    def _table(self, point: TablePoint) -> TestResult:
        from engine.tables import load_table
        from engine.verify import VerifyJob, verify_here

        path = self._file(point.file)
        self._check_domain(point, path)
        try:
            table = load_table(path)  # an AdviceError (the table's errors) costs the test
        except KBLoadError as error:
            raise Lost(f"{point.file}: its knowledge base was not loaded:\n{error}") from None
        heartbeat()
        report = verify_here(VerifyJob(str(path), point.defender, point.start_set,
                                       point.sample, point.seed, "compiled", point.max_moves),
                             seconds=self.seconds)
        return TestResult(point.name, _share(point.points, report["successes"],
                                             report["positions"]),
                          point.points, _table_output(report, table, path))


    def _check_domain(self, point: TablePoint, path: Path) -> None:
        """Raise :class:`Lost` unless the table at ``path`` uses the
        assignment's knowledge base (see :class:`TablePoint`), before the
        table loads. The table is read, and its knowledge base loaded only
        when it is one shipped with advice or a file in the submission's
        folder (with no link on the way): nothing outside the submission
        is read. A file of the student's loads (guarded) before it is
        judged, so that one the guard refuses says why."""
        from engine.grading.assignment import is_shipped_domain
        from engine.tables import domain_file, parse_file

        table = parse_file(path)  # an AdviceError (the table's errors) costs the test
        if table.uses is not None:  # a link in the folder is not followed, to kb/ neither
            written = table.uses if table.uses.endswith(".pl") else table.uses + ".pl"
            beside = Path(os.path.abspath(path.parent / written))
            link = self.submission.link_on_the_way(beside)
            if link is not None and os.path.lexists(beside):
                raise Lost(f"{link} is a symbolic link: refused")
        used = domain_file(table)  # resolved; an AdviceError when there is none
        shipped = is_shipped_domain(used)
        if not shipped:
            if not (self.submission.path.is_dir() and self.submission.holds(beside)
                    and beside.resolve() == used):
                raise Lost(f"{point.file} uses {table.uses}, which is not a file in the "
                           "submission's folder: a table of this assignment must use "
                           + ("a knowledge base shipped with advice or one handed in "
                              "with it" if point.allow_own_domain else self._wanted(point)))
            # the student's file walls this process in (engine.sandbox), and a
            # walled process writes only its scratch folder: the table it
            # compiles goes to a cache there, for this submission alone
            os.environ["ADVICE_CACHE_DIR"] = str(Path(session().scratch) / "cache")
            try:
                session().load_file(used)
            except KBLoadError as error:
                raise Lost(f"{point.file}: its knowledge base was not loaded:\n"
                           f"{error}") from None
        if point.domain is not None:
            if used == point.domain:
                return
        elif shipped or point.allow_own_domain:
            return
        what = "another knowledge base" if shipped else "a knowledge base of its own"
        raise Lost(f"{point.file} uses {table.uses}, {what}: a table of this "
                   f"assignment must use {self._wanted(point)}")

    @staticmethod
    def _wanted(point: TablePoint) -> str:
        return point.domain_name or "one shipped with advice (under its kb/)"


def _search_problems(case: dict, fewer: bool) -> list[str]:
    """What is wrong with the student's game at one position ([] if nothing)."""
    if case["why"]:
        return [case["why"]]
    problems = [r["why"] for r in case["results"] if r["why"]]
    problems += [f"{r['algo']} finds the value {value_text(r['value'])}; it is "
                 f"{value_text(case['expected'])}"
                 for r in case["results"] if not r["why"] and r["value"] != case["expected"]]
    nodes = {r["algo"]: r["nodes"] for r in case["results"] if not r["why"]}
    if fewer and len(nodes) == 2 and nodes["alphabeta"] >= nodes["minimax"]:
        problems.append(f"alphabeta visits {nodes['alphabeta']:,} positions, no fewer than "
                        f"minimax's {nodes['minimax']:,}")
    return problems


def _table_output(report: dict, table, path: Path) -> str:
    """A verification in words: how many positions were won, and the first
    failures as the domain writes positions (FEN for chess) with the game."""
    against = ("every defence" if report["defender"] == "all"
               else f"the {report['defender']} defender")
    of = (f" (a sample of the {report['population']:,} start positions)" if report["sample"]
          else "")
    lines = [f"table {table.table.name}: succeeds from {report['successes']:,} of "
             f"{report['positions']:,} positions{of} against {against}"]
    if table.warnings:
        lines.append(f"{len(table.warnings)} warnings:")
        lines.append(render_diagnostics(table.warnings, table.table.source))
    failures = report["counterexamples"]
    if failures:
        lines.append("it fails from:")
    for failure in failures[:SHOWN_FAILURES]:
        if "fen" in failure:
            position, game = failure["fen"], _numbered(failure["fen"], failure["line"])
        else:
            position, game = failure["position"], " ".join(failure["line"])
        lines.append(f"  {position}  ({failure['result'].replace('_', ' ')}): "
                     f"{game or '(no move)'}")
    if len(failures) > SHOWN_FAILURES:
        lines.append(f"  ... and {len(failures) - SHOWN_FAILURES} more")
    return "\n".join(lines)


def _numbered(fen: str, moves: list[str]) -> str:
    """A chess game from ``fen`` with move numbers: ``1. Kc2 Kg4 2. Rf1``
    (``1... Kg4`` when Black moves first)."""
    number = int(fen.split()[5]) if len(fen.split()) > 5 else 1
    words, white = [], fen.split()[1] == "w"
    if not white and moves:
        words.append(f"{number}...")
    for move in moves:
        if white:
            words.append(f"{number}.")
        else:
            number += 1
        words.append(move)
        white = not white
    return " ".join(words)
