"""Tests of the advice-language parser: AST, spans, precedence, syntax errors."""

from __future__ import annotations

import pytest

from advice import ast
from advice.ast import (
    AtomLit,
    DepthTest,
    GoalAnd,
    GoalFalse,
    GoalNot,
    GoalOr,
    GoalPred,
    GoalTrue,
    IntLit,
    MoveAnd,
    MovePred,
    MoveThen,
    NoMove,
    Span,
    StrLit,
)
from advice.errors import AdviceError, AdviceFileError, AdviceSyntaxError, Diagnostic
from advice.parser import parse, parse_file

KRK = """\
table krk "King and rook versus king"
uses chess/krk                 % the KB module the predicates come from

rule edge_rule:
    if their_king_edge and kings_close
    then mate_in_2, squeeze, approach, keeproom, divide_in_2, divide_in_3
rule else_rule:
    if true
    then squeeze, approach, keeproom, divide_in_2, divide_in_3

advice mate_in_2:
    better:  mate
    holding: not rooklost and their_king_edge
    us:      depth = 0 and legal then depth = 2 and checkmove
    them:    depth = 1 and legal
"""


def shape(node):
    """The AST without spans, as nested tuples, for compact comparisons."""
    if isinstance(node, tuple):
        return tuple(shape(n) for n in node)
    if isinstance(node, (GoalAnd, GoalOr, MoveAnd, MoveThen)):
        return (type(node).__name__, *shape(node.operands))
    if isinstance(node, GoalNot):
        return ("GoalNot", shape(node.operand))
    if isinstance(node, (GoalTrue, GoalFalse, NoMove)):
        return type(node).__name__
    if isinstance(node, (GoalPred, MovePred)):
        return (type(node).__name__, node.name, *shape(node.args))
    if isinstance(node, DepthTest):
        return ("depth", node.op, node.value)
    if isinstance(node, (IntLit, AtomLit, StrLit)):
        return node.value
    raise TypeError(node)


def goal_of(text: str):
    return parse(f"table t\nrule r: if {text} then a\n").rules[0].condition


def move_of(text: str):
    return parse(f"table t\nadvice a:\n us: {text}\n").advices[0].us


def syntax_error(text: str, filename: str = "t.adv") -> AdviceSyntaxError:
    with pytest.raises(AdviceSyntaxError) as info:
        parse(text, filename)
    return info.value


# ------------------------------------------------------------------ KRK


def test_krk_table_structure():
    t = parse(KRK, "krk.adv")
    assert t.name == "krk"
    assert t.title == "King and rook versus king"
    assert t.uses == "chess/krk"
    assert [r.name for r in t.rules] == ["edge_rule", "else_rule"]
    assert [n.value for n in t.rules[0].advice_names] == [
        "mate_in_2", "squeeze", "approach", "keeproom", "divide_in_2", "divide_in_3",
    ]
    assert shape(t.rules[0].condition) == (
        "GoalAnd", ("GoalPred", "their_king_edge"), ("GoalPred", "kings_close"),
    )
    assert shape(t.rules[1].condition) == "GoalTrue"
    (a,) = t.advices
    assert a.name == "mate_in_2"
    assert shape(a.better) == ("GoalPred", "mate")
    assert shape(a.holding) == (
        "GoalAnd", ("GoalNot", ("GoalPred", "rooklost")), ("GoalPred", "their_king_edge"),
    )
    assert shape(a.us) == (
        "MoveThen",
        ("MoveAnd", ("depth", "=", 0), ("MovePred", "legal")),
        ("MoveAnd", ("depth", "=", 2), ("MovePred", "checkmove")),
    )
    assert shape(a.them) == ("MoveAnd", ("depth", "=", 1), ("MovePred", "legal"))
    assert [p.kind for p in a.parts] == ["better", "holding", "us", "them"]
    assert t.source == KRK


