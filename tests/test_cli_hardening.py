"""The command line never answers bad input with a traceback, and helps a
new user: deep goals, output paths, broken pipes, the cache, messages,
help and version, `uses` paths, shipped tables by name, JSON with a
person playing, and packaging (issue 13, items 9, 13-17, 19-21)."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

from advice import parse
from advice.ast import Span
from advice.errors import AdviceCheckError, Diagnostic
from advice.terms import Atom, Struct, conjunction, write
from engine import cache
from engine.cli import main
from engine.prolog import kb_path

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = Path(__file__).resolve().parent / "data" / "domains"
KRK = str(kb_path("chess/krk.adv"))
TTT = str(kb_path("games/tictactoe.adv"))
FEN = "2k5/8/2K5/8/8/8/8/7R w - - 0 1"


def table_with_goal(folder: Path, goal: str, name: str = "deep") -> Path:
    """A tic-tac-toe table whose rule condition and better-goal are ``goal``."""
    path = folder / f"{name}.adv"
    path.write_text(f"table {name}\nuses games/tictactoe_al0\n"
                    f"rule r: if {goal} then a\n"
                    f"advice a:\n    better: {goal}\n    holding: true\n"
                    "    us: depth = 0 and legal\n    them: nomove\n")
    return path


def advice(*args: str) -> subprocess.Popen:
    """``advice ARGS`` in a process of its own, its stdout a pipe."""
    return subprocess.Popen([sys.executable, "-m", "engine.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# -- 9. no tracebacks ------------------------------------------------------------

@pytest.mark.parametrize("goal", [" or ".join(["we_won"] * 500),
                                  " and ".join(["we_won"] * 1000),
                                  "not (" + " and ".join(["we_won"] * 1000) + ")",
                                  "(" + " and ".join(["we_won"] * 1000) + ") or we_won"])
def test_a_goal_of_a_thousand_operands_checks_and_compiles(cli, tmp_path, goal):
    table = table_with_goal(tmp_path, goal)
    run = cli("check", str(table))
    assert (run.code, run.err) == (0, "")
    assert run.out == f"{table}: table deep is correct (1 rules, 1 pieces of advice, 0 warnings)\n"
    run = cli("compile", str(table))
    assert run.code == 0
    assert run.out.count("tictactoe_al0:we_won(Pos)") == 2 * goal.count("we_won")


def test_the_writer_writes_deep_terms_and_flat_chains():
    assert write(conjunction([Atom("a"), Atom("b"), Atom("c")])) == "a, b, c"
    assert write(Struct(";", (Atom("a"), Struct(";", (Atom("b"), Atom("c")))))) == "a ; b ; c"
    assert write(Struct(",", (Struct(",", (Atom("a"), Atom("b"))), Atom("c")))) == "(a, b), c"
    assert write(Struct("\\+", (Struct(";", (Atom("a"), Atom("b"))),))) == "\\+ (a ; b)"
    deep: object = Atom("x")
    for _ in range(5000):
        deep = Struct("\\+", (deep,))
    assert write(deep) == "\\+ (" * 4999 + "\\+ x" + ")" * 4999
    assert write(conjunction([Atom("a")] * 20000)) == ", ".join(["a"] * 20000)


@pytest.mark.parametrize(("option", "path", "message"), [
    ("--dot", "{tmp}", "--dot {tmp}: is a folder; give the name of a file to write"),
    ("--dot", "{tmp}/no/tree.dot", "--dot {tmp}/no/tree.dot: the folder {tmp}/no does not "
     "exist; create it first (mkdir -p {tmp}/no)"),
    ("--svg", "{tmp}/file/tree.svg", "--svg {tmp}/file/tree.svg: {tmp}/file is a file, not "
     "a folder"),
])
def test_explain_refuses_an_output_file_it_cannot_write_before_any_work(cli, tmp_path, option,
                                                                        path, message):
    (tmp_path / "file").write_text("")
    # the table does not exist: the output is refused before the table is read
    run = cli("explain", str(tmp_path / "nowhere.adv"), option, path.format(tmp=tmp_path))
    expected = f"advice: error: {message.format(tmp=tmp_path)}\n"
    assert (run.code, run.out, run.err) == (2, "", expected)


@pytest.mark.parametrize(("path", "message"), [
    ("{tmp}/file", "--svg {tmp}/file: is a file; give a folder for the pictures (it is "
     "created when missing)"),
    ("{tmp}/file/boards", "--svg {tmp}/file/boards: cannot create the folder: {tmp}/file is "
     "a file"),
])
def test_play_refuses_a_picture_folder_before_the_game(cli, tmp_path, path, message):
    (tmp_path / "file").write_text("")
    run = cli("play", str(tmp_path / "nowhere.adv"), "--svg", path.format(tmp=tmp_path))
    expected = f"advice: error: {message.format(tmp=tmp_path)}\n"
    assert (run.code, run.out, run.err) == (2, "", expected)


def test_explain_writes_an_svg_tree(cli, tmp_path):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (make setup installs it)")
    svg = tmp_path / "tree.svg"
    run = cli("explain", KRK, "--fen", FEN, "--svg", str(svg))
    assert (run.code, run.err) == (0, f"wrote {svg}\n")
    assert "<svg" in svg.read_text()


def test_a_reader_that_goes_away_ends_the_command_quietly():
    process = advice("games")
    process.stdout.close()  # `advice games | head -0`: nobody reads
    assert process.wait(timeout=120) == 141
    assert process.stderr.read() == ""


def test_a_cache_folder_that_is_a_file_is_named(cli, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(blocker))
    run = cli("check", TTT)
    assert (run.code, run.err) == (2, f"advice: error: ADVICE_CACHE_DIR={blocker}: cannot create "
                                      f"the cache folder {blocker}/tables: {blocker} is a file\n")
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(blocker / "below"))
    run = cli("cache")
    assert (run.code, run.err) == (2, f"advice: error: ADVICE_CACHE_DIR={blocker}/below: "
                                      f"cannot create the cache folder {blocker}/below: "
                                      f"{blocker} is a file\n")


# -- 13. many warnings -----------------------------------------------------------

class CountingText(str):
    """A source text that counts how often it is split into lines."""

    splits = 0

    def split(self, *args, **kwargs):
        CountingText.splits += 1
        return super().split(*args, **kwargs)


def test_diagnostics_split_the_source_once():
    source = CountingText("a\n" * 1000)
    diagnostics = [Diagnostic("error", "bad", Span("t.adv", i, 1, i, 2)) for i in range(1, 1001)]
    text = str(AdviceCheckError(diagnostics, source))
    assert CountingText.splits == 1
    assert text.splitlines()[-1] == "... and 950 more errors"


def test_check_shows_the_first_50_warnings_then_counts_the_rest(cli, tmp_path):
    table = tmp_path / "many.adv"
    table.write_text("table many\nuses games/tictactoe_al0\nrule r: if true then a0\n" + "".join(
        f"advice a{i}:\n better: we_won\n holding: true\n us: depth = 0 and legal\n them: nomove\n"
        for i in range(60)))
    run = cli("check", str(table))
    lines = run.out.splitlines()
    assert run.code == 0
    assert [line for line in lines if ": warning: " in line] == [
        f"{table}:{4 + 5 * i}:8: warning: advice 'a{i}' is never used by any rule"
        for i in range(1, 51)]
    assert lines[-2:] == ["... and 9 more warnings",
                          f"{table}: table many is correct (1 rules, 60 pieces of advice, "
                          "59 warnings)"]


# -- 14. the cache ---------------------------------------------------------------

def test_the_compiled_tables_are_kept_to_the_most_recently_used(tmp_path):
    files = [tmp_path / f"advice_t{i}.pl" for i in range(105)]
    for i, path in enumerate(files):
        path.write_text("")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    cache.keep_recent(files[0], keep=100)  # the oldest, used now
    assert sorted(tmp_path.iterdir()) == sorted([files[0]] + files[6:])


def test_advice_cache_shows_and_clears_the_cache(cli, tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(root))
    (cache.cache_dir("tables") / "advice_t_0123456789.pl").write_text("x" * 1000)
    (root / "krk_tablebase.v1.fastrw").write_text("y" * 500)
    assert cli("cache").out == f"the cache: {root} (2 files, 0.0 MB)\n"
    assert cli("cache", "--json").json() == {"folder": str(root), "files": 2, "bytes": 1500}
    run = cli("cache", "clear")
    assert (run.code, run.out) == (0, f"cleared the cache {root}: removed 2 files (0.0 MB)\n")
    assert sorted(p.name for p in root.iterdir()) == [cache.TAG]


def test_clearing_a_folder_of_the_users_removes_only_the_compiled_tables(cli, tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path))  # existed before: not ours
    (cache.cache_dir("tables") / "advice_t_0123456789.pl").write_text("x")
    (tmp_path / "notes.txt").write_text("mine")
    assert cli("cache", "clear", "--json").json() == {
        "folder": str(tmp_path), "removed_files": 1, "removed_bytes": 1}
    assert (tmp_path / "notes.txt").read_text() == "mine"


# -- 15. messages ----------------------------------------------------------------

def test_a_missing_table_says_error_once(cli, tmp_path):
    missing = tmp_path / "missing.adv"
    assert cli("check", str(missing)).err == f"advice: error: {missing}: no such file\n"
    run = cli("check", "krk_plu")
    assert run.err == ("advice: error: krk_plu: no such file, nor a shipped table of that name "
                       "(`advice tables` lists them)\n")


def test_a_wrong_table_is_named_once_then_each_error(cli, tmp_path):
    bad = table_with_goal(tmp_path, "we_wonn", "bad")
    run = cli("check", str(bad))
    assert run.code == 2
    assert run.err.splitlines()[:2] == [
        f"advice: error: {bad}: 2 errors in the advice table",
        f"{bad}:3:12: error: unknown goal predicate 'we_wonn'; did you mean we_won?"]


# -- 16. help and version --------------------------------------------------------

def test_version(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out == f"advice {version('advice')}\n"


@pytest.mark.parametrize(("command", "defaults"), [
    ("search", ["--algo {minimax,alphabeta,ordered,tt,quiescence,id,mcts,expectiminimax}",
                "expectiminimax is for games of chance (default: alphabeta)"]),
    ("play", ["the seed of --algo mcts and of the dice (default: 0)",
              "stop after this many moves of the table (default: 100)",
              "games: who moves first (default: human)"]),
    ("verify", ["--defender random (default: 0)",
                "at most the number of cores (default: 1)",
                "as the book does (default: compiled)"]),
])
def test_help_shows_the_defaults(capsys, command, defaults):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for default in defaults:
        assert default in text


def test_search_help_says_how_each_game_reads_a_position(capsys):
    with pytest.raises(SystemExit):
        main(["search", "--help"])
    lines = capsys.readouterr().out.splitlines()
    assert "  nim          give the number of sticks, e.g. 21" in lines
    assert ("  tictactoe    give 9 squares row by row, each x, o or . (e.g. x...o....)"
            in lines)


# -- 17. `uses` paths ------------------------------------------------------------

@pytest.mark.parametrize(("uses", "path"), [
    ("krk.pl", "krk.pl"), ("chess/krk.pl", "chess/krk.pl"),
    ("../domains/my_game.pl", "../domains/my_game.pl"), ("./my_game", "./my_game"),
    ('"/home/me/My Game.pl"', "/home/me/My Game.pl"), ("chess / krk", "chess/krk"),
])
def test_uses_takes_a_pl_path(uses, path):
    assert parse(f"table t\nuses {uses}\n").uses == path


@pytest.fixture(scope="module")
def nim_folder(tmp_path_factory) -> Path:
    """A folder with a copy of the Nim domain in ``domains/`` (one for the
    module: a Prolog session holds one file per module name)."""
    folder = tmp_path_factory.mktemp("uses")
    (folder / "domains").mkdir()
    source = (DOMAINS / "nim_al0.pl").read_text().replace("module(nim_al0", "module(nim_uses")
    (folder / "domains" / "nim_uses.pl").write_text(source)
    return folder


@pytest.mark.parametrize("uses", ["chess/krk.pl", "krk.pl", "../domains/nim_uses.pl",
                                  "../domains/nim_uses", "./../domains/nim_uses.pl"])
def test_a_table_uses_a_pl_file_by_its_path(cli, nim_folder, tmp_path, uses):
    original = Path(KRK if "krk" in uses else DOMAINS / "nim.adv").read_text()
    table = nim_folder / tmp_path.name / "t.adv"
    table.parent.mkdir()
    table.write_text(re.sub(r"(?m)^uses .*$", f"uses {uses}", original))
    run = cli("check", str(table))
    assert (run.code, run.err) == (0, "")


# -- 19. shipped tables by name --------------------------------------------------

def test_advice_tables_lists_the_shipped_tables(cli):
    shipped = sorted(kb_path("").rglob("*.adv"))
    listed = cli("tables", "--json").json()["tables"]
    assert listed == [{"name": str(p.relative_to(kb_path("")).with_suffix("")),
                       "title": parse(p.read_text(), str(p)).title, "file": str(p)}
                      for p in shipped]
    assert ("chess/krk_plus   King and rook versus king (mate search, tightest squeeze, king "
            "toward king)") in cli("tables").out.splitlines()


@pytest.mark.parametrize("name", ["krk_plus", "krk_plus.adv", "chess/krk_plus",
                                  "chess/krk_plus.adv"])
def test_a_shipped_table_by_its_name(cli, tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    run = cli("check", name)
    assert run.out == (f"{kb_path('chess/krk_plus.adv')}: table krk_plus is correct (2 rules, "
                       "17 pieces of advice, 0 warnings)\n")


def test_a_file_of_that_name_comes_first(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("krk_plus.adv").write_text(Path(TTT).read_text())
    assert cli("check", "krk_plus.adv").out.startswith("krk_plus.adv: table tictactoe is correct")


def test_play_takes_a_shipped_table_by_name(cli):
    record = cli("play", "games/tictactoe", "--defender", "random", "--json").json()
    assert record["table"] == "tictactoe"
    assert record["lost"] is None  # tic-tac-toe's knowledge base knows no optimal count


# -- 20. JSON with a person playing ----------------------------------------------

@pytest.mark.parametrize(("args", "prompt"), [
    (["nim"], "MAX to move ("),
    ([TTT, "--defender", "human"], "Your move: "),
])
def test_play_json_with_a_person_keeps_stdout_json(cli, monkeypatch, args, prompt):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the person leaves at once
    run = cli("play", *args, "--json")
    assert run.json()["result"] == "abandoned"
    assert prompt in run.err


# -- 21. packaging ---------------------------------------------------------------

def test_the_wheel_ships_the_knowledge_without_its_tests(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("advice", "engine", "kb"):
        shutil.copytree(ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.qlf"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-v",
                            "-w", str(tmp_path / "wheel")], cwd=source, capture_output=True,
                           text=True, timeout=600)
    assert build.returncode == 0, build.stderr
    assert "absent from the `packages` configuration" not in build.stdout + build.stderr
    [wheel] = (tmp_path / "wheel").glob("*.whl")
    shipped = {name for name in zipfile.ZipFile(wheel).namelist()
               if name.startswith("kb/") and not name.endswith(".py")}
    expected = {str(p.relative_to(ROOT)) for p in (ROOT / "kb").rglob("*")
                if p.suffix in (".pl", ".adv", ".toml", ".md")
                and not p.name.startswith("test_")}
    assert shipped == expected


def test_a_table_compiled_into_the_cache_loads_whatever_cache_the_prolog_process_began_with(
        tmp_path, monkeypatch):
    # The Prolog process keeps the environment it started with; whether a
    # compiled table is the engine's own (loaded unchecked) is decided
    # where the table was written.  It was decided in the Prolog process,
    # and a test that started it with a cache of its own made every later
    # table there "a call into another module".
    from engine.prolog import session
    from engine.tables import load_table

    monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path / "first"))
    session().close()
    try:
        # tables of their own (a table's module is named for its text), so
        # that no earlier test has loaded them from elsewhere
        book = kb_path("chess/krk.adv").read_text()
        load_table(text=book.replace("rule edge_rule:", "rule edge_first:"),
                   filename="first.adv")  # starts a Prolog process with "first"
        monkeypatch.setenv("ADVICE_CACHE_DIR", str(tmp_path / "second"))
        table = load_table(text=book.replace("rule edge_rule:", "rule edge_second:"),
                           filename="second.adv")
        assert (tmp_path / "second" / "tables" / f"{table.compiled.module}.pl").is_file()
    finally:
        session().close()  # the next test's Prolog starts with its own cache
