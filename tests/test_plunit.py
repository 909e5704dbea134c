"""The Prolog-side unit tests (plunit files beside the code), run by pytest."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

KB = Path(__file__).resolve().parent.parent / "kb"
PLUNIT_FILES = sorted(KB.rglob("test_*.pl"))


@pytest.fixture(scope="module", autouse=True)
def krk_table():
    """The KRK table the KRK domain's facts are made from (built once)."""
    from engine.tablebases import Store, parse_signature

    Store().ensure(parse_signature("KRK"))


@pytest.mark.parametrize("path", PLUNIT_FILES, ids=lambda p: str(p.relative_to(KB)))
def test_plunit(path: Path):
    done = subprocess.run(
        ["swipl", "-g", "run_tests", "-t", "halt", str(path)],
        capture_output=True, text=True, timeout=1200,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert "All" in report and "passed" in report, report
    assert "ERROR" not in report and "Warning" not in report, report
