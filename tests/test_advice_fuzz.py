"""Fuzzing the parser and checker: whatever the input, only AdviceError escapes.

Random text, truncations of a valid table, token swaps/deletions/
duplications, and insertions of hostile strings must make ``parse`` and
``check`` either succeed or raise an :class:`AdviceError` subclass, never
another exception; and every error must render with a position.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advice.checker import KBVocabulary, check, check_or_raise
from advice.errors import AdviceError, AdviceSyntaxError
from advice.parser import parse

VALID = """\
table krk "King and rook versus king"
uses chess/krk   % the KB module

rule edge_rule:
    if their_king_edge and kings_close
    then mate_in_2, squeeze, approach
rule else_rule:
    if true   # always
    then squeeze, approach

advice mate_in_2:
    better:  mate
    holding: not rooklost and (their_king_edge or room_below(3))
    us:      depth = 0 and legal then depth =< 2 and checkmove
    them:    depth \\= 1 and legal

advice squeeze:
    better:  newroomsmaller and not stalemate and foo(a, -2, "str")
    holding: not rooklost
    us:      rookmove then nomove
    them:    legal

advice approach:
    better: false
    holding: true
    us: depth >= 0 and legal
    them: nomove
"""

VOCAB = KBVocabulary(
    module="krk",
    predicates={
        "mate": frozenset({1}),
        "stalemate": frozenset({1}),
        "rooklost": frozenset({1}),
        "their_king_edge": frozenset({1}),
        "kings_close": frozenset({1}),
        "newroomsmaller": frozenset({2}),
        "room_below": frozenset({2}),
        "foo": frozenset({4}),
        "legal": frozenset({3}),
        "checkmove": frozenset({3}),
        "rookmove": frozenset({3}),
    },
    move_constraints=frozenset({"legal", "checkmove", "rookmove"}),
)

HOSTILE = [
    "x)), halt, (y",
    "foo)), halt, assertz(name(bar",
    "'",
    '"',
    "\\",
    '"\\',
    "\x00",
    "\u00e9\u4e2d\U0001f600",
    "\u2028",
    "\r",
    "\ufeff",
    "((((",
    "))))",
    "not " * 80,
    "(" * 80,
    "9" * 5000,
    "-",
    "depth",
    ":",
    ",",
    "%",
    "#",
    "\t",
    '"\\q"',
    "Abc",
    "_",
]

TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|-?\d+|=<|<=|>=|\\=|!=|\S')
TOKENS = TOKEN_RE.findall(VALID)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_only_advice_errors(text: str) -> None:
    """parse + check either succeed or raise AdviceError; errors render with a position."""
    try:
        table = parse(text, "fuzz.adv")
    except AdviceSyntaxError as exc:
        rendered = str(exc)
        assert rendered.startswith(f"fuzz.adv:{exc.line}:{exc.column}: error: ")
        assert exc.line >= 1 and exc.column >= 1
        assert "\x00" not in rendered
        for name in ("RPAR", "LPAR", "__ANON", "_COLON", "$END", "NAME", "CMP"):
            # a grammar terminal's name must not leak into the message,
            # unless the input itself holds it (then it is the user's text)
            assert name not in exc.message or name in text
        return
    diagnostics = check(table, VOCAB)
    for d in diagnostics:
        assert d.severity in ("error", "warning")
        assert d.span is not None
        d.render(table.source)
    try:
        check_or_raise(table, VOCAB)
    except AdviceError as exc:
        assert str(exc)


def test_valid_table_is_clean():
    assert check(parse(VALID), VOCAB) == []


@FUZZ
@given(st.text(max_size=300))
def test_random_text(text):
    assert_only_advice_errors(text)


@FUZZ
@given(st.lists(st.sampled_from(sorted(set(TOKENS)) + [" ", "\n", "\t"]), max_size=80))
def test_random_token_soup(tokens):
    assert_only_advice_errors(" ".join(tokens))


@FUZZ
@given(st.integers(min_value=0, max_value=len(VALID)))
def test_truncations(n):
    assert_only_advice_errors(VALID[:n])


@FUZZ
@given(st.data())
def test_token_edits(data):
    tokens = list(TOKENS)
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        i = data.draw(st.integers(min_value=0, max_value=len(tokens) - 1))
        op = data.draw(st.sampled_from(["delete", "duplicate", "swap", "replace"]))
        if op == "delete" and len(tokens) > 1:
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = data.draw(st.integers(min_value=0, max_value=len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens[i] = data.draw(st.sampled_from(TOKENS))
    assert_only_advice_errors(" ".join(tokens))


@FUZZ
@given(st.integers(min_value=0, max_value=len(VALID)), st.sampled_from(HOSTILE) | st.text(max_size=10))
def test_hostile_insertions(position, hostile):
    assert_only_advice_errors(VALID[:position] + hostile + VALID[position:])


@FUZZ
@given(st.sampled_from(HOSTILE))
def test_hostile_in_name_and_argument_positions(hostile):
    for template in (
        "table t\nrule r: if {} then a\n",
        "table t\nrule r: if f({}) then a\n",
        "table t\nadvice a:\n us: {}\n",
        'table t "{}"\n',
        "table t uses {}\n",
    ):
        assert_only_advice_errors(template.format(hostile))


# Well-formed tables with random names and shapes, to drive the checker.
NAMES = sorted(VOCAB.predicates) + ["nosuch", "legalmove", "to_move", "mate_in_2", "squeeze", "x"]
LITERALS = st.sampled_from(["1", "-2", "a", '"s"', "0"])


def _args():
    return st.lists(LITERALS, max_size=3).map(lambda xs: f"({', '.join(xs)})" if xs else "")


def _pred():
    return st.tuples(st.sampled_from(NAMES), _args()).map("".join)


GOALS = st.recursive(
    st.one_of(st.just("true"), st.just("false"), _pred()),
    lambda inner: st.one_of(
        inner.map(lambda g: f"not {g}"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]} and {p[1]})"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]} or {p[1]})"),
    ),
    max_leaves=6,
)
MOVES = st.recursive(
    st.one_of(
        st.just("nomove"),
        _pred(),
        st.tuples(st.sampled_from(["=", "<", "=<", ">", ">=", "\\=", "<=", "!="]), st.integers(-3, 5)).map(
            lambda p: f"depth {p[0]} {p[1]}"
        ),
    ),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda p: f"({p[0]} and {p[1]})"),
        st.tuples(inner, inner).map(lambda p: f"({p[0]} then {p[1]})"),
    ),
    max_leaves=6,
)
PART = st.one_of(
    st.tuples(st.sampled_from(["better", "holding"]), GOALS),
    st.tuples(st.sampled_from(["us", "them"]), MOVES),
).map(lambda p: f"    {p[0]}: {p[1]}\n")
ADVICE = st.tuples(st.sampled_from(NAMES), st.lists(PART, max_size=6)).map(
    lambda a: f"advice {a[0]}:\n" + "".join(a[1])
)
RULE = st.tuples(st.sampled_from(NAMES), GOALS, st.lists(st.sampled_from(NAMES), max_size=3)).map(
    lambda r: f"rule {r[0]}: if {r[1]} then {', '.join(r[2])}\n"
)
TABLES = st.tuples(
    st.sampled_from(["", "uses chess/krk\n", "uses games/nim\n"]),
    st.lists(st.one_of(RULE, ADVICE), max_size=6),
).map(lambda t: "table t\n" + t[0] + "".join(t[1]))


@FUZZ
@given(TABLES)
def test_generated_tables_parse_and_check(text):
    table = parse(text, "gen.adv")  # well-formed by construction
    for d in check(table, VOCAB):
        assert d.span is not None and d.span.file == "gen.adv"
        assert d.render(text).startswith(f"gen.adv:{d.span.line}:{d.span.column}: {d.severity}: ")
