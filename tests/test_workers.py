"""How the worker pool hands out the pieces of a job: each worker a
contiguous run of them (engine.workers.Lanes)."""

from __future__ import annotations

import random

from engine.workers import Lanes, WorkerPool


def taken(lanes: Lanes, worker: str) -> object:
    found, piece = lanes.take(worker)
    return piece if found else "nothing"


def test_each_worker_works_through_a_run_of_its_own():
    lanes = Lanes(list(range(10)), 2)
    assert [taken(lanes, "a"), taken(lanes, "b")] == [0, 5]
    assert [taken(lanes, "a") for _ in range(4)] == [1, 2, 3, 4]
    # a's run is done: it takes the back half of b's (6, 7, 8, 9 left)
    assert [taken(lanes, "a"), taken(lanes, "b"), taken(lanes, "a")] == [8, 6, 9]
    assert taken(lanes, "a") == 7  # the back half of what b had left: its last piece
    assert not lanes
    assert [taken(lanes, "a"), taken(lanes, "b")] == ["nothing", "nothing"]


def test_every_piece_is_handed_out_once_whoever_asks():
    pieces = list(range(101))
    lanes, rng, got = Lanes(pieces, 3), random.Random(7), []
    while lanes:
        got.append(taken(lanes, rng.choice("xyz")))
    assert sorted(got) == pieces


def test_a_worker_that_ended_hands_its_piece_and_run_to_its_successor():
    lanes = Lanes(list(range(6)), 2)
    assert [taken(lanes, "a"), taken(lanes, "b")] == [0, 3]
    lanes.hand_over("b", "c", 3)  # b died while it held piece 3
    assert [taken(lanes, "c"), taken(lanes, "c"), taken(lanes, "a")] == [3, 4, 1]


def test_more_workers_than_pieces():
    lanes = Lanes(["only"], 2)
    assert [taken(lanes, "a"), taken(lanes, "b")] == ["only", "nothing"]
    assert not Lanes([], 2)


def double(state: int, piece: int) -> int:
    return state * piece


def set_up(factor: int) -> int:
    return factor


def test_the_pool_yields_every_piece_with_its_result():
    with WorkerPool(2, set_up, (2,), double) as pool:
        assert sorted(pool.run(range(9))) == [(i, 2 * i) for i in range(9)]
