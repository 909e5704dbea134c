"""Limits that hold on what a user's file does to the Prolog process:
what it prints is capped, a huge error is cut, its loading obeys the
time limit, and running out of memory is told as such."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.prolog import MAX_MESSAGE, MAX_MESSAGES
from engine.prolog_process import MAX_OUTPUT

ROOT = Path(__file__).resolve().parent.parent
GAME = "staticval(_, 0).\nmax_to_move(_).\nmin_to_move(_) :- fail.\ninitial(a).\n"


def advice(*args: str):
    """``advice ARGS...`` in a process of its own (its stderr as bytes)."""
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True,
                          timeout=180, cwd=ROOT, env=dict(os.environ))


def game(tmp_path: Path, text: str) -> Path:
    kb = tmp_path / "game.pl"
    kb.write_text(text + GAME)
    return kb


def test_what_a_knowledge_base_prints_is_capped(tmp_path):
    kb = game(tmp_path, "moves(_, []) :- tab(100000000000).\n")
    run = advice("search", "--kb", str(kb), "--time-limit", "3")
    assert run.returncode == 2
    lines = run.stderr.decode().splitlines()
    assert lines[-2] == ("advice: what the Prolog process printed is cut here, at "
                         f"{MAX_OUTPUT:,} bytes")
    assert lines[-1].startswith("advice: error: alphabeta on game ran past its time limit of 3 s")
    assert MAX_OUTPUT < len(run.stderr) < MAX_OUTPUT + 1000


def test_a_huge_error_is_cut(tmp_path):
    kb = game(tmp_path, "moves(_, []) :- length(L, 100000), maplist(=(x), L), "
                        "atomic_list_concat(L, A), throw(error(type_error(huge, A), _)).\n")
    run = advice("search", "--kb", str(kb))
    assert run.returncode == 2
    line = run.stderr.decode().strip().splitlines()[-1]
    assert line.endswith(" characters cut)")
    assert len(line) < MAX_MESSAGE + 200


def test_a_file_of_many_syntax_errors_gets_a_hundred_lines(tmp_path):
    kb = tmp_path / "broken.pl"
    kb.write_text("p(.\n" * 5000)
    run = advice("search", "--kb", str(kb))
    assert run.returncode == 2
    lines = run.stderr.decode().strip().splitlines()
    assert len(lines) == MAX_MESSAGES + 1
    assert lines[-1] == f"{kb}: ... and {5000 - MAX_MESSAGES:,} more errors"


def test_the_time_limit_holds_while_a_file_loads(tmp_path):
    kb = game(tmp_path, "big(" + "1" * 1_000_000 + ").\nmoves(_, []).\n")
    run = advice("search", "--kb", str(kb), "--time-limit", "2")
    assert run.returncode == 2
    assert run.stderr.decode().strip() == (f"advice: error: loading {kb} ran past its time "
                                           "limit of 2 s (the Prolog process was ended)")


def test_running_out_of_memory_while_loading_says_so(tmp_path):
    facts = "".join(f"fact({i}, [a, b, c, d, e, f, g, h]).\n" for i in range(250_000))
    kb = game(tmp_path, facts + "moves(_, []).\n")
    run = advice("search", "--kb", str(kb), "--memory-limit", "256M")
    assert run.returncode == 2
    error = run.stderr.decode().strip().splitlines()[-1]
    # the Prolog stack (half the limit) fills first, or, on a busy
    # machine, the process's memory: either is named
    stack = f"advice: error: loading {kb}: ran out of memory: its Prolog stack of 0.12 GiB " \
            "is full at depth "
    process = (f"advice: error: loading {kb}: Prolog halted with an error status: it ran out "
               "of memory (its limit of 0.2 GiB), or a knowledge base called halt/1; the "
               "Prolog process ended (nothing of it was kept)")
    assert error.startswith(stack) or error == process, error
    assert "a recursion that does not end" not in error


def test_a_halt_with_an_error_status_is_told_apart(tmp_path):
    kb = game(tmp_path, "moves(_, []) :- halt(1).\n")
    run = advice("search", "--kb", str(kb), "--trusted")
    assert run.returncode == 2
    assert run.stderr.decode().strip().splitlines()[-1].startswith(
        "advice: error: alphabeta on game: Prolog halted with an error status: it ran out of "
        "memory (its limit of ")
