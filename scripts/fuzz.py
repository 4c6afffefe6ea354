"""`make fuzz`: generated request bodies through the built component; counts traps and `internal:` answers.

Every verb (and unknown ones) gets bodies generated from a seeded random source: well-formed
requests with one field mutated (wrong type, huge or negative number, empty, surrogate escapes,
control characters, a reserved or hostile namespace, a sigil), random JSON of any shape, JSON nested
around and far beyond the nesting limit, broken JSON, raw text and bytes decoded as text. Each body
goes through ``dispatch`` on one warm ``WasmGuest`` over a fresh temporary project (SQLite, real
host). A bad body must come back as an ``ok: false`` envelope naming the problem (``validation:``,
``not_found:``, ``conflict:``); the run reports how many calls trapped the component and how many
answered ``internal:``, both of which should be 0, and exits 1 otherwise.

    python scripts/fuzz.py                     # 10,000 bodies, seed 11
    python scripts/fuzz.py --count 20000 --seed 7
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_harness.errors import GuestError  # noqa: E402
from host_harness.services import HostServices  # noqa: E402
from host_harness.targets.component import WasmGuest  # noqa: E402
from host_harness.targets.runtime import Runtime  # noqa: E402

VERBS: dict[str, dict[str, Any]] = {
    "memorize": {"text": "Deploys go through ArgoCD.", "namespace": "default"},
    "recall": {"query": "deploys", "limit": 5, "mode": "hybrid", "recency_weight": 1.0},
    "stats": {"namespace": "default"},
    "embed": {"text": "embed me"},
    "reindex": {"namespace": "default"},
    "version": {},
    "auto_recall": {"prompt": "how do deploys work?", "budget_tokens": 300, "limit": 3, "strategy": "auto"},
    "learn": {"memory": "Smoke-test first.", "context": "incident",
              "skill": {"action": "create", "name": "Deploy", "description": "How", "body": "1. Ship"}},
    "archive": {"content": "build log\nall green", "label": "build", "namespace": "default"},
    "archive_recall": {"id": "r1", "namespace": "default"},
    "archive_search": {"query": "build green", "limit": 3},
    "memory_helper_version": {},
    "create_checklist": {"title": "Release", "tags": ["a"], "due": "2026-12-01",
                         "items": [{"title": "Tag", "items": [{"title": "Sign"}]}]},
    "update_checklist": {"id": "cl-1", "version": 1, "title": "Release 2", "status": "done"},
    "add_checklist_item": {"checklistId": "cl-1", "title": "Notes", "parentId": "it-1", "ordinal": 2},
    "update_checklist_item": {"checklistId": "cl-1", "itemId": "it-1", "status": "done", "version": 1},
    "create_todo": {"title": "Rotate keys", "priority": 3, "tags": ["ops"], "due": "2026-12-24"},
    "update_todo": {"id": "td-1", "status": "in_progress", "version": 1},
    "create_session_note": {"content": "A note.", "importance": 0.5, "tags": ["x"]},
    "update_session_note": {"id": "nt-1", "importance": 0.9},
    "get_record": {"id": "td-1"},
    "query_records": {"query": "keys", "kinds": ["todo"], "status": "pending", "limit": 5},
    "retrieve_memory": {"query": "release", "maxTokens": 100},
    "delete_record": {"id": "td-1", "hard": False},
    "reconcile_index": {},
    "memory_retention": {"force": False},
}
STRINGS = [
    "", " ", "\t\n", "x" * 70_000, "é" * 3000, "\u0000", "\x07bell", "@host x", "@../up x", "@frontend x",
    "r0", "r18446744073709551616", "cl-0", "td-99999999999999999", "it-1", "nt-01", "default", "host",
    "../escape", "a/b", "İSTANBUL", "\u202e", "\U0001f600", "null", "[]", "{}", "0", "-1", "1e309",
    "\ud800", "\udfff", "2026-02-30", "9999-99-99", "create", "update", "archived", "deleted", "done",
]
NUMBERS: list[Any] = [0, -1, 1, 2.9, -0.0, 10**30, -(10**30), 1e308, 0.5, 101, 65_536, 2**64, True, False,
                      None]
FIELDS = ["text", "query", "id", "title", "items", "scope", "projectId", "x", "namespace", "limit"]


def value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value."""
    kind = rng.randrange(8 if depth < 4 else 4)
    if kind == 0:
        return rng.choice(STRINGS)
    if kind == 1:
        return rng.choice(NUMBERS)
    if kind == 2:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(0, 40)))
    if kind == 3:
        return rng.random() * 10 ** rng.randrange(-5, 8)
    if kind in (4, 5):
        return [value(rng, depth + 1) for _ in range(rng.randrange(0, 5))]
    return {rng.choice(FIELDS): value(rng, depth + 1) for _ in range(rng.randrange(0, 5))}


