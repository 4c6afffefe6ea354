"""Structured memory (issue #4, seed 001): every verb on both targets, and a table of bad requests."""

from __future__ import annotations

import json

import pytest
from docpages import page
from envelopes import call, ok
from structured_helpers import db_digest, fails, ids, nested, write_config

from host_harness.services import HostServices
from tests.conftest import EPOCH_MS

# the PostgreSQL copies: one case per verb and what the store decides (both_stores marks below)

DAY = 86_400_000


def test_memory_helper_version(guest):
    data = ok(guest, "memory_helper_version")
    assert data["version"] == "1.0.0" and data["schema"] == 1 and data["enabled"] is True
    assert data["config"] == {
        "enabled": True,
        "backend": "sqlite",
        "defaultLimit": 10,
        "maxContextTokens": 1500,
        "enableSemanticNotes": True,
        "retentionDays": 30,
        "archiveDeleteDays": 365,
        "maxChecklistDepth": 5,
    }
    assert data["scope"] == {
        "actorId": None,
        "conversationId": None,
        "projectId": None,
        "threadId": None,
        "global": False,
    }


@pytest.mark.both_stores
def test_create_checklist_with_nested_items(guest, clock):
    clock.now_ms = EPOCH_MS + 5
    data = ok(
        guest,
        "create_checklist",
        {
            "title": "Release 0.2",
            "tags": ["Release", "release", "v0"],
            "due": "2026-12-01",
            "items": [
                {"title": "Bump version", "status": "done"},
                {"title": "Changelog", "items": [{"title": "Collect entries", "tags": ["docs"]}]},
            ],
        },
    )
    assert data["id"] == "cl-1" and data["kind"] == "checklist" and data["status"] == "open"
    assert data["tags"] == ["release", "v0"] and data["due"] == "2026-12-01"
    assert (data["version"], data["createdAt"], data["updatedAt"]) == (1, EPOCH_MS + 5, EPOCH_MS + 5)
    assert data["archivedAt"] is None and data["deletedAt"] is None
    items = [(i["id"], i["title"], i["parentId"], i["ordinal"], i["status"]) for i in data["items"]]
    assert items == [
        ("it-1", "Bump version", None, 0, "done"),
        ("it-2", "Changelog", None, 1, "pending"),
        ("it-3", "Collect entries", "it-2", 0, "pending"),
    ]
    assert ok(guest, "get_record", {"id": "cl-1"}) == data
    assert ok(guest, "create_checklist", "Raw title body")["title"] == "Raw title body"


@pytest.mark.both_stores
def test_add_and_update_items_versions_and_ordering(guest, clock):
    ok(guest, "create_checklist", {"title": "Plan", "items": [{"title": "a"}, {"title": "b"}]})
    clock.advance(10)
    added = ok(guest, "add_checklist_item", {"checklistId": "cl-1", "title": "a1", "parentId": "it-1"})
    assert added["item"]["id"] == "it-3" and added["item"]["parentId"] == "it-1"
    assert added["checklist"]["version"] == 2 and added["checklist"]["updatedAt"] == EPOCH_MS + 10
    first = ok(
        guest,
        "add_checklist_item",
        {"checklistId": "cl-1", "title": "first", "ordinal": 0, "checklistVersion": 2},
    )
    # Tree order: siblings by ordinal, then creation order (it-1 and it-4 share ordinal 0).
    assert [i["id"] for i in first["checklist"]["items"]] == ["it-1", "it-3", "it-4", "it-2"]
    clock.advance(10)
    done = ok(
        guest,
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-3", "status": "done", "version": 1},
    )
    assert done["item"]["status"] == "done" and done["item"]["version"] == 2
    assert done["item"]["updatedAt"] == EPOCH_MS + 20 and done["checklist"]["version"] == 4
    moved = ok(guest, "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-3", "parentId": "it-2"})
    item = moved["item"]
    assert (item["parentId"], item["ordinal"], item["version"]) == ("it-2", 0, 3)
    assert [i["id"] for i in moved["checklist"]["items"]] == ["it-1", "it-4", "it-2", "it-3"]
    root = ok(guest, "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-3", "parentId": None})
    assert root["item"]["parentId"] is None
    same = ok(guest, "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-3", "status": "done"})
    assert same["checklist"]["version"] == root["checklist"]["version"], "a no-op change writes nothing"


