"""How deep must a KBNK table's forcing trees go?  Exactly, over every position.

    python bench/kbnk_forcing_depth.py [--measure NAME ...] [--weigh CONCEPT=W ...]
                                       [--depth 6] [--agree N] [--moves-to-mate] [--json]

A table that drives by a measure (advice `closer_in_1`, `closer_in_2`,
... as in kb/chess/kbbk.adv) has advice at a position only where White
can force, within that many moves, a position where the measure is
smaller, or mate, without losing a piece or stalemating.  This script
finds the least such number of moves at every KBNK position with White
to move, all at once: the positions are numpy indexes
((wk*64 + bk)*64 + b)*64 + n (16.7 M, no symmetry), and

    F_k = min over White's moves of max over Black's replies of min(M', F_k-1)

where M' is the measure at a position where no White piece hangs (+inf
elsewhere, and at a capture or stalemate; -inf at mate).  A tree of k
moves exists where F_k is below the measure at the root.  Each depth
takes about ten seconds.  It prints, over the won positions, how many
need 1, 2, ... moves and how many have no tree within --depth: a table
driving by that measure has no advice there, and a proof fails there.

The measures weigh the terms of kb/chess/cornering.pl, written here in
numpy under the same names (the room, the secure room, their weights
and the triangle at a mating corner each lies in, corner steps,
distances, a cage: a room of one or two squares where White has no
mate in one, a jam: the knight in the way of the net in a mating
corner), and two the library does not have (room_step_weight and
secure_room_step_weight, the rooms' steps along files and ranks to the
corner).  The default measure, `shipped`, is the one the KBNK domain
ships: kb/chess/kbnk.pl's kbnk_weights/1, read from Prolog; --agree N
checks that its numpy values are kbnk:mating_distance/2's at 2N
positions.  No table reads this script.  Our
tablebase picks the won positions; with --moves-to-mate the script
first counts moves to mate itself (the same minimax with a constant
measure, 40 depths where the longest mate takes 33, about seven
minutes) and checks the counts against the tablebase's.
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

import chess
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.endgames import figures                            # noqa: E402
from engine.prolog import integer, session                     # noqa: E402
from engine.tablebases import Store, parse_signature, board    # noqa: E402
from engine.tablebases.layout import DRAW                       # noqa: E402

SIZE = 64 ** 4
INF = np.float32(1e9)
U = np.uint64
SHIFT = {"wk": 18, "bk": 12, "b": 6, "n": 0}
NOT_FILE_A, NOT_FILE_H = U(0xFEFEFEFEFEFEFEFE), U(0x7F7F7F7F7F7F7F7F)
CORNERS = {True: (0, 63), False: (7, 56)}       # of the dark and of the light squares


class Positions:
    """Every placement of the four pieces, the legal moves between them,
    and which are mate, stalemate or leave a White piece hanging."""

    def __init__(self):
        index = np.arange(SIZE, dtype=np.int32)
        self.sq = {p: ((index >> s) & 63).astype(np.int8) for p, s in SHIFT.items()}
        self.index = index
        wk, bk, b, n = (self.sq[p] for p in ("wk", "bk", "b", "n"))
        distinct = (wk != bk) & (wk != b) & (wk != n) & (bk != b) & (bk != n) & (b != n)
        self.black_to_move = distinct & ~board.ATTACKS["K"][wk, bk]
        in_check = board.ATTACKS["N"][n, bk] | self.bishop_hits(bk, board.bit(wk) | board.bit(n))
        self.white_to_move = self.black_to_move & ~in_check
        self.replies = [self._reply(direction) for direction in range(8)]
        legal_replies = sum(ok.astype(np.int8) for _, _, ok in self.replies)
        none = self.black_to_move & (legal_replies == 0)
        self.mate, self.stalemate = none & in_check, none & ~in_check
        self.safe = self.white_to_move & ~self.hanging()

    def mate_in_one(self) -> np.ndarray:
        """White to move mates at once."""
        mates = np.zeros(SIZE, bool)
        for legal, to in self.white_moves():
            mates |= legal & self.mate[to]
        return mates

    def moved(self, piece: str, to: np.ndarray) -> np.ndarray:
        """The index of each position with ``piece`` moved to ``to``."""
        return self.index + ((to.astype(np.int32) - self.sq[piece]) << SHIFT[piece])

    def bishop_hits(self, target: np.ndarray, blockers: np.ndarray) -> np.ndarray:
        """The bishop attacks ``target``, no square of ``blockers`` between."""
        return board.attacks("B", "w", self.sq["b"], target, blockers)

    def hanging(self) -> np.ndarray:
        """A White piece next to the black king and undefended."""
        wk, bk, b, n = (self.sq[p] for p in ("wk", "bk", "b", "n"))
        king = board.ATTACKS["K"]
        bishop = king[bk, b] & ~king[wk, b] & ~board.ATTACKS["N"][n, b]
        knight = king[bk, n] & ~king[wk, n] & ~self.bishop_hits(n, board.bit(wk) | board.bit(bk))
        return bishop | knight

    def _reply(self, direction: int):
        """Black's king step in one direction: (index after it, legal
        and taking nothing, legal at all)."""
        wk, bk, b, n = (self.sq[p] for p in ("wk", "bk", "b", "n"))
        to = board.STEPS["K"][bk, direction]
        on = to >= 0
        to = np.where(on, to, 0)
        king, knight = board.ATTACKS["K"][wk, to], board.ATTACKS["N"][n, to]
        takes_b, takes_n = on & (to == b), on & (to == n)
        empty = on & ~takes_b & ~takes_n
        attacked = king | knight | self.bishop_hits(to, board.bit(wk) | board.bit(n))
        step = self.black_to_move & empty & ~attacked
        take = self.black_to_move & ((takes_b & ~king & ~knight)
                                     | (takes_n & ~king & ~self.bishop_hits(to, board.bit(wk))))
        return np.where(step, self.moved("bk", to), 0), step, step | take

    def white_moves(self):
        """(legal, index after it) for each of White's move slots."""
        wk, bk, b, n = (self.sq[p] for p in ("wk", "bk", "b", "n"))
        for direction in range(8):
            to = board.STEPS["K"][wk, direction]
            on = to >= 0
            to = np.where(on, to, 0)
            free = (to != bk) & (to != b) & (to != n) & ~board.ATTACKS["K"][to, bk]
            yield self.white_to_move & on & free, self.moved("wk", to)
        for direction in range(8):
            to = board.STEPS["N"][n, direction]
            on = to >= 0
            to = np.where(on, to, 0)
            yield self.white_to_move & on & (to != wk) & (to != bk) & (to != b), self.moved("n", to)
        for ray in board.DIAGONAL:
            at, open_ = b, self.white_to_move.copy()
            for _ in range(7):
                to = board.NEXT[ray][at]
                open_ &= (to >= 0)
                to = np.where(open_, to, 0)
                open_ &= (to != wk) & (to != bk) & (to != n)
                if not open_.any():
                    break
                yield open_.copy(), self.moved("b", to)
                at = to

    def forcing_depths(self, measure: np.ndarray, most: int, progress) -> np.ndarray:
        """The least number of moves (1..most) in which White forces the
        measure below its value at each position, 0 where none does."""
        goal = np.where(self.safe, measure, INF).astype(np.float32)
        best = np.full(SIZE, INF, np.float32)
        depth = np.zeros(SIZE, np.int8)
        for k in range(1, most + 1):
            after_reply = np.minimum(goal, best)
            worst = np.full(SIZE, -INF, np.float32)
            for to, step, legal in self.replies:
                worst = np.maximum(worst, np.where(step, after_reply[to], -INF))
                worst[legal & ~step] = INF              # Black takes a piece
            worst[self.stalemate | ~self.black_to_move] = INF
            worst[self.mate] = -INF
            best = np.full(SIZE, INF, np.float32)
            for legal, to in self.white_moves():
                best = np.minimum(best, np.where(legal, worst[to], INF))
            found = self.white_to_move & (depth == 0) & (best < measure)
            depth[found] = k
            progress(k, int(found.sum()))
        return depth


