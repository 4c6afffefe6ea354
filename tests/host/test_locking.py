"""Readers never wait for writers nor take the write lock; a call waits for locks once (issue 11, item 4)."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from envelopes import call, ok
from hostprocs import host, host_env, wait_for
from stores import store_digest

from host_harness.errors import HostFailure
from host_harness.services import HostServices
from host_harness.store import LockBudget, SqliteKV, WriteLockBusy
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime

READS = [
    ("recall", {"query": "deploys"}),
    ("stats", {}),
    ("auto_recall", {"prompt": "how do deploys work?"}),
    ("archive_search", {"query": "deploy log"}),
    ("archive_recall", {"id": "r1"}),
    ("query_records", {"query": "release"}),
    ("get_record", {"id": "td-1"}),
    ("retrieve_memory", {"query": "release"}),
    ("memory_helper_version", {}),
    ("embed", {"text": "anything"}),
]


def seed(guest) -> None:
    ok(guest, "memorize", "Deploys go through ArgoCD.")
    ok(guest, "archive", {"content": "deploy log: all green", "label": "deploy log"})
    ok(guest, "create_todo", {"title": "Release 0.2"})


class Holder:
    """Another process's writer: holds the store's write lock with an uncommitted change."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute("INSERT INTO kv (ns, key, value) VALUES ('elsewhere', 'k', x'01')")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


def test_reads_do_not_wait_for_a_writer(guest_factory, project: Path, clock):
    services = HostServices(project, clock=clock, busy_timeout_ms=2_000)
    guest = guest_factory(services)
    seed(guest)
    holder = Holder(project / ".gm" / "rs-learn.db")
    try:
        for verb, body in READS:  # before: every call opened BEGIN IMMEDIATE and failed "locked"
            envelope = call(guest, verb, body)
            assert envelope["ok"] is True, (verb, envelope)
        assert ok(guest, "recall", "argocd")[0]["text"] == "Deploys go through ArgoCD."
    finally:
        holder.release()
    services.close()


class Probing(HostServices):
    """Services that check, at every lookup, whether another connection could take the write lock."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.probes: list[bool] = []

    def probe(self) -> None:
        db = self.project.db_path
        if not db.exists():
            return
        other = sqlite3.connect(db, isolation_level=None, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            self.probes.append(True)
        except sqlite3.OperationalError:
            self.probes.append(False)
        finally:
            other.close()

    def kv_get(self, ns, key):
        value = super().kv_get(ns, key)
        self.probe()
        return value

    def kv_query(self, ns, q, limit):
        value = super().kv_query(ns, q, limit)
        self.probe()
        return value


def test_reads_never_take_the_write_lock(guest_factory, project: Path, clock):
    services = Probing(project, clock=clock)
    guest = guest_factory(services)
    seed(guest)
    for verb, body in READS:
        services.probes.clear()
        assert call(guest, verb, body)["ok"] is True
        assert all(services.probes), f"{verb} held the write lock during the call"
    services.probes.clear()
    ok(guest, "memorize", "A new fact takes the write lock.")
    assert False in services.probes, "the probe sees a writer's lock (so it can fail)"
    services.close()


def test_a_busy_timeout_is_paid_at_most_once(guest_factory, project: Path, clock):
    services = HostServices(project, clock=clock, busy_timeout_ms=300)
    guest = guest_factory(services)
    ok(guest, "memorize", "Before the lock.")
    holder = Holder(project / ".gm" / "rs-learn.db")
    try:
        with pytest.raises(HostFailure, match=r"^busy: .*gave up waiting for the write lock"):
            guest.memorize("During the lock: many lookups, one wait.", "default")
        assert len(services.failures) == 1, services.failures  # before: one per failing lookup
    finally:
        holder.release()
    assert call(guest, "memorize", "During the lock: many lookups, one wait.")["ok"] is True
    services.close()


def test_a_writer_that_finds_the_lock_taken_runs_again_and_waits_its_turn(guest_factory, project: Path,
                                                                           clock):
    services = HostServices(project, clock=clock, busy_timeout_ms=30_000)
    guest = guest_factory(services)
    ok(guest, "memorize", "Before the lock.")
    holder = Holder(project / ".gm" / "rs-learn.db")
    timer = threading.Timer(0.3, holder.release)
    timer.start()
    try:
        data = ok(guest, "archive", {"content": "written after the other writer", "label": "late"})
    finally:
        timer.join()
    assert data["id"] == "r1"
    assert ok(guest, "stats")["memories"] == 1
    assert services.failures == []
    services.close()


def test_a_read_transaction_fails_fast_when_it_cannot_upgrade(tmp_path: Path):
    db = tmp_path / "kv.db"
    writer = SqliteKV(db)
    with writer.transaction():
        writer.put("ns", "k", b"1")
    reader = SqliteKV(db, busy_timeout_ms=60_000)
    reader.write_lock, reader.upgrade_fails_fast = False, True
    assert reader.get("ns", "k") == b"1"  # a deferred read transaction: the shared lock only
    writer.put("ns", "other", b"2")  # the other connection takes the write lock meanwhile
    assert reader.put("ns", "k", b"1") is False, "a put that changes nothing needs no lock"
    with pytest.raises(WriteLockBusy):  # at once, not after a minute
        reader.put("ns", "k", b"3")
    reader.rollback()
    writer.commit()
    reader.close()
    writer.close()


def test_the_lock_budget_is_shared_by_every_wait():
    budget = LockBudget(1_000)
    assert budget.remaining_ms() == 1_000
    budget.left_s -= 0.75
    assert budget.remaining_ms() == 250
    budget.left_s -= 1
    assert budget.remaining_ms() == 0


def test_cli_recall_and_the_hook_answer_while_a_writer_holds_the_lock(wasm_path: Path, wasm_runtime: Runtime,
                                                                      project: Path):
    services = HostServices(project)
    guest = WasmGuest(wasm_runtime, services)
    guest.memorize("The staging server listens on port 8080.", "default")
    guest.close()
    services.close()
    env = host_env(project, RS_LEARN_HOOK_TIMEOUT="20")
    holder = Holder(project / ".gm" / "rs-learn.db")
    try:
        recall = host("recall", "staging port", "--json", env=env)
        assert recall.returncode == 0, recall.stderr
        assert "8080" in json.loads(recall.stdout)[0]["text"]
        prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project),
                             "prompt": "which port does the staging server use?"}).encode()
        hook = host("hook", "prompt-submit", env=env, input=prompt)
        assert hook.returncode == 0
        assert "8080" in json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    finally:
        holder.release()


# issue 25, item 11: writers served in turn; a call that cannot get the lock answers busy:


class PgHolder:
    """Another process holding a PostgreSQL project's write lock (its advisory lock)."""

    def __init__(self, project: Path) -> None:
        import psycopg

        from host_harness.config import resolve_store
        from host_harness.store.pg.driver import LOCK_CLASS, project_lock_key

        choice = resolve_store(project)
        self.conn = psycopg.connect(choice.url, autocommit=True)
        key = project_lock_key(choice.project_id)
        self.conn.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_CLASS, key))

    def release(self) -> None:
        self.conn.close()


