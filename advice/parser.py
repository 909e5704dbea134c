"""Parse advice tables: text -> :class:`advice.ast.Table`.

The grammar is ``advice/grammar.lark`` (lark, LALR, basic lexer so that
keywords are reserved everywhere).  A lark ``Transformer`` turns the parse
tree into the frozen dataclasses of :mod:`advice.ast`, each with its span.
Syntax errors become :class:`~advice.errors.AdviceSyntaxError` whose
message says in words what was expected::

    >>> parse("table t\\nrule r if true then a", "t.adv")
    Traceback (most recent call last):
    ...
    advice.errors.AdviceSyntaxError: t.adv:2:8: error: unexpected keyword 'if': expected ':' after the rule name
    rule r if true then a
           ^
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Iterable

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from . import ast
from .ast import Span
from .errors import AdviceError, AdviceFileError, AdviceSyntaxError, printable

__all__ = ["parse", "parse_file", "MAX_NESTING", "MAX_INT", "MAX_OPERANDS"]

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

#: Deepest nesting of parentheses and ``not`` accepted (keeps every later
#: recursive walk far from Python's recursion limit).
MAX_NESTING = 50

#: Largest magnitude of an integer literal (a 64-bit signed integer).
MAX_INT = 2**63 - 1

#: Most digits an integer literal may have, leading zeros included.
MAX_INT_DIGITS = len(str(MAX_INT))

#: Most operands one goal or move constraint may join with ``and``, ``or``
#: and ``then``: far beyond any table a person writes, and small enough
#: that checking, compiling and loading such a goal takes about a second.
MAX_OPERANDS = 5000

#: The tokens that begin a new goal or move constraint.
_EXPRESSION_STARTS = frozenset({"_IF", "BETTER", "HOLDING", "US", "THEM", "_RULE", "_ADVICE"})
_JOINERS = frozenset({"_AND", "_OR", "_THEN"})

#: Normalised depth comparisons (source spelling -> Prolog-style operator).
DEPTH_OPERATORS = {"=": "=", "<": "<", "=<": "=<", "<=": "=<", ">": ">", ">=": ">=", "\\=": "\\=", "!=": "\\="}

_STRING_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",
        propagate_positions=True,
        maybe_placeholders=True,
    )


# ------------------------------------------------------------ public API


def parse(text: str, filename: str = "<string>") -> ast.Table:
    """Parse the text of an advice table.

    ``filename`` is only used in spans and messages.  Raises
    :class:`~advice.errors.AdviceSyntaxError` (with ``file:line:column``, the
    source line and a caret) when the text is not a well-formed table.

    >>> t = parse('table t\\nrule r: if true then a\\n'
    ...           'advice a:\\n better: mate\\n holding: true\\n us: legal\\n them: legal\\n')
    >>> t.rules[0].advice_names[0].value, t.advices[0].better.name
    ('a', 'mate')
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() wants the table's text as a str, not {type(text).__name__}")
    if text.startswith("\ufeff"):
        text = text[1:]
    tree = _parse_tree(text, filename)
    try:
        table = _ToAst(filename, text).transform(tree)
    except VisitError as exc:  # pragma: no cover - the transformer is total
        if isinstance(exc.orig_exc, AdviceError):
            raise exc.orig_exc from None
        raise
    except RecursionError:  # pragma: no cover - prevented by MAX_NESTING
        raise AdviceSyntaxError("the table is nested too deeply", Span(filename, 1, 1, 1, 1), text) from None
    return table