#: The concepts the measures weigh, by name: those Concepts works out, in
#: its order, known without setting anything up (to check --weigh at once).
CONCEPTS = ("piece_hanging", "room", "room_weight", "room_step_weight", "room_area",
            "secure_room", "secure_room_weight", "secure_room_step_weight", "secure_room_area",
            "our_king_from_room", "our_king_far", "cage", "jam", "king_corner_steps",
            "wrong_corner_steps", "kings_distance", "kings_steps", "knight_distance",
            "bishop_distance", "king_edge_distance", "our_king_edge_distance",
            "pieces_edge_distance")


class Concepts:
    """The concepts the measures weigh (CONCEPTS), as arrays over every
    index, each worked out the first time it is asked for
    (``concepts["room"]``)."""

    def __init__(self, p: Positions):
        wk, bk, b, n = (p.sq[x] for x in ("wk", "bk", "b", "n"))
        dark = (board.FILE[b] + board.RANK[b]) % 2 == 0
        self.dark = dark
        king = np.maximum(abs(board.FILE[:, None] - board.FILE), abs(board.RANK[:, None] - board.RANK))
        steps = abs(board.FILE[:, None] - board.FILE) + abs(board.RANK[:, None] - board.RANK)
        edge = np.minimum(np.minimum(board.FILE, 7 - board.FILE), np.minimum(board.RANK, 7 - board.RANK))
        corner_steps = {d: steps[:, list(CORNERS[d])].min(1) for d in (True, False)}
        corner_distance = {d: king[:, list(CORNERS[d])].min(1) for d in (True, False)}
        bishop = functools.cache(lambda: self._bishop_attacks(p))
        room = functools.cache(lambda: self._room(p, bishop()))
        secure = functools.cache(lambda: self._secure_room(p, bishop()))
        self._known: dict[str, np.ndarray] = {}
        self._work = {
            "piece_hanging": lambda: p.hanging().astype(np.int32),
            "room": lambda: _popcount(room()).astype(np.int32),
            "room_weight": lambda: self._room_weight(room(), corner_distance, 1),
            "room_step_weight": lambda: self._room_weight(room(), corner_steps, 0),
            "room_area": lambda: self._area(room(), steps),
            "secure_room": lambda: _popcount(secure()).astype(np.int32),
            "secure_room_weight": lambda: self._room_weight(secure(), corner_distance, 1),
            "secure_room_step_weight": lambda: self._room_weight(secure(), corner_steps, 0),
            "secure_room_area": lambda: self._area(secure(), steps),
            "our_king_from_room": lambda: self._distance_to(wk, room()),
            "our_king_far": lambda: np.maximum(self["our_king_from_room"] - 2, 0),
            "cage": lambda: ((self["room"] <= 2) & ~p.mate_in_one()).astype(np.int32),
            "jam": lambda: self._jam(p, king),
            "king_corner_steps": lambda: np.where(dark, corner_steps[True][bk], corner_steps[False][bk]),
            "wrong_corner_steps": lambda: np.where(dark, corner_steps[False][bk], corner_steps[True][bk]),
            "kings_distance": lambda: king[wk, bk],
            "kings_steps": lambda: steps[wk, bk],
            "knight_distance": lambda: king[n, bk],
            "bishop_distance": lambda: king[b, bk],
            "king_edge_distance": lambda: edge[bk],
            "our_king_edge_distance": lambda: edge[wk],
            "pieces_edge_distance": lambda: edge[b] + edge[n],
        }
        assert tuple(self._work) == CONCEPTS, "CONCEPTS names the concepts worked out here"

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self._known:
            self._known[name] = self._work[name]()
        return self._known[name]

    def _jam(self, p: Positions, king: np.ndarray) -> np.ndarray:
        """The knight stands on the square diagonally next to a corner of
        the bishop's colour, and the black king within two steps of that
        corner: the knight is in the net's way, and White must let the
        king run to the next corner and drive it back."""
        jammed = np.zeros(SIZE, bool)
        for dark, corners in CORNERS.items():
            for corner in corners:
                file, rank = corner % 8, corner // 8
                inner = corner + (1 if file == 0 else -1) + 8 * (1 if rank == 0 else -1)
                jammed |= (self.dark == dark) & (p.sq["n"] == inner) & (king[corner, p.sq["bk"]] <= 2)
        return jammed.astype(np.int32)

    @staticmethod
    def _dilate(mask: np.ndarray) -> np.ndarray:
        sideways = mask | ((mask << U(1)) & NOT_FILE_A) | ((mask >> U(1)) & NOT_FILE_H)
        return sideways | (sideways << U(8)) | (sideways >> U(8))

    def _room(self, p: Positions, bishop: np.ndarray) -> np.ndarray:
        """concepts:room_mask/2: the squares the black king reaches through
        squares White does not attack, its own included (``bishop``: the
        bishop's attacks)."""
        wk, bk, n = (p.sq[x] for x in ("wk", "bk", "n"))
        attacked = _bitboards(board.ATTACKS["K"])[wk] | _bitboards(board.ATTACKS["N"])[n] | bishop
        return self._reach(bk, attacked)

    def _secure_room(self, p: Positions, bishop: np.ndarray) -> np.ndarray:
        """concepts:secure_room_mask/2: the room the black king keeps even
        if it chases a piece our king does not defend.  A bishop or knight
        next to a square the king reaches, and not next to our king, stops
        closing the room, until every piece left is out of reach or
        defended; our pieces' own squares stay closed."""
        wk, bk, b, n = (p.sq[x] for x in ("wk", "bk", "b", "n"))
        guarded = _bitboards(board.ATTACKS["K"])[wk]
        closed = guarded | board.bit(wk) | board.bit(b) | board.bit(n)
        knight = _bitboards(board.ATTACKS["N"])[n]
        kept_b, kept_n = np.ones(SIZE, bool), np.ones(SIZE, bool)
        while True:
            room = self._reach(bk, closed | np.where(kept_b, bishop, U(0))
                               | np.where(kept_n, knight, U(0)))
            reach = self._dilate(room)
            chased_b = kept_b & ((reach & board.bit(b)) != 0) & ((guarded & board.bit(b)) == 0)
            chased_n = kept_n & ((reach & board.bit(n)) != 0) & ((guarded & board.bit(n)) == 0)
            if not (chased_b | chased_n).any():
                return room
            kept_b &= ~chased_b
            kept_n &= ~chased_n

    @staticmethod
    def _bishop_attacks(p: Positions) -> np.ndarray:
        """The squares the bishop attacks (board.attacks), its rays stopped
        by our king and knight: worked out for each of the 64**3 placements
        of those three pieces, then looked up for every position."""
        wk, b, n = (a.ravel() for a in np.indices((64, 64, 64)))
        blockers = board.bit(wk) | board.bit(n)
        attacked = np.zeros(b.size, U)
        for target in range(64):
            hit = board.attacks("B", "w", b, np.full(b.size, target), blockers)
            attacked |= np.where(hit, U(1 << target), U(0))
        return attacked.reshape(64, 64, 64)[p.sq["wk"], p.sq["b"], p.sq["n"]]

    def _reach(self, bk: np.ndarray, closed: np.ndarray) -> np.ndarray:
        """The squares the black king reaches from its own through squares
        not closed (each step grows only the rooms that grew at the last)."""
        room = board.bit(bk)
        growing, reached, open_ = np.arange(SIZE), room, ~closed
        while growing.size:
            grown = (self._dilate(reached) & open_) | reached
            more = grown != reached
            growing, reached, open_ = growing[more], grown[more], open_[more]
            room[growing] = reached
        return room

    def _room_weight(self, room, distance, plus: int) -> np.ndarray:
        """The sum over the room of each square's ``distance`` (steps or
        king steps, by the bishop's colour) to the nearest corner of the
        bishop's colour, plus ``plus`` (concepts:corner_weight/3 counts
        one plus the king steps)."""
        total = plus * _popcount(room).astype(np.int32)
        for s in range(1, 15):
            mask = np.where(self.dark, _mask(distance[True] >= s), _mask(distance[False] >= s))
            total += _popcount(room & mask).astype(np.int32)
        return total

    def _area(self, room, steps) -> np.ndarray:
        """The least, over the corners of the bishop's colour, of the most
        steps from the corner the room reaches: the triangle it lies in."""
        area = np.full(SIZE, 99, np.int32)
        for d in (True, False):
            for corner in CORNERS[d]:
                far = np.zeros(SIZE, np.int32)
                for s in range(1, 15):
                    far[(room & _mask(steps[corner] >= s)) != 0] = s
                area = np.where(self.dark == d, np.minimum(area, far), area)
        return area

    def _distance_to(self, square, mask, most: int = 8) -> np.ndarray:
        """King steps from ``square`` to the nearest square of ``mask``."""
        distance = np.full(SIZE, most, np.int32)
        for k in range(most):
            reached = (mask & board.bit(square)) != 0
            distance[reached & (distance == most)] = k
            mask = self._dilate(mask)
        return distance


