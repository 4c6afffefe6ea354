"""``HostServices``: the six host imports over the router, the stores and the vector indexes.

It implements the guest's :class:`guest.host.Host` protocol directly, so the
native target passes it to ``Engine`` as is, and the wasm binding
(``host_harness.component``) wraps the same methods.

Transactions: :meth:`HostServices.begin` starts an export call; every database the
call touches is opened in a transaction (see ``host_harness.store.kv``);
:meth:`HostServices.commit` commits all of them when the call succeeded and
:meth:`HostServices.rollback` rolls all of them back otherwise. Outside
``begin()``/``commit()`` each operation is its own transaction (handy in tests).
Commits are per file: if the second of two databases fails to commit, the first
has already committed (SQLite cannot join files that were not ATTACHed first).

A call starts as a reader (``begin()``): its transactions are deferred, so it
neither waits behind nor blocks another process's writer. Its first put that
changes something takes the write lock; if another connection holds it, the put
fails at once, :attr:`HostServices.write_lock_busy` is set and the caller runs the
call again under ``begin(write_lock=True)`` (the write lock of every store it touches),
which waits its turn. Every lock wait of the call, over both attempts and every
store, draws on one budget of ``busy_timeout_ms``; and once a store operation has
failed, the call's later store operations fail at once instead of each waiting
again.

Unusable disciplines: when the guest asks for ``host/enabled-disciplines`` (the
fan-out of a recall or the hook), an enabled discipline whose store cannot be
opened -- not a database (a git-LFS pointer), corrupt, newer than this build,
behind a link -- is left out of the list, logged as a warning and named in
:attr:`HostServices.warnings`, which ``dispatch`` adds to its envelope. The other
stores are recalled. A store named explicitly (``@name``) still fails the call. A hook's vector
search that answered nothing because its index is being rebuilt (``host_harness/vectors/search.py``)
is named there too.

The store: the project's SQLite files (the default), or a PostgreSQL server when
``--store``/``$RS_LEARN_STORE``/``.gm/config.json`` name one (``host_harness/config/selection.py``).
Then every store of the project (the project store and each discipline) is a view of one
connection and one transaction per call (``host_harness/store/pg/kv.py``), with the same rules:
reader first, the write lock on the first change, the call run again when it was taken.
Nothing is written to ``.gm/rs-learn.db`` then.

Failures: storage errors (locked beyond the busy timeout, corrupt file, disk
full, a lost database connection, a harness bug) are recorded in :attr:`HostServices.failures` as well as
raised as :class:`guest.host.HostError`; the guest wrapper then fails the whole
call even if the guest swallowed the error or got a neutral answer. A call that failed only
because a store stayed locked by other writers for its whole busy timeout answers ``busy: ...``
(retry it), every other failure ``internal: host failure: ...`` (:meth:`HostServices.failure`). Contract
errors (bad namespace or key, a write to ``host``) are :class:`StoreError`: the
guest hears about them through ``host-kv-put``'s ``err`` and decides.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from guest.host import HostError
from host_harness.cachedir import default_cache_dir
from host_harness.config import StoreChoice, resolve_store
from host_harness.errors import HostFailure, StoreError, disk_full_message, is_disk_full
from host_harness.fs import confine, effects
from host_harness.store import (
    DEFAULT_BUSY_TIMEOUT_MS,
    HOST_NS,
    LockBudget,
    Project,
    SqliteKV,
    StoreRouter,
    WriteLockBusy,
    check_name,
    contains,
    is_busy,
)
from host_harness.vectors import IndexPolicy, VectorIndex

if TYPE_CHECKING:  # imported when a PostgreSQL store is chosen: a hook on SQLite does not pay for them
    from host_harness.store.pg.kv import PgKV, PgSession
    from host_harness.store.pg.vectors import PgVectorIndex

T = TypeVar("T")
LEVELS = {1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR}
MAX_LOG_RECORDS = 10_000
U64_MAX = 2**64 - 1

guest_log = logging.getLogger("rs_learn.guest")
Store: TypeAlias = "SqliteKV | PgKV"
Search: TypeAlias = "VectorIndex | PgVectorIndex"


def identity(info: os.stat_result | None) -> str:
    """A file's identity as of ``info`` (inode, size, modification time); ``-`` for an absent one."""
    return "-" if info is None else f"{info.st_ino}.{info.st_size}.{info.st_mtime_ns}"


def wall_clock_ms() -> int:
    """Epoch milliseconds from the system clock."""
    return time.time_ns() // 1_000_000


