"""Structured memory (seed 001): record slugs, and hydrating a cold store from a snapshot; both targets."""

from __future__ import annotations

import json

import pytest
from envelopes import ok
from structured_helpers import db_digest, fails, ids

from guest.structured.slugs import MAX_SLUG, base, first_free
from host_harness.services import HostServices
from tests.conftest import EPOCH_MS

pytestmark = pytest.mark.both_stores


@pytest.mark.parametrize(
    ("kind", "title", "slug"),
    [
        ("checklist", "Release 0.2", "release-0-2"),
        ("todo", "  Fix the *flaky* login test!! ", "fix-the-flaky-login-test"),
        ("todo", "Café déjà vu", "cafe-deja-vu"),
        ("todo", "日本語のタスク", "todo"),
        ("session_note", "!!!", "note"),
        ("checklist", "x" * 70, "x" * MAX_SLUG),
    ],
)
def test_slug_base(kind, title, slug):
    assert base(kind, title) == slug


def test_first_free_suffixes_and_fits():
    assert first_free("a", set()) == "a"
    assert first_free("a", {"a", "a-2"}) == "a-3"
    long = "x" * MAX_SLUG
    assert first_free(long, {long}) == "x" * (MAX_SLUG - 2) + "-2"


def test_slugs_are_unique_per_kind_and_scope_and_stable(scoped, clock):
    app, other = scoped(projectId="app"), scoped(projectId="other")
    first = ok(app, "create_todo", {"title": "Ship it"})
    assert first["slug"] == "ship-it"
    assert ok(app, "create_todo", {"title": "Ship it!"})["slug"] == "ship-it-2"
    assert ok(app, "create_checklist", {"title": "Ship it"})["slug"] == "ship-it", "another kind"
    assert ok(other, "create_todo", {"title": "Ship it"})["slug"] == "ship-it", "another scope"
    ok(app, "delete_record", {"id": first["id"]})  # soft-deleted records keep their slug
    assert ok(app, "create_todo", {"title": "ship  IT"})["slug"] == "ship-it-3"
    clock.advance(5)
    renamed = ok(app, "update_todo", {"id": "td-2", "title": "Ship it now"})
    assert renamed["slug"] == "ship-it-2" and renamed["version"] == 2, "an update keeps the slug"
    note = ok(app, "create_session_note", {"content": "Ship it: the release train leaves at noon."})
    assert note["slug"] == "ship-it-the-release-train-leaves-at-noon"


def test_reconcile_backfills_slugs_without_touching_versions(guest, services):
    ok(guest, "create_todo", {"title": "Rotate keys"})
    legacy = json.loads(services.kv_get("records", "td-1"))
    del legacy["slug"]  # written before slugs existed
    services.kv_put("records", "td-1", json.dumps(legacy).encode())
    twin = {**legacy, "id": "td-2", "title": "Rotate  keys"}
    services.kv_put("records", "td-2", json.dumps(twin).encode())
    report = ok(guest, "reconcile_index")
    assert report["slugged"] == 2 and report["hydrated"] == []
    got = [ok(guest, "get_record", {"id": i}) for i in ("td-1", "td-2")]
    assert [(r["slug"], r["version"]) for r in got] == [("rotate-keys", 1), ("rotate-keys-2", 1)]
    assert ok(guest, "reconcile_index")["slugged"] == 0


