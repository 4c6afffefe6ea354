"""``approve`` and ``list_quarantined``: what the guest held back from the agent, and releasing it.

A memory or an archived block that reads as an instruction aimed at the agent is stored
quarantined (``guest/screening/screen.py``): ``recall`` still returns it, marked, but ``auto_recall``
never injects it and ``learn`` never writes it into a skill. ``approve {id, namespace?}`` releases
one -- a memory id (``mem-…``; without ``namespace`` the default store, then every known discipline)
or a block id (``r7``) -- by adding ``approved: {ts}`` beside its ``quarantined`` (kept as history).
Approving what is not quarantined marks it approved all the same (``learn`` then trusts a lesson
whose skill body looked suspect), and lets a memory of an untrusted origin be injected
(``guest/memory/origin.py``); a supersede that waited for the approval is made then
(``supersedes`` in the answer). ``list_quarantined {namespace?, limit?}`` lists what is held.
``redact {text}`` answers a text as it would be stored (for a host that splits a file first);
``redact {texts: [...]}`` answers many at once (capture's state file, ``host_harness/capture/run.py``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from guest import requests
from guest.archive.store import Archive, parse_id
from guest.errors import InvalidRequest, NotFound
from guest.host import Host, bucket
from guest.memory import correct, disciplines
from guest.memory.records import Memory
from guest.screening.screen import APPROVED, QUARANTINED, Screen, quarantine_of
from guest.verbs import Verb

MEMORY_ID = re.compile(r"mem-[0-9a-f]{16}-[0-9]{1,10}")
MAX_TEXTS = 5000
DEFAULT_LIST = 100
MAX_LIST = 1000
EXCERPT_CHARS = 160


class QuarantineVerbs:
    """Quarantine listing and approval over one host."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {
            "approve": Verb(self.approve, "id"),
            "list_quarantined": Verb(self.list_quarantined, "namespace"),
            "redact": Verb(self.redact, "text"),
        }

    def redact(self, body: dict[str, Any]) -> dict[str, Any]:
        """``redact {text}``: ``text`` as it would be stored, its secrets redacted, and ``redacted``.

        For a host that splits or joins a file before storing its parts (``import --from
        claude-md``): redacting the whole first keeps a key's body and its header together.
        ``redact {texts}`` answers ``{texts, redacted}``, each text so, in order: one call for all
        the texts a host keeps of its own (capture's state file).
        """
        screen = Screen(self.host)
        if "texts" in body:
            texts = body["texts"]
            if not isinstance(texts, list):
                raise InvalidRequest(f"field 'texts' must be an array, not {requests.kind_of(texts)}")
            if len(texts) > MAX_TEXTS:
                raise InvalidRequest(f"field 'texts' has {len(texts)} items; the limit is {MAX_TEXTS}")
            for i, item in enumerate(texts):
                if not isinstance(item, str):
                    raise InvalidRequest(f"texts[{i}] must be a string, not {requests.kind_of(item)}")
                requests.check_unicode(item, f"texts[{i}]")
            return screen.report({"texts": [screen.text(item) for item in texts]})
        value = body.get("text")
        if not isinstance(value, str):
            raise InvalidRequest("missing field 'text'" if value is None else
                                 f"field 'text' must be a string, not {requests.kind_of(value)}")
        requests.check_unicode(value, "text")
        return screen.report({"text": screen.text(value)})

    def approve(self, body: dict[str, Any]) -> dict[str, Any]:
        """``approve {id, namespace?}``: release a quarantined memory or archived block."""
        raw = body.get("id")
        if not isinstance(raw, str):
            raise InvalidRequest("missing field 'id'" if raw is None else
                                 f"field 'id' must be a string, not {requests.kind_of(raw)}")
        ident = raw.strip()
        if MEMORY_ID.fullmatch(ident):
            return self._approve_memory(ident, disciplines.requested(body))
        seq = parse_id(ident)
        if seq is None:
            raise InvalidRequest("field 'id' must be a memory id (mem-…) or an archived block id (r7)")
        return self._approve_block(seq, requests.namespace(body) or disciplines.DEFAULT)

    def list_quarantined(self, body: dict[str, Any]) -> dict[str, Any]:
        """``list_quarantined {namespace?, limit?}``: held memories (every known store) and blocks."""
        limit = requests.integer(body, "limit", DEFAULT_LIST, 1, MAX_LIST)
        chosen = disciplines.requested(body)
        memories: list[dict[str, Any]] = []
        for namespace in self._stores(chosen):
            for _, raw in self.host.kv_query(bucket(namespace, "memories"), f'"{QUARANTINED}"', 0):
                memory = Memory.decode(raw)
                reason = quarantine_of(memory.extra)
                if reason:
                    memories.append({"id": memory.id, "namespace": namespace, "reason": reason,
                                     "ts": memory.ts, "text": _excerpt(memory.text)})
        blocks: list[dict[str, Any]] = []
        namespace = chosen or disciplines.DEFAULT
        for key, raw in self.host.kv_query(bucket(namespace, "archive"), f'"{QUARANTINED}"', 0):
            data = _json(raw)
            reason = quarantine_of(data)
            if reason and isinstance(data.get("label"), str):
                blocks.append({"id": f"r{int(key)}", "namespace": namespace, "reason": reason,
                               "label": data["label"], "ts": data.get("ts")})
        memories.sort(key=lambda m: (-m["ts"], m["id"]))
        blocks.sort(key=lambda b: -int(b["id"][1:]))
        return {"memories": memories[:limit], "blocks": blocks[:limit], "total": len(memories) + len(blocks)}

    def _stores(self, chosen: str | None) -> list[str]:
        if chosen is not None:
            return [chosen]
        return [disciplines.DEFAULT, *sorted(disciplines.known(self.host))]

    def _approve_memory(self, ident: str, chosen: str | None) -> dict[str, Any]:
        for namespace in self._stores(chosen):
            ns = bucket(namespace, "memories")
            raw = self.host.kv_get(ns, ident)
            if raw is None:
                continue
            memory = Memory.decode(raw)
            was = quarantine_of(memory.extra)
            changed = not memory.extra.get(APPROVED)
            if changed:
                memory.extra = {**memory.extra, APPROVED: {"ts": self.host.now_ms()}}
                self.host.kv_put(ns, ident, memory.encode())
            linked = correct.link_pending(self.host, namespace, memory)
            out = {"id": ident, "kind": "memory", "namespace": namespace, "approved": True, "was": was,
                   "changed": changed or bool(linked)}
            return {**out, "supersedes": linked} if linked else out
        raise NotFound(f"memory {ident!r} not found")

    def _approve_block(self, seq: int, namespace: str) -> dict[str, Any]:
        archive = Archive(self.host, namespace)
        raw = archive.raw(seq)
        data = _json(raw) if raw else {}
        if not isinstance(data.get("content"), str) or data.get("locked") is True:
            raise NotFound(f"archived block r{seq} not found")
        was = quarantine_of(data)
        changed = not data.get(APPROVED)
        if changed:
            data[APPROVED] = {"ts": self.host.now_ms()}
            archive.put_raw(seq, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        return {"id": f"r{seq}", "kind": "block", "namespace": namespace, "approved": True, "was": was,
                "changed": changed}


def _json(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _excerpt(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= EXCERPT_CHARS else line[: EXCERPT_CHARS - 1] + "…"