class ManualClock:
    """A settable clock for deterministic runs: ``clock.now_ms = ...``, ``clock.advance(ms)``."""

    def __init__(self, now_ms: int) -> None:
        self.now_ms = now_ms

    def advance(self, ms: int) -> int:
        """Move the clock forward by ``ms`` and return the new time."""
        self.now_ms += ms
        return self.now_ms

    def __call__(self) -> int:
        """Return the current time."""
        return self.now_ms


@dataclass(frozen=True)
class LogRecord:
    """One ``host-log`` line; ``event`` is the parsed JSON of an ``evt: {json}`` message."""

    level: int
    msg: str
    event: dict[str, Any] | None = None


def parse_event(msg: str) -> dict[str, Any] | None:
    """Return the JSON object of a structured ``evt: {json}`` message, else ``None``."""
    if not msg.startswith("evt:"):
        return None
    try:
        value = json.loads(msg[4:])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class AnswerLedger(Protocol):
    """Where calls made with a token record their answers (``host_harness/spool/replay.py``)."""

    @property
    def path(self) -> Path:
        """The ledger's file."""
        ...

    @property
    def schema(self) -> str:
        """The statement creating its table under the alias ``ledger``."""
        ...

    def statements(self, token: str, envelope: str) -> list[tuple[str, tuple[Any, ...]]]:
        """The writes that record ``envelope`` under ``token``."""
        ...

    def recorded(self) -> None:
        """The statements were committed."""
        ...

    def record(self, token: str, envelope: str) -> None:
        """Record in a transaction of its own."""
        ...

    @property
    def forget(self) -> set[str]:
        """Tokens of removed claims, deleted at the next recording."""
        ...

    def lookup(self, token: str) -> str | None:
        """The envelope committed under ``token``, or ``None``."""
        ...

    def clear(self, keep: Iterable[str] = ()) -> None:
        """Delete every row but those of ``keep``."""
        ...

    def close(self) -> None:
        """Close what the ledger opened itself."""
        ...


