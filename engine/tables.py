"""Advice tables in the engine: parse, check against the KB, compile, load.

>>> from engine.tables import load_table
>>> t = load_table("my_table.adv")                 # doctest: +SKIP
>>> t.domain, t.module                             # doctest: +SKIP
('my_domain', 'advice_my_table_...')
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
from engine.cache import cache_dir, keep_recent, write_whole
from engine.chess_io import fen_material
from engine.domains import Domain, declarations, describe
from engine.prolog import BadInput, InterfaceError, KBLoadError, atom, integer, kb_path, session

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


def find_kb(name: str, here: Path | None = None) -> Path | None:
    """The ``.pl`` file a knowledge-base name stands for, or None.

    A path to an existing file (absolute, or relative to ``here``, by
    default the working directory) is
    taken as it is, with or without ``.pl``; then the name is looked up
    under the ``kb`` package (``folder/name`` is ``kb/folder/name.pl``),
    and a bare name in any of its folders when just one file has it.
    """
    file = name if name.endswith(".pl") else name + ".pl"
    for candidate in (here / file if here else Path(file), kb_path(file)):
        if candidate.is_file():
            return candidate.resolve()
    if "/" not in name:
        found = sorted(kb_path("").rglob(file))
        if len(found) == 1:
            return found[0].resolve()
    return None


def shipped_kbs(exporting: str) -> list[Path]:
    """The ``.pl`` files under ``kb`` whose module exports ``exporting``
    (``name/arity``), found by reading their module headers (nothing runs)."""
    name, arity = exporting.rsplit("/", 1)
    files = json.loads(session().ask(
        f"bridge:shipped_modules_json({atom(name)}/{integer(int(arity))}, Out)",
        what="finding the shipped knowledge bases"))
    return [Path(f) for f in files]


def load_domain(name: str) -> Domain:
    """Load the AL0 domain a knowledge-base name stands for (see :func:`find_kb`)."""
    if Path(name).is_dir():
        raise BadInput(f"{name}: is a directory, not a knowledge base (.pl file)")
    path = find_kb(name)
    if path is None:
        raise BadInput(f"no knowledge base {name!r}: looked for {name} and "
                       f"{kb_path(name if name.endswith('.pl') else name + '.pl')}")
    return describe(vocabulary(path).module)


def chess_domain_for(fen: str) -> Domain:
    """The shipped chess domain whose material is that of ``fen`` (in
    either colours)."""
    white, black = fen_material(fen)
    domains = [load_domain(str(path)) for path in shipped_kbs("chess_material/2")]
    for domain in domains:
        if domain.chess.matches(white, black) or domain.chess.matches(black, white):
            return domain
    raise BadInput(f"no shipped chess domain has the material of FEN {fen!r} (White "
                   f"{white or 'nothing'}, Black {black or 'nothing'}): the endgames are "
                   f"{', '.join(str(d.chess) for d in domains)}; give a domain of your own "
                   "with --kb")


def shipped_demo() -> tuple[Path, str]:
    """The table ``make demo`` plays, and what it shows (``kb/demo.pl``)."""
    s = session()
    s.use_module("demo.pl")
    data = json.loads(s.ask("demo:demo_json(Out)"))
    return kb_path(data["path"]), data["description"]


def domain_file(table: ast.Table) -> Path:
    """The ``.pl`` file a table's ``uses`` names.

    A path to an existing file (absolute, or relative to the table's
    directory) is taken as it is, with or without ``.pl``; otherwise the
    name is looked up under the ``kb`` package (see :func:`find_kb`).
    """
    from advice.errors import AdviceCheckError

    if table.uses is None:
        raise AdviceCheckError([Diagnostic(
            "error", "the table needs a `uses` line naming its knowledge base "
            "(uses folder/name for a module under kb/, or the name of a .pl file "
            "beside the table)", table.name_span)], table.source)
    found = find_kb(table.uses, Path(table.filename).parent)
    if found is not None:
        return found
    name = table.uses if table.uses.endswith(".pl") else table.uses + ".pl"
    here = Path(table.filename).parent
    raise AdviceCheckError([Diagnostic(
        "error", f"no knowledge base {table.uses!r}: looked for {here / name} and "
        f"{kb_path(name)}", table.uses_span or table.span)], table.source)


def vocabulary(path: Path) -> KBVocabulary:
    """Load an AL0 domain module and read what it offers tables."""
    s = session()
    s.load_file(path)
    data = json.loads(s.ask(f"bridge:module_vocabulary({atom(str(path))}, Out)"))
    if data["module"] is None:
        raise KBLoadError(f"{path}: not a module: an AL0 knowledge base must be a module")
    predicates: dict[str, set[int]] = {}
    for p in data["predicates"]:
        predicates.setdefault(p["name"], set()).add(p["arity"])
    declared = declarations(data["module"], what=f"reading the declarations of {path}")
    if declared["missing"]:
        raise InterfaceError(str(path), declared["missing"])
    return KBVocabulary(data["module"], {k: frozenset(v) for k, v in predicates.items()},
                        frozenset(data["move_constraints"]), frozenset(declared["interface"]))


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
    source = compiled.source().encode("utf-8")
    if _cached(target) != source:  # missing, damaged or changed: written afresh
        write_whole(target, source)
    keep_recent(target)
    # named by its content, and just checked to hold what was compiled: the
    # engine's own, loaded unchecked
    session().load_file(target, context="user", reload=False, trusted=True)
    session().use_module("al0/al0.pl")
    return LoadedTable(table, compiled, dfile, tuple(warnings))


def _cached(path: Path) -> bytes | None:
    """The bytes of the compiled table ``path`` in the cache, or None when
    there is no regular file to read there. The caller compares them, byte
    for byte, with what it has just compiled from the checked table (the
    module name, and so the file's name, carries a digest of that text):
    a file changed in any way, or not UTF-8, is written afresh, never
    loaded as it is."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        return path.read_bytes()
    except OSError:
        return None
