"""A call that changes no user data leaves every committed file byte-identical (issue 11, item 5).

``.gm/`` is committed to git, except ``exec-spool/`` and ``logs/`` (local state). A read -- even
the first of a new day, when the lazy retention pass used to stamp the store -- must not touch it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from envelopes import call, ok

DAY = 86_400_000
LOCAL = ("exec-spool", "logs")

READS = [
    ("recall", {"query": "deploys"}),
    ("recall", "@frontend bundler"),
    ("recall", {"id": "r1"}),
    ("stats", {}),
    ("stats", {"namespace": "frontend"}),
    ("embed", {"text": "anything"}),
    ("version", {}),
    ("auto_recall", {"prompt": "how do deploys and the bundler work?"}),
    ("archive_recall", {"id": "r1"}),
    ("archive_search", {"query": "deploy log"}),
    ("memory_helper_version", {}),
    ("get_record", {"id": "td-1"}),
    ("get_record", {"id": "cl-1"}),
    ("query_records", {}),
    ("query_records", {"query": "release", "includeArchived": True}),
    ("retrieve_memory", {"query": "release checklist"}),
    ("reconcile_index", {}),
    ("reindex", {}),
    ("memory_retention", {"force": False}),  # within a day of the last pass: a read
    # writes that change nothing are reads too
    ("memorize", "Deploys go through ArgoCD."),
    ("update_todo", {"id": "td-1", "title": "Release 0.2"}),
    ("learn", {"memory": "Run the migrations before the tests."}),
]


def committed(project: Path) -> dict[str, tuple[str, int]]:
    """Every committed file under ``.gm/``: content digest and mtime."""
    gm = project / ".gm"
    files = {}
    for path in sorted(gm.rglob("*")):
        rel = path.relative_to(gm)
        if path.is_file() and rel.parts[0] not in LOCAL:
            files[str(rel)] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    return files


def test_every_read_verb_leaves_committed_files_identical_across_a_day_boundary(guest, project: Path, clock):
    ok(guest, "memorize", "Deploys go through ArgoCD.")
    ok(guest, "memorize", {"text": "The frontend bundler is vite.", "namespace": "frontend"})
    (project / ".gm" / "disciplines" / "enabled.txt").write_text("frontend\n")
    ok(guest, "archive", {"content": "deploy log: all green", "label": "deploy log"})
    ok(guest, "create_todo", {"title": "Release 0.2"})
    ok(guest, "create_checklist", {"title": "Release checklist", "items": [{"title": "Tag"}]})
    ok(guest, "create_session_note", {"content": "Releases happen on Tuesdays."})
    ok(guest, "learn", {"memory": "Run the migrations before the tests.",
                        "skill": {"action": "create", "name": "migrations", "description": "d", "body": "b"}})
    ok(guest, "memory_retention")  # the last pass: now
    clock.advance(DAY // 2)
    before = committed(project)
    assert {"rs-learn.db", "disciplines/frontend/rs-learn.db", "disciplines/enabled.txt",
            "managed-skills/migrations/SKILL.md"} <= set(before)
    for verb, body in READS:
        envelope = call(guest, verb, body)
        assert envelope["ok"] is True, (verb, envelope)
        assert committed(project) == before, f"{verb} changed a committed file"
    clock.advance(40 * DAY)  # a new day, and every record is past retentionDays
    for verb, body in READS:
        if verb == "memory_retention":
            continue  # a day has passed: it would run (it is a write)
        envelope = call(guest, verb, body)
        assert envelope["ok"] is True, (verb, envelope)
        assert committed(project) == before, f"{verb} changed a committed file on a new day"
    ok(guest, "create_todo", {"title": "A write runs the daily pass"})
    assert ok(guest, "get_record", {"id": "td-1"})["status"] == "archived"
