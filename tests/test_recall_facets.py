"""Recall that knows who, what and when (issue 29), on both targets.

* word forms: irregular forms meet their lemma's term (``broke`` / ``broken``, ``ran`` / ``run``);
* subjects: a memory about what the query names (``Melanie: ...``, ``src/retry.py``, a backticked
  identifier) is lifted above memories that merely mention it;
* time: hits carry their ``ts``, ``memorize`` takes one, a query's time window lifts its memories,
  the hook shows old hits' dates;
* stores: a store of terms version 1 (written before all this) keeps its rules -- writes, recalls,
  git merges -- until ``reindex {"rebuild": true}`` moves it to the current version.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from envelopes import call, ok
from gitstores import History
from stores import store_digest

from guest.memory import records, rules
from guest.strings.dates import DAY_MS, days_from_civil
from host_harness.git import driver
from host_harness.services import HostServices
from host_harness.targets.native import NativeGuest

NOW = days_from_civil(2026, 10, 14) * DAY_MS + 15 * 3_600_000  # a Wednesday, 15:00 UTC


def texts(guest, query: str, **body) -> list[str]:
    return [hit["text"] for hit in ok(guest, "recall", {"query": query, "limit": 10, **body})]


def old_store(folder: Path, clock, items: list[str]) -> None:
    """A store as an engine before terms version 2 wrote it: the old rules, stats without ``terms``."""
    saved = records.TERMS_VERSION
    records.TERMS_VERSION = 1
    try:
        services = HostServices(folder, clock=clock)
        guest = NativeGuest(services)
        for text in items:
            clock.advance(1000)
            ok(guest, "memorize", {"text": text})
        guest.close()
        services.close()
    finally:
        records.TERMS_VERSION = saved


def written_with_terms_version(folder: Path, clock, version: int, verb: str, body: dict) -> None:
    """One call by an engine whose new stores had terms version ``version`` (natively: the guest's
    constant is patched, which a built component cannot be)."""
    saved = records.TERMS_VERSION
    records.TERMS_VERSION = version
    try:
        services = HostServices(folder, clock=clock)
        guest = NativeGuest(services)
        ok(guest, verb, body)
        guest.close()
        services.close()
    finally:
        records.TERMS_VERSION = saved


def facet_keys(services: HostServices, namespace: str = "terms") -> list[str]:
    """The facet terms of the keyword index: keys of the postings and terms of the pending list."""
    keys = {key.split("#")[0] for key, _ in services.kv_query(namespace, "", 0)}
    for line in (services.kv_get(namespace, "#pending") or b"").decode().splitlines()[1:]:
        keys.update(item.rpartition(":")[0] for item in line.split(" ")[2:])
    return sorted(key for key in keys if key[:1] in ("@", "~"))


# ---------------------------------------------------------------- word forms


def test_irregular_forms_meet_their_lemma(guest):
    ok(guest, "memorize", "Jon broke his ankle during the game.")
    ok(guest, "memorize", "The children ran to the lake.")
    ok(guest, "memorize", "Gina is making dresses for her store.")
    assert texts(guest, "broken ankle", mode="keyword") == ["Jon broke his ankle during the game."]
    assert texts(guest, "a child runs", mode="keyword") == ["The children ran to the lake."]
    assert texts(guest, "who makes a dress", mode="keyword") == ["Gina is making dresses for her store."]


# ---------------------------------------------------------------- subjects


def test_a_memory_about_the_named_speaker_ranks_above_mentions(guest):
    for text in ("Caroline: Melanie told me about her painting class at the museum, Melanie paints well.",
                 "Melanie: I painted a sunrise last year.", "Caroline: I painted my kitchen wall blue.",
                 "Caroline: I went to a pride parade.", "Melanie: my kids love camping by the lake.",
                 "Caroline: the adoption agency called back.",
                 "Caroline: Melanie says painting relaxes her."):
        ok(guest, "memorize", text)
    assert texts(guest, "What did Melanie paint?")[0] == "Melanie: I painted a sunrise last year."


FILLER = [f"Note {i} on the build, the tests and the deploy pipeline, which retry a step when it fails."
          for i in range(8)]


def test_a_path_the_query_names_is_a_subject(guest):
    for text in ["The py client retries: retry twice, then retry again with backoff.",
                 "src/retry.py caps the delay at 30 seconds.", "Retry budgets: retry counts per py worker.",
                 *FILLER]:
        ok(guest, "memorize", text)
    assert texts(guest, "what does retry.py do")[0] == "src/retry.py caps the delay at 30 seconds."


# ---------------------------------------------------------------- time


def test_hits_carry_the_time_they_were_memorized(guest, clock):
    clock.now_ms = NOW
    ok(guest, "memorize", "Deploys go through ArgoCD.")
    ok(guest, "memorize", {"text": "The old deploy script lived in ops/deploy.sh.", "ts": NOW - 400 * DAY_MS})
    hits = ok(guest, "recall", {"query": "deploy", "limit": 5})
    assert {hit["text"]: hit["ts"] for hit in hits} == {
        "Deploys go through ArgoCD.": NOW,
        "The old deploy script lived in ops/deploy.sh.": NOW - 400 * DAY_MS,
    }
    assert all("ts" not in hit for hit in guest.recall("deploy", 5))  # the typed export is unchanged


@pytest.mark.parametrize("ts, error", [
    ("2026-10-02", "field 'ts' must be an integer, not a string"),
    (True, "field 'ts' must be an integer, not a boolean"),
    (1.5, "field 'ts' must be an integer, not a number"),
    (-1, "field 'ts' must be between 0 and"),
    (NOW + 2 * DAY_MS, "field 'ts' must be between 0 and"),
])
def test_a_bad_ts_is_refused_and_nothing_stored(guest, clock, ts, error):
    clock.now_ms = NOW
    envelope = call(guest, "memorize", {"text": "A note from the past.", "ts": ts})
    assert not envelope["ok"] and error in envelope["error"], envelope
    assert ok(guest, "stats")["memories"] == 0


def test_a_time_expression_prefers_memories_from_its_window(guest, clock):
    stored = {
        "We decided to pin the database driver version.": NOW - DAY_MS,  # yesterday
        "We decided to keep the database driver on the old major version.": NOW - 40 * DAY_MS,  # 4 September
        "The database driver migration waits for the audit, we decided.":
            days_from_civil(2026, 5, 12) * DAY_MS,
        "The cache layer stays in front of the database.": NOW - 3 * DAY_MS,
        "Logs go to stderr as JSON lines.": NOW - 2 * DAY_MS,
        "The frontend is built with vite.": NOW - 90 * DAY_MS,
    }
    clock.now_ms = NOW
    for text, ts in stored.items():
        ok(guest, "memorize", {"text": text, "ts": ts})
    decided = list(stored)[:3]
    assert texts(guest, "what did we decide about the database driver yesterday")[0] == decided[0]
    assert texts(guest, "what did we decide about the database driver in May")[0] == decided[2]
    assert texts(guest, "what did we decide on 4 September about the database driver")[0] == decided[1]


def test_the_hook_dates_hits_older_than_a_week(guest, clock):
    clock.now_ms = NOW
    ok(guest, "memorize", {"text": "Deploys go through ArgoCD, never kubectl by hand.",
                           "ts": days_from_civil(2026, 10, 2) * DAY_MS})
    ok(guest, "memorize", {"text": "Deploys of the frontend wait for the nightly build.", "ts": NOW - DAY_MS})
    context = ok(guest, "auto_recall", {"prompt": "how do deploys work here?"})["context"]
    assert "(2026-10-02) Deploys go through ArgoCD" in context
    assert ". Deploys of the frontend wait" in context  # a day old: no date
    context = ok(guest, "auto_recall", {"prompt": "when did deploys of the frontend change?"})["context"]
    assert "(2026-10-13) Deploys of the frontend wait" in context  # a "when" question: every date


# ---------------------------------------------------------------- stores and their terms version


@pytest.mark.both_stores
def test_a_new_store_has_the_current_terms_version_and_facet_terms(guest, services, clock):
    clock.now_ms = NOW
    ok(guest, "memorize", "Melanie: I ran a charity race.")
    assert ok(guest, "stats")["terms"] == rules.CURRENT == 5
    assert facet_keys(services) == ["@melanie", "~2026", "~2026-10", "~2026-10-14"]


@pytest.mark.both_stores
def test_an_old_store_keeps_its_rules_until_a_rebuild(guest, services, project, clock):
    old_store(project, clock, ["Melanie: I ran a charity race.", "Caroline: the race was fun."])
    before = store_digest(project)
    assert ok(guest, "stats")["terms"] == 1 and ok(guest, "stats")["current_terms"] == rules.CURRENT
    assert texts(guest, "who runs", mode="keyword") == []  # "ran" is not "run" to the old rules
    ok(guest, "memorize", "Melanie: my children broke the vase.")  # indexed by the old rules too
    assert texts(guest, "broken", mode="keyword") == []
    assert facet_keys(services) == [] and ok(guest, "stats")["terms"] == 1
    assert store_digest(project) != before
    ok(guest, "reindex", {"rebuild": True})
    assert ok(guest, "stats")["terms"] == rules.CURRENT
    assert texts(guest, "broken", mode="keyword") == ["Melanie: my children broke the vase."]
    assert "@melanie" in facet_keys(services)
    assert texts(guest, "who runs", mode="keyword") == ["Melanie: I ran a charity race."]


CONTEXT = "CLAUDE.md > Acme > Git > Commit messages follow Conventional Commits:"
IMPORTED = [{"text": "`feat:` for features", "context": CONTEXT},
            {"text": "`fix:` for bug fixes", "context": CONTEXT},
            {"text": "Use pnpm, not npm, to install packages.", "context": "CLAUDE.md > Acme > Conventions"},
            {"text": "The staging server listens on port 8080 behind nginx.",
             "context": "CLAUDE.md > Acme > Conventions"}]
COMMIT_PREFIX = "Which commit prefix for a feature?"
REVIEWED = {"file": "CLAUDE.md", "reviewed": True}  # injected by the hook like your own notes


@pytest.mark.both_stores
def test_an_imported_notes_context_is_evidence_for_it(guest):
    """Terms version 3 indexes the context's words (not its file name); the gate reads it on any store."""
    ok(guest, "import", {"memories": IMPORTED, "origin": REVIEWED})
    assert ok(guest, "stats")["terms"] == rules.CURRENT >= 3
    assert texts(guest, COMMIT_PREFIX)[0] == "`feat:` for features"
    assert texts(guest, "conventional commits", mode="keyword")[:2] == ["`feat:` for features",
                                                                      "`fix:` for bug fixes"]
    assert texts(guest, "claude", mode="keyword") == []  # where it came from is not what it says
    data = ok(guest, "auto_recall", {"prompt": COMMIT_PREFIX})
    assert data["context"].splitlines()[3] == "1. `feat:` for features"  # after the heading and frame
    assert "pnpm" not in data["context"]


