"""The games the searches play: the shipped ones and a student's own.

A :class:`Game` knows where its knowledge base is and how to read and
write its positions and moves for people. Positions cross into Prolog as
text that Prolog *reads* (never runs), so a student's position string is
as safe as ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.prolog import EngineError, kb_path

SEARCH_INTERFACE = ["moves/2", "staticval/2", "max_to_move/1", "min_to_move/1"]


class BadInput(EngineError):
    """Input a person typed (a position, a move, a name) is not valid."""


@dataclass(frozen=True)
class Game:
    """A game with Bratko's search interface (see ``kb/README.md``)."""

    name: str
    description: str
    kb_file: Path

    def position(self, text: str | None) -> str | None:
        """The Prolog text of a position given by a person.

        None (no position given) asks for the knowledge base's
        ``initial/1``.
        """
        return text

    def show(self, pos: str) -> str:
        """A position drawn for people."""
        return pos

    def move_label(self, before: str, after: str) -> str:
        """The move from ``before`` to ``after`` written for people."""
        return after

    def read_move(self, text: str, before: str, successors: list[str]) -> str:
        """The successor a person's move names; raises :class:`BadInput`."""
        text = text.strip()
        if text.isdigit() and 1 <= int(text) <= len(successors):
            return successors[int(text) - 1]
        if text in successors:
            return text
        raise BadInput(
            f"{text!r} is not a move here: type a number from 1 to {len(successors)}"
        )

    def move_menu(self, before: str, successors: list[str]) -> str:
        """How to answer the move prompt, for people."""
        return "  ".join(f"{i}: {s}" for i, s in enumerate(successors, 1))


_TTT = re.compile(r"ttt\((\d+),(\d+),([xo])\)")


def read_tictactoe(text: str) -> tuple[int, int, str]:
    """X's and O's squares (9-bit masks) and the player to move, ``x`` or ``o``,
    of a position written as 9 squares row by row (``x``, ``o``, ``.``)."""
    cells = text.strip().lower().replace("/", "")
    if len(cells) != 9 or set(cells) - set("xo.-_"):
        raise BadInput(f"malformed tic-tac-toe position {text!r}: give 9 squares "
                       "row by row, each x, o or . (e.g. x...o....)")
    xs = sum(1 << i for i, c in enumerate(cells) if c == "x")
    os_ = sum(1 << i for i, c in enumerate(cells) if c == "o")
    nx, no = cells.count("x"), cells.count("o")
    if nx - no not in (0, 1):
        raise BadInput(f"impossible tic-tac-toe position {text!r}: X moves first, so X has "
                       f"as many marks as O or one more (here X {nx}, O {no})")
    return xs, os_, "x" if nx == no else "o"


def draw_tictactoe(cells: list[str]) -> str:
    """A board of 9 cells (``X``, ``O`` or ``.``), free squares shown by number."""
    shown = [c if c != "." else str(i + 1) for i, c in enumerate(cells)]
    rows = [" " + " | ".join(shown[3 * r:3 * r + 3]) for r in range(3)]
    return "\n---+---+---\n".join(rows)


class TicTacToe(Game):
    """Tic-tac-toe: positions are written as 9 characters, row by row.

    ``x``, ``o`` or ``.`` for each square (1..9 from the top left); the
    player to move follows from the counts (X moves first).
    """

    def position(self, text: str | None) -> str | None:
        if text is None:
            return None
        xs, os_, mover = read_tictactoe(text)
        return f"ttt({xs},{os_},{mover})"

    @staticmethod
    def _cells(pos: str) -> list[str]:
        m = _TTT.fullmatch(pos)
        if not m:
            return []
        xs, os_ = int(m[1]), int(m[2])
        return ["X" if xs >> i & 1 else "O" if os_ >> i & 1 else "." for i in range(9)]

    def show(self, pos: str) -> str:
        cells = self._cells(pos)
        return draw_tictactoe(cells) if cells else pos

    def compact(self, pos: str) -> str:
        """The 9-character form of a position (as ``--position`` takes it)."""
        return "".join(self._cells(pos)).lower() or pos

    def move_label(self, before: str, after: str) -> str:
        b, a = self._cells(before), self._cells(after)
        for i, (x, y) in enumerate(zip(b, a)):
            if x != y:
                return f"{y} on {i + 1}"
        return after

    def read_move(self, text: str, before: str, successors: list[str]) -> str:
        text = text.strip()
        if not (text.isdigit() and 1 <= int(text) <= 9):
            raise BadInput(f"{text!r} is not a square: type a number from 1 to 9")
        square = int(text)
        if self._cells(before)[square - 1] != ".":
            raise BadInput(f"square {square} is taken")
        for succ in successors:
            if self._cells(succ)[square - 1] != ".":
                return succ
        raise BadInput(f"square {square} cannot be played now")

    def move_menu(self, before: str, successors: list[str]) -> str:
        free = [str(i + 1) for i, c in enumerate(self._cells(before)) if c == "."]
        return "free squares: " + " ".join(free)


_NIM = re.compile(r"nim\((\d+),(max|min)\)")


class Nim(Game):
    """One-pile Nim: a position is the number of sticks, MAX to move."""

    def position(self, text: str | None) -> str | None:
        if text is None:
            return None
        text = text.strip()
        if not text.isdigit() or int(text) > 10_000:
            raise BadInput(f"malformed nim position {text!r}: give the number of sticks, e.g. 21")
        return f"nim({int(text)},max)"

    def show(self, pos: str) -> str:
        m = _NIM.fullmatch(pos)
        if not m:
            return pos
        n = int(m[1])
        return f"{n} stick{'s' if n != 1 else ''}: " + "|" * n

    def _sticks(self, pos: str) -> int:
        m = _NIM.fullmatch(pos)
        return int(m[1]) if m else -1

    def move_label(self, before: str, after: str) -> str:
        return f"take {self._sticks(before) - self._sticks(after)}"

    def read_move(self, text: str, before: str, successors: list[str]) -> str:
        text = text.strip()
        left = self._sticks(before)
        if not text.isdigit() or not 1 <= int(text) <= 3:
            raise BadInput(f"{text!r} is not a move: take 1, 2 or 3 sticks")
        if int(text) > left:
            raise BadInput(f"only {left} stick{'s' if left != 1 else ''} left")
        target = left - int(text)
        for succ in successors:
            if self._sticks(succ) == target:
                return succ
        raise BadInput(f"cannot take {text} now")

    def move_menu(self, before: str, successors: list[str]) -> str:
        return f"take 1 to {min(3, self._sticks(before))} sticks"


GAMES: dict[str, Game] = {
    "tictactoe": TicTacToe(
        "tictactoe", "Tic-tac-toe: X moves first; three in a line wins",
        kb_path("games/tictactoe.pl"),
    ),
    "nim": Nim(
        "nim", "One-pile Nim: take 1 to 3 sticks; whoever takes the last one loses",
        kb_path("games/nim.pl"),
    ),
}


def student_game(path: str) -> Game:
    """A game defined by a student's own ``.pl`` file (Bratko's interface).

    Positions are Prolog terms as text; without one, the file's
    ``initial/1`` gives the start.
    """
    p = Path(path)
    return Game(p.stem, f"game from {path}", p)


def find_game(name: str) -> Game:
    """The shipped game called ``name``; raises :class:`BadInput` otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise BadInput(
            f"unknown game {name!r}: the games are {', '.join(sorted(GAMES))}"
        ) from None
