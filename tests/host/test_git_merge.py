"""The git merge driver's rules (issue #16), on both targets: union, renumbering, field-wise records.

Each test writes a base store, branches it into ``ours`` and ``theirs`` (file copies, as git's
blobs are), changes both through real verbs and runs the driver (``host_harness.git.driver``) with
the target under test doing the merge. After every merge the store must pass ``integrity_check``
and its derived indexes must be exactly what a full rebuild gives (rebuilding writes nothing).
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from docpages import page
from gitstores import History
from helpers.files import digest
from hypothesis import given
from hypothesis import strategies as st

from guest.git.projection import iso
from host_harness.git import driver
from host_harness.git.stores import StoreRefused


@pytest.fixture
def history(tmp_path, clock, guest_factory) -> History:
    return History(tmp_path / "history", clock, guest_factory)


def assert_sound(history: History, name: str = "ours") -> None:
    """Integrity check passes, and rebuilding every derived index changes nothing."""
    conn = sqlite3.connect(history.db(name))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    before = digest(history.db(name))
    history.ok(name, "reindex", {"rebuild": True})
    kinds = {line.split()[0] for line in history.text(name).splitlines()}
    if kinds & {"checklist", "todo", "session_note"}:
        history.ok(name, "reconcile_index")
    assert digest(history.db(name)) == before, "the merge left a derived index that a rebuild changes"


def recall_texts(history: History, query: str, mode: str = "hybrid") -> list[str]:
    return [hit["text"] for hit in history.ok("ours", "recall", {"query": query, "limit": 10, "mode": mode})]


# ---------------------------------------------------------------- memories


def test_memories_are_a_union(history, clock):
    history.ok("base", "memorize", {"text": "Use pnpm, not npm, in this repository."})
    history.branch()
    clock.advance(1000)
    history.ok("ours", "memorize", {"text": "Deploys go through ArgoCD."})
    clock.advance(1000)
    history.ok("theirs", "memorize", {"text": "The staging server listens on port 8080."})
    merged = history.merge()
    assert merged.status == driver.CLEAN
    assert merged.report["memories"] == {"added": 1, "removed": 0}
    assert recall_texts(history, "ArgoCD deploys", "keyword") == ["Deploys go through ArgoCD."]
    assert recall_texts(history, "staging port", "keyword") == ["The staging server listens on port 8080."]
    assert history.ok("ours", "stats")["memories"] == 3
    assert_sound(history)


def test_the_same_text_on_both_branches_is_one_memory(history, clock):
    history.branch()
    clock.advance(1000)
    first = history.ok("ours", "memorize", {"text": "Both branches learned this."})["id"]
    clock.advance(5000)
    history.ok("theirs", "memorize", {"text": "Both branches learned this."})
    history.ok("theirs", "memorize", {"text": "Only theirs learned this."})
    assert history.merge().status == driver.CLEAN
    text = history.text("ours")
    assert text.count("Both branches learned this.") == 1
    assert f'memory {first} "Both branches learned this." ts="2023-11-14T22:13:21.000Z"' in text  # earliest
    assert history.ok("ours", "stats")["memories"] == 2
    assert_sound(history)


def test_a_deletion_on_one_side_is_honoured(history, services, clock):
    history.ok("base", "memorize", {"text": "An obsolete fact about the old build system."})
    kept = history.ok("base", "memorize", {"text": "A fact both branches keep."})["id"]
    history.branch()
    gone = next(line.split()[1] for line in history.text("theirs").splitlines() if "obsolete" in line)
    theirs = type(services)(history.folder("theirs"), clock=clock)  # a tool that forgets a memory
    theirs.kv_put("memories", gone, b"")
    theirs.close()
    history.ok("theirs", "reindex", {"rebuild": True})
    clock.advance(1000)
    history.ok("ours", "memorize", {"text": "A new fact on ours."})
    merged = history.merge()
    assert merged.report["memories"]["removed"] == 1
    assert gone not in history.text("ours") and kept in history.text("ours")
    assert recall_texts(history, "obsolete build system", "keyword") == []
    assert history.ok("ours", "stats")["memories"] == 2
    assert_sound(history)


def test_a_forget_survives_a_merge_with_a_branch_that_did_not_touch_the_memory(history, clock):
    gone = history.ok("base", "memorize", {"text": "Deploys go through Jenkins."})["id"]
    history.ok("base", "memorize", {"text": "The staging server listens on port 8080."})
    history.branch()
    clock.advance(1000)
    history.ok("ours", "forget", {"ids": [gone], "reason": "Jenkins is retired"})
    clock.advance(1000)
    history.ok("theirs", "memorize", {"text": "Lunch is at noon on Fridays."})
    shutil.copytree(history.folder("ours"), history.folder("ours-copy"))
    merged = history.merge()
    assert merged.status == driver.CLEAN and merged.report["conflicts"] == []
    assert recall_texts(history, "deploys Jenkins", "keyword") == []
    assert history.ok("ours", "stats")["memories"] == 2
    text = history.text("ours")
    assert f'forgotten {gone} "Deploys go through Jenkins."' in text and 'reason="Jenkins is retired"' in text
    assert f"memory {gone}" not in text
    assert_sound(history)
    shutil.rmtree(history.folder("ours"))
    history.folder("ours-copy").rename(history.folder("ours"))
    merged = history.merge(into="theirs", other="ours")  # the other direction: theirs loses it too
    assert merged.report["memories"]["forgotten"] == 1
    assert history.ok("theirs", "recall", {"query": "deploys Jenkins", "mode": "keyword"}) == []
    assert history.ok("theirs", "get_memory", {"id": gone})["forgotten"]["reason"] == "Jenkins is retired"
    assert_sound(history, "theirs")


@pytest.mark.parametrize("direction", ["theirs into ours", "ours into theirs"])
def test_a_forget_beats_the_same_text_memorized_before_it_on_the_other_branch(history, clock, direction):
    history.branch()
    clock.advance(1000)
    history.ok("theirs", "memorize", {"text": "Use yarn for the frontend."})  # before the forget
    clock.advance(1000)
    gone = history.ok("ours", "memorize", {"text": "Use yarn for the frontend."})["id"]
    clock.advance(1000)
    history.ok("ours", "forget", {"ids": [gone]})
    into, other = ("ours", "theirs") if direction == "theirs into ours" else ("theirs", "ours")
    merged = history.merge(into=into, other=other)
    assert merged.status == driver.CLEAN and merged.report["conflicts"] == []
    assert history.ok(into, "recall", {"query": "yarn frontend", "mode": "keyword"}) == []
    assert history.ok(into, "get_memory", {"id": gone})["forgotten"]["ts"] == clock.now_ms
    assert_sound(history, into)


def test_the_same_text_memorized_after_the_forget_comes_back(history, clock):
    history.branch()
    clock.advance(1000)
    gone = history.ok("ours", "memorize", {"text": "Use yarn for the frontend."})["id"]
    history.ok("ours", "forget", {"ids": [gone]})
    clock.advance(1000)
    history.ok("theirs", "memorize", {"text": "Use yarn for the frontend."})  # a later decision
    assert history.merge().report["conflicts"] == []
    assert recall_texts(history, "yarn frontend", "keyword") == ["Use yarn for the frontend."]
    assert "forgotten" not in history.ok("ours", "get_memory", {"id": gone})
    assert "forgotten " not in history.text("ours")
    assert_sound(history)


def test_a_supersede_on_one_branch_is_merged(history, clock):
    old = history.ok("base", "memorize", {"text": "Use npm to install packages."})["id"]
    history.branch()
    clock.advance(1000)
    new = history.ok("theirs", "memorize", {"text": "Use pnpm, not npm, to install packages.",
                                            "supersedes": [old]})["id"]
    clock.advance(1000)
    history.ok("ours", "memorize", {"text": "The staging server listens on port 8080."})
    merged = history.merge()
    assert merged.report["memories"] == {"added": 1, "removed": 0, "merged": 1}
    assert recall_texts(history, "npm install packages") [:1] == ["Use pnpm, not npm, to install packages."]
    assert "Use npm to install packages." not in recall_texts(history, "npm install packages")
    assert f'superseded_by="{new}"' in history.text("ours")
    assert_sound(history)


@pytest.mark.parametrize("direction", ["theirs into ours", "ours into theirs"])
def test_two_branches_that_supersede_one_memory_merge_into_one_head(history, clock, direction):
    """Issue 38.7: each branch superseded the same memory by another one; after the merge both were
    live "newest" memories (both injected) and the links disagreed. The later successor wins."""
    old = history.ok("base", "memorize", {"text": "Use npm to install packages."})["id"]
    history.branch()
    clock.advance(1000)
    early = history.ok("ours", "memorize", {"text": "Use yarn, not npm, to install packages.",
                                            "supersedes": [old]})["id"]
    clock.advance(1000)
    late = history.ok("theirs", "memorize", {"text": "Use pnpm, not npm, to install packages.",
                                             "supersedes": [old]})["id"]
    into, other = ("ours", "theirs") if direction == "theirs into ours" else ("theirs", "ours")
    merged = history.merge(into=into, other=other)
    assert merged.status == driver.CLEAN and merged.report["undecided"] == 0
    [conflict] = merged.report["conflicts"]
    assert f"memory {old}" in conflict and f"by {early}" in conflict
    assert f"{late}, is its head now" in conflict
    assert merged.report["memories"]["superseded on both"] == 1
    shown = {key: history.ok(into, "get_memory", {"id": key}) for key in (old, early, late)}
    assert shown[old]["superseded_by"] == late and shown[early]["superseded_by"] == late
    assert shown[late]["supersedes"] == sorted([old, early]) and "superseded_by" not in shown[late]
    assert "supersedes" not in shown[early], "the earlier successor no longer claims the memory it lost"
    hits = [h["text"] for h in history.ok(into, "recall", {"query": "install packages npm", "limit": 10})]
    assert hits.count("Use pnpm, not npm, to install packages.") == 1
    assert not {"Use yarn, not npm, to install packages.", "Use npm to install packages."} & set(hits)
    assert_sound(history, into)


@pytest.mark.parametrize("direction", ["theirs into ours", "ours into theirs"])
def test_a_forget_that_removes_what_the_other_branch_still_has_is_noted(history, clock, direction):
    """Issue 38.7: forgotten on one branch, memorized again on the other (``deduped``: nothing
    written there), the memory stays forgotten -- and the merge says so, with what to do."""
    gone = history.ok("base", "memorize", {"text": "Deploys go through Jenkins."})["id"]
    history.branch()
    clock.advance(1000)
    history.ok("ours", "forget", {"ids": [gone], "reason": "Jenkins is retired"})
    clock.advance(1000)
    assert history.ok("theirs", "memorize", {"text": "Deploys go through Jenkins."})["deduped"] is True
    into, other = ("ours", "theirs") if direction == "theirs into ours" else ("theirs", "ours")
    merged = history.merge(into=into, other=other)
    assert merged.status == driver.CLEAN and merged.report["conflicts"] == []
    [note] = merged.report["notes"]
    holder = "theirs" if into == "ours" else "ours"
    assert note.startswith(f'memory {gone} ("Deploys go through Jenkins.") was forgotten on ')
    assert "(Jenkins is retired)" in note and f"{holder} still had it" in note and "memorize it again" in note
    assert history.ok(into, "recall", {"query": "deploys Jenkins", "mode": "keyword"}) == []
    assert_sound(history, into)


# ---------------------------------------------------------------- archive


def test_both_branches_archive_the_same_number(history, clock):
    history.branch()
    clock.advance(1000)
    ours = history.ok("ours", "archive", {"content": "ours: build log\nOK", "label": "ours log"})
    assert ours["id"] == "r1"
    clock.advance(1000)
    theirs = history.ok("theirs", "archive", {"content": "theirs: test log", "label": "theirs log"})
    assert theirs["id"] == "r1"
    history.ok("theirs", "archive", {"content": "theirs: second block", "label": "second"})  # r2: no clash
    merged = history.merge()
    assert merged.status == driver.CLEAN
    assert merged.report["archive"]["renumbered"] == [{"from": "r1", "to": "r3", "side": "theirs"}]
    first = history.ok("ours", "archive_recall", {"id": "r1"})
    assert first["content"] == "ours: build log\nOK"  # archived first: keeps the number
    assert first["renumbered"] == [{"id": "r3", "label": "theirs log"}]
    header = "[r1 — ours log, recalled verbatim; another branch's r1 is now r3 (theirs log)]\n"
    assert first["text"].startswith(header)
    assert history.ok("ours", "archive_recall", {"id": "r3"})["content"] == "theirs: test log"
    assert history.ok("ours", "recall", {"id": "r2"})["content"] == "theirs: second block"
    found = history.ok("ours", "archive_search", {"query": "log"})["results"]
    assert sorted(r["id"] for r in found) == ["r1", "r3"]
    assert history.ok("ours", "archive", {"content": "after the merge"})["id"] == "r4"


def archive_in_turn(history: History, clock, *blocks: tuple[str, str, str]) -> None:
    """Archive ``(branch, content, label)`` blocks one second apart."""
    for name, content, label in blocks:
        clock.advance(1000)
        history.ok(name, "archive", {"content": content, "label": label})


def test_renumbering_does_not_depend_on_the_direction(history, clock):
    history.branch()
    archive_in_turn(history, clock, ("theirs", "archived first, on theirs", "first"),
                    ("ours", "archived second, on ours", "second"))
    shutil.copy(history.db("ours"), history.root / "ours-copy.db")
    assert history.merge().status == driver.CLEAN
    one_way = history.text("ours")
    shutil.copy(history.root / "ours-copy.db", history.db("ours"))
    assert history.merge(into="theirs", other="ours").status == driver.CLEAN
    other_way = history.text("theirs")
    assert one_way == other_way
    assert 'archive r1 "first"' in one_way and 'archive r2 "second"' in one_way
    assert "archive-alias r1 -> r2" in one_way


def test_aliases_follow_a_block_that_moves_again(history, clock):
    history.branch()
    archive_in_turn(history, clock, ("ours", "A", "a"))
    shutil.copytree(history.folder("ours"), history.folder("x-base"))  # a third branch starts here
    shutil.copytree(history.folder("ours"), history.folder("x"))
    archive_in_turn(history, clock, ("x", "E", "e"), ("theirs", "B", "b"))  # r2 on x, r1 on theirs
    assert history.merge().report["archive"]["renumbered"] == [{"from": "r1", "to": "r2", "side": "theirs"}]
    merged = history.merge(other="x", base="x-base")  # ours' r2 (B, the alias target) is newer than E
    assert merged.report["archive"]["renumbered"] == [{"from": "r2", "to": "r3", "side": "ours"}]
    text = history.text("ours")
    assert 'archive r2 "e"' in text and 'archive r3 "b"' in text
    assert "archive-alias r1 -> r3" in text and "archive-alias r2 -> r3" in text
    assert history.ok("ours", "archive_recall", {"id": "r1"})["renumbered"] == [{"id": "r3", "label": "b"}]
    assert history.ok("ours", "archive_recall", {"id": "r2"})["content"] == "E"


# ---------------------------------------------------------------- structured records


def test_concurrent_edits_of_one_todo(history, clock):
    history.ok("base", "create_todo", {"title": "Fix the flaky login test", "priority": 1})
    history.branch()
    clock.advance(1000)
    change = {"id": "td-1", "status": "in_progress", "title": "Fix login test (ours)"}
    history.ok("ours", "update_todo", change)
    clock.advance(1000)
    history.ok("theirs", "update_todo", {"id": "td-1", "priority": 4, "title": "Fix login test (theirs)"})
    merged = history.merge()
    assert merged.status == driver.CLEAN  # decided: same version, theirs is later
    todo = history.ok("ours", "get_record", {"id": "td-1"})
    assert (todo["status"], todo["priority"], todo["title"]) == ("in_progress", 4, "Fix login test (theirs)")
    assert todo["version"] == 3 and todo["updatedAt"] == clock.now_ms
    [conflict] = merged.report["conflicts"]
    assert conflict.startswith('record td-1: title: ours "Fix login test (ours)" (v2), theirs "Fix login')
    [note_id] = merged.report["records"]["notes"]
    note = history.ok("ours", "get_record", {"id": note_id})
    assert note["title"] == "Merge conflict in td-1" and note["tags"] == ["merge-conflict"]
    assert "Fix login test (ours)" in note["content"] and "Fix login test (theirs)" in note["content"]
    hits = history.ok("ours", "query_records", {"query": "merge conflict login"})["hits"]
    assert hits[0]["record"]["id"] == note_id
    assert_sound(history)


def test_the_higher_version_wins_a_true_conflict(history, clock):
    history.ok("base", "create_todo", {"title": "Ship it"})
    history.branch()
    clock.advance(5000)
    history.ok("ours", "update_todo", {"id": "td-1", "title": "Ship it (ours, later)"})
    history.ok("theirs", "update_todo", {"id": "td-1", "status": "in_progress"})
    history.ok("theirs", "update_todo", {"id": "td-1", "title": "Ship it (theirs, v3)"})
    merged = history.merge()
    assert merged.status == driver.CLEAN
    assert history.ok("ours", "get_record", {"id": "td-1"})["title"] == "Ship it (theirs, v3)"


def test_an_undecidable_conflict_keeps_ours_and_exits_non_zero(history, clock):
    history.ok("base", "create_todo", {"title": "Same moment"})
    history.branch()
    clock.advance(1000)  # both edits at the same version and the same millisecond
    history.ok("ours", "update_todo", {"id": "td-1", "title": "Ours wins the tie"})
    history.ok("theirs", "update_todo", {"id": "td-1", "title": "Theirs loses the tie"})
    merged = history.merge()
    assert merged.status == driver.UNDECIDED and merged.report["undecided"] == 1
    assert history.ok("ours", "get_record", {"id": "td-1"})["title"] == "Ours wins the tie"
    assert "undecided" in merged.report["conflicts"][0]
    assert_sound(history)


def test_records_created_on_both_branches_are_both_kept(history, clock):
    history.branch()
    clock.advance(1000)
    history.ok("ours", "create_todo", {"title": "Ours, created first"})
    items = [{"title": "o1"}, {"title": "o2"}]
    history.ok("ours", "create_checklist", {"title": "Ours list", "items": items})
    clock.advance(1000)
    history.ok("theirs", "create_todo", {"title": "Theirs, created later"})
    history.ok("theirs", "create_checklist", {"title": "Theirs list", "items": [{"title": "t1"}]})
    merged = history.merge()
    assert merged.status == driver.CLEAN and not merged.report["conflicts"]
    assert history.ok("ours", "get_record", {"id": "td-1"})["title"] == "Ours, created first"
    assert history.ok("ours", "get_record", {"id": "td-2"})["title"] == "Theirs, created later"
    theirs_list = history.ok("ours", "get_record", {"id": "cl-2"})
    assert theirs_list["title"] == "Theirs list" and [i["id"] for i in theirs_list["items"]] == ["it-3"]
    assert [i["id"] for i in history.ok("ours", "get_record", {"id": "cl-1"})["items"]] == ["it-1", "it-2"]
    assert history.ok("ours", "create_todo", {"title": "next"})["id"] == "td-3"
    assert_sound(history)


def test_checklist_items_merge_item_by_item(history, clock):
    items = [{"title": "Bump"}, {"title": "Tag"}]
    history.ok("base", "create_checklist", {"title": "Release", "items": items})
    history.branch()
    clock.advance(1000)
    history.ok("ours", "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-1", "status": "done"})
    history.ok("ours", "add_checklist_item", {"checklistId": "cl-1", "title": "Changelog (ours)"})
    clock.advance(1000)
    history.ok("theirs", "delete_record", {"id": "it-2", "checklistId": "cl-1"})
    history.ok("theirs", "add_checklist_item", {"checklistId": "cl-1", "title": "Announce (theirs)"})
    merged = history.merge()
    assert merged.status == driver.CLEAN and not merged.report["conflicts"]
    items = history.ok("ours", "get_record", {"id": "cl-1"})["items"]
    # theirs' new item was created later, so it moved from it-3 to it-4; siblings sort by ordinal
    assert [(i["id"], i["title"], i["status"], i["ordinal"]) for i in items] == [
        ("it-1", "Bump", "done", 0), ("it-4", "Announce (theirs)", "pending", 1),
        ("it-3", "Changelog (ours)", "pending", 2)]
    assert_sound(history)


# ---------------------------------------------------------------- other buckets, bad sides


def test_unknown_buckets_merge_key_by_key(history, services, clock):
    history.ok("base", "memorize", {"text": "something"})
    history.branch()
    changes = {"ours": {"both": b"ours", "mine": b"1"}, "theirs": {"both": b"theirs", "yours": b"2"}}
    for name, pairs in changes.items():
        store = type(services)(history.folder(name), clock=clock)
        for key, value in pairs.items():
            store.kv_put("ledger", key, value)
        store.close()
    merged = history.merge()
    assert merged.status == driver.CLEAN
    assert merged.report["conflicts"] == ["ledger 'both': changed on both sides (unknown bucket); kept ours"]
    text = history.text("ours")
    assert 'other ledger "both" "ours"' in text and 'other ledger "yours" "2"' in text


def test_other_tables_are_united_by_key(history):
    history.ok("base", "memorize", {"text": "something"})
    history.branch()
    sides = {"ours": [(1, "ours"), (2, "both: ours")], "theirs": [(2, "both: theirs"), (3, "theirs")]}
    for name, rows in sides.items():
        conn = sqlite3.connect(history.db(name))
        conn.execute("CREATE TABLE ledger (id INTEGER PRIMARY KEY, note TEXT)")
        conn.executemany("INSERT INTO ledger VALUES (?, ?)", rows)
        conn.commit()
        conn.close()
    history.ok("ours", "memorize", {"text": "ours"})
    merged = history.merge()
    assert merged.report["tables"] == {"ledger": 1}
    conn = sqlite3.connect(history.db("ours"))
    rows = conn.execute("SELECT * FROM ledger ORDER BY id").fetchall()
    assert rows == [(1, "ours"), (2, "both: ours"), (3, "theirs")]
    conn.close()


def test_a_corrupt_side_is_refused_and_ours_untouched(history, clock):
    history.ok("base", "memorize", {"text": "base"})
    history.branch()
    history.ok("ours", "memorize", {"text": "ours"})
    raw = bytearray(history.db("theirs").read_bytes())
    raw[100:4000] = b"\xff" * 3900
    history.db("theirs").write_bytes(bytes(raw))
    before = digest(history.db("ours"))
    with pytest.raises(StoreRefused, match=r"^theirs \(\.gm/rs-learn\.db\): "):
        history.merge()
    assert digest(history.db("ours")) == before
    history.db("theirs").write_bytes(b"this is not a database")
    with pytest.raises(StoreRefused, match=r"not a readable SQLite database|cannot open"):
        history.merge()
    assert digest(history.db("ours")) == before


def test_no_common_ancestor_is_an_empty_base(history, clock):
    history.branch()
    history.ok("ours", "memorize", {"text": "ours alone"})
    history.ok("theirs", "memorize", {"text": "theirs alone"})
    history.db("base").parent.mkdir(parents=True, exist_ok=True)
    history.db("base").write_bytes(b"")
    assert history.merge().status == driver.CLEAN
    assert history.ok("ours", "stats")["memories"] == 2


@given(st.integers(min_value=-62_135_596_800_000, max_value=253_402_300_799_999))
def test_iso_times_agree_with_datetime(ms):
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)
    expected = f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"
    assert iso(ms) == expected


def test_git_verbs_refuse_outside_a_driver(guest):
    from envelopes import call

    for verb in ("git_merge", "git_text"):
        envelope = call(guest, verb, {})
        assert not envelope["ok"] and envelope["error"].startswith("validation: this verb runs only inside")


def test_the_readme_sample_is_what_textconv_prints(history, clock, services):
    """Every line of the README's textconv sample (``…`` = anything) matches a line of real output."""
    sample = re.search(r"```text\n(.*?)```", page("git.md"), re.S).group(1).splitlines()
    clock.now_ms = 1_796_117_400_000  # 2026-12-01T09:30:00Z
    history.ok("base", "memorize", {"text": "Deploys go through ArgoCD."})
    history.ok("base", "learn", {"memory": "Deploys follow a checklist.", "context": "incident 2026-11-02"})
    content = "first 160 characters of the block, on one line " + "x" * 1187
    history.ok("base", "archive", {"content": content, "label": "build log"})
    store = type(services)(history.folder("base"), clock=clock)
    store.kv_put("archive-alias", f"{1:020d}", b"[3]")
    store.close()
    history.ok("base", "create_todo", {"title": "Fix the flaky login test", "priority": 4, "tags": ["ci"]})
    history.ok("base", "update_todo", {"id": "td-1", "status": "in_progress"})
    history.ok("base", "create_checklist", {"title": "Release 0.2", "items": [{"title": "Bump version"}]})
    history.ok("base", "update_checklist_item", {"checklistId": "cl-1", "itemId": "it-1", "status": "done"})
    old = history.ok("base", "memorize", {"text": "Use npm to install packages."})["id"]
    history.ok("base", "memorize", {"text": "Use pnpm, not npm, to install packages.", "supersedes": [old]})
    gone = history.ok("base", "memorize", {"text": "Deploys go through Jenkins."})["id"]
    clock.now_ms = 1_796_205_600_000  # 2026-12-02T10:00:00Z
    history.ok("base", "forget", {"ids": [gone], "reason": "we deploy with ArgoCD now"})
    printed = history.text("base").splitlines()
    for line in sample:
        pattern = ".*".join(re.escape(part) for part in line.split("…"))
        assert any(re.fullmatch(pattern, out) for out in printed), (line, printed)