@pytest.mark.both_stores
def test_a_version_2_store_keeps_its_rules_and_the_gate_still_reads_the_context(guest, project, clock):
    written_with_terms_version(project, clock, 2, "import",
                               {"memories": IMPORTED, "origin": REVIEWED})  # before contexts counted
    assert ok(guest, "stats")["terms"] == 2
    assert texts(guest, "conventional commits", mode="keyword") == []  # version 2: text words only
    ok(guest, "import", {"memories": [{"text": "`docs:` for documentation", "context": CONTEXT}],
                         "origin": REVIEWED})
    assert texts(guest, "conventional commits", mode="keyword") == []  # a new one too, by its rules
    assert ok(guest, "stats")["terms"] == 2
    data = ok(guest, "auto_recall", {"prompt": "Which commit prefix for a new feature?"})
    assert "`feat:` for features" in data["context"]  # "feature" matched it; "commit" is in its context
    ok(guest, "reindex", {"rebuild": True})
    assert ok(guest, "stats")["terms"] == rules.CURRENT
    assert set(texts(guest, "conventional commits", mode="keyword")) == {
        "`feat:` for features", "`fix:` for bug fixes", "`docs:` for documentation"}


def test_a_store_of_a_newer_terms_version_is_refused(guest, services):
    ok(guest, "memorize", "A first note.")
    stats = json.loads(services.kv_get("meta", "stats"))
    services.kv_put("meta", "stats", json.dumps({**stats, "terms": rules.CURRENT + 1}).encode())
    for verb, body in (("memorize", "A second note."), ("recall", "note")):
        envelope = call(guest, verb, body)
        assert not envelope["ok"] and f"terms version {rules.CURRENT + 1}" in envelope["error"], envelope


