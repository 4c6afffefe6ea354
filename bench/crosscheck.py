"""Both targets on one project: identical answers, and the cost of a recall on each.

The project (a subset of a set: :func:`subset`) is memorized once natively and once by the built
component, and every prompt is asked of both: the ``recall`` and ``auto_recall`` envelopes must be
equal byte for byte, and so must the ids the memories were given. The medians of the call times,
on the same store, are the cost per recall of each target: CPU time of the calling thread, and
wall-clock time (the two targets take turns, call by call, so that a busy machine slows both
alike).
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from bench.project import Project
from bench.runner import Cost, Targets, hook_body, opened, p50, recall_body
from bench.variants import DEFAULT, Variant, applied

VERBS = ("recall", "auto_recall")


def subset(project: Project, memories: int, own: int, foreign: int) -> Project:
    """Evenly spaced memories and prompts of ``project`` (all of them where it has fewer)."""
    return Project(f"{project.name}-subset", _spread(project.memories, memories), _spread(project.own, own),
                   _spread(project.foreign, foreign), project.asked_ms)


def _spread(items: list[Any], count: int) -> list[Any]:
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def crosscheck(project: Project, targets: Targets, variant: Variant = DEFAULT) -> dict[str, Any]:
    """Ask ``project`` of both targets: how many answers are identical, and each target's medians."""
    if variant.native_only:
        raise ValueError(f"variant {variant.name!r} patches the native guest: the component cannot run it")
    calls = [("recall", recall_body(p, variant)) for p in project.own]
    calls += [("auto_recall", hook_body(p, variant)) for p in project.own + project.foreign]
    answers: dict[str, list[str]] = {"native": [], "wasm": []}
    times: dict[tuple[str, str], list[Cost]] = {(t, v): [] for t in answers for v in VERBS}
    with ExitStack() as stack:
        stores = {target: stack.enter_context(opened(project, targets, target)) for target in answers}
        stack.enter_context(applied(variant))
        for verb, body in calls:  # the targets take turns, so that both see the machine's load alike
            for target, store in stores.items():
                envelope, cost = store.raw(verb, body)
                answers[target].append(envelope)
                times[target, verb].append(cost)
        ids = {target: store.ids for target, store in stores.items()}
    same = [a == b for a, b in zip(answers["native"], answers["wasm"], strict=True)]
    first = next((i for i, ok in enumerate(same) if not ok), None)
    return {
        "project": project.name, "memories": len(project.memories), "calls": len(calls),
        "identical": sum(same), "same_ids": ids["native"] == ids["wasm"],
        "first_difference": None if first is None else {
            "verb": calls[first][0], "native": answers["native"][first][:300],
            "wasm": answers["wasm"][first][:300]},
        **{f"{target}_{'recall' if verb == 'recall' else 'hook'}_{kind}_p50": p50([getattr(c, f"{kind}_ms")
                                                                                  for c in samples])
           for (target, verb), samples in times.items() for kind in ("cpu", "wall")},
    }
