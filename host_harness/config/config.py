"""The ``memory`` block of ``<project>/.gm/config.json``, overridden by ``RS_LEARN_MEMORY_*``.

The effective configuration of structured memory (SPEC section 7, seed 001)::

    {"memory": {"enabled": true, "backend": "sqlite", "defaultLimit": 10, "maxContextTokens": 1500,
                "enableSemanticNotes": true, "retentionDays": 30, "archiveDeleteDays": 365,
                "maxChecklistDepth": 5}}

Every field is optional. An environment variable ``RS_LEARN_MEMORY_<FIELD>`` (the field in upper
snake case, e.g. ``RS_LEARN_MEMORY_RETENTION_DAYS``) overrides the file: the environment wins.
Anything invalid in the file -- not JSON, a ``memory`` that is not an object, an unknown field, a
wrong type, a value out of range -- raises :class:`ConfigError` naming the setting and the value: a
host checks it at start instead of running on a silent default. An unknown or invalid
``RS_LEARN_MEMORY_*`` variable does not stop anything (one stray variable in a shell had turned off
every command and both hooks): it is ignored with a warning, logged once per process, and the
setting keeps the file's value or the default -- except ``retentionDays`` and ``archiveDeleteDays``,
whose cleanup is then off (``0``), so that a typo never deletes records sooner than meant
(``docs/decisions.md`` D80).

``retentionDays`` and ``archiveDeleteDays`` of ``0`` turn the corresponding cleanup off. The only
``backend`` is ``sqlite`` (the field is accepted so that the seed's block loads unchanged).
The host serves :meth:`MemoryConfig.as_json` to the guest under the reserved ``host`` namespace,
key ``memory-config``.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from host_harness.fs import confine

CONFIG_FILE = Path(".gm") / "config.json"
MAX_CONFIG_BYTES = 1024 * 1024
ENV_PREFIX = "RS_LEARN_MEMORY_"
TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})
BACKENDS = ("sqlite",)
CLEANUPS = ("retentionDays", "archiveDeleteDays")  # an invalid variable turns these off, never on sooner
# Inclusive integer ranges of the numeric fields.
RANGES: dict[str, tuple[int, int]] = {
    "defaultLimit": (1, 100),
    "maxContextTokens": (1, 1_000_000),
    "retentionDays": (0, 36_500),
    "archiveDeleteDays": (0, 36_500),
    "maxChecklistDepth": (1, 64),
}


log = logging.getLogger("rs_learn.config")
_warned: set[str] = set()


class ConfigError(Exception):
    """The memory configuration is invalid; the message names the setting and the value."""


def warn_once(message: str) -> None:
    """Log ``message`` as a warning (stderr in the CLI) unless this process already did."""
    if message not in _warned:
        _warned.add(message)
        log.warning("%s", message)


@dataclass(frozen=True)
class MemoryConfig:
    """The effective ``memory`` configuration (the seed's fields and defaults)."""

    enabled: bool = True
    backend: str = "sqlite"
    defaultLimit: int = 10  # the seed's JSON names
    maxContextTokens: int = 1500
    enableSemanticNotes: bool = True
    retentionDays: int = 30
    archiveDeleteDays: int = 365
    maxChecklistDepth: int = 5

    def as_json(self) -> dict[str, Any]:
        """The configuration as the JSON object served to the guest."""
        return asdict(self)


FIELDS: dict[str, type] = {f.name: type(getattr(MemoryConfig(), f.name)) for f in fields(MemoryConfig)}


def env_name(field: str) -> str:
    """``retentionDays`` -> ``RS_LEARN_MEMORY_RETENTION_DAYS``."""
    return ENV_PREFIX + re.sub(r"(?<!^)(?=[A-Z])", "_", field).upper()


ENV_FIELDS = {env_name(name): name for name in FIELDS}


def load_memory_config(project: Path | Settings, environ: Mapping[str, str] | None = None) -> MemoryConfig:
    """The effective configuration; :class:`ConfigError` for a bad file, a warning for a bad variable."""
    config, warnings = read_memory_config(project, environ)
    for warning in warnings:
        warn_once(warning)
    return config


def read_memory_config(
    project: Path | Settings, environ: Mapping[str, str] | None = None
) -> tuple[MemoryConfig, list[str]]:
    """``<project>/.gm/config.json`` (read now, or the :class:`Settings` read already) and the environment.

    The configuration and what was ignored. Raises :class:`ConfigError` when the file is invalid; an
    unknown or invalid ``RS_LEARN_MEMORY_*`` variable is left out and named in the warnings instead
    (see the module docstring).
    """
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    settings = settings_of(project)
    path = settings.path
    for name, value in _file_block(settings).items():
        if name not in FIELDS:
            raise ConfigError(f"{path}: unknown field memory.{name} (known: {', '.join(FIELDS)})")
        values[name] = _check(name, value, f"{path}: memory.{name}")
    warnings: list[str] = []
    for var in sorted(environ):
        if not var.startswith(ENV_PREFIX):
            continue
        field = ENV_FIELDS.get(var)
        if field is None:
            known = ", ".join(ENV_FIELDS)
            warnings.append(f"ignoring the unknown environment variable {var} (known: {known})")
            continue
        try:
            values[field] = _check(field, _parse_env(field, var, environ[var]), var)
        except ConfigError as error:
            if field in CLEANUPS:
                values[field] = 0
                warnings.append(f"{error}; ignoring it: {field} cleanup is off until it is fixed")
            else:
                kept = values.get(field, getattr(MemoryConfig(), field))
                where = f"{CONFIG_FILE}" if field in values else "the default"
                warnings.append(f"{error}; ignoring it: using {json.dumps(kept)} ({where})")
    return MemoryConfig(**values), warnings


def load_redact(project: Path | Settings) -> bool:
    """The top-level ``redact`` of ``<project>/.gm/config.json``: whether the guest redacts secrets.

    ``true`` when absent; anything but a boolean is a :class:`ConfigError`. Served to the guest as
    ``host/redact`` (``guest/screening/screen.py``).
    """
    settings = settings_of(project)
    value = settings.get().get("redact", True)
    if not isinstance(value, bool):
        raise ConfigError(f"{settings.path}: redact must be true or false, got {json.dumps(value)}")
    return value


def _file_block(settings: Settings) -> dict[str, Any]:
    block = settings.get().get("memory", {})
    if not isinstance(block, dict):
        raise ConfigError(f"{settings.path}: memory must be an object, got {json.dumps(block)}")
    return block


def read_config(project: Path) -> dict[str, Any]:
    """The JSON object of ``<project>/.gm/config.json`` (``{}`` when there is none); :class:`ConfigError`."""
    path = project / CONFIG_FILE
    try:
        raw = confine.read_file(project, CONFIG_FILE.parts, MAX_CONFIG_BYTES + 1)  # never through a link
        if raw is None:
            return {}
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES} bytes")
        text = raw.decode("utf-8-sig")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    try:
        document = json.loads(text)
    except ValueError as error:
        raise ConfigError(f"{path}: not valid JSON: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be read") from None
    if not isinstance(document, dict):
        raise ConfigError(f"{path}: must hold a JSON object, got {type(document).__name__}")
    return document


