"""``host-vec-search`` over a SQLite store: scanned in memory, or from the persisted index.

* :class:`VectorIndex` -- the search over one store (``search.py``);
* :class:`IndexPolicy`, :class:`IndexDir`, :class:`Snapshot`, :data:`HOOK_SCAN_MAX` -- the persisted
  index in the user's cache and when it is used (``index.py``, its files ``files.py``: :class:`Base`);
* :class:`VectorTable`, :data:`Matrix`, :func:`unit_query` -- cosine top-k over float32 rows, shared
  with the PostgreSQL store (``table.py``).
"""

from host_harness.vectors.files import Base
from host_harness.vectors.index import HOOK_SCAN_MAX, IndexDir, IndexPolicy, Snapshot
from host_harness.vectors.search import VectorIndex
from host_harness.vectors.table import Matrix, VectorTable, unit_query

__all__ = [
    "HOOK_SCAN_MAX", "Base", "IndexDir", "IndexPolicy", "Matrix", "Snapshot", "VectorIndex", "VectorTable",
    "unit_query",
]
