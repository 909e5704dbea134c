"""The example assignments shipped under ``kb/assignments/``, and copying
one out for a teacher to read, change and grade with."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.prolog import BadInput, kb_path

#: the file that makes a folder under kb/assignments an example
ASSIGNMENT_FILE = "assignment.toml"


def examples() -> list[str]:
    """The names of the example assignments (the folders under
    ``kb/assignments`` that hold an assignment file), in order."""
    root = kb_path("assignments")
    return sorted(p.parent.name for p in root.glob(f"*/{ASSIGNMENT_FILE}"))


def copy_example(name: str, folder: str | Path) -> Path:
    """Copy the example assignment ``name`` into ``folder`` (made when
    missing; it must hold nothing yet) and return the copy's assignment
    file."""
    if name not in examples():
        raise BadInput(f"unknown example assignment {name!r}: choose "
                       f"{', '.join(examples())}")
    target = Path(folder)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise BadInput(f"{folder}: {'is a file' if not target.is_dir() else 'is not empty'}; "
                       "give a new folder for the example")
    try:
        shutil.copytree(kb_path(f"assignments/{name}"), target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    except OSError as error:
        raise BadInput(f"{folder}: cannot copy the example there: "
                       f"{error.strerror or error}") from None
    return target / ASSIGNMENT_FILE
