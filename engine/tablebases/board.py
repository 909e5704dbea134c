"""The chessboard as numpy tables, for the retrograde builder.

Squares are numbered as python-chess numbers them (a1 = 0, h1 = 7,
a8 = 56).  Everything here is computed once at import: the board's
symmetries, where the white king may stand in a stored table, the
squares each piece attacks, the squares between two squares, and the
rays the sliding pieces move along.
"""
from __future__ import annotations

import numpy as np

SQUARES = np.arange(64)
FILE = SQUARES & 7
RANK = SQUARES >> 3


def _transform(flip_file: bool, flip_rank: bool, transpose: bool) -> np.ndarray:
    f, r = (RANK, FILE) if transpose else (FILE, RANK)
    f = 7 - f if flip_file else f
    r = 7 - r if flip_rank else r
    return (r * 8 + f).astype(np.int64)


#: The 8 symmetries of the board (rotations and reflections), as square
#: maps; the first two (identity, left-right mirror) are those that keep
#: pawns moving the way they move.
SYMMETRIES = np.array([_transform(bool(g & 1), bool(g & 2), bool(g & 4)) for g in range(8)])
TRANSPOSE = SYMMETRIES[4]              # the mirror in the a1-h8 diagonal
MIRROR_RANKS = SQUARES ^ 56            # colour flip: a1 <-> a8

# Where the white king stands in a stored table: the a1-d1-d4 triangle
# (10 squares) without pawns, files a-d (32 squares) with them.
_TRIANGLE = (FILE <= 3) & (RANK <= FILE)
SLOT_PAWNLESS = np.where(_TRIANGLE, np.cumsum(_TRIANGLE) - 1, -1)
SLOT_PAWNS = np.where(FILE <= 3, RANK * 4 + FILE, -1)
SLOT_SQUARE_PAWNLESS = SQUARES[_TRIANGLE]
SLOT_SQUARE_PAWNS = SQUARES[FILE <= 3]
#: The symmetry that brings a king on each square into the triangle (the
#: first that does) and into files a-d.
ORIENT_PAWNLESS = np.array([next(g for g in range(8) if _TRIANGLE[SYMMETRIES[g][s]])
                            for s in SQUARES])
ORIENT_PAWNS = np.where(FILE <= 3, 0, 1)
ON_DIAGONAL = FILE == RANK

_KING_STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]
_KNIGHT_STEPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ORTHOGONAL = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DIRECTIONS = {"Q": ORTHOGONAL + DIAGONAL, "R": ORTHOGONAL, "B": DIAGONAL}


def _step(df: int, dr: int) -> np.ndarray:
    f, r = FILE + df, RANK + dr
    return np.where((f >= 0) & (f <= 7) & (r >= 0) & (r <= 7), r * 8 + f, -1)


#: NEXT[(df, dr)][sq]: the square one step away, -1 off the board.
NEXT = {d: _step(*d) for d in _KING_STEPS + _KNIGHT_STEPS}
#: The targets of a king and a knight from each square, -1 padded (64, 8).
STEPS = {"K": np.stack([NEXT[d] for d in _KING_STEPS], axis=1),
         "N": np.stack([NEXT[d] for d in _KNIGHT_STEPS], axis=1)}


def _attack_tables() -> tuple[dict, np.ndarray]:
    attacks = {k: np.zeros((64, 64), bool) for k in "KQRBN"}
    between = np.zeros((64, 64), np.uint64)
    for kind in "KN":
        for s in SQUARES:
            for t in STEPS[kind][s]:
                if t >= 0:
                    attacks[kind][s, t] = True
    for (df, dr) in ORTHOGONAL + DIAGONAL:
        sliders = [k for k, dirs in DIRECTIONS.items() if (df, dr) in dirs]
        for s in SQUARES:
            passed, t = 0, NEXT[(df, dr)][s]
            while t >= 0:
                for kind in sliders:
                    attacks[kind][s, t] = True
                between[s, t] = passed
                passed |= 1 << int(t)
                t = NEXT[(df, dr)][t]
    return attacks, between


#: ATTACKS[kind][from, to]: a piece of that kind on an empty board attacks.
ATTACKS, BETWEEN = _attack_tables()
#: BETWEEN[from, to]: the squares strictly between two squares on a line,
#: as a bitboard (0 when they are not on a line or are neighbours).
PAWN_ATTACKS = {"w": np.zeros((64, 64), bool), "b": np.zeros((64, 64), bool)}
for _colour, _dr in (("w", 1), ("b", -1)):
    for _df in (-1, 1):
        _t = NEXT[(_df, _dr)]
        PAWN_ATTACKS[_colour][SQUARES[_t >= 0], _t[_t >= 0]] = True
#: The direction a pawn of each colour moves in, in squares.
PAWN_STEP = {"w": 8, "b": -8}
#: The rank (0-7) a pawn of each colour starts on, and promotes from.
PAWN_HOME = {"w": 1, "b": 6}
PAWN_LAST = {"w": 6, "b": 1}


def bit(squares: np.ndarray) -> np.ndarray:
    """The bitboard of each square."""
    return np.left_shift(np.uint64(1), squares.astype(np.uint64))


def attacks(kind: str, colour: str, source: np.ndarray, target: np.ndarray,
            occupied: np.ndarray) -> np.ndarray:
    """Whether a piece of ``kind`` and ``colour`` on ``source`` attacks
    ``target`` on boards with the ``occupied`` bitboards (elementwise)."""
    if kind == "P":
        return PAWN_ATTACKS[colour][source, target]
    hit = ATTACKS[kind][source, target]
    if kind in "KN":
        return hit
    return hit & ((BETWEEN[source, target] & occupied) == 0)
