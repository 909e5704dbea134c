"""The ``advice`` command line.

Every command prints for people by default and one JSON object with
``--json``. Bad input (a name, a file, a position, a table) gives an
error on stderr naming the input and the place (one line; a table's
errors each with its source line and a caret) and exit code 2; no
traceback; under ``--json`` the error is also the JSON object on stdout,
``{"error": "..."}``. A table that fails verification, and a game that
``check --kb`` finds faults in, exit 1.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import signal
import sys
import threading


def _interrupted_while_starting(signum, frame) -> None:
    sys.stderr.write("advice: interrupted\n")
    os._exit(130)


if threading.current_thread() is threading.main_thread() and \
        multiprocessing.parent_process() is None and \
        signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
    # Ctrl-C while the modules below load ends quietly; main() then takes over.
    # (The engine's child processes, which may import this module as their
    # main one, start with SIGINT blocked and then ignore it: their parent
    # ends them, and reports.)
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import argparse  # noqa: E402 - after the handler, so that Ctrl-C is clean from the start
import json  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Callable, Sequence  # noqa: E402

from advice.errors import AdviceError, AdviceFileError, render_diagnostics  # noqa: E402
from engine.lint import DEFAULT_POSITIONS  # noqa: E402
from engine.prolog import (  # noqa: E402
    DEFAULT_INFERENCES, DEFAULT_MEMORY, DEFAULT_SECONDS, BadInput, EngineError,
    configure_limits, end_session, kb_path, trust_user_files,
)
from engine import sandbox  # noqa: E402
from engine.prolog_process import ignore_ctrl_c  # noqa: E402

EXIT_BAD_INPUT = 2
#: A reader that went away (``advice ... | head -1``): 128 + SIGPIPE, as a
#: program that the signal ends.
EXIT_BROKEN_PIPE = 141
#: Ctrl-C: 128 + SIGINT, as a program that the signal ends.
EXIT_INTERRUPTED = 130


class Failure(Exception):
    """A command ran but did not succeed (exit 1), e.g. a refuted table."""


def _print_json(data) -> None:
    wall = sandbox.announced()
    if isinstance(data, dict) and wall is not None and not wall["complete"]:
        data = {**data, "wall": wall}
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
    from engine.search import search, value_text

    if args.game is None and args.kb is None:
        raise BadInput("name a game (see `advice games`) or give --kb FILE.pl")
    result = search(args.game or "", args.position, args.algo, args.depth, kb_file=args.kb,
                    budget=args.budget, seed=args.seed)
    for warning in result.warnings if not args.json else ():
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        _print_json(result.as_dict())
        return
    print(result.drawing)
    print()
    depth = "to the end" if result.depth is None else f"to depth {result.depth}"
    print(f"{result.algo} {depth}: value {value_text(result.value)}")
    if result.per_depth:
        print("positions per depth: " + ", ".join(f"{d}: {n:,}" for d, n in result.per_depth))
    if result.children:
        print("playouts per move: " + ", ".join(
            f"{c['move']}: {c['visits']:,} ({c['reward'] / max(c['visits'], 1):.0%})"
            for c in result.children))
    print(f"best move: {result.move or '(none: the game is over)'}")
    if result.moves:
        print(f"principal variation: {', '.join(result.moves)}")
    print(f"positions visited: {result.nodes:,} in {result.seconds:.3f} s")


def cmd_play(args) -> None:
    if args.kb is None and args.game is None:
        raise BadInput("name a game (see `advice games`) or a table, or give --kb FILE.pl")
    if args.kb is not None and args.game is not None:
        raise BadInput(f"give a game ({args.game}) or --kb {args.kb}, not both")
    if args.kb is None and not _names_a_game(args.game):
        args.table = args.game
        return cmd_play_table(args)
    from engine.play import play_game
    from engine.search import resolve_game

    game = resolve_game(args.game or "", args.kb)
    ask, say = _talk(args.json)
    record = play_game(game, human_is_max=(args.first == "human"), algo=args.algo,
                       budget=args.budget, seed=args.seed,
                       depth=args.depth, position=args.position, ask=ask, say=say)
    if args.json:
        _print_json({"game": game.name, "moves": record.moves, "result": record.result})


def _player(args):
    from engine.advice_play import AdvicePlayer
    from engine.tables import load_table

    table = load_table(args.table)
    if not args.json and table.warnings:
        print(render_diagnostics(table.warnings, table.table.source), file=sys.stderr)
    return AdvicePlayer(table, args.mode)


def _talk(as_json: bool) -> tuple[Callable[[str], str], Callable[[str], None]]:
    """How a game talks with a person: ``ask`` and ``say``. Under ``--json``
    prompts and boards go to stderr, for stdout holds the JSON."""
    if not as_json:
        return input, print
    return _ask_on_stderr, partial(print, file=sys.stderr)


def _ask_on_stderr(prompt: str) -> str:
    """A line a person types, the prompt written to stderr; EOFError at the end."""
    print(prompt, end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def cmd_play_table(args) -> None:
    from engine.advice_play import GameFailed, GameInterrupted, GamePastLimit

    if args.svg:
        _output_folder(args.svg, "--svg")
    args.table = _table_argument(args.table)
    player = _player(args)
    domain = player.domain
    if args.svg and not domain.is_chess:
        raise BadInput(f"--svg draws chess boards: {domain.module} is not a chess domain")
    defender = args.defender or ("perfect" if domain.perfect == "domain" else "random")
    people = not args.json and defender != "human"
    ask, say = _talk(args.json)
    try:
        with _progress_bar(enabled=people and sys.stderr.isatty(),
                           label="moves of the table") as progress:
            record = player.play(args.position, defender, fen=args.fen, seed=args.seed,
                                 move_limit=args.max_moves, ask=ask, say=say,
                                 progress=None if progress is None
                                 else (lambda moves: progress(moves, None)))
    except (GameInterrupted, GamePastLimit, GameFailed) as stop:
        if not stop.record.moves:
            raise       # before any move: told as any command's stop is
        raise _print_stopped_game(player, stop, args) from None
    _print_table_game(player, record, args, people=people)


def _print_stopped_game(player, stop, args) -> _Reported:
    """Print the moves of a game that stopped before its end; return how
    the command ends: as interrupted (130), or past a limit or on an
    error (2)."""
    interrupted = isinstance(stop, KeyboardInterrupt)
    if interrupted:
        ignore_ctrl_c()
    why = "interrupted" if interrupted else f"error: {stop}"
    print(f"advice: {why}; the game so far ({stop.record.us_moves} moves of the table):",
          file=sys.stderr)
    _print_table_game(player, stop.record, args, people=not args.json,
                      error=None if interrupted else str(stop))
    return _Reported(EXIT_INTERRUPTED if interrupted else EXIT_BAD_INPUT)


def _print_table_game(player, record, args, *, people: bool, error: str | None = None) -> None:
    """Print a game of a table: its boards and moves for people (``people``),
    or one JSON object (with ``error``, why the game stopped, where
    given), and the boards as SVG where ``--svg`` asks."""
    from engine.render import game_moves_text

    if args.svg:
        try:
            record.start.chess.write_svgs(record.move_texts, args.svg)
        except OSError as error:
            raise BadInput(f"--svg {args.svg}: cannot write the boards there: "
                           f"{error.strerror or error}") from None
    if args.json:
        _print_json({"table": player.table.table.name, "result": record.result,
                     "moves": record.moves, "us_moves": record.us_moves,
                     "optimal": record.optimal, "lost": record.lost,
                     "reasons": [{"rule": r[0], "advice": r[1]} if r else None
                                 for r in record.reasons],
                     **({"error": error} if error else {})})
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


def cmd_match(args) -> None:
    from engine.referee import match

    if args.game is None and args.kb is None:
        raise BadInput("name a game (see `advice games`) or give --kb FILE.pl")
    if args.game is not None and args.kb is not None:
        raise BadInput(f"give a game ({args.game}) or --kb {args.kb}, not both")
    ask, say = _talk(args.json)
    people = "human" in (args.first, args.second)
    with _progress_bar(enabled=not args.json and not people and sys.stderr.isatty(),
                       label="games") as progress:
        result = match(args.game or "", args.first, args.second, games=args.games,
                       seed=args.seed, kb_file=args.kb, position=args.position, ask=ask,
                       say=say if people else (lambda _: None),
                       progress=None if progress is None
                       else (lambda done: progress(done, args.games)))
    if args.json:
        _print_json(result.as_dict())
        return
    print(f"{result.game}: {args.games} game{'s' if args.games != 1 else ''}, seed {args.seed}")
    width = max(len("player"), *(len(score.player.spec) for score in result.players))
    print(f"{'player':{width}} {'wins':>5} {'draws':>5} {'losses':>6} {'unfinished':>10} "
          f"{'positions/move':>14} {'ms/move':>8}")
    for score in result.players:
        d = score.as_dict()
        print(f"{d['player']:{width}} {d['wins']:>5} {d['draws']:>5} {d['losses']:>6} "
              f"{d['unfinished']:>10} {d['positions_per_move']:>14,.0f} "
              f"{d['ms_per_move']:>8.1f}")


def _player_formats() -> str:
    return ("players: human, random, minimax:DEPTH, alphabeta:DEPTH, id:MS (iterative "
            "deepening, milliseconds a move), mcts:PLAYOUTS, expectiminimax:DEPTH (games of "
            "chance), table:FILE.adv (an advice table whose domain reads the game's "
            "positions, e.g. one of `advice tables`)")


def cmd_check(args) -> None:
    from engine.tables import load_table

    if args.kb is not None:
        return cmd_check_kb(args)
    if args.table is None:
        raise BadInput("name an advice table to check, or give --kb FILE.pl to lint a game")
    lint_options = [o for o, v in (("--positions", args.positions), ("--depth", args.depth),
                                   ("--position", args.position)) if v is not None]
    if lint_options:
        raise BadInput(f"{', '.join(lint_options)}: only for a game (--kb)")
    args.table = _table_argument(args.table)
    table = load_table(args.table)
    if args.json:
        _print_json({"table": table.table.name, "file": args.table, "ok": True,
                     "warnings": [{"message": w.message, "line": w.span.line,
                                   "column": w.span.column} for w in table.warnings]})
        return
    if table.warnings:
        print(render_diagnostics(table.warnings, table.table.source))
    print(f"{args.table}: table {table.table.name} is correct "
          f"({len(table.table.rules)} rules, {len(table.table.advices)} pieces of advice, "
          f"{len(table.warnings)} warnings)")


def cmd_check_kb(args) -> None:
    from engine.lint import lint

    if args.table is not None:
        raise BadInput(f"give a table ({args.table}) or --kb {args.kb}, not both")
    report = lint(_game_argument(args.kb), args.position,
                  positions=DEFAULT_POSITIONS if args.positions is None else args.positions,
                  depth=args.depth)
    for warning in report.warnings if not args.json else ():
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        _print_json(report.as_dict())
    else:
        print(report.text())
    if not report.ok:
        raise Failure(f"{report.file}: the game has {len(report.findings)} kind"
                      f"{'s' if len(report.findings) != 1 else ''} of fault")


def _game_argument(text: str):
    """The game ``--kb`` names: a ``.pl`` file, or else a shipped game by
    its name (``advice games``)."""
    from engine.games import find_game, student_game

    if Path(text).exists() or text.endswith(".pl") or "/" in text:
        return student_game(text)
    return find_game(text)


def cmd_compile(args) -> None:
    from engine.tables import load_table

    table = load_table(_table_argument(args.table))
    if args.json:
        _print_json({"table": table.table.name, "module": table.module,
                     "domain": table.domain, "source": table.compiled.source()})
        return
    print(table.compiled.source(), end="")


def cmd_explain(args) -> None:
    from engine.dot import dot_program, write_tree_pictures
    from engine.render import explanation_text

    for option, path in (("--dot", args.dot), ("--svg", args.svg)):
        if path:
            _output_file(path, option)
    if args.svg:
        dot_program()
    args.table = _table_argument(args.table)
    player = _player(args)
    explanation = player.explain(args.position, fen=args.fen)
    if args.dot or args.svg:
        written = write_tree_pictures(explanation, args.dot, args.svg)
        if not args.json:
            for path in written:
                print(f"wrote {path}", file=sys.stderr)
    if args.json:
        _print_json(explanation.as_dict())
        return
    print(explanation_text(explanation))


def cmd_solve(args) -> None:
    if args.kb:
        return _solve_in_domain(args)
    from engine import endgames
    from engine.render import solution_text

    if args.svg:
        _output_folder(args.svg, "--svg")
    with _progress_bar(enabled=not args.json and sys.stderr.isatty(),
                       label="tablebase") as progress:
        answer = endgames.solve(args.fen, _labelled(progress))
    if args.svg:
        _write_line_svgs(answer, args.svg)
    if args.json:
        _print_json(answer)
        return
    print(solution_text(answer))


def _labelled(progress):
    """A tablebase progress callback for the bar (which shows no label)."""
    return None if progress is None else (lambda what, done, total: progress(done, total))


def _write_line_svgs(answer: dict, folder: str) -> None:
    import chess

    from engine.chess_io import line_svgs

    try:
        line_svgs(chess.Board(answer["fen"]), [chess.Move.from_uci(u) for u in answer["uci"]],
                  folder)
    except OSError as error:
        raise BadInput(f"--svg {folder}: cannot write the boards there: "
                       f"{error.strerror or error}") from None


def _solve_in_domain(args) -> None:
    from engine.tables import load_domain

    domain = load_domain(args.kb)
    start = domain.start(fen=args.fen, over_ok=True)
    domain.prepare()
    answer = domain.solve(start)
    if args.json:
        _print_json({"fen": args.fen, "domain": domain.module, **answer})
        return
    if not answer["moves"] and answer["result"] is not None:
        print(f"the game is over: {answer['result'].replace('_', ' ')}")
    elif answer["optimal"] is None:
        print(f"no forced win: {(answer['result'] or 'unfinished').replace('_', ' ')}")
    else:
        print(f"mate in {answer['optimal']}" if domain.is_chess
              else f"success in {answer['optimal']}")
    if answer["moves"]:
        print(" ".join(answer["moves"]))


def cmd_tablebase(args) -> None:
    from engine import endgames
    from engine.render import tablebase_text
    from engine.tablebases import SignatureError, parse_signature

    try:
        material = parse_signature(args.kb)
    except SignatureError as error:
        if all(c.upper() in "KQRBNP" for c in args.kb):
            raise BadInput(str(error)) from None
        return _domain_tablebase(args)
    with _progress_bar(enabled=not args.json and sys.stderr.isatty(),
                       label="tablebase") as progress:
        figures = endgames.figures(material, rebuild=args.rebuild,
                                   progress=_labelled(progress))
    if args.json:
        _print_json(figures)
        return
    print(tablebase_text(figures))


def _domain_tablebase(args) -> None:
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

    job = VerifyJob(_table_argument(args.table), args.defender, args.positions, args.sample,
                    args.seed, args.mode, args.max_moves, args.lost)
    try:
        with _progress_bar(enabled=not args.json and sys.stderr.isatty()) as progress:
            report = verify(job, args.workers, progress, force=args.force,
                            cluster=args.cluster, address=args.address, batch=args.batch,
                            checkpoint=args.checkpoint)
    except Interrupted as stop:
        ignore_ctrl_c()
        print("advice: interrupted; the positions verified so far:", file=sys.stderr)
        if args.checkpoint:
            print(f"advice: {args.checkpoint} keeps them: give the same command again to go on",
                  file=sys.stderr)
        _print_verify(stop.report, args.json)
        raise _Reported from None
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


def cmd_grade(args) -> None:
    from engine.grading import copy_example, find_submissions, grade, load_assignment
    from engine.grading.reports import SUMMARY, class_json, summary_markdown, write_reports

    if args.example is not None:
        if args.submissions:
            raise BadInput("--example NAME copies an example into one folder: give at most "
                           "one (default: ./NAME)")
        folder = args.assignment or args.example
        copied = copy_example(args.example, folder)
        if args.json:
            _print_json({"example": args.example, "folder": folder, "assignment": str(copied)})
        else:
            print(f"copied the example assignment {args.example} into {folder}/; grade "
                  f"with: advice grade {copied} SUBMISSION...")
        return
    if args.assignment is None or not args.submissions:
        raise BadInput("give an assignment file and the submissions to grade (advice grade "
                       "ASSIGNMENT SUBMISSION...), or --example NAME to copy one out")
    if args.report:
        _output_folder(args.report, "--report")
    assignment = load_assignment(args.assignment)
    submissions = find_submissions(args.submissions, assignment)
    if args.report and any(s.student == SUMMARY for s in submissions):
        raise BadInput(f"--report: a submission is named {SUMMARY}, as the class's summary "
                       "files are: rename it")
    with _progress_bar(enabled=not args.json and sys.stderr.isatty(),
                       label="grading") as progress:
        results = grade(assignment, submissions, args.jobs, progress, cluster=args.cluster,
                        address=args.address)
    if args.report:
        write_reports(Path(args.report), results, assignment)
    if args.json:
        _print_json(class_json(results, assignment))
        return
    print(summary_markdown(results, assignment), end="")
    if args.report:
        print(f"\nreports in {args.report}/: STUDENT.md for each student, STUDENT.json for "
              f"Gradescope, {SUMMARY}.csv and {SUMMARY}.md for the class")


def _grade_help() -> str:
    from engine.grading.assignment import help_text
    from engine.grading.examples import examples

    return help_text(examples())


class _progress_bar:
    """A rich progress bar on stderr while a long job runs (a no-op when disabled)."""

    def __init__(self, enabled: bool, label: str = "verifying"):
        self.enabled, self.label = enabled, label

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress(self.label, BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), transient=True)
        self.bar.start()
        self.task = self.bar.add_task("verify", total=None)
        return lambda done, total: self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc):
        if self.enabled:
            self.bar.stop()
        return False


def shipped_tables() -> list[tuple[str, Path]]:
    """The advice tables shipped under ``kb/``: each its name (its path
    under ``kb/`` without ``.adv``, e.g. ``folder/name``) and its file."""
    root = kb_path("")
    return sorted((path.relative_to(root).with_suffix("").as_posix(), path)
                  for path in root.rglob("*.adv"))


def _table_argument(text: str) -> str:
    """The file a table argument names: a file, or else a shipped table by
    its name (``folder/name`` or ``name``, with or without ``.adv``)."""
    if Path(text).exists():
        return text
    name = text.removesuffix(".adv")
    tables = shipped_tables()
    found = [path for full, path in tables if full == name] or \
        [path for full, path in tables if full.rsplit("/", 1)[-1] == name]
    if len(found) > 1:
        raise BadInput(f"{text!r} names more than one shipped table: "
                       f"{', '.join(full for full, p in tables if p in found)}")
    if not found and Path(text).is_absolute():
        raise AdviceFileError(text, "no such file")
    if not found:
        raise AdviceFileError(text, "no such file, nor a shipped table of that name "
                              "(`advice tables` lists them)")
    return str(found[0])


def _names_a_game(text: str) -> bool:
    """Whether ``advice play TEXT`` means a game rather than a table: a
    game's name, or what is neither a file nor a shipped table."""
    if text.endswith(".adv") or Path(text).is_file():
        return False
    from engine.games import shipped_games

    if any(game.name == text for game in shipped_games()):
        return True
    name = text.removesuffix(".adv")
    return not any(name in (full, full.rsplit("/", 1)[-1]) for full, _ in shipped_tables())