def test_a_merge_keeps_ours_terms_version(tmp_path, clock, guest_factory):
    """Theirs' new memories are indexed by ours' rules, whichever side is old; the index stays sound."""
    for old_side in ("ours", "theirs"):
        history = History(tmp_path / old_side, clock, guest_factory)
        old_store(history.folder("base"), clock, ["Base: a shared note."])
        history.branch()
        new_side = "theirs" if old_side == "ours" else "ours"
        history.ok(new_side, "reindex", {"rebuild": True})  # the new side moved to the current version
        old_store(history.folder(old_side), clock, ["Melanie: the children ran home."])
        clock.advance(1000)
        history.ok(new_side, "memorize", "Caroline: the kids broke a window.")
        assert history.merge().status == driver.CLEAN
        stats = history.ok("ours", "stats")
        version = 1 if old_side == "ours" else rules.CURRENT
        assert (stats["terms"], stats["memories"]) == (version, 3)
        broken = [h["text"] for h in history.ok("ours", "recall", {"query": "broken", "mode": "keyword"})]
        runs = [h["text"] for h in history.ok("ours", "recall", {"query": "who runs", "mode": "keyword"})]
        if version == 1:
            assert broken == [] and runs == []
            services = HostServices(history.folder("ours"), clock=clock)
            assert facet_keys(services) == []
            services.close()
        else:
            assert broken == ["Caroline: the kids broke a window."]
            assert runs == ["Melanie: the children ran home."]
            digest = store_digest(history.folder("ours"))
            history.ok("ours", "reindex", {"rebuild": True})
            assert store_digest(history.folder("ours")) == digest  # a rebuild by the same rules: no change


@pytest.mark.both_stores
def test_a_version_3_store_keeps_its_words_until_a_rebuild(guest, project, clock):
    """Issue 47: terms version 4 splits identifiers and indexes a rule's topic; a version 3 store does
    neither until ``reindex {"rebuild": true}``, and keeps answering by its own rules meanwhile."""
    notes = [{"text": "The IHoverService shows hover cards."}, {"text": "Always use pnpm, never npm."}]
    written_with_terms_version(project, clock, 3, "import", {"memories": notes})
    assert ok(guest, "stats")["terms"] == 3
    assert texts(guest, "ihoverservice", mode="keyword") == [notes[0]["text"]]
    assert texts(guest, "package manager", mode="keyword") == []
    ok(guest, "memorize", "We use vitest, not jest.")  # written by version 3's rules too
    assert texts(guest, "test runner", mode="keyword") == [] and ok(guest, "stats")["terms"] == 3
    ok(guest, "reindex", {"rebuild": True})
    assert ok(guest, "stats")["terms"] == rules.CURRENT == 5
    assert texts(guest, "package manager", mode="keyword") == [notes[1]["text"]]
    assert texts(guest, "test runner", mode="keyword") == ["We use vitest, not jest."]