@pytest.mark.both_stores
def test_todo_lifecycle_and_optimistic_concurrency(guest, clock, project):
    todo = ok(guest, "create_todo", {"title": "Fix the flaky login test", "priority": 4, "tags": ["ci"]})
    assert todo == {
        "id": "td-1",
        "kind": "todo",
        "slug": "fix-the-flaky-login-test",
        "title": "Fix the flaky login test",
        "description": None,
        "due": None,
        "priority": 4,
        "status": "pending",
        "tags": ["ci"],
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
    }
    clock.advance(1000)
    updated = ok(
        guest, "update_todo", {"id": "td-1", "version": 1, "status": "in_progress", "due": "2026-12-01"}
    )
    assert (updated["version"], updated["updatedAt"], updated["status"]) == (
        2,
        EPOCH_MS + 1000,
        "in_progress",
    )
    assert "version 2, not 1" in fails(
        guest, "update_todo", {"id": "td-1", "version": 1, "status": "done"}, "conflict"
    )
    before = db_digest(project)
    assert ok(guest, "update_todo", {"id": "td-1", "status": "in_progress"})["version"] == 2
    assert db_digest(project) == before, "an update that changes nothing writes nothing"
    last = ok(
        guest, "update_todo", {"id": "td-1", "status": "done", "due": None, "description": "flaky no more"}
    )
    assert (last["version"], last["due"], last["description"]) == (3, None, "flaky no more")
    archived = ok(guest, "update_todo", {"id": "td-1", "status": "archived"})
    assert archived["archivedAt"] == EPOCH_MS + 1000
    assert ok(guest, "update_todo", {"id": "td-1", "status": "pending"})["archivedAt"] is None


def test_session_notes_title_and_vectors(guest, services):
    long = (
        "The staging database password rotates on the first Monday of every month, ask ops for the new one."
    )
    note = ok(guest, "create_session_note", long)
    assert note["id"] == "nt-1" and note["importance"] == 0.5 and note["status"] == "active"
    assert note["title"].endswith("…") and len(note["title"]) <= 80 and long.startswith(note["title"][:-1])
    embedder = ok(guest, "version")["embedder"]
    keys = [k for k, _ in services.kv_query(f"records-vectors/{embedder}", "", 0)]
    assert len(keys) == 1 and keys[0].startswith("nt-1@")
    ok(guest, "update_session_note", {"id": "nt-1", "content": "Lunch is at noon.", "importance": 0.9})
    after = [k for k, _ in services.kv_query(f"records-vectors/{embedder}", "", 0)]
    assert len(after) == 1 and after != keys, "new content, new vector"
    ok(guest, "update_session_note", {"id": "nt-1", "importance": 0.2})
    assert [k for k, _ in services.kv_query(f"records-vectors/{embedder}", "", 0)] == after


@pytest.mark.both_stores
def test_ids_come_from_sequences_and_are_never_reused(guest):
    assert [ok(guest, "create_todo", {"title": f"t{i}"})["id"] for i in range(3)] == ["td-1", "td-2", "td-3"]
    ok(guest, "delete_record", {"id": "td-3", "hard": True})
    assert ok(guest, "create_todo", {"title": "t4"})["id"] == "td-4"
    assert ok(guest, "create_session_note", {"content": "n"})["id"] == "nt-1"
    assert (
        ok(guest, "create_checklist", {"title": "c", "items": [{"title": "i"}]})["items"][0]["id"] == "it-1"
    )


def seed_records(guest) -> None:
    ok(
        guest,
        "create_checklist",
        {
            "title": "Release train",
            "tags": ["release"],
            "items": [{"title": "bump version"}, {"title": "write changelog"}],
        },
    )
    ok(guest, "create_todo", {"title": "Fix the flaky login test", "priority": 4, "tags": ["ci", "auth"]})
    ok(guest, "create_todo", {"title": "Upgrade the CI runners", "tags": ["ci"]})
    ok(
        guest,
        "create_session_note",
        {"content": "The sign-in test fails intermittently because of a cookie race.", "tags": ["auth"]},
    )
    ok(guest, "create_session_note", {"content": "Lunch is at noon on Fridays."})


