"""``make eval``'s measurements: metrics on hand-checked fixtures, a tiny project through the engine,
variants reaching the native guest, and the native/wasm cross-check.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

import pytest
from built import component

from bench import metrics, runner
from bench.crosscheck import crosscheck, subset
from bench.project import Memory, Project, Prompt
from bench.variants import DEFAULT, Variant, applied, chosen
from host_harness.targets.runtime import Runtime


@pytest.fixture(scope="module")
def wasm_runtime() -> Iterator[Runtime]:
    """The built component (the bench's own tests read nothing of ``tests/``: not its conftest either)."""
    runtime = Runtime.load(component())
    yield runtime
    runtime.close()


# ---------------------------------------------------------------- metrics, by hand


def test_binary_metrics_by_hand():
    gains = dict.fromkeys(("a", "b", "c"), 1.0)
    ranked = ["a", "x", "b", "y"]
    # DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3) + 1/log2(4)
    assert metrics.ndcg(ranked, gains, 10) == pytest.approx(1.5 / (1.5 + 1 / math.log2(3)))
    assert metrics.recall_at(ranked, gains, 10) == pytest.approx(2 / 3)
    assert metrics.hit_at(ranked, gains, 10) == 1.0
    assert metrics.hit_at(ranked, gains, 1) == 1.0 and metrics.hit_at(["x"], gains, 10) == 0.0
    assert metrics.ndcg(["x", "y"], gains, 10) == 0.0


def test_summary_by_hand():
    outcomes = {
        "recall": [
            {"group": "1", "ndcg": 1.0, "recall": 1.0, "hit": 1.0, "cpu_ms": 3.0, "wall_ms": 6.0},
            {"group": "1", "ndcg": 0.0, "recall": 0.0, "hit": 0.0, "cpu_ms": 5.0, "wall_ms": 10.0},
            {"group": "2", "ndcg": 0.5, "recall": 0.25, "hit": 1.0, "cpu_ms": 4.0, "wall_ms": 8.0},
        ],
        "own": [
            {"gold": True, "injected": True, "tokens": 100.0, "cpu_ms": 1.0, "wall_ms": 2.0},
            {"gold": False, "injected": True, "tokens": 50.0, "cpu_ms": 2.0, "wall_ms": 4.0},
            {"gold": False, "injected": False, "tokens": 0.0, "cpu_ms": 3.0, "wall_ms": 6.0},
            {"gold": True, "injected": True, "tokens": 250.0, "cpu_ms": 4.0, "wall_ms": 8.0},
        ],
        "foreign": [
            {"gold": False, "injected": True, "tokens": 80.0, "cpu_ms": 9.0, "wall_ms": 18.0},
            {"gold": False, "injected": False, "tokens": 0.0, "cpu_ms": 9.0, "wall_ms": 18.0},
        ],
    }
    s = runner.summary(outcomes)
    assert s["recall"]["all"] == {"n": 3, "ndcg": pytest.approx(0.5), "recall": pytest.approx(1.25 / 3),
                                  "hit": pytest.approx(2 / 3)}
    assert s["recall"]["1"] == {"n": 2, "ndcg": 0.5, "recall": 0.5, "hit": 0.5}
    assert s["recall"]["2"]["recall"] == 0.25
    assert s["hook"] == {"own": 4, "foreign": 2, "own_hit": 0.5, "own_injected": 0.75, "foreign_alarm": 0.5,
                         "unrelated": 0, "unrelated_alarm": 0.0, "tokens_own": 100.0, "tokens_foreign": 40.0}
    assert s["ms"] == {"recall_cpu_p50": 4.0, "hook_cpu_p50": 3.5,
                       "recall_wall_p50": 8.0, "hook_wall_p50": 7.0}


# ---------------------------------------------------------------- a tiny project through the engine


def tiny() -> Project:
    """Four notes (two with the same text), two own questions, two foreign prompts."""
    memories = [
        Memory("D1:1", "Ann: the deploy script pushes the frontend bundle to the staging bucket", 1000),
        Memory("D1:2", "Bob: I adopted a grey kitten called Pixel last weekend", 2000),
        Memory("D1:3", "Ann: thanks!", 3000),
        Memory("D2:1", "Ann: thanks!", 4000),
    ]
    own = [Prompt("Which bucket does the deploy script push the frontend bundle to?", frozenset({"D1:1"}),
                  "4"),
           Prompt("What did Bob call his grey kitten?", frozenset({"D1:2"}), "1")]
    foreign = [Prompt("How does the quarterly tax filing work for freelancers?", frozenset(), "x"),
               Prompt("Pixel kitten grey adopted weekend", frozenset(), "y")]
    return Project("tiny", memories, own, foreign, 10_000)


def test_a_project_through_the_native_engine(tmp_path):
    targets = runner.Targets(tmp_path / "no.wasm")
    out = runner.evaluate([tiny()], targets, "native", [DEFAULT])["default"]
    first, second = out["recall"]
    assert first["first"] == 1 and first["hit"] == 1.0 and first["recall"] == 1.0
    assert second["first"] == 1 and second["ndcg"] == 1.0
    assert [r["prompt"] for r in out["recall"]] == [p.text for p in tiny().own]
    assert all(r["project"] == "tiny" for kind in out.values() for r in kind)
    own = out["own"]
    assert all(r["injected"] and r["gold"] and r["tokens"] > 0 for r in own)
    assert out["foreign"][1]["injected"]  # shares every word with a note: the hook injects it
    for row in own + out["foreign"]:
        assert row["tokens"] == int(row["tokens"] * 4) / 4  # characters / 4


def test_keys_with_the_same_text_share_one_memory(tmp_path):
    with runner.opened(tiny(), runner.Targets(tmp_path / "no.wasm"), "native") as store:
        assert store.ids["D1:3"] == store.ids["D2:1"]
        assert len(set(store.ids.values())) == 3
        data, _ = store.ask("export", {})
        stamps = {m["id"]: m["created"] for m in data["memories"]}
        assert stamps[store.ids["D1:1"]] == 1000 and stamps[store.ids["D1:2"]] == 2000  # the clock was set


# ---------------------------------------------------------------- variants


def test_a_variants_options_reach_the_engine_and_are_undone(tmp_path):
    keyword_only = Variant("keyword only", options={"mode": "keyword"})
    body = {"query": "grey kitten bucket", "limit": 4}
    with runner.opened(tiny(), runner.Targets(tmp_path / "no.wasm"), "native") as store:
        default, _ = store.raw("recall", body)
        asked_for, _ = store.raw("recall", {**body, "mode": "keyword"})
        assert asked_for != default
        with applied(keyword_only):
            assert store.raw("recall", body)[0] == asked_for
        assert store.raw("recall", body)[0] == default


def test_a_variants_patch_is_applied_and_undone(tmp_path):
    from guest.memory import autorecall

    header = autorecall.HEADER
    loud = Variant("loud", patch={"guest.memory.autorecall:HEADER": "## PATCHED"})
    with runner.opened(tiny(), runner.Targets(tmp_path / "no.wasm"), "native") as store:
        with applied(loud):
            data, _ = store.ask("auto_recall", {"prompt": "grey kitten"})
            assert data["context"].startswith("## PATCHED\n")
        data, _ = store.ask("auto_recall", {"prompt": "grey kitten"})
        assert data["context"].startswith(header + "\n")
    assert autorecall.HEADER == header


def test_a_variants_request_fields_go_into_the_bodies():
    prompt = tiny().own[0]
    recent = Variant("recent", recall={"recency_weight": 0.5}, hook={"limit": 3})
    assert runner.recall_body(prompt, recent) == {"query": prompt.text, "limit": 10, "recency_weight": 0.5}
    assert runner.hook_body(prompt, recent) == {"prompt": prompt.text, "budget_tokens": 1500, "limit": 3}
    assert runner.hook_body(prompt, DEFAULT) == {"prompt": prompt.text, "budget_tokens": 1500}
    assert not recent.native_only and Variant("x", options={"candidates": 9}).native_only


@pytest.mark.parametrize(
    ("variant", "message"),
    [(Variant("typo", options={"candidate": 9}), "no RecallOptions field candidate"),
     (Variant("nowhere", patch={"guest.memory.autorecall:NO_SUCH": 1}), "names no module attribute")],
)
def test_a_variant_that_names_nothing_stops_the_run(variant, message):
    with pytest.raises(SystemExit, match=message), applied(variant):
        pass


def test_choosing_variants():
    variants = (DEFAULT, Variant("a"), Variant("b"))
    assert chosen(None, variants) == list(variants)
    assert chosen(["b"], variants) == [DEFAULT, variants[2]]
    with pytest.raises(SystemExit, match="unknown variant"):
        chosen(["c"], variants)


def shouting_ids() -> object:
    """A ``memory_id`` that hashes the upper-cased text: other ids for the same memories."""
    from guest.memory.records import memory_id

    return lambda namespace, text: memory_id(namespace, text.upper())


def test_a_variant_that_changes_the_index_memorizes_with_its_patches(tmp_path):
    targets = runner.Targets(tmp_path / "no.wasm")
    patch = {"guest.memory.memorize:memory_id": shouting_ids()}
    ids = {}
    for variant in (DEFAULT, Variant("asked", patch=patch), Variant("stored", patch=patch, index=True)):
        with runner.opened(tiny(), targets, "native", variant) as store:
            ids[variant.name] = store.ids
    assert ids["asked"] == ids["default"]  # memorized by the default engine
    assert set(ids["stored"].values()).isdisjoint(ids["default"].values())


def test_only_variants_that_change_the_index_get_stores_of_their_own(tmp_path, monkeypatch):
    built = []
    opened = runner.opened

    def counting(project, targets, target, variant=DEFAULT):
        built.append(variant.name)
        return opened(project, targets, target, variant)

    monkeypatch.setattr(runner, "opened", counting)
    patch = {"guest.memory.memorize:memory_id": shouting_ids()}
    variants = [DEFAULT, Variant("asked", patch=patch), Variant("stored", patch=patch, index=True)]
    out = runner.evaluate([tiny(), tiny()], runner.Targets(tmp_path / "no.wasm"), "native", variants)
    assert built == ["default", "stored", "default", "stored"]
    assert set(out) == {"default", "asked", "stored"}
    assert all(len(out[name]["recall"]) == 4 for name in out)


# ---------------------------------------------------------------- both targets


def test_both_targets_answer_a_project_identically(wasm_runtime):
    check = crosscheck(subset(tiny(), 3, 1, 1), runner.Targets(component(), runtime=wasm_runtime))
    assert check["memories"] == 3 and check["calls"] == 3
    assert check["identical"] == 3 and check["same_ids"] and check["first_difference"] is None
    assert check["native_recall_cpu_p50"] > 0 and check["wasm_recall_wall_p50"] > 0


def test_the_cross_check_refuses_a_native_only_variant(tmp_path):
    with pytest.raises(ValueError, match="patches the native guest"):
        crosscheck(tiny(), runner.Targets(tmp_path / "no.wasm"), Variant("x", options={"candidates": 9}))


def test_subset_spreads_evenly():
    project = tiny()
    small = subset(project, 2, 1, 5)
    assert [m.key for m in small.memories] == ["D1:1", "D1:3"]
    assert small.own == project.own[:1] and small.foreign == project.foreign
    assert json.dumps(small.asked_ms) == "10000"


# ---------------------------------------------------------------- a replayed session


def test_a_replayed_session_injects_each_memory_once(tmp_path):
    project = tiny()
    project = Project("twice", project.memories, project.own * 2, project.foreign, project.asked_ms)
    with runner.opened(project, runner.Targets(tmp_path / "no.wasm"), "native") as store:
        row = runner.replay(store, project, DEFAULT)
        first, _ = store.ask("auto_recall", runner.hook_body(project.own[0], DEFAULT))
    assert row["prompts"] == 4 and row["gold_alone"] == 4 and row["gold"] == 4
    assert row["tokens_alone"] >= 2 * len(first["context"]) / 4 > 0
    assert 0 < row["tokens"] <= row["tokens_alone"] / 2  # the second round injects nothing new
    total = runner.sessions([row, row])
    assert total["sessions"] == 2 and total["prompts"] == 8
    assert total["saved"] == pytest.approx(1 - row["tokens"] / row["tokens_alone"])
    assert runner.sessions([])["saved"] == 0.0
