"""Advice tables at play: choose, explain, play games, one job per query.

>>> from engine.tables import load_table
>>> from engine.advice_play import AdvicePlayer
>>> player = AdvicePlayer(load_table("my_table.adv"))     # doctest: +SKIP
>>> player.explain().chosen                                # doctest: +SKIP
'centre'
>>> player.choose("x...o....").move                        # doctest: +SKIP
'2'
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.domains import Domain, Position, Start, describe
from engine.prolog import (
    BadInput, PrologGoalError, SearchLimitError, atom, integer, session, string,
)
from engine.tables import LoadedTable

DEFENDERS = ("perfect", "random", "human")
DEFAULT_MOVE_LIMIT = 100


@dataclass(frozen=True)
class Explanation:
    """Why the table chose what it chose at a position (moves for people).

    ``consulted_at`` is the position the table was consulted at when the
    domain declares symmetries and that is not the position given (the
    representative of its class; the trees are shown from the position
    given), else None."""

    rules: list[dict]
    rule: str | None
    advice: list[dict]
    chosen: str | None
    consulted_at: str | None = None

    def as_dict(self) -> dict:
        """The explanation as plain data (for ``--json``)."""
        return {"rule": self.rule, "chosen": self.chosen, "rules": self.rules,
                "advice": self.advice, "consulted_at": self.consulted_at}


@dataclass(frozen=True)
class Choice:
    """The move a table chooses, with the rule, the advice and its forcing tree."""

    rule: str
    advice: str
    move: str
    tree: dict


@dataclass
class GameRecord:
    """A game the table played from ``start``: moves for people, with rule
    and advice for ours, the positions reached, our optimal count from
    the start where it is known and, where the domain knows optimal play,
    how many moves each of ours lost against it (``lost``, one entry for
    each of our moves: 0 on an optimal line)."""

    start: Start
    result: str
    moves: list[str] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    reasons: list[tuple[str, str] | None] = field(default_factory=list)
    move_texts: list[str] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    optimal: int | None = None
    lost: list[int | None] | None = None

    @property
    def us_moves(self) -> int:
        """How many moves the table made."""
        return self.sides.count("us")


class GameInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a game against a machine defender; ``record`` holds
    the moves made until then (its result ``interrupted``)."""

    def __init__(self, record: GameRecord):
        super().__init__()
        self.record = record


class GamePastLimit(SearchLimitError):
    """A game against a machine defender ran past a limit of its job (the
    message names it); ``record`` holds the moves made until then (its
    result ``past_limit``)."""

    def __init__(self, message: str, record: GameRecord):
        super().__init__(message)
        self.record = record


class GameFailed(PrologGoalError):
    """A game against a machine defender met an error in Prolog (a
    predicate of the domain's that raised one, a Prolog process that
    died; the message says which); ``record`` holds the moves made until
    then (its result ``error``)."""

    def __init__(self, message: str, record: GameRecord):
        super().__init__(message)
        self.record = record


