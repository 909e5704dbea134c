"""The abstract syntax tree of an advice table.

Every node is a small immutable (frozen) dataclass carrying the
:class:`Span` of the source text it came from, so that later stages (the
checker, the compiler, run-time reports) can point at the exact place in the
``.adv`` file.

A table::

    table krk "King and rook versus king"
    uses chess/krk

    rule edge_rule:
        if their_king_edge and kings_close
        then mate_in_2, squeeze

    advice mate_in_2:
        better:  mate
        holding: not rooklost and their_king_edge
        us:      depth = 0 and legal then depth = 2 and checkmove
        them:    depth = 1 and legal

parses to ``Table(name='krk', title='King and rook versus king',
uses='chess/krk', rules=(Rule(...),), advices=(Advice(...),), ...)``.

Goals are built from :class:`GoalOr`, :class:`GoalAnd`, :class:`GoalNot`,
:class:`GoalTrue`, :class:`GoalFalse` and :class:`GoalPred`; move
constraints from :class:`MoveThen`, :class:`MoveAnd`, :class:`DepthTest`,
:class:`NoMove` and :class:`MovePred`; literal arguments are
:class:`IntLit`, :class:`AtomLit` and :class:`StrLit`.  ``GoalOr``,
``GoalAnd``, ``MoveThen`` and ``MoveAnd`` are n-ary (two or more operands,
in source order); a single operand is never wrapped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

__all__ = [
    "Span",
    "Name",
    "IntLit",
    "AtomLit",
    "StrLit",
    "Literal",
    "GoalOr",
    "GoalAnd",
    "GoalNot",
    "GoalTrue",
    "GoalFalse",
    "GoalPred",
    "Goal",
    "MoveThen",
    "MoveAnd",
    "DepthTest",
    "NoMove",
    "MovePred",
    "Move",
    "AdvicePart",
    "Advice",
    "Rule",
    "Table",
    "PART_KINDS",
    "goal_predicates",
    "move_predicates",
    "move_alternatives",
]


@dataclass(frozen=True)
class Span:
    """A region of source text.

    ``line`` and ``column`` are 1-based and point at the first character;
    ``end_line``/``end_column`` point just *after* the last character (as
    lark reports them), so a one-character token at column 5 has
    ``column=5, end_column=6``.

    >>> Span("krk.adv", 3, 5, 3, 9)
    Span(file='krk.adv', line=3, column=5, end_line=3, end_column=9)
    """

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Name:
    """A name as written in the source, with its span (e.g. an advice name in a rule)."""

    value: str
    span: Span

    def __str__(self) -> str:
        return self.value


# ---------------------------------------------------------------- literals


@dataclass(frozen=True)
class IntLit:
    """An integer literal argument, e.g. the ``3`` of ``room_below(3)``."""

    value: int
    span: Span


@dataclass(frozen=True)
class AtomLit:
    """A name used as a literal argument; it becomes a Prolog atom."""

    value: str
    span: Span


@dataclass(frozen=True)
class StrLit:
    """A double-quoted string literal argument (escapes already decoded)."""

    value: str
    span: Span


Literal = Union[IntLit, AtomLit, StrLit]


# ------------------------------------------------------------------- goals


@dataclass(frozen=True)
class GoalOr:
    """``A or B or ...``: holds when some operand holds (two or more operands)."""

    operands: tuple["Goal", ...]
    span: Span


@dataclass(frozen=True)
class GoalAnd:
    """``A and B and ...``: holds when every operand holds (two or more operands)."""

    operands: tuple["Goal", ...]
    span: Span


@dataclass(frozen=True)
class GoalNot:
    """``not A``: negation as failure."""

    operand: "Goal"
    span: Span


@dataclass(frozen=True)
class GoalTrue:
    """``true``: always holds."""

    span: Span


@dataclass(frozen=True)
class GoalFalse:
    """``false``: never holds."""

    span: Span


@dataclass(frozen=True)
class GoalPred:
    """A goal predicate of the KB with optional literal arguments.

    ``room_below(3)`` is ``GoalPred(name='room_below', args=(IntLit(3),))``.
    With k literal arguments it is called as ``name(Lits..., Pos)`` or
    ``name(Lits..., Pos, Root)`` (see ``advice.checker.resolve_goal_arity``).
    ``name_span`` covers the name alone, ``span`` the name and its arguments.
    """

    name: str
    args: tuple[Literal, ...]
    span: Span
    name_span: Span


Goal = Union[GoalOr, GoalAnd, GoalNot, GoalTrue, GoalFalse, GoalPred]


# -------------------------------------------------------- move constraints


@dataclass(frozen=True)
class MoveThen:
    """``A then B then ...``: ordered choice, first A's moves, then B's, ..."""

    operands: tuple["Move", ...]
    span: Span


@dataclass(frozen=True)
class MoveAnd:
    """``A and B and ...``: moves admitted by every operand.

    In the book the first operand generates and the others test; a depth
    test may come first (``depth = 0 and legal``), so a compiler should
    treat depth tests as guards and generate by the first operand that is
    not a depth test.
    """

    operands: tuple["Move", ...]
    span: Span


@dataclass(frozen=True)
class DepthTest:
    """``depth OP N``: the constraint applies only where the depth counter passes the test.

    ``op`` is normalised to the Prolog arithmetic comparison: one of
    ``'='`` (meaning ``=:=``), ``'<'``, ``'=<'``, ``'>'``, ``'>='``,
    ``'\\='`` (meaning ``=\\=``); the source forms ``<=`` and ``!=`` are
    accepted for ``=<`` and ``\\=``.
    """

    op: str
    value: int
    span: Span


@dataclass(frozen=True)
class NoMove:
    """``nomove``: admits no move."""

    span: Span


@dataclass(frozen=True)
class MovePred:
    """A move-constraint predicate of the KB with optional literal arguments.

    With k literal arguments it is called as ``name(Lits..., Pos, Move, Pos1)``
    (arity k+3).
    """

    name: str
    args: tuple[Literal, ...]
    span: Span
    name_span: Span


Move = Union[MoveThen, MoveAnd, DepthTest, NoMove, MovePred]


# ------------------------------------------------------- table structure

#: The four parts of a piece of advice, in their usual order.
PART_KINDS: tuple[str, ...] = ("better", "holding", "us", "them")


@dataclass(frozen=True)
class AdvicePart:
    """One part of a piece of advice as written: ``better: GOAL`` etc.

    ``kind`` is one of :data:`PART_KINDS`; ``body`` is a goal for
    ``better``/``holding`` and a move constraint for ``us``/``them``.
    """

    kind: str
    body: Union[Goal, Move]
    span: Span


@dataclass(frozen=True)
class Advice:
    """A piece of advice: ``advice NAME:`` and its four parts.

    ``better``, ``holding``, ``us`` and ``them`` hold the first occurrence
    of each part, or ``None`` when the part is missing (the checker reports
    that).  ``parts`` keeps every part in source order, repeated ones
    included.
    """

    name: str
    better: Goal | None
    holding: Goal | None
    us: Move | None
    them: Move | None
    parts: tuple[AdvicePart, ...]
    span: Span
    name_span: Span


@dataclass(frozen=True)
class Rule:
    """``rule NAME: if CONDITION then ADVICE, ADVICE, ...``.

    ``advice_names`` are :class:`Name` nodes (with spans), in order; the
    tuple is empty when nothing follows ``then`` (the checker reports it).
    """

    name: str
    condition: Goal
    advice_names: tuple[Name, ...]
    span: Span
    name_span: Span


@dataclass(frozen=True)
class Table:
    """A whole advice table: ``table NAME ["TITLE"] [uses PATH]`` then rules and advice.

    ``uses`` is the module path as written (``'chess/krk'``) or ``None``.
    ``rules`` keep their source order (the order AL0 tries them in);
    ``advices`` too.  ``source`` is the text the table was parsed from
    (not part of equality), used to show source lines in diagnostics.
    """

    name: str
    title: str | None
    uses: str | None
    rules: tuple[Rule, ...]
    advices: tuple[Advice, ...]
    span: Span
    name_span: Span
    uses_span: Span | None = None
    source: str = field(default="", repr=False, compare=False)

    @property
    def filename(self) -> str:
        """The file name the table was parsed from."""
        return self.span.file

    def advice_by_name(self) -> dict[str, Advice]:
        """Map each advice name to its (first) definition."""
        result: dict[str, Advice] = {}
        for advice in self.advices:
            result.setdefault(advice.name, advice)
        return result


# ----------------------------------------------------------------- helpers


def goal_predicates(goal: Goal) -> Iterator[GoalPred]:
    """Yield every :class:`GoalPred` in ``goal``, left to right."""
    stack: list[Goal] = [goal]
    while stack:
        node = stack.pop()
        if isinstance(node, GoalPred):
            yield node
        elif isinstance(node, (GoalAnd, GoalOr)):
            stack.extend(reversed(node.operands))
        elif isinstance(node, GoalNot):
            stack.append(node.operand)


def move_predicates(move: Move) -> Iterator[MovePred]:
    """Yield every :class:`MovePred` in ``move``, left to right."""
    stack: list[Move] = [move]
    while stack:
        node = stack.pop()
        if isinstance(node, MovePred):
            yield node
        elif isinstance(node, (MoveAnd, MoveThen)):
            stack.extend(reversed(node.operands))


def move_alternatives(move: Move) -> tuple[Move, ...]:
    """The top-level alternatives of ``move``: the operands of a ``then``, else ``(move,)``."""
    if isinstance(move, MoveThen):
        return move.operands
    return (move,)
