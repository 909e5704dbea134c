"""Verify never overclaims, hangs or orphans; a knowledge base that halts,
loops or is interrupted gives a clear error and the engine lives on."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import command_lines, descendants, wait_for_cpu
from engine.advice_play import AdvicePlayer, _logged_lines
from engine.prolog import kb_path, session
from engine.prolog_process import ProcessSession
from engine.render import verify_text
from engine.tables import load_table

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
KRK = str(kb_path("chess/krk.adv"))
TTT = str(kb_path("games/tictactoe.adv"))


def start(*args: str) -> subprocess.Popen:
    """``advice ARGS`` in a session of its own, as a person's terminal runs it."""
    return subprocess.Popen([sys.executable, "-m", "engine.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def prolog_processes(pid: int) -> list[int]:
    """The processes under ``pid`` that multiprocessing spawned: the
    engine's Prolog process and the workers (not the resource tracker).
    Recorded while ``pid`` runs: once it has ended, its orphans are
    init's, no longer its descendants."""
    commands = command_lines()
    return [child for child in descendants(pid) if b"spawn_main" in commands.get(child, b"")]


def prolog_processes_until_exit(proc: subprocess.Popen, within: float) -> set[int]:
    """Every process prolog_processes() finds under ``proc`` while it runs
    (for at most ``within`` seconds)."""
    seen, deadline = set(), time.monotonic() + within
    while proc.poll() is None and time.monotonic() < deadline:
        seen.update(prolog_processes(proc.pid))
        time.sleep(0.02)
    return seen


def gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not [p for p in pids if running(p)]:
            return True
        time.sleep(0.1)
    return False


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not a zombie, not reaped)."""
    try:
        return "Z" not in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1][:3]
    except OSError:
        return False


# -- never "proved" without a proof ---------------------------------------------

def test_a_sample_is_not_a_proof(cli):
    run = cli("verify", KRK, "--defender", "all", "--positions", "all", "--sample", "60",
              "--seed", "4", "--json")
    report = run.json()
    assert (report["complete"], report["sample"], report["proved"]) == (True, True, False)
    assert report["failures"] == 0 and run.code == 0
    text = verify_text(report)
    assert "proved" not in text
    assert "no failure in 60 of 175,168 positions (not a proof: a sample)" in text


def test_a_complete_proof_says_so(cli):
    report = cli("verify", TTT, "--defender", "all", "--json").json()
    assert (report["complete"], report["sample"], report["proved"]) == (True, False, True)


def nim_copy(tmp_path: Path, module: str, edit=lambda source: source) -> Path:
    """The test Nim domain as module ``module`` (its source through
    ``edit``), with the Nim table using it, in ``tmp_path``."""
    source = (DATA / "domains" / "nim_al0.pl").read_text().replace(
        "module(nim_al0", f"module({module}")
    (tmp_path / f"{module}.pl").write_text(edit(source))
    table = tmp_path / "nim.adv"
    table.write_text((DATA / "domains" / "nim.adv").read_text().replace(
        "uses nim_al0", f"uses {module}"))
    return table


def test_a_refuted_run_still_shows_its_figures(cli, tmp_path):
    run = cli("verify", str(nim_copy(tmp_path, "nim_refuted")), "--defender", "all",
              "--positions", "all")
    assert run.code == 1
    assert run.out.splitlines()[1:] == [
        "  results: lost 8, success 22",
        "  refuted: 8 positions fail; where it succeeds, worst case 8 moves (mean of the "
        "worst cases 4.18), 30 states",
        "  shortest refutation (lost): 1: take 1",
        "  worst cases (moves: starts): 1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 3, 8: 1",
        # the perfect defender's games from the starts that succeed only
        "  against the perfect defender from the 22 starts that succeed: won 22; mean 4.18 "
        "moves, max 8; optimal mean 4.18; mean ratio to optimal 1.000",
        "  longest, 8 moves against the worst defence: 30: take 1 take 1 take 3 take 1 "
        "take 3 take 1 take 3 take 1 take 3 take 1 take 3 take 1 take 3 take 1 take 3 take 1",
        "  its moves chosen by (rule/advice: moves): winning/leave_losing: 8",
    ]


# -- Ctrl-C and SIGTERM ---------------------------------------------------------

def test_ctrl_c_at_any_moment_ends_verify_with_a_report():
    rng = random.Random(13)
    reports = recorded = 0
    for _ in range(12):
        proc = start("verify", KRK, "--defender", "all", "--positions", "all", "--workers", "2",
                     "--json")
        # from 0.2 s: a Ctrl-C before Python has run the command's first
        # lines (tens of milliseconds, more on a loaded machine) is Python's own
        time.sleep(rng.uniform(0.2, 4.0))
        children = set(prolog_processes(proc.pid))
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        children |= prolog_processes_until_exit(proc, 5)  # a worker starting now
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - sent < 5, err
        assert proc.returncode == 130, err
        assert "Traceback" not in err
        if err != "advice: interrupted\n":  # else Ctrl-C came before the command began
            assert err.startswith("advice: interrupted; the positions verified so far:"), err
            assert '"complete": false' in out and '"proved": false' in out, (out, err)
            reports += 1
        assert gone(children, within=5)
        recorded += bool(children)
    assert reports >= 6  # the others came before the command began
    assert recorded >= 6  # as many came once the Prolog process had started


# pyswip, as a process imports it, runs `swipl --dump-runtime-variables`
# unless told where SWI-Prolog is; a worker ended by a Ctrl-C while that
# ran left the swipl writing to a pipe no one read, and "ERROR: format/2:
# I/O error in write on stream user_output (Broken pipe)" reached the
# terminal (once in the test above). The engine finds it once, for all.
def test_swipl_is_run_once_not_once_for_every_prolog_process(tmp_path):
    calls = tmp_path / "calls"
    (tmp_path / "swipl").write_text(f"#!/bin/sh\necho \"$*\" >> {shlex.quote(str(calls))}\n"
                                    f"exec {shlex.quote(shutil.which('swipl'))} \"$@\"\n")
    (tmp_path / "swipl").chmod(0o755)
    env = {name: value for name, value in os.environ.items()
           if name not in ("LIBSWIPL_PATH", "SWI_HOME_DIR")}
    env["PATH"] = f"{tmp_path}{os.pathsep}{env['PATH']}"
    run = subprocess.run([sys.executable, "-m", "engine.cli", "verify", KRK, "--defender", "all",
                          "--sample", "4", "--seed", "1", "--workers", "2", "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (0, "")
    # the engine's own Prolog process and a worker: one run of swipl, not two
    assert calls.read_text() == "--dump-runtime-variables\n"


# Ctrl-C at the moment a process's first child is being made: starting
# multiprocessing's resource tracker then unblocked SIGINT while the engine
# ignored it, and the Ctrl-C was lost (a verify then ran to its end). With
# another thread in the process (numpy's OpenBLAS keeps one), the Ctrl-C
# went to that thread while the child was made, and was ignored there.
CTRL_C_WHILE_A_CHILD_IS_MADE = """
import multiprocessing, multiprocessing.util as util, os, signal, sys, threading, time
from engine.prolog_process import start_shielded
if sys.argv[1] == "another thread":
    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
spawn = util.spawnv_passfds
def spawn_then_ctrl_c(path, args, fds):
    pid = spawn(path, args, fds)
    if any(b"spawn_main" in os.fsencode(arg) for arg in args):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)  # time for another thread to take the signal
    return pid
