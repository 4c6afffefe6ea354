"""A store written before issue 29 (terms version 1), by the engine of that time, on both targets.

``tests/data/golden/terms_v1_store.json`` holds the rows of a 42-memory store that the last engine
before terms versions wrote (``scripts/gen_terms_v1_store.py``: its commit is in the file): stats
without ``terms``, postings heads and a pending list by the old rules. Today's engine must keep
recalling and writing it by those rules, and move it to the current version on ``reindex
{"rebuild": true}``. The simulated old stores of ``tests/guest/test_recall_facets.py`` (today's engine
with ``TERMS_VERSION = 1``) are checked here to be byte for byte what the old engine wrote.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from envelopes import ok
from stores import store_digest, store_rows
from test_recall_facets import facet_keys, texts

from guest.memory import records, rules
from host_harness.services import HostServices, ManualClock
from host_harness.targets.native import NativeGuest

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "data" / "golden"
GOLDEN: dict[str, Any] = json.loads(
    (GOLDEN_DIR / "terms_v1_store.json").read_text(encoding="utf-8")
)
TEXTS: list[str] = GOLDEN["texts"]
# Terms version 2, written by 4972049 (scripts/gen_terms_v2_store.py): its path subjects came from an
# extractor of their own, which freshness did not share (issue 32.17).
GOLDEN_V2: dict[str, Any] = json.loads(
    (GOLDEN_DIR / "terms_v2_store.json").read_text(encoding="utf-8")
)


def load(services: HostServices, golden: dict[str, Any] = GOLDEN) -> None:
    """Write the golden rows into a fresh store (outside a call: committed at once)."""
    for row in golden["rows"]:
        services.kv_put(row["ns"], row["key"], base64.b64decode(row["b64"]))


@pytest.mark.both_stores
def test_a_version_2_store_keeps_its_path_subjects_until_a_rebuild(guest, services, project, clock):
    load(services, GOLDEN_V2)
    texts_v2 = GOLDEN_V2["texts"]
    clock.now_ms = GOLDEN_V2["start_ms"] + len(texts_v2) * GOLDEN_V2["step_ms"]
    assert (ok(guest, "stats")["terms"], ok(guest, "stats")["memories"]) == (2, 5)
    old_keys = facet_keys(services)
    assert {"@café/menü.py", "@menü.py", "@src/retry.py", "@setup.py", "@docs/api/v2"} <= set(old_keys)
    assert not {"@bin/run", "@makefile"} & set(old_keys)
    before = store_digest(project)
    assert texts(guest, "What is in menü.py?")[0] == texts_v2[1]  # the old postings answer
    assert store_digest(project) == before, "recall wrote to an old store"
    ok(guest, "memorize", "Release: run tools/ship and check the Makefile.")  # by version 2's rules
    assert ok(guest, "stats")["terms"] == 2
    assert "@release" in facet_keys(services) and not {"@tools/ship", "@makefile"} & set(facet_keys(services))
    ok(guest, "reindex", {"rebuild": True})
    assert (ok(guest, "stats")["terms"], ok(guest, "stats")["memories"]) == (rules.CURRENT, 6)
    keys = set(facet_keys(services))
    assert {"@bin/run", "@makefile", "@tools/ship", "@src/retry.py", "@retry.py", "@setup.py"} <= keys
    assert not {"@café/menü.py", "@menü.py", "@run"} & keys  # ASCII paths only; "run" is no file name
    assert texts(guest, "What does bin/run do?")[0] == texts_v2[0]


@pytest.mark.both_stores
def test_an_old_engines_store_keeps_working_by_its_rules(guest, services, project, clock):
    load(services)
    clock.now_ms = GOLDEN["start_ms"] + len(TEXTS) * GOLDEN["step_ms"]
    assert (ok(guest, "stats")["terms"], ok(guest, "stats")["memories"]) == (1, 42)
    before = store_digest(project)
    hits = ok(guest, "recall", {"query": "charity race", "limit": 3})
    assert hits[0]["text"] == TEXTS[0] and hits[0]["ts"] == GOLDEN["start_ms"]
    assert texts(guest, "broke", mode="keyword") == [TEXTS[2]]  # the old postings answer
    assert texts(guest, "broken", mode="keyword") == []  # ... by the old rules: no word forms
    assert texts(guest, "retry", mode="keyword") == [TEXTS[4]]
    assert store_digest(project) == before, "recall wrote to an old store"
    ok(guest, "memorize", "Melanie: the kids ran to the beach and broke a kite.")
    assert (ok(guest, "stats")["terms"], ok(guest, "stats")["memories"]) == (1, 43)
    assert "terms" not in json.loads(services.kv_get("meta", "stats"))  # stats the old engine reads
    assert facet_keys(services) == []
    assert texts(guest, "broken", mode="keyword") == []
    assert texts(guest, "broke kite", mode="keyword")[0].startswith("Melanie: the kids")


@pytest.mark.both_stores
def test_reindex_with_rebuild_moves_an_old_store_to_the_current_rules(guest, services, clock):
    load(services)
    clock.now_ms = GOLDEN["start_ms"] + len(TEXTS) * GOLDEN["step_ms"]
    report = ok(guest, "reindex", {"rebuild": True})
    assert report["rebuilt"]["memories"] == 42
    assert (ok(guest, "stats")["terms"], ok(guest, "stats")["memories"]) == (rules.CURRENT, 42)
    assert texts(guest, "broken", mode="keyword") == [TEXTS[2]]
    assert texts(guest, "who runs", mode="keyword") == [TEXTS[0]]
    assert {"@melanie", "@deploy", "@src/retry.py", "@retry.py", "~2026-09"} <= set(facet_keys(services))
    # the lifts now read the facet terms: Melanie's own words before those about her
    assert texts(guest, "What did Melanie say about the race?")[0] == TEXTS[0]
    assert texts(guest, "What is in retry.py?")[0] == TEXTS[4]


def test_a_simulated_old_store_is_what_the_old_engine_wrote(tmp_path: Path, monkeypatch):
    """Today's engine with ``TERMS_VERSION = 1`` writes exactly the old engine's rows."""
    monkeypatch.setattr(records, "TERMS_VERSION", 1)
    clock = ManualClock(GOLDEN["start_ms"])
    services = HostServices(tmp_path, clock=clock)
    guest = NativeGuest(services)
    for text in TEXTS:
        ok(guest, "memorize", text)
        clock.advance(GOLDEN["step_ms"])
    guest.close()
    services.close()
    rows = [{"ns": ns, "key": key, "b64": base64.b64encode(value).decode("ascii")}
            for ns, key, value in store_rows(tmp_path) if not ns.startswith("host")]
    assert without_timeline(rows) == without_timeline(GOLDEN["rows"])


def without_timeline(rows: list[dict]) -> list[dict]:
    """The rows without what issues 27, 44 and 45 added since the golden store was written (a record's
    ``seq`` and ``extra.origin``, the ``timeline`` and ``cites`` buckets, ``meta/timeline`` and
    ``meta/cites``): those are not terms rules."""
    out = []
    for row in rows:
        added = ("timeline", "cites")
        if row["ns"] in added or (row["ns"] == "meta" and row["key"] in added):
            continue
        if row["ns"] == "memories":
            record = json.loads(base64.b64decode(row["b64"]))
            record.pop("seq", None)
            (record.get("extra") or {}).pop("origin", None)  # issue 45's origin, kept in extra
            if record.get("extra") == {}:
                record.pop("extra")
            row = {**row, "b64": json.dumps(record, sort_keys=True)}
        out.append(row)
    return out
