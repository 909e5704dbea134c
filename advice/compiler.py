"""Compile a checked advice table into a Prolog module of its own.

The module holds two renderings of the same table:

- **compiled** clauses, one per rule condition, per goal and per move
  alternative, so SWI-Prolog indexes on the advice name and no goal is
  interpreted at run time::

      rule(Pos, edge_rule, [mate_in_2, squeeze]) :-
          krk:their_king_edge(Pos), krk:kings_close(Pos).
      better(mate_in_2, Pos, Root) :- krk:mate(Pos).
      us_move(mate_in_2, Pos, Move, Pos1) :-
          krk:depth(Pos, Depth), Depth =:= 0, krk:legal(Pos, Move, Pos1).

- **data** for the interpreted mode (the book's way, the baseline the
  compiled mode is measured against) and for explanations::

      table_rule(edge_rule, and([pred(their_king_edge, []), ...]), [...]).
      table_advice(mate_in_2, Better, Holding, Us, Them).

Everything is built as :mod:`advice.terms` values: names from the table
become quoted atoms, never pasted text. The search that runs either
rendering is ``kb/al0/al0.pl``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from itertools import product

from advice import ast
from advice.checker import KBVocabulary, resolve_goal_arity
from advice.terms import Atom, PlString, Struct, Term, Var, conjunction, write, write_clause

POS, ROOT, MOVE, POS1, DEPTH = Var("Pos"), Var("Root"), Var("Move"), Var("Pos1"), Var("Depth")

#: The predicates every compiled table module defines (al0.pl calls them).
TABLE_PREDICATES = ("rule/3", "better/3", "holding/3", "us_move/4", "them_move/4",
                    "table_rule/3", "table_advice/5", "domain/1", "table_name/1")


@dataclass(frozen=True)
class CompiledTable:
    """A table compiled for the KB module ``domain``, as module ``module``."""

    name: str
    module: str
    domain: str
    clauses: tuple[tuple[Term, tuple[Term, ...]], ...]
    #: The text of :attr:`clauses`, once written (see :meth:`source`).
    body: str | None = field(default=None, repr=False, compare=False)

    def source(self) -> str:
        """The module as Prolog source text, laid out for people.

        Every name in it, the comment included, is written by
        :func:`advice.terms.write` (quoted, with control characters
        escaped), so no text of the table or its knowledge base is pasted.
        """
        body = self.body if self.body is not None else _body(self.clauses)
        return _header(self.name, self.module, self.domain) + body


def _header(name: str, module: str, domain: str) -> str:
    return "\n".join([
        f"% Advice table {write(Atom(name))}, compiled for the knowledge base "
        f"{write(Atom(domain))}.",
        f":- module({write(Atom(module))}, []).",
        ":- style_check(-singleton).",
        f":- discontiguous better/3, holding/3, us_move/4, them_move/4, {EITHER}/3.",
        "",
    ]) + "\n"


def _body(clauses) -> str:
    lines = []
    previous = None
    for head, body in clauses:
        key = (head.functor, len(head.args)) if isinstance(head, Struct) else head
        if previous is not None and key != previous:
            lines.append("")
        previous = key
        lines.append(write_clause(head, list(body)))
    return "\n".join(lines) + "\n"


#: How much of a table's name its module name keeps (a file name has at
#: most 255 bytes; the digest keeps module names apart).
NAME_IN_MODULE = 64


def module_name(name: str, domain: str, body: str) -> str:
    """The module a table compiles to: its name and a digest of what it
    compiles to (the knowledge base's module and the text of the clauses),
    so that one module name always stands for one text: a compiled table in
    the cache is named by its content."""
    digest = hashlib.sha1(f"{domain}\n{body}".encode("utf-8")).hexdigest()[:16]
    return f"advice_{name[:NAME_IN_MODULE]}_{digest}"


#: A disjunction of more operands than this is compiled into clauses of a
#: predicate of its own (:data:`EITHER`), one per operand, rather than into
#: one body of nested ``;``: SWI-Prolog takes time quadratic in the number
#: of operands to compile a disjunction (16,000 of them took 5 s), and
#: linear time for as many clauses.
INLINE_OR = 32

#: The predicate holding the operands of long disjunctions:
#: ``either(N, Pos, Root) :- Operand.`` for the N-th such disjunction.
EITHER = "either"


def compile_table(table: ast.Table, vocab: KBVocabulary) -> CompiledTable:
    """Compile a table that :func:`advice.checker.check` found free of errors."""
    return _Compiler(table, vocab).run()


class _Compiler:
    def __init__(self, table: ast.Table, vocab: KBVocabulary):
        self.table = table
        self.vocab = vocab
        self.domain = Atom(vocab.module)
        self.clauses: list[tuple[Term, tuple[Term, ...]]] = []
        self.disjunctions = 0

    def clause(self, head: Term, *body: Term) -> None:
        self.clauses.append((head, tuple(body)))

    def run(self) -> CompiledTable:
        t = self.table
        self.clause(Struct("domain", (self.domain,)))
        self.clause(Struct("table_name", (Atom(t.name),)))
        for rule in t.rules:
            advices = [Atom(n.value) for n in rule.advice_names]
            self.clause(Struct("rule", (POS, Atom(rule.name), advices)),
                        *self.goal_body(rule.condition, POS, POS))
        for advice in _first_definitions(t.advices):
            name = Atom(advice.name)
            self.clause(Struct("better", (name, POS, ROOT)),
                        *self.goal_body(advice.better, POS, ROOT))
            self.clause(Struct("holding", (name, POS, ROOT)),
                        *self.goal_body(advice.holding, POS, ROOT))
            for side in ("us", "them"):
                for alternative in alternatives(getattr(advice, side)):
                    body = self.move_body(alternative)
                    if body is not None:
                        self.clause(Struct(f"{side}_move", (name, POS, MOVE, POS1)), *body)
        for side in ("us", "them"):
            functor = f"{side}_move"
            if not any(h.functor == functor for h, _ in self.clauses):
                self.clause(Struct(functor, (Var("_"),) * 4), Atom("fail"))
        for rule in t.rules:
            self.clause(Struct("table_rule", (Atom(rule.name), goal_data(rule.condition),
                                              [Atom(n.value) for n in rule.advice_names])))
        for advice in _first_definitions(t.advices):
            self.clause(Struct("table_advice", (
                Atom(advice.name), goal_data(advice.better), goal_data(advice.holding),
                move_data(advice.us), move_data(advice.them))))
        clauses = tuple(self.clauses)
        body = _body(clauses)
        return CompiledTable(t.name, module_name(t.name, self.vocab.module, body),
                             self.vocab.module, clauses, body)

    # ---------------------------------------------------------------- goals

    def goal_body(self, goal: ast.Goal, pos: Var, root: Var) -> list[Term]:
        term = self.goal(goal, pos, root)
        if isinstance(term, Struct) and term.functor == ",":
            return _flatten_conjunction(term)
        return [] if term == Atom("true") else [term]

    def goal(self, goal: ast.Goal, pos: Var, root: Var) -> Term:
        if isinstance(goal, ast.GoalTrue):
            return Atom("true")
        if isinstance(goal, ast.GoalFalse):
            return Atom("fail")
        if isinstance(goal, ast.GoalNot):
            return Struct("\\+", (self.goal(goal.operand, pos, root),))
        if isinstance(goal, ast.GoalAnd):
            return conjunction([self.goal(g, pos, root) for g in goal.operands])
        if isinstance(goal, ast.GoalOr):
            if len(goal.operands) > INLINE_OR:
                return self.either(goal, pos, root)
            terms = [self.goal(g, pos, root) for g in goal.operands]
            result = terms[-1]
            for term in reversed(terms[:-1]):
                result = Struct(";", (term, result))
            return result
        if isinstance(goal, ast.GoalPred):
            arity = resolve_goal_arity(self.vocab, goal.name, len(goal.args))
            extra = [pos] if arity == len(goal.args) + 1 else [pos, root]
            return self.qualified(goal.name, [literal(a) for a in goal.args] + extra)
        raise TypeError(f"not a goal: {goal!r}")

    def either(self, goal: ast.GoalOr, pos: Var, root: Var) -> Term:
        """A call of a new :data:`EITHER` predicate with one clause per operand."""
        self.disjunctions += 1
        number = self.disjunctions
        for operand in goal.operands:
            self.clause(Struct(EITHER, (number, POS, ROOT)), *self.goal_body(operand, POS, ROOT))
        return Struct(EITHER, (number, pos, root))

    def qualified(self, name: str, args: list[Term]) -> Term:
        return Struct(":", (self.domain, Struct(name, tuple(args))))

    # ----------------------------------------------------- move constraints

    def move_body(self, conjuncts: tuple[ast.Move, ...]) -> list[Term] | None:
        """The body for one alternative: depth guards, a generator, tests.

        None when the alternative admits no move (it holds ``nomove``).
        """
        if any(isinstance(m, ast.NoMove) for m in conjuncts):
            return None
        tests = [m for m in conjuncts if isinstance(m, ast.DepthTest)]
        body: list[Term] = []
        if tests:
            body.append(self.qualified("depth", [POS, DEPTH]))
            body += [Struct("=:=" if t.op == "=" else "=\\=" if t.op == "\\=" else t.op,
                            (DEPTH, t.value)) for t in tests]
        for m in conjuncts:
            if isinstance(m, ast.MovePred):
                body.append(self.qualified(m.name, [literal(a) for a in m.args]
                                           + [POS, MOVE, POS1]))
        return body


def alternatives(move: ast.Move) -> list[tuple[ast.Move, ...]]:
    """The ordered alternatives of a move constraint, each a conjunction.

    ``then`` concatenates; ``and`` distributes over ``then`` keeping the
    order: ``(a then b) and c`` is ``a and c`` then ``b and c``.
    """
    if isinstance(move, ast.MoveThen):
        return [alt for m in move.operands for alt in alternatives(m)]
    if isinstance(move, ast.MoveAnd):
        parts = [alternatives(m) for m in move.operands]
        return [tuple(x for conj in combo for x in conj) for combo in product(*parts)]
    return [(move,)]


def literal(lit: ast.Literal) -> Term:
    """A literal argument as a Prolog term."""
    if isinstance(lit, ast.IntLit):
        return lit.value
    if isinstance(lit, ast.AtomLit):
        return Atom(lit.value)
    return PlString(lit.value)


def goal_data(goal: ast.Goal) -> Term:
    """A goal as data for the interpreted mode."""
    if isinstance(goal, ast.GoalTrue):
        return Atom("true")
    if isinstance(goal, ast.GoalFalse):
        return Atom("false")
    if isinstance(goal, ast.GoalNot):
        return Struct("not", (goal_data(goal.operand),))
    if isinstance(goal, ast.GoalAnd):
        return Struct("and", ([goal_data(g) for g in goal.operands],))
    if isinstance(goal, ast.GoalOr):
        return Struct("or", ([goal_data(g) for g in goal.operands],))
    return Struct("pred", (Atom(goal.name), [literal(a) for a in goal.args]))


def move_data(move: ast.Move) -> Term:
    """A move constraint as data for the interpreted mode."""
    if isinstance(move, ast.MoveThen):
        return Struct("then", ([move_data(m) for m in move.operands],))
    if isinstance(move, ast.MoveAnd):
        return Struct("and", ([move_data(m) for m in move.operands],))
    if isinstance(move, ast.DepthTest):
        return Struct("depth", (Atom(move.op), move.value))
    if isinstance(move, ast.NoMove):
        return Atom("nomove")
    return Struct("pred", (Atom(move.name), [literal(a) for a in move.args]))


def _first_definitions(advices) -> list[ast.Advice]:
    seen: dict[str, ast.Advice] = {}
    for advice in advices:
        seen.setdefault(advice.name, advice)
    return list(seen.values())


def _flatten_conjunction(term: Term) -> list[Term]:
    # a loop along the right-nested chain: a goal may have a thousand `and`s
    goals: list[Term] = []
    while isinstance(term, Struct) and term.functor == ",":
        goals += _flatten_conjunction(term.args[0])
        term = term.args[1]
    return goals + [term]
