"""KRK: the tablebase against the reference data, FEN in and SAN out,
defenders, and the commands that play, solve and explain."""

from __future__ import annotations

import re
import subprocess

import chess
import pytest

from engine.chess_io import ChessMaterial, read_fen
from engine.games import BadInput
from engine.prolog import kb_path, session
from engine.tables import load_domain

from conftest import SHARED_REFERENCE

KRK = str(kb_path("chess/krk.adv"))
DEFAULT_FEN = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"  # the KRK domain's initial position
KRKOPT = SHARED_REFERENCE / "krkopt.data"

# The class counts of krkopt.data (Black to move, one row per symmetry
# class), as its documentation gives them.
REFERENCE_CLASSES = {
    "0": 27, "1": 78, "2": 246, "3": 81, "4": 198, "5": 471, "6": 592, "7": 683,
    "8": 1433, "9": 1712, "10": 1985, "11": 2854, "12": 3597, "13": 4194, "14": 4553,
    "15": 2166, "16": 390, "draw": 2796,
}


def test_tablebase_figures(cli):
    stats = cli("tablebase", "chess/krk", "--json").json()
    assert stats["wtm_positions"] == 175_168
    assert stats["btm_positions"] == 223_944
    assert stats["max_dtm"] == 16
    assert stats["btm_canonical"] == REFERENCE_CLASSES
    assert stats["wtm_canonical_positions"] == 21_959
    assert stats["btm_canonical_positions"] == 28_056
    assert stats["seconds"] >= 0


@pytest.mark.skipif(not KRKOPT.is_file(),
                    reason=f"{KRKOPT} is absent (it exists beside the project in CI, "
                    "not in a user's clone)")
def test_tablebase_reproduces_every_row_of_krkopt():
    load_domain("chess/krk").prepare()
    mismatches = []
    rows = KRKOPT.read_text().split()
    assert len(rows) == 28_056
    facts = {}
    for row in rows:
        wkf, wkr, wrf, wrr, bkf, bkr, cls = map(int, row.split(","))
        index = (((wkr - 1) * 8 + wkf - 1) << 12) | (((wrr - 1) * 8 + wrf - 1) << 6) \
            | ((bkr - 1) * 8 + bkf - 1)
        facts[index] = "draw" if cls == 17 else str(cls)
    ours = session().ask(
        "findall(I-C, (krk_tablebase:btm(I, C), krk_tablebase:canonical_btm(I)), L), "
        "with_output_to(string(Out), forall(member(I-C, L), format('~w ~w~n', [I, C])))")
    table = dict(line.split() for line in ours.splitlines())
    for index, cls in facts.items():
        if table.get(str(index)) != cls:
            mismatches.append((index, cls, table.get(str(index))))
    assert mismatches == []
    assert len(table) == 28_056


def test_the_krk_domain_reads_the_general_table(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))
    domain = load_domain("chess/krk")
    assert (tmp_path / "tablebases" / "KRK.v1.tb").stat().st_size == 2 * 10 * 64 * 64
    assert domain.prepare(rebuild=True).source == "cache"
    assert domain.prepare().source == "session"
    session().ask("retractall(krk_tablebase:loaded), Out = ok")
    assert domain.prepare().source == "cache"


def test_solve_gives_the_optimal_line_in_san(cli):
    data = cli("solve", "--kb", "chess/krk", "--fen", DEFAULT_FEN, "--json").json()
    assert (data["domain"], data["optimal"], data["result"]) == ("krk", 14, "mate")
    assert data["moves"][:3] == ["Ke2", "Kd4", "Ra5"]
    assert len(data["moves"]) == 27
    board = chess.Board(DEFAULT_FEN)
    for san in data["moves"]:
        board.push_san(san)
    assert board.is_checkmate()
    run = cli("solve", "--kb", "chess/krk", "--fen", "8/8/8/8/8/8/2k5/R3K3 b - - 0 1")
    assert run.out.splitlines()[0] == "mate in 12"


@pytest.mark.parametrize(("fen", "result"), [
    ("k6R/8/1K6/8/8/8/8/8 b - - 0 1", "mate"), ("8/8/8/8/8/8/1RK5/k7 b - - 0 1", "stalemate")])
def test_solve_reports_a_game_that_is_over(cli, fen, result):
    run = cli("solve", "--kb", "chess/krk", "--fen", fen)
    assert (run.code, run.out) == (0, f"the game is over: {result}\n")
    assert cli("solve", "--kb", "chess/krk", "--fen", fen, "--json").json()["moves"] == []


def test_mirrored_position_is_solved_in_its_own_colours(cli):
    answer = cli("solve", "--kb", "chess/krk", "--fen", "r3k3/8/8/8/8/8/8/4K3 b - - 0 1", "--json").json()
    assert answer["optimal"] == 12
    assert answer["moves"][0] == "Ra2"
    assert answer["moves"][-1].endswith("#")


