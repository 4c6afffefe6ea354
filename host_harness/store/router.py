"""Namespace routing and the reserved ``host`` namespace (SPEC section 3).

* ``disciplines/<name>/<bucket>`` lives in ``<project>/.gm/disciplines/<name>/rs-learn.db``,
  where it is namespace ``<bucket>``;
* ``host`` and ``host/...`` are reserved and read-only: the host serves facts from
  its own world there (see :meth:`StoreRouter.host_value`);
* every other namespace lives in ``<project>/.gm/rs-learn.db`` under its own name.

A discipline ``<name>`` becomes a directory name (``host_harness/fs/names.py``). Nothing here
creates ``.gm/``: the store creates its directory on the first write. Nothing here follows a link below
the project either (``host_harness/fs/confine.py``): a linked ``enabled.txt`` or
skills folder reads as absent, with a warning.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_harness.config import MemoryConfig, Settings, load_memory_config, load_redact
from host_harness.errors import StoreError
from host_harness.fs import (
    DEVICE_RULE,
    FILE_PREFIX,
    FileDigests,
    case_twin,
    case_twin_error,
    confine,
    skills,
    valid_name,
)
from host_harness.store.kv import check_name

HOST_NS = "host"
RESERVED_DISCIPLINES = frozenset({HOST_NS})  # a discipline folder named like the host namespace
DISCIPLINES = "disciplines"
DB_NAME = "rs-learn.db"
HOST_KEYS = (
    "authored-skills", "disciplines", "enabled-disciplines", "managed-skills", "memory-config", "redact",
    "scope", "skills",
)
MAX_ENABLED_BYTES = 1024 * 1024

log = logging.getLogger("rs_learn.host")
_warned: set[str] = set()  # what this process has warned of already (a command reads enabled.txt often)


def warn_once(message: str, *args: object) -> None:
    """Log a warning about the project's files once per process, however often they are read."""
    text = message % args
    if text not in _warned:
        _warned.add(text)
        log.warning("%s", text)


def valid_discipline(name: str) -> bool:
    """Return whether ``name`` may name a discipline: a safe name that is not reserved (``host``)."""
    return valid_name(name) and name not in RESERVED_DISCIPLINES


@dataclass(frozen=True)
class Project:
    """A project directory and the paths rs-learn uses inside it."""

    root: Path

    @property
    def gm(self) -> Path:
        """``<project>/.gm``."""
        return self.root / ".gm"

    @property
    def db_path(self) -> Path:
        """The project store."""
        return self.gm / DB_NAME

    def store_name(self, db: Path) -> str:
        """``''`` for the project store, else the name of the discipline whose store ``db`` is."""
        return "" if db == self.db_path else db.parent.name

    def discipline_db(self, name: str) -> Path:
        """Return the store of discipline ``name`` (validated)."""
        if not valid_discipline(name):
            raise StoreError(
                f"discipline name {name!r} is not valid: use letters, digits, '_' and '-', "
                f"starting with a letter or digit, at most 64 characters (no '/', '..', NUL), not 'host', "
                f"{DEVICE_RULE}"
            )
        return self.gm / DISCIPLINES / name / DB_NAME

    @property
    def enabled_file(self) -> Path:
        """``.gm/disciplines/enabled.txt``: one discipline name per line."""
        return self.gm / DISCIPLINES / "enabled.txt"

    def enabled_disciplines(self) -> list[str]:
        """Read ``enabled.txt``: trimmed names, blank and ``#`` lines skipped, de-duplicated, valid only."""
        try:
            raw = confine.read_file(self.root, (".gm", DISCIPLINES, "enabled.txt"), MAX_ENABLED_BYTES)
        except FileNotFoundError:  # no .gm/disciplines
            return []
        except OSError as error:
            warn_once("ignoring %s: %s", self.enabled_file, error)
            return []
        if raw is None:
            return []
        text = raw.decode("utf-8-sig", errors="replace")
        names: list[str] = []
        for number, line in enumerate(text.splitlines(), start=1):
            name = line.strip()
            if not name or name.startswith("#") or name in names:
                continue
            if not valid_discipline(name):
                warn_once("%s:%d: skipping invalid discipline name %r", self.enabled_file, number, name)
                continue
            names.append(name)
        return names

    def discipline_dirs(self) -> list[str]:
        """The discipline folders under ``.gm/disciplines/`` (valid, not reserved, never ``default``), sorted.

        Read without following links: a linked ``.gm/disciplines`` lists nothing, a linked folder in
        it is not a discipline.
        """
        try:
            with confine.directory(self.root, (".gm", DISCIPLINES)) as fd:
                names = [d.name for d in os.scandir(fd) if d.is_dir(follow_symlinks=False)]
        except FileNotFoundError:
            return []
        except OSError as error:
            warn_once("ignoring %s: %s", self.gm / DISCIPLINES, error)
            return []
        return sorted(name for name in names if valid_discipline(name) and name != "default")

    def known_disciplines(self) -> list[str]:
        """The disciplines a leading ``@name`` selects: every folder and every enabled name, sorted."""
        return sorted(set(self.discipline_dirs()) | set(self.enabled_disciplines()))

    def check_case(self, name: str) -> None:
        """Refuse a discipline ``name`` that differs only in case from a known one (one folder on macOS)."""
        twin = case_twin(name, self.known_disciplines())
        if twin is not None:
            raise StoreError(case_twin_error(name, twin, "discipline"))


