"""Fit a cornering measure's weights to a tablebase's moves to mate.

Takes a sample of the won positions of a table's domain (every N-th of
its start set `won`, the first included), the tablebase's moves to mate
at each and the values of chess/cornering.pl's terms, and fits the
weights by least squares, so that the measure would estimate the moves
to mate in hundredths of a move. Prints the weights as a knowledge base
writes them (as kb/chess/kbbk.pl's kbbk_weights/1), the fit's R^2 and
its root mean square error in moves; with --shipped, how well the
weights the knowledge base ships (its mating_distance/2) follow the
moves to mate too. The tablebase is read here, never by a table.

Run: .venv/bin/python bench/fit_cornering.py chess/kbbk.adv [--every 10] [--terms a,b,...] [--shipped]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from engine.domains import describe
from engine.prolog import atom, integer, kb_path, session
from engine.tables import load_table

#: the terms that count in KBBK's fit: leaving out any other of
#: cornering_term/3's lowers its R^2 by less than 0.001
TERMS = ("room", "room_weight", "secure_room", "secure_room_weight", "king_corner_steps",
         "king_corner_distance", "kings_distance", "kings_steps", "our_king_edge_distance",
         "piece_hanging", "pieces_distance")


def sample(table: str, every: int, terms: list[str]) -> np.ndarray:
    """One row a sampled position: the moves to mate, the knowledge
    base's own measure, then each term."""
    domain = describe(load_table(str(kb_path(table))).domain)
    domain.prepare()
    session().load_file(Path(__file__).with_name("cornering_sample.pl"), trusted=True)
    names = "[" + ", ".join(atom(t) for t in terms) + "]"
    text = session().ask(
        f"cornering_sample:cornering_sample_job({atom(domain.module)}, {integer(every)}, "
        f"{names}, Out)", seconds=3600, what="sampling the won positions")
    return np.array([[float(v) for v in line.split()] for line in text.splitlines()])


def fit(moves: np.ndarray, terms: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The weights of ``terms`` (one column a term) that follow ``moves``
    best, in hundredths of a move, then the constant; R^2 and the root
    mean square error in moves."""
    values = np.c_[terms, np.ones(len(moves))]
    coef, *_ = np.linalg.lstsq(values, moves, rcond=None)
    error = moves - values @ coef
    r2 = 1 - (error ** 2).sum() / ((moves - moves.mean()) ** 2).sum()
    return coef * 100, float(r2), float(np.sqrt((error ** 2).mean()))


def every_nth(n: int) -> str:
    """How a sample of every n-th position is said: "all", "every 2nd",
    "every 10th", "every 21st", ..."""
    if n == 1:
        return "all"
    teen = 10 <= n % 100 <= 20
    return f"every {n}{'th' if teen else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", help="a table of the domain, e.g. chess/kbbk.adv")
    parser.add_argument("--every", type=int, default=10, help="sample every N-th won position")
    parser.add_argument("--terms", default=",".join(TERMS), help="the terms, comma-separated")
    parser.add_argument("--shipped", action="store_true",
                        help="also how well the knowledge base's own measure follows the moves")
    args = parser.parse_args()
    terms = args.terms.split(",")
    rows = sample(args.table, args.every, terms)
    weights, r2, rmse = fit(rows[:, 0], rows[:, 2:])
    rounded = [int(round(w)) for w in weights]
    written = ", ".join(f"{t}-{w}" if w >= 0 else f"{t}-({w})" for t, w in zip(terms, rounded))
    print(f"{len(rows):,} positions, {every_nth(args.every)} of the won ones")
    print(f"weights: [ {written} ]")
    print(f"R^2 {r2:.4f}, root mean square error {rmse:.2f} moves")
    if args.shipped:
        _, r2, rmse = fit(rows[:, 0], rows[:, 1:2])
        print(f"the shipped measure, scaled: R^2 {r2:.4f}, "
              f"root mean square error {rmse:.2f} moves")


if __name__ == "__main__":
    main()