_BITS16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int32)


def _popcount(masks: np.ndarray) -> np.ndarray:
    """The number of squares of each bitboard."""
    return sum(_BITS16[(masks >> U(16 * k)) & U(0xFFFF)] for k in range(4))


def _bitboards(attacks: np.ndarray) -> np.ndarray:
    return np.array([_mask(row) for row in attacks], dtype=U)


def _mask(squares: np.ndarray) -> np.uint64:
    return U(sum(1 << int(s) for s in np.nonzero(squares)[0]))


#: The measures, as the weights of the concepts (smaller is nearer mate).
#: king_square_terms weighs the black king's own square; room_terms was
#: hill-climbed on the positions with no tree of two moves; triangle_first
#: puts a hanging piece, then our king far from the room, then the
#: triangle (room_area) before room_terms; cage_then_triangle also puts a
#: cage (a room of one or two squares and no mate in one: White must let
#: the black king out before it can mate) beside our king far;
#: secure_room_first weighs, instead of the room's triangle, the secure
#: room's (the room harassment cannot open), and the secure room's size
#: and weight beside the room's; secure_room_with_jam puts a jam (the
#: knight on the square diagonally next to a mating corner the black king
#: stands within two steps of) beside the cage.  The measure `shipped`
#: (kb/chess/kbnk.pl) is secure_room_with_jam with the library's room
#: weights (one plus the king steps to the corner: concepts:corner_weight/3)
#: instead of the steps along files and ranks, each room at 7 a square.
MEASURES = {
    "king_square_terms": {"room": 4, "king_corner_steps": 10, "kings_steps": 2,
                          "knight_distance": 1, "bishop_distance": 1},
    "room_terms": {"room": 10, "room_step_weight": 3, "room_area": 10, "kings_distance": 5,
                   "kings_steps": 2, "knight_distance": 1, "king_corner_steps": 1,
                   "king_edge_distance": 3, "our_king_edge_distance": -2},
}
MEASURES["triangle_first"] = {**MEASURES["room_terms"], "piece_hanging": 100000,
                              "our_king_far": 10000, "room_area": 1010}
