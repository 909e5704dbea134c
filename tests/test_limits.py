"""Limits that hold and no tracebacks (issue 65, point 7, and the fifth
item of point 3): long integer literals, goals of many operands, move
constraints of many alternatives, a cache that cannot be written, closed
standard streams, and no text of a user's file pasted into the Prolog a
table compiles to."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advice import parse
from advice.checker import MAX_ALTERNATIVES
from advice.compiler import INLINE_OR
from advice.parser import MAX_OPERANDS
from engine import cache
from engine.prolog import BadInput, kb_path, session

ROOT = Path(__file__).resolve().parent.parent
NIM = Path(__file__).resolve().parent / "data" / "domains"
TTT = str(kb_path("games/tictactoe.adv"))


def ttt_table(folder: Path, *, goal: str = "we_won", us: str = "depth = 0 and legal",
              name: str = "lim", better: str | None = None) -> Path:
    """A tic-tac-toe table whose rule condition and better-goal are ``goal``
    (or ``better``)."""
    path = folder / f"{name}.adv"
    path.write_text(f"table {name}\nuses games/tictactoe_al0\n"
                    f"rule r: if {goal} then a\n"
                    f"advice a:\n    better: {better or goal}\n    holding: true\n"
                    f"    us: {us}\n    them: nomove\n")
    return path


def advice(*args: str, **options) -> subprocess.CompletedProcess:
    """``advice ARGS`` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, **options)


# -- integer literals --------------------------------------------------------------

@pytest.mark.parametrize(("goal", "us", "line", "column"), [
    ("lit(" + "0" * 5000 + "1)", "depth = 0 and legal", 3, 16),
    ("we_won", "depth = " + "0" * 5000 + "1 and legal", 7, 17),
    ("lit(-" + "0" * 5000 + "1)", "depth = 0 and legal", 3, 16),
])
def test_an_integer_of_thousands_of_digits_is_refused_where_it_is(cli, tmp_path, goal, us,
                                                                   line, column):
    table = ttt_table(tmp_path, goal=goal, us=us)
    run = cli("check", str(table))
    assert (run.code, run.out) == (2, "")
    assert f"\n{table}:{line}:{column}: error: integer literal of 5,001 digits (at most 19: " \
           "write it without leading zeros)\n" in run.err
    assert "Traceback" not in run.err and len(run.err) < 1000  # the line is shown cut
    assert cli("check", TTT).code == 0  # still usable


def test_an_integer_of_thousands_of_significant_digits_is_out_of_range(cli, tmp_path):
    table = ttt_table(tmp_path, us="depth < " + "7" * 5000 + " and legal")
    run = cli("check", str(table))
    assert run.code == 2
    assert f"{table}:7:17: error: integer out of range (at most 9223372036854775807 " \
           "in magnitude)" in run.err


# -- goals of many operands, move constraints of many alternatives ----------------

@pytest.mark.parametrize("joiner", [" or ", " and "])
def test_a_goal_of_more_operands_than_the_limit_is_refused_at_once(cli, tmp_path, joiner):
    table = ttt_table(tmp_path, goal=joiner.join(["we_won"] * 50_000))
    started = time.perf_counter()
    run = cli("check", str(table))
    assert time.perf_counter() - started < 10
    assert run.code == 2
    column = len("rule r: if ") + MAX_OPERANDS * len("we_won" + joiner) - len(joiner) + 2
    assert f"\n{table}:3:{column}: error: too many operands in one goal or move constraint " \
           f"(at most {MAX_OPERANDS:,} joined by 'and', 'or' and 'then')" in run.err
    assert len(run.err) < 1000


def test_a_goal_of_as_many_operands_as_the_limit_checks_compiles_and_runs(cli, tmp_path):
    goal = " or ".join(["we_won"] * (MAX_OPERANDS - 1) + ["true"])
    table = ttt_table(tmp_path, goal=goal, better="we_won")
    started = time.perf_counter()
    run = cli("check", str(table))
    assert (run.code, run.err) == (0, "")
    assert time.perf_counter() - started < 8  # 16,000 `or`s took 15 s, 50,000 minutes
    run = cli("explain", str(table), "--json")
    assert run.code == 0, run.err
    assert run.json()["rule"] == "r"


def test_a_long_disjunction_compiles_into_clauses_of_its_own(cli, tmp_path):
    short = " or ".join(["we_threaten"] * INLINE_OR)
    long = " or ".join(["we_threaten"] * (INLINE_OR + 1) + ["not we_won"])
    table = ttt_table(tmp_path, goal=f"({short}) or ({long})")
    run = cli("compile", str(table))
    assert run.code == 0
    # one predicate for the long one in the rule's condition, one in the better-goal
    assert run.out.count("either(1, Pos, Root) :-\n") == INLINE_OR + 2
    assert run.out.count("either(2, Pos, Root) :-\n") == INLINE_OR + 2
    assert "either(1, Pos, Pos)" in run.out and "either(2, Pos, Root)" in run.out
    assert " ; ".join(["tictactoe_al0:we_threaten(Pos)"] * INLINE_OR) in run.out
    # the same choice in both modes: losing goals first, then one that holds
    for mode in ("compiled", "interpreted"):
        explained = cli("explain", str(table), "--mode", mode, "--json")
        assert explained.code == 0, explained.err
        assert explained.json()["rule"] == "r"