util.spawnv_passfds = spawn_then_ctrl_c
signal.signal(signal.SIGINT, signal.default_int_handler)
child = multiprocessing.get_context("spawn").Process(target=int)
try:
    start_shielded(child)
    print("lost")
except KeyboardInterrupt:
    print("interrupted")
child.join()
"""


@pytest.mark.parametrize("threads", ["one thread", "another thread"])
def test_ctrl_c_while_a_child_is_made_is_not_lost(threads):
    run = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_A_CHILD_IS_MADE, threads],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (run.stdout, run.returncode) == ("interrupted\n", 0), run.stderr


def test_the_prolog_process_ignores_ctrl_c_and_does_not_block_it():
    child = ProcessSession()
    status = child.ask("read_file_to_string('/proc/self/status', Out, [])")
    child.close()
    masks = dict(line.split(":\t") for line in status.splitlines()
                 if line.startswith(("SigIgn", "SigBlk")))
    sigint = 1 << (signal.SIGINT - 1)
    assert int(masks["SigIgn"], 16) & sigint
    assert not int(masks["SigBlk"], 16) & sigint


def test_sigterm_leaves_no_worker_behind():
    proc = start("verify", KRK, "--defender", "all", "--positions", "all", "--workers", "2")
    time.sleep(6)
    children = prolog_processes(proc.pid)
    assert len(children) >= 3  # the Prolog process and two workers
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert gone(children, within=5)


def test_ctrl_c_stops_a_long_prolog_query_at_once():
    proc = start("search", "--kb", str(DATA / "countdown.pl"), "--position", "c(60,max)")
    time.sleep(3)
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 2
    assert (proc.returncode, err) == (130, "advice: interrupted\n")


# A table's game against a machine defender is one Prolog job; stopped,
# it still prints the moves made until then (the job writes each as it
# is made), and the game so far is the start of the whole game.
FAR_KBBK = "8/8/8/8/6BB/1k6/8/K7 w - - 0 1"


@functools.cache
def whole_kbbk_game() -> tuple[list[str], list[int]]:
    """The table's moves for people, and what it told of its progress."""
    told = []
    game = AdvicePlayer(load_table(str(kb_path("chess/kbbk.adv")))).play(
        fen=FAR_KBBK, progress=told.append)
    assert (game.result, game.us_moves) == ("mate", 21)
    return game.moves, told


