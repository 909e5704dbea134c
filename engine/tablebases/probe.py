"""Values of positions of any material, read from built tables.

The builder asks here for the positions a capture or a promotion leads
to, which belong to a smaller endgame's table.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from engine.tablebases import board
from engine.tablebases.layout import DRAW, ILLEGAL, Layout, other
from engine.tablebases.material import KINDS, Material

Pieces = list[tuple[str, str]]


def material_of(pieces: Pieces) -> Material:
    """The material of pieces given as (colour, kind)."""
    def side(colour):
        return "".join(sorted((k for c, k in pieces if c == colour and k != "K"),
                              key=KINDS.index))
    return Material(side("w"), side("b"))


class Tables:
    """Looks positions up in tables that ``load`` gives (a (2, size) uint8
    array per canonical material)."""

    def __init__(self, load: Callable[[Material], np.ndarray]):
        self._load = load
        self._layouts: dict[Material, Layout] = {}

    def values(self, pieces: Pieces, squares: np.ndarray, to_move: str) -> np.ndarray:
        """The bytes (see :mod:`engine.tablebases.layout`) of the positions
        with ``pieces`` on ``squares`` (n, L) and ``to_move`` to move."""
        material = material_of(pieces)
        if not material.white and not material.black:
            return _bare_kings(squares)
        if not material.is_canonical:
            pieces = [(other(c), k) for c, k in pieces]
            squares = board.MIRROR_RANKS[squares]
            to_move = other(to_move)
            material = material.flipped()
        layout = self._layouts.setdefault(material, Layout(material))
        order, used = [], set()
        for piece in layout.pieces:
            j = next(j for j, p in enumerate(pieces) if p == piece and j not in used)
            used.add(j)
            order.append(j)
        index = layout.index(squares[order])
        return self._load(material)[0 if to_move == "w" else 1][index]


def _bare_kings(squares: np.ndarray) -> np.ndarray:
    near = board.ATTACKS["K"][squares[0], squares[1]] | (squares[0] == squares[1])
    return np.where(near, ILLEGAL, DRAW).astype(np.uint8)