def cmd_tables(args) -> None:
    from advice import parse

    tables = [{"name": name, "title": parse(path.read_text(encoding="utf-8"), str(path)).title,
               "file": str(path)} for name, path in shipped_tables()]
    if args.json:
        _print_json({"tables": tables})
        return
    width = max(len(t["name"]) for t in tables)
    for t in tables:
        print(f"{t['name']:{width}}  {t['title'] or ''}".rstrip())


def cmd_cache(args) -> None:
    from engine import cache

    if args.action == "clear":
        removed = cache.clear()
        report = {"folder": str(removed.folder), "removed_files": removed.files,
                  "removed_bytes": removed.size}
        text = (f"cleared the cache {removed.folder}: removed {removed.files:,} files "
                f"({_megabytes(removed.size)})")
    else:
        held = cache.usage()
        report = {"folder": str(held.folder), "files": held.files, "bytes": held.size}
        text = f"the cache: {held.folder} ({held.files:,} files, {_megabytes(held.size)})"
    if args.json:
        _print_json(report)
    else:
        print(text)


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def cmd_demo(args) -> None:
    from engine.tables import shipped_demo

    table, description = shipped_demo()
    if not args.json:
        print(description + "\n")
    cmd_play_table(argparse.Namespace(
        table=str(table), fen=None, position=None, defender="perfect", seed=0,
        max_moves=100, svg=None, mode="compiled", json=args.json))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``advice`` command."""
    parser = _Parser(
        prog="advice",
        description="Knowledge-based game playing in Prolog: advice tables, "
        "minimax and alpha-beta.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, func: Callable, help: str, **more) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help,
                           formatter_class=_HelpFormatter, **more)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        _limit_options(p)
        p.add_argument("--trusted", action="store_true",
                       help="load your own Prolog files unchecked (by default a user's "
                       "file is refused when it may run shell commands, write files, "
                       "halt, or change the engine)")
        p.set_defaults(func=func)
        return p

    add("games", cmd_games, "list the games")

    p = add("search", cmd_search, "search a position with minimax, alpha-beta and their "
            "refinements, expectiminimax or MCTS", epilog_from=_position_formats)
    p.add_argument("game", nargs="?", help="a game from `advice games`")
    p.add_argument("--kb", metavar="FILE.pl",
                   help="a game module of your own (moves/2, staticval/2, "
                   "max_to_move/1, min_to_move/1)")
    _search_options(p)
    p.add_argument("--seed", type=int, help="for --algo mcts: the seed (default 0)")

    p = add("play", cmd_play, "play a game against the machine, or an advice table "
            "against a defender")
    p.add_argument("game", nargs="?", help="a game from `advice games`, or a table: FILE.adv "
                   "or a shipped table's name (`advice tables`; a game's name means the game)")
    p.add_argument("--kb", metavar="FILE.pl", help="a game module of your own instead")
    p.add_argument("--first", choices=["human", "machine"], default="human",
                   help="games: who moves first")
    _search_options(p)
    p.add_argument("--fen", help="tables of a chess domain: the position to start from")
    p.add_argument("--defender", choices=["perfect", "random", "human"],
                   help="tables: who answers the table's moves (default: perfect where "
                   "the domain has its own perfect defender, else random)")
    p.add_argument("--seed", type=int, default=0, help="the random defender's seed, and "
                   "the seed of --algo mcts and of the dice")
    p.add_argument("--max-moves", type=int, default=100,
                   help="tables: stop after this many moves of the table")
    p.add_argument("--svg", metavar="DIR", help="tables: write one board picture per move")
    _mode_option(p)

    p = add("match", cmd_match, "play two players against each other, N games, sides "
            "alternating", epilog_from=_player_formats)
    p.add_argument("game", nargs="?", help="a game from `advice games`")
    p.add_argument("--kb", metavar="FILE.pl", help="a game module of your own instead")
    p.add_argument("--first", required=True, metavar="PLAYER",
                   help="the player who moves first in games 1, 3, 5, ...")
    p.add_argument("--second", required=True, metavar="PLAYER", help="the other player")
    p.add_argument("--games", type=int, default=2, help="how many games (default 2)")
    p.add_argument("--seed", type=int, default=0,
                   help="seeds random players, MCTS and dice (game i: SEED + i)")
    p.add_argument("--position", help="the position every game starts from (default: "
                   "the start)")

    p = add("check", cmd_check, "check an advice table against its knowledge base, or "
            "lint a game of your own (--kb)")
    p.add_argument("table", nargs="?", help="the table: FILE.adv, or a shipped table's name "
                   "as `advice tables` lists it (with or without its folder and .adv)")
    p.add_argument("--kb", metavar="FILE.pl",
                   help="lint this game instead (moves/2, staticval/2, max_to_move/1, "
                   "min_to_move/1; or a shipped game's name): on the positions reachable "
                   "from the start, moves/2 deterministic, without duplicates, giving "
                   "positions; staticval/2 total and numeric; exactly one side to move")
    p.add_argument("--positions", type=int, metavar="N",
                   help=f"--kb: examine at most N positions, breadth-first (default: "
                   f"{DEFAULT_POSITIONS:,})")
    p.add_argument("--depth", type=int, metavar="N",
                   help="--kb: examine no position more than N moves from the start "
                   "(default: no limit)")
    p.add_argument("--position", help="--kb: the position to start from (default: every "
                   "solution of initial/1)")

    p = add("compile", cmd_compile, "print the Prolog a table compiles to")
    _table_option(p)

    p = add("explain", cmd_explain, "show which rule and advice a table chooses, and why")
    _table_option(p)
    p.add_argument("--position", help="the position (default: the domain's start)")
    p.add_argument("--fen", help="the position, for a chess domain")
    p.add_argument("--dot", metavar="FILE", help="write the forcing tree as Graphviz DOT")
    p.add_argument("--svg", metavar="FILE", help="draw the forcing tree as SVG (needs "
                   "Graphviz's dot program)")
    _mode_option(p)

    p = add("verify", cmd_verify, "play a table from every start position and report "
            "how, and how well, it wins")
    _table_option(p)
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
                   help="worker processes, at most the number of cores")
    p.add_argument("--force", action="store_true", help="allow more workers than cores")
    p.add_argument("--batch", type=int, metavar="N",
                   help="start positions in one slice (default: 250): a worker's Prolog job, "
                   "the unit --checkpoint keeps, one Ray task with --cluster; against "
                   "--defender random each slice seeds the defender, so the games depend on it")
    _cluster_options(p)
    p.add_argument("--max-moves", type=int, default=100,
                   help="a game longer than this many moves of the table fails")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="keep each finished slice in FILE, and go on from the slices it "
                   "holds: a long run that stops resumes with the same command")
    p.add_argument("--lost", action="store_true",
                   help="with --defender all, where the domain knows optimal play: follow "
                   "the worst line of every start and sum, for each rule and advice, the "
                   "moves it lost against optimal play (slower: each line is played again)")
    _mode_option(p)

    p = add("grade", cmd_grade, "grade students' submissions against an assignment file: a "
            "score and a report for each, a summary for the class", epilog_from=_grade_help)
    p.add_argument("assignment", nargs="?", metavar="ASSIGNMENT",
                   help="the assignment file (TOML, below); with --example, the folder to "
                   "copy the example into (default: ./NAME)")
    p.add_argument("submissions", nargs="*", metavar="SUBMISSION",
                   help="a student's folder holding the assignment's files, or for an "
                   "assignment of one file, a student's file (named after the folder or "
                   "the file)")
    p.add_argument("--jobs", type=int, default=1,
                   help="submissions graded at once, each in a process of its own (at most "
                   "the number of cores, unless on a cluster)")
    _cluster_options(p)
    p.add_argument("--report", metavar="DIR",
                   help="write STUDENT.json (Gradescope's results.json), STUDENT.md, "
                   "summary.csv and summary.md into DIR (made when missing)")
    p.add_argument("--example", metavar="NAME",
                   help="copy the example assignment NAME (listed below) into a folder: the "
                   "assignment file, its reference solution and tests, a README")

    p = add("solve", cmd_solve, "the value and optimal line of any chess endgame of at most "
            "four pieces, from its tablebase (built once)")
    p.add_argument("--fen", required=True, help="the position")
    p.add_argument("--kb", help="solve in a domain of one's own instead (a knowledge base "
                   "as a table's `uses` names it), with its own tablebase or search")
    p.add_argument("--svg", metavar="DIR", help="write one board picture per position of "
                   "the line")

    p = add("tablebase", cmd_tablebase, "build (once) and describe the tablebase of an "
            "endgame of at most four pieces (e.g. KQK, KQKR, KPKP), or of a domain")
    p.add_argument("kb", metavar="SIGNATURE|KB", help="a material signature (each side's "
                   "king first: KQK, KBNK, KQKR) or a knowledge base as a table's `uses` "
                   "names it")
    p.add_argument("--rebuild", action="store_true", help="compute it again")

    add("demo", cmd_demo, "the demonstration `make demo` runs")

    add("tables", cmd_tables, "list the advice tables shipped with advice (each may be "
        "named by its name where a table FILE.adv is asked for)")

    p = add("cache", cmd_cache, "show where the cache of compiled tables and tablebases "
            "is and its size, or clear it")
    p.add_argument("action", nargs="?", choices=["clear"],
                   help="clear: delete what the cache holds (it is rebuilt when needed)")
    return parser


class _Parser(argparse.ArgumentParser):
    """An argument parser whose epilog may be computed when its help is shown
    (``epilog_from``), so that the commands themselves never pay for it."""

    def __init__(self, *args, epilog_from: Callable[[], str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.epilog_from = epilog_from

    def format_help(self) -> str:
        if self.epilog_from is not None:
            self.epilog = self.epilog_from()
        return super().format_help()


class _HelpFormatter(argparse.HelpFormatter):
    """Says each option's default in its help (where it has one to say), and
    keeps the indented lines of a description or epilog as they are."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if any(action.default is nothing for nothing in (None, False, True, argparse.SUPPRESS)) \
                or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)".lstrip()

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        fill = super()._fill_text
        return "\n".join(line if line.startswith(" ") else fill(line, width, indent)
                         for line in text.splitlines())


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("advice")
    except PackageNotFoundError:
        return "(not installed as a package)"


