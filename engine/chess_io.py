"""Chess input and output through python-chess: FEN in, SAN out, boards.

Used for the domains that declare themselves chess (``chess_material/2``
in Prolog). A domain's positions are built in Prolog from a list of
pieces that python-chess read from a checked FEN (never by parsing FEN
by hand), and the UCI move texts Prolog gives back become SAN on the
real board.

A domain has its own colours (``chess_material('KR', 'K')``: White has
king and rook). A FEN with the material the other way round is mirrored
(colours swapped, board flipped) for the domain, and every move and
board is mirrored back for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import chess
import chess.svg

from engine.prolog import BadInput, atom, integer

COLOUR_LETTER = {chess.WHITE: "w", chess.BLACK: "b"}
LETTER_COLOUR = {"w": chess.WHITE, "b": chess.BLACK}


@dataclass(frozen=True)
class ChessMaterial:
    """The material of a chess domain in its own colours, e.g. ``KR`` against ``K``."""

    white: str
    black: str

    def matches(self, white: str, black: str) -> bool:
        """Whether pieces ``white`` and ``black`` (letters) are this material."""
        return sorted(white) == sorted(self.white) and sorted(black) == sorted(self.black)

    def __str__(self) -> str:
        return f"{self.white} against {self.black}"


@dataclass(frozen=True)
class ChessBoard:
    """A checked board as a person gave it, and whether the domain sees it
    mirrored (colours swapped, ranks flipped)."""

    board: chess.Board
    mirrored: bool = False

    @classmethod
    def of_position(cls, board_json: dict) -> "ChessBoard":
        """The board of a domain's position, as ``chess_board/3`` describes it."""
        board = chess.Board(None)
        board.set_piece_map({square: chess.Piece(chess.Piece.from_symbol(letter).piece_type,
                                                 LETTER_COLOUR[colour])
                             for colour, letter, square in board_json["pieces"]})
        board.turn = LETTER_COLOUR[board_json["turn"]]
        return cls(board)

    @property
    def domain_board(self) -> chess.Board:
        """The board in the domain's colours."""
        return self.board.mirror() if self.mirrored else self.board

    def given_term(self) -> str:
        """The Prolog term ``board(Turn, Pieces)`` of the domain's board
        (built from python-chess's data, never from a person's text)."""
        turn, pieces, _ = board_term(self.domain_board)
        return f"board({turn}, {pieces})"

    def move(self, uci: str) -> chess.Move:
        """A move text of the domain as a move on the board as given."""
        move = chess.Move.from_uci(uci)
        if self.mirrored:
            move = chess.Move(chess.square_mirror(move.from_square),
                              chess.square_mirror(move.to_square), move.promotion)
        return move

    def domain_uci(self, move: chess.Move) -> str:
        """A move on the board as given, as the domain's move text."""
        if self.mirrored:
            move = chess.Move(chess.square_mirror(move.from_square),
                              chess.square_mirror(move.to_square), move.promotion)
        return move.uci()

    def after(self, ucis: list[str]) -> chess.Board:
        """The board after a line of the domain's move texts."""
        board = self.board.copy()
        for uci in ucis:
            board.push(self.move(uci))
        return board

    def san_line(self, ucis: list[str]) -> list[str]:
        """SAN of a line of the domain's move texts played from this board."""
        board = self.board.copy()
        sans = []
        for uci in ucis:
            move = self.move(uci)
            sans.append(board.san(move))
            board.push(move)
        return sans

    def read_move(self, played: list[str], typed: str) -> str:
        """The domain's move text for a move a person typed (SAN or UCI)
        after the line ``played``; raises :class:`BadInput`."""
        board = self.after(played)
        typed = typed.strip()
        try:
            move = board.parse_san(typed)
        except ValueError:
            try:
                move = board.parse_uci(typed.lower())
            except ValueError:
                sans = ", ".join(sorted(board.san(m) for m in board.legal_moves))
                raise BadInput(f"{typed!r} is not a legal move here (in SAN or UCI): "
                               f"legal moves are {sans}") from None
        return self.domain_uci(move)

    def san_tree(self, tree: dict) -> dict:
        """A forcing tree of move texts from this board, in SAN."""
        return _san_tree(self, self.board.copy(), tree)

    def write_svgs(self, ucis: list[str], directory: str | Path) -> list[Path]:
        """One SVG board per position of a line (the start included), numbered."""
        return line_svgs(self.board, [self.move(uci) for uci in ucis], directory)


def _pieces(board: chess.Board) -> dict[chess.Color, str]:
    return {c: "".join(sorted((p.symbol().upper() for p in board.piece_map().values()
                               if p.color == c), key="KQRBNP".index))
            for c in (chess.WHITE, chess.BLACK)}


