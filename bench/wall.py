"""Benchmark: what the operating-system wall (engine/sandbox.py) costs.

Issue 65, point 8: the wall may add no more than 5% to the KRK book-table
proof (``advice verify krk --defender all --workers 2``) and to
``advice search tictactoe --algo minimax``.

The shipped table and game load no user file, so no wall goes up for
them. This script therefore runs each job on a user's *copy* of its
knowledge base, made in a temporary folder (the module renamed, its
``use_module`` of shipped files made absolute):

- ``krk``: ``kb/chess/krk.adv`` with ``uses`` pointing at a copy of the KRK
  domain ``kb/chess/krk.pl`` (module ``krk_wallcopy``), run as
  ``advice verify COPY.adv --defender all --workers 2 --json``;
- ``tictactoe``: a copy of ``kb/games/tictactoe.pl`` (module
  ``tictactoe_wallcopy``), run as
  ``advice search --kb COPY.pl --algo minimax --json``.

Each job is run on two sides, alternately A B A B ..., ``--runs`` pairs:

- A (wall): ``ADVICE_TEST_UNGUARDED=1`` (the test-only setting that skips
  the Prolog guard, so that its cost is not in the difference): every
  process that loads the copy walls itself in with Landlock and seccomp;
- B (no wall): the same plus ``ADVICE_TEST_WALL_LACKS=landlock,seccomp``
  (the test-only setting that makes engine/sandbox.py take both mechanisms
  as missing): the same code path, nothing walled.

So A/B is the cost of the two mechanisms themselves. What both sides share
is not in it: with either, the process that loads a user's file is set
``no_new_privs`` and runs Prolog's garbage collector in its main thread
(``gc_thread`` false). ``--trusted-side`` adds a third side C, the copy
with ``--trusted`` (no guard and no wall at all, nothing of the above),
run in the same rotation A B C, as a reference for that.

Before timing, one untimed run of each side (which also fills the cache of
compiled tables) checks that

- A's Prolog processes really are walled (a descendant process shows
  ``Seccomp: 2`` in /proc/PID/status; Landlock cannot be seen there) and
  B's are not (no descendant in seccomp filter mode, and B's stderr has
  the engine's one warning line about the missing mechanisms);
- both sides (and the shipped command, and C) give the same figures: the
  same exit code and the same JSON apart from timings, memory, the name
  of the table or game, the ``wall`` entry and ``states_repeated`` (how many
  states two verify workers happened both to value: it depends on timing).

Every timed run is checked against that first result again.

Per run it records the whole command's elapsed time (``time.perf_counter``),
the CPU time of the command and its children (user + system, from
``os.wait4``), and the ``seconds`` the command itself reports in its JSON
(the job without starting up). It prints, per side, the median and the
range of each, and the median of the pairwise ratios A/B (and C/B), with
their range. Progress goes to stderr, one line per run, when it is a
terminal (or with ``--progress``).

Run: .venv/bin/python bench/wall.py [--job krk|tictactoe ...] [--runs N]
     [--trusted-side] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "kb"

#: fields of the JSON that may differ between two runs of the same job
VOLATILE = {"seconds", "peak_memory", "wall", "states_repeated", "table", "game"}
WARNING = "advice: warning: this machine has no"


def advice_command() -> list[str]:
    """The ``advice`` of this virtual environment (else the one on PATH)."""
    here = Path(sys.executable).parent / "advice"
    if here.is_file():
        return [str(here)]
    found = shutil.which("advice")
    if found:
        return [found]
    return [sys.executable, "-m", "engine.cli"]


def _rewrite(text: str, old: str, new: str) -> str:
    if old not in text:
        raise SystemExit(f"bench/wall.py: cannot make the copy: {old!r} not found")
    return text.replace(old, new, 1)


def prepare(folder: Path) -> dict[str, dict]:
    """Write the copies into ``folder``; the jobs, each with its commands."""
    chess = KB / "chess"
    krk = (chess / "krk.pl").read_text()
    krk = _rewrite(krk, ":- module(krk,", ":- module(krk_wallcopy,")
    krk = _rewrite(krk, ":- use_module(symmetry,",
                   f":- use_module({str(chess / 'symmetry')!r},")
    krk = _rewrite(krk, ":- use_module(krk_tablebase, [])",
                   f":- use_module({str(chess / 'krk_tablebase')!r}, [])")
    (folder / "krk_wallcopy.pl").write_text(krk)
    table = _rewrite((chess / "krk.adv").read_text(), "uses chess/krk\n",
                     "uses krk_wallcopy.pl\n")
    (folder / "krk_wallcopy.adv").write_text(table)

    ttt = (KB / "games" / "tictactoe.pl").read_text()
    ttt = _rewrite(ttt, ":- module(tictactoe,", ":- module(tictactoe_wallcopy,")
    ttt = _rewrite(ttt, ":- use_module('../search/game_io',",
                   f":- use_module({str(KB / 'search' / 'game_io')!r},")
    (folder / "tictactoe_wallcopy.pl").write_text(ttt)

    verify = ["verify", "--defender", "all", "--workers", "2", "--json"]
    search = ["--algo", "minimax", "--json"]
    return {
        "krk": {"what": "advice verify krk --defender all --workers 2 (the KRK book-table proof)",
                "copy": [*verify[:1], str(folder / "krk_wallcopy.adv"), *verify[1:]],
                "shipped": [verify[0], "krk", *verify[1:]]},
        "tictactoe": {"what": "advice search tictactoe --algo minimax",
                      "copy": ["search", "--kb", str(folder / "tictactoe_wallcopy.pl"), *search],
                      "shipped": ["search", "tictactoe", *search]},
    }


SIDES = {
    "A": ("wall", {"ADVICE_TEST_UNGUARDED": "1"}, []),
    "B": ("no wall", {"ADVICE_TEST_UNGUARDED": "1",
                      "ADVICE_TEST_WALL_LACKS": "landlock,seccomp"}, []),
    "C": ("--trusted: no guard, no wall", {}, ["--trusted"]),
}


def _descendants(root: int) -> list[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        kids = [p for p, pp in parents.items() if pp == pid]
        out += kids
        todo += kids
    return out


def _seccomp_modes(pids: list[int]) -> dict[int, int]:
    modes = {}
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        found = re.search(r"^Seccomp:\s*(\d+)", status, re.M)
        if found:
            modes[pid] = int(found.group(1))
    return modes


def run(args: list[str], env: dict, watch: bool = False) -> dict:
    """Run ``advice ARGS`` once: elapsed and CPU seconds, exit code, JSON,
    stderr and, with ``watch``, the seccomp modes seen in its descendants
    (polled every 20 ms: only for the untimed runs)."""
    start = time.perf_counter()
    proc = subprocess.Popen([*advice_command(), *args], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: dict = {}
    readers = [threading.Thread(target=lambda k, s: out.__setitem__(k, s.read()), args=pair)
               for pair in (("out", proc.stdout), ("err", proc.stderr))]
    for t in readers:
        t.start()
    modes: dict[int, int] = {}
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG if watch else 0)
        if pid:
            break
        modes.update(_seccomp_modes(_descendants(proc.pid)))
        time.sleep(0.02)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    try:
        data = json.loads(out["out"])
    except ValueError:
        raise SystemExit(f"bench/wall.py: no JSON from advice {' '.join(args)} "
                         f"(exit {proc.returncode}):\n{out['err']}")
    return {"elapsed": elapsed, "cpu": usage.ru_utime + usage.ru_stime,
            "seconds": data.get("seconds"), "code": proc.returncode, "data": data,
            "stderr": out["err"], "modes": modes}


def figures(result: dict) -> tuple:
    """What must be the same on every side: exit code and JSON, less timings."""
    return (result["code"],
            json.dumps({k: v for k, v in result["data"].items() if k not in VOLATILE},
                       sort_keys=True))


def check(job: dict, sides: str, say) -> dict:
    """The untimed first run of each side (and of the shipped command): the
    wall is up on A only, and all give the same figures."""
    first = {}
    for side in sides:
        _, env, extra = SIDES[side]
        first[side] = run([*job["copy"], *extra], env, watch=True)
        say(f"  check {side}: exit {first[side]['code']}, {first[side]['elapsed']:.2f} s, "
            f"seccomp modes seen {sorted(set(first[side]['modes'].values()))}")
    shipped = run(job["shipped"], {})
    say(f"  check shipped: exit {shipped['code']}, {shipped['elapsed']:.2f} s")
    problems = []
    if 2 not in first["A"]["modes"].values():
        problems.append("A: no descendant process in seccomp filter mode: the wall is not up")
    if WARNING in first["A"]["stderr"]:
        problems.append("A: the engine says the wall lacks a mechanism")
    if 2 in first["B"]["modes"].values():
        problems.append("B: a descendant process is in seccomp filter mode")
    if WARNING not in first["B"]["stderr"]:
        problems.append("B: no warning about the missing mechanisms")
    if "C" in first and 2 in first["C"]["modes"].values():
        problems.append("C: a descendant process is in seccomp filter mode")
    base = figures(first["A"])
    for name, r in [*first.items(), ("shipped", shipped)]:
        if figures(r) != base:
            problems.append(f"{name}: figures differ from A's")
    if problems:
        raise SystemExit("bench/wall.py: " + "; ".join(problems))
    return {"figures": base, "exit": first["A"]["code"],
            "walled_processes": sum(1 for m in first["A"]["modes"].values() if m == 2)}


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def bench(name: str, job: dict, runs: int, sides: str, say) -> dict:
    say(f"{name}: {job['what']}")
    checked = check(job, sides, say)
    results: dict[str, list[dict]] = {s: [] for s in sides}
    for i in range(1, runs + 1):
        for side in sides:
            _, env, extra = SIDES[side]
            r = run([*job["copy"], *extra], env)
            if figures(r) != checked["figures"]:
                raise SystemExit(f"bench/wall.py: {name} run {i} side {side}: figures differ")
            results[side].append(r)
            say(f"  {name} run {i}/{runs} {side} ({SIDES[side][0]}): {r['elapsed']:.3f} s elapsed, "
                f"{r['cpu']:.3f} s CPU, job {r['seconds']:.3f} s")
    out = {"what": job["what"], "command_A": ["advice", *job["copy"]], "runs": runs,
           "exit": checked["exit"], "same_figures": True,
           "walled_processes_seen": checked["walled_processes"], "sides": {}, "ratios": {}}
    for side in sides:
        out["sides"][side] = {"label": SIDES[side][0],
                              **{m: {**summary([r[m] for r in results[side]]),
                                     "all": [r[m] for r in results[side]]}
                                 for m in ("elapsed", "cpu", "seconds")}}
    for side in sides.replace("B", ""):
        out["ratios"][f"{side}/B"] = {
            m: {**summary([a[m] / b[m] for a, b in zip(results[side], results["B"])]),
                "all": [a[m] / b[m] for a, b in zip(results[side], results["B"])]}
            for m in ("elapsed", "cpu", "seconds")}
    return out


def report(name: str, r: dict) -> None:
    print(f"{name}: {r['what']}, {r['runs']} runs per side, exit {r['exit']} on every side, "
          f"same figures on every side and as shipped")
    print(f"  {'side':34} {'elapsed s':>22} {'CPU s':>22} {'job s':>22}")
    for side, s in r["sides"].items():
        cells = [f"{s[m]['median']:7.3f} ({s[m]['min']:.3f}-{s[m]['max']:.3f})"
                 for m in ("elapsed", "cpu", "seconds")]
        print(f"  {side + ' ' + s['label']:34} " + " ".join(f"{c:>22}" for c in cells))
    for ratio, q in r["ratios"].items():
        cells = [f"{q[m]['median']:7.3f} ({q[m]['min']:.3f}-{q[m]['max']:.3f})"
                 for m in ("elapsed", "cpu", "seconds")]
        print(f"  {'median ratio ' + ratio:34} " + " ".join(f"{c:>22}" for c in cells))
    a_b = r["ratios"]["A/B"]["elapsed"]["median"]
    print(f"  the wall adds {100 * (a_b - 1):+.1f}% (median of the pairwise elapsed ratios): "
          f"{'within' if a_b <= 1.05 else 'NOT within'} 5%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", action="append", choices=("krk", "tictactoe"),
                        help="the job to measure (repeatable; default: both)")
    parser.add_argument("--runs", type=int, default=5, help="timed pairs A B (default: 5)")
    parser.add_argument("--trusted-side", action="store_true",
                        help="also run side C, the copy with --trusted (no guard, no wall)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--progress", action="store_true",
                        help="progress on stderr even when it is not a terminal")
    opts = parser.parse_args()
    if opts.runs < 1:
        parser.error("--runs must be at least 1")
    verbose = opts.progress or sys.stderr.isatty()

    def say(line: str) -> None:
        if verbose:
            print(line, file=sys.stderr, flush=True)

    sides = "ABC" if opts.trusted_side else "AB"
    out = {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "cores": os.cpu_count(),
           "load_before": os.getloadavg(), "jobs": {}}
    with tempfile.TemporaryDirectory(prefix="advice-wall-bench-") as folder:
        jobs = prepare(Path(folder))
        for name in opts.job or ("krk", "tictactoe"):
            out["jobs"][name] = bench(name, jobs[name], opts.runs, sides, say)
    out["load_after"] = os.getloadavg()
    if opts.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['date']}, {out['cores']} cores, load average "
          f"{out['load_before'][0]:.2f} before, {out['load_after'][0]:.2f} after")
    for name, r in out["jobs"].items():
        report(name, r)
    print("medians, (min-max); ratios are the median of the pairwise ratios A/B of runs "
          "taken one after the other")


if __name__ == "__main__":
    main()