MEASURES["cage_then_triangle"] = {**MEASURES["triangle_first"], "cage": 10000}
MEASURES["secure_room_first"] = {
    **{name: w for name, w in MEASURES["cage_then_triangle"].items() if name != "room_area"},
    "secure_room_area": 1010, "secure_room": 10, "secure_room_step_weight": 3}
MEASURES["secure_room_with_jam"] = {**MEASURES["secure_room_first"], "jam": 10000}


def shipped_weights() -> dict[str, int]:
    """The measure the KBNK domain ships: kb/chess/kbnk.pl's
    kbnk_weights/1, read from Prolog, its terms named as
    chess/cornering.pl names them (and as Concepts does)."""
    session().use_module("chess/kbnk.pl")
    text = session().ask(
        "kbnk:kbnk_weights(Weights), "
        "findall(T, ( member(Name-W, Weights), format(atom(T), '~w=~w', [Name, W]) ), Ts), "
        "atomic_list_concat(Ts, ' ', Out)", what="reading kbnk_weights/1")
    return {name: int(w) for name, w in (pair.split("=") for pair in text.split())}


def weights_of(name: str) -> dict[str, int]:
    """The weights of measure ``name``: one of MEASURES, or ``shipped``."""
    return shipped_weights() if name == "shipped" else MEASURES[name]