def test_krk_spans():
    t = parse(KRK, "krk.adv")
    assert t.span.file == "krk.adv"
    assert t.name_span == Span("krk.adv", 1, 7, 1, 10)
    assert t.uses_span == Span("krk.adv", 2, 1, 2, 15)
    edge = t.rules[0]
    assert edge.span.line == 4 and edge.span.column == 1 and edge.span.end_line == 6
    assert edge.name_span == Span("krk.adv", 4, 6, 4, 15)
    assert edge.condition.operands[1].span == Span("krk.adv", 5, 28, 5, 39)  # kings_close
    assert edge.advice_names[1] == ast.Name("squeeze", Span("krk.adv", 6, 21, 6, 28))
    assert t.rules[1].condition.span == Span("krk.adv", 8, 8, 8, 12)  # true
    a = t.advices[0]
    assert a.name_span == Span("krk.adv", 11, 8, 11, 17)
    assert a.parts[1].span == Span("krk.adv", 13, 5, 13, 46)  # holding: ...
    assert a.holding.operands[0].span == Span("krk.adv", 13, 14, 13, 26)  # not rooklost
    checkmove = a.us.operands[1].operands[1]
    assert checkmove.name == "checkmove"
    assert checkmove.span == Span("krk.adv", 14, 53, 14, 62)
    assert a.us.operands[1].operands[0].span == Span("krk.adv", 14, 39, 14, 48)  # depth = 2


def test_nodes_are_frozen_and_hashable():
    t = parse(KRK)
    with pytest.raises(AttributeError):
        t.name = "other"  # type: ignore[misc]
    assert hash(t.advices[0].us) == hash(parse(KRK).advices[0].us)
    assert t == parse(KRK)


def test_default_filename_and_parse_file(tmp_path):
    assert parse(KRK).span.file == "<string>"
    path = tmp_path / "krk.adv"
    path.write_text(KRK, encoding="utf-8")
    t = parse_file(path)
    assert t.span.file == str(path)
    assert t.rules[0].name == "edge_rule"


def test_parse_file_missing(tmp_path):
    missing = tmp_path / "nope.adv"
    with pytest.raises(AdviceFileError) as info:
        parse_file(missing)
    assert isinstance(info.value, AdviceError)
    assert str(info.value) == f"{missing}: error: no such file"


def test_parse_file_not_utf8(tmp_path):
    path = tmp_path / "bad.adv"
    path.write_bytes(b"table t\n\xff\n")
    with pytest.raises(AdviceFileError, match=r"bad.adv:2: error: the file is not UTF-8 text"):
        parse_file(path)


# ----------------------------------------------------------- structure


def test_minimal_table_title_and_uses_optional():
    t = parse("table t")
    assert (t.name, t.title, t.uses, t.rules, t.advices, t.uses_span) == ("t", None, None, (), (), None)


def test_uses_path_forms():
    assert parse("table t uses games/tictactoe").uses == "games/tictactoe"
    assert parse("table t uses krk").uses == "krk"
    assert parse("table t uses a / b/c").uses == "a/b/c"


def test_title_escapes():
    assert parse(r'table t "a \"b\" \\ c\td"').title == 'a "b" \\ c\td'


def test_rules_and_advice_may_interleave():
    t = parse("table t\nadvice a: better: x\nrule r: if true then a\nadvice b: us: legal\nrule s: if x then b")
    assert [r.name for r in t.rules] == ["r", "s"]
    assert [a.name for a in t.advices] == ["a", "b"]


def test_empty_advice_list_parses():
    t = parse("table t\nrule r: if true then\nrule s: if true then a")
    assert t.rules[0].advice_names == ()
    assert [n.value for n in t.rules[1].advice_names] == ["a"]


def test_parts_any_order_missing_and_repeated():
    t = parse("table t\nadvice a:\n them: legal\n better: x\n us: nomove\n better: y\n")
    a = t.advices[0]
    assert [p.kind for p in a.parts] == ["them", "better", "us", "better"]
    assert shape(a.better) == ("GoalPred", "x")  # the first occurrence
    assert a.holding is None
    assert shape(a.us) == "NoMove"
    assert shape(a.them) == ("MovePred", "legal")


def test_comments_both_kinds():
    text = "# heading\ntable t % title\n  # c\nrule r: % x\n if a # and b\n then c % d\n"
    t = parse(text)
    assert shape(t.rules[0].condition) == ("GoalPred", "a")
    assert [n.value for n in t.rules[0].advice_names] == ["c"]


def test_keyword_prefix_is_a_name():
    assert shape(goal_of("notx and true_ and ruler and rules")) == (
        "GoalAnd", ("GoalPred", "notx"), ("GoalPred", "true_"), ("GoalPred", "ruler"), ("GoalPred", "rules"),
    )


