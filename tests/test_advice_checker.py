"""Tests of the advice-language checker against a small KB vocabulary."""

from __future__ import annotations

import pytest

from advice.checker import (
    KBVocabulary,
    check,
    check_or_raise,
    resolve_goal_arity,
    resolve_move_arity,
    uses_matches_module,
)
from advice.errors import AdviceCheckError, AdviceError
from advice.parser import parse

VOCAB = KBVocabulary(
    module="krk",
    predicates={
        "mate": frozenset({1}),
        "stalemate": frozenset({1}),
        "rooklost": frozenset({1}),
        "their_king_edge": frozenset({1}),
        "kings_close": frozenset({1}),
        "room": frozenset({1}),
        "roomgt2": frozenset({1}),
        "newroomsmaller": frozenset({2}),  # (Pos, Root)
        "room_below": frozenset({2}),  # (N, Pos) or (Pos, Root)
        "both": frozenset({1, 2}),
        "zero": frozenset({0}),
        "legal": frozenset({3}),
        "checkmove": frozenset({3}),
        "kingdiagfirst": frozenset({3}),
        "steps": frozenset({4}),  # steps(N, Pos, Move, Pos1)
        "legalmove": frozenset({3}),
        "to_move": frozenset({2}),
    },
    move_constraints=frozenset({"legal", "checkmove", "kingdiagfirst", "steps", "rookmove"}),
    interface=frozenset({"legalmove", "to_move", "depth", "reset_depth", "outcome",
                         "move_text", "move_constraint"}),
)

GOOD = """\
table krk "King and rook versus king"
uses chess/krk

rule edge_rule:
    if their_king_edge and kings_close
    then mate_in_2, squeeze
rule else_rule:
    if true
    then squeeze

advice mate_in_2:
    better:  mate
    holding: not rooklost and their_king_edge
    us:      depth = 0 and legal then depth = 2 and checkmove
    them:    depth = 1 and legal

advice squeeze:
    better:  newroomsmaller and not stalemate and room_below(3)
    holding: not rooklost
    us:      steps(2) then rookmove
    them:    legal
"""


def diagnostics_of(text: str, vocab: KBVocabulary = VOCAB):
    return [(d.severity, d.span.line, d.span.column, d.message) for d in check(parse(text, "t.adv"), vocab)]


def advice_table(better="mate", holding="true", us="legal", them="legal", extra=""):
    return (
        "table t\nrule r: if true then a\n"
        f"advice a:\n better: {better}\n holding: {holding}\n us: {us}\n them: {them}\n{extra}"
    )


def test_good_table_has_no_diagnostics():
    assert diagnostics_of(GOOD) == []
    assert check_or_raise(parse(GOOD), VOCAB) == []


def test_resolve_goal_arity():
    assert resolve_goal_arity(VOCAB, "mate", 0) == 1
    assert resolve_goal_arity(VOCAB, "newroomsmaller", 0) == 2
    assert resolve_goal_arity(VOCAB, "room_below", 1) == 2
    assert resolve_goal_arity(VOCAB, "room_below", 0) == 2
    assert resolve_goal_arity(VOCAB, "both", 0) == 1  # k+1 preferred
    assert resolve_goal_arity(VOCAB, "mate", 1) is None
    assert resolve_goal_arity(VOCAB, "legal", 1) is None  # a move constraint, though legal/3 exists
    assert resolve_goal_arity(VOCAB, "legalmove", 1) is None  # interface
    assert resolve_goal_arity(VOCAB, "nosuch", 0) is None


def test_resolve_move_arity():
    assert resolve_move_arity(VOCAB, "legal", 0) == 3
    assert resolve_move_arity(VOCAB, "steps", 1) == 4
    assert resolve_move_arity(VOCAB, "steps", 0) is None
    assert resolve_move_arity(VOCAB, "rookmove", 5) == 8  # no arities known: not checked
    assert resolve_move_arity(VOCAB, "mate", 0) is None


def test_unknown_goal_predicate_with_suggestions():
    assert diagnostics_of(advice_table(better="roomx")) == [
        ("error", 4, 10, "unknown goal predicate 'roomx'; did you mean room, roomgt2?"),
    ]


def test_unknown_goal_predicate_without_suggestions():
    assert diagnostics_of(advice_table(holding="not qqqqq(1)")) == [
        ("error", 5, 15, "unknown goal predicate 'qqqqq'"),
    ]


def test_wrong_goal_arity():
    assert diagnostics_of(advice_table(better="mate(1, 2)")) == [
        ("error", 4, 10, "goal 'mate' is given 2 literal arguments; the knowledge base defines mate/1, which allows 0"),
    ]
    assert diagnostics_of(advice_table(better="both(a, b)")) == [
        (
            "error", 4, 10,
            "goal 'both' is given 2 literal arguments; the knowledge base defines both/1 and both/2, which allow 0 or 1",
        ),
    ]
    assert diagnostics_of(advice_table(better="zero")) == [
        ("error", 4, 10, "goal 'zero' is given 0 literal arguments; the knowledge base defines zero/0, "
         "which cannot be called as a goal"),
    ]


