"""Check a parsed advice table against the vocabulary of its knowledge base.

The checker is pure Python: the KB's vocabulary arrives as a
:class:`KBVocabulary` (built by the engine from the Prolog module).  It
reports every problem at once, as :class:`~advice.errors.Diagnostic`
objects sorted by position:

>>> from advice.parser import parse
>>> vocab = KBVocabulary("krk", {"mate": frozenset({1}), "legal": frozenset({3})}, frozenset({"legal"}))
>>> table = parse("table t\\nrule r: if true then a\\n"
...               "advice a:\\n better: mat\\n holding: true\\n us: legal\\n them: legal\\n", "t.adv")
>>> for d in check(table, vocab): print(d)
t.adv:4:10: error: unknown goal predicate 'mat'; did you mean mate?

Name resolution the compiler needs: a goal predicate written with k literal
arguments is called as ``name(Lits..., Pos)`` (arity k+1) or
``name(Lits..., Pos, Root)`` (arity k+2), preferring k+1 when the KB
defines both (:func:`resolve_goal_arity`); a move constraint with k literal
arguments is called as ``name(Lits..., Pos, Move, Pos1)`` (arity k+3).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from . import ast
from .ast import Span
from .errors import AdviceCheckError, Diagnostic, printable

__all__ = [
    "KBVocabulary",
    "resolve_goal_arity",
    "resolve_move_arity",
    "check",
    "check_or_raise",
    "uses_matches_module",
    "generates",
]

#: Extra arguments after the literal ones: a goal takes Pos (or Pos, Root),
#: a move constraint Pos, Move, Pos1.
GOAL_EXTRA_ARGS = (1, 2)
MOVE_EXTRA_ARGS = 3

#: Most alternatives a move constraint may have once ``and`` is distributed
#: over ``then`` (the compiler writes one clause for each, and
#: ``(a then b) and (c then d) and ...`` doubles them with every operand).
MAX_ALTERNATIVES = 1000


@dataclass(frozen=True)
class KBVocabulary:
    """What a KB module offers to advice tables.

    ``module`` is the module's name (or its path under ``kb/``, e.g.
    ``chess/krk``); ``predicates`` maps every exported predicate name to
    its arities; ``move_constraints`` names the move-constraint predicates
    (the ``move_constraint/1`` facts).  A name may be listed in
    ``move_constraints`` without an entry in ``predicates``; its arity is
    then not checked.  ``interface`` names the predicates of the domain
    interface (required and declarations, as ``kb/al0/domain.pl`` lists
    them): they are neither goals nor move constraints.
    """

    module: str
    predicates: Mapping[str, frozenset[int]] = field(default_factory=dict)
    move_constraints: frozenset[str] = frozenset()
    interface: frozenset[str] = frozenset()

    def goal_names(self) -> list[str]:
        """Names that can be used as goals (everything but move constraints and the interface)."""
        return sorted(
            n for n in self.predicates if n not in self.move_constraints and n not in self.interface
        )


def resolve_goal_arity(vocab: KBVocabulary, name: str, nargs: int) -> int | None:
    """The arity a goal ``name`` written with ``nargs`` literal arguments is called with.

    ``nargs + 1`` (``name(Lits..., Pos)``) when the KB exports it, else
    ``nargs + 2`` (``name(Lits..., Pos, Root)``), else ``None``.  Move
    constraints and interface predicates never resolve as goals.

    >>> v = KBVocabulary("krk", {"room": frozenset({2}), "mate": frozenset({1, 2})})
    >>> resolve_goal_arity(v, "room", 0), resolve_goal_arity(v, "room", 1), resolve_goal_arity(v, "mate", 0)
    (2, 2, 1)
    >>> resolve_goal_arity(v, "room", 2) is None
    True
    """
    if name in vocab.move_constraints or name in vocab.interface:
        return None
    arities = vocab.predicates.get(name, frozenset())
    for extra in GOAL_EXTRA_ARGS:
        if nargs + extra in arities:
            return nargs + extra
    return None


def resolve_move_arity(vocab: KBVocabulary, name: str, nargs: int) -> int | None:
    """The arity of move constraint ``name`` with ``nargs`` literal arguments (``nargs + 3``), or ``None``.

    ``None`` when ``name`` is not a move constraint, or when the KB exports
    it with other arities only.
    """
    if name not in vocab.move_constraints:
        return None
    arities = vocab.predicates.get(name)
    if arities is not None and nargs + MOVE_EXTRA_ARGS not in arities:
        return None
    return nargs + MOVE_EXTRA_ARGS


def _module_key(text: str) -> str:
    key = text.strip().replace("\\", "/")
    if key.endswith(".pl"):
        key = key[:-3]
    return key.rstrip("/").rsplit("/", 1)[-1]


def uses_matches_module(uses: str, module: str) -> bool:
    """Whether ``uses PATH`` names ``module``.

    Compares the last path segment (``chess/krk`` matches module ``krk``,
    ``chess/krk`` and ``kb/chess/krk.pl``); a full path must also agree in
    its earlier segments when both sides have them.
    """
    if _module_key(uses) != _module_key(module):
        return False
    a = [s for s in uses.replace("\\", "/").removesuffix(".pl").split("/") if s]
    b = [s for s in module.replace("\\", "/").removesuffix(".pl").split("/") if s]
    if b and b[0] == "kb":
        b = b[1:]
    n = min(len(a), len(b))
    return a[-n:] == b[-n:]


# --------------------------------------------------------------- wording


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(words: list[str], conj: str = "or") -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {conj} " + words[-1]


def _suggestion(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else ""


def _is_always_true(goal: ast.Goal) -> bool:
    if isinstance(goal, ast.GoalTrue):
        return True
    if isinstance(goal, ast.GoalNot):
        return _is_always_false(goal.operand)
    if isinstance(goal, ast.GoalAnd):
        return all(_is_always_true(g) for g in goal.operands)
    if isinstance(goal, ast.GoalOr):
        return any(_is_always_true(g) for g in goal.operands)
    return False


def _is_always_false(goal: ast.Goal) -> bool:
    if isinstance(goal, ast.GoalFalse):
        return True
    if isinstance(goal, ast.GoalNot):
        return _is_always_true(goal.operand)
    if isinstance(goal, ast.GoalAnd):
        return any(_is_always_false(g) for g in goal.operands)
    if isinstance(goal, ast.GoalOr):
        return all(_is_always_false(g) for g in goal.operands)
    return False


def generates(move: ast.Move) -> bool:
    """Whether ``move`` admits only moves some generator produces (not depth tests alone).

    A move constraint or ``nomove`` generates; a depth test does not; an
    ``and`` generates when any operand does (the compiler generates by such
    an operand and tests the others); a ``then`` when every alternative does.
    """
    if isinstance(move, (ast.MovePred, ast.NoMove)):
        return True
    if isinstance(move, ast.DepthTest):
        return False
    if isinstance(move, ast.MoveAnd):
        return any(generates(m) for m in move.operands)
    if isinstance(move, ast.MoveThen):
        return all(generates(m) for m in move.operands)
    return False  # pragma: no cover


def alternative_count(move: ast.Move, cap: int = MAX_ALTERNATIVES) -> int:
    """How many alternatives ``move`` compiles to (see
    :func:`advice.compiler.alternatives`), or ``cap + 1`` for any number
    above ``cap``, counted without listing them."""
    if isinstance(move, ast.MoveThen):
        return min(sum(alternative_count(m, cap) for m in move.operands), cap + 1)
    if isinstance(move, ast.MoveAnd):
        count = 1
        for m in move.operands:
            count = min(count * alternative_count(m, cap), cap + 1)
        return count
    return 1


# --------------------------------------------------------------- checker


class _Checker:
    def __init__(self, table: ast.Table, vocab: KBVocabulary):
        self.table = table
        self.vocab = vocab
        self.diagnostics: list[Diagnostic] = []

    def error(self, message: str, span: Span) -> None:
        self.diagnostics.append(Diagnostic("error", message, span))

    def warning(self, message: str, span: Span) -> None:
        self.diagnostics.append(Diagnostic("warning", message, span))

    def run(self) -> list[Diagnostic]:
        table = self.table
        self.check_uses()
        if not table.rules:
            self.error(f"table '{table.name}' has no rules", table.name_span)
        self.check_duplicates("rule", table.rules)
        self.check_duplicates("advice", table.advices)
        advice_names = {a.name for a in table.advices}
        used: set[str] = set()
        always: ast.Rule | None = None
        for rule in table.rules:
            if always is not None:
                self.warning(
                    f"rule '{rule.name}' can never fire: rule '{always.name}' "
                    f"(line {always.span.line}) before it always applies",
                    rule.name_span,
                )
            elif _is_always_true(rule.condition):
                always = rule
            self.check_goal(rule.condition)
            if not rule.advice_names:
                self.error(f"rule '{rule.name}' names no advice after 'then'", rule.name_span)
            for name in rule.advice_names:
                used.add(name.value)
                if name.value not in advice_names:
                    self.error(
                        f"rule '{rule.name}' names advice '{name.value}', which is not defined"
                        + _suggestion(name.value, sorted(advice_names)),
                        name.span,
                    )
        for advice in table.advices:
            self.check_advice(advice)
            if advice.name not in used:
                self.warning(f"advice '{advice.name}' is never used by any rule", advice.name_span)
        self.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        return self.diagnostics

    def check_uses(self) -> None:
        table = self.table
        if table.uses is None or table.uses_span is None or not self.vocab.module:
            return
        if not uses_matches_module(table.uses, self.vocab.module):
            self.error(
                f"the table uses '{printable(table.uses)}', but the knowledge base is module "
                f"'{printable(self.vocab.module)}'",
                table.uses_span,
            )

    def check_duplicates(self, what: str, items: Iterable[ast.Rule | ast.Advice]) -> None:
        first: dict[str, ast.Rule | ast.Advice] = {}
        for item in items:
            if item.name in first:
                self.error(
                    f"duplicate {what} name '{item.name}' (first defined at line {first[item.name].span.line})",
                    item.name_span,
                )
            else:
                first[item.name] = item

    def check_advice(self, advice: ast.Advice) -> None:
        seen: dict[str, ast.AdvicePart] = {}
        for part in advice.parts:
            if part.kind in seen:
                self.error(
                    f"advice '{advice.name}' gives the '{part.kind}:' part twice "
                    f"(first at line {seen[part.kind].span.line})",
                    part.span,
                )
            else:
                seen[part.kind] = part
            if part.kind in ("better", "holding"):
                self.check_goal(part.body)  # type: ignore[arg-type]
            else:
                self.check_move(part.body, part.kind)  # type: ignore[arg-type]
        for kind in ast.PART_KINDS:
            if kind not in seen:
                self.error(f"advice '{advice.name}' has no '{kind}:' part", advice.name_span)

    # -- goals

    def check_goal(self, goal: ast.Goal) -> None:
        for pred in ast.goal_predicates(goal):
            self.check_goal_pred(pred)

    def check_goal_pred(self, pred: ast.GoalPred) -> None:
        vocab, name, k = self.vocab, pred.name, len(pred.args)
        if resolve_goal_arity(vocab, name, k) is not None:
            return
        if name in vocab.move_constraints:
            self.error(
                f"'{name}' is a move constraint, not a goal; move constraints belong in 'us:' and 'them:'",
                pred.name_span,
            )
        elif name in vocab.interface:
            self.error(f"'{name}' is part of the domain interface, not a goal predicate", pred.name_span)
        elif name in vocab.predicates:
            arities = sorted(vocab.predicates[name])
            counts = sorted({a - e for a in arities for e in GOAL_EXTRA_ARGS if a - e >= 0})
            defined = _join([f"{name}/{a}" for a in arities], "and")
            if counts:
                allowed = f"which allow{'s' if len(arities) == 1 else ''} {_join([str(c) for c in counts])}"
            else:
                allowed = "which cannot be called as a goal"
            self.error(
                f"goal '{name}' is given {_plural(k, 'literal argument')}; "
                f"the knowledge base defines {defined}, {allowed}",
                pred.span,
            )
        else:
            self.error(
                f"unknown goal predicate '{name}'" + _suggestion(name, vocab.goal_names()),
                pred.name_span,
            )

    # -- move constraints

    def check_move(self, move: ast.Move, kind: str) -> None:
        for pred in ast.move_predicates(move):
            self.check_move_pred(pred)
        if alternative_count(move) > MAX_ALTERNATIVES:
            self.error(
                f"this '{kind}:' part has more than {MAX_ALTERNATIVES:,} alternatives once "
                "'and' is distributed over 'then' (each operand of 'and' made of "
                "alternatives multiplies them): write fewer of them",
                move.span,
            )
        if not generates(move):
            self.report_unbounded(move, kind)

    def report_unbounded(self, move: ast.Move, kind: str) -> None:
        """Point at each alternative of ``move`` made of depth tests alone."""
        if isinstance(move, ast.MoveThen):
            for alternative in move.operands:
                if not generates(alternative):
                    self.report_unbounded(alternative, kind)
            return
        example = self.example_constraint()
        self.error(
            f"this alternative of the '{kind}:' part has only depth tests; "
            f"it needs a move constraint{' such as ' + example if example else ''}",
            move.span,
        )

    def example_constraint(self) -> str:
        constraints = self.vocab.move_constraints
        if "legal" in constraints:
            return "legal"
        return min(constraints) if constraints else ""

    def check_move_pred(self, pred: ast.MovePred) -> None:
        vocab, name, k = self.vocab, pred.name, len(pred.args)
        if name in vocab.move_constraints:
            if resolve_move_arity(vocab, name, k) is None:
                arities = sorted(vocab.predicates[name])
                counts = [a - MOVE_EXTRA_ARGS for a in arities if a >= MOVE_EXTRA_ARGS]
                defined = _join([f"{name}/{a}" for a in arities], "and")
                allowed = (
                    f"which allow{'s' if len(arities) == 1 else ''} {_join([str(c) for c in counts])}"
                    if counts
                    else "which cannot be called as a move constraint"
                )
                self.error(
                    f"move constraint '{name}' is given {_plural(k, 'literal argument')}; "
                    f"the knowledge base defines {defined}, {allowed}",
                    pred.span,
                )
        elif name in vocab.predicates and name not in vocab.interface:
            self.error(
                f"'{name}' is a goal predicate, not a move constraint; "
                "goals belong in 'if', 'better:' and 'holding:'",
                pred.name_span,
            )
        else:
            self.error(
                f"unknown move constraint '{name}'" + _suggestion(name, sorted(vocab.move_constraints)),
                pred.name_span,
            )


def check(table: ast.Table, vocab: KBVocabulary) -> list[Diagnostic]:
    """Every error and warning about ``table`` against ``vocab``, sorted by position.

    Errors: unknown names (with close names the KB defines), wrong numbers
    of literal arguments, goals and move constraints swapped, rules naming
    undefined advice, duplicate names, missing or repeated parts, empty
    rules, a table without rules, a move alternative made of depth tests
    alone, a ``uses`` that names another module.  Warnings: rules after an
    always-true rule, advice no rule uses.
    """
    try:
        return _Checker(table, vocab).run()
    except RecursionError:  # pragma: no cover - the parser bounds nesting
        return [Diagnostic("error", "the table is nested too deeply to check", table.span)]


def check_or_raise(table: ast.Table, vocab: KBVocabulary) -> list[Diagnostic]:
    """Like :func:`check`, but raise :class:`~advice.errors.AdviceCheckError` if there is any error.

    Returns the warnings (the diagnostics) when there is no error.
    """
    diagnostics = check(table, vocab)
    if any(d.is_error for d in diagnostics):
        raise AdviceCheckError(diagnostics, table.source or None)
    return diagnostics