@pytest.mark.both_stores
def test_a_call_that_cannot_get_the_write_lock_answers_busy(guest_factory, project: Path, clock, store_kind):
    services = HostServices(project, clock=clock, busy_timeout_ms=300)
    guest = guest_factory(services)
    ok(guest, "memorize", "Before the lock.")
    before = store_digest(project)
    holder = PgHolder(project) if store_kind == "postgresql" else Holder(project / ".gm" / "rs-learn.db")
    try:
        envelope = call(guest, "memorize", "During the lock.")
        with pytest.raises(HostFailure) as typed:
            guest.memorize("During the lock, typed.", "default")
    finally:
        holder.release()
    for message in (envelope["error"], typed.value.message):
        assert message.startswith("busy: other writers kept the store locked for this call's whole busy "
                                  "timeout (300 ms); nothing was changed: retry the call ("), message
    assert envelope["ok"] is False and store_digest(project) == before
    assert ok(guest, "memorize", "During the lock.")["deduped"] is False  # retried, it goes through
    services.close()


def queued(project: Path) -> int:
    """How many tickets the writers' queue of the project store has handed out."""
    path = project / ".gm" / "rs-learn.db-queue"
    return int.from_bytes(path.read_bytes()[:8], "little") if path.exists() else 0


def test_waiting_writers_are_served_first_come_first_served(target: str, project: Path, clock, request):
    """Three writers queue behind a held lock in a known order; they archive r1, r2, r3 in that order."""
    from conftest import make_guest

    first = HostServices(project, clock=clock)
    ok(make_guest(target, first, request), "memorize", "Before the lock.")
    first.close()
    holder = Holder(project / ".gm" / "rs-learn.db")
    answers: dict[str, dict] = {}

    def writer(tag: str) -> None:
        services = HostServices(project, clock=clock, busy_timeout_ms=120_000)
        guest = make_guest(target, services, request)
        answers[tag] = call(guest, "archive", {"content": f"written by {tag}", "label": tag})
        guest.close()
        services.close()

    threads = []
    try:
        for n, tag in enumerate("ABC", start=1):
            threads.append(threading.Thread(target=writer, args=(tag,)))
            threads[-1].start()
            wait_for(lambda n=n: queued(project) == n, 60, f"writer {tag} to queue")  # before: no queue
    finally:
        holder.release()
        for thread in threads:
            thread.join()
    assert {tag: answers[tag]["data"]["id"] for tag in "ABC"} == {"A": "r1", "B": "r2", "C": "r3"}


def test_a_writer_does_not_go_past_queued_ones(project: Path):
    """A write that could take the free lock at once still waits its turn behind a queued writer."""
    from host_harness.store.queue import WriterQueue

    store = project / ".gm" / "rs-learn.db"
    kv = SqliteKV(store)
    with kv.transaction():
        kv.put("ns", "k", b"1")
    head = WriterQueue(store, None)
    head.join(time.monotonic() + 5)  # a writer at the head of the queue, about to take the lock
    reader = SqliteKV(store)
    reader.write_lock, reader.upgrade_fails_fast = False, True
    assert reader.get("ns", "k") == b"1"
    with pytest.raises(WriteLockBusy, match="writers are queued"):  # the lock itself is free
        reader.put("ns", "k", b"2")
    reader.rollback()
    head.close()
    assert reader.put("ns", "k", b"2") is True  # the queue is empty again
    reader.commit()
    for store_kv in (kv, reader):
        store_kv.close()
