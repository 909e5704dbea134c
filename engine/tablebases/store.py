"""Built tablebases in the cache: built when missing or corrupt, once.

Each table is two files in ``<cache>/tablebases/``: ``KQKR.v1.tb``, the
bytes (White to move, then Black to move; see
:mod:`engine.tablebases.layout`), and ``KQKR.v1.json``, its figures and
the SHA-256 of the bytes.  A table whose bytes do not match is rebuilt.
Building a table first builds (or loads) the smaller tables its captures
and promotions lead to.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from engine.cache import cache_dir, write_whole
from engine.tablebases import retrograde
from engine.tablebases.layout import Layout
from engine.tablebases.material import Material
from engine.tablebases.probe import Tables
from engine.tablebases.statistics import statistics

VERSION = 1
#: progress(material, positions solved, positions to solve)
Progress = Callable[[Material, int, int], None]


@dataclass(frozen=True)
class Table:
    """A built table: where its bytes are, its figures, and how it came."""

    material: Material
    path: Path
    figures: dict
    source: str          # "built" or "cache"
    seconds: float


def folder() -> Path:
    return cache_dir("tablebases")


def paths(material: Material) -> tuple[Path, Path]:
    base = f"{material.name}.v{VERSION}"
    return folder() / f"{base}.tb", folder() / f"{base}.json"


class Store:
    """The tables of this cache, loaded on demand and kept in memory."""

    def __init__(self, progress: Progress | None = None):
        self._arrays: dict[Material, np.ndarray] = {}
        self._progress = progress
        self.tables = Tables(self.array)

    def array(self, material: Material) -> np.ndarray:
        """The (2, size) bytes of ``material`` (canonical), built if need be."""
        if material not in self._arrays:
            self.ensure(material)
        return self._arrays[material]

    def ensure(self, material: Material, *, rebuild: bool = False) -> Table:
        """The table of ``material`` (canonical), from the cache or built
        (after the tables it depends on)."""
        material = material.canonical()
        data, meta = paths(material)
        if not rebuild:
            cached = self._read(material, data, meta)
            if cached is not None:
                return cached
        for smaller in sorted(material.successors(), key=lambda m: m.name):
            self.array(smaller)
        started = time.perf_counter()
        layout = Layout(material)
        tick = (lambda done, total: self._progress(material, done, total)) \
            if self._progress else None
        solved = retrograde.build(layout, self.tables, tick)
        seconds = time.perf_counter() - started
        values = solved.values
        figures = {**statistics(solved), "build_seconds": round(seconds, 3)}
        write_whole(data, values.tobytes())
        write_whole(meta, json.dumps({"version": VERSION, "material": material.name,
                                      "size": layout.size,
                                      "sha256": hashlib.sha256(values.tobytes()).hexdigest(),
                                      "figures": figures}, indent=1).encode())
        self._arrays[material] = values
        return Table(material, data, figures, "built", seconds)

    def _read(self, material: Material, data: Path, meta: Path) -> Table | None:
        started = time.perf_counter()
        try:
            info = json.loads(meta.read_text())
            raw = data.read_bytes()
        except (OSError, ValueError):
            return None
        size = Layout(material).size
        if (info.get("version") != VERSION or info.get("size") != size
                or len(raw) != 2 * size or hashlib.sha256(raw).hexdigest() != info.get("sha256")):
            return None
        self._arrays[material] = np.frombuffer(raw, np.uint8).reshape(2, size)
        return Table(material, data, info["figures"], "cache", time.perf_counter() - started)
