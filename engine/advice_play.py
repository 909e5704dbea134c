"""Advice tables at play: choose, explain, play games, one job per query.

>>> from engine.tables import load_table
>>> from engine.advice_play import AdvicePlayer
>>> player = AdvicePlayer(load_table("kb/games/tictactoe.adv"))   # doctest: +SKIP
>>> player.explain().chosen                                        # doctest: +SKIP
'centre'
>>> player.choose("x...o....").move                              # doctest: +SKIP
'2'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from engine.domains import Domain, domain_for
from engine.games import BadInput
from engine.prolog import atom, integer, session, string
from engine.tables import LoadedTable

DEFENDERS = ("perfect", "random", "human")
DEFAULT_MOVE_LIMIT = 100


@dataclass(frozen=True)
class Explanation:
    """Why the table chose what it chose at a position (moves for people)."""

    rules: list[dict]
    rule: str | None
    advice: list[dict]
    chosen: str | None

    def as_dict(self) -> dict:
        """The explanation as plain data (for ``--json``)."""
        return {"rule": self.rule, "chosen": self.chosen, "rules": self.rules,
                "advice": self.advice}


@dataclass(frozen=True)
class Choice:
    """The move a table chooses, with the rule, the advice and its forcing tree."""

    rule: str
    advice: str
    move: str
    tree: dict


@dataclass
class GameRecord:
    """A game the table played: moves for people, with rule and advice for ours."""

    result: str
    moves: list[str] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    reasons: list[tuple[str, str] | None] = field(default_factory=list)
    move_texts: list[str] = field(default_factory=list)

    @property
    def us_moves(self) -> int:
        """How many moves the table made."""
        return self.sides.count("us")


class AdvicePlayer:
    """Plays a loaded table over its domain, in compiled or interpreted mode."""

    def __init__(self, table: LoadedTable, mode: str = "compiled"):
        self.table = table
        self.ctx = table.context(mode)
        self.domain: Domain = domain_for(table.domain)
        s = session()
        s.use_module("al0/jobs.pl")

    def explain(self, position: str | None = None) -> Explanation:
        """Consult the table at ``position`` (None: the domain's start)."""
        pos = self.domain.position(position)
        data = json.loads(session().ask(
            f"al0_jobs:explain_job({self.ctx}, {string(pos)}, Out)",
            what=f"explaining table {self.table.table.name}"))
        for report in data["advice"]:
            if "tree" in report:
                report["tree"] = self.domain.tree_for_people(report["tree"])
        return Explanation(data["rules"], data["rule"], data["advice"], data["chosen"])

    def choose(self, position: str | None = None) -> Choice | None:
        """The table's move at ``position`` (None: the domain's start).

        Returns the rule, the piece of advice and the move (for people),
        or None when no advice applies.
        """
        e = self.explain(position)
        for report in e.advice:
            if report["status"] == "satisfiable":
                return Choice(e.rule, report["name"], report["tree"]["us"], report["tree"])
        return None

    def play(self, position: str | None = None, defender: str = "perfect", *,
             seed: int = 0, move_limit: int = DEFAULT_MOVE_LIMIT,
             ask: Callable[[str], str] | None = None,
             say: Callable[[str], None] = lambda _: None) -> GameRecord:
        """Play the table from ``position`` against ``defender``.

        ``perfect`` (the KRK tablebase's longest resistance) and
        ``random`` (seeded) run as one Prolog job; ``human`` asks a
        person for each reply through ``ask`` (refusing bad input with the
        reason) and reports through ``say``.
        """
        if defender not in DEFENDERS:
            raise BadInput(f"unknown defender {defender!r}: choose {', '.join(DEFENDERS)}")
        pos = self.domain.position(position)
        if defender == "human":
            return self._play_with_person(pos, ask or input, say, move_limit)
        closure = self._defender_closure(defender)
        goal = (f"set_random(seed({integer(seed)})), "
                f"al0_jobs:play_job({self.ctx}, {string(pos)}, {closure}, "
                f"{integer(move_limit)}, Out)")
        data = json.loads(session().ask(goal, what=f"playing table {self.table.table.name}"))
        texts = [m["move"] for m in data["moves"]]
        return GameRecord(
            result=data["result"], moves=self.domain.people_moves(texts),
            sides=[m["side"] for m in data["moves"]],
            reasons=[(m["rule"], m["advice"]) if m["side"] == "us" else None
                     for m in data["moves"]],
            move_texts=texts)

    def _defender_closure(self, defender: str) -> str:
        if defender == "perfect":
            if self.domain.perfect_defender is None:
                raise BadInput("the perfect defender needs a tablebase: there is one for "
                               f"chess/krk tables, none for {self.table.domain}")
            from engine.tablebase import ensure_krk_tablebase

            ensure_krk_tablebase()
            return self.domain.perfect_defender
        return f"al0_jobs:random_reply({atom(self.table.domain)})"

    def _play_with_person(self, pos, ask, say, move_limit) -> GameRecord:
        s = session()
        record = GameRecord(result="unfinished")

        def turn(command: str, arg: str = "") -> dict:
            return json.loads(s.ask(
                f"al0_jobs:state_job({self.ctx}, {command}, {string(arg)}, Out)",
                what="a move of the table"))

        state = turn("start", pos)
        say(self.domain.drawing([]))
        while state["over"] is None:
            if record.us_moves >= move_limit:
                record.result = "move_limit"
                return record
            state = turn("us")
            if state["move"] is None:
                record.result = "no_advice"
                return record
            self._record(record, "us", state["move"], (state["rule"], state["advice"]))
            say(f"{record.us_moves}. {record.moves[-1]}  [{state['rule']} / {state['advice']}]")
            say(self.domain.drawing(record.move_texts))
            if state["over"] is not None:
                break
            while True:
                try:
                    text = ask("Your move: ")
                except EOFError:
                    record.result = "abandoned"
                    return record
                try:
                    move = self.domain.read_move(text, record.move_texts, state["moves"])
                except BadInput as refusal:
                    say(f"Refused: {refusal}")
                    continue
                reply = turn("them", move)
                if reply["legal"]:
                    state = reply
                    break
                say(f"Refused: {text.strip()!r} is not a legal move here")
            self._record(record, "them", move, None)
            say(self.domain.drawing(record.move_texts))
        record.result = state["over"]
        return record

    def _record(self, record: GameRecord, side: str, text: str, reason) -> None:
        record.move_texts.append(text)
        record.sides.append(side)
        record.reasons.append(reason)
        record.moves = self.domain.people_moves(record.move_texts)
