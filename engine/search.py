"""Game-tree search from Python: one Prolog query per search.

:func:`search` loads a game (a shipped one by name, or a student's
``.pl``), has the game read the position a person gave, and runs
minimax or alpha-beta in Prolog; the :class:`SearchResult` holds the
value, the best move and the principal variation as the game writes
them, and the number of positions visited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.games import SEARCH_INTERFACE, Game, find_game, run_job, student_game
from engine.prolog import DEFAULT_SECONDS, BadInput, LoadedKB, atom, integer, session, string

ALGORITHMS = ("minimax", "alphabeta", "ordered", "tt", "quiescence", "id", "mcts",
              "expectiminimax")
#: The budget of iterative deepening when none is given: positions.
DEFAULT_BUDGET = "100000"
#: The budget of Monte Carlo tree search when none is given: playouts.
DEFAULT_PLAYOUTS = 1000
#: The searches that need a depth, and those that take a budget instead.
NEEDS_DEPTH = ("quiescence", "expectiminimax")
BUDGETED = ("id", "mcts")

#: What a search gives a position where MAX has won (kb/search/outcomes.pl):
#: a win N plies away is worth WON - N, a loss -(WON - N); values beyond
#: DECIDED in size are definite outcomes, the rest guesses.
WON = 1_000_000_000
DECIDED = 500_000_000


def outcome_of(value: float) -> dict | None:
    """What a search value says of how the game ends: ``{"winner":
    "max" or "min", "plies": N}`` for a definite win, None for a guess or
    a draw.

    >>> outcome_of(999_999_997), outcome_of(-999_999_990), outcome_of(12)
    ({'winner': 'max', 'plies': 3}, {'winner': 'min', 'plies': 10}, None)
    """
    if abs(value) <= DECIDED or abs(value) == float("inf"):
        return None
    return {"winner": "max" if value > 0 else "min", "plies": int(WON - abs(value))}


def value_text(value: float) -> str:
    """A search value for people: ``MAX wins in 3 plies`` for a definite
    outcome, else the number."""
    outcome = outcome_of(value)
    if outcome is None:
        return f"{value:g}" if isinstance(value, float) else str(value)
    plies = outcome["plies"]
    return f"{outcome['winner'].upper()} wins in {plies} {'ply' if plies == 1 else 'plies'}"


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    ``value`` is for MAX (a definite win or loss, see :func:`outcome_of`,
    or a guess); ``best`` is the best successor position (None
    at the end of the game) and ``move`` the move to it, for people;
    ``line`` is the principal variation, root first (positions as
    Prolog terms, written with ``~q``), and ``moves`` the moves along it,
    for people; ``nodes`` counts the positions visited, the root
    included; ``drawing`` is the root position drawn by its game;
    ``warnings`` are those of loading the game's file and the faults of
    the game found at the root and its successors (a side to move that
    is not exactly one of MAX and MIN, a successor given twice, ...),
    which make the value wrong.
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
    moves: tuple[str, ...] = ()
    drawing: str = ""
    per_depth: tuple[tuple[int, int], ...] = ()
    children: tuple[dict, ...] = ()

    def as_dict(self) -> dict:
        """The result as plain data (for ``--json``)."""
        return {
            "game": self.game, "algo": self.algo, "depth": self.depth,
            "position": self.position, "value": self.value,
            "outcome": outcome_of(self.value), "move": self.move,
            "best": self.best, "line": list(self.line), "nodes": self.nodes,
            "seconds": self.seconds, "warnings": list(self.warnings),
            **({"per_depth": [list(p) for p in self.per_depth]} if self.algo == "id" else {}),
            **({"children": list(self.children)} if self.algo == "mcts" else {}),
        }


@dataclass(frozen=True)
class Start:
    """Where a job starts: a position a person ``typed`` (read by the
    game), a ``term`` an earlier job wrote (``~q``), or the game's
    ``initial`` position."""

    how: Literal["typed", "term", "initial"]
    text: str = ""

    def prolog(self) -> str:
        """The start as the Prolog term the jobs take."""
        return "initial" if self.how == "initial" else f"{self.how}({string(self.text)})"


def resolve_game(game: str | Game, kb_file: str | None = None) -> Game:
    """A game by name, or a student's game from ``kb_file``."""
    if isinstance(game, Game):
        return game
    if kb_file is not None:
        return student_game(kb_file)
    return find_game(game)


def load_game(game: Game) -> LoadedKB:
    """Load the game's KB; check its interface."""
    s = session()
    kb = s.load_file(game.kb_file)
    s.require(kb, SEARCH_INTERFACE, str(game.kb_file))
    return kb


def start_of(game: Game, kb: LoadedKB, text: str | None) -> Start:
    """The start a person gave: ``text`` as the game reads it, or for
    None the game's ``initial/1`` (raising
    :class:`~engine.prolog.InterfaceError` when it has none)."""
    if text is not None:
        return Start("typed", text)
    session().require(kb, ["initial/1"], f"{game.kb_file} (no --position given)")
    return Start("initial")


