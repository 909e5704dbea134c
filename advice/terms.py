"""Prolog terms as Python values, and their one writer.

The compiler builds clauses out of these values and nothing else; the
writer quotes every atom and string it writes, so a name from a table can
only ever become a datum in Prolog, never code.

>>> from advice.terms import Atom, Struct, Var, write
>>> write(Struct("room", (Atom("it's"), Var("Pos"))))
"room('it\\\\'s', Pos)"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Atom:
    """A Prolog atom."""

    name: str


@dataclass(frozen=True)
class Var:
    """A Prolog variable; its name must be a valid variable name."""

    name: str

    def __post_init__(self):
        if not _VAR.fullmatch(self.name):
            raise ValueError(f"not a Prolog variable name: {self.name!r}")


@dataclass(frozen=True)
class PlString:
    """A Prolog string (double-quoted)."""

    value: str


@dataclass(frozen=True)
class Struct:
    """A compound term ``functor(args...)``."""

    functor: str
    args: tuple["Term", ...]


Term = Union[Atom, Var, PlString, Struct, int, list]

_SOLO = re.compile(r"[a-z][A-Za-z0-9_]*")
_VAR = re.compile(r"[A-Z_][A-Za-z0-9_]*")
_INFIX = {":-", ",", ";", "->", ":", "=", "=:=", "=\\=", "<", "=<", ">", ">=", "is"}
_PREFIX = {"\\+"}
_XFY = {",", ";", "->"}


def quote_atom(name: str) -> str:
    """An atom as Prolog text that reads back as exactly that atom."""
    if _SOLO.fullmatch(name) or name == "[]":
        return name
    return "'" + _escaped(name, "'") + "'"


def quote_string(value: str) -> str:
    """A string as Prolog text (double-quoted) that reads back as ``value``."""
    return '"' + _escaped(value, '"') + '"'


def _escaped(text: str, quote: str) -> str:
    out = []
    for ch in text:
        if ch == "\\" or ch == quote:
            out.append("\\" + ch)
        elif ch.isprintable() and ch not in "\n\r\t":
            out.append(ch)
        else:
            out.append(f"\\x{ord(ch):x}\\")
    return "".join(out)


def write(term: Term) -> str:
    """``term`` as Prolog text (operators written infix, atoms quoted).

    Iterative, so that a term nested thousands deep (a goal of a thousand
    ``and``) is written as easily as a flat one; a chain of the same
    right-associative operator (``a, b, c`` or ``a ; b ; c``) is written
    without brackets.
    """
    out: list[str] = []
    stack: list[tuple[bool, object]] = [(False, term)]
    while stack:
        is_text, item = stack.pop()
        if is_text:
            out.append(item)
        else:
            stack.extend(reversed(_pieces(item)))
    return "".join(out)


def _pieces(term: Term) -> list[tuple[bool, object]]:
    """What ``term`` is written as: pieces of text ``(True, str)`` and
    subterms still to write ``(False, term)``."""
    if isinstance(term, bool):
        raise TypeError("booleans are not Prolog terms")
    if isinstance(term, int):
        return [_text(str(term))]
    if isinstance(term, Atom):
        return [_text(quote_atom(term.name))]
    if isinstance(term, Var):
        return [_text(term.name)]
    if isinstance(term, PlString):
        return [_text(quote_string(term.value))]
    if isinstance(term, list):
        return [_text("["), *_separated(term), _text("]")]
    if isinstance(term, Struct):
        return _struct_pieces(term)
    raise TypeError(f"not a Prolog term: {term!r}")


def _struct_pieces(term: Struct) -> list[tuple[bool, object]]:
    if term.functor in _INFIX and len(term.args) == 2:
        left, right = term.args
        chained = term.functor in _XFY and isinstance(right, Struct) \
            and right.functor == term.functor and len(right.args) == 2
        return [*_operand(left), _text(_op(term.functor)),
                *([(False, right)] if chained else _operand(right))]
    if term.functor in _PREFIX and len(term.args) == 1:
        return [_text(term.functor + " "), *_operand(term.args[0])]
    return [_text(quote_atom(term.functor) + "("), *_separated(term.args), _text(")")]


def _text(text: str) -> tuple[bool, object]:
    return (True, text)


def _separated(terms) -> list[tuple[bool, object]]:
    pieces: list[tuple[bool, object]] = []
    for i, t in enumerate(terms):
        if i:
            pieces.append(_text(", "))
        pieces.extend(_bracketed(t, _is_operator(t) and t.functor != ":"))
    return pieces


def _op(functor: str) -> str:
    return {",": ", ", ":": ":", ";": " ; ", "->": " -> ", ":-": " :- "}.get(
        functor, f" {functor} ")


def _is_operator(term: Term) -> bool:
    return isinstance(term, Struct) and (
        (term.functor in _INFIX and len(term.args) == 2)
        or (term.functor in _PREFIX and len(term.args) == 1))


def _operand(term: Term) -> list[tuple[bool, object]]:
    negative = isinstance(term, int) and term < 0
    return _bracketed(term, negative or (_is_operator(term) and term.functor != ":"))


def _bracketed(term: Term, brackets: bool) -> list[tuple[bool, object]]:
    return [_text("("), (False, term), _text(")")] if brackets else [(False, term)]


def _goal(term: Term) -> str:
    """A body goal: bracketed only where its operator binds looser than ``,``."""
    text = write(term)
    loose = isinstance(term, Struct) and term.functor in {",", ";", "->", ":-"}
    return f"({text})" if loose else text


def conjunction(goals: list[Term]) -> Term:
    """``(G1, G2, ...)``; ``true`` for no goals."""
    if not goals:
        return Atom("true")
    result = goals[-1]
    for goal in reversed(goals[:-1]):
        result = Struct(",", (goal, result))
    return result


def write_clause(head: Term, body: list[Term] | None = None) -> str:
    """A clause laid out for people: one body goal a line, ending in ``.``."""
    if not body:
        return write(head) + "."
    goals = [_goal(g) for g in body]
    return write(head) + " :-\n    " + ",\n    ".join(goals) + "."
