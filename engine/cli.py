"""The ``advice`` command line.

Every command prints for people by default and one JSON object with
``--json``. Bad input (a name, a file, a position, a table) gives an
error on stderr naming the input and the place (one line; a table's
errors each with its source line and a caret) and exit code 2; no
traceback. A table that fails verification exits 1.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading


def _interrupted_while_starting(signum, frame) -> None:
    sys.stderr.write("advice: interrupted\n")
    os._exit(130)


if threading.current_thread() is threading.main_thread() and \
        multiprocessing.parent_process() is None:
    # Ctrl-C while the modules below load ends quietly; main() then takes over.
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import argparse  # noqa: E402 - after the handler, so that Ctrl-C is clean from the start
import json  # noqa: E402
from typing import Callable, Sequence  # noqa: E402

from advice.errors import AdviceError  # noqa: E402
from engine.prolog import (  # noqa: E402
    DEFAULT_INFERENCES, DEFAULT_MEMORY, DEFAULT_SECONDS, BadInput, EngineError,
    configure_limits,
)

EXIT_BAD_INPUT = 2


class Failure(Exception):
    """A command ran but did not succeed (exit 1), e.g. a refuted table."""


def _print_json(data) -> None:
    print(json.dumps(data, indent=2))


def cmd_games(args) -> None:
    from engine.games import shipped_games

    games = shipped_games()
    if args.json:
        _print_json({"games": [{"name": g.name, "description": g.description}
                               for g in games]})
        return
    for g in games:
        print(f"{g.name:12} {g.description}")


def cmd_search(args) -> None:
    from engine.search import search

    if args.game is None and args.kb is None:
        raise BadInput("name a game (see `advice games`) or give --kb FILE.pl")
    result = search(args.game or "", args.position, args.algo, args.depth, kb_file=args.kb)
    for warning in result.warnings if not args.json else ():
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        _print_json(result.as_dict())
        return
    print(result.drawing)
    print()
    depth = "to the end" if result.depth is None else f"to depth {result.depth}"
    print(f"{result.algo} {depth}: value {result.value}")
    print(f"best move: {result.move or '(none: the game is over)'}")
    if result.moves:
        print(f"principal variation: {', '.join(result.moves)}")
    print(f"positions visited: {result.nodes:,} in {result.seconds:.3f} s")


def cmd_play(args) -> None:
    if args.game.endswith(".adv"):
        return cmd_play_table(args)
    from engine.play import play_game
    from engine.search import resolve_game

    game = resolve_game(args.game)
    record = play_game(game, human_is_max=(args.first == "human"), algo=args.algo,
                       depth=args.depth, position=args.position,
                       say=(lambda _: None) if args.json else print)
    if args.json:
        _print_json({"game": game.name, "moves": record.moves, "result": record.result})


def _player(args):
    from engine.advice_play import AdvicePlayer
    from engine.tables import load_table

    table = load_table(args.table if hasattr(args, "table") else args.game)
    if not args.json:
        for warning in table.warnings:
            print(warning.render(table.table.source), file=sys.stderr)
    return AdvicePlayer(table, args.mode)


def cmd_play_table(args) -> None:
    from engine.render import game_moves_text

    player = _player(args)
    domain = player.domain
    if args.svg and not domain.is_chess:
        raise BadInput(f"--svg draws chess boards: {domain.module} is not a chess domain")
    defender = args.defender or ("perfect" if domain.perfect == "domain" else "random")
    people = not args.json and defender != "human"
    record = player.play(args.position, defender, fen=args.fen, seed=args.seed,
                         move_limit=args.max_moves,
                         say=(lambda _: None) if args.json else print)
    if args.svg:
        record.start.chess.write_svgs(record.move_texts, args.svg)
    if args.json:
        _print_json({"table": player.table.table.name, "result": record.result,
                     "moves": record.moves, "us_moves": record.us_moves,
                     "optimal": record.optimal,
                     "reasons": [{"rule": r[0], "advice": r[1]} if r else None
                                 for r in record.reasons]})
        return
    if people:
        print(player.drawing(record, 0))
        for i, (move, side, reason) in enumerate(zip(record.moves, record.sides,
                                                     record.reasons)):
            who = f"[{reason[0]} / {reason[1]}]" if side == "us" else "(defender)"
            print(f"\n{(i // 2) + 1}.{'' if side == 'us' else '..'} {move}  {who}")
            print(player.drawing(record, i + 1))
        print()
        print(game_moves_text(record))
    compare = f" (optimal: {record.optimal})" if record.optimal is not None else ""
    print(f"\nresult: {record.result.replace('_', ' ')} after {record.us_moves} "
          f"moves of the table{compare}")
    if args.svg:
        print(f"boards written to {args.svg}/")


def cmd_check(args) -> None:
    from engine.tables import load_table

    table = load_table(args.table)
    if args.json:
        _print_json({"table": table.table.name, "file": args.table, "ok": True,
                     "warnings": [{"message": w.message, "line": w.span.line,
                                   "column": w.span.column} for w in table.warnings]})
        return
    for warning in table.warnings:
        print(warning.render(table.table.source))
    print(f"{args.table}: table {table.table.name} is correct "
          f"({len(table.table.rules)} rules, {len(table.table.advices)} pieces of advice, "
          f"{len(table.warnings)} warnings)")


def cmd_compile(args) -> None:
    from engine.tables import load_table

    table = load_table(args.table)
    if args.json:
        _print_json({"table": table.table.name, "module": table.module,
                     "domain": table.domain, "source": table.compiled.source()})
        return
    print(table.compiled.source(), end="")


def cmd_explain(args) -> None:
    from engine.render import explanation_text

    player = _player(args)
    explanation = player.explain(args.position, fen=args.fen)
    if args.dot or args.svg:
        from engine.dot import write_tree_pictures

        written = write_tree_pictures(explanation, args.dot, args.svg)
        if not args.json:
            for path in written:
                print(f"wrote {path}", file=sys.stderr)
    if args.json:
        _print_json(explanation.as_dict())
        return
    print(explanation_text(explanation))


def cmd_solve(args) -> None:
    from engine.tables import chess_domain_for, load_domain

    domain = load_domain(args.kb) if args.kb else chess_domain_for(args.fen)
    start = domain.start(fen=args.fen)
    domain.prepare()
    answer = domain.solve(start)
    if args.json:
        _print_json({"fen": args.fen, "domain": domain.module, **answer})
        return
    if answer["optimal"] is None:
        print(f"no forced win: {(answer['result'] or 'unfinished').replace('_', ' ')}")
    else:
        print(f"mate in {answer['optimal']}" if domain.is_chess
              else f"success in {answer['optimal']}")
    print(" ".join(answer["moves"]))


def cmd_tablebase(args) -> None:
    from engine.tables import load_domain

    domain = load_domain(args.kb)
    prepared = domain.prepare(rebuild=args.rebuild)
    stats = {**domain.tablebase_statistics(), "source": prepared.source,
             "seconds": prepared.seconds}
    if args.json:
        _print_json(stats)
        return
    print(f"{domain.module} tablebase ({prepared.source}, {prepared.seconds:.2f} s)")
    for key, value in stats.items():
        if isinstance(value, dict):
            keys = sorted(value, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else k))
            print(f"  {key.replace('_', ' ')}:")
            print("    " + " ".join(f"{k:>6}" for k in keys))
            print("    " + " ".join(f"{value[k]:>6}" for k in keys))
        elif key not in ("source", "seconds"):
            print(f"  {key.replace('_', ' ')}: {value:,}" if isinstance(value, int)
                  else f"  {key.replace('_', ' ')}: {value}")


def cmd_verify(args) -> None:
    from engine.verify import Interrupted, VerifyJob, verify

    job = VerifyJob(args.table, args.defender, args.positions, args.sample, args.seed,
                    args.mode, args.max_moves)
    try:
        with _progress_bar(enabled=not args.json and sys.stderr.isatty()) as progress:
            report = verify(job, args.workers, progress, force=args.force)
    except Interrupted as stop:
        print("advice: interrupted; the positions verified so far:", file=sys.stderr)
        _print_verify(stop.report, args.json)
        raise SystemExit(130) from None
    _print_verify(report, args.json)
    if report["failures"]:
        raise Failure(f"the table fails from {report['failures']:,} of "
                      f"{report['positions']:,} positions")


def _print_verify(report: dict, as_json: bool) -> None:
    if as_json:
        _print_json(report)
        return
    from engine.render import verify_text

    print(verify_text(report))


class _progress_bar:
    """A rich progress bar on stderr while a long job runs (a no-op when disabled)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress("verifying", BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), transient=True)
        self.bar.start()
        self.task = self.bar.add_task("verify", total=None)
        return lambda done, total: self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc):
        if self.enabled:
            self.bar.stop()
        return False