def prolog_agreement(p: Positions, concepts: Concepts, measure: np.ndarray, count: int) -> dict:
    """Whether the numpy measure is the domain's own: kbnk:mating_distance/2
    worked out in Prolog (one query) at ``count`` positions with White to
    move drawn at random (seed 0), and as many more where a flag of the
    measure is raised (a piece en prise, a cage, a jam, our king far)."""
    rng = np.random.default_rng(0)
    flagged = p.white_to_move & ((concepts["piece_hanging"] | concepts["cage"] | concepts["jam"]
                                  | concepts["our_king_far"]) != 0)
    indexes = np.concatenate([rng.choice(np.nonzero(p.white_to_move)[0], count, replace=False),
                              rng.choice(np.nonzero(flagged)[0], count, replace=False)])
    listed = "[" + ", ".join(integer(int(i)) for i in indexes) + "]"
    text = session().ask(
        f"findall(D, ( member(I, {listed}), WK is (I >> 18) /\\ 63, BK is (I >> 12) /\\ 63, "
        "B is (I >> 6) /\\ 63, N is I /\\ 63, "
        "msort([p(w, k, WK), p(b, k, BK), p(w, b, B), p(w, n, N)], Pieces), "
        "kbnk:mating_distance(eg(pos(w, Pieces, none), 0), D) ), Ds), "
        "atomic_list_concat(Ds, ' ', Out)", what="the KBNK measure in Prolog")
    theirs = np.array([int(v) for v in text.split()])
    differ = indexes[theirs != measure[indexes].astype(np.int64)]
    return {"positions": len(indexes), "differ": len(differ),
            "first_difference": fen(int(differ[0])) if len(differ) else None}