@dataclass(frozen=True)
class Route:
    """Where a namespace lives: a database file and the namespace inside it."""

    db: Path
    ns: str


class StoreRouter:
    """Maps namespaces to stores and serves the reserved ``host`` namespace."""

    def __init__(self, project: Project, scope: Mapping[str, Any] | None = None,
                 settings: Settings | None = None) -> None:
        """``settings``: the project's ``.gm/config.json`` read already (else read now)."""
        self.project = project
        self.scope = dict(scope) if scope is not None else None
        settings = settings if settings is not None else Settings.read(project.root)
        self.memory_config: MemoryConfig = load_memory_config(settings)  # ConfigError at start
        self.redact = load_redact(settings)
        # disciplines with a store that no folder shows (a PostgreSQL store's); set by the host
        self.stored_disciplines: Callable[[], list[str]] = list
        self._routes: dict[str, Route] = {}  # every import call routes: keep pathlib off the hot path
        # one Path object per store file, so the host's per-store dicts match by identity (no Path.__eq__)
        self._dbs: dict[Path, Path] = {}
        self.files = FileDigests(project.root)  # ``file/<path>`` digests (not listed by host_entries)

    @staticmethod
    def is_reserved(ns: str) -> bool:
        """Return whether ``ns`` is the read-only ``host`` namespace (or below it)."""
        return ns == HOST_NS or ns.startswith(HOST_NS + "/")

    def route(self, ns: str) -> Route:
        """Return the store of ``ns``; reserved namespaces have none (see :meth:`host_value`)."""
        route = self._routes.get(ns)
        if route is None:
            found = self._route(ns)
            route = self._routes[ns] = Route(self._dbs.setdefault(found.db, found.db), found.ns)
        return route

    def _route(self, ns: str) -> Route:
        check_name(ns, "namespace")
        if self.is_reserved(ns):
            raise StoreError(f"namespace {ns!r} is read-only (served by the host)")
        if ns == DISCIPLINES or ns.startswith(DISCIPLINES + "/"):
            parts = ns.split("/", 2)
            if len(parts) < 3 or not parts[2]:
                raise StoreError(f"namespace {ns!r} must have the form disciplines/<name>/<bucket>")
            db = self.project.discipline_db(parts[1])
            self.project.check_case(parts[1])
            return Route(db, parts[2])
        return Route(self.project.db_path, ns)

    def host_value(self, ns: str, key: str) -> bytes | None:
        """Return a fact of the reserved namespace as UTF-8 JSON, or ``None`` when there is none."""
        if ns != HOST_NS:
            return None
        value: Any
        if key == "enabled-disciplines":
            value = self.project.enabled_disciplines()
        elif key == "disciplines":
            value = sorted(set(self.project.known_disciplines()) | set(self.stored_disciplines()))
        elif key == "authored-skills":
            value = skills.authored_skills(self.project.root)
        elif key == "managed-skills":
            value = skills.managed_skills(self.project.root)
        elif key == "scope" and self.scope is not None:
            value = self.scope
        elif key == "memory-config":
            value = self.memory_config.as_json()
        elif key == "redact":
            value = self.redact
        elif key == "skills":
            value = skills.discover(self.project.root)
        elif key.startswith(FILE_PREFIX):
            value = self.files.answer(key[len(FILE_PREFIX) :])
            if value is None:
                return None
        else:
            return None
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")

    def host_entries(self, ns: str) -> list[tuple[str, bytes]]:
        """Return every fact of the reserved namespace ``ns``, by key (file digests are asked one by one)."""
        entries = [(key, self.host_value(ns, key)) for key in HOST_KEYS]
        return [(key, value) for key, value in entries if value is not None]
