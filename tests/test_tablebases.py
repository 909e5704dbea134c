"""Tablebases of any endgame up to four pieces (engine/tablebases) and the
optimal line from any FEN (advice solve), checked against figures from
outside: published maxima of depth to mate, python-chess's counts of
legal positions, python-chess's moves (every sampled value must follow
from its children's), and every row of the UCI data set krkopt.data.

The tables are built once into the cache (about 30 s here for all of
them).  KPKP, the one endgame with en passant, needs fourteen four-piece
tables first (about four minutes): bench/tablebases.py builds it and checks
its values, en passant included, in the same way; it also times the seven
tables of the issue.
"""
from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from conftest import SHARED_REFERENCE
from engine import endgames
from engine.prolog import atom
from engine.tablebases import Store, parse_signature
from engine.tablebases.layout import DRAW, ILLEGAL
from engine.tablebases.material import Material

KRKOPT = SHARED_REFERENCE / "krkopt.data"

# Published maxima of depth to mate (moves, side to move winning), and
# how many classes of symmetric positions need that many (our count; for
# KQK the reference: one, Ka1 Qb2 kf5).
MAXIMA = {"KQK": (10, 1), "KRK": (16, 121), "KBBK": (19, 15), "KBNK": (33, 138),
          "KPK": (28, 3), "KQKR": (35, 10)}

# Legal positions of each 3-piece endgame (White to move, Black to move),
# as python-chess counts them (bench/chess_moves.py counts them again).
PYTHON_CHESS_COUNTS = {"KQK": (144_508, 223_944), "KRK": (175_168, 223_944),
                       "KBK": (193_284, 223_944), "KNK": (205_496, 223_944),
                       "KPK": (163_328, 168_024)}

# krkopt.data: Black to move, one row per class of symmetric positions.
KRKOPT_CLASSES = {"0": 27, "1": 78, "2": 246, "3": 81, "4": 198, "5": 471, "6": 592,
                  "7": 683, "8": 1433, "9": 1712, "10": 1985, "11": 2854, "12": 3597,
                  "13": 4194, "14": 4553, "15": 2166, "16": 390}


@pytest.fixture(scope="module")
def store() -> Store:
    return Store()


@pytest.mark.parametrize("signature", sorted(MAXIMA))
def test_the_longest_win_is_the_published_one(store, signature):
    figures = store.ensure(parse_signature(signature)).figures
    moves, classes = MAXIMA[signature]
    assert (figures["max_dtm"], figures["max_dtm_classes"]) == (moves, classes)
    assert figures["max_dtm_side_to_move"] == "white_to_move"
    board = chess.Board(figures["max_dtm_fen"])
    assert endgames.board_material(board).name == signature
    if signature == "KQK":
        assert figures["max_dtm_fen"] == "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"


@pytest.mark.parametrize("signature", sorted(PYTHON_CHESS_COUNTS))
def test_three_piece_positions_are_python_chess_s(store, signature):
    figures = store.ensure(parse_signature(signature)).figures
    assert (figures["white_to_move"]["positions"]["total"],
            figures["black_to_move"]["positions"]["total"]) == PYTHON_CHESS_COUNTS[signature]


def test_krk_has_the_class_counts_of_krkopt(store):
    figures = store.ensure(parse_signature("KRK")).figures
    black = figures["black_to_move"]["classes"]
    assert (black["total"], black["draws"], black["losses_in"]) == (28_056, 2_796,
                                                                   KRKOPT_CLASSES)
    assert figures["white_to_move"]["classes"]["total"] == 21_959


@pytest.mark.skipif(not KRKOPT.is_file(),
                    reason=f"{KRKOPT} is absent (it exists beside the project in CI, "
                    "not in a user's clone)")
