"""The conformance kit: every trace passes on both targets of this host and on the Node host."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from host_harness import conformance
from host_harness.conformance import TraceServices, matches, run_trace
from host_harness.store.router import HOST_KEYS

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


def required_keys_of_the_contract() -> set[str]:
    contract = (ROOT / "docs" / "host-contract.md").read_text(encoding="utf-8")
    paragraph = re.search(r"\*\*Required keys\.\*\*(.*?)\n\n", contract, re.S)
    assert paragraph, "section 8 names the required keys"
    must = paragraph.group(1).split("must serve", 1)[1].split("Otherwise", 1)[0]
    return set(re.findall(r"`([a-z-]+)`", must))


def test_the_contract_the_hosts_and_the_kit_agree_on_the_required_host_keys():
    required = required_keys_of_the_contract()
    assert required == set(HOST_KEYS)
    node = (ROOT / "hosts" / "node" / "src" / "project.mjs").read_text(encoding="utf-8")
    listed = re.search(r"const HOST_KEYS = \[(.*?)\];", node, re.S)
    assert listed and set(re.findall(r"'([a-z-]+)'", listed.group(1))) == required
    steps = load("host-namespace")["steps"]
    served = next(s["expect"] for s in steps if s.get("keys") == "host")
    reads = [s for s in steps if s.get("value", {}).get("ns") == "host"]
    checked = {s["value"]["key"] for s in reads if s["expect"] is not None}
    assert set(served) == checked == required


def hiding(key: str) -> type[TraceServices]:
    """Trace services of a host that does not serve ``host/<key>``."""

    class Hiding(TraceServices):
        def kv_get(self, ns: str, name: str) -> bytes | None:
            return None if (ns, name) == ("host", key) else super().kv_get(ns, name)

        def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
            entries = super().kv_query(ns, q, limit)
            return [(k, v) for k, v in entries if (ns, k) != ("host", key)]

    return Hiding


@pytest.mark.parametrize("key", sorted(HOST_KEYS))
def test_a_host_that_does_not_serve_a_required_key_fails_the_kit(key, guest_factory, tmp_path,
                                                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(conformance, "TraceServices", hiding(key))
    problems = run_trace(load("host-namespace"), guest_factory, tmp_path)
    assert any(p.startswith("step 1 (keys host)") for p in problems), problems
    assert any(f"(value host/{key}):" in p for p in problems), problems


def test_a_host_that_serves_no_host_key_routes_no_sigil(guest_factory, tmp_path,
                                                        monkeypatch: pytest.MonkeyPatch):
    class Nothing(TraceServices):
        def kv_get(self, ns: str, name: str) -> Any:
            return None if ns == "host" else super().kv_get(ns, name)

    monkeypatch.setattr(conformance, "TraceServices", Nothing)
    problems = run_trace(load("host-namespace"), guest_factory, tmp_path)
    stored_as_text = [p for p in problems if "(dispatch memorize)" in p and '"namespace": "default"' in p]
    assert len(stored_as_text) == 2, problems  # @frontend and @backend land in default as text
