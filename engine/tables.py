"""Advice tables in the engine: parse, check against the KB, compile, load.

>>> from engine.tables import load_table
>>> t = load_table("kb/games/tictactoe.adv")      # doctest: +SKIP
>>> t.domain, t.module                             # doctest: +SKIP
('tictactoe_al0', 'advice_tictactoe_...')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from advice import ast
from advice.checker import KBVocabulary, check_or_raise
from advice.compiler import CompiledTable, compile_table
from advice.errors import Diagnostic
from advice.parser import parse, parse_file
from engine.cache import cache_dir
from engine.prolog import KBLoadError, atom, kb_path, session

AL0_INTERFACE = ["legalmove/3", "to_move/2", "depth/2", "reset_depth/2", "outcome/2",
                 "move_text/3"]
MODES = ("compiled", "interpreted")


@dataclass(frozen=True)
class LoadedTable:
    """A checked table, compiled and loaded into Prolog with its KB."""

    table: ast.Table
    compiled: CompiledTable
    domain_file: Path
    warnings: tuple[Diagnostic, ...]

    @property
    def module(self) -> str:
        """The Prolog module holding the compiled table."""
        return self.compiled.module

    @property
    def domain(self) -> str:
        """The Prolog module of the table's knowledge base."""
        return self.compiled.domain

    def context(self, mode: str = "compiled") -> str:
        """Prolog text of the AL0 search context for ``mode``."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}: choose compiled or interpreted")
        return f"ctx({mode}, {atom(self.module)}, {atom(self.domain)})"


def domain_file(table: ast.Table) -> Path:
    """The ``.pl`` file a table's ``uses`` names.

    A path to an existing file (absolute, or relative to the table's
    directory) is taken as it is, with or without ``.pl``; otherwise the
    name is looked up under the ``kb`` package (``chess/krk`` is
    ``kb/chess/krk.pl``).
    """
    from advice.errors import AdviceCheckError

    if table.uses is None:
        raise AdviceCheckError([Diagnostic(
            "error", "the table needs a `uses` line naming its knowledge base "
            "(e.g. uses chess/krk)", table.name_span)], table.source)
    name = table.uses if table.uses.endswith(".pl") else table.uses + ".pl"
    here = Path(table.filename).parent
    for candidate in (here / name, kb_path(name)):
        if candidate.is_file():
            return candidate.resolve()
    raise AdviceCheckError([Diagnostic(
        "error", f"no knowledge base {table.uses!r}: looked for {here / name} and "
        f"{kb_path(name)}", table.uses_span or table.span)], table.source)


def vocabulary(path: Path) -> KBVocabulary:
    """Load an AL0 domain module and read what it offers tables."""
    s = session()
    kb = s.load_file(path)
    data = json.loads(s.ask(f"bridge:module_vocabulary({atom(str(path))}, Out)"))
    if data["module"] is None:
        raise KBLoadError(f"{path}: not a module: an AL0 knowledge base must be a module")
    predicates: dict[str, set[int]] = {}
    for p in data["predicates"]:
        predicates.setdefault(p["name"], set()).add(p["arity"])
    s.require(kb, AL0_INTERFACE, str(path))
    return KBVocabulary(data["module"], {k: frozenset(v) for k, v in predicates.items()},
                        frozenset(data["move_constraints"]))


def load_table(path: str | Path | None = None, *, text: str | None = None,
               filename: str = "<string>") -> LoadedTable:
    """Parse, check, compile and load a table from a file or a string.

    Raises :class:`advice.errors.AdviceError` for a bad table (with every
    error at once) and :class:`engine.prolog.EngineError` for a bad KB.
    """
    table = parse_file(path) if path is not None else parse(text or "", filename)
    dfile = domain_file(table)
    vocab = vocabulary(dfile)
    warnings = check_or_raise(table, vocab)
    compiled = compile_table(table, vocab)
    target = cache_dir("tables") / f"{compiled.module}.pl"
    if not target.is_file() or target.read_text() != compiled.source():
        target.write_text(compiled.source())
    session().load_file(target, context="user", reload=False)  # named by its content
    session().use_module("al0/al0.pl")
    return LoadedTable(table, compiled, dfile, tuple(warnings))
