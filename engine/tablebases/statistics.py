"""The figures of a built table: positions, results, depth to mate.

Counts are given twice: over every position on the board (``positions``)
and over classes of symmetric positions (``classes``, one row per class
as in the UCI data set krkopt.data).  Depths are in moves of the side
that mates.
"""
from __future__ import annotations

import chess
import numpy as np

from engine.tablebases.layout import DRAW
from engine.tablebases.retrograde import SIDES, Solved

_SIDE_NAMES = {"w": "white_to_move", "b": "black_to_move"}


def statistics(solved: Solved) -> dict:
    """Material, counts per side to move, and the longest win with a FEN."""
    out = {"material": solved.layout.material.name}
    longest = (0, None, None)
    for row, side in enumerate(SIDES):
        index, weight = solved.classes[side]
        values = solved.values[row, index].astype(np.int64)
        out[_SIDE_NAMES[side]] = {"positions": _counts(values, weight),
                                  "classes": _counts(values, np.ones_like(weight))}
        wins = (values != DRAW) & (values % 2 == 0)        # plies odd: byte even
        if wins.any():
            deepest = int(values[wins].max())
            moves = deepest // 2
            if moves > longest[0]:
                at = index[wins & (values == deepest)]
                longest = (moves, side, at)
    moves, side, at = longest
    out["max_dtm"] = moves
    if side is not None:
        out["max_dtm_side_to_move"] = _SIDE_NAMES[side]
        out["max_dtm_classes"] = int(len(at))
        out["max_dtm_fen"] = fen(solved, side, int(at.min()))
    return out


def _counts(values: np.ndarray, weight: np.ndarray) -> dict:
    decided = values != DRAW
    plies = values - 1
    wins = decided & (plies % 2 == 1)
    losses = decided & (plies % 2 == 0)
    return {"total": int(weight.sum()), "wins": int(weight[wins].sum()),
            "draws": int(weight[~decided].sum()), "losses": int(weight[losses].sum()),
            "wins_in": _histogram((plies[wins] + 1) // 2, weight[wins]),
            "losses_in": _histogram(plies[losses] // 2, weight[losses])}


def _histogram(moves: np.ndarray, weight: np.ndarray) -> dict:
    sums = np.bincount(moves, weights=weight) if len(moves) else np.zeros(0)
    return {str(m): int(n) for m, n in enumerate(sums) if n}


def fen(solved: Solved, side: str, index: int) -> str:
    """The FEN of the position at ``index`` with ``side`` to move."""
    squares = solved.layout.decode(np.array([index]))[:, 0]
    board = chess.Board(None)
    for (colour, kind), square in zip(solved.layout.pieces, squares):
        board.set_piece_at(int(square), chess.Piece(chess.Piece.from_symbol(kind).piece_type,
                                                    colour == "w"))
    board.turn = side == "w"
    return board.fen()