def test_bom_and_crlf():
    t = parse("\ufefftable t\r\nrule r:\r\n  if a\r\n  then b\r\n", "w.adv")
    assert t.rules[0].condition.span == Span("w.adv", 3, 6, 3, 7)


# ---------------------------------------------------------- precedence


def test_goal_precedence_not_and_or():
    assert shape(goal_of("a or b and not c")) == (
        "GoalOr", ("GoalPred", "a"), ("GoalAnd", ("GoalPred", "b"), ("GoalNot", ("GoalPred", "c"))),
    )
    assert shape(goal_of("not a and b")) == ("GoalAnd", ("GoalNot", ("GoalPred", "a")), ("GoalPred", "b"))
    assert shape(goal_of("a and b or c and d")) == (
        "GoalOr", ("GoalAnd", ("GoalPred", "a"), ("GoalPred", "b")), ("GoalAnd", ("GoalPred", "c"), ("GoalPred", "d")),
    )


def test_goal_nary_and_parentheses():
    assert shape(goal_of("a and b and c")) == ("GoalAnd", ("GoalPred", "a"), ("GoalPred", "b"), ("GoalPred", "c"))
    assert shape(goal_of("a or b or c")) == ("GoalOr", ("GoalPred", "a"), ("GoalPred", "b"), ("GoalPred", "c"))
    assert shape(goal_of("not (a or b) and c")) == (
        "GoalAnd", ("GoalNot", ("GoalOr", ("GoalPred", "a"), ("GoalPred", "b"))), ("GoalPred", "c"),
    )
    assert shape(goal_of("(a)")) == ("GoalPred", "a")
    assert shape(goal_of("not not false")) == ("GoalNot", ("GoalNot", "GoalFalse"))


def test_move_precedence_and_then():
    assert shape(move_of("a then b and c")) == (
        "MoveThen", ("MovePred", "a"), ("MoveAnd", ("MovePred", "b"), ("MovePred", "c")),
    )
    assert shape(move_of("(a then b) and c")) == (
        "MoveAnd", ("MoveThen", ("MovePred", "a"), ("MovePred", "b")), ("MovePred", "c"),
    )
    assert shape(move_of("a then b then nomove")) == (
        "MoveThen", ("MovePred", "a"), ("MovePred", "b"), "NoMove",
    )


@pytest.mark.parametrize(
    "text, op",
    [("=", "="), ("<", "<"), ("=<", "=<"), ("<=", "=<"), (">", ">"), (">=", ">="), ("\\=", "\\="), ("!=", "\\=")],
)
def test_depth_operators(text, op):
    assert shape(move_of(f"depth {text} 3 and legal")) == ("MoveAnd", ("depth", op, 3), ("MovePred", "legal"))


def test_depth_without_spaces_and_negative():
    assert shape(move_of("depth>=-1 and legal")) == ("MoveAnd", ("depth", ">=", -1), ("MovePred", "legal"))


# ------------------------------------------------------------ literals


def test_literal_arguments():
    g = goal_of('room_below(3) and foo(a, -2, "str")')
    assert shape(g) == ("GoalAnd", ("GoalPred", "room_below", 3), ("GoalPred", "foo", "a", -2, "str"))
    foo = g.operands[1]
    assert [type(a) for a in foo.args] == [AtomLit, IntLit, StrLit]
    assert foo.args[2].span.column == foo.span.column + 11
    assert foo.name_span.end_column - foo.name_span.column == 3
    assert foo.span.end_column == foo.name_span.column + len('foo(a, -2, "str")')


def test_move_literal_arguments():
    m = move_of('step(2, north) then jump("x\\"y")')
    assert shape(m) == ("MoveThen", ("MovePred", "step", 2, "north"), ("MovePred", "jump", 'x"y'))


def test_no_args_means_empty_tuple():
    assert goal_of("mate").args == ()
    assert move_of("legal").args == ()


# --------------------------------------------------------- syntax errors


def test_error_missing_colon_after_rule_name():
    e = syntax_error("table t\nrule r if true then a\n")
    assert (e.filename, e.line, e.column) == ("t.adv", 2, 8)
    assert e.message == "unexpected keyword 'if': expected ':' after the rule name"
    assert str(e) == (
        "t.adv:2:8: error: unexpected keyword 'if': expected ':' after the rule name\n"
        "rule r if true then a\n"
        "       ^"
    )


