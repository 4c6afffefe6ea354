"""rs-learn's wasmtime-py host harness.

The harness plays the plugkit wrapper around ``dist/rs_learn.wasm``: it serves the
six ``host-*`` imports (KV on SQLite, cosine search on numpy), routes namespaces
to per-discipline databases, runs one transaction per export call and provides
the ``rs-learn-host`` CLI.

numpy must run with ONE BLAS thread: the vector search is a single
matrix-vector product, and on a busy 2-core box a second BLAS thread made it
30 times slower. There is no threadpoolctl here, so the thread count is pinned
through the environment before anything imports numpy (an explicit setting by
the user wins).
"""

from __future__ import annotations

import os
import time

# When this package was first imported: the latest possible "process start" for budgets that
# count from it (the prompt-submit hook's); ``host_harness.hooks.protocol.process_started`` looks earlier.
IMPORTED_AT = time.monotonic()

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

__version__ = "0.1.0"

__all__ = ["__version__"]
