"""Linting a game for the searches (``advice check --kb FILE.pl``).

:func:`lint` walks the positions of a game breadth-first from its start,
within a bound, in one Prolog job (``kb/search/lint.pl``), and reports
what is wrong with the game's predicates, each kind of fault once with
the number of positions where it is and the first few of them:
``moves/2`` raising an error, giving something other than a list, a
successor that is not a ground term or not a position of the game, more
than one solution, a choice point, the same successor twice;
``staticval/2`` failing, raising an error or giving something other than
a number; ``max_to_move/1`` and ``min_to_move/1`` raising an error, or
not exactly one of them holding.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.games import Game, run_job
from engine.prolog import DEFAULT_SECONDS, BadInput, atom, integer
from engine.search import load_game, resolve_game, start_of

#: how many positions :func:`lint` examines by default
DEFAULT_POSITIONS = 10_000
#: how many positions a finding shows
SHOWN = 3


@dataclass(frozen=True)
class Example:
    """A position where a fault is (``~q``), and the fault in words."""

    position: str
    text: str


@dataclass(frozen=True)
class Finding:
    """One kind of fault: ``kind`` (e.g. ``staticval_failed``), the
    ``predicate`` at fault, where it is defined (``file``, and the
    ``line`` of its first clause where there is one), ``summary`` (what
    is wrong, in words), ``count`` (the positions where it is) and the
    first of them (``examples``)."""

    kind: str
    predicate: str
    file: str
    line: int | None
    summary: str
    count: int
    examples: tuple[Example, ...]

    @property
    def where(self) -> str:
        """``file:line``, or the file alone."""
        return self.file if self.line is None else f"{self.file}:{self.line}"

    @property
    def headline(self) -> str:
        """The finding in one line: where, what, and on how many positions."""
        return f"{self.where}: {self.summary} on {_positions(self.count)}"


@dataclass(frozen=True)
class LintReport:
    """What :func:`lint` found: the game, its file, the start positions
    (``~q``), how many positions were examined (``positions``), the
    deepest of them in moves from a start (``depth``), whether they are
    every position reachable from the start (``complete``), the
    ``findings``, and the warnings of loading the file."""

    game: str
    file: str
    starts: tuple[str, ...]
    positions: int
    depth: int
    complete: bool
    findings: tuple[Finding, ...]
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether nothing was found."""
        return not self.findings

    def as_dict(self) -> dict:
        """The report as plain data (for ``--json``)."""
        return {
            "game": self.game, "file": self.file, "ok": self.ok, "starts": list(self.starts),
            "positions": self.positions, "depth": self.depth, "complete": self.complete,
            "findings": [{"kind": f.kind, "predicate": f.predicate, "file": f.file,
                          "line": f.line, "summary": f.summary, "count": f.count,
                          "examples": [{"position": e.position, "text": e.text}
                                       for e in f.examples]}
                         for f in self.findings],
            "warnings": list(self.warnings),
        }

    def text(self) -> str:
        """The report for people: each finding with its first positions,
        then one line saying what was examined."""
        lines = []
        for finding in self.findings:
            lines.append(finding.headline)
            lines.extend(f"    {example.text}" for example in finding.examples)
            if finding.count > len(finding.examples):
                lines.append(f"    ... and {finding.count - len(finding.examples):,} more")
        if self.complete:
            scope = "every position reachable from the start"
        else:
            scope = (f"the first breadth-first from the start, to depth {self.depth}: "
                     "--positions and --depth examine more")
        found = (f"{len(self.findings)} kind{'s' if len(self.findings) != 1 else ''} of fault"
                 if self.findings else "no fault")
        lines.append(f"{self.file}: {found} in {_positions(self.positions)} ({scope})")
        return "\n".join(lines)


def _positions(n: int) -> str:
    return f"{n:,} position{'s' if n != 1 else ''}"


def lint(
    game: str | Game,
    position: str | None = None,
    *,
    kb_file: str | None = None,
    positions: int = DEFAULT_POSITIONS,
    depth: int | None = None,
    seconds: float = DEFAULT_SECONDS,
) -> LintReport:
    """Lint a game: its positions breadth-first from the start, at most
    ``positions`` of them and none more than ``depth`` moves away (None:
    no limit). ``game`` is a shipped game's name or a :class:`Game`;
    ``kb_file`` names a student's ``.pl`` instead. The start is
    ``position`` as the game reads it, or (None) every solution of the
    game's ``initial/1``. Raises :class:`BadInput` for bounds that are
    not positive and for a game with no start position.
    """
    if positions < 1:
        raise BadInput(f"--positions must be at least 1, not {positions}")
    if depth is not None and depth < 0:
        raise BadInput(f"--depth must be at least 0, not {depth}")
    g = resolve_game(game, kb_file)
    kb = load_game(g)
    start = start_of(g, kb, position)
    data = run_job(
        f"search_jobs:lint_job({atom(kb.module)}, {start.prolog()}, {integer(positions)}, "
        f"{'inf' if depth is None else integer(depth)}, Out)",
        seconds=seconds, what=f"linting {g.name}",
    )
    if not data["starts"]:
        raise BadInput(f"{g.kb_file}: initial/1 gives no position: give one with --position")
    findings = tuple(
        Finding(f["kind"], f["predicate"], f["file"], f["line"], f["summary"], f["count"],
                tuple(Example(e["position"], e["text"]) for e in f["examples"]))
        for f in data["findings"])
    return LintReport(g.name, str(g.kb_file), tuple(data["starts"]), data["positions"],
                      data["depth"], data["complete"], findings, kb.warnings)

