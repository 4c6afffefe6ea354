"""Structured memory: trusted scope isolation, retention with the settable clock, reconcile_index."""

from __future__ import annotations

import json

import pytest
from envelopes import ok
from structured_helpers import fails, ids, write_config

from guest.structured.context import Scope
from host_harness.services import HostServices
from tests.conftest import EPOCH_MS

pytestmark = pytest.mark.both_stores

DAY = 86_400_000


@pytest.mark.parametrize(
    ("record", "caller", "sees"),
    [
        ({}, {}, True),
        ({}, {"projectId": "p"}, False),
        ({"projectId": "p"}, {}, False),
        ({"projectId": "p"}, {"projectId": "p", "threadId": "t"}, True),
        ({"projectId": "p", "threadId": "t"}, {"projectId": "p"}, False),
        ({"projectId": "p", "threadId": "t"}, {"projectId": "p", "threadId": "u"}, False),
        ({"projectId": "p", "actorId": "a"}, {"projectId": "p", "actorId": "b"}, False),
        ({"projectId": "p", "global": True}, {"projectId": "q"}, True),
        ({"global": True}, {}, True),
        ({"projectId": ""}, {}, True),  # an empty string is unset
    ],
)
def test_scope_matching_rule(record, caller, sees):
    assert Scope.from_json(caller, "caller").sees(Scope.from_json(record, "record")) is sees


def test_records_never_cross_scopes(scoped):
    a = scoped(projectId="p1", actorId="a1")
    other_project = scoped(projectId="p2", actorId="a1")
    other_actor = scoped(projectId="p1", actorId="a2")
    project_wide = scoped(projectId="p1")
    unscoped = scoped()
    everyone = scoped(projectId="p1", **{"global": True})

    secret = ok(a, "create_todo", {"title": "alpha secret plan", "tags": ["x"]})
    assert secret["scope"] == {
        "actorId": "a1",
        "conversationId": None,
        "projectId": "p1",
        "threadId": None,
        "global": False,
    }
    shared = ok(project_wide, "create_todo", {"title": "beta shared plan", "tags": ["x"]})["id"]
    public = ok(everyone, "create_session_note", {"content": "gamma everywhere plan", "tags": ["x"]})["id"]
    loose = ok(unscoped, "create_todo", {"title": "delta unscoped plan", "tags": ["x"]})["id"]

    def visible(guest) -> set[str]:
        by_text = set(ids(ok(guest, "query_records", {"query": "plan", "limit": 100})))
        by_tag = set(ids(ok(guest, "query_records", {"tags": ["x"], "limit": 100})))
        assert by_text == by_tag
        return by_tag

    assert visible(a) == {secret["id"], shared, public}
    assert visible(other_actor) == {shared, public}
    assert visible(project_wide) == {shared, public}
    assert visible(other_project) == {public}
    assert visible(unscoped) == {loose, public}
    for outsider in (other_project, other_actor, unscoped):
        fails(outsider, "get_record", {"id": secret["id"]}, "not_found")
        fails(outsider, "update_todo", {"id": secret["id"], "title": "stolen"}, "not_found")
        fails(outsider, "delete_record", {"id": secret["id"], "hard": True}, "not_found")
        retrieved = ok(outsider, "retrieve_memory", {"query": "alpha secret plan"})
        assert "alpha" not in retrieved["text"]
    assert ok(a, "get_record", {"id": secret["id"]})["title"] == "alpha secret plan"
    assert ok(other_project, "update_session_note", {"id": public, "importance": 0.9})["version"] == 2


