"""pytest set-up for the whole tree (tests and doctests): the test run
keeps its compiled tables and tablebases apart from a user's cache.  The
processes of a parallel run (pytest -n) inherit the folder from the one
that starts them, so they share it and each tablebase is built once."""

import os
import tempfile

os.environ.setdefault("ADVICE_CACHE_DIR", tempfile.mkdtemp(prefix="advice-test-cache-"))
