"""Where the engine keeps what it computes once: compiled tables and
tablebases. ``ADVICE_CACHE_DIR`` overrides the place; otherwise it is
``$XDG_CACHE_HOME/advice`` or ``~/.cache/advice``.

Compiled tables (``tables/``) are kept to the :data:`KEEP` most recently
used; ``advice cache clear`` empties the cache (see :func:`clear`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from engine.prolog import BadInput

#: How many compiled tables the cache keeps (the most recently used).
KEEP = 100

#: Marks a folder the engine created as its cache (https://bford.info/cachedir/),
#: so that clearing it may remove everything in it.
TAG = "CACHEDIR.TAG"
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# The cache of the advice command: compiled tables and tablebases.\n")


def cache_dir(*parts: str) -> Path:
    """The cache directory (or a subdirectory of it), created if missing.

    Raises :class:`BadInput` naming the setting and the path when the
    folder cannot be created (e.g. ``ADVICE_CACHE_DIR`` names a file).
    """
    root, setting = _root()
    path = root.joinpath(*parts)
    try:
        if not root.is_dir():
            root.mkdir(parents=True)
            (root / TAG).write_text(_TAG_TEXT)
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BadInput(f"{setting}: cannot create the cache folder {path}: "
                       f"{_blocking(path) or error.strerror or error}") from None
    return path


def write_whole(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file, so that a
    reader (another ``advice`` command, another process of a parallel
    test run) never sees half of it.

    Raises :class:`BadInput` naming the file and the reason when it cannot
    be written (a full disk, a read-only folder, a folder where the file
    should be); no temporary file is left behind then.
    """
    temporary = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        with open(temporary, "wb") as out:
            out.write(content)
        if path.is_dir() and not path.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "a folder stands where the file should be", path)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise cache_error(f"cannot write {path}", error) from None
    except BaseException:  # e.g. Ctrl-C: no half-written file either
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise


def cache_error(doing: str, error: OSError) -> BadInput:
    """A :class:`BadInput` saying what could not be done in the cache and why,
    naming the setting that chose the cache folder."""
    _, setting = _root()
    if isinstance(error, IsADirectoryError):
        reason = "a folder stands there, not a file (advice cache clear empties the cache)"
    else:
        reason = error.strerror or str(error)
    return BadInput(f"{setting}: {doing}: {reason}")


def _blocking(path: Path) -> str | None:
    """What stands where a folder of ``path`` should be, if a file does."""
    for folder in (path, *path.parents):
        if folder.exists():
            return None if folder.is_dir() else f"{folder} is a file"
    return None


def cache_root() -> Path:
    """The cache folder the settings name now (not created)."""
    return _root()[0]


def _root() -> tuple[Path, str]:
    """The cache folder and the setting that chose it, for messages."""
    base = os.environ.get("ADVICE_CACHE_DIR")
    if base:
        return Path(base), f"ADVICE_CACHE_DIR={base}"
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "advice", f"XDG_CACHE_HOME={xdg}"
    return Path.home() / ".cache" / "advice", "the cache folder in your home"


def keep_recent(used: Path, keep: int = KEEP) -> None:
    """Mark the cached file ``used`` as used now, and delete all but the
    ``keep`` most recently used files of its folder.

    Safe while other processes use the same folder: a file deleted under
    us is skipped.
    """
    try:
        os.utime(used)
    except FileNotFoundError:
        return
    except OSError as error:
        raise cache_error(f"cannot mark {used} as used", error) from None
    try:
        files = sorted(_stats(used.parent.iterdir()), key=lambda f: f[1].st_mtime, reverse=True)
        for path, _ in files[keep:]:
            if path != used:
                path.unlink(missing_ok=True)
    except OSError as error:
        raise cache_error(f"cannot prune the cache folder {used.parent}", error) from None


def _stats(paths) -> list[tuple[Path, os.stat_result]]:
    """The regular files among ``paths`` with their stat, skipping any that vanish."""
    found = []
    for path in paths:
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        if path.is_file():
            found.append((path, stat))
    return found


@dataclass(frozen=True)
class Usage:
    """What the cache holds: its folder, the number of files and their bytes."""

    folder: Path
    files: int
    size: int


def usage() -> Usage:
    """The cache folder and what is in it (nothing when it does not exist yet)."""
    root, _ = _root()
    if root.exists() or _blocking(root):
        root = cache_dir()  # refuses a file where the folder should be
    try:
        files = [(p, stat) for p, stat in _stats(root.rglob("*")) if p.name != TAG]
    except OSError as error:
        raise cache_error(f"cannot read the cache folder {root}", error) from None
    return Usage(root, len(files), sum(stat.st_size for _, stat in files))


def clear() -> Usage:
    """Empty the cache; returns what was removed.

    The folder the engine chose or created (it holds :data:`TAG`) is
    emptied; in a folder that ``ADVICE_CACHE_DIR`` names and that existed
    before, only the compiled tables are removed, since other files there
    may not be ours.
    """
    before = usage()
    root = before.folder
    try:
        if (root / TAG).is_file() or not os.environ.get("ADVICE_CACHE_DIR"):
            for path in root.glob("*"):
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                elif path.name != TAG:
                    path.unlink(missing_ok=True)
        else:
            for path in root.glob("tables/*.pl"):
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
    except OSError as error:
        raise cache_error(f"cannot clear the cache folder {root}", error) from None
    after = usage()
    return Usage(root, before.files - after.files, before.size - after.size)
