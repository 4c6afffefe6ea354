"""Helpers shared by the test files (``from helpers.files import digest``).

* :mod:`helpers.files` -- digests of store files, SQLite side files left behind;
* :mod:`helpers.cli`   -- ``rs-learn-host`` invoked in this process (click's runner) on a target.

The older shared modules (``hostprocs``, ``stores``, ``envelopes``, ``gitstores``, ``agentclis``,
``browser``, ``docpages``, ``secret_corpus``, ``structured_helpers``...) live here too and are imported
by their own names (``from envelopes import ok``): pyproject.toml puts ``tests/helpers`` on the path.
"""