class AdvicePlayer:
    """Plays a loaded table over its domain, in compiled or interpreted mode."""

    def __init__(self, table: LoadedTable, mode: str = "compiled"):
        self.table = table
        self.ctx = table.context(mode)
        self.domain: Domain = describe(table.domain)

    def start(self, position: str | None = None, *, fen: str | None = None) -> Start:
        """Where the table starts: a position as the domain reads it, a FEN
        for a chess domain, or the domain's initial position. The table
        plays us, so us must be to move there."""
        start = self.domain.start(position, fen=fen)
        if start.position.to_move != "us":
            if start.chess is not None:
                turn = "White" if start.chess.board.turn else "Black"
                raise BadInput(f"it is {turn}'s turn in {start.chess.board.fen()}, and the "
                               f"table {self.table.table.name} moves for the other side "
                               f"({self.domain.chess})")
            raise BadInput(f"the table {self.table.table.name} moves for us, and at "
                           f"{start.position.text} it is not our move ({self.domain.module})")
        return start

    def explain(self, position: str | None = None, *, fen: str | None = None) -> Explanation:
        """Consult the table at ``position`` (None: the domain's start)."""
        start = self.start(position, fen=fen)
        data = json.loads(session().ask(
            f"al0_jobs:explain_job({self.ctx}, {string(start.position.term)}, Out)",
            what=f"explaining table {self.table.table.name}"))
        for report in data["advice"]:
            if "tree" in report:
                report["tree"] = self.domain.tree_for_people(start, report["tree"])
        at = data["consulted_at"]
        return Explanation(data["rules"], data["rule"], data["advice"], data["chosen"],
                           at and self.domain.position_for_people(start, at))

    def choose(self, position: str | None = None, *, fen: str | None = None) -> Choice | None:
        """The table's move at ``position`` (None: the domain's start).

        Returns the rule, the piece of advice and the move (for people),
        or None when no advice applies.
        """
        e = self.explain(position, fen=fen)
        for report in e.advice:
            if report["status"] == "satisfiable":
                return Choice(e.rule, report["name"], report["tree"]["us"], report["tree"])
        return None

    def play(self, position: str | None = None, defender: str = "perfect", *,
             fen: str | None = None, seed: int = 0, move_limit: int = DEFAULT_MOVE_LIMIT,
             ask: Callable[[str], str] | None = None,
             say: Callable[[str], None] = lambda _: None,
             progress: Callable[[int], None] | None = None) -> GameRecord:
        """Play the table from ``position`` against ``defender``.

        ``perfect`` (the domain's own, or the search solver's longest
        resistance) and ``random`` (seeded) run as one Prolog job, which
        ``progress`` (where given) hears of while it runs: the moves the
        table has made, each time they are more. ``human`` asks a person
        for each reply through ``ask`` (refusing bad input with the
        reason) and reports through ``say``. A game against a machine
        that Ctrl-C, a limit or an error stops raises
        :class:`GameInterrupted`, :class:`GamePastLimit` or
        :class:`GameFailed`, with the moves made until then.
        """
        if defender not in DEFENDERS:
            raise BadInput(f"unknown defender {defender!r}: choose {', '.join(DEFENDERS)}")
        start = self.start(position, fen=fen)
        self.domain.prepare()
        if defender == "human":
            return self._play_with_person(start, ask or input, say, move_limit)
        # in the scratch folder of the Prolog process: the one place its wall
        # lets it write
        with tempfile.TemporaryDirectory(prefix="advice-game-",
                                         dir=session().scratch) as folder:
            log = Path(folder) / "moves.jsonl"
            goal = (f"al0_jobs:play_job({self.ctx}, {string(start.position.term)}, "
                    f"{atom(defender)}, {integer(seed)}, {integer(move_limit)}, "
                    f"{string(str(log))}, Out)")
            try:
                with _watching(log, progress):
                    data = json.loads(session().ask(
                        goal, what=f"playing table {self.table.table.name}"))
            except KeyboardInterrupt:
                raise GameInterrupted(self._stopped_game(start, log, "interrupted")) from None
            except SearchLimitError as limit:
                raise GamePastLimit(str(limit),
                                    self._stopped_game(start, log, "past_limit")) from None
            except PrologGoalError as error:
                raise GameFailed(str(error), self._stopped_game(start, log, "error")) from None
        game = self._game(start, data["result"], data["moves"])
        game.optimal, game.lost = data["optimal"], data["lost"]
        return game

    def _game(self, start: Start, result: str, moves: list[dict]) -> GameRecord:
        """The record of a game's ``moves`` as play_job/7 describes them."""
        texts = [m["move"] for m in moves]
        return GameRecord(
            start=start, result=result, moves=self.domain.people_moves(start, texts),
            sides=[m["side"] for m in moves],
            reasons=[(m["rule"], m["advice"]) if m["side"] == "us" else None for m in moves],
            move_texts=texts, positions=[Position.from_json(m["position"]) for m in moves])

    def _stopped_game(self, start: Start, log: Path, stopped: str) -> GameRecord:
        """The game play_job/7 had logged in ``log`` when it was stopped:
        its result if the game had ended (only the counts after it were
        cut short), else ``stopped``."""
        lines = _logged_lines(log)
        moves = [line for line in lines if "side" in line]
        ended = [line["result"] for line in lines if "result" in line]
        return self._game(start, ended[0] if ended else stopped, moves)

    def drawing(self, record: GameRecord, plies: int) -> str:
        """The picture of the position after the first ``plies`` moves of a game."""
        reached = record.positions[plies - 1] if plies else None
        return self.domain.drawing(record.start, record.move_texts[:plies], reached)

    def _play_with_person(self, start: Start, ask, say, move_limit) -> GameRecord:
        s = session()

        def turn(command: str, arg: str = "") -> dict:
            return json.loads(s.ask(
                f"al0_jobs:state_job({self.ctx}, {command}, {string(arg)}, Out)",
                what="a move of the table"))

        state = turn("start", start.position.term)
        record = GameRecord(start=start, result="unfinished", optimal=state["optimal"])
        say(self.drawing(record, 0))
        while state["over"] is None:
            if record.us_moves >= move_limit:
                record.result = "move_limit"
                return record
            state = turn("us")
            if state["move"] is None:
                record.result = "no_advice"
                return record
            self._record(record, state, "us", state["move"], (state["rule"], state["advice"]))
            say(f"{record.us_moves}. {record.moves[-1]}  [{state['rule']} / {state['advice']}]")
            say(self.drawing(record, len(record.move_texts)))
            if state["over"] is not None:
                break
            while True:
                try:
                    text = ask("Your move: ")
                except EOFError:
                    record.result = "abandoned"
                    return record
                try:
                    move = self.domain.read_move(start, record.move_texts, text)
                except BadInput as refusal:
                    say(f"Refused: {refusal}")
                    continue
                reply = turn("them", move)
                if reply["legal"]:
                    state = reply
                    break
                say(f"Refused: {reply['reason'] or self._not_legal(text, state['moves'])}")
            self._record(record, state, "them", move, None)
            say(self.drawing(record, len(record.move_texts)))
        record.result = state["over"]
        return record

    @staticmethod
    def _not_legal(typed: str, legal: list[str]) -> str:
        return f"{typed.strip()!r} is not a legal move here: {', '.join(legal)}"

    def _record(self, record: GameRecord, state: dict, side: str, text: str, reason) -> None:
        record.move_texts.append(text)
        record.sides.append(side)
        record.reasons.append(reason)
        record.positions.append(Position.from_json(state["position"]))
        record.moves = self.domain.people_moves(record.start, record.move_texts)


#: seconds between two looks at a game's log of moves, for its progress
WATCH_EVERY = 0.5


def _logged_lines(log: Path) -> list[dict]:
    """The lines play_job/7 has written to ``log``, read as JSON: none
    before the file is made, and none from a last line not yet ended
    (which may stop inside a character)."""
    try:
        data = log.read_bytes()
    except FileNotFoundError:
        return []
    lines = []
    for line in data.split(b"\n")[:-1]:
        try:
            lines.append(json.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            break
    return lines


@contextlib.contextmanager
def _watching(log: Path, progress: Callable[[int], None] | None):
    """While the block runs, tell ``progress`` how many moves of ours
    ``log`` holds, each time they are more (a no-op without ``progress``)."""
    if progress is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        told = 0
        while not done.wait(WATCH_EVERY):
            ours = sum(line.get("side") == "us" for line in _logged_lines(log))
            if ours > told:
                told = ours
                progress(ours)

    watcher = threading.Thread(target=watch, name="game progress", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