def test_move_constraint_used_as_goal():
    assert diagnostics_of(advice_table(holding="legal")) == [
        ("error", 5, 11, "'legal' is a move constraint, not a goal; move constraints belong in 'us:' and 'them:'"),
    ]


def test_interface_predicate_used_as_goal():
    assert diagnostics_of(advice_table(holding="to_move(us_side)")) == [
        ("error", 5, 11, "'to_move' is part of the domain interface, not a goal predicate"),
    ]


def test_goal_predicate_used_as_move_constraint():
    assert diagnostics_of(advice_table(us="mate")) == [
        ("error", 6, 6, "'mate' is a goal predicate, not a move constraint; "
         "goals belong in 'if', 'better:' and 'holding:'"),
    ]


def test_unknown_move_constraint():
    assert diagnostics_of(advice_table(them="depth = 1 and legl")) == [
        ("error", 7, 22, "unknown move constraint 'legl'; did you mean legal?"),
    ]
    assert diagnostics_of(advice_table(us="legalmove")) == [
        ("error", 6, 6, "unknown move constraint 'legalmove'; did you mean legal?"),
    ]


def test_wrong_move_constraint_arity():
    assert diagnostics_of(advice_table(us="steps")) == [
        ("error", 6, 6, "move constraint 'steps' is given 0 literal arguments; "
         "the knowledge base defines steps/4, which allows 1"),
    ]
    assert diagnostics_of(advice_table(us="legal(1)")) == [
        ("error", 6, 6, "move constraint 'legal' is given 1 literal argument; "
         "the knowledge base defines legal/3, which allows 0"),
    ]


def test_rule_names_undefined_advice():
    text = "table t\nrule r: if true then a, mate_in2\nadvice a:\n better: mate\n holding: true\n us: legal\n them: legal\n"
    text += "advice mate_in_2:\n better: mate\n holding: true\n us: legal\n them: legal\n"
    assert diagnostics_of(text) == [
        ("error", 2, 25, "rule 'r' names advice 'mate_in2', which is not defined; did you mean mate_in_2?"),
        ("warning", 8, 8, "advice 'mate_in_2' is never used by any rule"),
    ]


def test_duplicate_rule_and_advice_names():
    text = advice_table(extra="advice a:\n better: mate\n holding: true\n us: legal\n them: legal\n")
    text += "rule r: if mate then a\n"
    assert diagnostics_of(text) == [
        ("error", 8, 8, "duplicate advice name 'a' (first defined at line 3)"),
        ("error", 13, 6, "duplicate rule name 'r' (first defined at line 2)"),
        ("warning", 13, 6, "rule 'r' can never fire: rule 'r' (line 2) before it always applies"),
    ]


def test_missing_parts():
    text = "table t\nrule r: if true then a\nadvice a:\n us: legal\n"
    assert diagnostics_of(text) == [
        ("error", 3, 8, "advice 'a' has no 'better:' part"),
        ("error", 3, 8, "advice 'a' has no 'holding:' part"),
        ("error", 3, 8, "advice 'a' has no 'them:' part"),
    ]


def test_part_given_twice():
    text = advice_table(extra=" us: checkmove\n")
    assert diagnostics_of(text) == [
        ("error", 8, 2, "advice 'a' gives the 'us:' part twice (first at line 6)"),
    ]


def test_empty_rule():
    text = "table t\nrule r: if true then\n" + advice_table().split("\n", 2)[2]
    assert diagnostics_of(text) == [
        ("error", 2, 6, "rule 'r' names no advice after 'then'"),
        ("warning", 3, 8, "advice 'a' is never used by any rule"),
    ]


def test_table_without_rules():
    text = "table t\nadvice a:\n better: mate\n holding: true\n us: legal\n them: legal\n"
    assert diagnostics_of(text) == [
        ("error", 1, 7, "table 't' has no rules"),
        ("warning", 2, 8, "advice 'a' is never used by any rule"),
    ]


def test_depth_only_alternatives():
    assert diagnostics_of(advice_table(us="depth = 0")) == [
        ("error", 6, 6, "this alternative of the 'us:' part has only depth tests; "
         "it needs a move constraint such as legal"),
    ]
    # only the offending alternative is reported
    assert diagnostics_of(advice_table(them="depth = 0 and legal then depth > 1 and depth < 4")) == [
        ("error", 7, 33, "this alternative of the 'them:' part has only depth tests; "
         "it needs a move constraint such as legal"),
    ]
    # a generator anywhere in an 'and' is enough; nomove is a generator (of nothing)
    assert diagnostics_of(advice_table(us="depth = 0 and (legal then checkmove)", them="nomove")) == []
    assert diagnostics_of(advice_table(us="(depth = 0 then depth = 1) and legal")) == []


