"""Each export call is atomic on the host, on both targets.

Failures are real: a second SQLite connection holding the write lock, a file that
is not a database, a store whose reads or writes fail (an injected ``SqliteKV``
subclass, the same seam a server backend would use), a clock that fails.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pytest
from helpers.files import digest_if_any as digest

from host_harness.errors import GuestError, HostFailure
from host_harness.services import HostServices, ManualClock
from host_harness.store import SqliteKV


def envelope(guest, verb: str, body: dict | str) -> dict:
    return json.loads(guest.dispatch(verb, body if isinstance(body, str) else json.dumps(body)))


class FlakyKV(SqliteKV):
    """A store whose reads or writes of some namespaces fail like a broken disk."""

    fail_get: ClassVar[set[str]] = set()
    fail_put: ClassVar[set[str]] = set()

    def get(self, ns: str, key: str) -> bytes | None:
        if ns in self.fail_get:
            raise sqlite3.OperationalError("disk I/O error")
        return super().get(ns, key)

    def put(self, ns: str, key: str, value: bytes) -> bool:
        if ns in self.fail_put:
            raise sqlite3.OperationalError("database or disk is full")
        return super().put(ns, key, value)


@pytest.fixture
def db(project: Path) -> Path:
    return project / ".gm" / "rs-learn.db"


def test_success_commits_and_leaves_no_journal(guest, project: Path, db: Path):
    mem_id = guest.memorize("Commits happen when the call returns.", "default")
    assert db.exists() and not (project / ".gm" / "rs-learn.db-journal").exists()
    raw = sqlite3.connect(db).execute("SELECT count(*) FROM kv WHERE key = ?", (mem_id,)).fetchone()[0]
    assert raw >= 1


def test_a_guest_error_rolls_back(guest, db: Path):
    guest.memorize("kept", "default")
    before = digest(db)
    with pytest.raises(GuestError, match="validation"):
        guest.memorize("", "default")
    assert envelope(guest, "memorize", {"text": "x", "namespace": "../up"})["ok"] is False
    assert digest(db) == before


@pytest.mark.parametrize("failing", ["get", "put"])
def test_a_storage_failure_mid_call_fails_it_and_rolls_back(guest_factory, project: Path, clock: ManualClock,
                                                            db: Path, failing: str):
    FlakyKV.fail_get, FlakyKV.fail_put = set(), set()
    services = HostServices(project, clock=clock, store_factory=FlakyKV)
    guest = guest_factory(services)
    guest.memorize("The index holds one fact.", "default")
    before = digest(db)
    # memorize writes vectors, memories and docs before it touches the keyword index
    FlakyKV.fail_get, FlakyKV.fail_put = ({"terms"}, set()) if failing == "get" else (set(), {"terms"})
    # a broken disk is the host's failure; a full one a storage error that says so (issue 38, item 9)
    expected = "internal: host failure: " if failing == "get" else "storage: disk full: "
    try:
        with pytest.raises(HostFailure, match=f"{expected}.*(disk I/O error|disk is full)"):
            guest.memorize("A second fact hits a broken disk.", "default")
        assert digest(db) == before
        answer = envelope(guest, "memorize", "A second fact hits a broken disk.")
        assert answer == {"ok": False, "verb": "memorize", "error": answer["error"]}
        assert answer["error"].startswith(expected)
        assert digest(db) == before
    finally:
        FlakyKV.fail_get, FlakyKV.fail_put = set(), set()
    assert envelope(guest, "memorize", "A second fact hits a broken disk.")["data"]["deduped"] is False
    assert getattr(guest, "instantiations", 1) == 1, "a host failure is not a trap"


def test_a_failing_clock_fails_the_call(guest_factory, project: Path, db: Path):
    ticks = iter([1_700_000_000_000])

    def clock() -> int:
        return next(ticks)  # StopIteration after the first call

    guest = guest_factory(HostServices(project, clock=clock))
    guest.memorize("clock works once", "default")
    before = digest(db)
    with pytest.raises(HostFailure, match="now_ms: StopIteration"):
        guest.memorize("clock is broken now", "default")
    assert digest(db) == before


def test_a_locked_database_fails_cleanly(guest_factory, project: Path, clock: ManualClock, db: Path):
    guest = guest_factory(HostServices(project, clock=clock, busy_timeout_ms=100))
    guest.memorize("before the lock", "default")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(HostFailure, match=r"busy: .*nothing was changed"):
            guest.memorize("during the lock", "default")
        hits = envelope(guest, "recall", {"query": "lock"})["data"]  # a reader does not wait for writers
        assert [h["text"] for h in hits] == ["before the lock"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert envelope(guest, "memorize", "during the lock")["ok"] is True


def test_a_corrupt_database_is_an_error_not_an_empty_store(guest, db: Path):
    db.parent.mkdir(parents=True)
    db.write_bytes(b"this is not a database " * 200)
    before = digest(db)
    with pytest.raises(HostFailure, match="not a database"):
        guest.recall("anything", 3)
    answer = envelope(guest, "recall", {"query": "anything"})
    assert answer["ok"] is False and "not a database" in answer["error"]
    assert envelope(guest, "memorize", "x")["ok"] is False
    assert digest(db) == before


def test_disciplines_commit_together(guest, project: Path, services: HostServices):
    front = envelope(guest, "memorize", {"text": "vite builds the frontend", "namespace": "frontend"})
    assert front["ok"] is True and front["data"]["namespace"] == "frontend"
    assert (project / ".gm" / "disciplines" / "frontend" / "rs-learn.db").exists()
    assert not (project / ".gm" / "rs-learn.db").exists(), "a discipline write touches only its own store"
    assert services.failures == []


class RacedKV(SqliteKV):
    """Another process makes the first write to the store just before this call's first put."""

    before_first_put: ClassVar[list[Callable[[], object]]] = []

    def put(self, ns: str, key: str, value: bytes) -> bool:
        while self.before_first_put:
            self.before_first_put.pop()()
        return super().put(ns, key, value)


