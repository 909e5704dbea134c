"""A new chess endgame needs no Python: a knowledge base of a few lines
that re-exports kb/chess/endgame.pl and names its material, and a table
for it, both written here into a temporary folder, are checked,
explained, played from a FEN against the perfect defender from the
tablebase, and verified through the command line, loaded as any user's
file is (guarded).

The table is tests/data/domains/kqk.adv, written against the hand-made
domain kqk_al0 (its own move generator, the search defender); on the
general knowledge base it proves the same figures (its trees differ only
where chess.pl generates moves in another order).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT

KB = """\
% King and queen against king, from the shipped chess library: the
% material, a set of start positions close to mate, and a goal written
% with the shipped endgame concepts.
:- module(kqk_endgame, [chess_material/2, initial/1, start_set/1, start/2, boxed/1]).
:- reexport(advice(chess/endgame), except([start_set/1, start/2])).
:- use_module(advice(chess/concepts), [room/2]).

chess_material('KQ', 'K').

initial(Pos) :-
    once(start(near_mate, Pos)).

start_set(near_mate).

% The black king has at most 3 squares to go to.
boxed(eg(Pos, _)) :-
    room(Pos, Room),
    Room =< 3.

% The black king on a8, the white king on b6, c7, c6 or b5, the queen on
% the first rank, where White mates in at most 2 moves.
start(near_mate, Pos) :-
    member(WK, [41, 50, 42, 33]),
    between(0, 7, WQ),
    chess_position(w, [piece(w, k, WK), piece(w, q, WQ), piece(b, k, 56)], Pos),
    optimal_moves(Pos, N),
    N =< 2.
"""


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new_endgame")
    (folder / "kqk_endgame.pl").write_text(KB)
    source = (ROOT / "tests" / "data" / "domains" / "kqk.adv").read_text()
    (folder / "kqk.adv").write_text(source.replace("uses kqk_al0", "uses kqk_endgame"))
    return folder / "kqk.adv"


def test_the_table_checks(cli, table):
    run = cli("check", str(table))
    assert run.code == 0, run.err


def test_it_explains(cli, table):
    assert cli("explain", str(table)).out == (
        "rule edge: condition holds -> fires\n"
        "  advice mate_in_1: no forcing tree within the move constraints\n"
        "  advice mate_in_2: satisfiable; forcing tree (4 positions):\n"
        "      Kc6\n"
        "        ... Ka7\n"
        "          Qb7#\n"
        "chosen: rule edge, advice mate_in_2\n")


def test_it_plays_from_a_fen_against_the_tablebase(cli, table):
    game = cli("play", str(table), "--fen", "1q6/8/8/8/8/8/2k5/K7 b - - 0 1",
               "--defender", "perfect", "--json").json()
    assert (game["result"], game["us_moves"], game["optimal"], game["moves"]) == (
        "mate", 1, 1, ["Qb2#"])
    game = cli("play", str(table), "--fen", "k7/8/1K6/8/8/8/8/1Q6 w - - 0 1",
               "--defender", "perfect", "--json").json()
    assert (game["result"], game["us_moves"], game["optimal"]) == ("mate", 2, 2)


def test_it_is_verified_against_every_defence_and_the_perfect_one(cli, table):
    every = cli("verify", str(table), "--defender", "all", "--json").json()
    assert (every["by_result"], every["max_moves"], every["mean_moves"]) == (
        {"success": 24}, 2, 1.5)
    perfect = cli("verify", str(table), "--defender", "perfect", "--json").json()
    assert (perfect["by_result"], perfect["histogram"]) == ({"mate": 24}, {"1": 12, "2": 12})
    assert (perfect["mean_optimal"], perfect["mean_ratio"]) == (1.5, 1.0)


def test_a_fen_of_another_material_is_refused(cli, table):
    run = cli("play", str(table), "--fen", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    assert run.code == 2
    assert run.err == ("advice: error: FEN '8/8/8/4k3/8/8/8/R3K3 w - - 0 1' is not KQ "
                       "against K (White KR, Black K)\n")
