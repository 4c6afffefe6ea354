"""Capture's rule classifier on typed prompts (issue 44 item 4): is each prompt a rule, as expected?

``make eval`` (set ``rules``) and ``python -m bench.capture_rules`` score
:func:`host_harness.capture.rules.directives` on two sets of typed prompts, written for this purpose
and kept as data (``bench/data/``):

* **dev** (``rules_devset.jsonl``, 360 prompts, 145 of them rules): imperatives, conventions, "don't
  ever", "whenever you …", lead-ins, rules among other sentences, and chat that looks like them --
  "never mind", temporary scopes ("for now", "for this one test"), questions, descriptions, one-off
  choices, quoted text, tasks, memory references, idioms, code -- in English and 13 other languages;
* **held-out** (``rules_heldout.jsonl``, 121 prompts, 54 rules): written after the classifier, to see
  how it does on wordings it was not written against (its first score, before any change it prompted,
  is in docs/capture.md).

A prompt counts as classified a rule when capture keeps at least one sentence of it. Precision is the
share of prompts kept that are rules, recall the share of rules kept; each miss is listed. No model,
no guest: the decision is the host's (``host_harness/capture/rules.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from host_harness.capture import rules

DATA = Path(__file__).resolve().parent / "data"
SETS = {"dev": "rules_devset.jsonl", "held-out": "rules_heldout.jsonl"}


def load(name: str) -> list[dict[str, Any]]:
    """The cases of one set: ``{text, rule, kind, lang}``."""
    lines = (DATA / SETS[name]).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def score(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision and recall over ``cases``, with the prompts wrongly kept and the rules missed."""
    kept = {case["text"]: bool(rules.directives(case["text"])) for case in cases}
    right = [c for c in cases if c["rule"] and kept[c["text"]]]
    said = sum(kept.values())
    wanted = sum(1 for c in cases if c["rule"])
    return {
        "prompts": len(cases),
        "rules": wanted,
        "kept": said,
        "precision": len(right) / said if said else 1.0,
        "recall": len(right) / wanted if wanted else 1.0,
        "wrongly_kept": [c["text"] for c in cases if kept[c["text"]] and not c["rule"]],
        "missed": [c["text"] for c in cases if c["rule"] and not kept[c["text"]]],
        "languages": len({c["lang"] for c in cases}),
    }


def evaluate() -> dict[str, dict[str, Any]]:
    """Every set's score."""
    return {name: score(load(name)) for name in SETS}


def section(results: dict[str, dict[str, Any]]) -> str:
    """``make eval``'s table of the classifier (and what it got wrong)."""
    lines = ["Capture: rules among typed prompts (host_harness/capture/rules.py; target precision >= .95, "
             "recall >= .85)\n", "| set | prompts | rules | kept | precision | recall |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        lines.append(f"| {name} | {r['prompts']} | {r['rules']} | {r['kept']} | {r['precision']:.3f} | "
                     f"{r['recall']:.3f} |")
    for name, r in results.items():
        lines += [f"{name}: wrongly kept: {text!r}" for text in r["wrongly_kept"]]
        lines += [f"{name}: missed: {text!r}" for text in r["missed"]]
    return "\n".join(lines)


def main() -> None:
    print(section(evaluate()))


if __name__ == "__main__":
    main()