def test_a_table_game_tells_its_progress_while_it_runs():
    # the game takes seconds of search; its moves are counted every half
    # second while it runs (so at least once)
    _, told = whole_kbbk_game()
    assert told


def test_the_log_of_a_game_is_read_up_to_its_last_whole_line(tmp_path):
    log = tmp_path / "moves.jsonl"
    assert _logged_lines(log) == []                       # not made yet
    whole = '{"side": "us", "move": "Kb2", "drawing": "\u00b7 \u00b7"}\n{"result": "mate"}\n'
    cut = '{"side": "them", "drawing": "\u00b7'.encode()[:-1]   # inside a character
    log.write_bytes(whole.encode() + cut)
    assert _logged_lines(log) == [{"side": "us", "move": "Kb2", "drawing": "\u00b7 \u00b7"},
                                  {"result": "mate"}]


def test_a_table_game_is_played_where_its_log_cannot_be_written(monkeypatch):
    # the log only keeps the game so far for a stop: where it cannot be
    # opened (here in a folder that does not exist), the game is the same
    player = AdvicePlayer(load_table(str(kb_path("chess/kqk.adv"))))
    fen = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"
    logged = player.play(fen=fen)
    monkeypatch.setattr(tempfile, "TemporaryDirectory",
                        lambda **_: contextlib.nullcontext("/no/such/folder"))
    unlogged = player.play(fen=fen)
    assert (unlogged.result, unlogged.moves) == (logged.result, logged.moves)
    assert unlogged.result == "mate"


def test_ctrl_c_during_a_table_game_prints_the_game_so_far():
    proc = start("play", "kbbk", "--fen", FAR_KBBK, "--json")
    wait_for_cpu(b"spawn_main", 1, 3.0, under=proc.pid)
    children = prolog_processes(proc.pid)
    assert children  # the Prolog process
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    game = json.loads(out)
    assert err == f"advice: interrupted; the game so far ({game['us_moves']} moves of the table):\n"
    assert game["result"] == "interrupted"
    assert game["optimal"] is None and 0 < game["us_moves"] < 21
    assert game["moves"] == whole_kbbk_game()[0][:len(game["moves"])]
    assert len(game["reasons"]) == len(game["moves"])
    assert gone(children, within=5)


