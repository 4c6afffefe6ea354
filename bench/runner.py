"""Asking a set's projects through the engine: fresh timed stores, recalls, hook calls, outcomes.

Every project is memorized into a fresh store (real SQLite, real vector index) through
``dispatch("memorize")``, one memory at a time with the host's :class:`ManualClock` set to the
memory's time; the prompts are then asked at the project's ``asked_ms``:

* ``recall {"query", "limit": 10}`` for each own prompt: nDCG@10 (binary gains), R@10 and hit@10
  against the prompt's relevant memories (keys mapped to the ids the engine gave them; two keys
  with the same text share an id);
* ``auto_recall {"prompt", "budget_tokens": 1500}`` -- the hook's body -- for each own prompt
  (did it inject anything, is a relevant memory among the injected hits, tokens = characters / 4)
  and for each foreign prompt (any injection is a false alarm);
* a replayed session (:func:`replay`): the first :data:`SESSION_PROMPTS` own prompts asked in turn
  as one session, whose hook injects a memory at most once (``exclude``), against each prompt alone.

Stores live in ``/dev/shm`` when it is there: a commit's fsync on disk costs more than the engine's
work, and quality does not depend on where the store is.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from bench import metrics
from bench.devset import UNRELATED
from bench.project import Project, Prompt
from bench.variants import DEFAULT, Variant, applied
from host_harness.hooks.protocol import DEFAULT_BUDGET_TOKENS
from host_harness.services import HostServices, ManualClock
from host_harness.targets.base import BaseGuest
from host_harness.vectors import IndexPolicy

K = 10
SHM = Path("/dev/shm")
CHARS_PER_TOKEN = 4
SESSION_PROMPTS = 50

Outcome = dict[str, Any]


class Cost(NamedTuple):
    """What one call cost: CPU time of the calling thread (the engine runs in it, on both targets,
    and a busy machine barely changes it) and wall-clock time, in ms."""

    cpu_ms: float
    wall_ms: float


def scratch(prefix: str) -> tempfile.TemporaryDirectory[str]:
    """A temporary folder, in memory when ``/dev/shm`` is writable."""
    where = SHM if SHM.is_dir() and os.access(SHM, os.W_OK) else None
    return tempfile.TemporaryDirectory(prefix=prefix, dir=where)


class Targets:
    """Guests of either target; the component is loaded (from its precompiled cache) once.

    ``cache_dir`` holds the precompiled component (default: the harness's, shared by every
    checkout on the machine and pruned to a few artifacts); ``runtime``, one already loaded.
    """

    def __init__(self, wasm: Path, cache_dir: Path | None = None, runtime: Any = None) -> None:
        self.wasm = wasm
        self.cache_dir = cache_dir
        self._runtime: Any = runtime
        self._loaded = False  # whether this object loaded the runtime (and so closes it)

    def guest(self, target: str, services: HostServices) -> BaseGuest:
        """A native or wasm guest over ``services``."""
        if target == "native":
            from host_harness.targets.native import NativeGuest

            return NativeGuest(services)
        from host_harness.targets.component import WasmGuest

        return WasmGuest(self.runtime(), services)

    def runtime(self) -> Any:
        """The compiled component (compiled now unless its precompiled cache holds it)."""
        from host_harness.targets.runtime import Runtime

        if self._runtime is None:
            self._runtime = Runtime.load(self.wasm, self.cache_dir)
            self._loaded = True
        return self._runtime

    def close(self) -> None:
        """Stop the clock thread of the component this object loaded."""
        if self._loaded:
            self._runtime.close()


class Store:
    """One memorized project: its guest and clock, and the memory id of every key."""

    def __init__(self, guest: BaseGuest, ids: dict[str, str]) -> None:
        self.guest = guest
        self.services = guest.services
        self.ids = ids

    def raw(self, verb: str, body: dict[str, Any]) -> tuple[str, Cost]:
        """The envelope of one call and what it cost."""
        wall, cpu = time.perf_counter(), time.thread_time()
        envelope = self.guest.dispatch(verb, json.dumps(body))
        return envelope, Cost((time.thread_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000)

    def ask(self, verb: str, body: dict[str, Any]) -> tuple[Any, Cost]:
        """The data of one call (an error envelope stops the run) and what it cost."""
        envelope, cost = self.raw(verb, body)
        answer = json.loads(envelope)
        if not answer["ok"]:
            raise SystemExit(f"{verb} failed: {answer['error']}")
        return answer["data"], cost

    def gold(self, prompt: Prompt) -> set[str]:
        """The ids of the prompt's relevant memories."""
        return {self.ids[key] for key in prompt.relevant}


