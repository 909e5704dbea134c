"""The chess endgame KB (kb/chess/chess.pl) against python-chess: legal
moves and status of random positions of every signature up to four
pieces, and the number of legal positions of 3-piece signatures.

One Prolog query per signature; the full-size run (20,000 positions per
signature, every 3-piece count) is ``bench/chess_moves.py``.

The boards go to Prolog as terms ``board(Turn, Pieces, EP)`` built from
python-chess's ``chess.Board`` (``board_term``), never as FEN text: reading
FEN is python-chess's job (DESIGN.md section 4).
"""

from __future__ import annotations

import json
import random

import chess
import pytest

from engine.prolog import integer, session

SIGNATURES = ["KQK", "KRK", "KBBK", "KBNK", "KNNK", "KPK",
              "KQKR", "KRKN", "KRKB", "KQKQ", "KPKP"]
SAMPLE = 2_000          # positions per signature here; the bench runs 20,000
PIECE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK,
         "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}
# the fixed atoms of a board term
COLOUR_ATOM = {chess.WHITE: "w", chess.BLACK: "b"}
PIECE_ATOM = {chess.KING: "k", chess.QUEEN: "q", chess.ROOK: "r",
              chess.BISHOP: "b", chess.KNIGHT: "n", chess.PAWN: "p"}


def board_term(board: chess.Board) -> str:
    """The Prolog term ``board(Turn, Pieces, EP)`` of ``board``, as
    ``chess:chess_position/4`` and ``chess:legal_moves_json/2`` take it:
    Turn ``w``/``b``, Pieces a list of ``piece(Colour, Letter, Square)``
    (squares numbered as python-chess does), EP python-chess's
    ``ep_square`` or ``none`` (Prolog keeps it only when an en-passant
    capture is legal). Written from fixed atoms and integers only, so no
    text of anyone's is pasted into the query. Castling is out of scope:
    a board with castling rights is refused with ValueError."""
    if board.castling_rights:
        raise ValueError(f"castling rights ({board.castling_xfen()}) are out of scope")
    pieces = ",".join(
        f"piece({COLOUR_ATOM[p.color]},{PIECE_ATOM[p.piece_type]},{integer(sq)})"
        for sq, p in sorted(board.piece_map().items()))
    ep = "none" if board.ep_square is None else integer(board.ep_square)
    return f"board({COLOUR_ATOM[board.turn]},[{pieces}],{ep})"


def split_signature(sig: str) -> tuple[str, str]:
    """'KQKR' -> ('KQ', 'KR'): the stronger side's pieces, then the other's."""
    i = sig.index("K", 1)
    return sig[:i], sig[i:]


def random_board(rng: random.Random, sig: str) -> chess.Board:
    """A random valid position of ``sig`` (either colour the stronger, either
    side to move, no castling rights)."""
    strong, weak = split_signature(sig)
    while True:
        if rng.random() < 0.5:
            white, black = strong, weak
        else:
            white, black = weak, strong
        pieces = [(chess.WHITE, c) for c in white] + [(chess.BLACK, c) for c in black]
        board = chess.Board(None)
        used: set[int] = set()
        for colour, letter in pieces:
            while True:
                sq = rng.randrange(64) if letter != "P" else rng.randrange(8, 56)
                if sq not in used:
                    break
            used.add(sq)
            board.set_piece_at(sq, chess.Piece(PIECE[letter], colour))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def en_passant_board(rng: random.Random) -> chess.Board:
    """A KPKP position reached by a double pawn push, most often one that
    allows an en-passant capture (python-chess sets ``ep_square`` after
    every double push, whether or not a capture is legal; Prolog drops it
    when none is)."""
    while True:
        mover = rng.random() < 0.5
        board = chess.Board(None)
        file = rng.randrange(8)
        start = chess.square(file, 1 if mover == chess.WHITE else 6)
        board.set_piece_at(start, chess.Piece(chess.PAWN, mover))
        if rng.random() < 0.8:  # an enemy pawn beside the arrival square
            side = [f for f in (file - 1, file + 1) if 0 <= f < 8]
            enemy = chess.square(rng.choice(side), 3 if mover == chess.WHITE else 4)
        else:
            enemy = rng.randrange(8, 56)
        if enemy == start:
            continue
        board.set_piece_at(enemy, chess.Piece(chess.PAWN, not mover))
        for colour in (chess.WHITE, chess.BLACK):
            while True:
                sq = rng.randrange(64)
                if board.piece_at(sq) is None:
                    break
            board.set_piece_at(sq, chess.Piece(chess.KING, colour))
        board.turn = mover
        if not board.is_valid():
            continue
        push = chess.Move(start, start + (16 if mover == chess.WHITE else -16))
        if push in board.legal_moves:
            board.push(push)
            return board.copy(stack=False)


