"""``HostServices``: the six host imports over the router, the stores and the vector indexes.

It implements the guest's :class:`guest.host.Host` protocol directly, so the
native target passes it to ``Engine`` as is, and the wasm binding
(``host_harness.component``) wraps the same methods.

Transactions: :meth:`HostServices.begin` starts an export call; every database the
call touches is opened in a transaction (see ``host_harness.kv``);
:meth:`HostServices.commit` commits all of them when the call succeeded and
:meth:`HostServices.rollback` rolls all of them back otherwise. Outside
``begin()``/``commit()`` each operation is its own transaction (handy in tests).
Commits are per file: if the second of two databases fails to commit, the first
has already committed (SQLite cannot join files that were not ATTACHed first).

Failures: storage errors (locked beyond the busy timeout, corrupt file, disk
full, a harness bug) are recorded in :attr:`HostServices.failures` as well as
raised as :class:`guest.host.HostError`; the guest wrapper then fails the whole
call even if the guest swallowed the error or got a neutral answer. Contract
errors (bad namespace or key, a write to ``host``) are :class:`StoreError`: the
guest hears about them through ``host-kv-put``'s ``err`` and decides.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from guest.host import HostError
from host_harness.cachedir import default_cache_dir
from host_harness.errors import HostFailure, StoreError
from host_harness.store.kv import DEFAULT_BUSY_TIMEOUT_MS, SqliteKV, check_name, contains
from host_harness.store.router import Project, StoreRouter
from host_harness.store.vecindex import IndexPolicy
from host_harness.store.vectors import VectorIndex

T = TypeVar("T")
LEVELS = {1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR}
MAX_LOG_RECORDS = 10_000
U64_MAX = 2**64 - 1

guest_log = logging.getLogger("rs_learn.guest")


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
    ) -> None:
        self.project = project if isinstance(project, Project) else Project(Path(project))
        self.router = StoreRouter(self.project, scope)
        self.clock = clock
        self.busy_timeout_ms = busy_timeout_ms
        self.store_factory = store_factory
        # where and when vectors get a persisted index (ConfigError for a bad $RS_LEARN_VECTOR_INDEX)
        self.index_policy = index_policy or IndexPolicy.from_env(default_cache_dir())
        self.logs: deque[LogRecord] = deque(maxlen=MAX_LOG_RECORDS)
        self.failures: list[str] = []
        self.stores: dict[Path, tuple[SqliteKV, VectorIndex]] = {}
        self._touched: dict[Path, SqliteKV] = {}
        self._in_call = False

    # the Host protocol

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        with self._op("kv_get"):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                check_name(key, "key")
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
        """``host-log``: to the ``rs_learn.guest`` logger and :attr:`logs`."""
        self.logs.append(LogRecord(level, msg, parse_event(msg)))
        guest_log.log(LEVELS.get(level, logging.WARNING), "%s", msg)

    def now_ms(self) -> int:
        """``host-now-ms`` from :attr:`clock`, clamped to ``u64``."""
        with self._op("now_ms"):
            return min(max(int(self.clock()), 0), U64_MAX)

    # transactions

    def begin(self) -> None:
        """Start an export call: clear the failures; stores join as they are touched."""
        if self._in_call:
            self.rollback()
        self.failures = []
        self._in_call = True

    def commit(self) -> None:
        """Commit every store the call touched; on a failure roll back the rest and raise."""
        try:
            for kv in self._touched.values():
                kv.commit()
        except Exception as error:
            self.rollback()
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
        """Return a message for the failures recorded during the call, or ``None``."""
        if not self.failures:
            return None
        return "internal: host failure: " + "; ".join(self.failures)

    def record_failure(self, where: str, error: BaseException) -> None:
        """Remember that a host import failed, so that the current call fails."""
        message = f"{where}: {_describe(error)}"
        self.failures.append(message)
        guest_log.error("host import failed: %s", message)

    def index_misses(self) -> list[tuple[Path, str, int]]:
        """``(store, namespace, dimension)`` of the persisted vector indexes scanned instead of built."""
        return [(db, ns, dim) for db, (_, index) in self.stores.items() for ns, dim in sorted(index.misses)]

    def close(self) -> None:
        """Roll back anything open and close every database."""
        if self._in_call or self._touched:
            self.rollback()
        for kv, _ in self.stores.values():
            kv.close()
        self.stores.clear()

    def _end(self) -> None:
        self._touched = {}
        self._in_call = False

    def _store(self, db: Path) -> tuple[SqliteKV, VectorIndex]:
        entry = self.stores.get(db)
        if entry is None:
            kv = self.store_factory(db, self.busy_timeout_ms)
            entry = self.stores[db] = (kv, VectorIndex(kv, self.index_policy))
        self._touched[db] = entry[0]
        return entry

    @contextmanager
    def _op(self, where: str) -> Iterator[None]:
        """Run one import: contract errors pass through, anything else is recorded and raised."""
        try:
            yield
        except StoreError:
            if not self._in_call:
                self.rollback()
            raise
        except Exception as error:
            self.record_failure(where, error)
            if not self._in_call:
                self.rollback()
            raise HostError(f"host failure in {where}: {_describe(error)}") from error
        if not self._in_call and self._touched:
            self.commit()


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"
