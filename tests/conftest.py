"""Shared fixtures: the CLI run in-process, and paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parent.parent


def command_lines() -> dict[int, bytes]:
    """Every process's command line (arguments joined by NUL), by pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:  # it ended meanwhile
                continue
    return found
SHARED_REFERENCE = ROOT.parent / "shared" / "reference"


class CliRun:
    """The outcome of one ``advice`` command run in this process."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def cli(capsys):
    """Run ``advice ARGS...`` in-process; returns a :class:`CliRun`."""

    def run(*args: str) -> CliRun:
        code = main(list(args))
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)

    return run
