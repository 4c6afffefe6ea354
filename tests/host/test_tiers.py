"""The suite's tiers: what ``make check`` leaves out is exactly the tiers and the marks ``conftest.py``
registers, and the marks the suite sets follow what a test does."""

from __future__ import annotations

import re

from conftest import ROOT, SET_MARKS, TIERS
from helpers.processes import loads_the_component, starts_a_process

TESTS = ROOT / "tests"


def test_make_check_leaves_out_every_tier_and_nothing_else():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (fast,) = re.findall(r"^FAST_TIER := (.*)$", makefile, flags=re.MULTILINE)
    assert fast == " and ".join(f"not {tier}" for tier in [*TIERS, *SET_MARKS])
    assert '-m "$(FAST_TIER)"' in makefile.split("\ncheck:")[1].split("\n\n")[0]


def test_the_docs_name_every_tier():
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert all(f"| `{tier}` |" in text for tier in TIERS)
    assert all(f"| `{mark}` (set) |" in text for mark in SET_MARKS)


def test_a_test_starting_the_host_is_marked_process_and_a_guest_call_is_not():
    ledger, startup = TESTS / "host" / "test_ledger.py", TESTS / "process" / "test_startup.py"
    assert starts_a_process(ledger, "test_a_hook_process_logs_no_prompt_secret_cold_or_warm", [])  # Popen
    assert starts_a_process(startup, "test_a_hook_out_of_time_still_compiles_the_component_for_the_next_one",
                            ["project", "tmp_path"])  # through hostprocs.host
    assert starts_a_process(TESTS / "parity" / "test_node_host.py", "anything", ["node_host"])
    assert not starts_a_process(TESTS / "guest" / "test_memory.py", "test_recall_finds_the_right_fact_first",
                                ["guest", "target", "services", "project", "clock", "git_repo"])


def test_a_test_loading_the_component_itself_is_marked_wasm():
    assert loads_the_component(TESTS / "guest" / "test_memory.py", "anything", ["wasm_path"])
    memory = TESTS / "guest" / "test_memory.py"
    assert not loads_the_component(memory, "test_recall_finds_the_right_fact_first",
                                   ["guest", "target", "services"])