def test_a_table_game_past_its_limit_prints_the_game_so_far(cli):
    run = cli("play", "kbbk", "--fen", FAR_KBBK, "--inference-limit", "30000000", "--json")
    assert run.code == 2
    limit = "playing table kbbk ran past its limit of 30,000,000 inferences"
    game = run.json()
    assert run.err == f"advice: error: {limit}; the game so far ({game['us_moves']} moves of the table):\n"
    assert (game["result"], game["error"]) == ("past_limit", limit)
    assert 0 < game["us_moves"] < 21
    assert game["moves"] == whole_kbbk_game()[0][:len(game["moves"])]
    # for people: the boards and moves so far, then the result
    text = cli("play", "kbbk", "--fen", FAR_KBBK, "--inference-limit", "30000000")
    assert text.code == 2
    assert text.out.splitlines()[-1] == (f"result: past limit after {game['us_moves']} moves "
                                         "of the table")


# -- halt --------------------------------------------------------------------------

@pytest.mark.parametrize(("source", "where"), [
    (":- halt.\nmoves(_, []).\n", "loading"),
    ("moves(_, _) :- halt.\nstaticval(_, 0).\nmax_to_move(_).\nmin_to_move(_) :- fail.\n"
     "initial(a).\n", "alphabeta on halting"),
])
def test_a_knowledge_base_that_halts_is_an_error(cli, tmp_path, source, where):
    kb = tmp_path / "halting.pl"
    kb.write_text(source)
    # the guard refuses halt/0 (tests/test_guard.py); --trusted reaches the process
    run = cli("search", "--kb", str(kb), "--trusted")
    assert run.code == 2
    assert run.err.splitlines()[1].startswith(f"advice: error: {where}")
    assert run.err.rstrip().endswith("a knowledge base called halt/0; the Prolog process "
                                     "ended (nothing of it was kept)")
    assert session().ask("Out = alive") == "alive"


@pytest.fixture
def halting_nim(tmp_path: Path) -> Path:
    """The test Nim domain, whose goal winning_for_mover/1 halts at 18 sticks."""
    return nim_copy(tmp_path, "nim_halting", lambda source: source.replace(
        "winning_for_mover(nim(S, _, _)) :-",
        "winning_for_mover(nim(S, _, _)) :-\n    ( S =:= 18 -> halt ; true ),", 1))


def test_halt_in_a_goal_during_explain(cli, halting_nim):
    run = cli("explain", str(halting_nim), "--position", "18", "--trusted")
    assert (run.code, run.err.split("\n", 1)[1]) == (
        2, "advice: error: explaining table nim: a knowledge base called halt/0; the Prolog "
           "process ended (nothing of it was kept)\n")
    assert cli("explain", str(halting_nim), "--position", "14", "--trusted").code == 0


def test_a_worker_that_dies_names_its_positions(halting_nim):
    proc = start("verify", str(halting_nim), "--defender", "all", "--workers", "2", "--trusted")
    # the worker ends on its own: the Prolog processes are those seen while
    # the command runs, each to be gone once it has ended
    children = prolog_processes_until_exit(proc, 60)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.split("\n", 1)[1] == ("advice: error: a worker process ended (a knowledge base "
                                     "called halt/0) while working on the start positions "
                                     "0..21\n")
    assert len(children) >= 2  # the Prolog process and the worker, seen while it ran
    assert gone(children, within=5)


def test_a_check_whose_knowledge_base_halts_fails(cli, halting_nim, tmp_path):
    (tmp_path / "nim_halting.pl").write_text(":- halt.\n")
    run = cli("check", str(halting_nim), "--trusted")
    assert run.code == 2
    assert "a knowledge base called halt/0" in run.err
    shutil.rmtree(tmp_path)


# -- limits a user sets ---------------------------------------------------------------

