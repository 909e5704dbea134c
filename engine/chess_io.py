"""Chess input and output through python-chess: FEN in, SAN out, boards.

The KRK knowledge base works on ``krk(Side, WK, WR, BK, Depth)`` terms
with python-chess's square numbers; this module builds them from a
checked :class:`chess.Board` (never by parsing FEN by hand) and turns the
UCI move texts Prolog gives back into SAN on the real board.

A position with Black holding king and rook against the white king is
taken too: it is mirrored (colours swapped, board flipped) for the
knowledge base, and every move is mirrored back for people.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.svg

from engine.domains import Domain
from engine.games import BadInput

DEFAULT_FEN = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"


@dataclass(frozen=True)
class KRKPosition:
    """A checked KRK position: the board as given and the KB's view of it."""

    board: chess.Board
    mirrored: bool

    @property
    def kb_board(self) -> chess.Board:
        """The board as the knowledge base sees it (White has the rook)."""
        return self.board.mirror() if self.mirrored else self.board

    def term(self) -> str:
        """The Prolog text of the position (depth 0)."""
        b = self.kb_board
        wk, bk = b.king(chess.WHITE), b.king(chess.BLACK)
        wr = next(iter(b.pieces(chess.ROOK, chess.WHITE)))
        side = "w" if b.turn == chess.WHITE else "b"
        return f"krk({side},{wk},{wr},{bk},0)"

    def move(self, uci: str) -> chess.Move:
        """A move text from the KB as a move on the board as given."""
        move = chess.Move.from_uci(uci)
        if self.mirrored:
            move = chess.Move(chess.square_mirror(move.from_square),
                              chess.square_mirror(move.to_square))
        return move

    def uci_for_kb(self, move: chess.Move) -> str:
        """A move on the board as given, as the KB's move text."""
        if self.mirrored:
            move = chess.Move(chess.square_mirror(move.from_square),
                              chess.square_mirror(move.to_square))
        return move.uci()

    def san_line(self, ucis: list[str]) -> list[str]:
        """SAN of a line of KB move texts played from this position."""
        board = self.board.copy()
        sans = []
        for uci in ucis:
            move = self.move(uci)
            sans.append(board.san(move))
            board.push(move)
        return sans


def read_fen(fen: str, *, white_to_move: bool | None = None) -> KRKPosition:
    """Check a FEN as a KRK position; raise :class:`BadInput` saying what is wrong.

    ``white_to_move`` (when not None) demands that the side with the rook
    is (True) or is not (False) to move.
    """
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise BadInput(f"malformed FEN {fen!r}: {error}") from None
    pieces = board.piece_map().values()
    by_colour = {c: sorted(p.symbol().upper() for p in pieces if p.color == c)
                 for c in (chess.WHITE, chess.BLACK)}
    if by_colour[chess.WHITE] == ["K", "R"] and by_colour[chess.BLACK] == ["K"]:
        mirrored = False
    elif by_colour[chess.BLACK] == ["K", "R"] and by_colour[chess.WHITE] == ["K"]:
        mirrored = True
    else:
        material = (f"White {''.join(by_colour[chess.WHITE]) or 'nothing'}, "
                    f"Black {''.join(by_colour[chess.BLACK]) or 'nothing'}")
        raise BadInput(f"FEN {fen!r} is not king and rook against king ({material})")
    if not board.is_valid():
        raise BadInput(f"FEN {fen!r} is not a legal position: {_status_words(board.status())}")
    if board.is_checkmate():
        raise BadInput(f"FEN {fen!r}: the position is already checkmate")
    if board.is_stalemate():
        raise BadInput(f"FEN {fen!r}: the position is already stalemate")
    position = KRKPosition(board, mirrored)
    rook_side_to_move = position.kb_board.turn == chess.WHITE
    if white_to_move is not None and rook_side_to_move != white_to_move:
        stronger = "Black" if mirrored else "White"
        raise BadInput(
            f"FEN {fen!r}: {'the side with the rook' if white_to_move else 'the lone king'} "
            f"must be to move here; it is {'Black' if board.turn == chess.BLACK else 'White'}'s "
            f"turn ({stronger} has the rook)")
    return position


_TERM = re.compile(r"krk\((w|b),(\d+),(\d+),(\d+),\d+\)")