def test_a_move_constraint_of_too_many_alternatives_is_refused(cli, tmp_path):
    us = " and ".join(["(legal then legal)"] * 40)  # 2**40 alternatives
    table = ttt_table(tmp_path, us=us)
    started = time.perf_counter()
    run = cli("check", str(table))
    assert time.perf_counter() - started < 10
    assert run.code == 2
    assert f"{table}:7:9: error: this 'us:' part has more than {MAX_ALTERNATIVES:,} " \
           "alternatives once 'and' is distributed over 'then'" in run.err
    ok = ttt_table(tmp_path, us=" and ".join(["(legal then legal)"] * 9), name="nine")
    assert cli("check", str(ok)).code == 0  # 512 alternatives


# -- nothing of a user's file pasted into the compiled table ----------------------

def hostile_domain(folder: Path, marker: Path) -> Path:
    """A copy of the Nim domain whose module name holds newlines and a
    directive that creates ``marker``; its last path segment is ``evil``,
    so that a table may say `uses evil.pl`."""
    text = (NIM / "nim_al0.pl").read_text()
    name = (f"nim\\n:- initialization((open(\\'{marker}\\', write, S), close(S)))."
            "\\n% x/evil")
    folder.mkdir(exist_ok=True)
    (folder / "evil.pl").write_text(text.replace("module(nim_al0", f"module('{name}'", 1))
    table = folder / "t.adv"
    table.write_text(re.sub(r"(?m)^uses .*$", "uses evil.pl",
                            (NIM / "nim.adv").read_text()))
    return table


@pytest.mark.parametrize("command", ["check", "explain", "compile"])
def test_a_module_name_with_a_directive_is_quoted_in_the_compiled_table(cli, tmp_path,
                                                                        command):
    marker = tmp_path / "MARKER"
    table = hostile_domain(tmp_path / "kb", marker)
    # --trusted: the domain itself is harmless, the module name is the attack;
    # with the guard and the wall the compiled table must not run it either
    run = cli(command, str(table), "--trusted")
    assert run.code == 0, run.err
    assert not marker.exists()
    compiled = cli("compile", str(table), "--trusted").out
    first = compiled.splitlines()[0]
    assert first == ("% Advice table nim, compiled for the knowledge base 'nim\\xa\\:- "
                     f"initialization((open(\\'{marker}\\', write, S), close(S))).\\xa\\% "
                     "x/evil'.")
    assert "\n:- initialization" not in compiled


def test_a_module_name_with_a_newline_is_escaped_in_messages(cli, tmp_path):
    table = hostile_domain(tmp_path / "kb", tmp_path / "MARKER")
    (tmp_path / "kb" / "other.pl").write_text((tmp_path / "kb" / "evil.pl").read_text())
    table.write_text(table.read_text().replace("uses evil.pl", "uses other.pl"))
    run = cli("check", str(table), "--trusted")
    assert run.code == 2
    assert "the table uses 'other.pl', but the knowledge base is module 'nim\\x0a:- " \
           "initialization" in run.err
    assert "\n:- initialization" not in run.err


def own_table(folder: Path) -> Path:
    """A copy of the tic-tac-toe table under a name of its own: a Prolog
    session loads a module from one file only, and each test here has a
    cache folder of its own."""
    name = "t_" + re.sub(r"\W", "_", folder.name.lower())
    path = folder / f"{name}.adv"
    path.write_text(Path(TTT).read_text().replace("table tictactoe", f"table {name}", 1))
    return path


def cached_table(cli, folder: Path, table: Path) -> Path:
    """Check ``table`` with the cache in ``folder``; its compiled file."""
    run = cli("check", str(table))
    assert run.code == 0, run.err
    (compiled,) = (folder / "tables").glob(f"advice_{table.stem}_*.pl")
    return compiled


@pytest.mark.parametrize("content", [
    b"\xff\xfe not UTF-8\n",
    b":- initialization(halt).\n",
    None,  # the right text with one more clause
])
def test_a_tampered_compiled_table_in_the_cache_is_written_afresh(cli, tmp_path, monkeypatch,
                                                                  content):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))
    table = own_table(tmp_path)
    compiled = cached_table(cli, tmp_path, table)
    good = compiled.read_bytes()
    assert re.match(rb"% Advice table t_\w+, .*\n:- module\(advice_t_\w+_[0-9a-f]{16}, ", good)
    compiled.write_bytes(content if content is not None else good + b"rule(_, x, []).\n")
    run = cli("explain", str(table), "--json")
    assert (run.code, run.err) == (0, "")
    assert compiled.read_bytes() == good
    assert not list((tmp_path / "tables").glob("*.tmp*"))


