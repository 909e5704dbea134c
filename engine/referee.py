"""A referee: two players play a game against each other, N games.

Players are written as people type them (``human``, ``random``,
``minimax:4``, ``alphabeta:6``, ``id:200`` (milliseconds), ``mcts:500``
(playouts), ``expectiminimax:6`` (games of chance), ``table:FILE.adv``).
Sides alternate: the first player moves first in games 1, 3, 5, ...
Each game between machines is one Prolog job (``kb/search/referee.pl``);
a game with a person in it goes move by move.

>>> from engine.referee import match
>>> m = match(game_name, "alphabeta:9", "random", games=4, seed=1)   # doctest: +SKIP
>>> m.players[0].wins, m.players[0].losses                          # doctest: +SKIP
(4, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.games import Game, run_job
from engine.prolog import BadInput, LoadedKB, atom, integer, session, string
from engine.search import Start, load_game, resolve_game, start_of

#: What a player spec may name, and what its number means.
KINDS = {
    "human": None, "random": None,
    "minimax": "depth", "alphabeta": "depth", "expectiminimax": "depth",
    "id": "milliseconds", "mcts": "playouts", "table": "FILE.adv",
}


@dataclass(frozen=True)
class Player:
    """A player as a person wrote it (``spec``) and as Prolog takes it
    (``term``; None for a person)."""

    spec: str
    term: str | None


@dataclass
class Score:
    """How one player fared over a match: games won, drawn and lost (and
    unfinished), and its moves, positions visited and milliseconds in
    all."""

    player: Player
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    moves: int = 0
    positions: int = 0
    ms: float = 0.0

    def as_dict(self) -> dict:
        """The score as plain data, with the means per move."""
        per_move = max(self.moves, 1)
        return {"player": self.player.spec, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "unfinished": self.unfinished, "moves": self.moves,
                "positions_per_move": self.positions / per_move,
                "ms_per_move": self.ms / per_move}


@dataclass
class Match:
    """A finished match: the two scores (first player, second player) and
    each game's record: who played MAX, the result and the moves."""

    game: str
    seed: int
    players: tuple[Score, Score]
    games: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        """The match as plain data (for ``--json``)."""
        return {"game": self.game, "seed": self.seed,
                "players": [p.as_dict() for p in self.players], "games": self.games}


def parse_player(spec: str) -> Player:
    """The player a spec names; raises :class:`BadInput` (one line) for a
    spec that names none."""
    kind, _, arg = spec.partition(":")
    if kind not in KINDS:
        raise BadInput(f"player {spec!r}: choose one of human, random, minimax:DEPTH, "
                       "alphabeta:DEPTH, expectiminimax:DEPTH, id:MS, mcts:PLAYOUTS, "
                       "table:FILE.adv")
    wanted = KINDS[kind]
    if wanted is None:
        if arg:
            raise BadInput(f"player {spec!r}: {kind} takes no argument")
        return Player(spec, None if kind == "human" else "random")
    if not arg:
        raise BadInput(f"player {spec!r}: write {kind}:{wanted.upper()}")
    if kind == "table":
        return Player(spec, f"table({_table_context(arg)})")
    if not arg.isdigit() or int(arg) < 1:
        raise BadInput(f"player {spec!r}: the {wanted} must be a whole number, at least 1")
    return Player(spec, f"{kind}({integer(int(arg))})")


def _table_context(path: str) -> str:
    """The AL0 context of the table in ``path``, loaded (bad tables are
    bad input, as ``advice check`` reports them)."""
    from engine.tables import load_table

    return load_table(path).context("compiled")


