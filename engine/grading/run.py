"""Grading a class: every submission in a worker process of its own.

:func:`grade` runs :func:`engine.grading.worker.grade_submission` for
each submission in an isolated :class:`~engine.workers.WorkerPool`: a
fresh process per submission, under the engine's limits (time per
Prolog job, inferences, memory), whose output goes nowhere. A
submission whose worker dies (halt, memory) or falls silent for longer
than :func:`worker_deadline` loses its points, with the reason; the
others are graded as if nothing happened. With ``cluster="ray"`` the
same isolated workers run on the nodes of a Ray cluster
(:class:`engine.cluster.RayPool`).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Callable, Iterable

from engine import sandbox
from engine.cluster import pool_for
from engine.grading.assignment import Assignment
from engine.grading.worker import (
    Submission, SubmissionResult, grade_submission, lost_results, quiet,
)
from engine.prolog import (
    DEFAULT_SECONDS, BadInput, EngineError, current_limits, kb_path, user_files_trusted,
)


def find_submissions(paths: Iterable[str], assignment: Assignment) -> list[Submission]:
    """The submissions the paths name: each a student's folder (named
    after it), or for an assignment of one file, a student's file (named
    after its stem). A symbolic link is a submission too, named after
    the link, and never followed: it is graded as refused, with a note
    (:meth:`Submission.refusal`). Raises :class:`BadInput` for a path
    that is missing, inside the engine's own ``kb`` folder (whose files
    load unchecked), or a second submission of the same name."""
    found: dict[str, Submission] = {}
    kb = kb_path("").resolve()
    for text in paths:
        path = Path(text)
        if path.is_symlink():  # never followed: graded as refused (Submission.refusal)
            student = path.stem if path.suffix in (".pl", ".adv") else path.name
        elif not path.exists():
            raise BadInput(f"{text}: no such file or folder")
        elif path.resolve().is_relative_to(kb):
            raise BadInput(f"{text}: is inside advice's own kb folder, whose files are "
                           "loaded unchecked: copy it out first (advice grade --example "
                           "copies an example assignment out)")
        elif path.is_dir():
            student = Path(os.path.abspath(path)).name
        elif len(assignment.files) > 1:
            raise BadInput(f"{text}: the assignment asks for {len(assignment.files)} files "
                           f"({', '.join(assignment.files)}): give each student's folder")
        else:
            student = path.stem
        if student in found:
            raise BadInput(f"{text}: two submissions are named {student} "
                           f"({found[student].path} and {text})")
        found[student] = Submission(student, path)
    return list(found.values())


def worker_deadline() -> float:
    """How long a grading worker may go without a word before it is ended:
    three Prolog jobs' time (``--time-limit``, else the default) and ten
    seconds. Between two words it runs at most a test point's loading
    and one job, each under that time limit."""
    return 3 * (current_limits().seconds or DEFAULT_SECONDS) + 10


def grade(assignment: Assignment, submissions: list[Submission], jobs: int = 1,
          progress: Callable[[int, int], None] | None = None, *,
          cluster: str | None = None, address: str | None = None) -> list[SubmissionResult]:
    """Grade every submission, ``jobs`` at a time (at most the cores here,
    unless on a ``cluster``: ``"ray"``, at ``address`` as in
    :class:`engine.cluster.RayPool`); the results come in the order of
    ``submissions``. ``progress(done, total)`` is called as each
    submission is graded."""
    cores = os.cpu_count() or 1
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")
    make_pool = pool_for(cluster, address)
    if jobs > cores and cluster is None:
        raise BadInput(f"--jobs {jobs} is more than the {cores} cores here (each job is a "
                       "process with a Prolog of its own)")
    results: dict[str, SubmissionResult] = {}
    if not user_files_trusted():
        sandbox.announce()  # what the workers' wall lacks here, said once
    if progress:
        progress(0, len(submissions))
    for submission in submissions:  # a symbolic link: refused, not followed
        refused = submission.refusal()
        if refused:
            results[submission.student] = SubmissionResult(
                submission.student, str(submission.path),
                lost_results(assignment, refused), refused)
    todo = [s for s in submissions if s.student not in results]
    if progress and results:
        progress(len(results), len(submissions))
    if not todo:
        return [results[s.student] for s in submissions]
    with make_pool(min(jobs, len(todo)), quiet, (),
                   partial(grade_submission, assignment), describe=_submission_words,
                   isolated=True, deadline=worker_deadline()) as pool:
        for submission, result in pool.run(todo):
            if not isinstance(result, SubmissionResult):
                reason = str(result) if isinstance(result, EngineError) else \
                    f"grading stopped: {type(result).__name__}: {result}"
                result = SubmissionResult(submission.student, str(submission.path),
                                          lost_results(assignment, reason), reason)
            results[submission.student] = result
            if progress:
                progress(len(results), len(submissions))
    return [results[s.student] for s in submissions]


def _submission_words(submission: Submission) -> str:
    return f"the submission {submission.path}"