def test_krk_reproduces_every_row_of_krkopt(store):
    rows = np.loadtxt(KRKOPT, delimiter=",", dtype=np.int64)
    assert len(rows) == 28_056
    square = lambda f, r: (r - 1) * 8 + f - 1                       # noqa: E731
    squares = np.stack([square(rows[:, 0], rows[:, 1]), square(rows[:, 2], rows[:, 3]),
                        square(rows[:, 4], rows[:, 5])])
    values = store.tables.values([("w", "K"), ("w", "R"), ("b", "K")], squares, "b")
    ours = np.where(values == DRAW, 17, (values.astype(np.int64) - 1) // 2)
    assert int((ours != rows[:, 6]).sum()) == 0


def test_knnk_is_won_only_against_a_trapped_king(store):
    figures = store.ensure(parse_signature("KNNK")).figures
    white = figures["white_to_move"]["positions"]
    assert (figures["max_dtm"], white["wins"], white["wins_in"]) == (1, 616, {"1": 616})
    assert figures["black_to_move"]["positions"]["losses_in"] == {"0": 120}


def _value(store: Store, board: chess.Board) -> int:
    """The byte of a python-chess board (no en-passant square)."""
    pieces = [(("w" if p.color else "b"), p.symbol().upper())
              for _, p in sorted(board.piece_map().items())]
    squares = np.array([[s] for s in sorted(board.piece_map())])
    return int(store.tables.values(pieces, squares, "w" if board.turn else "b")[0])


def _score(byte: int) -> int:
    """Larger is better for the side to move."""
    if byte == DRAW:
        return 0
    plies = byte - 1
    return 1000 - plies if plies % 2 else plies - 1000


@pytest.mark.parametrize("signature", ["KQKR", "KBNK", "KPK", "KBBK"])
def test_every_sampled_value_follows_from_python_chess_s_moves(store, signature):
    """The value of a position is the best of its children's, one ply on,
    with the moves python-chess generates (not ours)."""
    rng = random.Random(9)
    material = parse_signature(signature)
    checked = 0
    while checked < 300:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(material.pieces))
        for (colour, kind), square in zip(material.pieces, squares):
            board.set_piece_at(square, chess.Piece.from_symbol(
                kind if colour == "w" else kind.lower()))
        board.turn = rng.random() < 0.5
        if not board.is_valid():
            assert _value(store, board) == ILLEGAL or board.status() & (
                chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS)
            continue
        byte = _value(store, board)
        children = []
        for move in board.legal_moves:
            board.push(move)
            children.append(_value(store, board) if len(board.piece_map()) > 2 else DRAW)
            board.pop()
        if not children:
            expected = 1 if board.is_check() else DRAW          # mated now: ply 0
        else:
            best = max(-_score(c) for c in children)            # the mover's score
            # The best child is lost (won) in q plies: its score is q - 1000
            # (1000 - q); the mover mates (is mated) in q + 1, byte q + 2.
            q = 1000 - best if best > 0 else best + 1000
            expected = DRAW if best == 0 else q + 2
        assert byte == expected, (board.fen(), byte, expected)
        checked += 1


def test_a_corrupt_table_is_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))
    krk = parse_signature("KRK")
    assert Store().ensure(krk).source == "built"
    assert Store().ensure(krk).source == "cache"
    data = tmp_path / "tablebases" / "KRK.v1.tb"
    raw = bytearray(data.read_bytes())
    raw[1000] ^= 1
    data.write_bytes(bytes(raw))
    assert Store().ensure(krk).source == "built"
    assert Store().ensure(krk).source == "cache"
    (tmp_path / "tablebases" / "KRK.v1.json").write_text("{")
    assert Store().ensure(krk).source == "built"
    assert Store().ensure(krk, rebuild=True).source == "built"
    assert sorted(p.name for p in (tmp_path / "tablebases").iterdir()) == [
        "KRK.v1.json", "KRK.v1.tb"]


def test_a_table_builds_the_smaller_tables_first(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))
    Store().ensure(parse_signature("KPK"))
    built = sorted(p.stem.split(".")[0] for p in (tmp_path / "tablebases").glob("*.tb"))
    assert built == ["KBK", "KNK", "KPK", "KQK", "KRK"]


# won_position/3 builds its positions without chess_position/4's checks:
# every one must be legal, one per class of symmetric positions.
@pytest.mark.parametrize("signature, classes", [("KQK", 18_081), ("KBBK", 312_951)])
def test_the_won_positions_of_a_table_are_legal(signature, classes):
    material = parse_signature(signature)
    white, black = atom("K" + material.white), atom("K" + material.black)
    endgames.session().use_module("chess/tablebase.pl")
    reply = endgames.session().ask(
        f"chess_tablebase:load_tables({endgames.tables_term(material)}), "
        f"aggregate_all(r(count, sum(Bad)), "
        f"( chess_tablebase:won_position({white}, {black}, P), "
        f"( chess:legal_position(P) -> Bad = 0 ; Bad = 1 ) ), r(Won, Illegal)), "
        f"format(string(Out), '~w ~w', [Won, Illegal])",
        what=f"the won positions of {signature}", seconds=300)
    assert reply == f"{classes} 0"


def test_materials_are_read_and_ordered():
    assert parse_signature("krkq") == Material("R", "Q")
    assert parse_signature("KRKQ").canonical().name == "KQKR"
    assert parse_signature("KNKB").canonical().name == "KBKN"
    assert sorted(m.name for m in parse_signature("KPKP").successors()) == [
        "KBKP", "KNKP", "KPK", "KQKP", "KRKP"]


# -- the command line ------------------------------------------------------------