def test_the_module_name_carries_a_digest_of_what_the_table_compiles_to(cli, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))
    first = cli("compile", str(ttt_table(tmp_path, goal="we_won"))).out
    second = cli("compile", str(ttt_table(tmp_path, goal="we_threaten"))).out
    name = re.compile(r":- module\((advice_lim_[0-9a-f]{16}), \[\]\)\.")
    assert name.search(first).group(1) != name.search(second).group(1)
    assert parse(ttt_table(tmp_path).read_text()).name == "lim"


# -- a cache that cannot be written -------------------------------------------------

@pytest.fixture
def tmpfs(tmp_path):
    """A tmpfs of 64 KiB (root only), unmounted afterwards; remount it
    read-only with :func:`read_only`."""
    folder = tmp_path / "tmpfs"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root?)")
    session().close()  # a Prolog process started before may not see the new mount
    yield folder
    session().close()
    subprocess.run(["umount", "-l", str(folder)], check=True)


def read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


@pytest.mark.parametrize("args", [("check", TTT), ("explain", TTT),
                                  ("verify", TTT, "--workers", "1"),
                                  ("tablebase", "KRK"), ("cache", "clear")])
def test_a_read_only_cache_is_one_line(cli, tmpfs, monkeypatch, args):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmpfs))
    table = own_table(tmpfs.parent)
    compiled = cached_table(cli, tmpfs, table)
    read_only(tmpfs)
    run = cli(*(str(table) if arg == TTT else arg for arg in args))
    assert run.code == 2, run.err
    assert run.err.startswith(f"advice: error: ADVICE_CACHE_DIR={tmpfs}: cannot ")
    assert run.err.endswith(": Read-only file system\n") and run.err.count("\n") == 1
    assert compiled.is_file()
    assert cli("games").code == 0  # still usable


@pytest.mark.parametrize("args", [("check", TTT), ("tablebase", "KRK")])
def test_a_full_disk_leaves_no_temporary_file(cli, tmpfs, monkeypatch, args):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmpfs))
    assert cli("cache").code == 0  # creates the folder and its tag
    (tmpfs / "filler").write_bytes(b"x" * 60_000)  # most of the 64 KiB
    run = cli(*args)
    assert run.code == 2
    assert re.fullmatch(rf"advice: error: ADVICE_CACHE_DIR={tmpfs}: cannot (write|create) "
                        r"\S+: No space left on device\n", run.err), run.err
    assert not [p for p in tmpfs.rglob("*") if ".tmp" in p.name]


def test_write_whole_leaves_no_temporary_file_when_the_write_fails(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))

    class Full:
        def __init__(self, file):
            self.file = file

        def __enter__(self):
            return self

        def __exit__(self, *exception):
            self.file.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cache, "open", lambda path, mode: Full(open(path, mode)), raising=False)
    target = tmp_path / "file.pl"
    with pytest.raises(BadInput) as raised:
        cache.write_whole(target, b"content")
    assert str(raised.value) == (f"ADVICE_CACHE_DIR={tmp_path}: cannot write {target}: "
                                 "No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_where_a_cache_file_should_be_is_named(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))
    table = own_table(tmp_path)
    compiled = cached_table(cli, tmp_path, table)
    compiled.unlink()
    compiled.mkdir()
    run = cli("check", str(table))
    assert (run.code, run.err) == (2, f"advice: error: ADVICE_CACHE_DIR={tmp_path}: cannot "
                                      f"write {compiled}: a folder stands there, not a file "
                                      "(advice cache clear empties the cache)\n")
    assert not list(compiled.parent.glob("*.tmp*"))
    assert cli("cache", "clear").code == 0
    assert cli("check", str(table)).code == 0


# -- closed standard streams ---------------------------------------------------------

STDOUT_CLOSED = ("advice: error: standard output is closed: what the command prints could "
                 "not be read (send it to a file, or to /dev/null)\n")
STDIN_CLOSED = ("advice: error: standard input is closed: a person's moves cannot be read "
                "(give them on standard input, or </dev/null to end the game at the first "
                "move)\n")


def closing(*fds: int):
    """A ``preexec_fn`` that closes the given descriptors in the child."""
    def close():
        for fd in fds:
            os.close(fd)
    return close


def test_a_closed_stdin_is_one_line():
    run = advice("play", "tictactoe", preexec_fn=closing(0))
    assert (run.returncode, run.stderr) == (2, STDIN_CLOSED)
    assert "MAX to move" in run.stdout


@pytest.mark.parametrize("args", [("play", "tictactoe"), ("search", "tictactoe", "--depth", "1")])
def test_a_closed_stdout_is_one_line(args):
    run = advice(*args, stdin=subprocess.DEVNULL, preexec_fn=closing(1))
    assert (run.returncode, run.stderr) == (2, STDOUT_CLOSED)


def test_closed_stdout_and_stderr_give_the_exit_status_alone():
    run = advice("search", "tictactoe", "--depth", "1", preexec_fn=closing(1, 2))
    assert run.returncode == 2


def test_a_closed_stderr_plays_as_with_it_open():
    run = advice("play", "tictactoe", stdin=subprocess.DEVNULL, preexec_fn=closing(2))
    assert run.returncode == 0
    assert run.stdout.endswith("MAX to move (free squares: 1 2 3 4 5 6 7 8 9): \n")
