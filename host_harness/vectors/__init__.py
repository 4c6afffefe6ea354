"""``host-vec-search`` over a SQLite store: scanned in memory, or from the persisted index.

* :class:`VectorIndex` -- the search over one store (``search.py``);
* :class:`IndexPolicy`, :class:`IndexDir`, :class:`Snapshot`, :data:`HOOK_SCAN_MAX` -- the persisted
  index in the user's cache and when it is used (``index.py``, its files ``files.py``: :class:`Base`).

The cosine top-k both stores rank by is the store layer's (``host_harness/store/topk.py``).
"""

from host_harness.vectors.files import Base
from host_harness.vectors.index import HOOK_SCAN_MAX, IndexDir, IndexPolicy, Snapshot
from host_harness.vectors.search import VectorIndex

__all__ = [
    "HOOK_SCAN_MAX", "Base", "IndexDir", "IndexPolicy", "Snapshot", "VectorIndex",
]
