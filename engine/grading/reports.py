"""What grading gives back: for each submission a result in the shape
Gradescope reads and a Markdown report the student can read; for the
class a summary table (CSV and Markdown)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from engine.grading.assignment import Assignment, PlunitPoint
from engine.grading.worker import SubmissionResult

#: the files of the class's summary in a report folder (a student may not
#: have these names)
SUMMARY = "summary"


def gradescope(result: SubmissionResult) -> dict:
    """The result as Gradescope's ``results.json``: ``score``, ``tests``
    (each ``name``, ``score``, ``max_score``, ``output``), and an
    ``output`` saying why the submission lost everything, when it did."""
    data = {"score": result.score,
            "tests": [{"name": t.name, "score": t.score, "max_score": t.max_score,
                       "output": t.output} for t in result.tests]}
    if result.problem:
        data["output"] = result.problem
    return data


def _points(value: float) -> str:
    return f"{value:g}"


def student_report(result: SubmissionResult, assignment: Assignment) -> str:
    """The Markdown report of one submission: the score, a table of the
    tests, then what each test that lost points says."""
    out = [f"# {assignment.title}", "",
           f"**{result.student}**: {_points(result.score)} of "
           f"{_points(result.max_score)} points", ""]
    if result.problem:
        out += ["Grading stopped, and every test lost its points:", "",
                _fenced(result.problem), ""]
    out += ["| test | points | |", "|---|---|---|"]
    for t in result.tests:
        verdict = "passed" if t.score == t.max_score else \
            "failed" if t.score == 0 else "partly"
        out.append(f"| {_cell(t.name)} | {_points(t.score)} / {_points(t.max_score)} | "
                   f"{verdict} |")
    lost = [t for t in result.tests if t.score < t.max_score and t.output != result.problem]
    if lost:
        out += ["", "## What to look at"]
    for output in dict.fromkeys(t.output for t in lost):  # each reason once
        names = [t for t in lost if t.output == output]
        out += ["", "### " + ", ".join(f"{t.name} ({_points(t.score)} / "
                                       f"{_points(t.max_score)})" for t in names), "",
                _fenced(output)]
    return "\n".join(out) + "\n"


def _fenced(text: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}\n{text}\n{fence}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _columns(assignment: Assignment) -> list[tuple[str, float]]:
    """The summary's columns: each test point, with its points (a plunit
    point sums its tests)."""
    return [(p.name, p.points * (len(p.tests) if isinstance(p, PlunitPoint) else 1))
            for p in assignment.tests]


def _row(result: SubmissionResult, assignment: Assignment) -> list:
    by_point = []
    for point in assignment.tests:
        names = ({point.test_name(t) for t in point.tests} if isinstance(point, PlunitPoint)
                 else {point.name})
        by_point.append(round(sum(t.score for t in result.tests if t.name in names), 2))
    return [result.student, result.score, result.max_score, *by_point, _note(result)]


def _note(result: SubmissionResult) -> str:
    """Why a submission lost every point for one reason (its worker died,
    its file was refused), in a line; else nothing."""
    if result.problem:
        return result.problem
    outputs = {t.output for t in result.tests}
    if result.score == 0 and len(outputs) == 1:
        return " ".join(outputs.pop().split())
    return ""


def summary_csv(results: list[SubmissionResult], assignment: Assignment) -> str:
    """The class's scores as CSV: student, score, max_score, one column
    per test point, and a note: why a submission lost every point, when
    one reason did (its worker died, its file was refused)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "score", "max_score",
                     *[name for name, _ in _columns(assignment)], "note"])
    for result in results:
        writer.writerow([_points(v) if isinstance(v, float) else v
                         for v in _row(result, assignment)])
    return out.getvalue()


def summary_markdown(results: list[SubmissionResult], assignment: Assignment) -> str:
    """The class's scores as a Markdown table."""
    columns = _columns(assignment)
    out = [f"# {assignment.title}", "",
           f"{len(results)} submission{'s' if len(results) != 1 else ''}, "
           f"{_points(assignment.max_score)} points", "",
           "| student | score | " + " | ".join(f"{_cell(n)} ({_points(p)})"
                                               for n, p in columns) + " | note |",
           "|---|---|" + "---|" * len(columns) + "---|"]
    for result in results:
        student, score, top, *points, note = _row(result, assignment)
        out.append(f"| {_cell(student)} | {_points(score)} / {_points(top)} | "
                   + " | ".join(_points(p) for p in points) + f" | {_cell(note)} |")
    return "\n".join(out) + "\n"


def class_json(results: list[SubmissionResult], assignment: Assignment) -> dict:
    """Everything as one JSON object (``advice grade --json``)."""
    return {"assignment": {"title": assignment.title, "file": str(assignment.path),
                           "max_score": assignment.max_score},
            "submissions": [{"student": r.student, "path": r.path, "score": r.score,
                             "max_score": r.max_score, "results": gradescope(r)}
                            for r in results]}


def write_reports(folder: Path, results: list[SubmissionResult],
                  assignment: Assignment) -> list[Path]:
    """Write ``STUDENT.json`` (Gradescope's shape) and ``STUDENT.md`` for
    every submission, and ``summary.csv`` and ``summary.md`` for the
    class, into ``folder`` (made when missing); returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for result in results:
        for suffix, text in ((".json", json.dumps(gradescope(result), indent=2) + "\n"),
                             (".md", student_report(result, assignment))):
            written.append(folder / f"{result.student}{suffix}")
            written[-1].write_text(text, encoding="utf-8")
    for suffix, text in ((".csv", summary_csv(results, assignment)),
                         (".md", summary_markdown(results, assignment))):
        written.append(folder / f"{SUMMARY}{suffix}")
        written[-1].write_text(text, encoding="utf-8")
    return written