@pytest.mark.both_stores
def test_query_records_keyword_tags_and_filters(guest, clock):
    seed_records(guest)
    assert ids(ok(guest, "query_records", {"query": "changelog", "kinds": ["checklist", "todo"]})) == ["cl-1"]
    assert ids(ok(guest, "query_records", {"query": "changelog"}))[0] == "cl-1"
    top = ok(guest, "query_records", {"query": "flaky login", "kinds": ["todo"]})
    assert ids(top) == ["td-1"] and top["hits"][0]["channels"] == ["keyword"]
    assert ids(ok(guest, "query_records", {"tags": ["ci"]})) == [
        "td-1",
        "td-2",
    ]  # newest first; same time: by id
    assert ids(ok(guest, "query_records", {"tags": ["ci", "auth"]})) == ["td-1"]
    assert ids(
        ok(guest, "query_records", {"query": "test", "tags": ["auth"], "kinds": ["session_note"]})
    ) == ["nt-1"]
    assert len(ok(guest, "query_records", {"limit": 2})["hits"]) == 2
    clock.advance(5)
    ok(guest, "update_todo", {"id": "td-1", "status": "done"})
    assert ids(ok(guest, "query_records", {"status": "done"})) == ["td-1"]
    assert ids(ok(guest, "query_records", {"kinds": ["todo"]}))[0] == "td-1", (
        "listing: most recently updated first"
    )
    assert ok(guest, "query_records", {"query": "nothing matches zzzqqq", "kinds": ["todo"]})["hits"] == []


@pytest.mark.both_stores
def test_semantic_notes_are_fused_and_can_be_turned_off(guest, guest_factory, project, clock):
    seed_records(guest)
    fused = ok(guest, "query_records", {"query": "sign-in cookie race", "kinds": ["session_note"]})
    assert fused["semantic"] is True and fused["hits"][0]["record"]["id"] == "nt-1"
    assert fused["hits"][0]["channels"] == ["keyword", "semantic"]
    only_semantic = ok(
        guest, "query_records", {"query": "authentication flakiness", "kinds": ["session_note"]}
    )
    assert all(h["channels"] == ["semantic"] for h in only_semantic["hits"])
    write_config(project, enableSemanticNotes=False)
    plain = guest_factory(HostServices(project, clock=clock))
    off = ok(plain, "query_records", {"query": "sign-in cookie race", "kinds": ["session_note"]})
    assert off["semantic"] is False and off["hits"][0]["channels"] == ["keyword"]
    assert (
        ok(plain, "query_records", {"query": "authentication flakiness", "kinds": ["session_note"]})["hits"]
        == []
    )
    plain.services.close()


@pytest.mark.both_stores
def test_delete_soft_hard_and_items(guest, services):
    seed_records(guest)
    soft = ok(guest, "delete_record", {"id": "td-1"})
    assert soft == {"id": "td-1", "deleted": "soft", "version": 2}
    stored = json.loads(services.kv_get("records", "td-1"))
    assert stored["status"] == "deleted" and stored["deletedAt"] == EPOCH_MS
    assert "td-1" not in ids(ok(guest, "query_records", {"query": "flaky login", "includeArchived": True}))
    fails(guest, "get_record", {"id": "td-1"}, "not_found")
    fails(guest, "update_todo", {"id": "td-1", "title": "x"}, "not_found")
    fails(guest, "delete_record", {"id": "td-1"}, "not_found")
    assert ok(guest, "delete_record", {"id": "td-1", "hard": True}) == {"id": "td-1", "deleted": "hard"}
    assert services.kv_get("records", "td-1") is None
    ok(guest, "add_checklist_item", {"checklistId": "cl-1", "title": "sub", "parentId": "it-2"})
    gone = ok(guest, "delete_record", {"id": "it-2", "checklistId": "cl-1"})
    assert gone["removed"] == ["it-2", "it-3"] and [i["id"] for i in gone["checklist"]["items"]] == ["it-1"]
    assert ok(guest, "query_records", {"query": "changelog", "kinds": ["checklist"]})["hits"] == []