@dataclass(frozen=True)
class Settings:
    """``<root>/.gm/config.json`` read once: its JSON object, or the :class:`ConfigError` reading raised."""

    root: Path
    document: Mapping[str, Any] = field(default_factory=dict)
    error: ConfigError | None = None

    @classmethod
    def read(cls, root: Path) -> Settings:
        """Read the file now (``{}`` when there is none); a bad one is kept as its error."""
        try:
            return cls(root, read_config(root))
        except ConfigError as error:
            return cls(root, {}, error)

    @property
    def path(self) -> Path:
        """The file, for messages."""
        return self.root / CONFIG_FILE

    def get(self) -> Mapping[str, Any]:
        """The file's object; :class:`ConfigError` when it cannot be used."""
        if self.error is not None:
            raise self.error
        return self.document


def settings_of(where: Path | Settings) -> Settings:
    """``where`` when it is read already, else its project's file read now."""
    return where if isinstance(where, Settings) else Settings.read(where)


def _parse_env(name: str, var: str, raw: str) -> Any:
    text = raw.strip()
    kind = FIELDS[name]
    if kind is bool:
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise ConfigError(f"{var} must be a boolean (true/false, 1/0, yes/no, on/off), got {raw!r}")
    if kind is int:
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise ConfigError(f"{var} must be an integer, got {raw!r}")
        return int(text)
    return text


def _check(name: str, value: Any, where: str) -> Any:
    kind = FIELDS[name]
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, got {json.dumps(value)}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be an integer, got {json.dumps(value)}")
        low, high = RANGES[name]
        if not low <= value <= high:
            raise ConfigError(f"{where} must be between {low} and {high}, got {value}")
        return value
    if value not in BACKENDS:
        raise ConfigError(f"{where} must be one of {', '.join(BACKENDS)}, got {json.dumps(value)}")
    return value
