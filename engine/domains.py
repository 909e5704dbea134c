"""How people write and read the positions and moves of each AL0 domain.

A :class:`Domain` turns a person's position into the Prolog text of the
domain's position term, draws positions, and writes moves. Tic-tac-toe
and KRK have their own; any other domain (a student's) works on Prolog
terms as text.
"""

from __future__ import annotations

from engine.games import BadInput
from engine.prolog import atom, session


class Domain:
    """An AL0 domain module seen from Python (positions as Prolog text).

    :meth:`position` fixes the start of a game or an explanation; move
    texts (as the domain's ``move_text/3`` writes them) are then read
    along lines from that start.
    """

    #: results of a finished game that count as success for verification
    success: tuple[str, ...] = ()
    #: verification's start positions: the Prolog closure of a generator,
    #: per named set (None: this domain cannot be verified)
    starts: dict[str, str] | None = None
    #: the Prolog closure giving our optimal move count from a start
    optimal: str = "al0_verify:no_optimal"
    #: the Prolog closure of the perfect defender (None: there is none)
    perfect_defender: str | None = None

    def __init__(self, module: str):
        self.module = module

    def position(self, text: str | None) -> str:
        """The Prolog text of the position a person gave (None: the start)."""
        if text is not None:
            return text
        return session().ask(
            f"( catch({atom(self.module)}:initial(P), _, fail) -> format(string(Out), '~q', [P]) "
            "; Out = '' )", what=f"the initial position of {self.module}") or _no_initial(self)

    def people_moves(self, texts: list[str]) -> list[str]:
        """A line of move texts from the start, written for people."""
        return list(texts)

    def drawing(self, texts: list[str]) -> str:
        """The board after a line of move texts from the start ('' if none)."""
        return ""

    def read_move(self, text: str, played: list[str], legal: list[str]) -> str:
        """The move text a person's input names; raises :class:`BadInput`."""
        text = text.strip()
        if text in legal:
            return text
        raise BadInput(f"{text!r} is not a legal move here: {', '.join(legal)}")

    def tree_for_people(self, tree: dict) -> dict:
        """A forcing tree from the start (as the explain job gives it), for people."""
        return tree


def _no_initial(domain: Domain) -> str:
    raise BadInput(f"{domain.module} has no initial/1: give a position with --position")



class TicTacToeDomain(Domain):
    """Tic-tac-toe for advice tables: the table plays the side to move.

    A position is written as for the search (9 squares, ``x``, ``o`` or
    ``.``); whoever is to move there is "us".
    """

    success = ("won", "draw")
    starts = {"both-seats": "tictactoe_al0:start(_)", "first-seat": "tictactoe_al0:start(first)",
              "second-seat": "tictactoe_al0:start(second)"}

    def __init__(self, module: str = "tictactoe_al0"):
        super().__init__(module)
        self.us_mark = "X"
        self._start_cells = "." * 9

    def position(self, text: str | None) -> str:
        cells = "." * 9 if text is None else text.strip().lower()
        if len(cells) != 9 or set(cells) - set("xo."):
            raise BadInput(f"malformed tic-tac-toe position {text!r}: give 9 squares "
                           "row by row, each x, o or . (e.g. x...o....)")
        nx, no = cells.count("x"), cells.count("o")
        if nx - no not in (0, 1):
            raise BadInput(f"impossible tic-tac-toe position {text!r}: X moves first, so "
                           f"X has as many marks as O or one more (here X {nx}, O {no})")
        self.us_mark = "X" if nx == no else "O"
        self._start_cells = cells.upper()
        mine = self.us_mark.lower()
        us = sum(1 << i for i, c in enumerate(cells) if c == mine)
        them = sum(1 << i for i, c in enumerate(cells) if c not in (mine, "."))
        return f"t({us},{them},us,0)"

    def drawing(self, texts: list[str]) -> str:
        cells = [self._start_cells[i] for i in range(9)]
        marks = [self.us_mark, "O" if self.us_mark == "X" else "X"]
        for i, square in enumerate(texts):
            cells[int(square) - 1] = marks[i % 2]
        shown = [c if c != "." else str(i + 1) for i, c in enumerate(cells)]
        rows = [" " + " | ".join(shown[3 * r:3 * r + 3]) for r in range(3)]
        return "\n---+---+---\n".join(rows)

    def read_move(self, text: str, played: list[str], legal: list[str]) -> str:
        text = text.strip()
        if not (text.isdigit() and 1 <= int(text) <= 9):
            raise BadInput(f"{text!r} is not a square: type a number from 1 to 9")
        if text not in legal:
            raise BadInput(f"square {text} is taken")
        return text


def domain_for(module: str) -> Domain:
    """The Python side of the AL0 domain module ``module``."""
    if module == "tictactoe_al0":
        return TicTacToeDomain(module)
    if module == "krk":
        from engine.chess_io import KRKDomain

        return KRKDomain(module)
    return Domain(module)
