"""A store written under host contract v1 opens, reads and grows under v2 (issue 43 item 1).

``tests/data/v1-store/`` was written by the v1 component (``rs:learn@0.1.0``) and is never
rewritten; each test works on a copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from envelopes import ok

from host_harness.services import HostServices

V1 = Path(__file__).parents[1] / "data" / "v1-store"
STAGING = "mem-da70919bd155a67b-52"  # "The staging database listens on port 5433, not 5432."
FORGOTTEN = "mem-4c59dfcf64c014e9-54"  # "Use ruff for linting; ...", forgotten under v1
TOOLING = "mem-fdfeef52a84c1046-39"  # in the discipline `tooling`


@pytest.fixture
def v1_services(tmp_path: Path, clock) -> HostServices:
    root = tmp_path / "project"
    shutil.copytree(V1, root)
    services = HostServices(root, clock=clock)
    yield services
    services.close()


def test_a_v1_store_recalls_what_v1_wrote(guest_factory, v1_services: HostServices):
    guest = guest_factory(v1_services)
    hits = ok(guest, "recall", {"query": "which port does the staging database listen on"})
    assert hits[0]["id"] == STAGING
    assert hits[0]["text"] == "The staging database listens on port 5433, not 5432."
    assert FORGOTTEN not in {hit["id"] for hit in ok(guest, "recall", {"query": "ruff linting CI warning"})}
    tooling = ok(guest, "recall", {"query": "@tooling linter version lockfile"})
    assert [hit["id"] for hit in tooling][:1] == [TOOLING]


def test_a_v1_store_lists_and_dedupes_under_v2(guest_factory, v1_services: HostServices):
    guest = guest_factory(v1_services)
    again = ok(guest, "memorize", {"text": "The staging database listens on port 5433, not 5432."})
    assert again["id"] == STAGING and again["deduped"] is True
    ids = {item["id"] for item in ok(guest, "list_memories", {})["memories"]}
    assert STAGING in ids and FORGOTTEN not in ids and len(ids) == 4


def test_a_v1_store_takes_new_memories_under_v2(guest_factory, v1_services: HostServices):
    guest = guest_factory(v1_services)
    new = ok(guest, "memorize", {"text": "The cache server runs on port 6380 in staging."})["id"]
    ok(guest, "forget", {"ids": [STAGING]})
    ids = [hit["id"] for hit in ok(guest, "recall", {"query": "staging port"})]
    assert new in ids and STAGING not in ids
