"""Any chess endgame of at most four pieces: its tablebase's figures and
the optimal line from a FEN.

The tables are built by :mod:`engine.tablebases` (numpy) and read by
SWI-Prolog (``kb/chess/tablebase.pl``), which plays the line in one job
over the move generator ``kb/chess/chess.pl``; python-chess reads the
FEN and writes the moves in SAN.
"""
from __future__ import annotations

import json
from typing import Callable

import chess

from engine.chess_io import board_term, checked_board
from engine.prolog import BadInput, atom, session, string
from engine.tablebases import Material, Store
from engine.tablebases.material import MAX_PIECES
from engine.tablebases.probe import material_of

#: progress(what, done, total)
Progress = Callable[[str, int, int], None]


def _store(progress: Progress | None) -> Store:
    if progress is None:
        return Store()
    return Store(lambda material, done, total: progress(f"building {material.name}",
                                                        done, total))


def figures(material: Material, *, rebuild: bool = False,
            progress: Progress | None = None) -> dict:
    """The figures of ``material``'s table (built once, then cached):
    positions by side to move, wins, draws and losses, the longest win
    with a FEN, histograms, and the seconds it took to build or load."""
    table = _store(progress).ensure(material, rebuild=rebuild)
    return {**table.figures, "source": table.source, "seconds": round(table.seconds, 3)}


def endgame_board(fen: str) -> chess.Board:
    """The board of a FEN of at most four pieces, or :class:`BadInput`
    saying in one line what is wrong with it."""
    board = checked_board(fen)
    if len(board.piece_map()) > MAX_PIECES:
        raise BadInput(f"FEN {fen!r} has {len(board.piece_map())} pieces; endgames here "
                       f"have at most {MAX_PIECES}, kings included")
    return board


def board_material(board: chess.Board) -> Material:
    """The material on ``board``, in its own colours."""
    return material_of([("w" if p.color == chess.WHITE else "b", p.symbol().upper())
                        for p in board.piece_map().values()])


def tables_for(material: Material, progress: Progress | None = None) -> list[tuple[str, str]]:
    """(name, file) of the table of ``material`` and of every smaller
    table its captures and promotions reach, built if need be."""
    store = _store(progress)
    seen: dict[str, str] = {}
    todo = [material.canonical()] if material.white or material.black else []
    while todo:
        m = todo.pop()
        if m.name not in seen:
            seen[m.name] = str(store.ensure(m).path)
            todo.extend(m.successors())
    return sorted(seen.items())


def tables_term(material: Material, progress: Progress | None = None) -> str:
    """The Prolog list ``['KQKR'-File, ...]`` of :func:`tables_for`, as
    ``chess_tablebase:load_tables/1`` takes it."""
    return "[" + ", ".join(f"{atom(name)}-{string(path)}"
                           for name, path in tables_for(material, progress)) + "]"


def solve(fen: str, progress: Progress | None = None) -> dict:
    """The value of a FEN's position for the side to move and an optimal
    line in SAN until mate, stalemate, or a draw the tablebase makes
    certain."""
    board = endgame_board(fen)
    material = board_material(board)
    tables = tables_term(material, progress)
    reply = session().ask(
        f"{board_goal(board, 'Pos')}, chess_tablebase:solve_json({tables}, Pos, Out)",
        what=f"solving {fen}", seconds=600)
    data = json.loads(reply)
    line, san = board.copy(), []
    for uci in data["moves"]:
        move = chess.Move.from_uci(uci)
        san.append(line.san(move))
        line.push(move)
    side = "White" if board.turn == chess.WHITE else "Black"
    return {"fen": board.fen(), "material": material.name,
            "canonical_material": material.canonical().name, "side_to_move": side,
            "value": data["value"], "dtm": data["dtm"], "plies": data["plies"],
            "moves": san, "uci": data["moves"], "ends": data["ends"],
            "final_fen": line.fen()}


def board_goal(board: chess.Board, var: str) -> str:
    """A goal that binds ``var`` to the chess.pl position of ``board``."""
    session().use_module("chess/tablebase.pl")
    turn, pieces, ep = board_term(board)
    return f"chess:chess_position({turn}, {pieces}, {ep}, {var})"
