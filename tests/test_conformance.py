"""The conformance kit: every trace passes on both targets of this host and on the Node host."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

from host_harness.conformance import matches, run_trace

TRACES = sorted((ROOT / "conformance" / "traces").glob("*.json"))
NAMES = [path.stem for path in TRACES]


def load(name: str) -> dict:
    return json.loads((ROOT / "conformance" / "traces" / f"{name}.json").read_text(encoding="utf-8"))


def node_conformance(node_host: Path, *paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(node_host), "conformance", *map(str, paths)], capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("name", NAMES)
def test_trace_passes_on_this_host(name, guest_factory, tmp_path):
    assert run_trace(load(name), guest_factory, tmp_path) == []


def test_every_trace_passes_on_the_node_host(node_host):
    done = node_conformance(node_host, *TRACES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"ok {p.name} ({len(load(p.stem)['steps'])} steps)" for p in TRACES]


def test_a_wrong_expectation_fails_on_both_hosts(node_host, guest_factory, tmp_path):
    trace = load("memory")
    step = next(s for s in trace["steps"] if s.get("verb") == "stats")
    step["expect"]["data"]["memories"] += 1
    problems = run_trace(trace, guest_factory, tmp_path / "py")
    assert len(problems) == 1 and "dispatch stats" in problems[0]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(trace), encoding="utf-8")
    done = node_conformance(node_host, broken)
    assert done.returncode == 1
    assert done.stdout.startswith("FAIL broken.json") and "(dispatch stats)" in done.stdout


def test_the_traces_cover_every_verb_and_export(services):
    from guest.engine import Engine

    called: set[str] = set()
    for path in TRACES:
        for step in load(path.stem)["steps"]:
            if step.get("call") == "dispatch":
                called.add(step["verb"])
            elif "call" in step:
                called.add(f"export:{step['call']}")
    verbs = set(Engine(services).verbs)
    assert verbs - called == set(), "verbs no trace exercises"
    assert {"export:version", "export:memorize", "export:recall"} <= called


def test_every_step_has_an_expectation():
    for path in TRACES:
        trace = load(path.stem)
        assert trace["format"] == 1 and trace["about"]
        for number, step in enumerate(trace["steps"], start=1):
            pure_host_action = any(key in step for key in ("clock", "fault", "files"))
            assert pure_host_action or "expect" in step, f"{path.name} step {number}"


@pytest.mark.parametrize(("expected", "actual", "same"), [
    ({"a": [1, "x", None]}, {"a": [1, "x", None]}, True),
    ({"a": 1}, {"a": 1, "b": 2}, False),
    (0.25, 0.25000001, True),
    (0.25, 0.2501, False),
    (1, 1.0, True),
    (True, 1, False),
    ({"$startswith": "internal: "}, "internal: host failure: x", True),
    ({"$startswith": "internal: "}, "validation: x", False),
    ([1, 2], [2, 1], False),
])
def test_the_comparison_rule(expected, actual, same):
    assert matches(expected, actual) is same
