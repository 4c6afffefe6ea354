"""Exactly once for every verb: a crash after the commit replays the original answer (issue 11, item 1).

A fault-injection point (``Spool.after_commit``) kills the watcher after the call committed and
before ``out/<N>.json`` is written. A new watcher (new services, new guest: a new process) must
answer the claim from the replay ledger: the same envelope as an uninterrupted run, and a store
identical to that run's -- no second block, todo or item, no ``"deduped": true``, no ``Updated``
for what this very request created.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from envelopes import ok
from hostprocs import write_request
from stores import every_store_rows, ledger_tokens

from host_harness.services import HostServices
from host_harness.spool.watcher import Spool

pytestmark = pytest.mark.both_stores

SKILL = {"action": "create", "name": "Deploy Steps", "description": "How we deploy", "body": "1. Ship\n"}
WRITES = [
    ("memorize", {"text": "Deploys go through ArgoCD."}),
    ("memorize", "@frontend The bundler is vite."),
    ("learn", {"memory": "Smoke-test before shipping.", "skill": SKILL}),
    ("archive", {"content": "build log: 3 warnings", "label": "build log"}),
    ("create_todo", {"title": "Rotate the keys", "priority": 3}),
    ("create_checklist", {"title": "Release", "items": [{"title": "Tag"}, {"title": "Notes"}]}),
    ("create_session_note", {"content": "The flaky test races on the cookie."}),
    ("add_checklist_item", {"checklistId": "cl-1", "title": "Announce"}),
    ("update_checklist_item", {"checklistId": "cl-1", "itemId": "it-1", "status": "done"}),
    ("update_checklist", {"id": "cl-1", "title": "Release 0.2"}),
    ("update_todo", {"id": "td-1", "status": "in_progress"}),
    ("update_session_note", {"id": "nt-1", "importance": 0.9}),
    ("delete_record", {"id": "td-1"}),
    ("memory_retention", {"force": True}),
    ("reindex", {}),  # writes only after an embedder change: here it re-runs harmlessly, unrecorded
    ("reconcile_index", {}),
]


class Crash(BaseException):
    """The watcher dies here (not an Exception: nothing in the spool may swallow it)."""


def seed(guest) -> None:
    ok(guest, "create_checklist", {"title": "Seeded", "items": [{"title": "First"}]})  # cl-1, it-1
    ok(guest, "create_todo", {"title": "Seeded todo"})  # td-1
    ok(guest, "create_session_note", {"content": "Seeded note"})  # nt-1
    ok(guest, "archive", {"content": "seeded block"})  # r1


def dump(project: Path) -> dict[str, list[tuple[str, str, bytes]]]:
    """Every row of every committed store of the project."""
    return every_store_rows(project)


def answer_of(project: Path, n: str) -> dict:
    return json.loads((project / ".gm" / "exec-spool" / "out" / f"{n}.json").read_text(encoding="utf-8"))


def run(guest_factory, project: Path, clock, verb: str, body, crash: bool) -> tuple[dict, dict, dict | None]:
    """Seed, send one request (crashing after its commit if asked), recover; the answer and the stores."""
    services = HostServices(project, clock=clock)
    guest = guest_factory(services)
    seed(guest)
    raw = body if isinstance(body, str) else json.dumps(body)
    write_request(project, verb, "1.json", raw.encode("utf-8"))
    spool = Spool(project, guest)
    committed: list[str] = []

    def die(_claim, envelope: str) -> None:
        committed.append(envelope)
        raise Crash

    if crash:
        spool.after_commit = die
        with pytest.raises(Crash):
            spool.drain_all(threading.Event())
        assert not (project / ".gm" / "exec-spool" / "out" / "1.json").exists()
    else:
        spool.drain_all(threading.Event())
    spool.close()
    services.close()  # the process is gone; the commit was already on disk
    restarted = HostServices(project, clock=clock)
    again = Spool(project, guest_factory(restarted))
    again.drain_all(threading.Event())
    again.close()
    restarted.close()
    first = json.loads(committed[0]) if committed else None
    return answer_of(project, "1"), dump(project), first


@pytest.mark.parametrize(("verb", "body"), WRITES, ids=[f"{v}-{i}" for i, (v, _) in enumerate(WRITES)])
def test_a_crash_after_the_commit_replays_the_original_answer(guest_factory, tmp_path: Path, clock,
                                                               verb: str, body):
    crashed, control = tmp_path / "crashed", tmp_path / "control"
    crashed.mkdir()
    control.mkdir()
    start = clock.now_ms
    answer, stores, first = run(guest_factory, crashed, clock, verb, body, crash=True)
    clock.now_ms = start
    expected, expected_stores, _ = run(guest_factory, control, clock, verb, body, crash=False)
    assert answer["ok"] is True, answer
    assert answer == expected, "the replayed answer is the uninterrupted run's"
    assert first is not None and answer["data"].items() >= {k: v for k, v in first["data"].items()
                                                             if k != "write"}.items()
    assert stores == expected_stores, "the request's effects happened exactly once"
    if verb == "learn":
        for project in (crashed, control):
            skill = project / ".gm" / "managed-skills" / "deploy-steps" / "SKILL.md"
            assert skill.read_text().endswith("1. Ship\n")
        assert answer["data"]["text"] == 'Lesson stored. Created managed skill "deploy-steps".'
    work = crashed / ".gm" / "exec-spool" / "work"
    assert not [p for p in work.rglob("*") if p.is_file()], "no claim is left"


def test_reads_are_not_recorded_and_the_ledger_is_pruned(guest, project: Path):
    ok(guest, "memorize", "Deploys go through ArgoCD.")
    for i in range(1, 6):
        write_request(project, "memorize", f"{i}.json", json.dumps({"text": f"Fact {i}."}).encode())
        write_request(project, "recall", f"{i + 10}.json", b'{"query": "fact"}')
    spool = Spool(project, guest)
    spool.drain_all(threading.Event())
    spool.close()
    rows = ledger_tokens(project)
    assert len(rows) <= 1, "only the last write's row may remain until the next write or recovery"
    assert ok(guest, "stats")["memories"] == 6


def test_a_failed_call_records_nothing(guest, project: Path):
    write_request(project, "archive", "1.json", b'{"label": "no content"}')
    spool = Spool(project, guest)
    seen: list[str] = []
    spool.after_commit = lambda claim, envelope: seen.append(claim.token)
    spool.drain_all(threading.Event())
    assert answer_of(project, "1")["ok"] is False
    assert spool.ledger.lookup(seen[0]) is None
    spool.close()


def test_a_call_holding_two_write_locks_records_once(project: Path, clock):
    """Every store connection attaches the ledger; taking their write locks must not lock it twice."""
    services = HostServices(project, clock=clock, busy_timeout_ms=500)
    ledger = services.answer_ledger(project / ".gm" / "exec-spool" / "ledger.db")
    services.use_ledger(ledger)
    services.kv_put("seed", "k", b"1")
    services.kv_put("disciplines/frontend/seed", "k", b"1")
    services.begin(write_lock=True)  # the second attempt of a call: every store's write lock first
    assert services.kv_get("seed", "k") == b"1"
    services.kv_put("disciplines/frontend/notes", "n", b"written")
    services.commit(token="0123456789abcdef", answer='{"ok": true, "verb": "x", "data": 1}')
    assert services.failures == []
    assert ledger.lookup("0123456789abcdef") == '{"ok": true, "verb": "x", "data": 1}'
    assert services.kv_get("disciplines/frontend/notes", "n") == b"written"
    ledger.close()
    services.close()
