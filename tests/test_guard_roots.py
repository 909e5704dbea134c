"""The guard's holes closed at their roots (issue 65, point 3): kb/guard.pl
checks what the compiler will make of a clause (dict functional notation),
refuses a call of a predicate the file does not define and no allowed
library exports (the engine's own modules, loaded later, would define
it), checks the options and directives of every output predicate against
a white list, and refuses table modes that call predicates. Each hostile
file is refused through every command that loads a user's file, with one
line per offence, exit 2, nothing run, and the engine alive."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_guard import GAME, HOSTILE, assert_engine_alive, offences, snapshot

DATA = Path(__file__).parent / "data"

WRITE_OPTIONS = (
    "(the write options it may have: quoted, ignore_ops, dotlists, brace_terms, numbervars, "
    "character_escapes, character_escapes_unicode, quote_non_ascii, cycles, fullstop, nl, "
    "no_lists, partial, portray(false), portrayed(false), max_depth, priority, spacing, "
    "back_quotes, attributes, variable_names)")
UNDEFINED = "is not allowed in a knowledge base: it is not defined in this file nor by an " \
            "allowed library"
DICT_CALL = ("the function call/1 on a dict (Dict.call(...)) is not allowed in a knowledge "
             "base: it calls a predicate of the module the dict's tag names")
TABLE_MODES = ("is not allowed in a knowledge base: answer subsumption may call only the "
               "built-in modes (index, first, last, min, max, sum)")

#: the offences of each hostile game, by line; {canary} is the canary's path
REFUSED = {
    "dict_function": [
        (3, DICT_CALL),
        (4, DICT_CALL),
        (5, "dict functional notation (Dict.Key) in a directive is not allowed in a knowledge "
            "base: the compiler turns it into goals that run when the file loads")],
    "engine_calls": [
        (4, f"run_limited/5 {UNDEFINED}"),
        (5, f"consulted_at/4 {UNDEFINED}"),
        (6, f"no_such_list_predicate/1 {UNDEFINED}"),
        (7, f"helper_from_elsewhere/2 {UNDEFINED}")],
    "output_hooks": [
        (3, "write_term/2 with the option portray_goal(\\A^B^shell('touch {canary}')) is not "
            f"allowed in a knowledge base {WRITE_OPTIONS}"),
        (4, "format/3 with the directive ~W and the option portray(true) is not allowed in a "
            f"knowledge base {WRITE_OPTIONS}"),
        (5, "format/2 with the directive ~p is not allowed in a knowledge base: it calls "
            "user:portray/1 hooks (~w and ~q write without them)"),
        (6, "print_message/2 with the directive ~W and the option blobs(portray) is not "
            f"allowed in a knowledge base {WRITE_OPTIONS}"),
        (7, "format/2 of a format only known at run time is not allowed in a knowledge base"),
        (8, "term_string/3 with the option portray_goal(\\A^B^shell('touch {canary}')) is not "
            f"allowed in a knowledge base {WRITE_OPTIONS}"),
        (9, "print/1 is not allowed in a knowledge base: it calls user:portray/1 hooks "
            "(write/1 and writeq/1 write without them)")],
    "table_lattice": [
        (1, f"table/1 of reach/2 with the mode po(call/2) {TABLE_MODES}"),
        (2, f"table/1 of best/2 with the mode lattice(shortest/3) {TABLE_MODES}"),
        (4, "table/1 with the option on_answer(shell) is not allowed in a knowledge base")],
}

#: every command that loads a game of the user's: {kb} is the file
COMMANDS = {
    "search": ("search", "--kb", "{kb}"),
    "lint": ("check", "--kb", "{kb}"),
    "match": ("match", "--kb", "{kb}", "--first", "random", "--second", "random",
              "--games", "1"),
}


def refused(cli, tmp_path: Path, source: str, name: str, command: tuple[str, ...],
            expected: list[tuple[int, str]]) -> None:
    """``source`` (with CANARY pointing into ``tmp_path``) saved as
    ``tmp_path/NAME.pl`` and given to ``command``: exit 2, exactly the
    ``expected`` offences, the canary not made, nothing in ``tmp_path``
    changed, the engine alive."""
    canary = tmp_path / "canary"
    kb = tmp_path / f"{name}.pl"
    kb.write_text(source.replace("CANARY", str(canary)))
    before = snapshot(tmp_path)
    run = cli(*(arg.format(kb=kb) for arg in command))
    assert run.code == 2, run.err
    assert offences(run.err) == [f"{kb}:{line}: {text.format(canary=canary)}"
                                 for line, text in expected]
    assert not canary.exists()
    assert snapshot(tmp_path) == before
    assert_engine_alive()


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_hostile_game_is_refused_at_the_root(cli, tmp_path, name, command):
    source = (HOSTILE / f"{name}.pl").read_text() + GAME
    refused(cli, tmp_path, source, name, COMMANDS[command], REFUSED[name])


@pytest.mark.parametrize("command", ["check", "explain", "verify"])
def test_a_tables_domain_may_not_call_the_al0_library(cli, tmp_path, command):
    # the test Nim domain whose goal calls the AL0 library's play_game/6
    # with a defender that shells out: the library is loaded after the
    # guard checked the domain, its play_game/6 is not defined then, and
    # is not the domain's to call
    source = (DATA / "domains" / "nim_al0.pl").read_text().replace(
        ":- module(nim_al0,", ":- module(nim_engine_call,").replace(
        "winning_for_mover(nim(S, _, _)) :-\n",
        "winning_for_mover(nim(S, _, _)) :-\n"
        "    ( S =:= 18 -> play_game(ctx, S, [_, _, _]>>shell('touch CANARY'), 1, _, _) "
        "; true ),\n")
    assert "play_game(" in source
    table = tmp_path / "nim.adv"
    table.write_text((DATA / "domains" / "nim.adv").read_text().replace(
        "uses nim_al0", "uses nim_engine_call"))
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "play_game(" in text
                and not text.startswith("%"))
    args = (command, str(table), *(["--position", "18"] if command == "explain" else []))
    refused(cli, tmp_path, source, "nim_engine_call", args, [(line, f"play_game/6 {UNDEFINED}")])


def test_harmless_output_dicts_and_tables_still_pass(cli, tmp_path):
    # white-listed write options, known formats, built-in dict functions,
    # tables with modes that call nothing, and what the file's own
    # term_expansion/2 defines
    kb = tmp_path / "harmless.pl"
    kb.write_text(
        ":- table reach/1, cost(_, min).\n"
        "term_expansion(edges, [edge(a, b), edge(b, c)]).\n"
        "edges.\n"
        "reach(a).\n"
        "reach(Y) :- reach(X), edge(X, Y).\n"
        "cost(a, 2).\ncost(a, 1).\n"
        "moves(P, Ps) :- findall(Q, (reach(Q), Q \\== P), Qs), cost(a, C), C == 1,\n"
        "    D = _{n: 1}, N = D.n, E = D.put(n, 2), E.n =:= N + 1,\n"
        "    with_output_to(string(_), ( format(\"~a ~q~t~10|~W~n\", [x, P, P, [quoted(true)]]),\n"
        "                                write_term(P, [max_depth(2), spacing(next_argument)]) )),\n"
        "    ( P == a -> Ps = Qs ; Ps = [] ).\n"
        + GAME)
    run = cli("search", "--kb", str(kb), "--json")
    assert run.code == 0, run.err
    assert "outcome" in run.json()
