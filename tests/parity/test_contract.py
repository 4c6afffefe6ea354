"""``host_harness/contract.json`` is the guest's ``describe`` answer, on both targets; ``names`` reads names.

The host reads the guest's limits, field lists and enums from that file, never from the guest's
code (``tests/host/test_layout.py``). A guest edit without ``make wasm`` (which rewrites the file from
the sources it compiles, ``scripts/build_component.py``) fails here: the native answer moved and
the file did not, or the file moved and the built component did not.
"""

from __future__ import annotations

from envelopes import call, ok

from host_harness import contract


def test_the_committed_contract_is_the_guests_answer(guest):
    assert ok(guest, "describe") == contract.answer()


def test_the_files_are_rendered_as_the_build_writes_them():
    for path, text in contract.files(contract.answer()).items():
        assert path.read_text(encoding="utf-8") == text, path


def test_the_host_verbs_are_not_listed_for_agents(guest):
    """No spool folder, no MCP tool, no change to the conformance traces' verb lists."""
    assert not {"describe", "names"} & set(ok(guest, "version")["verbs"])
    unknown = call(guest, "no_such_verb", {})["error"]
    assert "known verbs:" in unknown and "describe" not in unknown and "names" not in unknown


def test_a_section_names_what_it_lacks():
    listing = contract.section("memory.listing")
    assert listing.MAX_PAGE == 200
    try:
        listing.NO_SUCH_LIMIT  # noqa: B018
    except AttributeError as error:
        assert "no NO_SUCH_LIMIT in section 'memory.listing'" in str(error)
    else:
        raise AssertionError("a missing value must raise")


def test_names_reads_names_by_the_guests_rules(guest):
    token = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
    data = ok(guest, "names", {"skills": ["Café Setup", "--", "ſkill"], "disciplines": ["frontend", token]})
    assert data == {"skills": ["cafe-setup", "", "skill"], "disciplines": [None, "github-token"]}
    assert ok(guest, "names", {}) == {"skills": [], "disciplines": []}


def test_names_takes_lists_of_strings_only(guest):
    bad = call(guest, "names", {"skills": "deploy"})
    assert bad == {"ok": False, "verb": "names",
                   "error": "validation: field 'skills' must be a list of strings"}
    assert not call(guest, "names", {"disciplines": [1]})["ok"]


# The verb spec's ranges are the ones the guest enforces (issue 46): the bound passes, one past it is refused.
# Not recall_search's limit: like the seed's Go, it saturates (a limit of -1 is the default, 99 is 20).
RANGED = [("recall", "limit", {"query": "port"}), ("list_memories", "limit", {}),
          ("query_records", "limit", {}), ("retrieve_memory", "maxTokens", {}),
          ("create_todo", "priority", {"title": "t"}),
          ("auto_recall", "budget_tokens", {"prompt": "which port?"}), ("session_start", "budget_tokens", {}),
          ("capture_context", "budget_tokens", {})]


def test_the_spec_ranges_are_the_guests(guest):
    for verb, name, body in RANGED:
        spec = contract.field(verb, name)
        for value in (spec["minimum"], spec["maximum"]):
            assert call(guest, verb, {**body, name: value})["ok"], (verb, name, value)
        for value in (spec["minimum"] - 1, spec["maximum"] + 1):
            refused = call(guest, verb, {**body, name: value})
            assert not refused["ok"] and name in refused["error"], (verb, name, value, refused)