@contextmanager
def opened(project: Project, targets: Targets, target: str, variant: Variant = DEFAULT) -> Iterator[Store]:
    """``project`` memorized in a fresh store (with ``variant`` applied when it changes the index)."""
    with scratch(f"rs-learn-eval-{project.name}-") as tmp:
        clock = ManualClock(0)
        services = HostServices(Path(tmp), clock=clock,
                                index_policy=IndexPolicy.from_env(Path(tmp) / "vector-cache"))
        guest = targets.guest(target, services)
        store = Store(guest, {})
        try:
            with applied(variant if variant.index else DEFAULT):
                for memory in project.memories:
                    clock.now_ms = memory.ts_ms
                    data, _ = store.ask("memorize", {"text": memory.text})
                    store.ids[memory.key] = data["id"]
            clock.now_ms = project.asked_ms
            yield store
        finally:
            guest.close()
            services.close()


def recall_body(prompt: Prompt, variant: Variant) -> dict[str, Any]:
    """What the CLI sends for a recall of :data:`K`, with the variant's fields."""
    return {"query": prompt.text, "limit": K, **variant.recall}


def hook_body(prompt: Prompt, variant: Variant) -> dict[str, Any]:
    """What the prompt-submit hook sends, with the variant's fields."""
    return {"prompt": prompt.text, "budget_tokens": DEFAULT_BUDGET_TOKENS, **variant.hook}


def recalled(store: Store, prompt: Prompt, variant: Variant) -> Outcome:
    """One recall's nDCG, R and hit @10, the rank of its first relevant hit, and its time."""
    data, cost = store.ask("recall", recall_body(prompt, variant))
    ranked = [hit["id"] for hit in data]
    gains = dict.fromkeys(store.gold(prompt), 1.0)
    first = next((i + 1 for i, hit in enumerate(ranked) if hit in gains), None)
    return {"group": prompt.group, "ndcg": metrics.ndcg(ranked, gains, K),
            "recall": metrics.recall_at(ranked, gains, K), "hit": metrics.hit_at(ranked, gains, K),
            "first": first, **cost._asdict()}


def injected(store: Store, prompt: Prompt, variant: Variant) -> Outcome:
    """One hook call: whether it injected, whether a relevant memory was among it, tokens, time."""
    data, cost = store.ask("auto_recall", hook_body(prompt, variant))
    gold = store.gold(prompt)
    return {"group": prompt.group, "injected": bool(data["context"]),
            "gold": any(hit["id"] in gold for hit in data["hits"]),
            "tokens": len(data["context"]) / CHARS_PER_TOKEN, **cost._asdict()}


def replay(store: Store, project: Project, variant: Variant) -> Outcome:
    """The project's first :data:`SESSION_PROMPTS` own prompts asked in turn as one session.

    The hook sends ``auto_recall`` the ids it injected earlier in the session as ``exclude``
    (``host_harness/hooks/prompt_run.py``). Each prompt is asked alone (as before) and with the session's
    ``exclude``: the tokens injected both ways, and how often a relevant memory is in the agent's
    context -- injected for this prompt, or (in the session) earlier, where it still is.
    """
    session: list[str] = []
    out: Outcome = {"project": project.name, "prompts": 0, "tokens_alone": 0.0, "tokens": 0.0,
                    "gold_alone": 0, "gold": 0}
    for prompt in project.own[:SESSION_PROMPTS]:
        body = hook_body(prompt, variant)
        alone, _ = store.ask("auto_recall", body)
        deduped, _ = store.ask("auto_recall", {**body, "exclude": list(session)})
        shown = [hit["id"] for hit in deduped["hits"]]
        if set(shown) & set(session):
            raise SystemExit(f"{project.name}: a memory was injected twice in one session")
        session += shown
        relevant = store.gold(prompt)
        out["prompts"] += 1
        out["tokens_alone"] += len(alone["context"]) / CHARS_PER_TOKEN
        out["tokens"] += len(deduped["context"]) / CHARS_PER_TOKEN
        out["gold_alone"] += any(hit["id"] in relevant for hit in alone["hits"])
        out["gold"] += any(memory in relevant for memory in session)
    return out


