"""Structured memory's trusted facts: the caller's scope and the memory configuration.

Both come from the host, never from a request body: ``host-kv-get("host", "scope")`` and
``host-kv-get("host", "memory-config")`` (UTF-8 JSON, see ``wit/rs-learn.wit``). A missing key
means "nothing configured": the empty scope and the default configuration.

Visibility (``Scope.sees``) -- a record stores the scope it was created under; a caller sees it when

* the record is ``global``: every caller sees it; otherwise
* the record is *unscoped* (no id field set): only an unscoped caller sees it; otherwise
* every id field the record sets (``actorId``, ``conversationId``, ``projectId``, ``threadId``)
  equals the caller's. A field the record leaves null does not restrict.

So a record created under ``{projectId: p}`` is seen by every caller of project ``p`` whatever its
thread, one created under ``{projectId: p, threadId: t}`` only inside thread ``t``, and records of
another project or actor never. Queries, updates and deletes all go through this rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from guest.errors import Internal
from guest.host import HOST_NS, Host

ID_FIELDS = ("actorId", "conversationId", "projectId", "threadId")
SCOPE_FIELDS = (*ID_FIELDS, "global")


@dataclass(frozen=True)
class Scope:
    """A trusted scope: four optional ids and the ``global`` flag."""

    actorId: str | None = None  # the seed's JSON names
    conversationId: str | None = None
    projectId: str | None = None
    threadId: str | None = None
    global_: bool = False

    @classmethod
    def from_json(cls, value: Any, where: str) -> Scope:
        """Decode a scope object (empty strings count as unset); malformed is :class:`Internal`."""
        if value is None:
            return cls()
        if not isinstance(value, dict):
            raise Internal(f"{where} must be a JSON object, got {json.dumps(value)}")
        ids: dict[str, str | None] = {}
        for name in ID_FIELDS:
            item = value.get(name)
            if item is not None and not isinstance(item, str):
                raise Internal(f"{where}.{name} must be a string or null, got {json.dumps(item)}")
            ids[name] = item or None
        flag = value.get("global", False)
        if not isinstance(flag, bool):
            raise Internal(f"{where}.global must be true or false, got {json.dumps(flag)}")
        return cls(global_=flag, **ids)

    def as_json(self) -> dict[str, Any]:
        """The stored form: every field present, ``null`` when unset."""
        out: dict[str, Any] = {name: getattr(self, name) for name in ID_FIELDS}
        out["global"] = self.global_
        return out

    @property
    def unscoped(self) -> bool:
        """Whether no id field is set."""
        return all(getattr(self, name) is None for name in ID_FIELDS)

    def sees(self, record: Scope) -> bool:
        """Whether a caller with this scope may see a record created under ``record``."""
        if record.global_:
            return True
        if record.unscoped:
            return self.unscoped
        return all(
            getattr(record, name) is None or getattr(record, name) == getattr(self, name)
            for name in ID_FIELDS
        )


@dataclass(frozen=True)
class MemoryConfig:
    """The ``memory`` configuration served by the host (defaults: the seed's)."""

    enabled: bool = True
    backend: str = "sqlite"
    defaultLimit: int = 10
    maxContextTokens: int = 1500
    enableSemanticNotes: bool = True
    retentionDays: int = 30
    archiveDeleteDays: int = 365
    maxChecklistDepth: int = 5

    @classmethod
    def from_json(cls, value: Any) -> MemoryConfig:
        """Decode the host's object; unknown keys are ignored, a wrong type is :class:`Internal`."""
        if value is None:
            return cls()
        if not isinstance(value, dict):
            raise Internal(f"host memory-config must be a JSON object, got {json.dumps(value)}")
        defaults = cls()
        values: dict[str, Any] = {}
        for f in fields(cls):
            item = value.get(f.name, getattr(defaults, f.name))
            expected = type(getattr(defaults, f.name))
            if type(item) is not expected or (expected is int and item < 0):
                raise Internal(f"host memory-config.{f.name} is invalid: {json.dumps(item)}")
            values[f.name] = item
        return cls(**values)


@dataclass(frozen=True)
class Context:
    """What one structured-memory call knows about its caller: scope, configuration, time."""

    scope: Scope
    config: MemoryConfig
    now: int


def load_context(host: Host) -> Context:
    """Read the trusted scope, the configuration and the clock from the host."""
    return Context(
        scope=Scope.from_json(_host_json(host, "scope"), "host scope"),
        config=MemoryConfig.from_json(_host_json(host, "memory-config")),
        now=host.now_ms(),
    )


def _host_json(host: Host, key: str) -> Any:
    raw = host.kv_get(HOST_NS, key)
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError as error:
        raise Internal(f"host {key} is not valid JSON: {error}") from None


def record_scope(record: dict[str, Any]) -> Scope:
    """The scope a stored record was created under."""
    return Scope.from_json(record.get("scope"), f"record {record.get('id')!r} scope")