def measure_values(concepts: Concepts, weights: dict[str, int]) -> np.ndarray:
    """The weighted sum of the concepts (``our_king_far`` is our king's
    steps to the room beyond two; a cage is a room of one or two squares
    where White has no mate in one)."""
    return sum(w * concepts[name].astype(np.float32) for name, w in weights.items())


def regions(concepts: Concepts, positions: np.ndarray) -> dict[str, int]:
    """How many of ``positions`` have the black king within three steps of
    a corner where White cannot mate and within a line of the edge (where
    the W manoeuvre starts), within three steps of a mating corner, or
    elsewhere."""
    wrong = positions & (concepts["wrong_corner_steps"] <= 3) & (concepts["king_edge_distance"] <= 1)
    mating = positions & ~wrong & (concepts["king_corner_steps"] <= 3)
    return {"by_a_wrong_corner": int(wrong.sum()), "by_a_mating_corner": int(mating.sum()),
            "elsewhere": int((positions & ~wrong & ~mating).sum())}


def won_positions(p: Positions) -> np.ndarray:
    """The won positions with White to move, by our tablebase."""
    squares = np.stack([p.sq[x] for x in ("wk", "bk", "b", "n")]).astype(np.int64)
    pieces = [("w", "K"), ("b", "K"), ("w", "B"), ("w", "N")]
    values = Store().tables.values(pieces, squares, "w")
    return p.white_to_move & (values != DRAW) & (values % 2 == 0)     # plies odd: byte even


def fen(index: int) -> str:
    """The FEN of an index, White to move."""
    b = chess.Board(None)
    for piece, (colour, kind) in zip(("wk", "bk", "b", "n"), ((1, 6), (0, 6), (1, 3), (1, 2))):
        b.set_piece_at(int(index >> SHIFT[piece]) & 63, chess.Piece(kind, bool(colour)))
    return b.fen()