def mutated(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    """The template with one field replaced, removed or added."""
    body = json.loads(json.dumps(template))
    if body and rng.random() < 0.8:
        field = rng.choice(sorted(body))
        if rng.random() < 0.2:
            del body[field]
        else:
            body[field] = value(rng)
    else:
        body[rng.choice(["namespace", "scope", "projectId", "global", "unknown", "limit", "id"])] = value(rng)
    return body


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of the string leaves of a JSON value."""
    if isinstance(value, str):
        return [path]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in leaves(item, (*path, key))]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in leaves(item, (*path, i))]
    return []


def surrogated(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    """The template with a lone surrogate in one of its strings, at any depth."""
    body = json.loads(json.dumps(template))
    paths = leaves(body)
    if not paths:
        return {"text": "\ud800"}
    *parents, last = rng.choice(paths)
    holder = body
    for step in parents:
        holder = holder[step]
    holder[last] = holder[last] + rng.choice(["\ud800", "\udfff", "\udc80x"])
    return body


def nested(rng: random.Random) -> str:
    """Arrays or objects nested around and far beyond the limit (256)."""
    depth = rng.choice([200, 255, 256, 257, 300, 999, 1000, 1050, 1100, 2000, 50_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return opener * depth + "1" + closer * depth


def body_for(rng: random.Random, verb: str) -> str:
    """One generated body for ``verb``."""
    template = VERBS.get(verb, {"text": "x"})
    kind = rng.randrange(11)
    if kind <= 3:
        return json.dumps(mutated(rng, template), ensure_ascii=rng.random() < 0.5)
    if kind == 10:
        return json.dumps(surrogated(rng, template))  # as \\uXXXX escapes: valid JSON text
    if kind == 4:
        return json.dumps(value(rng))
    if kind == 5:
        return nested(rng)
    if kind == 6:
        text = json.dumps(mutated(rng, template))
        cut = rng.randrange(len(text) + 1)
        return text[:cut] + rng.choice(["", "}", "]", ",", "\\", '"', "\\u12", "\\ud800"])
    if kind == 7:
        return rng.choice(STRINGS[:20]) + " " + "".join(rng.choice("abc @#{}[]\"\\\n") for _ in range(30))
    if kind == 8:
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        return raw.decode("utf-8", "replace")
    return json.dumps(rng.choice(STRINGS))


def main() -> None:
    """Run the bodies and print the report."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--wasm", type=Path, default=ROOT / "dist" / "rs_learn.wasm")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    quiet = logging.getLogger("rs_learn")  # the guest's and host's own warnings: counted below, not printed
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    verbs = [*VERBS, "nope", "", "Memorize", "recall "]
    outcomes: collections.Counter[str] = collections.Counter()
    internal: list[tuple[str, str, str]] = []
    traps: list[tuple[str, str, str]] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        services = HostServices(Path(tmp))
        guest = WasmGuest(Runtime.load(args.wasm), services, timeout_s=60.0)
        for verb in list(VERBS):  # a few records to update, recall and delete
            guest.dispatch(verb, json.dumps(VERBS[verb]))
        for _ in range(args.count):
            verb = rng.choice(verbs)
            body = body_for(rng, verb)
            try:
                envelope = json.loads(guest.dispatch(verb, body))
            except GuestError as error:
                traps.append((verb, body[:200], error.message))
                outcomes["trap"] += 1
                continue
            if envelope.get("ok"):
                outcomes["ok"] += 1
                continue
            kind = str(envelope.get("error", "")).split(":", 1)[0]
            outcomes[kind] += 1
            if kind == "internal":
                internal.append((verb, body[:200], str(envelope["error"])[:300]))
        guest.close()
        services.close()
    elapsed = time.monotonic() - started
    print(f"rs-learn fuzz: {args.count} bodies through the component (seed {args.seed}) in {elapsed:.0f} s")
    for kind, number in sorted(outcomes.items()):
        print(f"  {kind:<12} {number:>6}")
    print(f"traps: {len(traps)}, internal answers: {len(internal)} (target: 0 and 0)")
    for verb, body, message in (traps + internal)[:20]:
        print(f"  {verb!r} {body!r}\n    -> {message}")
    sys.exit(1 if traps or internal else 0)


if __name__ == "__main__":
    main()