def _position_formats() -> str:
    """How each shipped game reads a position (the epilog of ``advice search
    --help``), in the games' own words; the general rule alone when the
    games cannot be asked."""
    general = ("--position TEXT gives a position as its game reads it; a game of your own "
               "(--kb) reads a ground Prolog term, e.g. c(5,max). The shipped games:")
    try:
        from engine.games import shipped_games

        hints = [(game.name, _position_hint(game.name)) for game in shipped_games()]
    except EngineError:
        return general.rsplit(". ", 1)[0] + "."
    return "\n".join([general] + [f"  {name:12} {hint}" for name, hint in hints])


def _position_hint(game: str) -> str:
    """What a game says a person should type for a position: the advice of
    its refusal of a text that is no position (``give the number of sticks,
    e.g. 21``)."""
    from engine.search import search

    try:
        search(game, "?", depth=1)
    except BadInput as refusal:
        return str(refusal).split("': ", 1)[-1]
    return "a position as the game writes it"


def _table_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("table", help="the table: FILE.adv, or a shipped table's name as "
                   "`advice tables` lists it (with or without its folder and .adv)")


def _output_file(path: str, option: str) -> None:
    """Refuse, before any work, a file ``option`` cannot write."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise BadInput(f"{option} {path}: is a folder; give the name of a file to write")
    if not folder.exists():
        raise BadInput(f"{option} {path}: the folder {folder} does not exist; create it "
                       f"first (mkdir -p {folder})")
    if not folder.is_dir():
        raise BadInput(f"{option} {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or \
            (target.exists() and not os.access(target, os.W_OK)):
        raise BadInput(f"{option} {path}: cannot write there (permission denied)")


def _output_folder(path: str, option: str) -> None:
    """Refuse, before any work, a folder ``option`` cannot write files in
    (a missing one is created when the files are written)."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise BadInput(f"{option} {path}: is a file; give a folder for the pictures "
                       "(it is created when missing)")
    existing = next(p for p in (target, *target.parents) if p.exists())
    if not existing.is_dir():
        raise BadInput(f"{option} {path}: cannot create the folder: {existing} is a file")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BadInput(f"{option} {path}: cannot write in {existing} (permission denied)")


