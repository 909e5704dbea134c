"""Material signatures of chess endgames with at most four pieces.

A signature names the pieces of both sides, each side's king first:
``KQKR`` is King and Queen against King and Rook.  The side written first
is White in the stored table; :meth:`Material.canonical` puts the
stronger side first, so ``KRKQ`` and ``KQKR`` share one table (a position
with Black the stronger is looked up colour-flipped).
"""
from __future__ import annotations

from dataclasses import dataclass

#: The kinds after the king, strongest first; a side's pieces are kept in
#: this order.
KINDS = "QRBNP"
_VALUE = {"Q": 9, "R": 5, "B": 3, "N": 3, "P": 1}
MAX_PIECES = 4


class SignatureError(ValueError):
    """A text that is not the signature of a chess endgame we can build."""


@dataclass(frozen=True)
class Material:
    """The pieces besides the kings: ``white`` and ``black`` are strings of
    kinds in :data:`KINDS` order (``Material("Q", "R")`` is KQKR)."""

    white: str
    black: str

    @property
    def name(self) -> str:
        return f"K{self.white}K{self.black}"

    @property
    def pieces(self) -> list[tuple[str, str]]:
        """(colour, kind) of every piece, in the order of the table's index:
        White's king, White's other pieces, Black's king, Black's others."""
        return ([("w", "K")] + [("w", k) for k in self.white]
                + [("b", "K")] + [("b", k) for k in self.black])

    @property
    def has_pawns(self) -> bool:
        return "P" in self.white + self.black

    @property
    def is_canonical(self) -> bool:
        return _strength(self.white) >= _strength(self.black)

    def flipped(self) -> Material:
        """The same material with the colours swapped."""
        return Material(self.black, self.white)

    def canonical(self) -> Material:
        """The orientation the table is stored in (stronger side White)."""
        return self if self.is_canonical else self.flipped()

    def successors(self) -> set[Material]:
        """The canonical materials one capture or promotion away (each
        needs its own table first); KK, which is always a draw, is left out."""
        out = set()
        for mine, theirs, make in ((self.white, self.black, Material),
                                   (self.black, self.white, lambda a, b: Material(b, a))):
            for i, kind in enumerate(mine):
                rest = mine[:i] + mine[i + 1:]
                out.add(make(rest, theirs))                    # captured
                if kind == "P":
                    for promoted in "QRBN":                    # promoted
                        out.add(make(_sorted(rest + promoted), theirs))
                    for j in range(len(theirs)):               # promoted capturing
                        for promoted in "QRBN" if theirs[j] != "P" else "":
                            out.add(make(_sorted(rest + promoted),
                                         theirs[:j] + theirs[j + 1:]))
        return {m.canonical() for m in out if m.white or m.black}


def _sorted(kinds: str) -> str:
    return "".join(sorted(kinds, key=KINDS.index))


def _strength(kinds: str) -> tuple:
    return (sum(_VALUE[k] for k in kinds), [len(KINDS) - KINDS.index(k) for k in kinds])


def parse_signature(text: str) -> Material:
    """The material a signature such as ``KQKR`` names (either side first,
    pieces in any order, upper or lower case).  Raises
    :class:`SignatureError` saying what is wrong."""
    sig = text.strip().upper()
    if not sig or any(c not in "K" + KINDS for c in sig):
        raise SignatureError(f"{text!r} is not a material signature: use the letters "
                             f"K, Q, R, B, N and P, for example KQK or KQKR")
    if sig.count("K") != 2 or not sig.startswith("K"):
        raise SignatureError(f"{text!r} is not a material signature: it needs one king "
                             f"per side, each written first (for example KRKN)")
    if len(sig) > MAX_PIECES:
        raise SignatureError(f"{text!r} has {len(sig)} pieces; tablebases are built for "
                             f"at most {MAX_PIECES}")
    second = sig.index("K", 1)
    material = Material(_sorted(sig[1:second]), _sorted(sig[second + 1:]))
    if not material.white and not material.black:
        raise SignatureError(f"{text!r} is two bare kings: every position is a draw")
    return material