@pytest.mark.parametrize(("fen", "message"), [
    ("garbage", "malformed FEN 'garbage'"),
    ("8/8/8/4k3/8/8/8/Q3K3 w - - 0 1", "is not KR against K (White KQ, Black K)"),
    ("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1", "gives castling rights (Q)"),
    ("R6k/8/8/8/8/8/8/4K3 w - - 0 1",
     "is not a legal position: the side that is not to move is in check"),
    ("8/8/8/8/8/8/8/R3Kk2 w - - 0 1", "is not a legal position: the kings stand next to each other"),
    ("8/8/8/8/8/8/2k5/R3K3 b - - 0 1",
     "it is Black's turn in 8/8/8/8/8/8/2k5/R3K3 b - - 0 1, and the table krk moves for "
     "the other side (KR against K)"),
    ("k6R/8/1K6/8/8/8/8/8 b - - 0 1", "already checkmate"),
    ("8/8/8/8/8/8/1RK5/k7 b - - 0 1", "already stalemate"),
])
def test_bad_fens_are_refused(fen, message, cli):
    if "turn" not in message:
        with pytest.raises(BadInput, match=re.escape(message)):
            read_fen(fen, ChessMaterial("KR", "K"))
    run = cli("play", KRK, "--fen", fen)
    assert run.code == 2
    assert message.split("(")[0].strip() in run.err
    assert session().ask("Out = alive") == "alive"


def test_play_against_the_perfect_defender(cli):
    data = cli("play", KRK, "--fen", DEFAULT_FEN, "--json").json()
    assert data["result"] == "mate"
    assert data["us_moves"] == 24
    assert data["optimal"] == 14
    assert data["moves"][0] == "Ra2"
    assert data["moves"][-1] == "Rh6#"
    assert data["reasons"][0] == {"rule": "else_rule", "advice": "squeeze"}
    # the moves each of the table's moves lost against optimal play: against
    # the perfect defender they add up to the moves over the optimal 14
    assert data["lost"] == [1, 2, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 2,
                            0, 0, 0, 0]
    assert sum(data["lost"]) == data["us_moves"] - data["optimal"]


def test_play_for_people_shows_boards_reasons_and_result(cli, tmp_path):
    run = cli("play", KRK, "--fen", DEFAULT_FEN, "--svg", str(tmp_path / "boards"))
    assert run.code == 0
    assert "1. Ra2  [else_rule / squeeze]" in run.out
    assert "  1. Ra2      [else_rule / squeeze]  lost 1" in run.out.splitlines()
    assert "  3. Rc3      [else_rule / squeeze]" in run.out.splitlines()
    assert "result: mate after 24 moves of the table (optimal: 14)" in run.out
    assert "♔" in run.out and "♖" in run.out and "♚" in run.out
    pictures = sorted((tmp_path / "boards").glob("*.svg"))
    assert len(pictures) == 48  # the start and each of the 47 moves
    assert pictures[0].read_text().startswith("<svg")


def test_random_defender_is_seeded(cli):
    a = cli("play", KRK, "--defender", "random", "--seed", "7", "--json").json()
    b = cli("play", KRK, "--defender", "random", "--seed", "7", "--json").json()
    assert a["moves"] == b["moves"]
    assert a["result"] == "mate"


def test_a_person_defends_in_san_or_uci(monkeypatch, cli):
    answers = ["Kz9", "e5d4", "Kd5", "Ke5"]

    def person(prompt: str) -> str:
        if not answers:
            raise EOFError
        return answers.pop(0)

    monkeypatch.setattr("builtins.input", person)
    run = cli("play", KRK, "--defender", "human", "--fen", DEFAULT_FEN)
    assert run.code == 0
    assert ("Refused: 'Kz9' is not a legal move here (in SAN or UCI): legal moves are "
            "Kd4, Kd5, Kd6, Ke4, Ke6, Kf4, Kf5, Kf6") in run.out
    assert "1. Ra2  [else_rule / squeeze]" in run.out
    assert run.out.count("Refused") == 1  # UCI e5d4 and SAN Kd5, Ke5 are taken
    assert "result: abandoned after 4 moves of the table (optimal: 14)" in run.out


def test_explain_with_a_fen_prints_san(cli):
    run = cli("explain", KRK, "--fen", "2k5/8/2K5/8/8/8/8/7R w - - 0 1")
    assert run.out == (
        "rule edge_rule: condition holds -> fires\n"
        "  advice mate_in_2: satisfiable; forcing tree (2 positions):\n"
        "      Rh8#\n"
        "chosen: rule edge_rule, advice mate_in_2\n")


def test_explain_writes_dot(cli, tmp_path):
    dot = tmp_path / "tree.dot"
    run = cli("explain", KRK, "--fen", DEFAULT_FEN, "--dot", str(dot))
    assert run.code == 0
    text = dot.read_text()
    assert text.startswith("digraph forcing_tree {")
    assert '[label="Ra2", penwidth=2]' in text


def test_krk_domain_loads_in_a_prolog_that_loaded_chess_pl_first():
    """krk.pl imported its tablebase module before its own predicates were
    defined, so in a Prolog whose user module had chess.pl's
    chess_position/3 (a session that ran a chess job first) the import
    resolved to chess.pl's and loading the KRK domain failed with
    "No permission to redefine imported_procedure chess:chess_position/3"."""
    goal = ("use_module(chess/chess), use_module(chess/krk, []), "
            "krk:chess_position(w, [piece(w, k, 4), piece(w, r, 0), piece(b, k, 36)], P), "
            "print(P), nl")
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt"], cwd=kb_path("."),
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "krk(w,4,0,36,0)\n", "")
