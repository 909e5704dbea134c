"""Playing a game in the terminal: a person against the machine, or the
machine against itself. Each step is one job (one query): the position
to show, a person's move read by the game, or the machine's search."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.games import Game, run_job
from engine.prolog import BadInput, LoadedKB, atom, string
from engine.referee import ply
from engine.search import Start, load_game, search_from, start_of, value_text


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
    budget: str | None = None,
    seed: int = 0,
    position: str | None = None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> PlayedGame:
    """Play ``game`` to its end.

    ``human_is_max`` says which side the person plays (None: the machine
    plays both). ``position`` is the start as the game reads it (None:
    its initial position). ``ask`` reads a person's move (the prompt is
    its argument); an illegal or malformed move is refused with the
    reason and asked again. End of input abandons the game. Where dice
    decide (a game of chance), the referee rolls them, seeded by
    ``seed``, as it seeds ``mcts``.
    """
    kb: LoadedKB = load_game(game)
    start = start_of(game, kb, position)
    record = PlayedGame()
    while True:
        info = turn(game, kb, start)
        pos = info["position"]
        say(info["drawing"])
        if info["over"]:
            record.result = outcome(info["value"])
            say(f"Game over: {record.result}.")
            return record
        max_moves = info["max_to_move"]
        side = "MAX" if max_moves else "MIN"
        if info["chance"]:
            rolled = ply(game, kb, pos, "random", seed + len(record.moves))
            nxt, label = rolled["position"], rolled["move"]
            say(f"The dice: {label}")
        elif human_is_max is not None and human_is_max == max_moves:
            move = human_move(game, kb, pos, f"{side} to move ({info['prompt']}): ", ask, say)
            if move is None:
                record.result = "abandoned"
                return record
            nxt, label = move
        else:
            result = search_from(game, kb, Start("term", pos), algo, depth, budget=budget,
                                 seed=seed + len(record.moves) if algo == "mcts" else None)
            nxt, label = result.best, result.move
            say(f"{side} (machine) plays {label}   "
                f"[value {value_text(result.value)}, {result.nodes:,} positions]")
        record.moves.append(label)
        start = Start("term", nxt)


def turn(game: Game, kb: LoadedKB, start: Start) -> dict:
    """The position ``start`` for the game loop (``turn_job``): its text,
    drawing, side to move, whether the game is over (and its value) or
    dice decide there (``chance``), and the prompt for a person."""
    return run_job(f"search_jobs:turn_job({atom(kb.module)}, {start.prolog()}, Out)",
                   what=f"reading a {game.name} position")


def human_move(game, kb, pos, prompt, ask, say) -> tuple[str, str] | None:
    """The position after a person's move and the move, or None at end of input."""
    while True:
        try:
            text = ask(prompt)
        except EOFError:
            say("")
            return None
        try:
            answer = run_job(
                f"search_jobs:move_job({atom(kb.module)}, {string(pos)}, {string(text)}, Out)",
                what=f"reading a {game.name} move",
            )
        except BadInput as refusal:
            say(f"Refused: {refusal}")
            continue
        return answer["position"], answer["move"]
