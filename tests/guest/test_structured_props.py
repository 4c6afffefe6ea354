"""Random operation sequences keep checklist trees valid and queries equal to a reference model.

Native target only (speed). Hypothesis prints the failing operation list (``note``) and a
reproduction blob (``print_blob``); the database of found examples replays it first next time.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from envelopes import call, ok
from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st
from structured_helpers import ids, write_config

from host_harness.services import HostServices, ManualClock
from host_harness.targets.native import NativeGuest

MAX_DEPTH = 3
TAGS = ("red", "green", "blue")
CHECKLISTS = ("cl-1", "cl-2")
pick = st.integers(0, 8)  # small: recent items are picked often, so trees grow deep
tagset = st.frozensets(st.sampled_from(TAGS))
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.sampled_from(("same", *CHECKLISTS)), pick),
        st.tuples(st.just("move"), st.sampled_from(CHECKLISTS), pick, pick),
        st.tuples(st.just("remove"), st.sampled_from(CHECKLISTS), pick),
        st.tuples(st.just("todo"), tagset),
        st.tuples(st.just("retag"), pick, tagset),
        st.tuples(st.just("drop"), pick),
    ),
    max_size=30,
)


class Model:
    """The reference: parent maps per checklist, live todos with their tags, the id sequences."""

    def __init__(self) -> None:
        self.parents: dict[str, dict[str, str | None]] = {cl: {} for cl in CHECKLISTS}
        self.todos: dict[str, frozenset[str]] = {}
        self.next_item = 1
        self.next_todo = 1

    def all_items(self) -> list[str]:
        return sorted((i for p in self.parents.values() for i in p), key=lambda i: int(i[3:]))

    def depth(self, cl: str, item: str | None) -> int:
        depth = 0
        while item is not None:
            depth, item = depth + 1, self.parents[cl][item]
        return depth

    def subtree(self, cl: str, item: str) -> set[str]:
        out = {item}
        changed = True
        while changed:
            grown = {i for i, p in self.parents[cl].items() if p in out}
            changed = not grown <= out
            out |= grown
        return out

    def height(self, cl: str, item: str) -> int:
        return max(self.depth(cl, i) for i in self.subtree(cl, item)) - self.depth(cl, item) + 1


def parent_of(model: Model, index: int) -> str | None:
    """The ``index``-th most recent item of either checklist, or ``None`` (a root) past the end."""
    items = model.all_items()
    return items[-1 - index] if index < len(items) else None


def refusal(model: Model, cl: str, parent: str | None, item: str | None = None) -> str | None:
    """Why the model refuses ``parent`` for a new item (``item`` None) or a moved ``item``; None: allowed."""
    if parent is None or (item is not None and parent == model.parents[cl][item]):
        return None
    if parent not in model.parents[cl]:
        return "is not an item of checklist"
    if item is not None and parent in model.subtree(cl, item):
        return "(a cycle)"
    height = model.height(cl, item) if item is not None else 1
    return f"maxChecklistDepth is {MAX_DEPTH}" if model.depth(cl, parent) + height > MAX_DEPTH else None


def apply(guest, model: Model, op: tuple) -> None:
    """Run ``op`` on the guest and the model: the guest accepts exactly what the model allows,
    and refuses the rest with ``validation:`` for the reason the model gives."""
    kind, reason = op[0], None
    if kind == "add":
        _, cl, index = op
        parent = parent_of(model, index)
        if cl == "same":  # the parent's own checklist: most adds are legal, so trees grow deep
            cl = next((c for c in CHECKLISTS if parent in model.parents[c]), CHECKLISTS[0])
        reason = refusal(model, cl, parent)
        envelope = call(
            guest,
            "add_checklist_item",
            {"checklistId": cl, "title": f"item {model.next_item}", "parentId": parent},
        )
        if reason is None:
            model.parents[cl][f"it-{model.next_item}"] = parent
            model.next_item += 1
    elif kind in ("move", "remove"):
        cl, mine = op[1], sorted(model.parents[op[1]], key=lambda i: int(i[3:]))
        if not mine:
            return
        item = mine[op[2] % len(mine)]
        if kind == "remove":
            envelope = call(guest, "delete_record", {"id": item, "checklistId": cl})
            for gone in model.subtree(cl, item):
                del model.parents[cl][gone]
        else:
            parent = parent_of(model, op[3])
            reason = refusal(model, cl, parent, item)
            envelope = call(
                guest, "update_checklist_item", {"checklistId": cl, "itemId": item, "parentId": parent}
            )
            if reason is None:
                model.parents[cl][item] = parent
    elif kind == "todo":
        envelope = call(guest, "create_todo", {"title": f"todo{model.next_todo}", "tags": sorted(op[1])})
        model.todos[f"td-{model.next_todo}"] = op[1]
        model.next_todo += 1
    else:
        live = sorted(model.todos, key=lambda t: int(t[3:]))
        if not live:
            return
        todo = live[op[1] % len(live)]
        if kind == "retag":
            envelope = call(guest, "update_todo", {"id": todo, "tags": sorted(op[2])})
            model.todos[todo] = op[2]
        else:
            envelope = call(guest, "delete_record", {"id": todo})
            del model.todos[todo]
    assert envelope["ok"] is (reason is None), (op, reason, envelope)
    if reason is not None:
        assert envelope["error"].startswith("validation: ") and reason in envelope["error"], (op, envelope)


def check(guest, services: HostServices, model: Model) -> None:
    """The stored trees are valid and equal the model; tag queries equal the model's."""
    for cl in CHECKLISTS:
        record = json.loads(services.kv_get("records", cl))
        stored = {item["id"]: item["parentId"] for item in record["items"]}
        assert stored == model.parents[cl]
        for item in stored:  # parents exist, no cycle, depth bound
            seen, node, depth = set(), item, 0
            while node is not None:
                assert node in stored and node not in seen
                seen.add(node)
                node, depth = stored[node], depth + 1
            assert depth <= MAX_DEPTH
    for tag in TAGS:
        got = set(ids(ok(guest, "query_records", {"kinds": ["todo"], "tags": [tag], "limit": 100})))
        assert got == {t for t, tags in model.todos.items() if tag in tags}, tag
    assert set(ids(ok(guest, "query_records", {"kinds": ["todo"], "limit": 100}))) == set(model.todos)


@settings(max_examples=40, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
@example(ops=[("add", "same", 0)] * 4 + [("move", "cl-1", 0, 9), ("add", "cl-1", 9), ("move", "cl-1", 4, 0)])
@example(ops=[("add", "cl-1", 0), ("move", "cl-1", 0, 0), ("add", "cl-2", 0), ("move", "cl-1", 0, 0)])
def test_random_operations_keep_trees_valid_and_queries_consistent(ops):
    note(f"operations: {ops!r}")
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_config(project, maxChecklistDepth=MAX_DEPTH)
        services = HostServices(project, clock=ManualClock(1_700_000_000_000))
        guest = NativeGuest(services)
        try:
            model = Model()
            for cl in CHECKLISTS:
                ok(guest, "create_checklist", {"title": f"list {cl}"})
            for op in ops:
                apply(guest, model, op)
                check(guest, services, model)
            for todo in model.todos:  # the keyword index agrees too: each title word finds its todo
                assert ids(
                    ok(guest, "query_records", {"query": todo.replace("td-", "todo"), "kinds": ["todo"]})
                ) == [todo]
        finally:
            guest.close()
            services.close()