def fen_material(fen: str) -> tuple[str, str]:
    """White's and Black's pieces in ``fen`` (letters, e.g. ``("KQ", "K")``);
    raises :class:`BadInput` for a malformed FEN."""
    try:
        pieces = _pieces(chess.Board(fen))
    except ValueError as error:
        raise BadInput(f"malformed FEN {fen!r}: {error}") from None
    return pieces[chess.WHITE], pieces[chess.BLACK]


def board_term(board: chess.Board) -> tuple[str, str, str]:
    """The turn, the piece list and the en-passant square of ``board`` as
    Prolog text (``w``, ``[piece(w, k, 4), ...]``, ``none`` or a square),
    as the chess knowledge base (``chess:chess_position/4``) takes them:
    written from python-chess's data, never from a person's text."""
    pieces = ", ".join(
        f"piece({COLOUR_LETTER[p.color]}, {atom(chess.piece_symbol(p.piece_type))}, "
        f"{integer(square)})"
        for square, p in sorted(board.piece_map().items()))
    ep = "none" if board.ep_square is None else integer(board.ep_square)
    return COLOUR_LETTER[board.turn], f"[{pieces}]", ep


def line_svgs(board: chess.Board, moves: list[chess.Move],
              folder: str | Path) -> list[Path]:
    """Write one SVG board per position of a line from ``board`` (the
    start included, the last move highlighted) into ``folder`` as
    ``000.svg``, ``001.svg``, ...; return the files."""
    board = board.copy()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(len(moves) + 1):
        lastmove = board.peek() if board.move_stack else None
        path = folder / f"{i:03d}.svg"
        path.write_text(chess.svg.board(board, lastmove=lastmove, size=360))
        paths.append(path)
        if i < len(moves):
            board.push(moves[i])
    return paths


def _endgame_board(fen: str) -> chess.Board:
    """The board of a FEN that python-chess reads and that gives no
    castling rights; else :class:`BadInput` saying why."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise BadInput(f"malformed FEN {fen!r}: {error}") from None
    fields = fen.split()
    if len(fields) > 2 and fields[2] != "-":
        raise BadInput(f"FEN {fen!r} gives castling rights ({fields[2]}); "
                       "endgames here have none: write - in the castling field")
    return board


def checked_board(fen: str) -> chess.Board:
    """The board of a FEN that python-chess reads, has no castling rights
    and is a legal position; else :class:`BadInput` saying why."""
    board = _endgame_board(fen)
    if not board.is_valid():
        raise BadInput(f"FEN {fen!r} is not a legal position: {_status_words(board)}")
    return board


def read_fen(fen: str, material: ChessMaterial, *, over_ok: bool = False) -> ChessBoard:
    """Check a FEN as a position of a domain with ``material``; raise
    :class:`BadInput` saying what is wrong. A position where the game is
    over (mate, stalemate) is refused unless ``over_ok``."""
    board = _endgame_board(fen)
    pieces = _pieces(board)
    if material.matches(pieces[chess.WHITE], pieces[chess.BLACK]):
        mirrored = False
    elif material.matches(pieces[chess.BLACK], pieces[chess.WHITE]):
        mirrored = True
    else:
        raise BadInput(f"FEN {fen!r} is not {material} (White "
                       f"{pieces[chess.WHITE] or 'nothing'}, Black "
                       f"{pieces[chess.BLACK] or 'nothing'})")
    if not board.is_valid():
        raise BadInput(f"FEN {fen!r} is not a legal position: {_status_words(board)}")
    if board.is_checkmate() and not over_ok:
        raise BadInput(f"FEN {fen!r}: the position is already checkmate")
    if board.is_stalemate() and not over_ok:
        raise BadInput(f"FEN {fen!r}: the position is already stalemate")
    return ChessBoard(board, mirrored)


_STATUS_WORDS = {
    chess.STATUS_NO_WHITE_KING: "White has no king",
    chess.STATUS_NO_BLACK_KING: "Black has no king",
    chess.STATUS_TOO_MANY_KINGS: "too many kings",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "too many white pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "too many black pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn on the first or last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "too many white pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "too many black pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "castling rights that the board does not allow",
    chess.STATUS_INVALID_EP_SQUARE: "an impossible en-passant square",
    chess.STATUS_OPPOSITE_CHECK: "the side that is not to move is in check",
    chess.STATUS_EMPTY: "an empty board",
    chess.STATUS_TOO_MANY_CHECKERS: "more checking pieces than a move can give",
    chess.STATUS_IMPOSSIBLE_CHECK: "a check no last move can have given",
}


def _status_words(board: chess.Board) -> str:
    """Why python-chess calls ``board`` invalid, in words."""
    status = board.status()
    kings = [board.king(chess.WHITE), board.king(chess.BLACK)]
    if None not in kings and chess.square_distance(*kings) == 1:
        return "the kings stand next to each other"
    words = [text for flag, text in _STATUS_WORDS.items() if flag in status]
    return ", ".join(words) or "invalid"


def _san_tree(position: ChessBoard, board: chess.Board, node: dict) -> dict:
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