def board_of_term(term: str) -> chess.Board:
    """The board of a ``krk(Side, WK, WR, BK, Depth)`` term with the rook on it."""
    m = _TERM.fullmatch(term.replace(" ", ""))
    if not m:
        raise ValueError(f"not a KRK position term: {term!r}")
    board = chess.Board(None)
    board.set_piece_map({int(m[2]): chess.Piece(chess.KING, chess.WHITE),
                         int(m[3]): chess.Piece(chess.ROOK, chess.WHITE),
                         int(m[4]): chess.Piece(chess.KING, chess.BLACK)})
    board.turn = chess.WHITE if m[1] == "w" else chess.BLACK
    return board


def _status_words(status: chess.Status) -> str:
    words = [flag.name.lower().replace("_", " ") for flag in chess.Status
             if flag and flag in status and flag.name]
    return ", ".join(words) or "invalid"


def write_svgs(position: KRKPosition, ucis: list[str], directory: str | Path) -> list[Path]:
    """One SVG board per position of a line (the start included), numbered."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    board = position.board.copy()
    paths = []
    for i in range(len(ucis) + 1):
        last = board.peek() if board.move_stack else None
        path = out / f"{i:03d}.svg"
        path.write_text(chess.svg.board(board, lastmove=last, size=360))
        paths.append(path)
        if i < len(ucis):
            board.push(position.move(ucis[i]))
    return paths


class KRKDomain(Domain):
    """King and rook against king: positions given as FEN."""

    success = ("mate",)
    starts = {"canonical": "krk_tablebase:start_position(canonical)",
              "all": "krk_tablebase:start_position(all)"}
    optimal = "krk_tablebase:dtm"
    perfect_defender = "krk_tablebase:perfect_reply"
    draws_boards = True

    def __init__(self, module: str = "krk"):
        super().__init__(module)
        self.start = read_fen(DEFAULT_FEN, white_to_move=True)

    def position(self, text: str | None) -> str:
        self.start = read_fen(text or DEFAULT_FEN, white_to_move=True)
        return self.start.term()

    def _board(self, texts: list[str]) -> chess.Board:
        board = self.start.board.copy()
        for uci in texts:
            board.push(self.start.move(uci))
        return board

    def people_moves(self, texts: list[str]) -> list[str]:
        return self.start.san_line(texts)

    def optimal_moves(self) -> int | None:
        from engine.tablebase import optimal_moves

        return optimal_moves(self.start.term())

    def write_boards(self, texts: list[str], directory: str) -> None:
        """One SVG board per position of a line from the start."""
        write_svgs(self.start, texts, directory)

    def drawing(self, texts: list[str]) -> str:
        return self._board(texts).unicode(borders=True, empty_square="·")

    def read_move(self, text: str, played: list[str], legal: list[str]) -> str:
        board = self._board(played)
        text = text.strip()
        try:
            move = board.parse_san(text)
        except ValueError:
            try:
                move = board.parse_uci(text.lower())
            except ValueError:
                sans = ", ".join(sorted(board.san(m) for m in board.legal_moves))
                raise BadInput(f"{text!r} is not a legal move here (in SAN or UCI): "
                               f"legal moves are {sans}") from None
        return self.start.uci_for_kb(move)

    def tree_for_people(self, tree: dict) -> dict:
        return _san_tree(self.start, self.start.board.copy(), tree)

    def failure_for_people(self, term: str, ucis: list[str]) -> dict:
        """A verifier's failing start (a krk/5 term) as FEN, its line in SAN."""
        position = KRKPosition(board_of_term(term), mirrored=False)
        return {"fen": position.board.fen(), "line": position.san_line(ucis)}


def _san_tree(position: KRKPosition, board: chess.Board, node: dict) -> dict:
    if "us" in node:
        move = position.move(node["us"])
        san = board.san(move)
        board.push(move)
        result = {"us": san, "next": _san_tree(position, board, node["next"])}
        board.pop()
        return result
    if "them" in node:
        replies = []
        for reply in node["them"]:
            move = position.move(reply["move"])
            san = board.san(move)
            board.push(move)
            replies.append({"move": san, "next": _san_tree(position, board, reply["next"])})
            board.pop()
        return {"them": replies}
    return {}