def test_the_slug_index_frees_rebuilds_and_repairs(guest, services):
    for _ in range(3):
        ok(guest, "create_todo", {"title": "Deploy"})  # deploy, deploy-2, deploy-3
    ok(guest, "delete_record", {"id": "td-1", "hard": True})
    assert ok(guest, "create_todo", {"title": "Deploy"})["slug"] == "deploy", "a hard delete frees a slug"
    keys = [k for k, _ in services.kv_query("records-slugs", "", 0) if not k.endswith("|#")]
    assert sorted(k.rsplit("|", 1)[1] for k in keys) == ["deploy", "deploy-2", "deploy-3"]
    for key in keys:
        services.kv_put("records-slugs", key, b"")  # a lost index ...
    twin = {**json.loads(services.kv_get("records", "td-2")), "id": "td-9"}
    services.kv_put("records", "td-9", json.dumps(twin).encode())  # ... and a copy written by another tool
    report = ok(guest, "reconcile_index")
    assert report["slugged"] == 1
    assert ok(guest, "get_record", {"id": "td-9"})["slug"] == "deploy-4", "the later duplicate moves"
    assert ok(guest, "get_record", {"id": "td-2"})["slug"] == "deploy-2", "the earlier one keeps its slug"
    assert ok(guest, "create_todo", {"title": "Deploy"})["slug"] == "deploy-5", "the index is whole again"


SNAPSHOT = [
    {
        "kind": "checklist",
        "id": "cl-4",
        "title": "Release 0.2",
        "tags": ["release"],
        "createdAt": EPOCH_MS - 5 * 86_400_000,  # kept: retention ages it from then
        "version": 3,
        "items": [
            {"title": "Bump version", "status": "done"},
            {"title": "Changelog", "items": [{"title": "Collect entries"}]},
        ],
    },
    {"kind": "todo", "title": "Fix the flaky login test", "priority": 4, "slug": "flaky-login"},
    {"kind": "session_note", "content": "The login test is flaky because of a race on the cookie."},
    {
        "kind": "checklist",
        "title": "Flat items, as get_record answers them",
        "items": [
            {"id": "it-20", "parentId": "it-21", "title": "child", "ordinal": 0},
            {"id": "it-21", "parentId": None, "title": "parent", "version": 2},
        ],
    },
]


def test_a_snapshot_hydrates_a_cold_store(scoped, clock, project):
    cold = scoped(projectId="app")
    report = ok(cold, "reconcile_index", {"records": SNAPSHOT})
    assert report["hydrated"] == ["cl-4", "td-1", "nt-1", "cl-5"]
    assert report["records"] == 4 and report["indexed"] == 4 and report["vectors"] == 1
    release = ok(cold, "get_record", {"id": "cl-4"})
    assert release["scope"] == {
        "actorId": None, "conversationId": None, "projectId": "app", "threadId": None, "global": False,
    }, "scope comes from the host"
    created = EPOCH_MS - 5 * 86_400_000
    assert (release["slug"], release["version"], release["createdAt"]) == ("release-0-2", 3, created)
    assert release["updatedAt"] == release["createdAt"]
    tree = [(i["id"], i["parentId"], i["title"], i["status"]) for i in release["items"]]
    assert tree == [  # fresh ids start past the ids the snapshot brings (it-21)
        ("it-22", None, "Bump version", "done"),
        ("it-23", None, "Changelog", "pending"),
        ("it-24", "it-23", "Collect entries", "pending"),
    ]
    todo = ok(cold, "get_record", {"id": "td-1"})
    assert (todo["slug"], todo["priority"], todo["createdAt"]) == ("flaky-login", 4, EPOCH_MS)
    flat = ok(cold, "get_record", {"id": "cl-5"})
    assert [(i["id"], i["parentId"], i["version"]) for i in flat["items"]] == [
        ("it-21", None, 2), ("it-20", "it-21", 1),
    ]
    assert ids(ok(cold, "query_records", {"query": "flaky login"}))[:2] == ["td-1", "nt-1"]
    fresh = ok(cold, "create_checklist", {"title": "Next", "items": [{"title": "x"}]})
    assert fresh["items"][0]["id"] == "it-25"
    assert ok(cold, "create_todo", {"title": "Another"})["id"] == "td-2"
    assert ok(scoped(projectId="other"), "query_records", {"query": "flaky login"})["hits"] == []


def checklist(*items: dict) -> list[dict]:
    return [{"kind": "checklist", "title": "c", "items": list(items)}]


def todo(**extra) -> dict:
    return {"kind": "todo", "title": "x", **extra}