def search(
    game: str | Game,
    position: str | None = None,
    algo: str = "alphabeta",
    depth: int | None = None,
    *,
    kb_file: str | None = None,
    budget: str | None = None,
    seed: int | None = None,
    seconds: float = DEFAULT_SECONDS,
) -> SearchResult:
    """Search a position of a game and return a :class:`SearchResult`.

    ``game`` is a shipped game's name (see ``advice games``) or a
    :class:`Game`; ``kb_file`` names a student's ``.pl`` instead.
    ``position`` is written as the game reads it (None: the start);
    ``depth`` limits the search (None: to the end of the game). ``algo``
    is one of :data:`ALGORITHMS`: ``ordered`` is alpha-beta with move
    ordering, ``tt`` adds a transposition table, ``quiescence`` searches
    the game's noisy moves past ``depth``, ``expectiminimax`` searches a
    game of chance to ``depth`` (both need one), ``id`` is iterative
    deepening within ``budget`` (``"500ms"`` or a number of positions,
    default :data:`DEFAULT_BUDGET`) and ``mcts`` Monte Carlo tree search
    with ``budget`` playouts (default :data:`DEFAULT_PLAYOUTS`) and
    ``seed`` (default 0). Raises :class:`BadInput` for a position the
    game refuses or a bad algorithm, depth, budget or seed.
    """
    g = resolve_game(game, kb_file)
    kb = load_game(g)
    return search_from(g, kb, start_of(g, kb, position), algo, depth, budget=budget,
                       seed=seed, seconds=seconds)


def budget_term(text: str) -> str:
    """The Prolog budget of a ``--budget`` text: ``500ms`` is
    ``ms(500)``, ``20000`` is ``positions(20000)``."""
    raw = text.strip().lower()
    number, unit = (raw[:-2], "ms") if raw.endswith("ms") else (raw, "positions")
    if not number.isdigit() or int(number) < 1:
        raise BadInput(f"--budget {text!r}: give a number of positions (e.g. 20000) or of "
                       "milliseconds (e.g. 500ms), at least 1")
    return f"{unit}({integer(int(number))})"


def search_from(
    game: Game,
    kb: LoadedKB,
    start: Start,
    algo: str = "alphabeta",
    depth: int | None = None,
    *,
    budget: str | None = None,
    seed: int | None = None,
    seconds: float = DEFAULT_SECONDS,
) -> SearchResult:
    """Search a loaded game (see :func:`load_game`) from ``start``."""
    goal_algo = _algorithm_term(algo, depth, budget, seed)
    data = run_job(
        f"search_jobs:search_job({atom(kb.module)}, {start.prolog()}, {goal_algo}, "
        f"{'inf' if depth is None else integer(depth)}, Out)",
        seconds=seconds, what=f"{algo} on {game.name}",
    )
    line, moves = tuple(data["line"]), tuple(data["moves"])
    return SearchResult(
        game=game.name, algo=algo, depth=data.get("depth", depth), position=data["position"],
        value=data["value"], best=line[1] if len(line) > 1 else None,
        move=moves[0] if moves else None, line=line, nodes=data["nodes"],
        seconds=data["seconds"], moves=moves, drawing=data["drawing"],
        warnings=kb.warnings + tuple(_fault_warning(game, fault) for fault in data["faults"]),
        per_depth=tuple(tuple(p) for p in data.get("per_depth", ())),
        children=tuple(data.get("children", ())),
    )


def _algorithm_term(algo: str, depth: int | None, budget: str | None,
                    seed: int | None) -> str:
    """The Prolog term of a search (jobs.pl, search_job/5), its options
    checked: one line of :class:`BadInput` for each misuse."""
    if algo not in ALGORITHMS:
        raise BadInput(f"unknown algorithm {algo!r}: choose {', '.join(ALGORITHMS)}")
    if depth is not None and depth < 1:
        raise BadInput(f"--depth must be at least 1, not {depth}")
    if budget is not None and algo not in BUDGETED:
        raise BadInput(f"--budget is for iterative deepening (--algo id) and Monte Carlo "
                       f"tree search (--algo mcts), not {algo}")
    if seed is not None and algo != "mcts":
        raise BadInput(f"--seed is for Monte Carlo tree search (--algo mcts), not {algo}")
    if depth is not None and algo in BUDGETED:
        raise BadInput(f"--depth is not for {algo}: it searches until its --budget runs out")
    if depth is None and algo in NEEDS_DEPTH:
        raise BadInput(f"--algo {algo} needs a --depth")
    if algo == "id":
        return f"id({budget_term(budget or DEFAULT_BUDGET)})"
    if algo == "mcts":
        playouts = (budget or str(DEFAULT_PLAYOUTS)).strip()
        if not playouts.isdigit() or int(playouts) < 1:
            raise BadInput(f"--budget {budget!r}: Monte Carlo tree search takes a number of "
                           "playouts, at least 1")
        if seed is not None and seed < 0:
            raise BadInput(f"--seed must be 0 or more, not {seed}")
        return f"mcts({integer(int(playouts))}, {integer(seed or 0)})"
    return atom(algo)


def _fault_warning(game: Game, fault: dict) -> str:
    """A fault of the game found at the root of a search (see
    ``lint:root_faults/3``), as a warning: the value may be wrong."""
    where = fault["file"] if fault["line"] is None else f"{fault['file']}:{fault['line']}"
    return (f"{where}: {fault['text']}; the value may be wrong "
            f"(`advice check --kb {game.kb_file}` examines the whole game)")

