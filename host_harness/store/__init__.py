"""The SQLite store: the ``host-kv-*`` contract on a project's files, and which file a namespace lives in.

* :class:`SqliteKV`, :data:`DEFAULT_BUSY_TIMEOUT_MS`, :func:`check_name`, :func:`contains` -- one
  SQLite file (``kv.py``);
* :class:`Project`, :class:`StoreRouter`, :class:`Route`, :data:`HOST_NS`, :data:`DISCIPLINES`,
  :data:`RESERVED_DISCIPLINES` -- the project's stores and the reserved ``host`` namespace (``router.py``);
* :data:`MIGRATIONS`, :data:`STORE_TABLES` -- the schema (``schema.py``);
* :class:`Digest`, :func:`tracked` -- the digests of the vector namespaces (``digest.py``);
* :class:`LockBudget`, :class:`WriteLockBusy`, :func:`is_busy` -- lock waits (``locks.py``; the
  writers' queue is ``queue.py``);
* :mod:`~host_harness.store.sqlite_files` -- the files SQLite opens, checked first;
* :mod:`~host_harness.store.topk` -- the cosine top-k over float32 rows both stores rank vectors by
  (the SQLite store's scan and persisted index in ``host_harness.vectors``, and ``pg/vectors.py``);
* :mod:`~host_harness.store.replay` -- the spool's replay ledger in SQLite (``pg/replay.py`` keeps it
  in the PostgreSQL store).

``enabled_list.py`` (editing ``.gm/disciplines/enabled.txt``, which the router reads) is imported by
its own name: it needs the guest's secret check, which a hook or a call never loads. ``pg/`` is the
PostgreSQL store; it is loaded only when a project uses one, so nothing here imports it.
"""

from host_harness.store import sqlite_files
from host_harness.store.digest import Digest, tracked
from host_harness.store.kv import DEFAULT_BUSY_TIMEOUT_MS, SqliteKV, check_name, contains
from host_harness.store.locks import LockBudget, WriteLockBusy, is_busy
from host_harness.store.router import DISCIPLINES, HOST_NS, RESERVED_DISCIPLINES, Project, Route, StoreRouter
from host_harness.store.schema import MIGRATIONS, STORE_TABLES

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS", "DISCIPLINES", "HOST_NS", "MIGRATIONS", "RESERVED_DISCIPLINES", "STORE_TABLES",
    "Digest", "LockBudget", "Project", "Route", "SqliteKV", "StoreRouter", "WriteLockBusy", "check_name",
    "contains", "is_busy", "sqlite_files", "tracked",
]