def parse_file(path: str | os.PathLike[str]) -> ast.Table:
    """Read and parse an advice table file (UTF-8).

    A missing or unreadable file raises :class:`~advice.errors.AdviceFileError`.
    """
    name = os.fspath(path)
    try:
        data = Path(name).read_bytes()
    except FileNotFoundError:
        raise AdviceFileError(name, "no such file") from None
    except IsADirectoryError:
        raise AdviceFileError(name, "is a directory, not an advice table") from None
    except OSError as exc:
        raise AdviceFileError(name, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise AdviceFileError(f"{name}:{line}", f"the file is not UTF-8 text (byte {exc.start})") from None
    return parse(text, name)


# ------------------------------------------------------- parsing + errors


def _token_span(filename: str, tok: Token) -> Span:
    return Span(filename, tok.line, tok.column, tok.end_line, tok.end_column)


def _parse_tree(text: str, filename: str):
    """Run the LALR parser token by token, so that errors know the tokens before them."""
    parser = _lark()
    interactive = parser.parse_interactive(text)
    tokens: list[Token] = []
    nesting = _NestingGuard(filename, text)
    operands = _OperandGuard(filename, text)
    try:
        for tok in interactive.iter_parse():
            tokens.append(tok)
            nesting.see(tok)
            _check_literal(tok, filename, text)
            operands.see(tok)
        end = Token.new_borrow_pos("$END", "", tokens[-1]) if tokens else Token("$END", "", 0, 1, 1, 1, 1, 0)
        tokens.append(end)
        return interactive.feed_token(end)
    except UnexpectedCharacters as exc:
        raise _character_error(exc, text, filename) from None
    except UnexpectedToken as exc:
        raise _token_error(exc, tokens, text, filename) from None
    except UnexpectedInput as exc:  # pragma: no cover - LALR raises only the two above
        span = Span(filename, exc.line or 1, exc.column or 1, exc.line or 1, exc.column or 1)
        raise AdviceSyntaxError("syntax error", span, text) from None
    except LarkError as exc:  # pragma: no cover
        raise AdviceSyntaxError(f"syntax error ({type(exc).__name__})", Span(filename, 1, 1, 1, 1), text) from None


class _NestingGuard:
    """Counts open parentheses and ``not`` chains; refuses absurd nesting."""

    def __init__(self, filename: str, text: str):
        self.filename = filename
        self.text = text
        self.stack: list[int] = []
        self.base = 0
        self.pending_not = 0

    def see(self, tok: Token) -> None:
        kind = tok.type
        if kind == "_NOT":
            self.pending_not += 1
        elif kind == "_LPAR":
            self.stack.append(self.pending_not + 1)
            self.base += self.pending_not + 1
            self.pending_not = 0
        elif kind == "_RPAR":
            if self.stack:
                self.base -= self.stack.pop()
            self.pending_not = 0
        else:
            self.pending_not = 0
        if self.base + self.pending_not > MAX_NESTING:
            raise AdviceSyntaxError(
                f"too deeply nested (more than {MAX_NESTING} levels of parentheses and 'not')",
                _token_span(self.filename, tok),
                self.text,
            )


class _OperandGuard:
    """Counts the operands of the goal or move constraint being read;
    refuses more than :data:`MAX_OPERANDS` of them."""

    def __init__(self, filename: str, text: str):
        self.filename = filename
        self.text = text
        self.operands = 1
        self.in_condition = False  # a rule's `then` ends its condition

    def see(self, tok: Token) -> None:
        kind = tok.type
        if kind in _EXPRESSION_STARTS:
            self.operands, self.in_condition = 1, kind == "_IF"
        elif kind == "_THEN" and self.in_condition:
            self.operands, self.in_condition = 1, False
        elif kind in _JOINERS:
            self.operands += 1
            if self.operands > MAX_OPERANDS:
                raise AdviceSyntaxError(
                    f"too many operands in one goal or move constraint (at most {MAX_OPERANDS:,} "
                    "joined by 'and', 'or' and 'then'): split it into pieces of advice or "
                    "define a predicate in the knowledge base",
                    _token_span(self.filename, tok), self.text)


def _check_literal(tok: Token, filename: str, text: str) -> None:
    """Refuse integer literals out of range and unknown string escapes as soon as they are read."""
    if tok.type == "INT":
        digits = tok.value.lstrip("-")
        # (lengths first: Python refuses to convert more than 4,300 digits)
        if len(digits) > MAX_INT_DIGITS and len(digits.lstrip("0")) <= MAX_INT_DIGITS:
            raise AdviceSyntaxError(
                f"integer literal of {len(digits):,} digits (at most {MAX_INT_DIGITS}: write it "
                "without leading zeros)", _token_span(filename, tok), text
            )
        if len(digits) > MAX_INT_DIGITS or int(digits) > MAX_INT:
            raise AdviceSyntaxError(
                f"integer out of range (at most {MAX_INT} in magnitude)", _token_span(filename, tok), text
            )
    elif tok.type == "STRING":
        body = tok.value[1:-1]
        i = 0
        while i < len(body):
            if body[i] == "\\":
                escaped = body[i + 1]
                if escaped not in _STRING_ESCAPES:
                    col = tok.column + 1 + i
                    raise AdviceSyntaxError(
                        f"unknown escape sequence '{printable(chr(92) + escaped)}' in a string "
                        "(use \\\\, \\\", \\n or \\t)",
                        Span(filename, tok.line, col, tok.line, col + 2),
                        text,
                    )
                i += 2
            else:
                i += 1


def _unescape(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            out.append(_STRING_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _quote_char(ch: str) -> str:
    if ch == "'":
        return "\"'\""
    if ch.isprintable() and not ch.isspace():
        return f"'{ch}'"
    return f"U+{ord(ch):04X}"


def _character_error(exc: UnexpectedCharacters, text: str, filename: str) -> AdviceSyntaxError:
    ch = exc.char
    span = Span(filename, exc.line, exc.column, exc.line, exc.column + 1)
    if ch == '"':
        message = "unterminated string (a string must end with '\"' on the same line)"
    elif ch == "'":
        message = "unexpected character \"'\" (strings are written in double quotes)"
    elif "A" <= ch <= "Z":
        message = f"unexpected character '{ch}' (names start with a lowercase letter or '_')"
    elif ch == "-":
        message = "unexpected character '-' (a minus sign must be followed by digits)"
    elif ch == "!":
        message = "unexpected character '!' (did you mean '!=' ?)"
    else:
        message = f"unexpected character {_quote_char(ch)}"
    return AdviceSyntaxError(message, span, text)


# Words for the terminals of grammar.lark.
_KEYWORDS = {
    "_TABLE": "table",
    "_USES": "uses",
    "_RULE": "rule",
    "_IF": "if",
    "_THEN": "then",
    "_ADVICE": "advice",
    "BETTER": "better",
    "HOLDING": "holding",
    "US": "us",
    "THEM": "them",
    "_AND": "and",
    "_OR": "or",
    "_NOT": "not",
    "_TRUE": "true",
    "_FALSE": "false",
    "_DEPTH": "depth",
    "_NOMOVE": "nomove",
}
_PUNCTUATION = {"_COLON": ":", "_COMMA": ",", "_LPAR": "(", "_RPAR": ")", "_SLASH": "/", "DOT": ".",
                "DOTDOT": ".."}
_OTHER_WORDS = {
    "CMP": "a comparison ('=', '<', '=<', '>', '>=' or '\\=')",
    "INT": "an integer",
    "STRING": "a string",
    "NAME": "a name",
    "$END": "the end of the file",
}
_PART_TERMINALS = ("BETTER", "HOLDING", "US", "THEM")
# Keywords that end or join phrases: meeting one where a name could go is
# rarely an attempt to use it as a name, so no "reserved word" hint then.
_SEPARATORS = {"_THEN", "_AND", "_OR", "_RULE", "_ADVICE", "_IF", "_NOT", "_TRUE", "_FALSE"}

# Groups of terminals worded as one thing, tried in this order.
_GROUPS: list[tuple[frozenset[str], str]] = [
    (
        frozenset({"NAME", "_NOT", "_TRUE", "_FALSE", "_LPAR"}),
        "a goal (a predicate name, 'not', 'true', 'false' or '(')",
    ),
    (
        frozenset({"NAME", "_DEPTH", "_NOMOVE", "_LPAR"}),
        "a move constraint (a constraint name, 'depth', 'nomove' or '(')",
    ),
    (frozenset({"INT", "NAME", "STRING"}), "a literal argument (an integer, a name or a string)"),
    (frozenset(_PART_TERMINALS), "a part ('better:', 'holding:', 'us:' or 'them:')"),
]

# Order in which single terminals are listed.
_ORDER = [
    "_LPAR", "_RPAR", "_COMMA", "_COLON", "_SLASH", "DOT", "DOTDOT", "_AND", "_OR", "_THEN", "_IF", "CMP", "INT", "STRING",
    "NAME", "_NOT", "_TRUE", "_FALSE", "_DEPTH", "_NOMOVE", "BETTER", "HOLDING", "US", "THEM", "_USES",
    "_TABLE", "_RULE", "_ADVICE", "$END",
]


def _word(terminal: str) -> str:
    if terminal in _KEYWORDS:
        return f"'{_KEYWORDS[terminal]}'"
    if terminal in _PUNCTUATION:
        return f"'{_PUNCTUATION[terminal]}'"
    return _OTHER_WORDS.get(terminal, "something else")


def _join_or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _short(value: str, limit: int = 30) -> str:
    value = printable(value)
    return value if len(value) <= limit else value[: limit - 3] + "..."


def _describe_token(tok: Token) -> str:
    kind = tok.type
    if kind == "$END":
        return "end of file"
    if kind == "NAME":
        return f"name '{_short(tok.value)}'"
    if kind == "INT":
        return f"integer {_short(tok.value)}"
    if kind == "STRING":
        return f"string {_short(tok.value)}"
    if kind in _KEYWORDS:
        return f"keyword '{tok.value}'"
    if kind == "CMP":
        return f"'{tok.value}'"
    return f"'{_short(tok.value)}'"


def _expected_words(expected: set[str], before: list[Token]) -> str:
    """Say in words what the parser expected, given the tokens read before the bad one."""
    last = before[-1].type if before else None
    second_last = before[-2].type if len(before) >= 2 else None
    if expected == {"_COLON"}:
        if last == "NAME" and second_last == "_RULE":
            return "':' after the rule name"
        if last == "NAME" and second_last == "_ADVICE":
            return "':' after the advice name"
        if last in _PART_TERMINALS:
            return f"':' after '{before[-1].value}'"
    if last == "_USES":
        return "a module path such as chess/krk"
    if last == "_SLASH" and "NAME" in expected:
        return "a name after '/'"
    if last == "DOT" and expected == {"NAME"}:
        return "a name after '.' (e.g. my_game.pl)"
    if expected == {"NAME"}:
        if last == "_TABLE":
            return "a name for the table"
        if last == "_RULE":
            return "a name for the rule"
        if last == "_ADVICE":
            return "a name for the piece of advice"
        if last == "_COMMA":
            return "an advice name after ','"
    if expected == {"_IF"}:
        return "'if' and a condition after the rule's ':'"
    if expected == {"CMP"}:
        return "a comparison ('=', '<', '=<', '>', '>=' or '\\=') after 'depth'"
    if expected == {"INT"} and last == "CMP":
        return f"an integer after 'depth {before[-1].value}'"
    if expected == {"_TABLE"}:
        return "'table' (a table begins with 'table' and its name)"
    remaining = set(expected)
    items: list[tuple[int, str]] = []
    for group, phrase in _GROUPS:
        if group <= remaining:
            items.append((min(_rank(t) for t in group), phrase))
            remaining -= group
    items.extend((_rank(t), _word(t)) for t in remaining)
    return _join_or([phrase for _, phrase in sorted(items)]) or "something else"


def _rank(terminal: str) -> int:
    return _ORDER.index(terminal) if terminal in _ORDER else len(_ORDER)


def _accepted_terminals(tokens_before: list[Token]) -> set[str] | None:
    """The terminals the parser accepts after ``tokens_before`` (precise, unlike LALR's ``expected``)."""
    try:
        interactive = _lark().parse_interactive("")
        for tok in tokens_before:
            interactive.feed_token(tok)
        return set(interactive.accepts())
    except LarkError:  # pragma: no cover - the same tokens were accepted before
        return None


def _token_error(exc: UnexpectedToken, tokens: list[Token], text: str, filename: str) -> AdviceSyntaxError:
    tok = exc.token
    before = tokens[:-1] if tokens and tokens[-1] is tok else list(tokens)
    expected = _accepted_terminals(before) or set(exc.expected)
    phrase = _expected_words(expected, before)
    if tok.type == "$END":
        if before:
            last = before[-1]
            span = Span(filename, last.end_line, last.end_column, last.end_line, last.end_column)
        else:
            span = Span(filename, 1, 1, 1, 1)
        return AdviceSyntaxError(f"unexpected end of file: expected {phrase}", span, text)
    message = f"unexpected {_describe_token(tok)}: expected {phrase}"
    if tok.type in _KEYWORDS and "NAME" in expected and (expected == {"NAME"} or tok.type not in _SEPARATORS):
        message += f" ('{tok.value}' is a reserved word)"
    return AdviceSyntaxError(message, _token_span(filename, tok), text)


# ------------------------------------------------------- tree -> AST


@v_args(meta=True)
class _ToAst(Transformer):
    """Builds :mod:`advice.ast` nodes bottom-up; every node gets its span."""

    def __init__(self, filename: str, text: str):
        super().__init__(visit_tokens=False)
        self.filename = filename
        self.text = text

    def _span(self, meta) -> Span:
        return Span(self.filename, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> Span:
        return _token_span(self.filename, tok)

    # -- structure

    def start(self, meta, children):
        return children[0]

    def table(self, meta, children):
        name_tok, title_tok, uses = children[0], children[1], children[2]
        items = children[3:]
        uses_path, uses_span = uses if uses is not None else (None, None)
        return ast.Table(
            name=str(name_tok),
            title=_unescape(title_tok[1:-1]) if title_tok is not None else None,
            uses=uses_path,
            rules=tuple(i for i in items if isinstance(i, ast.Rule)),
            advices=tuple(i for i in items if isinstance(i, ast.Advice)),
            span=self._span(meta),
            name_span=self._tspan(name_tok),
            uses_span=uses_span,
            source=self.text,
        )

    def uses(self, meta, children):
        if isinstance(children[0], Token) and children[0].type == "STRING":
            path = _unescape(children[0][1:-1])
            if not path:
                raise AdviceSyntaxError("empty path after 'uses': name a knowledge base",
                                        self._tspan(children[0]), self.text)
            return path, self._span(meta)
        return "/".join(children), self._span(meta)

    def path_step(self, meta, children):
        return "".join(str(t) for t in children)

    def rule(self, meta, children):
        name_tok, condition, names = children
        return ast.Rule(
            name=str(name_tok),
            condition=condition,
            advice_names=names,
            span=self._span(meta),
            name_span=self._tspan(name_tok),
        )

    def advice_names(self, meta, children):
        return tuple(ast.Name(str(t), self._tspan(t)) for t in children)

    def advice(self, meta, children):
        name_tok, parts = children[0], tuple(children[1:])
        first: dict[str, ast.AdvicePart] = {}
        for part in parts:
            first.setdefault(part.kind, part)

        def body(kind):
            return first[kind].body if kind in first else None

        return ast.Advice(
            name=str(name_tok),
            better=body("better"),
            holding=body("holding"),
            us=body("us"),
            them=body("them"),
            parts=parts,
            span=self._span(meta),
            name_span=self._tspan(name_tok),
        )

    def part(self, meta, children):
        kind_tok, body = children
        return ast.AdvicePart(kind=str(kind_tok), body=body, span=self._span(meta))

    # -- goals

    def goal(self, meta, children):
        return children[0] if len(children) == 1 else ast.GoalOr(tuple(children), self._span(meta))

    def goal_and(self, meta, children):
        return children[0] if len(children) == 1 else ast.GoalAnd(tuple(children), self._span(meta))

    def goal_not(self, meta, children):
        return ast.GoalNot(children[0], self._span(meta))

    def goal_true(self, meta, children):
        return ast.GoalTrue(self._span(meta))

    def goal_false(self, meta, children):
        return ast.GoalFalse(self._span(meta))

    def goal_pred(self, meta, children):
        name_tok, args = children
        return ast.GoalPred(str(name_tok), args or (), self._span(meta), self._tspan(name_tok))

    # -- move constraints

    def move(self, meta, children):
        return children[0] if len(children) == 1 else ast.MoveThen(tuple(children), self._span(meta))

    def move_and(self, meta, children):
        return children[0] if len(children) == 1 else ast.MoveAnd(tuple(children), self._span(meta))

    def depth_test(self, meta, children):
        op_tok, int_tok = children
        return ast.DepthTest(DEPTH_OPERATORS[str(op_tok)], int(int_tok), self._span(meta))

    def nomove(self, meta, children):
        return ast.NoMove(self._span(meta))

    def move_pred(self, meta, children):
        name_tok, args = children
        return ast.MovePred(str(name_tok), args or (), self._span(meta), self._tspan(name_tok))

    # -- literals

    def args(self, meta, children: Iterable[Token]):
        return tuple(self._literal(t) for t in children)

    def _literal(self, tok: Token) -> ast.Literal:
        span = self._tspan(tok)
        if tok.type == "INT":
            return ast.IntLit(int(tok), span)
        if tok.type == "STRING":
            return ast.StrLit(_unescape(tok[1:-1]), span)
        return ast.AtomLit(str(tok), span)
