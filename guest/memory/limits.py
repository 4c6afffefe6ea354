"""The memory verbs' request bounds and recall modes, as plain constants.

Nothing here imports the embedder, so a host can describe the verbs (the MCP server's tool schemas,
``host_harness/mcp/schemas.py``) without the model files or the component: ``guest/memory/verbs.py``
and ``guest/memory/recall.py`` validate requests against these same values.
"""

from __future__ import annotations

MAX_TEXT_BYTES = 64 * 1024
MAX_QUERY_BYTES = 8 * 1024
DEFAULT_LIMIT = 8
MAX_LIMIT = 100
MODES = ("hybrid", "vector", "keyword")
