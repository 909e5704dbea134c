"""Game-tree search from Python: one Prolog query per search.

>>> from engine.search import search
>>> r = search("nim", "5", algo="alphabeta")
>>> r.value, r.move
(-100, 'take 1')
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.games import SEARCH_INTERFACE, BadInput, Game, find_game, student_game
from engine.prolog import DEFAULT_SECONDS, LoadedKB, atom, integer, session, string

ALGORITHMS = ("minimax", "alphabeta")


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    ``value`` is for MAX; ``best`` is the best successor position (None
    at the end of the game) and ``move`` the move to it, for people;
    ``line`` is the principal variation, root first; ``nodes`` counts the
    positions visited, the root included.
    """

    game: str
    algo: str
    depth: int | None
    position: str
    value: int | float
    best: str | None
    move: str | None
    line: tuple[str, ...]
    nodes: int
    seconds: float
    warnings: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        """The result as plain data (for ``--json``)."""
        return {
            "game": self.game, "algo": self.algo, "depth": self.depth,
            "position": self.position, "value": self.value, "move": self.move,
            "best": self.best, "line": list(self.line), "nodes": self.nodes,
            "seconds": self.seconds, "warnings": list(self.warnings),
        }


def resolve_game(game: str | Game, kb_file: str | None = None) -> Game:
    """A game by name, or a student's game from ``kb_file``."""
    if isinstance(game, Game):
        return game
    if kb_file is not None:
        return student_game(kb_file)
    return find_game(game)


def load_game(game: Game) -> LoadedKB:
    """Load the search library and the game's KB; check its interface."""
    s = session()
    s.use_module("search/jobs.pl")
    kb = s.load_file(game.kb_file)
    s.require(kb, SEARCH_INTERFACE, str(game.kb_file))
    return kb


def start_position(game: Game, kb: LoadedKB, text: str | None) -> str:
    """The Prolog text of the position to search (the game's start for None)."""
    pos = game.position(text)
    if pos is not None:
        return pos
    s = session()
    s.require(kb, ["initial/1"], f"{game.kb_file} (no --position given)")
    return s.ask(f"{atom(kb.module)}:initial(P), format(string(Out), '~q', [P])")


def search(
    game: str | Game,
    position: str | None = None,
    algo: str = "alphabeta",
    depth: int | None = None,
    *,
    kb_file: str | None = None,
    seconds: float = DEFAULT_SECONDS,
) -> SearchResult:
    """Search a position of a game and return a :class:`SearchResult`.

    ``game`` is a shipped game's name (see :data:`engine.games.GAMES`) or a
    :class:`Game`; ``kb_file`` names a student's ``.pl`` instead.
    ``position`` is written as the game reads it (None: the start);
    ``depth`` limits the search (None: to the end of the game).
    """
    g = resolve_game(game, kb_file)
    kb = load_game(g)
    return search_from(g, kb, start_position(g, kb, position), algo, depth, seconds=seconds)


def search_from(
    game: Game,
    kb: LoadedKB,
    pos: str,
    algo: str = "alphabeta",
    depth: int | None = None,
    *,
    seconds: float = DEFAULT_SECONDS,
) -> SearchResult:
    """Search the position ``pos`` (Prolog text) of a loaded game."""
    if algo not in ALGORITHMS:
        raise BadInput(f"unknown algorithm {algo!r}: choose {' or '.join(ALGORITHMS)}")
    if depth is not None and depth < 1:
        raise BadInput(f"--depth must be at least 1, not {depth}")
    reply = session().ask(
        f"search_jobs:search_job({atom(kb.module)}, {string(pos)}, {atom(algo)}, "
        f"{'inf' if depth is None else integer(depth)}, Out)",
        seconds=seconds, what=f"{algo} on {game.name}",
    )
    data = json.loads(reply)
    line = tuple(data["line"])
    best = line[1] if len(line) > 1 else None
    return SearchResult(
        game=game.name, algo=algo, depth=depth, position=line[0], value=data["value"],
        best=best, move=game.move_label(line[0], best) if best else None, line=line,
        nodes=data["nodes"], seconds=data["seconds"], warnings=kb.warnings,
    )


def position_info(game: Game, kb: LoadedKB, pos: str) -> dict:
    """Successors, side to move and static value of a position."""
    reply = session().ask(
        f"search_jobs:position_job({atom(kb.module)}, {string(pos)}, Out)",
        what=f"reading a {game.name} position",
    )
    return json.loads(reply)
