"""Grading students' work (``advice grade``).

A teacher describes an assignment in a TOML file
(:mod:`engine.grading.assignment`); :func:`grade` runs it on every
submission, each in a worker process of its own
(:mod:`engine.grading.run`, :mod:`engine.grading.worker`), and
:mod:`engine.grading.reports` writes what comes back: a Gradescope
result and a Markdown report per student, a summary for the class.
Example assignments ship under ``kb/assignments/``
(:mod:`engine.grading.examples`).

>>> from engine.grading import load_assignment, find_submissions, grade
>>> a = load_assignment("course/assignment.toml")                  # doctest: +SKIP
>>> [r.score for r in grade(a, find_submissions(["ada.pl"], a))]  # doctest: +SKIP
[7.0]
"""

from engine.grading.assignment import Assignment, AssignmentError, load_assignment
from engine.grading.examples import copy_example, examples
from engine.grading.run import find_submissions, grade
from engine.grading.worker import Submission, SubmissionResult, TestResult

__all__ = ["Assignment", "AssignmentError", "Submission", "SubmissionResult", "TestResult",
           "copy_example", "examples", "find_submissions", "grade", "load_assignment"]