def test_tablebase_command_gives_the_figures(cli):
    data = cli("tablebase", "KQK", "--json").json()
    assert (data["material"], data["max_dtm"], data["max_dtm_fen"]) == (
        "KQK", 10, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")
    assert data["white_to_move"]["positions"]["wins_in"]["10"] == 8
    assert data["black_to_move"]["positions"] == {
        "total": 223_944, "wins": 0, "draws": 23_048, "losses": 200_896,
        "wins_in": {},
        "losses_in": {"0": 364, "1": 1_352, "2": 2_956, "3": 7_480, "4": 14_144,
                      "5": 25_484, "6": 39_908, "7": 54_052, "8": 43_800, "9": 11_300,
                      "10": 56}}
    assert data["source"] in ("built", "cache") and data["seconds"] >= 0
    text = cli("tablebase", "kqk").out
    assert "longest win: mate in 10 (white to move, 1 up to symmetry), e.g. " \
           "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1" in text


@pytest.mark.parametrize(("signature", "message"), [
    ("KK", "'KK' is two bare kings: every position is a draw"),
    ("QQ", "'QQ' is not a material signature: it needs one king per side, each written "
           "first (for example KRKN)"),
    ("KQRKB", "'KQRKB' has 5 pieces; tablebases are built for at most 4"),
])
def test_tablebase_refuses_what_is_not_an_endgame(cli, signature, message):
    run = cli("tablebase", signature)
    assert (run.code, run.err) == (2, f"advice: error: {message}\n")


def test_solve_gives_the_mate_in_san(cli):
    run = cli("solve", "--fen", "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")
    assert run.code == 0
    assert run.out.splitlines()[-3:] == [
        "KQK, White to move: White mates in 10",
        "1. Ka2 Ke6 2. Kb3 Kf5 3. Kc3 Kf6 4. Kd4 Kf5 5. Qb6 Kf4 6. Qf6+ Kg4 7. Ke3 Kg3 "
        "8. Qg6+ Kh3 9. Kf3 Kh4 10. Qg4#",
        "ends in mate"]


@pytest.mark.parametrize(("fen", "value", "dtm", "plies", "ends"), [
    ("8/8/r7/8/3k4/8/8/K1Q5 w - - 0 1", "win", 35, 69, "mate"),           # KQKR at its longest
    ("8/8/8/8/8/8/2k5/KNB5 w - - 0 1", "win", 33, 65, "mate"),            # KBNK at its longest
    ("8/8/8/1k6/8/8/K5P1/8 w - - 0 1", "win", 28, 55, "mate"),            # KPK, promoting
    ("8/8/8/8/8/2k5/1r6/K7 b - - 0 1", "win", 3, 5, "mate"),              # Black the stronger
    ("8/8/8/8/8/2k5/1r6/K7 w - - 0 1", "draw", None, None, "stalemate"),  # stalemate now
    ("8/8/8/8/8/8/2k5/K1b5 w - - 0 1", "draw", None, None, "draw"),       # a bishop can't mate
    ("8/8/8/3k4/8/8/3K4/3N4 b - - 0 1", "draw", None, None, "draw"),
])
def test_solve_any_endgame(cli, fen, value, dtm, plies, ends):
    data = cli("solve", "--fen", fen, "--json").json()
    assert (data["value"], data["dtm"], data["plies"], data["ends"]) == (value, dtm, plies,
                                                                         ends)
    board = chess.Board(fen)
    for san in data["moves"]:
        board.push_san(san)
    assert board.fen() == data["final_fen"]
    assert board.is_checkmate() == (ends == "mate")
    assert len(data["moves"]) == (plies or 0)


def test_solve_writes_the_boards(cli, tmp_path):
    run = cli("solve", "--fen", "8/8/8/8/8/2k5/1r6/K7 b - - 0 1", "--svg", str(tmp_path))
    assert run.code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{i:03d}.svg" for i in range(6)]


@pytest.mark.parametrize(("fen", "message"), [
    ("x", "malformed FEN 'x': expected 8 rows in position part of fen: 'x'"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "FEN '4k3/8/8/8/8/8/8/4K2R w K - 0 1' gives castling "
     "rights (K); endgames here have none: write - in the castling field"),
    ("k7/8/8/8/8/8/8/KQRB4 w - - 0 1", "FEN 'k7/8/8/8/8/8/8/KQRB4 w - - 0 1' has 5 pieces; "
     "endgames here have at most 4, kings included"),
    ("kK6/8/8/8/8/8/8/8 w - - 0 1", "FEN 'kK6/8/8/8/8/8/8/8 w - - 0 1' is not a legal "
     "position: the kings stand next to each other"),
])
def test_solve_refuses_a_bad_fen_in_one_line(cli, fen, message):
    run = cli("solve", "--fen", fen)
    assert (run.code, run.err) == (2, f"advice: error: {message}\n")