def test_depth_only_example_without_legal():
    vocab = KBVocabulary("m", {"mate": frozenset({1})}, frozenset({"zmove", "amove"}))
    text = advice_table(us="depth = 0", them="amove")
    assert diagnostics_of(text, vocab)[0][3].endswith("it needs a move constraint such as amove")


def test_uses_must_match_module():
    text = GOOD.replace("uses chess/krk", "uses chess/kqk")
    assert diagnostics_of(text) == [
        ("error", 2, 1, "the table uses 'chess/kqk', but the knowledge base is module 'krk'"),
    ]
    assert diagnostics_of(GOOD.replace("uses chess/krk\n", "")) == []  # no uses: nothing to compare


def test_uses_matches_module():
    assert uses_matches_module("chess/krk", "krk")
    assert uses_matches_module("chess/krk", "chess/krk")
    assert uses_matches_module("chess/krk", "kb/chess/krk.pl")
    assert uses_matches_module("krk", "chess/krk")
    assert not uses_matches_module("games/krk", "chess/krk")
    assert not uses_matches_module("chess/kqk", "krk")


def test_rules_after_always_true_rule_warn():
    text = (
        "table t\nrule r1: if mate then a\nrule r2: if not false then a\n"
        "rule r3: if mate then a\nrule r4: if true then a\n"
        "advice a:\n better: mate\n holding: true\n us: legal\n them: legal\n"
    )
    assert diagnostics_of(text) == [
        ("warning", 4, 6, "rule 'r3' can never fire: rule 'r2' (line 3) before it always applies"),
        ("warning", 5, 6, "rule 'r4' can never fire: rule 'r2' (line 3) before it always applies"),
    ]


def test_unused_advice_warns():
    assert diagnostics_of(advice_table(extra="advice b:\n better: mate\n holding: true\n us: legal\n them: legal\n")) == [
        ("warning", 8, 8, "advice 'b' is never used by any rule"),
    ]


def test_all_errors_at_once_sorted_and_raised_together():
    text = """\
table t
uses games/nim
rule r: if mat and legal then a, b
rule r: if true then
advice a:
    better: mate(1)
    us: depth = 0
    us: steps
"""
    got = diagnostics_of(text)
    assert got == [
        ("error", 2, 1, "the table uses 'games/nim', but the knowledge base is module 'krk'"),
        ("error", 3, 12, "unknown goal predicate 'mat'; did you mean mate?"),
        ("error", 3, 20, "'legal' is a move constraint, not a goal; move constraints belong in 'us:' and 'them:'"),
        ("error", 3, 34, "rule 'r' names advice 'b', which is not defined"),
        ("error", 4, 6, "duplicate rule name 'r' (first defined at line 3)"),
        ("error", 4, 6, "rule 'r' names no advice after 'then'"),
        ("error", 5, 8, "advice 'a' has no 'holding:' part"),
        ("error", 5, 8, "advice 'a' has no 'them:' part"),
        ("error", 6, 13, "goal 'mate' is given 1 literal argument; the knowledge base defines mate/1, which allows 0"),
        ("error", 7, 9, "this alternative of the 'us:' part has only depth tests; it needs a move constraint such as legal"),
        ("error", 8, 5, "advice 'a' gives the 'us:' part twice (first at line 7)"),
        ("error", 8, 9, "move constraint 'steps' is given 0 literal arguments; "
         "the knowledge base defines steps/4, which allows 1"),
    ]
    with pytest.raises(AdviceCheckError) as info:
        check_or_raise(parse(text, "t.adv"), VOCAB)
    err = info.value
    assert isinstance(err, AdviceError)
    assert len(err.errors) == 12
    rendered = str(err).splitlines()
    assert rendered[0] == "t.adv:2:1: error: the table uses 'games/nim', but the knowledge base is module 'krk'"
    assert rendered[1] == "uses games/nim"
    assert rendered[2] == "^"
    assert rendered[3] == "t.adv:3:12: error: unknown goal predicate 'mat'; did you mean mate?"
    assert rendered[5] == "           ^"


def test_warnings_alone_do_not_raise():
    text = advice_table(extra="advice b:\n better: mate\n holding: true\n us: legal\n them: legal\n")
    warnings = check_or_raise(parse(text), VOCAB)
    assert [d.severity for d in warnings] == ["warning"]


def test_unknown_names_echo_only_the_name():
    # Names are lexed as [a-z_][A-Za-z0-9_]*, so a message can only ever contain such a name.
    (d,) = check(parse(advice_table(better="x_halt_Y9")), VOCAB)
    assert d.message == "unknown goal predicate 'x_halt_Y9'"