def depths_of(p: Positions, concepts: Concepts, won: np.ndarray, name: str, most: int,
              say, agree: int = 0, weigh: dict[str, int] | None = None) -> dict:
    """How many won positions need trees of 1..most moves under measure
    ``name`` (with the weights of ``weigh`` put in, a weight of 0 leaving
    its concept out), how many have none, where, how many of those are
    cages, and five of them; with ``agree``, whether the measure is
    Prolog's (prolog_agreement)."""
    weights = {term: w for term, w in {**weights_of(name), **(weigh or {})}.items() if w}
    unknown = sorted(set(weights) - set(CONCEPTS))
    if unknown:
        sys.exit(f"measure {name} weighs {', '.join(unknown)}, which this script does not compute")
    measure = measure_values(concepts, weights)
    agreement = {"prolog_agreement": prolog_agreement(p, concepts, measure, agree)} if agree else {}
    depth = p.forcing_depths(measure, most, lambda k, n: say(f"{name}, depth {k}: {n:,} positions"))
    counts = np.bincount(depth[won], minlength=most + 1)
    missing = np.nonzero(won & (depth == 0))[0]
    return {"weights": weights, **agreement,
            "by_depth": {str(k): int(counts[k]) for k in range(1, most + 1)},
            "no_tree": int(counts[0]),
            "no_tree_by_region": regions(concepts, won & (depth == 0)),
            "no_tree_in_a_cage": int((won & (depth == 0) & (concepts["cage"] == 1)).sum()),
            "no_tree_examples": [fen(i) for i in np.random.default_rng(0).choice(
                missing, min(5, len(missing)), replace=False)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", choices=sorted(MEASURES) + ["shipped"], action="append",
                        help="a measure to look at (again for more; if none, shipped: "
                        "the one kb/chess/kbnk.pl ships)")
    parser.add_argument("--weigh", action="append", default=[], metavar="CONCEPT=WEIGHT",
                        help="weigh a concept so in each measure (again for more; 0 leaves it out)")
    parser.add_argument("--agree", type=int, default=0, metavar="N",
                        help="check the shipped measure against Prolog's at 2N positions")
    parser.add_argument("--depth", type=int, default=6, help="the deepest tree looked for")
    parser.add_argument("--moves-to-mate", action="store_true",
                        help="first count moves to mate and check them against the tablebase")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not 1 <= args.depth <= 60:
        parser.error(f"--depth {args.depth}: a tree of 1 to 60 moves")
    names = list(dict.fromkeys(args.measure or ["shipped"]))
    weigh = {}
    for given in args.weigh:
        concept, _, weight = given.partition("=")
        if not weight.lstrip("-").isdigit():
            parser.error(f"--weigh {given}: give CONCEPT=WEIGHT, the weight an integer")
        if concept not in CONCEPTS:
            parser.error(f"--weigh {given}: {concept} is not a concept of this script "
                         f"(its concepts: {', '.join(CONCEPTS)})")
        weigh[concept] = int(weight)
    if args.agree and weigh:
        parser.error("--agree checks the shipped measure as it is: give no --weigh with it")
    if args.agree and "shipped" not in names:
        parser.error("--agree checks the shipped measure: give --measure shipped with it")
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    start = time.perf_counter()
    p = Positions()
    won = won_positions(p)
    out = {"depth": args.depth, "won": int(won.sum())}
    if args.moves_to_mate:
        mate = p.forcing_depths(np.ones(SIZE, np.float32), 40,
                                lambda k, n: say(f"moves to mate {k}: {n}"))
        ours = {str(k): int(c) for k, c in enumerate(np.bincount(mate[won])) if k and c}
        theirs = figures(parse_signature("KBNK"))["white_to_move"]["positions"]["wins_in"]
        out["moves_to_mate_agree"] = ours == theirs and int((won & (mate == 0)).sum()) == 0
        say("moves to mate agree with the tablebase:", out["moves_to_mate_agree"])
    concepts = Concepts(p)
    out["measures"] = {name: depths_of(p, concepts, won, name, args.depth, say,
                                       args.agree if name == "shipped" else 0, weigh)
                       for name in names}
    out["seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, result in out["measures"].items():
        print(f"{name}: {out['won']:,} won positions with White to move")
        if "prolog_agreement" in result:
            agreement = result["prolog_agreement"]
            print(f"  kbnk:mating_distance/2 in Prolog differs at {agreement['differ']:,} of "
                  f"{agreement['positions']:,} positions"
                  + (f", e.g. {agreement['first_difference']}" if agreement["differ"] else ""))
        counts, total = result["by_depth"], 0
        for k in range(1, args.depth + 1):
            total += counts[str(k)]
            within = 100 * total / out["won"]
            within = within if total == out["won"] else min(within, 99.999)   # not 100% while any is left
            print(f"  a tree of {k} move{'s' if k > 1 else ''}: {counts[str(k)]:>10,}   "
                  f"within {k}: {within:.3f}%")
        where = result["no_tree_by_region"]
        print(f"  no tree within {args.depth}: {result['no_tree']:,} (the black king by a wrong "
              f"corner {where['by_a_wrong_corner']:,}, by a mating corner "
              f"{where['by_a_mating_corner']:,}, elsewhere {where['elsewhere']:,}; in a cage "
              f"{result['no_tree_in_a_cage']:,})"
              + "".join(f"{', e.g. ' if i == 0 else '; '}{f}"
                        for i, f in enumerate(result["no_tree_examples"][:3])))
    print(f"{out['seconds']} s")


if __name__ == "__main__":
    main()
