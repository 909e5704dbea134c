"""The ``advice`` command line.

Every command prints for people by default and one JSON object with
``--json``. Bad input (a name, a file, a position, a table) gives a
one-line error on stderr and exit code 2; no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Sequence

from engine.games import GAMES, BadInput
from engine.prolog import EngineError

EXIT_BAD_INPUT = 2


class Failure(Exception):
    """A command ran but did not succeed (exit 1), e.g. a refuted table."""


def _print_json(data) -> None:
    print(json.dumps(data, indent=2))


def cmd_games(args) -> None:
    if args.json:
        _print_json({"games": [{"name": g.name, "description": g.description}
                               for g in GAMES.values()]})
        return
    for g in GAMES.values():
        print(f"{g.name:12} {g.description}")


def cmd_search(args) -> None:
    from engine.search import search

    if args.game is None and args.kb is None:
        raise BadInput("name a game (see `advice games`) or give --kb FILE.pl")
    result = search(args.game or "", args.position, args.algo, args.depth, kb_file=args.kb)
    if args.json:
        _print_json(result.as_dict())
        return
    from engine.search import resolve_game

    game = resolve_game(args.game or "", args.kb)
    print(game.show(result.position))
    print()
    depth = "to the end" if result.depth is None else f"to depth {result.depth}"
    print(f"{result.algo} {depth}: value {result.value}")
    print(f"best move: {result.move or '(none: the game is over)'}")
    if len(result.line) > 1:
        moves = [game.move_label(a, b) for a, b in zip(result.line, result.line[1:])]
        print(f"principal variation: {', '.join(moves)}")
    print(f"positions visited: {result.nodes:,} in {result.seconds:.3f} s")


def cmd_play(args) -> None:
    from engine.play import play_game
    from engine.search import resolve_game

    game = resolve_game(args.game)
    record = play_game(game, human_is_max=(args.first == "human"), algo=args.algo,
                       depth=args.depth, position=args.position,
                       say=(lambda _: None) if args.json else print)
    if args.json:
        _print_json({"game": game.name, "moves": record.moves, "result": record.result})


def cmd_demo(args) -> None:
    from engine.play import play_game
    from engine.search import resolve_game

    print("Tic-tac-toe, the machine against itself (alpha-beta, full depth):\n")
    record = play_game(resolve_game("tictactoe"), human_is_max=None, algo="alphabeta")
    print(f"\nMoves: {', '.join(record.moves)}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``advice`` command."""
    parser = argparse.ArgumentParser(
        prog="advice",
        description="Knowledge-based game playing in Prolog: advice tables, "
        "minimax and alpha-beta.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, func: Callable, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.set_defaults(func=func)
        return p

    add("games", cmd_games, "list the games")

    p = add("search", cmd_search, "search a position with minimax or alpha-beta")
    p.add_argument("game", nargs="?", help="a game from `advice games`")
    p.add_argument("--kb", metavar="FILE.pl",
                   help="a game module of your own (moves/2, staticval/2, "
                   "max_to_move/1, min_to_move/1)")
    _search_options(p)

    p = add("play", cmd_play, "play a game against the machine in the terminal")
    p.add_argument("game", help="a game from `advice games`")
    p.add_argument("--first", choices=["human", "machine"], default="human",
                   help="who moves first (default: human)")
    _search_options(p)

    add("demo", cmd_demo, "the demonstration `make demo` runs")
    return parser


def _search_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--algo", choices=["minimax", "alphabeta"], default="alphabeta")
    p.add_argument("--depth", type=int, help="search depth (default: to the end)")
    p.add_argument("--position", help="the position to start from (default: the start)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``advice`` command; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except (EngineError, _advice_error()) as error:
        print(f"advice: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Failure as failure:
        print(f"advice: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("advice: interrupted", file=sys.stderr)
        return 130
    return 0


def _advice_error() -> type[Exception]:
    try:
        from advice.errors import AdviceError
    except ImportError:  # the language package is optional for the game commands
        return EngineError
    return AdviceError


if __name__ == "__main__":
    sys.exit(main())
