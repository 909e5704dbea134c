"""Where the engine keeps what it computes once: compiled tables and
tablebases. ``ADVICE_CACHE_DIR`` overrides the place; otherwise it is
``$XDG_CACHE_HOME/advice`` or ``~/.cache/advice``."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    """The cache directory (or a subdirectory of it), created if missing."""
    base = os.environ.get("ADVICE_CACHE_DIR")
    if base:
        root = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "advice"
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path