def test_two_first_writes_to_a_new_store_get_distinct_documents(
    guest_factory, project: Path, clock: ManualClock, db: Path
):
    other = guest_factory(HostServices(project, clock=clock))
    RacedKV.before_first_put = [lambda: other.memorize("The other process wrote the first fact.", "default")]
    try:
        guest = guest_factory(HostServices(project, clock=clock, store_factory=RacedKV))
        guest.memorize("This call read an empty project, then found it written.", "default")
    finally:
        RacedKV.before_first_put = []
    conn = sqlite3.connect(db)
    docs = dict(conn.execute("SELECT key, value FROM kv WHERE ns = 'docs'").fetchall())
    memories = [k for (k,) in conn.execute("SELECT key FROM kv WHERE ns = 'memories'")]
    conn.close()
    assert len(docs) == len(memories) == 2, "each memory has its own document number"
    assert {bytes(v).decode() for v in docs.values()} == set(memories)
    for words, fact in (("other process", "The other process"), ("empty project", "This call read")):
        hits = envelope(guest, "recall", {"query": words, "mode": "keyword"})["data"]
        assert hits and hits[0]["text"].startswith(fact)


@pytest.mark.parametrize(
    ("envelope", "expected"),
    [
        ('{"ok": true, "verb": "embed", "data": {"vector": [0.5]}}', True),
        ('{"ok": false, "verb": "recall", "error": "validation: no"}', False),
        ('{"ok": true, "verb": "x", "data": {"ok": false}}', True),  # another "ok": parsed
        ('{"ok": true, "verb": "x", "data": "ok"}', True),
        ('{"verb": "x", "ok": true}', True),  # another order: parsed
        ('{"ok": true, "verb": "x", "ok": false}', False),  # a duplicate key: the last wins, as in JSON
        ('{"ok": true, "verb": "x", "data": [', False),  # torn
        ("not json", False),
    ],
)
def test_envelope_ok_reads_the_prefix_only_when_it_decides(envelope, expected):
    from host_harness.targets.base import envelope_ok

    assert envelope_ok(envelope) is expected