def match(
    game: str | Game,
    first: str,
    second: str,
    *,
    games: int = 2,
    seed: int = 0,
    kb_file: str | None = None,
    position: str | None = None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    progress: Callable[[int], None] | None = None,
) -> Match:
    """Play ``games`` games of ``game`` between the players ``first`` and
    ``second`` (specs as :func:`parse_player` reads them), alternating
    sides, the random choices seeded by ``seed`` (game i by ``seed + i``).

    ``kb_file`` names a student's game instead of a shipped one;
    ``position`` is the start as the game reads it (None: its initial
    position). A person (``human``) is asked with ``ask``; boards and
    moves go to ``say``. ``progress`` is called with the number of games
    played after each. Raises :class:`BadInput` for a bad player, count
    or position.
    """
    if games < 1:
        raise BadInput(f"--games must be at least 1, not {games}")
    players = (parse_player(first), parse_player(second))
    g = resolve_game(game, kb_file)
    kb = load_game(g)
    start = start_of(g, kb, position)
    if any(p.spec.startswith("table:") for p in players):
        session().require(kb, ["position_text/2"],
                          f"{g.kb_file} (a table reads the positions it writes)")
    result = Match(g.name, seed, (Score(players[0]), Score(players[1])))
    for i in range(games):
        scores = result.players if i % 2 == 0 else result.players[::-1]   # MAX first
        if any(s.player.term is None for s in scores):
            played = _game_with_person(g, kb, start, scores, seed + i, ask, say)
        else:
            played = _machine_game(g, kb, start, scores, seed + i)
        _score(played, scores)
        result.games.append({"max": scores[0].player.spec, "min": scores[1].player.spec,
                             "result": played["result"], "moves": played["moves"]})
        if progress is not None:
            progress(i + 1)
    return result


def _machine_game(game: Game, kb: LoadedKB, start: Start, scores, seed: int) -> dict:
    """A game between two machine players, one job."""
    session().use_module("search/referee.pl")
    return run_job(f"referee:match_game_job({atom(kb.module)}, {start.prolog()}, "
                   f"{scores[0].player.term}, {scores[1].player.term}, {integer(seed)}, Out)",
                   seconds=3600, what=f"a game of {game.name}")


def _game_with_person(game, kb, start, scores, seed, ask, say) -> dict:
    """A game played move by move: a person's moves read by the game, the
    machine's and the dice's by the referee."""
    from engine.play import human_move, turn

    moves: list[str] = []
    totals = {"max": {"moves": 0, "positions": 0, "ms": 0.0},
              "min": {"moves": 0, "positions": 0, "ms": 0.0}}
    while True:
        info = turn(game, kb, start)
        say(info["drawing"])
        if info["over"]:
            value = info["value"]
            result = "max" if value > 0 else "min" if value < 0 else "draw"
            say(f"Game over: {_result_text(result)}.")
            return {"result": result, "moves": moves, **totals}
        side = "max" if info["max_to_move"] else "min"
        player = scores[0 if side == "max" else 1].player
        if info["chance"]:
            step = ply(game, kb, info["position"], "random", seed + len(moves))
            say(f"dice: {step['move']}")
        elif player.term is None:
            move = human_move(game, kb, info["position"],
                              f"{side.upper()} to move ({info['prompt']}): ", ask, say)
            if move is None:
                return {"result": "unfinished", "moves": moves, **totals}
            step = {"position": move[0], "move": move[1], "positions": 0, "ms": 0.0}
        else:
            step = ply(game, kb, info["position"], player.term, seed + len(moves))
            say(f"{side.upper()} ({player.spec}) plays {step['move']}")
        if not info["chance"]:
            totals[side]["moves"] += 1
            totals[side]["positions"] += step["positions"]
            totals[side]["ms"] += step["ms"]
        moves.append(step["move"])
        start = Start("term", step["position"])


def ply(game: Game, kb: LoadedKB, position: str, term: str, seed: int) -> dict:
    """One step of the referee at ``position`` (``~q``): the dice where
    they decide, else the move of the player ``term``: the position
    reached, the move for people, ``roll``, positions and ms."""
    session().use_module("search/referee.pl")
    return run_job(f"referee:ply_job({atom(kb.module)}, {string(position)}, {term}, "
                   f"{integer(seed)}, Out)", what=f"a move of {game.name}")


def _score(played: dict, scores: tuple[Score, Score]) -> None:
    for side, score, other in (("max", scores[0], "min"), ("min", scores[1], "max")):
        result = played["result"]
        if result == side:
            score.wins += 1
        elif result == other:
            score.losses += 1
        elif result == "draw":
            score.draws += 1
        else:
            score.unfinished += 1
        score.moves += played[side]["moves"]
        score.positions += played[side]["positions"]
        score.ms += played[side]["ms"]


def _result_text(result: str) -> str:
    return {"max": "MAX wins", "min": "MIN wins", "draw": "draw"}.get(result, result)
