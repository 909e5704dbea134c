"""Retrograde analysis of one endgame, vectorised with numpy.

The builder solves one position per class of symmetric positions (the
board's 8 symmetries without pawns, the left-right mirror with them, and
swaps of alike pieces).  It works backward from the mates, one half-move
(ply) at a time:

  - a position whose side to move has a move to a position lost at ply
    ``p`` for the opponent is won at ply ``p + 1``;
  - each position keeps a count of its moves that are not yet known to
    lose; when its last move is known to lose at ply ``p``, the position
    is lost at ply ``p + 1``.

The predecessors of a position are found by un-moving its pieces.  Moves
that leave the table (captures and promotions) are generated forward once,
and take their values from the smaller tables, which must exist first.

Counting with symmetry: a move of a solved position Q into the class of a
solved position C is found by un-moving from C, once for each image of Q
that moves into C itself.  Counts are therefore kept scaled by the size of
Q's class (its *orbit*), and each un-move found from C subtracts the size
of C's class; the two sides balance exactly (an orbit-counting identity).

En passant: a double step that the opponent could take en passant leads
to a position that is not in the table (the table has no en-passant
square).  Such a move is kept apart, and its value is the better for the
opponent of the position it leads to and of the capture.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from engine.tablebases import board
from engine.tablebases.layout import DRAW, ILLEGAL, Layout, other
from engine.tablebases.probe import Tables

CHUNK = 1 << 20
UNDECIDED = -1
STALEMATE = -2          # while solving; a draw in the table
NO_POSITION = -3        # an index that is not a solved position
SIDES = ("w", "b")
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Solved:
    """A built table: ``values`` (2, size) bytes as in
    :mod:`engine.tablebases.layout`, and for each side to move the indexes
    of the positions solved (one per symmetry class) with the number of
    positions each stands for (``classes[side] = (index, weight)``)."""

    layout: Layout
    values: np.ndarray
    classes: dict[str, tuple[np.ndarray, np.ndarray]]


def build(layout: Layout, tables: Tables, progress: Progress | None = None) -> Solved:
    """Solve ``layout``'s material; ``tables`` gives the smaller endgames'
    values; ``progress(done, total)`` hears of positions solved."""
    return _Builder(layout, tables, progress or (lambda done, total: None)).run()


class _Builder:
    def __init__(self, layout: Layout, tables: Tables, progress: Progress):
        self.L = layout
        self.tables = tables
        self.progress = progress
        size = layout.size
        self.canon = np.empty(size, np.int64)
        self.orbit = np.zeros(size, np.int16)
        self.legal = {s: np.zeros(size, bool) for s in SIDES}
        self.in_check = {s: np.zeros(size, bool) for s in SIDES}
        self.count = {s: np.zeros(size, np.int32) for s in SIDES}
        self.result = {s: np.full(size, NO_POSITION, np.int16) for s in SIDES}
        self.capture_win = {s: np.full(size, np.iinfo(np.int16).max, np.int16)
                            for s in SIDES}
        self.closings: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {s: [] for s in SIDES}
        self.en_passant: list[dict] = []

    # -- the whole job ---------------------------------------------------------

    def run(self) -> Solved:
        self.classify()
        self.count_moves()
        self.solve()
        alike = 2 ** len(self.L.alike)      # alike pieces swapped: one position
        classes = {}
        for s in SIDES:
            reps = self.reps[s]
            classes[s] = (reps, self.orbit[reps].astype(np.int64) // alike)
        return Solved(self.L, self.bytes(), classes)

    def classify(self) -> None:
        """Legal positions, their canonical index, orbit and check."""
        L = self.L
        for start in range(0, L.size, CHUNK):
            index = np.arange(start, min(start + CHUNK, L.size))
            sq = L.decode(index)
            valid = _distinct(sq) & _pawns_on_board(L, sq)
            occupied = _occupied(sq)
            canon = L.canonical(sq)
            self.canon[index] = canon
            rep = valid & (canon == index)
            self.orbit[index[rep]] = L.orbit(sq[:, rep])
            for s in SIDES:
                checked = _checked(L, sq, occupied, s)
                self.in_check[s][index] = checked
            for s in SIDES:
                self.legal[s][index] = valid & ~self.in_check[other(s)][index]
        self.reps = {s: np.nonzero(self.legal[s] & (self.canon == np.arange(L.size)))[0]
                     for s in SIDES}
        for s in SIDES:
            self.result[s][self.reps[s]] = UNDECIDED
        # Where an un-move lands: the canonical index of a legal position
        # with that side to move, -1 for none (one gather per un-move).
        self.landing = {s: np.where(self.legal[s][self.canon], self.canon, -1).astype(np.int32)
                        for s in SIDES}

    # -- counting the moves of every position ----------------------------------

    def count_moves(self) -> None:
        for s in SIDES:
            for chunk in _split(self.reps[s]):
                parents, weights = self.predecessors(chunk, mover=other(s), weighted=True)
                self.count[other(s)] += self.tally(parents, weights)
        for s in SIDES:
            for chunk in _split(self.reps[s]):
                self.moves_out_of_table(chunk, s)
        for s in SIDES:
            reps = self.reps[s]
            stuck = reps[self.count[s][reps] == 0]
            self.result[s][stuck] = np.where(self.in_check[s][stuck], 0, STALEMATE)

    def predecessors(self, index: np.ndarray, mover: str,
                     weighted: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """For the solved positions ``index`` (``other(mover)`` to move), the
        canonical indexes of the legal positions one move of ``mover``
        earlier (one per move), and, if ``weighted``, the orbit of the
        position each was found from."""
        L = self.L
        sq = L.decode(index)
        occupied = _occupied(sq)
        parents, sources = [], []
        for i, source, target in _unmove_targets(L, sq, occupied, mover):
            if i == 0:                  # the white king moved: turn the board
                parent = sq[:, source]
                parent[0] = target
                raw = L.index(parent)
            else:
                raw = index[source] + (target - sq[i, source]) * L.weight[i]
            canon = self.landing[mover][raw]
            keep = canon >= 0
            parents.append(canon[keep])
            sources.append(source[keep])
        parents = np.concatenate(parents) if parents else np.zeros(0, np.int32)
        if not weighted:
            return parents, None
        sources = np.concatenate(sources) if sources else np.zeros(0, np.int64)
        return parents, self.orbit[index[sources]].astype(np.int64)

    def tally(self, index: np.ndarray, weight: np.ndarray) -> np.ndarray:
        """The sum of ``weight`` at each index of the table."""
        return np.bincount(index, weights=weight, minlength=self.L.size).astype(np.int32)

    def moves_out_of_table(self, index: np.ndarray, mover: str) -> None:
        """Captures, promotions and double steps open to en passant of the
        solved positions ``index``: counted, and their values noted."""
        L = self.L
        sq = L.decode(index)
        weight = self.orbit[index].astype(np.int32)
        for child_pieces, mask, child_sq in _leaving_moves(L, sq, mover):
            values = self.tables.values(child_pieces, child_sq, other(mover))
            legal = values != ILLEGAL
            at = np.nonzero(mask)[0][legal]
            values = values[legal].astype(np.int16)
            np.add.at(self.count[mover], index[at], weight[at])
            plies = values - 1
            lost = (values != DRAW) & (plies % 2 == 0)
            np.minimum.at(self.capture_win[mover], index[at[lost]], plies[lost] + 1)
            won = (values != DRAW) & (plies % 2 == 1)
            self.closings[mover].append((index[at[won]], plies[won]))
        for edge in _en_passant_edges(L, sq, mover, self.tables):
            at = edge.pop("at")
            np.add.at(self.count[mover], index[at], weight[at])
            edge["parent"] = index[at]
            edge["child"] = L.canonical(edge.pop("child_squares"))
            edge["mover"] = mover
            self.en_passant.append(edge)

    # -- solving ---------------------------------------------------------------

    def solve(self) -> None:
        total = sum(len(self.reps[s]) for s in SIDES)
        last = self.last_pending_ply()
        done = int(sum((r == STALEMATE).sum() for r in self.result.values()))
        ply = 0
        while True:
            fronts = {s: np.nonzero(self.result[s] == ply)[0] for s in SIDES}
            done += sum(len(f) for f in fronts.values())
            self.progress(done, total)
            if ply > last and not any(len(f) for f in fronts.values()):
                break
            for s, front in fronts.items():
                for chunk in _split(front):
                    parents, weights = self.predecessors(chunk, mover=other(s),
                                                         weighted=ply % 2 == 1)
                    if ply % 2 == 0:
                        self.win(other(s), parents, ply + 1)
                    else:
                        self.close(other(s), parents, weights, ply)
            for s in SIDES:
                if ply % 2 == 0:
                    self.win(s, np.nonzero(self.capture_win[s] == ply + 1)[0], ply + 1)
                else:
                    for parents, plies in self.closings[s]:
                        at = parents[plies == ply]
                        self.close(s, at, self.orbit[at].astype(np.int64), ply)
            self.en_passant_at(ply)
            ply += 1
        for result in self.result.values():
            result[result == STALEMATE] = UNDECIDED
        self.progress(total, total)

    def last_pending_ply(self) -> int:
        plies = [int(p.max()) for s in SIDES for _, p in self.closings[s] if len(p)]
        plies += [int(c[c < np.iinfo(np.int16).max].max()) for c in self.capture_win.values()
                  if (c < np.iinfo(np.int16).max).any()]
        plies += [int(e["capture_ply"].max()) for e in self.en_passant if len(e["capture_ply"])]
        return max(plies, default=0)

    def win(self, side: str, index: np.ndarray, ply: int) -> None:
        result = self.result[side]
        result[index[result[index] == UNDECIDED]] = ply

    def close(self, side: str, index: np.ndarray, weight: np.ndarray, ply: int) -> None:
        """Moves of ``index`` known to lose at ``ply``: a position whose last
        move that is so is lost at ``ply + 1``."""
        if not len(index):
            return
        count, result = self.count[side], self.result[side]
        count -= self.tally(index, weight)
        result[(count == 0) & (result == UNDECIDED)] = ply + 1

    def en_passant_at(self, ply: int) -> None:
        """Double steps open to en passant whose value is known at ``ply``:
        the opponent takes the better of the position and the capture."""
        for edge in self.en_passant:
            mover = edge["mover"]
            child = self.result[other(mover)][edge["child"]].astype(np.int64)
            big = np.int64(1 << 30)
            child_win = np.where((child >= 0) & (child % 2 == 1), child, big)
            child_loss = np.where((child >= 0) & (child % 2 == 0), child, big)
            capture = edge["capture_ply"]          # the capture, for the opponent
            capture_win = np.where((capture >= 0) & (capture % 2 == 1), capture, big)
            capture_loss = np.where((capture >= 0) & (capture % 2 == 0), capture, big)
            win_ply = np.minimum(child_win, capture_win)
            loss_ply = np.maximum(child_loss, capture_loss)
            closing = edge["parent"][win_ply == ply]
            self.close(mover, closing, self.orbit[closing].astype(np.int64), ply)
            if ply % 2 == 0:
                self.win(mover, edge["parent"][loss_ply == ply], ply + 1)

    # -- the table -------------------------------------------------------------

    def bytes(self) -> np.ndarray:
        out = np.full((2, self.L.size), ILLEGAL, np.uint8)
        for row, s in enumerate(SIDES):
            reps, result = self.reps[s], self.result[s][self.reps[s]]
            out[row, reps] = np.where(result >= 0, result + 1, DRAW)
            copies = self.legal[s].copy()
            copies[reps] = False
            out[row, copies] = out[row, self.canon[copies]]
        return out


# -- the board, vectorised ------------------------------------------------------

def _split(index: np.ndarray) -> Iterator[np.ndarray]:
    for start in range(0, len(index), CHUNK):
        yield index[start:start + CHUNK]


def _occupied(sq: np.ndarray) -> np.ndarray:
    occupied = np.zeros(sq.shape[1], np.uint64)
    for row in sq:
        occupied |= board.bit(row)
    return occupied


def _empty(occupied: np.ndarray, squares: np.ndarray) -> np.ndarray:
    return (occupied & board.bit(squares)) == 0


def _distinct(sq: np.ndarray) -> np.ndarray:
    ok = np.ones(sq.shape[1], bool)
    for i in range(len(sq)):
        for j in range(i + 1, len(sq)):
            ok &= sq[i] != sq[j]
    return ok


def _pawns_on_board(L: Layout, sq: np.ndarray) -> np.ndarray:
    ok = np.ones(sq.shape[1], bool)
    for i, (_, kind) in enumerate(L.pieces):
        if kind == "P":
            ok &= (board.RANK[sq[i]] >= 1) & (board.RANK[sq[i]] <= 6)
    return ok


def _checked(L: Layout, sq: np.ndarray, occupied: np.ndarray, colour: str,
             pieces: list | None = None) -> np.ndarray:
    """Whether the king of ``colour`` is attacked."""
    pieces = pieces or L.pieces
    king = sq[pieces.index((colour, "K"))]
    hit = np.zeros(sq.shape[1], bool)
    for i, (c, kind) in enumerate(pieces):
        if c != colour:
            hit |= board.attacks(kind, c, sq[i], king, occupied)
    return hit


def _unmove_targets(L: Layout, sq: np.ndarray, occupied: np.ndarray, mover: str):
    """(piece, positions, square) for every un-move of ``mover``'s pieces
    that stays in the table: the piece goes back to an empty square
    (pawns one step, or two from their home rank, unless the opponent
    could have taken that double step en passant)."""
    for i, (colour, kind) in enumerate(L.pieces):
        if colour != mover:
            continue
        s = sq[i]
        if kind in "KN":
            for k in range(8):
                t = board.STEPS[kind][s, k]
                ok = t >= 0
                ok[ok] = _empty(occupied[ok], t[ok])
                yield i, np.nonzero(ok)[0], t[ok]
        elif kind in "QRB":
            for d in board.DIRECTIONS[kind]:
                at, cur = np.arange(len(s)), s
                while len(at):
                    cur = board.NEXT[d][cur]
                    on = cur >= 0
                    at, cur = at[on], cur[on]
                    free = _empty(occupied[at], cur)
                    at, cur = at[free], cur[free]
                    yield i, at, cur
        else:
            step = board.PAWN_STEP[colour]
            rank = board.RANK[s]
            moved = rank != board.PAWN_HOME[colour]
            back = np.where(moved, s - step, s)
            single = moved & _empty(occupied, back)
            yield i, np.nonzero(single)[0], back[single]
            landed = rank == board.PAWN_HOME[colour] + (2 if colour == "w" else -2)
            over = np.where(landed, s - step, s)
            home = np.where(landed, s - 2 * step, s)
            double = landed & _empty(occupied, over) & _empty(occupied, home) \
                & ~_en_passant_open(L, sq, i)
            yield i, np.nonzero(double)[0], home[double]


def _en_passant_open(L: Layout, sq: np.ndarray, i: int) -> np.ndarray:
    """Whether the opponent could take pawn ``i`` en passant, had it just
    made a double step to where it stands."""
    colour = L.pieces[i][0]
    open_ = np.zeros(sq.shape[1], bool)
    for j, (c, kind) in enumerate(L.pieces):
        if c == colour or kind != "P":
            continue
        beside = (board.RANK[sq[j]] == board.RANK[sq[i]]) \
            & (np.abs(board.FILE[sq[j]] - board.FILE[sq[i]]) == 1)
        after = sq.copy()
        after[j] = sq[i] - board.PAWN_STEP[colour]
        rest = [k for k in range(L.n) if k != i]
        pieces = [L.pieces[k] for k in rest]
        safe = ~_checked(L, after[rest], _occupied(after[rest]), other(colour), pieces)
        open_ |= beside & safe
    return open_


def _leaving_moves(L: Layout, sq: np.ndarray, mover: str):
    """(child pieces, which positions, child squares) for every capture and
    promotion of ``mover``: moves into smaller tables."""
    occupied = _occupied(sq)
    for i, (colour, kind) in enumerate(L.pieces):
        if colour != mover:
            continue
        last = board.RANK[sq[i]] == board.PAWN_LAST[colour]
        promotions = "QRBN" if kind == "P" else ""
        for j, (c, victim) in enumerate(L.pieces):
            if c == mover or victim == "K":
                continue
            hit = board.attacks(kind, colour, sq[i], sq[j], occupied)
            rest = [k for k in range(L.n) if k != j]
            child = sq[rest].copy()
            child[rest.index(i)] = sq[j]
            pieces = [L.pieces[k] for k in rest]
            if kind != "P":
                yield pieces, hit, child[:, hit]
                continue
            yield pieces, hit & ~last, child[:, hit & ~last]
            for promoted in promotions:
                crowned = list(pieces)
                crowned[rest.index(i)] = (colour, promoted)
                yield crowned, hit & last, child[:, hit & last]
        if kind == "P":
            ahead = sq[i] + board.PAWN_STEP[colour]
            push = last & _empty(occupied, np.where(last, ahead, sq[i]))
            child = sq.copy()
            child[i] = ahead
            for promoted in promotions:
                crowned = list(L.pieces)
                crowned[i] = (colour, promoted)
                yield crowned, push, child[:, push]


def _en_passant_edges(L: Layout, sq: np.ndarray, mover: str, tables: Tables):
    """Double steps of ``mover``'s pawns that the opponent could take en
    passant: which positions (``at``), the squares after the step, and the
    opponent's value of taking, as a ply (-1 for a draw)."""
    occupied = _occupied(sq)
    for i, (colour, kind) in enumerate(L.pieces):
        if colour != mover or kind != "P":
            continue
        step = board.PAWN_STEP[colour]
        home = board.RANK[sq[i]] == board.PAWN_HOME[colour]
        over = np.where(home, sq[i] + step, sq[i])
        target = np.where(home, sq[i] + 2 * step, sq[i])
        after = sq.copy()
        after[i] = target
        open_ = home & _empty(occupied, over) & _empty(occupied, target) \
            & _en_passant_open(L, after, i) & ~_checked(L, after, _occupied(after), mover)
        at = np.nonzero(open_)[0]
        if not len(at):
            continue
        moved = after[:, at]
        (taker,) = [j for j, (c, k) in enumerate(L.pieces) if c != mover and k == "P"]
        rest = [k for k in range(L.n) if k != i]
        taken = moved[rest].copy()
        taken[rest.index(taker)] = moved[i] - step
        values = tables.values([L.pieces[k] for k in rest], taken, mover).astype(np.int64)
        # The mover's byte after the capture is the opponent's ply for taking.
        capture_ply = np.where((values == DRAW) | (values == ILLEGAL), -1, values)
        yield {"at": at, "child_squares": moved, "capture_ply": capture_ply}
