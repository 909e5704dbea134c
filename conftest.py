"""pytest set-up for the whole tree (tests and doctests): the test run
keeps its compiled tables and tablebases apart from a user's cache, in a
folder of its own that it removes when it ends.  The processes of a
parallel run (pytest -n) inherit the folder from the one that starts
them, so they share it and each tablebase is built once; only that one
makes and removes it."""

import atexit
import os
import shutil
import tempfile

if "ADVICE_CACHE_DIR" not in os.environ:
    os.environ["ADVICE_CACHE_DIR"] = tempfile.mkdtemp(prefix="advice-test-cache-")
    atexit.register(shutil.rmtree, os.environ["ADVICE_CACHE_DIR"], ignore_errors=True)