def sample_boards(sig: str, n: int, seed: int = 2024) -> list[chess.Board]:
    rng = random.Random(f"{seed}-{sig}")
    boards = []
    for i in range(n):
        if sig == "KPKP" and i % 4 == 0:
            boards.append(en_passant_board(rng))
        else:
            boards.append(random_board(rng, sig))
    return boards


def python_answer(board: chess.Board) -> dict:
    if board.is_checkmate():
        status = "mate"
    elif board.is_stalemate():
        status = "stalemate"
    elif board.is_check():
        status = "check"
    else:
        status = "none"
    return {"moves": sorted(m.uci() for m in board.legal_moves), "status": status}


def chess_session():
    s = session()
    s.use_module("chess/chess.pl")
    return s


def prolog_answers(s, boards: list[chess.Board]) -> list[dict]:
    literal = "[" + ",".join(board_term(b) for b in boards) + "]"
    return json.loads(s.ask(f"chess:legal_moves_json({literal}, Out)",
                            seconds=600, inferences=10**11))


def compare(s, sig: str, n: int) -> tuple[int, int, list]:
    """(positions, agreeing, the first disagreements)."""
    boards = sample_boards(sig, n)
    got = prolog_answers(s, boards)
    assert len(got) == len(boards)
    bad = [(b.fen(), g, python_answer(b)) for b, g in zip(boards, got)
           if g != python_answer(b)]
    return len(boards), len(boards) - len(bad), bad[:3]


def python_count(sig: str, turn: bool) -> int:
    """Legal positions of a 3-piece signature (White the stronger) with
    ``turn`` to move, by python-chess's ``Board.is_valid()``."""
    letter = sig[1]
    piece = chess.Piece(PIECE[letter], chess.WHITE)
    wk, bk = chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)
    count = 0
    board = chess.Board(None)
    board.turn = turn
    for a in range(64):
        for b in range(64):
            if b == a:
                continue
            for c in range(64):
                if c == a or c == b:
                    continue
                board.clear_board()
                board.set_piece_at(a, wk)
                board.set_piece_at(b, bk)
                board.set_piece_at(c, piece)
                if board.is_valid():
                    count += 1
    return count


def prolog_count(s, sig: str, side: str) -> int:
    return int(s.ask(f"chess:count_legal_positions({sig.lower()}, {side}, Out)",
                     seconds=600, inferences=10**11))


@pytest.fixture(scope="module")
def prolog():
    return chess_session()


@pytest.mark.parametrize("sig", SIGNATURES)
def test_moves_agree_with_python_chess(prolog, sig):
    n, agree, bad = compare(prolog, sig, SAMPLE)
    assert n == SAMPLE
    assert agree == n, bad


def test_kpkp_sample_has_en_passant(prolog):
    boards = sample_boards("KPKP", SAMPLE)
    with_ep = [b for b in boards if b.has_legal_en_passant()]
    assert len(with_ep) > SAMPLE // 10
    # and some whose en-passant square Prolog must drop (no legal capture)
    assert any(b.ep_square is not None and not b.has_legal_en_passant()
               for b in boards)


def test_board_term():
    board = chess.Board("8/8/8/3pP3/8/8/k7/7K w - d6 0 1")
    assert board_term(board) == ("board(w,[piece(w,k,7),piece(b,k,8),"
                                 "piece(b,p,35),piece(w,p,36)],43)")
    with pytest.raises(ValueError):
        board_term(chess.Board("r3k3/8/8/8/8/8/8/4K3 b q - 0 1"))


def test_bad_boards_are_refused(prolog):
    boards = {"too_many_pieces": "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1",
              "kings_adjacent": "8/8/8/8/8/8/3k4/4K3 w - - 0 1",
              "opposite_check": "R3k3/8/8/8/8/8/8/4K3 w - - 0 1",
              "pawn_on_back_rank": "P3k3/8/8/8/8/8/8/4K3 b - - 0 1",
              "black_kings": "8/8/8/8/8/8/8/K3R3 b - - 0 1"}
    got = prolog_answers(prolog, [chess.Board(f) for f in boards.values()])
    assert got == [{"error": problem} for problem in boards]


@pytest.mark.parametrize("sig", ["KQK", "KPK"])
def test_three_piece_counts(prolog, sig):
    for side, turn in (("w", chess.WHITE), ("b", chess.BLACK)):
        assert prolog_count(prolog, sig, side) == python_count(sig, turn)
