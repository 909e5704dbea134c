"""Playing a game in the terminal: a person against the machine, or the
machine against itself. Each machine move is one search (one query)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.games import BadInput, Game
from engine.prolog import LoadedKB
from engine.search import load_game, position_info, search_from, start_position


@dataclass
class PlayedGame:
    """The moves of a finished (or abandoned) game and how it ended."""

    moves: list[str] = field(default_factory=list)
    result: str = "unfinished"


def outcome(value: int | float) -> str:
    """The result of a finished game from its final static value."""
    if value > 0:
        return "MAX wins"
    if value < 0:
        return "MIN wins"
    return "draw"


def play_game(
    game: Game,
    *,
    human_is_max: bool | None,
    algo: str = "alphabeta",
    depth: int | None = None,
    position: str | None = None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> PlayedGame:
    """Play ``game`` to its end.

    ``human_is_max`` says which side the person plays (None: the machine
    plays both). ``ask`` reads a person's move (the prompt is its
    argument); an illegal or malformed move is refused with the reason
    and asked again. End of input abandons the game.
    """
    kb: LoadedKB = load_game(game)
    pos = start_position(game, kb, position)
    record = PlayedGame()
    while True:
        say(game.show(pos))
        info = position_info(game, kb, pos)
        successors = info["successors"]
        if not successors:
            record.result = outcome(info["value"])
            say(f"Game over: {record.result}.")
            return record
        max_moves = info["max_to_move"]
        side = "MAX" if max_moves else "MIN"
        if human_is_max is not None and human_is_max == max_moves:
            nxt = _human_move(game, pos, successors, side, ask, say)
            if nxt is None:
                record.result = "abandoned"
                return record
        else:
            result = search_from(game, kb, pos, algo, depth)
            nxt = result.best
            say(f"{side} (machine) plays {result.move}   "
                f"[value {result.value}, {result.nodes:,} positions]")
        label = game.move_label(pos, nxt)
        record.moves.append(label)
        pos = nxt


def _human_move(game, pos, successors, side, ask, say) -> str | None:
    while True:
        try:
            text = ask(f"{side} to move ({game.move_menu(pos, successors)}): ")
        except EOFError:
            say("")
            return None
        try:
            return game.read_move(text, pos, successors)
        except BadInput as refusal:
            say(f"Refused: {refusal}")
