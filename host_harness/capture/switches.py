"""Capture's switches: ``"capture"`` in ``.gm/config.json`` and ``$RS_LEARN_CAPTURE``.

* ``{"capture": false}``: nothing is captured in this project;
* ``{"capture": {"directives": false, "lessons": false, "notes": false, "archive": false}}``: one
  kind off (each defaults to ``true``); ``"block_bytes": N`` is the smallest block archived before a
  compaction (default :data:`DEFAULT_BLOCK_BYTES`);
* ``RS_LEARN_CAPTURE=0`` (``false``, ``no``, ``off``): nothing is captured, whatever the file says.

Anything else in the block -- an unknown key, a value of the wrong type -- is a
:class:`~host_harness.config.config.ConfigError` naming it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from host_harness.config import CONFIG_FILE, FALSE, ConfigError, read_config

ENV = "RS_LEARN_CAPTURE"
KEY = "capture"
KINDS = ("directives", "lessons", "notes", "archive")
DEFAULT_BLOCK_BYTES = 2048
BLOCK_BYTES_RANGE = (256, 2_000_000)


@dataclass(frozen=True)
class Switches:
    """Which kinds are captured, and the smallest block archived."""

    directives: bool = True
    lessons: bool = True
    notes: bool = True
    archive: bool = True
    block_bytes: int = DEFAULT_BLOCK_BYTES

    def off(self) -> list[str]:
        """The kinds switched off."""
        return [kind for kind in KINDS if not getattr(self, kind)]

    def all_off(self) -> bool:
        """Whether nothing at all is captured."""
        return len(self.off()) == len(KINDS)


def switches(project: Path, environ: Mapping[str, str] | None = None) -> Switches:
    """The project's capture switches (:class:`ConfigError` on a malformed ``capture`` block)."""
    environ = os.environ if environ is None else environ
    if environ.get(ENV, "").strip().lower() in FALSE:
        return Switches(False, False, False, False)
    block = read_config(project).get(KEY, True)
    where = project / CONFIG_FILE
    if isinstance(block, bool):
        return Switches() if block else Switches(False, False, False, False)
    if not isinstance(block, dict):
        raise ConfigError(f"{where}: {KEY} must be true, false or an object, got {json.dumps(block)}")
    known = {f.name for f in fields(Switches)}
    unknown = sorted(set(block) - known)
    if unknown:
        raise ConfigError(
            f"{where}: unknown {KEY} setting {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    for kind in KINDS:
        if not isinstance(block.get(kind, True), bool):
            raise ConfigError(f"{where}: {KEY}.{kind} must be true or false, got {json.dumps(block[kind])}")
    size = block.get("block_bytes", DEFAULT_BLOCK_BYTES)
    low, high = BLOCK_BYTES_RANGE
    if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high:
        raise ConfigError(
            f"{where}: {KEY}.block_bytes must be an integer from {low} to {high}, got {json.dumps(size)}"
        )
    return Switches(**{kind: block.get(kind, True) for kind in KINDS}, block_bytes=size)
