"""Where each position of an endgame lives in its table.

A table holds one byte per index and side to move.  The index of a
position is ``slot(white king) * 64**(n-1) + sq1 * 64**(n-2) + ...`` over
the pieces in :attr:`Material.pieces` order, with the board turned so that
the white king stands in its slot region (the a1-d1-d4 triangle without
pawns, files a-d with them).  Every position has at least one index;
positions with the white king on the long diagonal, or with two pieces
alike, have several, and all of them hold the same value.  The builder
solves one index per class of symmetric positions, :meth:`canonical`.

The byte of a position, for the side to move: 0 a draw, 255 no legal
position, otherwise ``plies + 1`` where ``plies`` is the distance to mate
in half-moves: odd when the side to move mates, even when it is mated.
"""
from __future__ import annotations

import numpy as np

from engine.tablebases import board
from engine.tablebases.material import Material

DRAW = 0
ILLEGAL = 255


def other(colour: str) -> str:
    return "b" if colour == "w" else "w"


class Layout:
    """The index of one material's table."""

    def __init__(self, material: Material):
        self.material = material
        self.pieces = material.pieces
        self.n = len(self.pieces)
        self.pawns = material.has_pawns
        self.slot = board.SLOT_PAWNS if self.pawns else board.SLOT_PAWNLESS
        self.slot_square = board.SLOT_SQUARE_PAWNS if self.pawns else board.SLOT_SQUARE_PAWNLESS
        self.orientation = board.ORIENT_PAWNS if self.pawns else board.ORIENT_PAWNLESS
        self.symmetries = board.SYMMETRIES[:2] if self.pawns else board.SYMMETRIES
        self.radix = 64 ** (self.n - 1)
        #: What a step of one square adds to the index, for each piece but
        #: the white king (whose square gives the slot).
        self.weight = [0] + [64 ** (self.n - 1 - i) for i in range(1, self.n)]
        self.size = len(self.slot_square) * self.radix
        self.king = {"w": 0, "b": self.pieces.index(("b", "K"))}
        self.alike = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)
                      if self.pieces[i] == self.pieces[j]]

    def decode(self, index: np.ndarray) -> np.ndarray:
        """The squares (n, len(index)) of the positions at ``index``."""
        index = np.asarray(index, np.int64)
        squares = np.empty((self.n, len(index)), np.int64)
        squares[0] = self.slot_square[index // self.radix]
        for i in range(1, self.n):
            squares[i] = (index // 64 ** (self.n - 1 - i)) % 64
        return squares

    def encode(self, squares: np.ndarray) -> np.ndarray:
        """The index of squares whose white king is in its slot region."""
        index = self.slot[squares[0]] * self.radix
        for i in range(1, self.n):
            index = index + squares[i] * 64 ** (self.n - 1 - i)
        return index

    def oriented(self, squares: np.ndarray) -> np.ndarray:
        """The squares turned so that the white king is in its slot region."""
        return self.symmetries[self.orientation[squares[0]], squares]

    def index(self, squares: np.ndarray) -> np.ndarray:
        """An index of the positions (any of them: all hold the same value)."""
        return self.encode(self.oriented(squares))

    def canonical(self, squares: np.ndarray) -> np.ndarray:
        """The one index the builder solves for each class of symmetric
        positions: the least of the indexes of its images."""
        turned = self.oriented(squares)
        variants = [turned]
        if not self.pawns:
            mirrored = board.TRANSPOSE[turned]
            variants.append(np.where(board.ON_DIAGONAL[turned[0]], mirrored, turned))
        for i, j in self.alike:
            for v in list(variants):
                swapped = v.copy()
                swapped[[i, j]] = v[[j, i]]
                variants.append(swapped)
        best = self.encode(variants[0])
        for v in variants[1:]:
            best = np.minimum(best, self.encode(v))
        return best

    def orbit(self, squares: np.ndarray) -> np.ndarray:
        """How many distinct positions (pieces told apart) each position's
        symmetries and swaps of alike pieces make."""
        group = len(self.symmetries) * 2 ** len(self.alike)
        fixed = np.zeros(squares.shape[1], np.int64)
        for g in self.symmetries:
            images = [g[squares]]
            for i, j in self.alike:
                for v in list(images):
                    swapped = v.copy()
                    swapped[[i, j]] = v[[j, i]]
                    images.append(swapped)
            for image in images:
                fixed += np.all(image == squares, axis=0)
        return group // fixed