def test_a_dump_round_trips_into_another_store(scoped, guest_factory, tmp_path, clock):
    source = scoped(projectId="app")
    nested = [{"title": "a", "items": [{"title": "b"}]}]
    ok(source, "create_checklist", {"title": "Release 0.2", "items": nested})
    ok(source, "create_todo", {"title": "Fix the flaky login test", "priority": 4, "due": "2026-12-01"})
    ok(source, "create_session_note", {"content": "The login test races on the cookie.", "tags": ["ci"]})
    ok(source, "update_todo", {"id": "td-1", "status": "archived"})
    dump = [ok(source, "get_record", {"id": i}) for i in ("cl-1", "td-1", "nt-1")]
    other = tmp_path / "other"
    other.mkdir()
    target = guest_factory(HostServices(other, scope={"projectId": "app"}, clock=clock))
    snapshot = [{k: v for k, v in record.items() if k != "scope"} for record in dump]
    assert ok(target, "reconcile_index", {"records": snapshot})["hydrated"] == ["cl-1", "td-1", "nt-1"]
    assert [ok(target, "get_record", {"id": i}) for i in ("cl-1", "td-1", "nt-1")] == dump


@pytest.mark.parametrize(
    ("records", "kind", "message"),
    [
        ("nope", "validation", "field 'records' must be an array of records"),
        ([3], "validation", "field 'records[0]' must be a record object"),
        ([{"title": "x"}], "validation", "field 'records[0].kind' must be one of"),
        ([{"kind": "todo"}], "validation", "missing field 'records[0].title'"),
        ([todo(priority=9)], "validation", "records[0]: field 'priority'"),
        ([todo(scope={"projectId": "p"})], "validation", "'records[0].scope'"),
        ([todo(projectId="p")], "validation", "is a scope field"),
        ([todo(id="cl-1")], "validation", "'records[0].id' must be an id"),
        ([todo(status="deleted")], "validation", "must be one of"),
        ([todo(slug="Not A Slug")], "validation", "lowercase kebab-case"),
        ([todo(bogus=1)], "validation", "unknown field 'records[0].bogus'"),
        ([todo(deletedAt=5)], "validation", "is a deleted record"),
        ([todo(id="td-3"), todo(id="td-3")], "validation", "appears twice"),
        ([todo(slug="s"), todo(slug="s")], "validation", "slug 's' appears twice"),
        (checklist({"title": "a", "parentId": "it-9"}), "validation", "parentId 'it-9' of item 0 is not"),
        (
            checklist(
                {"id": "it-1", "parentId": "it-2", "title": "a"},
                {"id": "it-2", "parentId": "it-1", "title": "b"},
            ),
            "validation",
            "form a cycle",
        ),
        (
            checklist({"title": "a", "items": [{"title": "b", "parentId": "it-1"}]}),
            "validation",
            "is nested and names a parentId",
        ),
        ([todo(), todo(id="td-1")], "conflict", "record 'td-1' is already in the store"),
        ([todo(slug="existing")], "conflict", "slug 'existing' is already taken"),
    ],
)
def test_a_bad_snapshot_changes_nothing(guest, project, records, kind, message):
    ok(guest, "create_todo", {"title": "Existing"})  # td-1, slug "existing"
    before = db_digest(project)
    assert message in fails(guest, "reconcile_index", {"records": records}, kind)
    assert db_digest(project) == before


def test_snapshot_depth_is_checked(guest):
    chain: list[dict] = []
    for level in range(6, 0, -1):
        chain = [{"title": f"level {level}", **({"items": chain} if chain else {})}]
    deep = {"kind": "checklist", "title": "deep", "items": chain}
    message = fails(guest, "reconcile_index", {"records": [deep]}, "validation")
    assert "would be at depth 6; maxChecklistDepth is 5" in message
    flat = [
        {"id": f"it-{n}", "parentId": f"it-{n - 1}" if n > 1 else None, "title": "t"} for n in range(1, 7)
    ]
    message = fails(guest, "reconcile_index", {"records": [{**deep, "items": flat}]}, "validation")
    assert "reach depth 6; maxChecklistDepth is 5" in message
