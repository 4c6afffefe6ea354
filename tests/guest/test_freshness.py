"""Memories that know when the code moved on (issue 27, item 5): cited files, host digests, stale hits."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from envelopes import ok

from guest.memory import facets, freshness, rules
from host_harness.fs import FileDigests, filedigest

RETRY = "Retries are configured in src/retry.py with exponential backoff."


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("Retries live in src/retry.py; see docs/api.md and the Makefile.",
         ["src/retry.py", "docs/api.md", "Makefile"]),
        ("Run `./bin/run --fast` then check ./src/x.py:42.", ["bin/run", "src/x.py"]),
        ("Edit package.json, .env and .github/workflows/ci.yml.",
         ["package.json", ".env", ".github/workflows/ci.yml"]),
        ("See \"tests/test_x.py\" (and setup.cfg).", ["tests/test_x.py", "setup.cfg"]),
        ("Version 1.2.3, v1.2 and python3.11, e.g. this, i.e. that, etc.", []),
        ("https://github.com/a/b.py www.x.com/y.md /etc/passwd ~/x.py ../up.py", []),
        ("Use @types/node; 24/7 support; example.com; the src/ folder.", []),
        (" ".join(f"f{i}.py" for i in range(12)), [f"f{i}.py" for i in range(8)]),
        ("See [the API](docs/api.md), **Makefile** and <src/a.py>!", ["docs/api.md", "Makefile", "src/a.py"]),
        ("Flags -h/--help and +/-Infinity; ...tests/x.py; src/café.py, données.txt.", []),
        ("C:\\src\\x.py or file:src/y.py", []),
    ],
)
def test_candidate_paths_are_conservative(text, paths):
    assert freshness.paths(text) == paths


@pytest.mark.parametrize("text", [
    "Run bin/run, then the Makefile; the menu is in café/menü.py.",
    "Retries live in src/retry.py; see docs/api.md, .env and [the guide](docs/Guide.md).",
    "and/or TCP/IP docs/api/v2 v1.2.3 https://x.org/a.py",
])
def test_freshness_and_facets_read_the_same_paths(text):
    """Issue 32.17: the two extractors disagreed (``bin/run``, ``Makefile``, ``café/menü.py``): one now."""
    cited = [path.lower() for path in freshness.paths(text)]
    subjects = facets.subjects(text, rules.CURRENT)
    assert cited and set(cited) <= set(subjects)
    assert {s for s in subjects if "/" in s} == {path for path in cited if "/" in path}
    assert "café/menü.py" not in subjects and "café/menü.py" not in cited  # ASCII only, both targets alike


def sha(data: bytes) -> dict:
    return {"sha256": hashlib.sha256(data).hexdigest()}


def test_the_host_digests_project_files_and_refuses_what_is_not_one(tmp_path: Path, monkeypatch):
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "retry.py").write_bytes(b"RETRIES = 3\n")
    (tmp_path / "outside.py").write_bytes(b"secret")
    os.symlink(tmp_path / "outside.py", root / "src" / "linked.py")
    os.symlink(tmp_path, root / "up")
    files = FileDigests(root)
    assert files.answer("src/retry.py") == sha(b"RETRIES = 3\n")
    assert files.answer("src/missing.py") == {"exists": False}
    assert files.answer("src") == {"exists": False}  # a directory is not a file
    assert files.answer("src/retry.py/x") == {"exists": False}
    for refused in ("src/linked.py", "up/outside.py", "../outside.py", "/etc/passwd", "src//x.py", "./src"):
        assert files.answer(refused) is None, refused
    assert files.hashed == 1
    files.answer("src/retry.py")
    assert files.hashed == 1, "an unchanged file is not read again"
    (root / "src" / "retry.py").write_bytes(b"RETRIES = 5\n")
    assert files.answer("src/retry.py") == sha(b"RETRIES = 5\n")
    monkeypatch.setattr(filedigest, "MAX_FILE_BYTES", 4)
    assert FileDigests(root).answer("src/retry.py") is None


def test_the_host_namespace_serves_file_keys_but_does_not_list_them(services, project):
    (project / "Makefile").write_text("all:\n")
    assert services.kv_get("host", "file/Makefile") == b'{"sha256":"%s"}' % sha(b"all:\n")["sha256"].encode()
    assert services.kv_get("host", "file/nothing-here") == b'{"exists":false}'
    assert all(not key.startswith("file/") for key, _ in services.kv_query("host", "", 0))


@pytest.fixture
def retry(project: Path) -> Path:
    path = project / "src" / "retry.py"
    path.parent.mkdir(parents=True)
    path.write_text("RETRIES = 3\n")
    return path


@pytest.mark.both_stores
def test_a_memory_whose_file_changed_is_stale_and_ranks_below_a_fresh_one(guest, project):
    (project / "src").mkdir()
    for name in ("alpha.py", "omega.py"):
        (project / "src" / name).write_text("pass\n")
    ok(guest, "memorize", {"text": "Retries live in src/alpha.py for the HTTP client."})
    ok(guest, "memorize", {"text": "Retries live in src/omega.py for the job queue."})
    before = ok(guest, "recall", {"query": "retries live", "mode": "keyword"})
    assert sorted(h["id"] for h in before) == [h["id"] for h in before]  # a tie, broken by id
    assert before[0]["score"] == before[1]["score"] and "stale" not in before[0]
    first = ok(guest, "get_memory", {"id": before[0]["id"]})["files"][0]
    (project / first).write_text("changed\n")
    after = ok(guest, "recall", {"query": "retries live", "mode": "keyword"})
    assert [h["id"] for h in after] == [before[1]["id"], before[0]["id"]]
    assert after[1]["stale"] == {"files": [first]} and "stale" not in after[0]
    assert after[1]["score"] == pytest.approx(before[0]["score"] * freshness.STALE_FACTOR, rel=1e-6)


@pytest.mark.both_stores
def test_the_hook_and_the_listing_mark_stale_memories(guest, retry, project):
    fact = ok(guest, "memorize", {"text": RETRY})["id"]
    ok(guest, "memorize", {"text": "The staging server listens on port 8080."})
    prompt = {"prompt": "how do retries with exponential backoff work here?"}
    assert "may be stale" not in ok(guest, "auto_recall", prompt)["context"]
    assert ok(guest, "list_memories", {"stale": True})["memories"] == []
    retry.write_text("RETRIES = 5\n")
    context = ok(guest, "auto_recall", prompt)["context"]
    assert f"1. {RETRY} (may be stale: src/retry.py changed since)" in context
    listed = ok(guest, "list_memories", {"stale": True})["memories"]
    assert [(m["id"], m["stale"]) for m in listed] == [(fact, {"files": ["src/retry.py"]})]
    retry.unlink()
    assert ok(guest, "recall", {"query": "retries backoff"})[0]["stale"] == {"files": ["src/retry.py"]}


def test_files_that_do_not_exist_or_cannot_be_read_are_not_recorded(guest, project, tmp_path):
    (tmp_path / "elsewhere.py").write_text("x")
    (project / "src").mkdir()
    os.symlink(tmp_path / "elsewhere.py", project / "src" / "linked.py")
    fact = ok(guest, "memorize", {"text": "See src/missing.py and src/linked.py for details."})["id"]
    assert "files" not in ok(guest, "get_memory", {"id": fact})


def test_an_unknown_answer_is_never_stale(guest, retry, project, tmp_path):
    fact = ok(guest, "memorize", {"text": RETRY})["id"]
    moved = tmp_path / "moved"
    (project / "src").rename(moved)
    os.symlink(moved, project / "src")  # the host will not follow it: it cannot say
    hit = ok(guest, "recall", {"query": "retries backoff"})[0]
    assert hit["id"] == fact and "stale" not in hit


def test_the_digests_persist_by_file_identity_across_processes(project: Path, wasm_runtime):
    """Issue 38, item 9: a cold hook does not hash again a cited file that has not changed.

    Proved through the file's identity: a file rewritten in place with the same size and mtime keeps
    its identity, so the next process takes the persisted digest (and does not see the change); a
    new mtime is a new identity, hashed again (and the memory is stale).
    """
    from hostprocs import host, host_env

    (project / "data").mkdir()
    parts = [project / "data" / f"p{i}.py" for i in range(8)]
    for i, part in enumerate(parts):
        part.write_bytes(bytes([65 + i]) * (1 << 20))
    env = host_env(project)
    text = "The billing parts live in " + ", ".join(f"data/p{i}.py" for i in range(8)) + "."
    assert host("memorize", text, env=env).returncode == 0
    persisted = FileDigests(project.resolve()).persisted
    entries = json.loads(persisted.read_text())["digests"]
    identities = {tuple(e[:4]) for e in entries}
    for part in parts:
        st = part.stat()
        assert (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) in identities

    def context() -> str:
        prompt = "where do the billing parts live?"
        event = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": prompt})
        done = host("hook", "prompt-submit", env=env, input=event.encode())
        assert done.returncode == 0 and done.stderr == b""
        return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]

    st = parts[0].stat()
    with open(parts[0], "r+b") as same_size:
        same_size.write(b"Z" * 16)
    os.utime(parts[0], ns=(st.st_atime_ns, st.st_mtime_ns))
    assert text in context() and "may be stale" not in context(), "the persisted digest, not a new hash"
    os.utime(parts[0], ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert "(may be stale: data/p0.py changed since)" in context()


def test_the_persisted_digests_are_bounded_and_survive_a_bad_file(tmp_path: Path, monkeypatch):
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.setattr(filedigest, "MAX_CACHED", 3)
    for i in range(5):
        (root / f"f{i}.py").write_text(f"x = {i}\n")
        FileDigests(root, tmp_path / "cache").answer(f"f{i}.py")  # a new process each time
    files = FileDigests(root, tmp_path / "cache")
    kept = json.loads(files.persisted.read_text())["digests"]
    assert [e[4] for e in kept] == [hashlib.sha256(f"x = {i}\n".encode()).hexdigest() for i in (2, 3, 4)]
    assert files.answer("f4.py") == sha(b"x = 4\n") and files.hashed == 0
    files.persisted.write_text("{not json")
    again = FileDigests(root, tmp_path / "cache")
    assert again.answer("f4.py") == sha(b"x = 4\n") and again.hashed == 1


def _cite(guest, project: Path, count: int) -> list[str]:
    """``count`` memories each citing a file of its own (``src/c<i>.py``), oldest first: their ids."""
    (project / "src").mkdir(exist_ok=True)
    ids = []
    for i in range(count):
        (project / "src" / f"c{i}.py").write_text("v1\n")
        ids.append(ok(guest, "memorize", {"text": f"Handler number {i} lives in src/c{i}.py."})["id"])
        ok(guest, "memorize", {"text": f"Plain note number {i} cites no file."})
    return ids


def _stale_pages(guest, limit: int, **body) -> list[dict]:
    pages, cursor = [], None
    while True:
        page = ok(guest, "list_memories", {"stale": True, "limit": limit, **body,
                                           **({"cursor": cursor} if cursor else {})})
        pages.append(page)
        cursor = page["next"]
        if cursor is None:
            return pages


@pytest.mark.both_stores
def test_the_stale_listing_pages_the_citing_memories_newest_first_with_a_total(guest, project):
    ids = _cite(guest, project, 7)
    for i in (0, 2, 3, 5, 6):
        (project / "src" / f"c{i}.py").write_text("v2\n")
    pages = _stale_pages(guest, 2)
    listed = [[m["id"] for m in page["memories"]] for page in pages]
    assert listed == [[ids[6], ids[5]], [ids[3], ids[2]], [ids[0]]]
    assert [page["total"] for page in pages] == [5, 3, 1]
    everything = ok(guest, "list_memories", {"limit": 200})["memories"]  # the walk of the whole timeline
    assert [m["id"] for m in everything if "stale" in m] == [ident for page in listed for ident in page]
    ok(guest, "forget", {"ids": [ids[5]]})
    superseding = ok(guest, "memorize", {"text": "Handler 6 moved out of src/c6.py.", "supersedes": [ids[6]]})
    listed = [m["id"] for m in ok(guest, "list_memories", {"stale": True})["memories"]]
    assert listed == [ids[3], ids[2], ids[0]], "forgotten and superseded memories are not listed"
    with_superseded = ok(guest, "list_memories", {"stale": True, "include": ["superseded"]})["memories"]
    assert [m["id"] for m in with_superseded][:1] == [ids[6]] and superseding["id"] not in listed
    narrowed = ok(guest, "list_memories", {"stale": True, "query": "NUMBER 3"})
    assert [m["id"] for m in narrowed["memories"]] == [ids[3]] and narrowed["total"] == 1


@pytest.mark.both_stores
def test_a_store_from_before_the_citing_index_lists_its_stale_memories_and_gets_it_at_its_next_write(
    guest, services, project
):
    ids = _cite(guest, project, 3)
    assert [key for key, _ in services.kv_query("cites", "", 0)] == sorted(ids)
    assert services.kv_get("meta", "cites") == b"1"
    services.begin(write_lock=True)
    for key in ids:  # as a store written before the index: no entries, no mark
        services.kv_put("cites", key, b"")
    services.kv_put("meta", "cites", b"")
    services.commit()
    (project / "src" / "c1.py").write_text("v2\n")
    assert [m["id"] for m in ok(guest, "list_memories", {"stale": True})["memories"]] == [ids[1]]
    ok(guest, "memorize", {"text": "A new note after the upgrade."})
    assert [key for key, _ in services.kv_query("cites", "", 0)] == sorted(ids)
    assert services.kv_get("meta", "cites") == b"1"
    assert [m["id"] for m in ok(guest, "list_memories", {"stale": True})["memories"]] == [ids[1]]
