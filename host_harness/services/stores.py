"""``Stores``: the store of each database a call touches, opened once, and what the project has stored.

The store: the project's SQLite files (the default), or a PostgreSQL server when
``--store``/``$RS_LEARN_STORE``/``.gm/config.json`` name one (``host_harness/config/selection.py``).
Then every store of the project (the project store and each discipline) is a view of one
connection and one transaction per call (``host_harness/store/pg/kv.py``), with the same rules:
reader first, the write lock on the first change, the call run again when it was taken.
Nothing is written to ``.gm/rs-learn.db`` then. Each store comes with its vector search: the
SQLite file's (``host_harness/vectors/``) or the server's.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from host_harness.cachedir import default_cache_dir
from host_harness.config import Settings, StoreChoice, resolve_store
from host_harness.fs import confine
from host_harness.services.answers import AnswerLedger
from host_harness.services.transaction import Store, Transactions, UnusableStore
from host_harness.store import Project, SqliteKV, StoreRouter
from host_harness.vectors import IndexPolicy, VectorIndex

if TYPE_CHECKING:  # imported when a PostgreSQL store is chosen: a hook on SQLite does not pay for them
    from host_harness.store.pg.kv import PgSession
    from host_harness.store.pg.vectors import PgVectorIndex

Search: TypeAlias = "VectorIndex | PgVectorIndex"


def identity(info: os.stat_result | None) -> str:
    """A file's identity as of ``info`` (inode, size, modification time); ``-`` for an absent one."""
    return "-" if info is None else f"{info.st_ino}.{info.st_size}.{info.st_mtime_ns}"