def test_error_missing_colon_after_advice_name_and_part():
    e = syntax_error("table t\nadvice a\n better: x\n")
    assert (e.line, e.column) == (3, 2)
    assert e.message == "unexpected keyword 'better': expected ':' after the advice name"
    e = syntax_error("table t\nadvice a:\n better mate\n")
    assert (e.line, e.column) == (3, 9)
    assert e.message == "unexpected name 'mate': expected ':' after 'better'"


def test_error_expected_goal():
    e = syntax_error("table t\nrule r: if then a\n")
    assert (e.line, e.column) == (2, 12)
    assert e.message == (
        "unexpected keyword 'then': expected a goal (a predicate name, 'not', 'true', 'false' or '(')"
    )
    e = syntax_error("table t\nrule r: if a and or b then c\n")
    assert (e.line, e.column) == (2, 18)
    assert "expected a goal (a predicate name" in e.message


def test_error_expected_move_constraint():
    e = syntax_error("table t\nadvice a:\n us: not legal\n")
    assert (e.line, e.column) == (3, 6)
    assert e.message == (
        "unexpected keyword 'not': expected a move constraint (a constraint name, 'depth', 'nomove' or '(')"
    )


def test_error_goal_continuation_words():
    e = syntax_error("table t\nrule r: if a b then c\n")
    assert (e.line, e.column) == (2, 14)
    assert e.message == "unexpected name 'b': expected '(', 'and', 'or' or 'then'"


def test_error_after_part_lists_everything_in_words():
    e = syntax_error("table t\nadvice a:\n better: x y\n")
    assert e.message == (
        "unexpected name 'y': expected '(', 'and', 'or', a part ('better:', 'holding:', 'us:' or 'them:'), "
        "'rule', 'advice' or the end of the file"
    )


def test_error_depth_test():
    e = syntax_error("table t\nadvice a:\n us: depth legal\n")
    assert (e.line, e.column) == (3, 12)
    assert e.message == (
        "unexpected name 'legal': expected a comparison ('=', '<', '=<', '>', '>=' or '\\=') after 'depth'"
    )
    e = syntax_error("table t\nadvice a:\n us: depth = x\n")
    assert (e.line, e.column) == (3, 14)
    assert e.message == "unexpected name 'x': expected an integer after 'depth ='"


def test_error_literal_arguments():
    e = syntax_error("table t\nrule r: if room() then a\n")
    assert (e.line, e.column) == (2, 17)
    assert e.message == "unexpected ')': expected a literal argument (an integer, a name or a string)"
    e = syntax_error("table t\nrule r: if room(1 2) then a\n")
    assert (e.line, e.column) == (2, 19)
    assert e.message == "unexpected integer 2: expected ')' or ','"


def test_error_reserved_word_as_name():
    e = syntax_error("table t\nrule rule: if true then a\n")
    assert (e.line, e.column) == (2, 6)
    assert e.message == "unexpected keyword 'rule': expected a name for the rule ('rule' is a reserved word)"
    e = syntax_error("table t\nadvice a:\n better: us\n")
    assert e.message.endswith("('us' is a reserved word)")


def test_error_unexpected_end_of_file():
    e = syntax_error("table t\nrule r: if a and")
    assert (e.line, e.column) == (2, 17)
    assert e.message.startswith("unexpected end of file: expected a goal")
    assert str(e).splitlines()[-1] == " " * 16 + "^"
    e = syntax_error("table t\nrule r: if (a\n% trailing comment\n")
    assert (e.line, e.column) == (2, 14)
    assert e.message == "unexpected end of file: expected '(', ')', 'and' or 'or'"
    e = syntax_error("")
    assert (e.line, e.column) == (1, 1)
    assert e.message == "unexpected end of file: expected 'table' (a table begins with 'table' and its name)"
    e = syntax_error("table")
    assert e.message == "unexpected end of file: expected a name for the table"


def test_error_trailing_comma_and_missing_comma():
    e = syntax_error("table t\nrule r: if true then a,\n")
    assert (e.line, e.column) == (2, 24)
    assert e.message == "unexpected end of file: expected an advice name after ','"
    e = syntax_error("table t\nrule r: if true then a b\n")
    assert e.message == "unexpected name 'b': expected ',', 'rule', 'advice' or the end of the file"