def test_retention_archives_then_deletes_by_the_host_clock(guest, services, clock):
    ok(guest, "create_todo", {"title": "old todo"})  # td-1
    ok(guest, "create_session_note", {"content": "old note"})  # nt-1
    ok(guest, "create_todo", {"title": "soon deleted"})  # td-2
    ok(guest, "delete_record", {"id": "td-2"})
    clock.advance(29 * DAY)
    ok(guest, "update_todo", {"id": "td-1", "title": "old todo, touched"})
    clock.advance(2 * DAY)  # day 31: the note is 31 days old, the todo 2
    assert ids(ok(guest, "query_records", {})) == ["td-1", "nt-1"], "a read never runs the pass"
    assert json.loads(services.kv_get("records-meta", "retention")) == {"lastRun": EPOCH_MS + 29 * DAY}
    ok(guest, "update_todo", {"id": "td-1", "priority": 2})  # the lazy daily pass runs after a write
    listed = ok(guest, "query_records", {})
    assert ids(listed) == ["td-1"]
    note = ok(guest, "get_record", {"id": "nt-1"})
    assert (note["status"], note["archivedAt"], note["updatedAt"], note["version"]) == (
        "archived",
        EPOCH_MS + 31 * DAY,
        EPOCH_MS,
        2,
    )
    assert ids(ok(guest, "query_records", {"includeArchived": True})) == ["td-1", "nt-1"]
    assert ids(ok(guest, "query_records", {"query": "note", "status": "archived"})) == ["nt-1"]
    assert json.loads(services.kv_get("records-meta", "retention")) == {"lastRun": EPOCH_MS + 31 * DAY}
    clock.advance(DAY // 2)
    assert ok(guest, "memory_retention", {"force": False})["ran"] is False, "at most once a day"
    clock.advance(365 * DAY)
    report = ok(guest, "memory_retention")
    assert report == {"ran": True, "lastRun": clock.now_ms, "archived": ["td-1"], "deleted": ["nt-1", "td-2"]}
    assert services.kv_get("records", "nt-1") is None and services.kv_get("records", "td-2") is None
    fails(guest, "get_record", {"id": "nt-1"}, "not_found")
    assert ok(guest, "get_record", {"id": "td-1"})["status"] == "archived"


def test_retention_days_zero_turns_cleanup_off(guest_factory, project, clock):
    write_config(project, retentionDays=0, archiveDeleteDays=0)
    guest = guest_factory(HostServices(project, clock=clock))
    ok(guest, "create_todo", {"title": "kept forever"})
    clock.advance(10_000 * DAY)
    assert ok(guest, "memory_retention") == {
        "ran": True,
        "lastRun": clock.now_ms,
        "archived": [],
        "deleted": [],
    }
    assert ids(ok(guest, "query_records", {})) == ["td-1"]
    guest.services.close()


def direct_record(record_id: str, kind: str, title: str, **extra) -> bytes:
    """A record as another process (an older build, a sync tool) would write it, index untouched."""
    record = {
        "id": record_id,
        "kind": kind,
        "title": title,
        "status": "active" if kind == "session_note" else "pending",
        "tags": [],
        "version": 1,
        "createdAt": EPOCH_MS,
        "updatedAt": EPOCH_MS,
        "archivedAt": None,
        "deletedAt": None,
        "scope": {
            "actorId": None,
            "conversationId": None,
            "projectId": None,
            "threadId": None,
            "global": False,
        },
        **extra,
    }
    return json.dumps(record).encode()


def test_reconcile_index_repairs_what_another_process_wrote(guest, services):
    ok(guest, "create_todo", {"title": "Rotate the signing keys"})  # td-1, indexed
    # Another process writes records directly: a new todo, a new note, an edited td-1, and junk.
    services.kv_put("records", "td-7", direct_record("td-7", "todo", "Feed the zebra", priority=0))
    services.kv_put(
        "records",
        "nt-3",
        direct_record(
            "nt-3", "session_note", "Zebra crossing", content="Zebra crossing near the office", importance=0.5
        ),
    )
    services.kv_put("records", "td-1", direct_record("td-1", "todo", "Renew the TLS certificate", priority=0))
    services.kv_put("records", "td-9", b"not json")
    services.kv_put("records", "bogus", direct_record("bogus", "todo", "zebra"))
    assert ok(guest, "query_records", {"query": "zebra", "kinds": ["todo"]})["hits"] == [], (
        "the index is stale"
    )
    assert ok(guest, "query_records", {"query": "certificate"})["hits"] == []
    assert ids(ok(guest, "query_records", {"query": "signing keys", "kinds": ["todo"]})) == ["td-1"]

    report = ok(guest, "reconcile_index")
    assert report["records"] == 3 and sorted(report["skipped"]) == ["bogus", "td-9"]
    assert report["indexed"] == 3 and report["embedded"] == 1 and report["vectors"] == 1
    assert ids(ok(guest, "query_records", {"query": "zebra", "kinds": ["todo"]})) == ["td-7"]
    notes = ok(guest, "query_records", {"query": "zebra crossing office", "kinds": ["session_note"]})
    assert ids(notes) == ["nt-3"] and notes["hits"][0]["channels"] == ["keyword", "semantic"]
    assert ids(ok(guest, "query_records", {"query": "certificate"})) == ["td-1"]
    assert ok(guest, "query_records", {"query": "signing keys", "kinds": ["todo"]})["hits"] == []
    assert ok(guest, "create_todo", {"title": "next"})["id"] == "td-8", "sequences move past direct writes"
    again = ok(guest, "reconcile_index")
    assert (again["embedded"], again["removedTerms"], again["removedVectors"]) == (0, 0, 0)


def test_a_corrupt_stored_tree_is_refused_not_looped_over(guest, services):
    ok(
        guest,
        "create_checklist",
        {"title": "Looping", "items": [{"title": "a"}, {"title": "b"}, {"title": "c"}]},
    )
    record = json.loads(services.kv_get("records", "cl-1"))
    record["items"][0]["parentId"], record["items"][1]["parentId"] = "it-2", "it-1"  # written by a buggy tool
    services.kv_put("records", "cl-1", json.dumps(record).encode())
    assert "hangs under a cycle in the stored tree" in fails(
        guest, "add_checklist_item", {"checklistId": "cl-1", "title": "d", "parentId": "it-1"}, "validation"
    )
    fails(
        guest,
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-3", "parentId": "it-2"},
        "validation",
    )
    assert ok(guest, "retrieve_memory", {"query": "looping"})["text"].splitlines()[1:] == [
        "- [checklist cl-1] Looping (open, 0/3 done)",
        "  - [ ] c",
    ]
    renamed = ok(guest, "update_checklist", {"id": "cl-1", "title": "Looping still"})
    assert sorted(i["id"] for i in renamed["items"]) == ["it-1", "it-2", "it-3"], "no write drops items"
    repaired = ok(guest, "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-1", "parentId": None})
    tree = [(i["id"], i["parentId"]) for i in repaired["checklist"]["items"]]
    assert tree == [("it-3", None), ("it-1", None), ("it-2", "it-1")]