class Stores(Transactions):
    """The project's stores, each with its vector search, opened as calls touch them."""

    def __init__(
        self,
        project: Project,
        scope: Mapping[str, Any] | None,
        busy_timeout_ms: int,
        store_factory: Callable[[Path, int], SqliteKV],
        index_policy: IndexPolicy | None,
        store: StoreChoice | None,
        settings: Settings,
    ) -> None:
        self.project = project
        # SQLite files or a PostgreSQL server (ConfigError for a bad choice)
        self.store = store if store is not None else resolve_store(settings)
        self.router = StoreRouter(self.project, scope, settings)
        self.busy_timeout_ms = busy_timeout_ms
        self.store_factory = store_factory
        # where and when vectors get a persisted index (ConfigError for a bad $RS_LEARN_VECTOR_INDEX)
        self.index_policy = index_policy or IndexPolicy.from_env(default_cache_dir())
        self._pg: PgSession | None = None
        if self.store.is_postgresql:
            self.router.stored_disciplines = self.stored_disciplines
        self.stores: dict[Path, tuple[Store, Search]] = {}
        self._last_db: Path | None = None  # the store of the latest operation (see _named)
        self.ledger: AnswerLedger | None = None  # the spool's replay ledger, if any
        super().__init__()

    def answer_ledger(self, path: Path) -> AnswerLedger:
        """The spool's replay ledger: the SQLite file ``path``, or a table of the PostgreSQL store."""
        from host_harness.store.replay import Ledger

        if self.store.is_postgresql:
            from host_harness.store.pg.replay import PgLedger

            return PgLedger(self._pg_session(), path)
        return Ledger(self.project.root, path)

    def connect(self) -> None:
        """Connect to a PostgreSQL store now (a :class:`PostgresError` names the problem); SQLite: nothing."""
        if self.store.is_postgresql:
            self._pg_session().connection()
            confine.ensure_gitignore(self.project.root)  # .gm/ holds logs and the spool: never commit them

    def stored_disciplines(self) -> list[str]:
        """The disciplines whose store exists (has been written), sorted."""
        if self.store.is_postgresql:
            return [name for name in self._pg_session().stores() if name]
        return [name for name in self.project.discipline_dirs() if self.project.discipline_db(name).is_file()]

    def stored_bytes(self) -> dict[str, Any]:
        """The store's size: its SQLite files (``lstat``: never through a link), or this project's rows."""
        if self.store.is_postgresql:
            pg = self._pg_session()
            rows = pg.fetch_alone("SELECT count(*), coalesce(sum(pg_column_size(value)"
                                  " + coalesce(pg_column_size(vec), 0)), 0)"
                                  " FROM rs_learn_kv WHERE project = %s", (pg.project,))
            return {"kind": "postgresql", "rows": int(rows[0][0]), "bytes": int(rows[0][1])}
        sizes = [info.st_size for info in self._store_files() if info is not None]
        return {"kind": "sqlite", "files": len(sizes), "bytes": sum(sizes)}

    def change_stamp(self) -> str:
        """A value that changes with every committed write: the store files' identities, or a generation.

        A SQLite store's file changes (size, modification time) at every commit; a PostgreSQL
        project's ``generation`` is bumped by every write (``host_harness/store/pg/kv.py``).
        """
        if self.store.is_postgresql:
            pg = self._pg_session()
            rows = pg.fetch_alone("SELECT generation FROM rs_learn_projects WHERE project = %s",
                                  (pg.project,))
            return f"pg:{rows[0][0] if rows else 0}"
        return "sqlite:" + ",".join(identity(info) for info in self._store_files())

    def _store_files(self) -> list[os.stat_result | None]:
        """``lstat`` (never through a link) of the project store and each discipline's (``None``: absent)."""
        disciplines = self.stored_disciplines()
        found: list[os.stat_result | None] = []
        for path in [self.project.db_path, *(self.project.discipline_db(name) for name in disciplines)]:
            try:
                found.append(path.lstat())
            except OSError:
                found.append(None)
        return found

    def use_ledger(self, ledger: AnswerLedger) -> None:
        """Record the answers of calls made with a token in ``ledger`` (attached to every store)."""
        self.ledger = ledger
        for kv, _ in self.stores.values():
            kv.attach("ledger", ledger.path, ledger.schema)

    def index_misses(self) -> list[tuple[Path, str, int]]:
        """``(store, namespace, dimension)`` of the persisted vector indexes scanned instead of built.

        Each is reported once: a long-lived caller (the warm socket's reader) hears of a miss again
        only when a later call misses again.
        """
        misses = []
        for db, (_, index) in self.stores.items():
            misses += [(db, ns, dim) for ns, dim in sorted(index.misses)]
            index.misses.clear()
        return misses

    def close(self) -> None:
        """Roll back anything open and close every database."""
        if self._in_call or self._touched:
            self.rollback()
        for kv, _ in self.stores.values():
            kv.close()
        self.stores.clear()
        if self._pg is not None:
            self._pg.close()

    def _drop_store(self, db: Path) -> None:
        self._touched.pop(db, None)
        entry = self.stores.pop(db, None)
        if entry is not None:
            entry[0].close()

    def _pg_session(self) -> PgSession:
        from host_harness.store.pg.kv import PgSession

        if self._pg is None:
            url, project_id = self.store.url, self.store.project_id
            assert url is not None and project_id is not None
            self._pg = PgSession(url, project_id, self.busy_timeout_ms)
        return self._pg

    def _named(self, error: Exception) -> Exception:
        """A SQLite file that is not a usable database, said with where it is (else ``error``)."""
        if not isinstance(error, sqlite3.DatabaseError) or isinstance(error, sqlite3.OperationalError):
            return error  # locked, I/O, ...: said as they are
        if self._last_db is None:
            return error
        return UnusableStore(self.project, self._last_db, error)

    def _store(self, db: Path) -> tuple[Store, Search]:
        self._last_db = db  # for _named: the store the failing operation used
        entry = self.stores.get(db)
        if entry is None and self.store.is_postgresql:
            from host_harness.store.pg.kv import PgKV
            from host_harness.store.pg.vectors import PgSearchPolicy, PgVectorIndex

            exact = self.index_policy.approx_min is None  # RS_LEARN_VECTOR_INDEX=scan: exact there too
            pg = PgKV(self._pg_session(), self.project.store_name(db), db)
            policy = PgSearchPolicy(approx_min=None) if exact else PgSearchPolicy()
            entry = self.stores[db] = (pg, PgVectorIndex(pg, policy))
        elif entry is None:
            sqlite = self.store_factory(db, self.busy_timeout_ms)
            sqlite.confine_to = self.project.root
            if self.ledger is not None:
                sqlite.attach("ledger", self.ledger.path, self.ledger.schema)
            index = VectorIndex(sqlite, self.index_policy)
            index.note = self.warn  # a hook's search without vectors (index.IndexPolicy.scan_max)
            entry = self.stores[db] = (sqlite, index)
        kv = entry[0]
        if db not in self._touched and not kv.in_transaction:  # how this call's transaction starts
            kv.write_lock = self._write_lock or not self._in_call
            kv.upgrade_fails_fast = self._in_call and not self._write_lock
            kv.budget = self._budget if self._in_call else None
        self._touched[db] = kv
        return entry