class HostServices:
    """The host side of one project: the ``Host`` protocol plus per-call transactions."""

    def __init__(
        self,
        project: Project | Path | str,
        *,
        scope: Mapping[str, Any] | None = None,
        clock: Callable[[], int] = wall_clock_ms,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        store_factory: Callable[[Path, int], SqliteKV] = SqliteKV,
        index_policy: IndexPolicy | None = None,
        store: StoreChoice | None = None,
    ) -> None:
        self.project = project if isinstance(project, Project) else Project(Path(project))
        # SQLite files or a PostgreSQL server (ConfigError for a bad choice)
        self.store = store if store is not None else resolve_store(self.project.root)
        self.router = StoreRouter(self.project, scope)
        self.clock = clock
        self.busy_timeout_ms = busy_timeout_ms
        self.store_factory = store_factory
        # where and when vectors get a persisted index (ConfigError for a bad $RS_LEARN_VECTOR_INDEX)
        self.index_policy = index_policy or IndexPolicy.from_env(default_cache_dir())
        self._pg: PgSession | None = None
        if self.store.is_postgresql:
            self.router.stored_disciplines = self.stored_disciplines
        self.logs: deque[LogRecord] = deque(maxlen=MAX_LOG_RECORDS)
        self.failures: list[str] = []
        self._busy_only = False  # every failure of the call so far was a lock wait given up
        self._disk_full = False  # a failure of the call so far was a full disk
        # what the last call left out (an unusable discipline store), and what the store's choice warns of
        self.warnings: list[str] = list(self.store.warnings)
        self.stores: dict[Path, tuple[Store, Search]] = {}
        self.write_lock_busy = False  # a put of this call found the write lock taken: run it again
        self._touched: dict[Path, Store] = {}
        self._in_call = False
        self._write_lock = False
        self._budget: LockBudget | None = None
        self._last_db: Path | None = None  # the store of the latest operation (see _named)
        self.ledger: AnswerLedger | None = None  # the spool's replay ledger, if any

    # the Host protocol

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        with self._op("kv_get", store=not self.router.is_reserved(ns)):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                check_name(key, "key")
                if ns == HOST_NS and key == "enabled-disciplines":
                    return self._enabled_disciplines()
                return self.router.host_value(ns, key)
            route = self.router.route(ns)
            return self._store(route.db)[0].get(route.ns, key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``: an empty value deletes; errors raise :class:`HostError`."""
        with self._op("kv_put"):
            route = self.router.route(ns)
            self._store(route.db)[0].put(route.ns, key, value)

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        with self._op("kv_query"):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                folded = q.casefold()
                entries = [(k, v) for k, v in self.router.host_entries(ns) if contains(k, v, folded)]
                return entries[:limit] if limit else entries
            route = self.router.route(ns)
            return self._store(route.db)[0].query(route.ns, q, limit)

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``."""
        with self._op("vec_search"):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                return []
            route = self.router.route(ns)
            return self._store(route.db)[1].search(route.ns, query, k)

    def log(self, level: int, msg: str) -> None:
        """``host-log``: to the ``rs_learn.guest`` logger and :attr:`logs` (never fails fast)."""
        self.logs.append(LogRecord(level, msg, parse_event(msg)))
        guest_log.log(LEVELS.get(level, logging.WARNING), "%s", msg)

    def now_ms(self) -> int:
        """``host-now-ms`` from :attr:`clock`, clamped to ``u64``."""
        with self._op("now_ms", store=False):
            return min(max(int(self.clock()), 0), U64_MAX)

    # transactions

    def begin(self, *, write_lock: bool = False, retry: bool = False) -> None:
        """Start an export call: clear the failures; stores join as they are touched.

        ``write_lock=False`` starts every store as a reader (upgraded by its first change);
        ``True`` takes each store's write lock when the call first touches it. ``retry``
        marks the second attempt of the same call: it keeps what is left of the lock budget.
        """
        if self._in_call:
            self.rollback()
        self.failures = []
        self._busy_only = False
        self._disk_full = False
        self.warnings = list(self.store.warnings)  # standing ones (a password in a committed config)
        self.write_lock_busy = False
        if not retry or self._budget is None:
            self._budget = LockBudget(self.busy_timeout_ms)
        self._write_lock = write_lock
        self._in_call = True

    def answer_ledger(self, path: Path) -> AnswerLedger:
        """The spool's replay ledger: the SQLite file ``path``, or a table of the PostgreSQL store."""
        from host_harness.spool.replay import Ledger

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

    def commit(self, *, token: str | None = None, answer: str | None = None) -> None:
        """Commit every store the call touched; on a failure roll back the rest and raise.

        With a ledger, a ``token`` and the call's ``answer``: a call that changed a store records
        the answer in that store's transaction (committed last, atomically with its writes); a call
        that changed nothing but asks for a file write records it on its own after the commits.
        """
        stores = list(self._touched.values())
        ledger = self.ledger if token is not None and answer is not None else None
        carried = standalone = False
        try:
            if ledger is not None and token is not None and answer is not None:
                changed = [kv for kv in stores if kv.changed]
                if changed:
                    carrier = changed[-1]
                    for sql, params in ledger.statements(token, answer):
                        carrier.execute_attached(sql, params)
                    stores = [kv for kv in stores if kv is not carrier] + [carrier]
                    carried = True
                else:
                    standalone = effects.pending(answer)
            for kv in stores:
                kv.commit()
            if ledger is not None and token is not None and answer is not None:
                if carried:
                    ledger.recorded()
                if standalone:
                    ledger.record(token, answer)
        except Exception as error:
            self.rollback()
            if is_busy(error):
                message = busy_message(self.busy_timeout_ms, f"commit: {_describe(error)}")
                raise HostFailure(message) from error
            if is_disk_full(error):
                raise HostFailure(disk_full_message(f"commit: {_describe(error)}")) from error
            raise HostFailure(f"internal: host failure: commit failed: {_describe(error)}") from error
        self._end()

    def rollback(self) -> None:
        """Roll back every store the call touched."""
        try:
            for kv in self._touched.values():
                try:
                    kv.rollback()
                except Exception as error:  # keep rolling back the others; the connection is suspect
                    self.record_failure("rollback", error)
                    kv.close()
        finally:
            self._end()

    def failure(self) -> str | None:
        """Return a message for the failures recorded during the call, or ``None``.

        ``busy: ...`` when every failure was a lock wait given up (nothing changed: retry the call),
        else ``internal: host failure: ...``.
        """
        if not self.failures:
            return None
        if self._busy_only:
            return busy_message(self.busy_timeout_ms, "; ".join(self.failures))
        if self._disk_full:
            return disk_full_message("; ".join(self.failures))
        return "internal: host failure: " + "; ".join(self.failures)

    def record_failure(self, where: str, error: BaseException) -> None:
        """Remember that a host import failed, so that the current call fails."""
        message = f"{where}: {_describe(error)}"
        self._busy_only = is_busy(error) and (self._busy_only or not self.failures)
        self._disk_full = self._disk_full or is_disk_full(error)
        self.failures.append(message)
        guest_log.error("host import failed: %s", message)

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

    def _enabled_disciplines(self) -> bytes:
        """``host/enabled-disciplines`` without the disciplines whose store cannot be opened."""
        usable = []
        for name in self.project.enabled_disciplines():
            db = self.project.discipline_db(name)
            try:
                if not self.store.is_postgresql and (db.exists() or db.is_symlink()):
                    self._store(db)[0].probe()
            except Exception as error:
                if is_busy(error):
                    raise  # locked is not broken: the call fails (and is not silently partial)
                self._drop_store(db)
                where, why = db.relative_to(self.project.root), _describe(error)
                self.warn(f"discipline {name!r} skipped: its store {where} cannot be used ({why})")
                continue
            usable.append(name)
        return json.dumps(usable, separators=(",", ":")).encode("utf-8")

    def warn(self, warning: str) -> None:
        """Say in the call's envelope (``warnings``, once) and in the log what the call left out."""
        if warning not in self.warnings:
            self.warnings.append(warning)
            guest_log.warning("%s", warning)

    def _drop_store(self, db: Path) -> None:
        self._touched.pop(db, None)
        entry = self.stores.pop(db, None)
        if entry is not None:
            entry[0].close()

    def _end(self) -> None:
        self._touched = {}
        self._in_call = False

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
            index.note = self.warn  # a hook's search without vectors (vecindex.IndexPolicy.scan_max)
            entry = self.stores[db] = (sqlite, index)
        kv = entry[0]
        if db not in self._touched and not kv.in_transaction:  # how this call's transaction starts
            kv.write_lock = self._write_lock or not self._in_call
            kv.upgrade_fails_fast = self._in_call and not self._write_lock
            kv.budget = self._budget if self._in_call else None
        self._touched[db] = kv
        return entry

    def _op(self, where: str, store: bool = True) -> _Op:
        """Run one import: contract errors pass through, anything else is recorded and raised.

        A store operation after the call has failed (or found the write lock taken) fails at
        once: the call is lost anyway, and each lookup would otherwise wait out the busy timeout.
        """
        return _Op(self, where, store)


class _Op:
    """:meth:`HostServices._op`'s context: a plain class, as every host import enters one."""

    __slots__ = ("services", "store", "where")

    def __init__(self, services: HostServices, where: str, store: bool) -> None:
        self.services, self.where, self.store = services, where, store

    def __enter__(self) -> None:
        services = self.services
        if self.store and services._in_call and (services.failures or services.write_lock_busy):
            reason = "the write lock is taken" if services.write_lock_busy else services.failures[0]
            raise HostError(f"host failure in {self.where}: the call already failed ({reason})")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
        services, where = self.services, self.where
        if error is None:
            if not services._in_call and services._touched:
                services.commit()
            return
        if isinstance(error, StoreError):
            if not services._in_call:
                services.rollback()
            return
        if isinstance(error, WriteLockBusy):
            services.write_lock_busy = True
            if not services._in_call:
                services.rollback()
            raise HostError(f"host failure in {where}: {error}") from error
        if not isinstance(error, Exception):
            return  # KeyboardInterrupt, SystemExit, GeneratorExit: as they are
        named = services._named(error)
        services.record_failure(where, named)
        if not services._in_call:
            services.rollback()
        raise HostError(f"host failure in {where}: {_describe(named)}") from named


def busy_message(timeout_ms: int, details: str) -> str:
    """The ``busy:`` answer of a call that could not get a store's write lock in time."""
    return (f"busy: other writers kept the store locked for this call's whole busy timeout "
            f"({timeout_ms} ms); nothing was changed: retry the call ({details})")


class UnusableStore(Exception):
    """A store file that SQLite cannot read as a database (``file is not a database``, ``malformed``)."""

    def __init__(self, project: Project, db: Path, error: Exception) -> None:
        name = project.store_name(db)
        which = f"the store of discipline {name!r}" if name else "the project store"
        try:
            where: Path = db.relative_to(project.root)
        except ValueError:
            where = db
        super().__init__(f"{which} ({where}) is not a usable SQLite database ({error}): move the file "
                         "aside, or restore it from git")


def _describe(error: BaseException) -> str:
    return str(error) if isinstance(error, UnusableStore) else f"{type(error).__name__}: {error}"