def test_an_unscoped_caller_can_count_what_scopes_hide(scoped):
    """Issue 25, item 19: `records list` says how many records scopes hide; a scoped caller is never told."""
    app = scoped(projectId="app")
    ok(app, "create_todo", {"title": "app todo", "tags": ["ci"]})
    ok(app, "create_session_note", {"title": "app note", "content": "x"})
    ok(scoped(projectId="web", threadId="t"), "create_todo", {"title": "web todo"})
    ok(scoped(projectId="web", **{"global": True}), "create_todo", {"title": "everyone's todo"})
    unscoped = scoped()
    ok(unscoped, "create_todo", {"title": "loose todo"})
    found = ok(unscoped, "query_records", {"countHidden": True})
    assert sorted(h["record"]["title"] for h in found["hits"]) == ["everyone's todo", "loose todo"]
    assert found["hiddenByScope"] == 3, "the global record is seen, not hidden"
    assert ok(unscoped, "query_records", {"countHidden": True, "kinds": ["todo"]})["hiddenByScope"] == 2
    assert ok(unscoped, "query_records", {"countHidden": True, "tags": ["ci"]})["hiddenByScope"] == 1
    assert ok(unscoped, "query_records", {"countHidden": True, "query": "app"})["hiddenByScope"] == 3
    assert "hiddenByScope" not in ok(unscoped, "query_records", {})
    refused = fails(app, "query_records", {"countHidden": True}, "validation")
    assert "countHidden' is for an unscoped caller only" in refused


def test_limit_zero_is_the_default_limit(scoped):
    """Issue 25, item 19: 0 means the default for query_records and retrieve_memory, as for recall."""
    caller = scoped()
    for n in range(12):
        ok(caller, "create_todo", {"title": f"todo {n}"})
    assert len(ok(caller, "query_records", {"limit": 0})["hits"]) == 10  # defaultLimit
    assert len(ok(caller, "query_records", {"limit": 12})["hits"]) == 12
    default = ok(caller, "retrieve_memory", {})["records"]
    assert ok(caller, "retrieve_memory", {"limit": 0})["records"] == default
    assert "must be between 0 and 100, got -1" in fails(caller, "query_records", {"limit": -1}, "validation")