@pytest.mark.both_stores
def test_retrieve_memory_renders_within_the_budget(guest):
    seed_records(guest)
    ok(guest, "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-1", "status": "done"})
    data = ok(guest, "retrieve_memory", {"query": "release changelog version", "kinds": ["checklist"]})
    assert data["text"] == (
        "## Structured memory\n"
        "- [checklist cl-1] Release train (open, 1/2 done) #release\n"
        "  - [x] bump version\n"
        "  - [ ] write changelog"
    )
    assert data["tokens"] == -(-len(data["text"]) // 4) and data["budget"] == 1500 and not data["truncated"]
    assert [h["record"]["id"] for h in data["records"]] == ["cl-1"]
    both = ok(guest, "retrieve_memory", {"query": "flaky login test", "kinds": ["todo", "session_note"]})
    assert (
        both["text"].splitlines()[1]
        == "- [todo td-1] Fix the flaky login test (pending, priority 4) #ci #auth"
    )
    small = ok(guest, "retrieve_memory", {"query": "flaky login test", "maxTokens": 30})
    assert small["tokens"] <= 30 and small["truncated"] and len(small["records"]) == 1
    tiny = ok(guest, "retrieve_memory", {"query": "flaky login test", "maxTokens": 12})
    assert tiny["tokens"] == 12 and tiny["text"].endswith("…") and len(tiny["records"]) == 1
    assert ok(guest, "retrieve_memory", {"query": "zzzqqq", "kinds": ["todo"]})["text"] == ""
    assert len(ok(guest, "retrieve_memory", {"limit": 2})["records"]) == 2


def test_disabled_structured_memory_answers_clearly(guest_factory, project, clock):
    write_config(project, enabled=False)
    guest = guest_factory(HostServices(project, clock=clock))
    for verb in ("create_todo", "query_records", "retrieve_memory", "reconcile_index", "delete_record"):
        assert "structured memory is disabled" in fails(guest, verb, {"title": "x"}, "validation")
    assert ok(guest, "memory_helper_version")["enabled"] is False
    assert db_digest(project) is None
    guest.services.close()


def test_max_checklist_depth_comes_from_config(guest_factory, project, clock):
    write_config(project, maxChecklistDepth=2)
    guest = guest_factory(HostServices(project, clock=clock))
    ok(guest, "create_checklist", {"title": "two levels", "items": nested(2)})
    assert "maxChecklistDepth is 2" in fails(
        guest, "create_checklist", {"title": "x", "items": nested(3)}, "validation"
    )
    fails(
        guest,
        "add_checklist_item",
        {"checklistId": "cl-1", "title": "deep", "parentId": "it-2"},
        "validation",
    )
    guest.services.close()


@pytest.mark.both_stores
def test_reads_of_an_empty_store_create_nothing(guest, project):
    assert ok(guest, "query_records", {"query": "anything"})["hits"] == []
    assert ok(guest, "retrieve_memory", "anything")["text"] == ""
    assert ok(guest, "memory_retention")["ran"] is False
    assert db_digest(project) is None


SEEDED_CHECKLIST = {"title": "Deep", "items": [*nested(5), {"title": "root two"}]}  # it-1..it-5 chain, it-6
BAD = [
    # (verb, body, kind, message)
    ("create_checklist", {}, "validation", "missing field 'title'"),
    ("create_checklist", {"title": 5}, "validation", "field 'title' must be a string, not a number"),
    ("create_checklist", {"title": "x" * 201}, "validation", "has 201 characters; the limit is 200"),
    ("create_checklist", {"title": "ok", "tags": "a"}, "validation", "must be an array of strings"),
    (
        "create_checklist",
        {"title": "ok", "tags": [f"t{i}" for i in range(21)]},
        "validation",
        "the limit is 20",
    ),
    ("create_checklist", {"title": "ok", "tags": ["x" * 41]}, "validation", "is not valid: 1-40 characters"),
    ("create_checklist", {"title": "ok", "status": "finished"}, "validation", "must be one of open, done"),
    ("create_checklist", {"title": "ok", "due": "2026-02-30"}, "validation", "ISO-8601"),
    ("create_checklist", {"title": "ok", "items": "x"}, "validation", "must be an array of items"),
    (
        "create_checklist",
        {"title": "ok", "items": [{"title": "a", "actorId": "x"}]},
        "validation",
        "field 'items[0].actorId' is a scope field",
    ),
    (
        "create_checklist",
        {"title": "ok", "projectId": "p"},
        "validation",
        "field 'projectId' is a scope field",
    ),
    (
        "create_checklist",
        {"title": "ok", "scope": {"global": True}},
        "validation",
        "'scope' is a scope field",
    ),
    ("create_checklist", {"title": "ok", "titel": "x"}, "validation", "unknown field 'titel'"),
    (
        "create_checklist",
        {"title": "ok", "items": nested(6)},
        "validation",
        "at depth 6; maxChecklistDepth is 5",
    ),
    ("update_checklist", {"title": "x"}, "validation", "missing field 'id'"),
    ("update_checklist", {"id": "td-1", "title": "x"}, "validation", "must be an id of the form cl-<n>"),
    ("update_checklist", {"id": "cl-99", "title": "x"}, "not_found", "no record 'cl-99' in this scope"),
    ("update_checklist", {"id": "cl-1", "version": 9, "title": "x"}, "conflict", "is at version 1, not 9"),
    ("update_checklist", {"id": "cl-1", "version": 0}, "validation", "must be between 1 and"),
    ("update_checklist", {"id": "cl-1", "items": []}, "validation", "unknown field 'items'"),
    ("add_checklist_item", {"checklistId": "cl-1"}, "validation", "missing field 'title'"),
    ("add_checklist_item", {"title": "x"}, "validation", "missing field 'checklistId'"),
    (
        "add_checklist_item",
        {"checklistId": "cl-1", "title": "x", "parentId": "it-7"},
        "validation",
        "parentId 'it-7' is not an item of checklist 'cl-1'",
    ),
    (
        "add_checklist_item",
        {"checklistId": "cl-1", "title": "x", "parentId": "it-5"},
        "validation",
        "would reach depth 6",
    ),
    (
        "add_checklist_item",
        {"checklistId": "cl-1", "title": "x", "ordinal": -1},
        "validation",
        "between 0 and",
    ),
    ("add_checklist_item", {"checklistId": "cl-1", "title": "x", "checklistVersion": 9}, "conflict", "not 9"),
    ("add_checklist_item", {"checklistId": "cl-9", "title": "x"}, "not_found", "no record 'cl-9'"),
    (
        "add_checklist_item",
        {"checklistId": "cl-1", "title": "x", "global": True},
        "validation",
        "scope field",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-1", "parentId": "it-3"},
        "validation",
        "its own ancestor (a cycle)",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-2", "parentId": "it-2"},
        "validation",
        "a cycle",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-6", "parentId": "it-5"},
        "validation",
        "would reach depth 6",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-1", "parentId": "it-6"},
        "validation",
        "would reach depth 6",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-7", "status": "done"},
        "validation",
        "itemId 'it-7' is not an item of checklist 'cl-1'",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-1", "status": "finished"},
        "validation",
        "must be one of pending, in_progress, done, skipped",
    ),
    (
        "update_checklist_item",
        {"checklistId": "cl-1", "itemId": "it-1", "version": 5},
        "conflict",
        "item 'it-1' is at version 1, not 5",
    ),
    (
        "create_todo",
        {"title": "x", "priority": -1},
        "validation",
        "'priority' must be between 0 and 5, got -1",
    ),
    ("create_todo", {"title": "x", "priority": 6}, "validation", "between 0 and 5"),
    ("create_todo", {"title": "x", "priority": "high"}, "validation", "must be an integer, not a string"),
    ("create_todo", {"title": "x", "priority": 2.5}, "validation", "must be an integer"),
    ("create_todo", {"title": "x", "status": "archivedd"}, "validation", "must be one of pending"),
    ("create_todo", {"title": "x", "due": "tomorrow"}, "validation", "ISO-8601"),
    ("create_todo", {"title": "   "}, "validation", "field 'title' is empty"),
    ("create_todo", {"title": "x", "actor_id": "a"}, "validation", "'actor_id' is a scope field"),
    ("create_todo", "[1, 2]", "validation", "not an array"),
    ("update_todo", {"id": "td-1", "status": "deleted"}, "validation", "must be one of"),
    ("update_todo", {"id": "td-9"}, "not_found", "no record 'td-9'"),
    ("update_todo", {"id": "nt-1", "title": "x"}, "validation", "td-<n>"),
    ("update_todo", {"id": "td-01"}, "validation", "td-<n>"),
    ("create_session_note", {}, "validation", "missing field 'content'"),
    ("create_session_note", {"content": "x", "importance": 1.5}, "validation", "between 0.0 and 1.0"),
    ("create_session_note", {"content": "x", "importance": True}, "validation", "must be a number"),
    ("create_session_note", {"content": "x" * (16 * 1024 + 1)}, "validation", "the limit is 16384"),
    ("update_session_note", {"id": "nt-1", "version": 2, "content": "y"}, "conflict", "not 2"),
    ("update_session_note", {"id": "nt-1", "content": ""}, "validation", "field 'content' is empty"),
    ("query_records", {"query": 5}, "validation", "field 'query' must be a string"),
    ("query_records", {"kinds": ["task"]}, "validation", "must be one of checklist, todo, session_note"),
    ("query_records", {"limit": -1}, "validation", "between 0 and 100"),  # 0 is the default (issue 25)
    ("query_records", {"status": "deleted"}, "validation", "must be one of"),
    ("query_records", {"includeArchived": "yes"}, "validation", "must be true or false"),
    ("query_records", {"query": "x", "threadId": "t"}, "validation", "'threadId' is a scope field"),
    ("query_records", {"sort": "x"}, "validation", "unknown field 'sort'"),
    ("retrieve_memory", {"maxTokens": 0}, "validation", "between 1 and"),
    ("retrieve_memory", {"query": "x", "conversationId": "c"}, "validation", "scope field"),
    ("delete_record", {}, "validation", "missing field 'id'"),
    ("delete_record", {"id": "xx-1"}, "validation", "must be an id of the form"),
    ("delete_record", {"id": "td-1", "hard": "yes"}, "validation", "must be true or false"),
    ("delete_record", {"id": "td-1", "version": 3}, "conflict", "not 3"),
    ("delete_record", {"id": "it-1"}, "validation", "missing field 'checklistId'"),
    ("delete_record", {"id": "it-7", "checklistId": "cl-1"}, "validation", "not an item of checklist 'cl-1'"),
    ("delete_record", {"id": "td-99"}, "not_found", "no record 'td-99'"),
    ("get_record", {"id": "cl-77"}, "not_found", "no record 'cl-77'"),
    ("reconcile_index", {"force": True}, "validation", "unknown field 'force'"),
    ("memory_retention", {"force": "x"}, "validation", "must be true or false"),
]


@pytest.fixture
def seeded(guest):
    ok(guest, "create_checklist", SEEDED_CHECKLIST)
    ok(guest, "create_checklist", {"title": "Other", "items": [{"title": "elsewhere"}]})  # cl-2 / it-7
    ok(guest, "create_todo", {"title": "A todo"})
    ok(guest, "create_session_note", {"content": "A note"})
    return guest


@pytest.mark.both_stores
@pytest.mark.parametrize(
    ("verb", "body", "kind", "message"), BAD, ids=[f"{v}-{i}" for i, (v, *_) in enumerate(BAD)]
)
def test_bad_requests_fail_with_their_kind_and_change_nothing(seeded, project, verb, body, kind, message):
    before = db_digest(project)
    error = fails(seeded, verb, body, kind)
    assert message in error
    assert db_digest(project) == before
    assert ok(seeded, "get_record", {"id": "cl-1"})["version"] == 1  # the instance is still healthy


def test_host_scope_that_is_malformed_is_internal(guest_factory, project, clock):
    guest = guest_factory(HostServices(project, scope={"actorId": 7}, clock=clock))
    assert "host scope.actorId must be a string" in fails(guest, "create_todo", {"title": "x"}, "internal")
    assert call(guest, "query_records", {})["ok"] is False
    guest.services.close()


# ---------------------------------------------------------------- the README's examples


def readme_exchanges() -> list[tuple[str, object, dict]]:
    """The (verb, body, abridged envelope) lines of the first example of ``docs/structured.md``."""
    block = page("structured.md").split("```json\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    out = []
    for request, response in zip(lines[::2], lines[1::2], strict=True):
        body, verb = request.rsplit("->", 1)
        out.append((verb.strip(), json.loads(body), json.loads(response)))
    return out


def contains(expected, actual) -> bool:
    """Whether ``actual`` holds everything ``expected`` shows (objects: a subset; arrays: same length)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list) and len(actual) == len(expected) and all(map(contains, expected, actual))
        )
    return expected == actual


def test_readme_examples(guest_factory, project, clock):
    exchanges = readme_exchanges()
    assert len(exchanges) == 9
    guest = guest_factory(HostServices(project, scope={"projectId": "app"}, clock=clock))
    for verb, body, expected in exchanges:
        envelope = call(guest, verb, body)
        assert contains(expected, envelope), (verb, envelope)
    guest.services.close()