def _mode_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=["compiled", "interpreted"], default="compiled",
                   help="compiled: run the table's compiled clauses; interpreted: walk the "
                   "table as data, as the book does")


def _search_options(p: argparse.ArgumentParser) -> None:
    from engine.search import ALGORITHMS

    p.add_argument("--algo", choices=ALGORITHMS, default="alphabeta",
                   help="the search: ordered is alpha-beta with move ordering, tt adds a "
                   "transposition table, quiescence searches noisy moves past --depth, "
                   "id is iterative deepening within --budget, mcts is Monte Carlo tree "
                   "search with --budget playouts, expectiminimax is for games of chance")
    p.add_argument("--budget", help="for --algo id: positions (e.g. 20000) or milliseconds "
                   "(e.g. 500ms), default 100000 positions; for --algo mcts: playouts, "
                   "default 1000")
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


def _cluster_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cluster", choices=["ray"],
                   help="run the workers on Ray (pip install 'advice[cluster]'): on the "
                   "cluster at --address or RAY_ADDRESS, else on a Ray started for the run")
    p.add_argument("--address", metavar="HOST:PORT",
                   help="the Ray cluster to join (default: RAY_ADDRESS)")


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
        if args.trusted:
            print("advice: --trusted: your Prolog files are loaded unchecked and outside "
                  "the wall; whatever they say runs", file=sys.stderr)
        trust_user_files(args.trusted)
        args.func(args)
        sys.stdout.flush()  # a reader that went away is found here, not at exit
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except AdviceError as error:
        return _bad_input(_advice_error_text(error), args.json)
    except EngineError as error:
        return _bad_input(str(error), args.json)
    except Failure as failure:
        print(f"advice: {failure}", file=sys.stderr)
        return 1
    except _Reported as reported:
        return reported.code
    except KeyboardInterrupt:
        ignore_ctrl_c()
        print("advice: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as error:  # a file or folder the command needed: one line, no traceback
        where = f"{error.filename}: " if error.filename else ""
        return _bad_input(f"{where}{error.strerror or error}", args.json)
    return 0


def run() -> None:
    """The ``advice`` program (its console script, and ``python -m
    engine.cli``): :func:`main`, then exit with its code. After a Ctrl-C
    it ends at once with status 130, its output flushed, without
    Python's own exit (its finalisers, and what it does with SIGINT).

    A standard stream that was closed when the command started gets
    ``/dev/null`` (see :func:`_closed_streams`); a closed standard output
    ends the command at once with status 2, for nothing it printed could
    be read."""
    if "output" in _closed_streams():
        print("advice: error: standard output is closed: what the command prints could not "
              "be read (send it to a file, or to /dev/null)", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    code = main()
    # (In the test suite, a verify that had printed its report after a
    # Ctrl-C once ended by SIGINT instead of with 130; the cause was not
    # found, and nothing is left here for one to act on.)
    if code == EXIT_INTERRUPTED:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError):
                stream.flush()
        end_session()  # os._exit runs no atexit: the Prolog process and its folder
        os._exit(code)
    sys.exit(code)


class _Reported(Exception):
    """A command was stopped (interrupted, unless ``code`` says otherwise)
    and has printed what it had done."""

    def __init__(self, code: int = EXIT_INTERRUPTED):
        super().__init__(code)
        self.code = code


def _bad_input(text: str, as_json: bool) -> int:
    """Report an error (``advice: error: TEXT`` on stderr; under ``--json``
    also ``{"error": TEXT}`` on stdout) and give the exit code of bad input."""
    print(f"advice: error: {text}", file=sys.stderr)
    if as_json:
        _print_json({"error": text})
    return EXIT_BAD_INPUT


def _advice_error_text(error: AdviceError) -> str:
    """A problem with a table, after ``advice: error:``: one line naming the
    file, then the table's diagnostics (each ``file:line:column: error: ...``
    with its source line and caret)."""
    if isinstance(error, AdviceFileError):
        return f"{error.where}: {error.reason}"
    if not error.diagnostics:
        return error.message
    files = [d.span.file for d in error.diagnostics if d.span is not None]
    errors = sum(d.is_error for d in error.diagnostics)
    where = f"{files[0]}: " if files else ""
    return f"{where}{errors} error{'s' if errors != 1 else ''} in the advice table\n{error}"


class _ClosedInput(io.TextIOBase):
    """Standard input when it was closed: reading it is bad input."""

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        raise BadInput("standard input is closed: a person's moves cannot be read (give them "
                       "on standard input, or </dev/null to end the game at the first move)")

    read = readline


def _closed_streams() -> set[str]:
    """Which standard streams (``input``, ``output``, ``error``) were closed
    when Python started (it sets them to None); each gets ``/dev/null`` on
    its descriptor, so that no file or pipe the command opens takes that
    number (and its output), and a Python stream: closed input reads as
    :class:`_ClosedInput`, a closed error stream discards what it is told."""
    closed = set()
    for fd, name, word in ((0, "stdin", "input"), (1, "stdout", "output"), (2, "stderr", "error")):
        if getattr(sys, name) is not None:
            continue
        closed.add(word)
        try:
            os.fstat(fd)
        except OSError:  # still free: /dev/null takes it
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        setattr(sys, name, _ClosedInput() if fd == 0 else open(os.devnull, "w"))
    return closed


def _discard_stdout() -> None:
    """Send what stdout still holds nowhere: its reader went away
    (``advice ... | head -1``), and exiting must not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


if __name__ == "__main__":
    run()
