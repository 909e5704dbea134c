"""pytest set-up for the whole tree (tests and doctests): the test run
keeps its compiled tables and tablebases apart from a user's cache.  The
processes of a parallel run (pytest -n) share one cache, so that each
tablebase is built once."""

import os
import tempfile
from pathlib import Path


def _test_cache() -> str:
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        return tempfile.mkdtemp(prefix="advice-test-cache-")
    shared = Path(tempfile.gettempdir()) / f"advice-test-cache-{run}"
    shared.mkdir(exist_ok=True)
    return str(shared)


os.environ.setdefault("ADVICE_CACHE_DIR", _test_cache())