RUNAWAYS = {
    "sleep": "moves(_, _) :- sleep(300).\n",
    "msort": "moves(_, _) :- numlist(1, 200000, L), repeat, msort(L, _), fail.\n",
}
GAME = "staticval(_, 0).\nmax_to_move(_).\nmin_to_move(_) :- fail.\ninitial(a).\n"


@pytest.mark.parametrize("kind", sorted(RUNAWAYS))
def test_the_time_limit_holds_where_prolog_cannot_enforce_it(cli, tmp_path, kind):
    kb = tmp_path / f"{kind}.pl"
    kb.write_text(RUNAWAYS[kind] + GAME)
    run = cli("search", "--kb", str(kb), "--time-limit", "1")
    assert run.code == 2
    assert run.err.startswith(f"advice: error: alphabeta on {kind} ran past its time limit of 1 s")
    assert cli("search", "nim", "--position", "5", "--json").json()["value"] == -999_999_997


def test_the_memory_limit_is_named(cli, tmp_path):
    kb = tmp_path / "hoard.pl"
    kb.write_text(":- dynamic l/1.\n:- forall(between(1, inf, I), assertz(l(I))).\n"
                  "moves(_, []).\n")
    run = cli("search", "--kb", str(kb), "--memory-limit", "400M", "--trusted")
    assert run.code == 2
    assert "it may have run out of its memory limit of 0.4 GiB" in run.err
    assert cli("search", "nim", "--position", "5", "--json").json()["value"] == -999_999_997


@pytest.mark.parametrize(("args", "message"), [
    (["--time-limit", "0"], "--time-limit must be positive, not 0"),
    (["--inference-limit", "0"], "--inference-limit must be at least 1, not 0"),
    (["--memory-limit", "1M"], "--memory-limit must be at least 256 MB, not 1,048,576 bytes"),
])
def test_bad_limits(cli, args, message):
    run = cli("search", "nim", *args)
    assert (run.code, run.err) == (2, f"advice: error: {message}\n")


def test_the_inference_limit_is_settable(cli):
    run = cli("search", "tictactoe", "--algo", "minimax", "--inference-limit", "5000000")
    assert run.code == 2
    assert run.err == ("advice: error: minimax on tictactoe ran past its limit of 5,000,000 "
                       "inferences\n")


def test_a_verify_past_the_inference_limit_says_so(cli):
    # the engine's own files load under its own limits; the user's limit
    # bounds the work, and the message names the slice and the limit, not
    # the error's bare name (this test once expected a load to run past
    # it: that was a file of an earlier test, loaded again by a Prolog
    # process that restarted under the new limit)
    run = cli("verify", TTT, "--defender", "all", "--inference-limit", "10000")
    assert run.code == 2
    assert run.err == ("advice: error: verifying positions 0..9 ran past its limit of "
                       "10,000 inferences\n")


def test_more_workers_than_cores_need_force(cli):
    cores = os.cpu_count()
    run = cli("verify", TTT, "--workers", str(cores + 1))
    assert run.code == 2
    assert f"--workers {cores + 1} is more than the {cores} cores here" in run.err
    assert cli("verify", TTT, "--workers", str(cores + 1), "--force", "--json").code == 0


def test_verify_defaults_to_a_defender_the_domain_has(cli):
    # tic-tac-toe declares no perfect_reply/3: random, as play chooses
    assert cli("verify", TTT, "--json").json()["defender"] == "random"
    krk = cli("verify", KRK, "--sample", "5", "--json").json()
    assert krk["defender"] == "perfect"


@pytest.mark.parametrize("defender", ["all", "perfect", None])
def test_a_run_interrupted_before_any_slice_still_reports(defender):
    from engine.render import verify_text
    from engine.verify import VerifyJob, merge

    report = merge([], VerifyJob(KRK, defender), None, 0.5, 0, 0)
    assert (report["positions"], report["complete"], report["proved"]) == (0, False, False)
    against = {"all": "every defence", "perfect": "the perfect defender",
               None: "the default defender"}[defender]
    assert verify_text(report).splitlines()[:2] == [
        f"{KRK}: 0 positions of 0 against {against} (compiled, 0.5 s)", "  results: none"]
