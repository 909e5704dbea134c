"""The games the searches play: the shipped ones and a student's own.

A game is a Prolog file with Bratko's search interface (``kb/README.md``,
"Game-tree search"). The shipped games are the ``.pl`` files under
``kb/`` whose module exports ``game_description/1``; Prolog finds them,
so no list of games lives here. How a game's positions and moves are
read and written for people is declared by the game, in Prolog; every
question about them is a job of ``kb/search/jobs.pl`` answering in JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.prolog import DEFAULT_SECONDS, BadInput, session

SEARCH_INTERFACE = ["moves/2", "staticval/2", "max_to_move/1", "min_to_move/1"]


@dataclass(frozen=True)
class Game:
    """A game with Bratko's search interface: its name, a one-line
    description and the Prolog file that defines it."""

    name: str
    description: str
    kb_file: Path


def run_job(goal: str, what: str, seconds: float = DEFAULT_SECONDS) -> dict:
    """Run one job of ``kb/search/jobs.pl`` and return its JSON answer.

    ``goal`` binds ``Out`` to the JSON string. A job that refuses a
    person's text answers ``{"error": message}``, raised here as
    :class:`BadInput`.
    """
    s = session()
    s.use_module("search/jobs.pl")
    answer = json.loads(s.ask(goal, seconds=seconds, what=what))
    if "error" in answer:
        raise BadInput(answer["error"])
    return answer


def shipped_games() -> list[Game]:
    """The games shipped under ``kb/``, in the order of their names.

    >>> all(g.kb_file.suffix == ".pl" and g.description for g in shipped_games())
    True
    """
    answer = run_job("search_jobs:games_job(Out)", what="finding the games")
    return [Game(g["name"], g["description"], Path(g["file"])) for g in answer["games"]]


def student_game(path: str) -> Game:
    """A game defined by a student's own ``.pl`` file (Bratko's interface).

    Without declarations of its own, its positions are Prolog terms as
    text; without a position given, the file's ``initial/1`` gives the
    start.
    """
    p = Path(path)
    return Game(p.stem, f"game from {path}", p)


def find_game(name: str) -> Game:
    """The shipped game called ``name``; raises :class:`BadInput` otherwise."""
    games = shipped_games()
    for game in games:
        if game.name == name:
            return game
    raise BadInput(
        f"unknown game {name!r}: the games are {', '.join(g.name for g in games)}"
    )
