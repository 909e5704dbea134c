"""How people write and read the positions and moves of each AL0 domain.

A :class:`Domain` turns a person's position into the Prolog text of the
domain's position term, draws positions, and writes moves. Tic-tac-toe
and KRK have their own; any other domain (a student's) works on Prolog
terms as text.
"""

from __future__ import annotations

from engine.games import BadInput, draw_tictactoe, read_tictactoe
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
    #: whether ``write_boards(texts, directory)`` draws board pictures
    draws_boards: bool = False

    def __init__(self, module: str):
        self.module = module

    def position(self, text: str | None) -> str:
        """The Prolog text of the position a person gave (None: the start)."""
        if text is not None:
            return text
        s = session()
        module = atom(self.module)
        if s.ask(f"( current_predicate({module}:initial/1) -> Out = yes ; Out = no )") == "no":
            raise BadInput(f"{self.module} has no initial/1: give a position with --position")
        return s.ask(f"{module}:initial(P), format(string(Out), '~q', [P])",
                     what=f"the initial position of {self.module}")

    def optimal_moves(self) -> int | None:
        """Our optimal number of moves from the start (None: no tablebase knows)."""
        return None

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
        self._start_cells = ["."] * 9

    def position(self, text: str | None) -> str:
        xs, os_, mover = read_tictactoe(text or "." * 9)
        self.us_mark = mover.upper()
        us, them = (xs, os_) if mover == "x" else (os_, xs)
        self._start_cells = ["X" if xs >> i & 1 else "O" if os_ >> i & 1 else "."
                             for i in range(9)]
        return f"t({us},{them},us,0)"

    def drawing(self, texts: list[str]) -> str:
        cells = list(self._start_cells)
        marks = [self.us_mark, "O" if self.us_mark == "X" else "X"]
        for i, square in enumerate(texts):
            cells[int(square) - 1] = marks[i % 2]
        return draw_tictactoe(cells)

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
