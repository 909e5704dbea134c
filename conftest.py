"""pytest set-up for the whole tree (tests and doctests): the test run
keeps its compiled tables and tablebase apart from a user's cache."""

import os
import tempfile

os.environ.setdefault("ADVICE_CACHE_DIR", tempfile.mkdtemp(prefix="advice-test-cache-"))