def cmd_demo(args) -> None:
    from engine.tables import shipped_demo

    table, description = shipped_demo()
    if not args.json:
        print(description + "\n")
    cmd_play_table(argparse.Namespace(
        game=str(table), fen=None, position=None, defender="perfect", seed=0,
        max_moves=100, svg=None, mode="compiled", json=args.json))


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
        _limit_options(p)
        p.set_defaults(func=func)
        return p

    add("games", cmd_games, "list the games")

    p = add("search", cmd_search, "search a position with minimax or alpha-beta")
    p.add_argument("game", nargs="?", help="a game from `advice games`")
    p.add_argument("--kb", metavar="FILE.pl",
                   help="a game module of your own (moves/2, staticval/2, "
                   "max_to_move/1, min_to_move/1)")
    _search_options(p)

    p = add("play", cmd_play, "play a game against the machine, or an advice table "
            "against a defender")
    p.add_argument("game", help="a game from `advice games`, or a table FILE.adv")
    p.add_argument("--first", choices=["human", "machine"], default="human",
                   help="games: who moves first (default: human)")
    _search_options(p)
    p.add_argument("--fen", help="tables of a chess domain: the position to start from")
    p.add_argument("--defender", choices=["perfect", "random", "human"],
                   help="tables: who answers the table's moves (default: perfect where "
                   "the domain has its own perfect defender, else random)")
    p.add_argument("--seed", type=int, default=0, help="the random defender's seed")
    p.add_argument("--max-moves", type=int, default=100,
                   help="tables: stop after this many moves of the table")
    p.add_argument("--svg", metavar="DIR", help="tables: write one board picture per move")
    _mode_option(p)

    p = add("check", cmd_check, "check an advice table against its knowledge base")
    p.add_argument("table", help="the table, FILE.adv")

    p = add("compile", cmd_compile, "print the Prolog a table compiles to")
    p.add_argument("table", help="the table, FILE.adv")

    p = add("explain", cmd_explain, "show which rule and advice a table chooses, and why")
    p.add_argument("table", help="the table, FILE.adv")
    p.add_argument("--position", help="the position (default: the domain's start)")
    p.add_argument("--fen", help="the position, for a chess domain")
    p.add_argument("--dot", metavar="FILE", help="write the forcing tree as Graphviz DOT")
    p.add_argument("--svg", metavar="FILE", help="draw the forcing tree as SVG (needs dot)")
    _mode_option(p)

    p = add("verify", cmd_verify, "play a table from every start position and report "
            "how, and how well, it wins")
    p.add_argument("table", help="the table, FILE.adv")
    p.add_argument("--defender", choices=["perfect", "all", "random"],
                   help="perfect: the longest resistance (the domain's own, or found by "
                   "search); all: every defence (the worst case); random: seeded random "
                   "replies (default: perfect where the domain has its own perfect "
                   "defender, else random)")
    p.add_argument("--positions", help="which set of start positions the domain declares "
                   "(default: its first)")
    p.add_argument("--sample", type=int, metavar="N", help="verify N positions drawn at random")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample and of --defender random")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes, at most the number of cores (default 1)")
    p.add_argument("--force", action="store_true", help="allow more workers than cores")
    p.add_argument("--max-moves", type=int, default=100,
                   help="a game longer than this many moves of the table fails")
    _mode_option(p)

    p = add("solve", cmd_solve, "the optimal line of a chess endgame position, from the "
            "domain's tablebase or search")
    p.add_argument("--fen", required=True, help="the position")
    p.add_argument("--kb", help="the chess domain (a knowledge base as a table's `uses` "
                   "names it; default: the shipped one with the FEN's material)")

    p = add("tablebase", cmd_tablebase, "build (once) and describe a domain's tablebase")
    p.add_argument("kb", metavar="KB", help="the knowledge base, as a table's `uses` names "
                   "it: folder/name under kb/, a bare name, or a .pl file")
    p.add_argument("--rebuild", action="store_true", help="compute it again")

    add("demo", cmd_demo, "the demonstration `make demo` runs")
    return parser


