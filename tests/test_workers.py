"""How the worker pool hands out the pieces of a job: each worker a
contiguous run of them (engine.workers.Lanes), and what workers found
passed on to the others (an exchange)."""

from __future__ import annotations

import multiprocessing
import os
import random
import time

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


class Gossip:
    """An exchange that sends each worker, with its piece, the results
    the other workers gave since its last piece."""

    def __init__(self):
        self.news: dict = {}  # worker -> the others' results it has not been sent
        self.workers: set = set()

    def outgoing(self, worker, piece):
        self.workers.add(worker)
        news, self.news[worker] = self.news.get(worker, []), []
        return piece, news

    def incoming(self, worker, result):
        for other in self.workers - {worker}:
            self.news.setdefault(other, []).append(result[0])
        return result


def together(barrier) -> None:
    """Set a worker up once every worker has started."""
    barrier.wait(timeout=60)


def echo(state: None, piece: tuple) -> tuple:
    number, news = piece
    time.sleep(0.2)
    return number, news, os.getpid()


def test_an_exchange_passes_each_result_to_the_other_workers():
    gossip = Gossip()
    barrier = multiprocessing.get_context("spawn").Barrier(2)
    with WorkerPool(2, together, (barrier,), echo, exchange=gossip) as pool:
        results = dict(pool.run(range(6)))
    assert sorted(results) == list(range(6))
    assert len(gossip.workers) == 2
    # each worker's first piece (0 and 3) comes with no news; later ones
    # with what the other worker (another process) did meanwhile, once
    assert results[0][1] == results[3][1] == []
    told = [(number, pid) for _, news, pid in results.values() for number in news]
    assert told and all(results[number][2] != pid for number, pid in told)
    assert len(told) == len({number for number, _ in told})
