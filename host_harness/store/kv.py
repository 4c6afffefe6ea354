"""``SqliteKV``: the ``host-kv-*`` contract on one SQLite file.

The file is committed to git, so it stays in rollback-journal mode (never a
``-wal``/``-shm`` beside it), a command that changed nothing leaves it
byte-identical (a put of the stored value and a delete of a missing key write
nothing), and a read of a store that does not exist yet does not create it.

Transactions. The first access in a unit of work opens a transaction that stays
open until the owner calls :meth:`SqliteKV.commit` or :meth:`SqliteKV.rollback`
(``HostServices`` does, once per export call). Its kind is the owner's choice
(:attr:`SqliteKV.write_lock`):

* the write lock up front (the default for direct use, and a call's second attempt):
  ``BEGIN`` and a write that matches no row, which locks this file only (``BEGIN
  IMMEDIATE`` would lock every attached file too);
* ``BEGIN`` (deferred) only reads: it takes SQLite's shared lock, so it never waits
  behind another writer's transaction (only behind the few milliseconds of a
  commit) and never blocks one. The first put that would change something
  upgrades it to a write transaction. Upgrading can fail with ``SQLITE_BUSY``
  while another connection holds the write lock; with
  :attr:`SqliteKV.upgrade_fails_fast` it then fails at once with
  :class:`WriteLockBusy` instead of waiting, and ``HostServices`` runs the whole
  call again with the write lock taken up front (calls are atomic and
  deterministic given the host, so a re-run is safe). In rollback-journal mode a
  reader holding the shared lock keeps other writers from committing, so what a
  call read is still current when it writes.

A put that would change nothing (the stored value again, deleting a missing key)
is answered by a read and takes no lock. Lock waits (taking the write lock, the
first read, ``COMMIT``) draw on one :class:`LockBudget` per export call, so a
call waits for locks at most ``busy_timeout`` in total, however many stores and
attempts it takes.

Attachments. An owner may :meth:`SqliteKV.attach` another database file (the spool's
replay ledger) to the connection and write it with :meth:`SqliteKV.execute_attached`
inside the open write transaction: SQLite then commits both files atomically.

Schema changes are numbered migrations (``host_harness/store/schema.py``), applied in order
under ``PRAGMA user_version``; each is idempotent. A new file gets them all; an
existing file is migrated by its first write, inside that write's transaction, so a
read never changes the committed file (a read of an older schema reads ``kv`` as is).

Digests. Every write to a namespace the vector index persists (see
``host_harness.store.digest``) also updates that namespace's content digest, in the
same transaction, just before ``COMMIT``; listeners hear the old and new digests
then (``committing``), while the write lock is still held.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, TypeVar
from urllib.parse import quote

from host_harness.errors import StoreError
from host_harness.store import digest, sqlite_files
from host_harness.store.digest import Digest, DigestBook
from host_harness.store.locks import LockBudget, WriteLockBusy, is_busy
from host_harness.store.queue import WriterQueue, poll
from host_harness.store.schema import MIGRATIONS, apply_migrations, migrate, schema_version

DEFAULT_BUSY_TIMEOUT_MS = 10_000
# New files use 8 KiB pages: a WITHOUT ROWID row keeps up to ~2 KB inline at this size, so a
# 384-d f32 vector (1,536 bytes) needs no overflow page. With 4 KiB pages every vector spilled
# into a mostly empty overflow page: files were 2.2x larger and full scans 2x slower (measured).
PAGE_SIZE = 8192
GET_MANY_CHUNK = 500  # keys per statement of get_many (far under SQLite's bound on parameters)

WRITE_PROBE = "DELETE FROM main.kv WHERE 0"  # a write that matches no row: takes this file's write lock

log = logging.getLogger("rs_learn.host")


class KVListener(Protocol):
    """Told about every change so that derived caches (the vector index) stay in sync."""

    def changed(self, ns: str, key: str, value: bytes) -> None:
        """Note that ``key`` of ``ns`` now holds ``value`` (empty: deleted) in the open transaction."""

    def rolled_back(self, namespaces: set[str]) -> None:
        """Forget what the rolled-back transaction, which changed ``namespaces``, had done."""

    def reset(self) -> None:
        """Forget everything: the connection was (re)opened."""

    def committing(self, digests: dict[str, tuple[Digest | None, Digest]]) -> None:
        """The open transaction is about to commit, with these digests (before, after) of its namespaces."""

    def committed(self) -> None:
        """The commit that ``committing`` announced is over, done or failed."""


def check_name(value: str, what: str) -> None:
    """Namespaces and keys are non-empty UTF-8 strings without NUL."""
    if not isinstance(value, str) or not value:
        raise StoreError(f"{what} must be a non-empty string, got {value!r}")
    if "\x00" in value:
        raise StoreError(f"{what} {value!r} contains NUL")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(f"{what} {value!r} is not valid Unicode (lone surrogate)") from None


def contains(key: str, value: bytes, folded_q: str) -> bool:
    """Return whether ``key`` or ``value`` (UTF-8, with replacement) contains the case-folded query."""
    if folded_q in key.casefold():
        return True
    return folded_q in value.decode("utf-8", errors="replace").casefold()


class SqliteKV:
    """A namespaced key-value store in one SQLite file, opened lazily."""

    def __init__(self, path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
        self.path = Path(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.listeners: list[KVListener] = []
        # How the next transaction starts (see the module docstring); the owner may change these
        # between transactions.
        self.write_lock = True
        self.upgrade_fails_fast = False
        self.budget: LockBudget | None = None
        # The project root: the file and its folders are checked for links below it before every
        # open (``host_harness/fs/confine.py``); ``None`` for a store outside any project.
        self.confine_to: Path | None = None
        self.attachments: dict[str, tuple[Path, str]] = {}  # alias -> (file, schema statement)
        self._conn: sqlite3.Connection | None = None
        self._inode: tuple[int, int] | None = None
        self._dirty: set[str] = set()
        self._writing = False  # the open transaction holds the write lock
        self._busy_ms = busy_timeout_ms
        self._read_absent = False  # this unit of work read the store while it did not exist
        self._digests = DigestBook()
        self._schema = 0  # the open file's schema version (migrated by the first write)
        self._swept = False  # stale super-journals removed since the connection opened
        self._queue: WriterQueue | None = None  # the writers' queue, opened when first needed

    # connection and transaction

    def _connection(self, create: bool) -> sqlite3.Connection | None:
        """Return the connection inside a transaction; ``None`` if the file is absent and not created."""
        conn = self._conn
        if conn is not None and not conn.in_transaction and self._inode != _inode(self.path):
            self.close()  # the file was replaced (git checkout) or removed under us
            conn = None
        fresh = conn is None
        if conn is None:
            if not create and not _has_data(self.path):
                self._read_absent = True
                return None  # absent (or empty): nothing to read, and a read must not create it
            conn = self._open(create)
        if not conn.in_transaction:
            if self.confine_to is not None and not fresh:
                self._check_files()
            if self.write_lock:
                # The write lock of this file only: BEGIN IMMEDIATE would also lock every ATTACHed
                # file (the spool's ledger), which the call's other store connections attach too.
                conn.execute("BEGIN")
                self._take_write_lock(conn)
                self._writing = True
            else:
                conn.execute("BEGIN")
                self._wait(conn, "PRAGMA schema_version")  # take the shared lock now, within the budget
                self._writing = False
            if self._read_absent:
                self._check_still_empty(conn)
        return conn

    def _check_files(self) -> None:
        """Before a transaction of an open connection: the files SQLite may open are still safe."""
        assert self.confine_to is not None
        sqlite_files.check_quick(self.confine_to, self.path)
        for path, _ in self.attachments.values():
            sqlite_files.check_quick(self.confine_to, path)

    def _check_still_empty(self, conn: sqlite3.Connection) -> None:
        """The unit of work read this store while it did not exist: refuse it if it has data now.

        Another process created the store and committed to it between that read and this first
        write (two first writes to a new project or discipline at once): what the call read is
        stale -- it would hand out the same document number twice. The call is run again (with
        the write lock up front), now reading the store inside its transaction.
        """
        self._read_absent = False
        if conn.execute("SELECT 1 FROM main.kv LIMIT 1").fetchone() is not None:
            conn.execute("ROLLBACK")
            self._writing = False
            raise WriteLockBusy(
                f"{self.path} was created by another process while this call read it as absent"
            )

    def _set_busy(self, conn: sqlite3.Connection, ms: int) -> None:
        if ms != self._busy_ms:
            conn.execute(f"PRAGMA busy_timeout = {int(ms)}")
            self._busy_ms = ms

    def _wait(self, conn: sqlite3.Connection, sql: str, params: tuple[object, ...] = ()) -> None:
        """Run a statement that may wait for a lock, within the budget (or the busy timeout)."""
        budget = self.budget
        if budget is None:
            self._set_busy(conn, self.busy_timeout_ms)
            conn.execute(sql, params).fetchall()
            return
        self._set_busy(conn, budget.remaining_ms())
        with budget.waiting():
            conn.execute(sql, params).fetchall()

    def _take_write_lock(self, conn: sqlite3.Connection) -> None:
        """Take this file's write lock in the open ``BEGIN``: at once, or in turn after the queued writers."""
        queue = self._writers()
        if not queue.busy() and self._try_write_lock(conn):
            return
        budget = self.budget
        with budget.waiting() if budget is not None else contextlib.nullcontext():
            wait_s = self.busy_timeout_ms / 1000
            deadline = budget.deadline() if budget is not None else time.monotonic() + wait_s
            queue.join(deadline)
            what = (f"the write lock of {self.path}, locked by another writer (busy timeout "
                    f"{self.busy_timeout_ms} ms; {queue.ahead} writer(s) queued ahead)")
            poll(lambda: self._try_write_lock(conn), deadline, what)

    def _try_write_lock(self, conn: sqlite3.Connection) -> bool:
        """Try once to take the write lock (:data:`WRITE_PROBE`); ``False`` while another holds it."""
        self._set_busy(conn, 0)
        try:
            conn.execute(WRITE_PROBE).fetchall()
        except sqlite3.OperationalError as error:
            if is_busy(error):
                return False
            raise
        return True

    def _writers(self) -> WriterQueue:
        if self._queue is None:
            self._queue = WriterQueue(self.path, self.confine_to)
        return self._queue

    def _write(self, conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> None:
        """Run a write; the first one of a read transaction takes the write lock (upgrade)."""
        if self._writing:
            conn.execute(sql, params)
            return
        if not self.upgrade_fails_fast:
            self._wait(conn, sql, params)
        elif self._writers().busy():  # writers are queued: this one does not go past them
            raise WriteLockBusy(f"writers are queued for the write lock of {self.path}")
        else:
            self._set_busy(conn, 0)
            try:
                conn.execute(sql, params)
            except sqlite3.OperationalError as error:
                if is_busy(error):
                    raise WriteLockBusy(f"another connection holds the write lock of {self.path}") from error
                raise
        self._writing = True

    def _open(self, create: bool) -> sqlite3.Connection:
        if self.confine_to is not None:
            sqlite_files.check_database(self.confine_to, self.path, create=create)
        elif create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        uri = f"file:{quote(str(self.path))}?mode={'rwc' if create else 'rw'}"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        self._busy_ms = self.busy_timeout_ms
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            conn.execute("PRAGMA cache_size = -65536")
            conn.execute("PRAGMA journal_mode = DELETE").fetchone()
            if int(conn.execute("PRAGMA page_count").fetchone()[0]) == 0:
                conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # only takes effect on a new file
                migrate(conn)
            self._schema = schema_version(conn)
            for alias in self.attachments:
                self._attach(conn, alias)
        except BaseException:
            conn.close()
            raise
        self._conn, self._inode = conn, _inode(self.path)
        self._swept = False
        for listener in self.listeners:
            listener.reset()
        return conn

    def attach(self, alias: str, path: Path, schema: str) -> None:
        """ATTACH ``path`` as ``alias`` to the connection (now, or when it opens); run ``schema`` there."""
        if self.in_transaction:
            raise StoreError(f"cannot attach {path} inside a transaction")
        self.attachments[alias] = (Path(path), schema)
        if self._conn is not None:
            self._attach(self._conn, alias)

    def _attach(self, conn: sqlite3.Connection, alias: str) -> None:
        path, schema = self.attachments[alias]
        if self.confine_to is not None:
            sqlite_files.check_database(self.confine_to, path, create=True)
        attached = {row[1] for row in conn.execute("PRAGMA database_list")}
        if alias not in attached:
            conn.execute(f"ATTACH DATABASE ? AS {alias}", (str(path),))
            conn.execute(f"PRAGMA {alias}.journal_mode = DELETE").fetchone()
        conn.execute(schema)

    def execute_attached(self, sql: str, params: tuple[object, ...]) -> None:
        """Run a write on an attached database inside the open write transaction (committed with it)."""
        if self._conn is None or not self._writing:
            raise StoreError("execute_attached needs an open write transaction")
        self._conn.execute(sql, params)

    def commit(self) -> None:
        """Record the changed digests, tell the listeners, and commit the open transaction, if any.

        A write transaction may wait for readers to finish; a read transaction has nothing to record.
        """
        conn = self._conn
        if conn is not None and conn.in_transaction:
            if self._writing:
                if self._dirty and not self._swept:
                    self._sweep()
                changed = self._digests.flush(conn)
                try:
                    if changed:
                        for listener in self.listeners:
                            listener.committing(changed)
                    self._wait(conn, "COMMIT")
                finally:
                    for listener in self.listeners:
                        listener.committed()
            else:
                conn.execute("COMMIT")  # a read transaction: releases the shared lock, never waits
        if self._queue is not None:
            self._queue.leave()
        self._digests.clear()
        self._dirty.clear()
        self._writing = False
        self._read_absent = False

    def _sweep(self) -> None:
        """Remove orphaned super-journals, once per connection, holding the write lock of a real write."""
        self._swept = True
        if self.confine_to is None:
            return
        try:
            sqlite_files.remove_stale_supers(self.confine_to, self.path)
        except OSError as error:
            log.warning("cannot look for orphaned super-journals beside %s: %s", self.path, error)

    def rollback(self) -> None:
        """Roll back the open transaction, if any, and tell the listeners what it had changed."""
        dirty, self._dirty = self._dirty, set()
        self._writing = False
        self._read_absent = False
        self._digests.clear()
        try:
            if self._conn is not None and self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
                # A migration in the transaction is undone too; the next write re-reads the version
                # under its lock (reading it here, outside any transaction, could wait for -- or, with
                # a fail-fast busy timeout, fail on -- another process's commit).
                self._schema = 0
        finally:
            if self._queue is not None:
                self._queue.leave()  # the next queued writer may go
        if dirty:
            for listener in self.listeners:
                listener.rolled_back(dirty)

    def close(self) -> None:
        """Roll back anything open and close the connection."""
        if self._conn is not None:
            try:
                self.rollback()
            finally:
                self._conn.close()
                self._conn = None
        if self._queue is not None:
            self._queue.close()
            self._queue = None

    def transaction(self) -> contextlib.AbstractContextManager[SqliteKV]:
        """Run a unit of work for direct use: commit on success, roll back on error."""
        return unit_of_work(self)

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open on this store."""
        return self._conn is not None and self._conn.in_transaction

    @property
    def changed(self) -> bool:
        """Whether the open transaction has changed anything."""
        return bool(self._dirty)

    def probe(self) -> None:
        """Open the store and its transaction (reading its header); raise if it is not a usable store."""
        self._connection(create=False)

    def data_version(self) -> int | None:
        """Return ``PRAGMA data_version`` (changes when ANOTHER connection commits); ``None`` if no file."""
        conn = self._connection(create=False)
        if conn is None:
            return None
        return int(conn.execute("PRAGMA data_version").fetchone()[0])

    def base_digest(self, ns: str) -> Digest | None:
        """The digest of ``ns`` when the open transaction started (``None``: unknown, or no file).

        Writes of the open transaction are not included: whoever reads this keeps track of them.
        """
        if ns in self._digests.before:
            return self._digests.before[ns]
        conn = self._connection(create=False)
        return None if conn is None else digest.read(conn, ns)

    # the contract

    def get(self, ns: str, key: str) -> bytes | None:
        """Return the value of ``key`` in ``ns``, or ``None``."""
        check_name(ns, "namespace")
        check_name(key, "key")
        conn = self._connection(create=False)
        if conn is None:
            return None
        row = conn.execute("SELECT value FROM kv WHERE ns = ? AND key = ?", (ns, key)).fetchone()
        return None if row is None else bytes(row[0])

    def get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """The values of ``keys`` in ``ns``, in order (``None`` where none): one statement per 500 keys."""
        check_name(ns, "namespace")
        for key in keys:
            check_name(key, "key")
        conn = self._connection(create=False)
        if conn is None:
            return [None] * len(keys)
        found: dict[str, bytes] = {}
        unique = list(dict.fromkeys(keys))
        for at in range(0, len(unique), GET_MANY_CHUNK):
            part = unique[at:at + GET_MANY_CHUNK]
            marks = ",".join("?" * len(part))
            for key, value in conn.execute(f"SELECT key, value FROM kv WHERE ns = ? AND key IN ({marks})",
                                           (ns, *part)):
                found[key] = bytes(value)
        return [found.get(key) for key in keys]

    def put(self, ns: str, key: str, value: bytes) -> bool:
        """Store ``value`` (empty deletes); return whether anything changed."""
        check_name(ns, "namespace")
        check_name(key, "key")
        value = bytes(value)
        conn = self._connection(create=bool(value))
        if conn is None:
            return False  # deleting from a store that does not exist
        tracked = digest.tracked(ns)
        if not self._writing or tracked:  # a put that changes nothing takes no lock and writes nothing
            row = conn.execute("SELECT value FROM kv WHERE ns = ? AND key = ?", (ns, key)).fetchone()
            old = None if row is None else bytes(row[0])
            if old == (value or None):
                return False
        if self._schema < len(MIGRATIONS):  # an older file is migrated by its first write
            self._write(conn, WRITE_PROBE, ())  # the write lock (or WriteLockBusy)
            self._schema = apply_migrations(conn)  # rolled back with the transaction
        if tracked:
            self._digests.note(conn, ns, key, old, value)
        before = conn.total_changes
        if value:  # one statement; an identical value matches no row, so nothing is written
            self._write(
                conn,
                "INSERT INTO kv (ns, key, value) VALUES (?, ?, ?) ON CONFLICT (ns, key) "
                "DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value",
                (ns, key, value),
            )
        else:
            self._write(conn, "DELETE FROM kv WHERE ns = ? AND key = ?", (ns, key))
        if conn.total_changes == before:
            return False
        self._dirty.add(ns)
        for listener in self.listeners:
            listener.changed(ns, key, value)
        return True

    def query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """Return entries whose key or value contains ``q`` (case-folded), by key; ``limit`` 0 = all."""
        check_name(ns, "namespace")
        if limit < 0:
            raise StoreError(f"limit must be >= 0, got {limit}")
        conn = self._connection(create=False)
        if conn is None:
            return []
        sql = "SELECT key, value FROM kv WHERE ns = ? ORDER BY key"
        if not q:
            rows = conn.execute(sql + (" LIMIT ?" if limit else ""), (ns, limit) if limit else (ns,))
            return [(key, bytes(value)) for key, value in rows]
        folded = q.casefold()
        out: list[tuple[str, bytes]] = []
        for key, value in conn.execute(sql, (ns,)):
            if contains(key, value, folded):
                out.append((key, bytes(value)))
                if len(out) == limit:
                    break
        return out

    def values_of_size(self, ns: str, size: int) -> list[tuple[str, bytes]]:
        """Return every ``(key, value)`` of ``ns`` whose value is exactly ``size`` bytes, by key."""
        check_name(ns, "namespace")
        conn = self._connection(create=False)
        if conn is None:
            return []
        sql = "SELECT key, value FROM kv WHERE ns = ? AND length(value) = ? ORDER BY key"
        return [(key, bytes(value)) for key, value in conn.execute(sql, (ns, size))]


class Transactional(Protocol):
    """A store with a transaction to commit or roll back."""

    def commit(self) -> None:
        """Commit the open transaction."""

    def rollback(self) -> None:
        """Roll back the open transaction."""


S = TypeVar("S", bound=Transactional)


@contextmanager
def unit_of_work(store: S) -> Iterator[S]:
    """Commit ``store`` when the block succeeds, roll it back when it raises."""
    try:
        yield store
    except BaseException:
        store.rollback()
        raise
    store.commit()


def _has_data(path: Path) -> bool:
    """Whether ``path`` exists and is not an empty file (an empty file is no store yet).

    Anything but a regular file counts as data: opening it is then refused with a clear error,
    instead of reading a FIFO or a link as an absent store.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    return st.st_size > 0 or not stat.S_ISREG(st.st_mode)


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)  # a file replaced by a link to it is a replaced file
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino)