def test_error_uses_path():
    e = syntax_error("table t\nuses\n")
    assert e.message == "unexpected end of file: expected a module path such as chess/krk"
    e = syntax_error("table t\nuses chess/\n")
    assert e.message == "unexpected end of file: expected a name after '/'"


def test_error_unknown_part_name():
    e = syntax_error("table t\nadvice a:\n worse: x\n")
    assert (e.line, e.column) == (3, 2)
    assert e.message == (
        "unexpected name 'worse': expected a part ('better:', 'holding:', 'us:' or 'them:'), "
        "'rule', 'advice' or the end of the file"
    )


def test_error_missing_if():
    e = syntax_error("table t\nrule r: true then a\n")
    assert (e.line, e.column) == (2, 9)
    assert e.message == "unexpected keyword 'true': expected 'if' and a condition after the rule's ':'"


def test_error_does_not_start_with_table():
    e = syntax_error("rule r: if true then a")
    assert (e.line, e.column) == (1, 1)
    assert e.message == "unexpected keyword 'rule': expected 'table' (a table begins with 'table' and its name)"


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("table Krk", 7, "unexpected character 'K' (names start with a lowercase letter or '_')"),
        ("table t 'title'", 9, "unexpected character \"'\" (strings are written in double quotes)"),
        ('table t "title', 9, "unterminated string (a string must end with '\"' on the same line)"),
        ("table t @", 9, "unexpected character '@'"),
        ("table t \x00", 9, "unexpected character U+0000"),
        ("table t \u00e9", 9, "unexpected character '\u00e9'"),
        ("table t \u00a0", 9, "unexpected character U+00A0"),
        ("table t ! x", 9, "unexpected character '!' (did you mean '!=' ?)"),
        ("table t - x", 9, "unexpected character '-' (a minus sign must be followed by digits)"),
    ],
)
def test_error_unexpected_characters(text, column, message):
    e = syntax_error(text)
    assert (e.line, e.column) == (1, column)
    assert e.message == message
    assert str(e).splitlines()[2] == " " * (column - 1) + "^"


def test_error_bad_escape_points_into_the_string():
    e = syntax_error('table t\nrule r: if f("ab\\q") then a\n')
    assert (e.line, e.column) == (2, 17)
    assert e.message == "unknown escape sequence '\\q' in a string (use \\\\, \\\", \\n or \\t)"


def test_error_integer_out_of_range():
    e = syntax_error("table t\nrule r: if f(99999999999999999999) then a\n")
    assert (e.line, e.column) == (2, 14)
    assert e.message == "integer out of range (at most 9223372036854775807 in magnitude)"
    assert goal_of("f(-9223372036854775807)").args[0].value == -(2**63 - 1)


def test_error_nesting_limit():
    e = syntax_error("table t\nrule r: if " + "(" * 60 + "a" + ")" * 60 + " then a\n")
    assert e.message == "too deeply nested (more than 50 levels of parentheses and 'not')"
    assert (e.line, e.column) == (2, 12 + 50)
    e = syntax_error("table t\nrule r: if " + "not " * 60 + "a then b\n")
    assert e.message.startswith("too deeply nested")
    # 40 levels are fine
    assert parse("table t\nrule r: if " + "(" * 40 + "a" + ")" * 40 + " then a\n").rules


def test_caret_keeps_tabs_and_escapes_control_characters():
    e = syntax_error("table t\n\trule\t\x01r")
    assert (e.line, e.column) == (2, 7)
    lines = str(e).splitlines()
    assert lines[1] == "\trule\t\\x01r"
    assert lines[2] == "\t    \t^"


def test_long_token_values_are_shortened():
    e = syntax_error("table t\nrule r: if a " + "b" * 100 + " then c\n")
    assert e.message == "unexpected name '" + "b" * 27 + "...': expected '(', 'and', 'or' or 'then'"


def test_diagnostic_render_and_header():
    d = Diagnostic("warning", "advice 'x' is never used by any rule", Span("f.adv", 2, 3, 2, 4))
    assert d.render("line one\n  x here\n") == (
        "f.adv:2:3: warning: advice 'x' is never used by any rule\n  x here\n  ^"
    )
    assert d.render(None) == str(d) == "f.adv:2:3: warning: advice 'x' is never used by any rule"
    assert d.render(["only one line"]) == str(d)  # line 2 not available
    with pytest.raises(ValueError):
        Diagnostic("fatal", "x", None)