def ask(store: Store, project: Project, variant: Variant) -> dict[str, list[Outcome]]:
    """Every prompt of ``project`` asked of its store under ``variant``, and a replayed session."""
    with applied(variant):
        out = {
            "recall": [recalled(store, p, variant) for p in project.own],
            "own": [injected(store, p, variant) for p in project.own],
            "foreign": [injected(store, p, variant) for p in project.foreign],
        }
        session = [replay(store, project, variant)]
    for kind, rows in out.items():
        for row, prompt in zip(rows, project.foreign if kind == "foreign" else project.own, strict=True):
            row["project"], row["prompt"] = project.name, prompt.text
    return {**out, "session": session}


def evaluate(
    projects: list[Project], targets: Targets, target: str, variants: list[Variant]
) -> dict[str, dict[str, list[Outcome]]]:
    """``{variant: {"recall" | "own" | "foreign" | "session": outcomes}}`` over every project."""
    kinds = ("recall", "own", "foreign", "session")
    out: dict[str, dict[str, list[Outcome]]] = {v.name: {kind: [] for kind in kinds} for v in variants}
    for project in projects:
        for store, variant in stores(project, targets, target, variants):
            for kind, rows in ask(store, project, variant).items():
                out[variant.name][kind] += rows
    return out


def stores(project: Project, targets: Targets, target: str,
           variants: list[Variant]) -> Iterator[tuple[Store, Variant]]:
    """Each variant with a store of ``project`` to ask: one store for the variants that store the
    same bytes, one of its own for each variant that changes the index."""
    shared = [v for v in variants if not v.index]
    groups = [(DEFAULT, shared)] if shared else []
    groups += [(v, [v]) for v in variants if v.index]
    for built_with, asked in groups:
        with opened(project, targets, target, built_with) as store:
            for variant in asked:
                yield store, variant


def p50(samples: list[float]) -> float:
    """The median, 0 for no samples."""
    return statistics.median(samples) if samples else 0.0


def summary(outcomes: dict[str, list[Outcome]]) -> dict[str, Any]:
    """Recall figures per group and overall; hook rates and mean tokens (over every prompt)."""
    recall = outcomes["recall"]
    groups = sorted({r["group"] for r in recall})
    per_group = {g: _means([r for r in recall if r["group"] == g]) for g in groups}
    own = outcomes["own"]
    foreign = [r for r in outcomes["foreign"] if r.get("group") != UNRELATED]
    unrelated = [r for r in outcomes["foreign"] if r.get("group") == UNRELATED]
    return {
        "recall": {"all": _means(recall), **per_group},
        "hook": {
            "own": len(own), "foreign": len(foreign),
            "own_hit": _mean(own, "gold"), "own_injected": _mean(own, "injected"),
            "foreign_alarm": _mean(foreign, "injected"),
            "unrelated": len(unrelated), "unrelated_alarm": _mean(unrelated, "injected"),
            "tokens_own": _mean(own, "tokens"), "tokens_foreign": _mean(foreign, "tokens"),
        },
        "ms": {f"{verb}_{kind}_p50": p50([r[f"{kind}_ms"] for r in rows])
               for verb, rows in (("recall", recall), ("hook", own + foreign)) for kind in ("cpu", "wall")},
        "session": sessions(outcomes.get("session", [])),
    }


def sessions(rows: list[Outcome]) -> dict[str, Any]:
    """The replayed sessions' totals: prompts, tokens alone and in the session (summed), gold counts."""
    keys = ("prompts", "tokens_alone", "tokens", "gold_alone", "gold")
    total: dict[str, Any] = {key: sum(row[key] for row in rows) for key in keys}
    total["sessions"] = len(rows)
    total["saved"] = 1 - total["tokens"] / total["tokens_alone"] if total["tokens_alone"] else 0.0
    return total


def _mean(rows: list[Outcome], key: str) -> float:
    return sum(float(r[key]) for r in rows) / len(rows) if rows else 0.0


def _means(rows: list[Outcome]) -> dict[str, float]:
    return {"n": len(rows), **{key: _mean(rows, key) for key in ("ndcg", "recall", "hit")}}
