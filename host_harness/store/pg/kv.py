"""``PgKV``: the ``host-kv-*`` contract on the PostgreSQL store, one transaction per export call.

One :class:`PgSession` per ``HostServices``: one connection and the open transaction of the
current call, shared by the call's stores (the project store and each discipline are
:class:`PgKV` views of it, told apart by the ``discipline`` column), so a call's stores commit
together. The rules are the SQLite store's (``host_harness/store/kv.py``), in PostgreSQL terms:

* **reader first** (a call's first attempt): ``BEGIN ISOLATION LEVEL REPEATABLE READ``. Every read
  of the call sees one snapshot, takes no lock, never waits for a writer and never blocks one. The
  first put that changes something takes the project's write lock with
  ``pg_try_advisory_xact_lock`` -- without waiting: if another process holds it, that is
  :class:`WriteLockBusy` and ``HostServices`` runs the call again (below) -- and bumps the
  project's ``generation``. If another process committed a write to the project after this call's
  snapshot, that update is a serialization failure: what the call read is stale, so
  :class:`WriteLockBusy` again;
* **write lock up front** (the second attempt; direct use): ``BEGIN`` (read committed), then
  ``pg_advisory_xact_lock``, waiting at most the call's :class:`LockBudget`. Holding it, every
  statement sees the latest commits and no other writer of the project can commit.

So the writers of one project take turns -- memorize's read-modify-write of the document counter
never interleaves with another's -- while readers run beside them, and two projects never wait for
each other. A put that changes nothing (the stored value again, deleting a missing key) takes no
lock.

**Connection loss.** The call in flight fails with a :class:`PostgresError` naming it; the next
call reconnects. A connection found dead when a call begins (the server restarted between two
calls) is replaced before anything is done, so a restart costs only the calls in flight.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import numpy as np

from host_harness.config import redact
from host_harness.store.digest import tracked
from host_harness.store.kv import DEFAULT_BUSY_TIMEOUT_MS, check_name, contains, unit_of_work
from host_harness.store.locks import LOCK_NOT_AVAILABLE, LockBudget, WriteLockBusy
from host_harness.store.pg.connect import connect
from host_harness.store.pg.driver import (
    LOCK_CLASS,
    SERIALIZATION_FAILURE,
    Connection,
    PostgresError,
    describe,
    is_psycopg_error,
    project_lock_key,
    sqlstate,
)

MAX_VECTOR_DIM = 16_000  # pgvector's limit for the vector type
ROWS = "FROM rs_learn_kv WHERE project = %s AND discipline = %s AND ns = %s"
QUERY_BATCH = 256  # rows per fetch of a filtered query (one value at a time in Python)
T = TypeVar("T")


def vector_columns(ns: str, value: bytes) -> tuple[int | None, np.ndarray[Any, Any] | None]:
    """``(dim, vec)`` of a value: a finite f32 vector in a vector namespace (``vec`` None if it is zero)."""
    if not value or len(value) % 4 or not tracked(ns):
        return None, None
    array = np.frombuffer(value, dtype="<f4")
    if not np.isfinite(array).all():
        return None, None  # corrupt, not a vector: never a candidate
    if array.size > MAX_VECTOR_DIM or not array.any():
        return array.size, None
    return array.size, array.astype(np.float32)


class PgSession:
    """A connection to the store and the transaction of the call in progress."""

    def __init__(self, url: str, project: str, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
        self.url = url
        self.project = project
        self.busy_timeout_ms = busy_timeout_ms
        self.lock = (LOCK_CLASS, project_lock_key(project))
        # how the next transaction starts (the owner sets these between transactions)
        self.write_lock = True
        self.upgrade_fails_fast = False
        self.budget: LockBudget | None = None
        self.conn: Connection | None = None
        self.active = False
        self.writing = False
        self.dirty: set[str] = set()  # disciplines the open transaction changed
        self.counts: dict[tuple[str, str], int] = {}  # (discipline, ns) -> vector rows added
        self.new_stores: set[str] = set()
        self.known_stores: set[str] = set()  # stores this connection has seen committed
        self.settings: set[str] = set()  # SET LOCAL names of the open transaction

    # connection

    def connection(self) -> Connection:
        """The open connection (a new one when there is none or it broke)."""
        conn = self.conn
        if conn is not None and (conn.closed or conn.broken):
            self.drop()
            conn = None
        if conn is None:
            conn = self.conn = connect(self.url, self.busy_timeout_ms / 1000)
        return conn

    def drop(self) -> None:
        """Close the connection (whatever state it is in) and forget the transaction."""
        conn, self.conn = self.conn, None
        self._reset()
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def close(self) -> None:
        """Roll back anything open and close the connection."""
        self.rollback()
        self.drop()

    # statements

    def execute(self, sql: str, params: tuple[Any, ...] = (), *, binary: bool = False) -> Any:
        """Run ``sql`` in the open transaction (begun if needed); psycopg errors: :class:`PostgresError`."""
        if not self.active:
            self.begin()
        assert self.conn is not None
        with self.translated():
            return self.conn.execute(sql, params, binary=binary)

    def stream(self, sql: str, params: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        """The rows of ``sql`` a batch at a time (a server-side cursor in the open transaction)."""
        if not self.active:
            self.begin()
        assert self.conn is not None
        with self.translated(), self.conn.cursor(name="rs_learn_stream", binary=True) as cursor:
            cursor.itersize = QUERY_BATCH
            cursor.execute(sql, params)
            yield from cursor

    def set_local(self, name: str, value: str) -> None:
        """``SET LOCAL name = value`` once per transaction."""
        if name not in self.settings:
            self.execute("SELECT set_config(%s, %s, true)", (name, value))
            self.settings.add(name)

    @contextlib.contextmanager
    def translated(self) -> Iterator[None]:
        """Raise a psycopg error from the block as :meth:`failure`'s one-line :class:`PostgresError`."""
        try:
            yield
        except Exception as error:
            if not is_psycopg_error(error):
                raise
            raise self.failure(error) from None

    def failure(self, error: BaseException) -> PostgresError:
        """A one-line :class:`PostgresError` for a psycopg error (the connection is dropped if it broke)."""
        conn = self.conn
        if conn is not None and (conn.closed or conn.broken):
            self.drop()
            return PostgresError(f"lost the connection to {redact(self.url)}: {describe(error, self.url)}")
        if sqlstate(error) == LOCK_NOT_AVAILABLE:
            return PostgresError(f"gave up waiting for another process's write to project {self.project!r} "
                                 f"({self.busy_timeout_ms} ms)", LOCK_NOT_AVAILABLE)
        return PostgresError(describe(error, self.url), sqlstate(error))

    # transactions

    def begin(self) -> None:
        """Open the call's transaction: a snapshot to read from, or the write lock first."""
        for attempt in (1, 2):
            conn = self.connection()
            try:
                if self.write_lock:
                    conn.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
                    self.active = True
                    self._wait_for_lock(conn)
                else:
                    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
                    self.active = True
                return
            except Exception as error:
                if not is_psycopg_error(error):
                    raise
                lost = conn.closed or conn.broken
                failure = self.failure(error)
                self.rollback()
                if lost and attempt == 1:
                    continue  # the server went away since the last call: nothing was done yet
                raise failure from None

    def _wait_for_lock(self, conn: Connection) -> None:
        budget = self.budget
        wait_ms = budget.remaining_ms() if budget is not None else self.busy_timeout_ms
        conn.execute("SELECT set_config('lock_timeout', %s, true)", (f"{max(wait_ms, 1)}ms",))
        with budget.waiting() if budget is not None else contextlib.nullcontext():
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", self.lock)
        conn.execute("SELECT set_config('lock_timeout', '0', true)")

    def start_writing(self, discipline: str) -> None:
        """Before the transaction's first change to a store: the project's write lock and generation."""
        if not self.writing:
            if not self.write_lock:
                locked = self.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", self.lock).fetchone()[0]
                if locked is not True:
                    raise WriteLockBusy(f"another process is writing to project {self.project!r}")
            try:
                self.execute(
                    "INSERT INTO rs_learn_projects (project, generation) VALUES (%s, 1) ON CONFLICT (project)"
                    " DO UPDATE SET generation = rs_learn_projects.generation + 1", (self.project,))
            except PostgresError as error:
                if error.sqlstate == SERIALIZATION_FAILURE:
                    raise WriteLockBusy(
                        f"project {self.project!r} was written by another process since this call read it"
                    ) from None
                raise
            self.writing = True
        if discipline not in self.known_stores and discipline not in self.new_stores:
            self.execute("INSERT INTO rs_learn_stores (project, discipline) VALUES (%s, %s)"
                         " ON CONFLICT DO NOTHING", (self.project, discipline))
            self.new_stores.add(discipline)

    def commit(self) -> None:
        """Record the vector counts and commit; on a failure roll back and raise."""
        if not self.active:
            return
        try:
            for (discipline, ns), added in sorted(self.counts.items()):
                if added:
                    self.execute(
                        "INSERT INTO rs_learn_vector_counts (project, discipline, ns, entries)"
                        " VALUES (%s, %s, %s, %s) ON CONFLICT (project, discipline, ns) DO UPDATE"
                        " SET entries = rs_learn_vector_counts.entries + excluded.entries",
                        (self.project, discipline, ns, added))
            self.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise
        self.known_stores |= self.new_stores
        self._reset()

    def rollback(self) -> None:
        """Roll back the open transaction, if any (a connection that cannot is dropped)."""
        if self.active and self.conn is not None:
            try:
                self.conn.execute("ROLLBACK")
            except Exception:
                self.drop()
        self._reset()

    def _reset(self) -> None:
        self.active = self.writing = False
        self.dirty = set()
        self.counts = {}
        self.new_stores = set()
        self.settings = set()

    def autonomous(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` in a transaction of their own, outside any call (no project lock)."""
        if self.active:
            raise PostgresError("autonomous statements inside a call's transaction")
        conn = self.connection()
        with self.translated(), conn.transaction():
            for sql, params in statements:
                conn.execute(sql, params)

    def fetch_alone(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows of one read outside any call."""
        if self.active:
            return list(self.execute(sql, params).fetchall())
        conn = self.connection()
        with self.translated():
            return list(conn.execute(sql, params).fetchall())

    def stores(self) -> list[str]:
        """The disciplines (``''``: the project store) this project has written, sorted."""
        rows = self.fetch_alone("SELECT discipline FROM rs_learn_stores WHERE project = %s"
                                " ORDER BY discipline", (self.project,))
        return [str(row[0]) for row in rows]


class SessionSetting(Generic[T]):
    """An attribute of a :class:`PgKV` that is its session's: one transaction serves all the stores."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, store: PgKV, owner: type | None = None) -> T:
        return cast(T, getattr(store.session, self.name))

    def __set__(self, store: PgKV, value: T) -> None:
        setattr(store.session, self.name, value)


class PgKV:
    """One store of a project (``discipline`` ``''``: the project store) on a :class:`PgSession`."""

    def __init__(self, session: PgSession, discipline: str, path: Path | None = None) -> None:
        self.session = session
        self.discipline = discipline
        self.path = path  # the SQLite file this store stands in for (messages only)
        self.confine_to: Path | None = None  # unused: nothing of a PostgreSQL store is a file
        self.listeners: list[Any] = []
        self._key = (session.project, discipline)

    # what the owner sets per transaction: the session's, shared by the project's stores
    write_lock = SessionSetting[bool]()  # take the write lock when the transaction begins
    upgrade_fails_fast = SessionSetting[bool]()  # (a reader's first write never waits here anyway)
    budget = SessionSetting["LockBudget | None"]()  # how long the call may still wait for the lock

    @property
    def in_transaction(self) -> bool:
        """Whether the session's transaction is open."""
        return self.session.active

    @property
    def changed(self) -> bool:
        """Whether the open transaction changed this store."""
        return self.discipline in self.session.dirty

    # transactions (shared: the first store to commit commits the session)

    def commit(self) -> None:
        """Commit the session's transaction, if open."""
        self.session.commit()

    def rollback(self) -> None:
        """Roll back the session's transaction, if open."""
        self.session.rollback()

    def close(self) -> None:
        """Roll back anything open (the session owns the connection)."""
        self.session.rollback()

    def transaction(self) -> contextlib.AbstractContextManager[PgKV]:
        """Run a unit of work for direct use: commit on success, roll back on error."""
        return unit_of_work(self)

    def probe(self) -> None:
        """Open the transaction (and the connection); raise if the store cannot be used."""
        self.session.execute("SELECT 1")

    def attach(self, alias: str, path: Path, schema: str) -> None:
        """Nothing to attach: the spool's ledger is a table of the same database."""

    def execute_attached(self, sql: str, params: tuple[Any, ...]) -> None:
        """Run a ledger statement in the open write transaction (committed with the call)."""
        self.session.execute(sql, params)

    # the contract

    def get(self, ns: str, key: str) -> bytes | None:
        """Return the value of ``key`` in ``ns``, or ``None``."""
        check_name(ns, "namespace")
        check_name(key, "key")
        row = self.session.execute(f"SELECT value {ROWS} AND key = %s", (*self._key, ns, key),
                                   binary=True).fetchone()
        return None if row is None else bytes(row[0])

    def put(self, ns: str, key: str, value: bytes) -> bool:
        """Store ``value`` (empty deletes); return whether anything changed."""
        old = self.get(ns, key)
        value = bytes(value)
        if old == (value or None):
            return False  # a put that changes nothing takes no lock and writes nothing
        session = self.session
        session.start_writing(self.discipline)
        if value:
            dim, vec = vector_columns(ns, value)
            session.execute(
                "INSERT INTO rs_learn_kv (project, discipline, ns, key, value, dim, vec)"
                " VALUES (%s, %s, %s, %s, %b, %s, %b) ON CONFLICT (project, discipline, ns, key)"
                " DO UPDATE SET value = excluded.value, dim = excluded.dim, vec = excluded.vec",
                (*self._key, ns, key, value, dim, vec))
        else:
            session.execute(f"DELETE {ROWS} AND key = %s", (*self._key, ns, key))
        if tracked(ns) and (old is None or not value):
            counted = (self.discipline, ns)
            session.counts[counted] = session.counts.get(counted, 0) + (1 if value else -1)
        session.dirty.add(self.discipline)
        return True

    def query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """Entries whose key or value contains ``q`` (case-folded), by key; ``limit`` 0 = all."""
        check_name(ns, "namespace")
        if limit < 0:
            raise PostgresError(f"limit must be >= 0, got {limit}")
        sql = f"SELECT key, value {ROWS} ORDER BY key"
        if not q:
            rows = self.session.execute(sql + (" LIMIT %s" if limit else ""),
                                        (*self._key, ns, *((limit,) if limit else ())), binary=True)
            return [(str(key), bytes(value)) for key, value in rows.fetchall()]
        folded = q.casefold()
        out: list[tuple[str, bytes]] = []
        for key, value in self.session.stream(sql, (*self._key, ns)):
            if contains(str(key), bytes(value), folded):
                out.append((str(key), bytes(value)))
                if len(out) == limit:
                    break
        return out

    def values_of_size(self, ns: str, size: int) -> list[tuple[str, bytes]]:
        """Every ``(key, value)`` of ``ns`` whose value is exactly ``size`` bytes, by key."""
        check_name(ns, "namespace")
        rows = self.session.execute(f"SELECT key, value {ROWS} AND length(value) = %s ORDER BY key",
                                    (*self._key, ns, size), binary=True)
        return [(str(key), bytes(value)) for key, value in rows.fetchall()]

    def vector_entries(self, ns: str) -> int:
        """How many values ``ns`` holds (vector namespaces only), this transaction's writes included."""
        row = self.session.execute("SELECT entries FROM rs_learn_vector_counts WHERE project = %s"
                                   " AND discipline = %s AND ns = %s", (*self._key, ns)).fetchone()
        return (0 if row is None else int(row[0])) + self.session.counts.get((self.discipline, ns), 0)
