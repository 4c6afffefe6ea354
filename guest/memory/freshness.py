"""Freshness: the project files a memory names, and whether they changed since it was stored.

At memorize the guest picks candidate paths out of the text (:func:`paths`), asks the host for
each one's digest and records those that exist as ``files: {path: sha256}`` in the record. At recall
(and in the hook) a hit whose recorded file changed or vanished is *stale*: it carries the paths, and
its score is multiplied by :data:`STALE_FACTOR` before the final order, so it ranks below an equally
relevant fresh hit -- never dropped. A memory that names no file costs nothing: its record (read
anyway) has no ``files``.

The host serves digests read-only under the reserved namespace: key ``file/<relative path>`` of
``host`` answers ``{"sha256": "<hex>"}`` for a regular file of the project, ``{"exists": false}``
when there is none at that path, and nothing (``none``) when it cannot say: no file access, a path
outside the project or through a link, a file too large to hash. Nothing is *unknown*, never stale.

The candidates are those of the one path extractor (:func:`guest.strings.paths.paths`: conservative,
ASCII only, at most :data:`MAX_FILES` per text, so a memorize asks the host at most that many
times); facets read the same (:mod:`guest.memory.facets`).
"""

from __future__ import annotations

import json

from guest.host import HOST_NS, Host
from guest.strings.paths import MAX_PATHS, paths

MAX_FILES = MAX_PATHS
STALE_FACTOR = 0.9  # a stale hit's score factor: below an equally relevant fresh hit


def digest(host: Host, path: str) -> str | None:
    """The host's answer for ``path``: its sha256, ``""`` when it does not exist, ``None`` when unknown."""
    raw = host.kv_get(HOST_NS, f"file/{path}")
    if raw is None:
        return None
    try:
        answer = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(answer, dict):
        return None
    if answer.get("exists") is False:
        return ""
    value = answer.get("sha256")
    return value if isinstance(value, str) and value else None


def digests(host: Host, text: str) -> dict[str, str]:
    """``{path: sha256}`` of the files ``text`` names that exist in the project (the host's answer)."""
    found = {}
    for path in paths(text):
        value = digest(host, path)
        if value:
            found[path] = value
    return found


def changed(
    host: Host, files: dict[str, str] | None, known: dict[str, str | None] | None = None
) -> list[str]:
    """The recorded files whose digest differs now, or that vanished (unknown answers are not changes).

    ``known`` keeps the host's answers across calls (a listing asks each file once).
    """
    out = []
    for path, recorded in sorted((files or {}).items()):
        if known is None:
            now = digest(host, path)
        elif path in known:
            now = known[path]
        else:
            now = known[path] = digest(host, path)
        if now is not None and now != recorded:
            out.append(path)
    return out