def _mode_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=["compiled", "interpreted"], default="compiled",
                   help="run the compiled table (default) or walk it as data")


def _search_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--algo", choices=["minimax", "alphabeta"], default="alphabeta")
    p.add_argument("--depth", type=int, help="search depth (default: to the end)")
    p.add_argument("--position", help="the position to start from (default: the start)")


def _limit_options(p: argparse.ArgumentParser) -> None:
    limits = p.add_argument_group("limits of every Prolog job")
    limits.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help=f"seconds a job may run (default: {DEFAULT_SECONDS:g}, or the "
                        "job's own, e.g. an hour for one slice of verify)")
    limits.add_argument("--inference-limit", type=int, metavar="N",
                        help=f"inferences a job may make (default: {DEFAULT_INFERENCES:,})")
    limits.add_argument("--memory-limit", type=_size, metavar="SIZE",
                        help="memory of each Prolog process, e.g. 512M or 4G (default: a "
                        f"quarter of this machine's, {_gib(DEFAULT_MEMORY)})")


def _size(text: str) -> int:
    units = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    text = text.strip().upper().removesuffix("B")
    try:
        if text and text[-1] in units:
            return int(float(text[:-1]) * units[text[-1]])
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 512M or 4G)") from None


def _gib(size: int | None) -> str:
    return "none" if size is None else f"{size / 2**30:.1f} GiB"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``advice`` command; returns the exit code."""
    args = build_parser().parse_args(argv)
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C must reach us even where SIGINT was ignored (a background
        # job), so that we can end the Prolog process and the workers.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        configure_limits(seconds=args.time_limit, inferences=args.inference_limit,
                         memory=args.memory_limit or DEFAULT_MEMORY)
        args.func(args)
    except (EngineError, AdviceError) as error:
        print(f"advice: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Failure as failure:
        print(f"advice: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("advice: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
