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
from dataclasses import dataclass
from pathlib import Path

from advice.errors import AdviceError, render_diagnostics
from engine.grading.assignment import (
    Assignment, ComparePoint, PlunitPoint, SearchPoint, TablePoint, TestPoint,
)
from engine.prolog import (
    DEFAULT_SECONDS, EngineError, KBLoadError, atom, current_limits, integer, session, string,
)
from engine.search import value_text
from engine.workers import heartbeat

#: failures shown in a test's output (the rest are counted)
SHOWN_FAILURES = 10


@dataclass(frozen=True)
class Submission:
    """What one student handed in: a folder holding the assignment's
    files, or, for an assignment of one file, that file."""

    student: str
    path: Path

    def file(self, name: str) -> Path | None:
        """The submitted file the assignment calls ``name``, if handed in."""
        if self.path.is_dir():
            found = self.path / name
            return found if found.is_file() else None
        return self.path


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


class Lost(Exception):
    """A test point cannot run; the message says why (for the student)."""


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
    grader = _Grader(assignment, submission)
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
    """Loads a submission's files and the reference once, and grades."""

    def __init__(self, assignment: Assignment, submission: Submission):
        self.assignment = assignment
        self.submission = submission
        self._modules: dict[Path, str] = {}
        self._refused: dict[Path, str] = {}
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
            return [TestResult(name, 0.0, point.points, str(error)) for name in names]

    # -- loading -----------------------------------------------------------------

    def _file(self, name: str) -> Path:
        path = self.submission.file(name)
        if path is None:
            raise Lost(f"{name} was not handed in ({self.submission.path} holds no {name})")
        return path

    def _module(self, name: str) -> str:
        """The module of the submitted Prolog file ``name``: loaded (guarded)
        after the teacher's plunit files that test it, so that they see
        its predicates and nothing of it rewrites them."""
        return self._load(self._file(name), [p.tests_file for p in self.assignment.tests
                                             if isinstance(p, PlunitPoint) and p.file == name])

    def _reference(self) -> str:
        return self._load(self.assignment.reference, [], trusted=True)

    def _load(self, path: Path, tests: list[Path], trusted: bool | None = None) -> str:
        path = path.resolve()
        if path in self._refused:
            raise Lost(self._refused[path])
        if path not in self._modules:
            module = f"graded_{len(self._modules) + 1}"
            s = session()
            try:
                for test_file in tests:
                    s.load_file(test_file, context=module, trusted=True)
                s.load_file(path, context=module, trusted=trusted)
            except EngineError as error:
                self._refused[path] = f"{path.name} was not loaded:\n{error}"
                raise Lost(self._refused[path]) from None
            self._modules[path] = module
        return self._modules[path]

    def _ask(self, goal: str, what: str) -> dict:
        heartbeat()
        s = session()
        s.use_module("grading/grading.pl")
        return json.loads(s.ask(goal, seconds=self.seconds, what=what))

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
        module, reference = self._module(point.file), self._reference()
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
        module, reference = self._module(point.file), self._reference()
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
