"""``GitServices``: the host imports of a scratch project plus the read-only ``git/`` namespaces.

A git driver runs the component over a scratch project whose store (``.gm/rs-learn.db``) is a
copy of the file git handed over ("ours"). On top of the usual imports it serves, read-only:

* ``host`` key ``git`` -> ``{"mode": "textconv" | "merge", "path": <the path in the repository>}``;
  the git verbs refuse to run without it;
* ``git/buckets``: key = each bucket of any side -> ``{"base": n, "ours": n, "theirs": n, "changed": n}``
  (key counts; ``changed``: keys where ours and theirs differ);
* ``git/changed/<bucket>``: key = each key where ours and theirs differ -> ``{"base", "ours",
  "theirs": whether that side holds it, "same": "ours" | "theirs" | null}`` (the side that still
  equals the base; ``null`` when both changed it);
* ``git/base/<bucket>``, ``git/theirs/<bucket>``: the other two stores, bucket by bucket.

Values are UTF-8 JSON. A ``host-kv-put`` under ``git/`` is refused like one under ``host``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_harness.config import SQLITE
from host_harness.errors import StoreError
from host_harness.git.stores import KeyState
from host_harness.services import HostServices
from host_harness.store import HOST_NS, Project, Route, StoreRouter, check_name, contains

GIT = "git"


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


@dataclass
class GitView:
    """What a driver shows the component: the facts, the side stores and the comparison."""

    mode: str
    path: str
    sides: dict[str, Path] = field(default_factory=dict)  # "base" / "theirs" -> a scratch copy
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> bucket -> keys
    changed: dict[str, dict[str, KeyState]] = field(default_factory=dict)

    def entries(self, ns: str) -> list[tuple[str, bytes]] | None:
        """The entries of a virtual namespace, by key; ``None`` when ``ns`` is not one."""
        if ns == f"{GIT}/buckets":
            names = sorted({name for counts in self.counts.values() for name in counts} | set(self.changed))
            return [(name, _json(self.bucket(name))) for name in names]
        prefix = f"{GIT}/changed/"
        if ns.startswith(prefix):
            states = self.changed.get(ns[len(prefix):], {})
            return [(key, _json(state.as_json())) for key, state in sorted(states.items())]
        return None

    def bucket(self, name: str) -> dict[str, int]:
        """Key counts of bucket ``name`` on each side, and how many keys differ."""
        counts = {side: counts.get(name, 0) for side, counts in sorted(self.counts.items())}
        return {**counts, "changed": len(self.changed.get(name, {}))}


class GitRouter(StoreRouter):
    """The project's routing, plus ``git/<side>/<bucket>`` -> that side's copy and the ``git`` fact."""

    def __init__(self, project: Project, view: GitView) -> None:
        super().__init__(project)
        self.view = view

    def _route(self, ns: str) -> Route:
        for side, path in self.view.sides.items():
            prefix = f"{GIT}/{side}/"
            if ns.startswith(prefix) and len(ns) > len(prefix):
                return Route(path, ns[len(prefix):])
        return super()._route(ns)

    def host_value(self, ns: str, key: str) -> bytes | None:
        """The usual facts, and ``git``."""
        if ns == HOST_NS and key == GIT:
            return _json({"mode": self.view.mode, "path": self.view.path})
        return super().host_value(ns, key)

    def host_entries(self, ns: str) -> list[tuple[str, bytes]]:
        """Every fact, ``git`` included, by key."""
        fact = self.host_value(ns, GIT)
        entries = super().host_entries(ns) + ([(GIT, fact)] if fact is not None else [])
        return sorted(entries)


class GitServices(HostServices):
    """:class:`HostServices` over a scratch project, serving a :class:`GitView` under ``git/``."""

    def __init__(self, project: Path, view: GitView, **options: Any) -> None:
        options.setdefault("store", SQLITE)  # git hands over files: never the configured server
        super().__init__(project, **options)
        self.view = view
        self.router = GitRouter(self.project, view)

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``, virtual namespaces included."""
        entries = self.view.entries(ns)
        if entries is None:
            return super().kv_get(ns, key)
        check_name(key, "key")
        return dict(entries).get(key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``; everything under ``git/`` is read-only."""
        if ns == GIT or ns.startswith(GIT + "/"):
            with self._op("kv_put"):
                raise StoreError(f"namespace {ns!r} is read-only (a git driver's view of the other sides)")
        super().kv_put(ns, key, value)

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``, virtual namespaces included."""
        entries = self.view.entries(ns)
        if entries is None:
            return super().kv_query(ns, q, limit)
        folded = q.casefold()
        found = [(k, v) for k, v in entries if contains(k, v, folded)]
        return found[:limit] if limit else found

