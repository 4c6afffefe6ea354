"""``capture`` and ``capture_context``: store what a host found in an agent's session; show it back.

The host reads the agent's transcript and decides *what* is worth keeping (``host_harness/capture/``);
the guest decides *how* it is stored, so that every host and both targets store it alike:

* a **directive** (a rule the user stated in a prompt) becomes a memory of source ``captured`` with
  ``captured: {kind, session, at}`` among its fields; its secrets are redacted, it is quarantined when
  it reads as an instruction aimed at the agent, stored once (content-addressed), never brought back
  once forgotten, and it supersedes the earlier *captured directives* that :mod:`guest.memory.similar`
  finds it may contradict ("use pnpm, not npm" after "use npm, not pnpm");
* a **lesson** (a command that failed, edits, the same command passing) is a memory of the same
  source, importance 0.8, citing the edited files (so the stale-by-code marks watch it);
* their origin (``guest/memory/origin.py``): a directive's ``prompt`` (trusted as the user's own
  words), a lesson's ``tool-output`` (not injected until approved);
* a **block** (a big tool result, file, diff or paste, before a compaction) is archived verbatim
  (redacted) once: the bucket ``capture-blocks`` maps the stored content's address to its ``r<n>``;
  the blocks of a session's latest compaction are listed under the session in ``capture-sessions``;
* the **note** is the session's one session note (structured memory), created at the first capture
  and updated by the later ones; ``capture-meta/last-note`` names the most recent.

``capture_context {session?, source?, budget_tokens?}`` renders, within the budget, what a new
context should be told: after a compaction (``source: compact``) the index of the blocks archived
before it; at any other start, where the last session stopped (its note).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from guest import requests
from guest.errors import InvalidRequest, NotFound
from guest.host import Host, bucket
from guest.memory import correct, lookup, tombstones, topics
from guest.memory.limits import MAX_TEXT_BYTES
from guest.memory.memorize import memorize
from guest.memory.records import Memory, fnv1a64, memory_id
from guest.memory.similar import similar
from guest.memory.verbs import MemoryVerbs
from guest.screening.screen import Screen, held, quarantine
from guest.verbs import Verb

SOURCE = "captured"
KINDS = ("directive", "lesson")  # the kinds stored as memories (blocks and notes have their own stores)
NAMESPACE = "default"
BLOCKS = bucket(NAMESPACE, "capture-blocks")
SESSIONS = bucket(NAMESPACE, "capture-sessions")
META = bucket(NAMESPACE, "capture-meta")
LESSON_IMPORTANCE = 0.8
MAX_SESSION_BYTES = 256
MAX_ITEMS = 500
MAX_LABEL_BYTES = 1024
MAX_NOTE_BYTES = 16 * 1024  # structured memory's limit of a note's content
DEFAULT_BUDGET_TOKENS = 600
MIN_BUDGET_TOKENS = 1  # the hooks' --budget range (host_harness/contract.json)
MAX_BUDGET_TOKENS = 100_000
CHARS_PER_TOKEN = 4
FIELDS = ("session", "compaction", "directives", "lessons", "blocks", "note")
CONVENTIONS_KEY = "directives"  # in META: the ids of the directives captured, oldest first
MAX_CONVENTIONS = 500  # ids listed (the oldest are dropped)
CONVENTIONS_SHARE = 0.5  # of the session-start budget: at most this much for the conventions


class CaptureVerbs:
    """The capture verbs over the memory verbs and the verbs of the archive and structured memory."""

    def __init__(self, memory: MemoryVerbs, verbs: dict[str, Verb]) -> None:
        self.memory = memory
        self.host: Host = memory.host
        self.verbs = verbs  # archive, create/update/get of a session note

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {"capture": Verb(self.capture, "session"), "capture_context": Verb(self.context, "source")}

    def call(self, verb: str, body: dict[str, Any]) -> Any:
        """Another capability's verb, by name (its handler validates the body)."""
        handler: Callable[[dict[str, Any]], Any] = self.verbs[verb].handler
        return handler(body)

    # capture

    def capture(self, body: dict[str, Any]) -> dict[str, Any]:
        """``capture {session, directives?, lessons?, blocks?, note?, compaction?}``: what was stored."""
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise InvalidRequest(f"unknown fields: {', '.join(unknown)} (capture takes {', '.join(FIELDS)})")
        session = requests.text(body, "session", MAX_SESSION_BYTES)
        directives = _items(body, "directives", ("text", "at"))
        lessons = _items(body, "lessons", ("text", "at"))
        blocks = _items(body, "blocks", ("label", "content", "at"))
        note = body.get("note")
        if note is not None and not isinstance(note, dict):
            raise InvalidRequest(f"field 'note' must be an object, not {requests.kind_of(note)}")
        # Everything is checked before anything is stored: a bad item stores nothing.
        said = [
            (self._text(item, f"directives[{i}]"), self._at(item, f"directives[{i}]"))
            for i, item in enumerate(directives)
        ]
        learned = [
            (self._text(item, f"lessons[{i}]"), self._at(item, f"lessons[{i}]"))
            for i, item in enumerate(lessons)
        ]
        kept = [
            (
                requests.text(item, "label", MAX_LABEL_BYTES),
                _content(item, f"blocks[{i}]"),
                self._at(item, f"blocks[{i}]"),
            )
            for i, item in enumerate(blocks)
        ]
        noted = _note(note) if note is not None else None
        compaction = requests.text(body, "compaction", MAX_SESSION_BYTES, required=False) or None
        screen = Screen(self.host)
        out: dict[str, Any] = {"session": session}
        out["directives"] = [self._memory(text, at, "directive", session, screen) for text, at in said]
        out["lessons"] = [self._memory(text, at, "lesson", session, screen) for text, at in learned]
        out["blocks"] = [self._block(label, content, at, session, screen) for label, content, at in kept]
        if kept:
            self._list_blocks(session, compaction, out["blocks"])
        if noted is not None:
            out["note"] = self._note(session, noted, screen)
        return screen.report(out)

    def _text(self, item: dict[str, Any], where: str) -> str:
        try:
            return requests.text(item, "text", MAX_TEXT_BYTES)
        except InvalidRequest as error:
            raise InvalidRequest(f"{where}: {error.message}") from None

    def _at(self, item: dict[str, Any], where: str) -> int | None:
        try:
            return self.memory.when({"ts": item.get("at")})
        except InvalidRequest as error:
            raise InvalidRequest(f"{where}: {error.message.replace('ts', 'at', 1)}") from None

    def _memory(self, raw: str, at: int | None, kind: str, session: str, screen: Screen) -> dict[str, Any]:
        """Store one directive or lesson; ``{id, kind, deduped}`` plus what applies."""
        host, embedder = self.host, self.memory.embedder
        text = screen.text(raw, "text", MAX_TEXT_BYTES)
        key = memory_id(NAMESPACE, text)
        answer: dict[str, Any] = {"id": key, "kind": kind}
        if tombstones.get(host, NAMESPACE, key) is not None:
            return {**answer, "deduped": True, "forgotten": True}  # the user forgot it: never brought back
        vector, close, rivals = None, [], []
        if lookup.record(host, NAMESPACE, key) is None:
            vector = embedder.embed(text)
            if kind == "directive":
                close = similar(host, embedder, NAMESPACE, text, vector, set(), True)
                rivals = self._overturned(text)
        provenance = {"kind": kind, "session": session, "at": at if at is not None else host.now_ms()}
        reason = quarantine(text)
        stored = memorize(
            host,
            embedder,
            text,
            NAMESPACE,
            SOURCE,
            quarantine=reason,
            vector=vector,
            ts=at,
            importance=LESSON_IMPORTANCE if kind == "lesson" else None,
            captured=provenance,
            origin={"kind": "prompt" if kind == "directive" else "tool-output", "session": session},
        )
        answer["deduped"] = stored.deduped
        if stored.quarantined:
            answer["quarantined"] = stored.quarantined
        elif kind == "directive":
            self._list_directive(key)
        old = [
            record
            for hit in close
            if (record := lookup.record(host, NAMESPACE, hit["id"])) is not None
            and _kind(record) == "directive"
        ]
        found = {record.id for record in old}
        old += [record for record in rivals if record.id not in found]
        if old and not stored.deduped and stored.record is not None:
            waiting = correct.link_trusted(host, NAMESPACE, stored.record, old)
            if len(waiting) < len(old):
                answer["supersedes"] = [record.id for record in old if record.id not in waiting]
            if waiting:
                answer["supersede_waits"] = waiting
        return answer

    def _overturned(self, text: str) -> list[Memory]:
        """The captured directives in force that the new rule ``text`` overturns on a topic's choice.

        "We use yarn now, not pnpm." shares one content word with "We use pnpm, not npm.", too few
        for :func:`similar`; the topic lexicon says both choose a package manager and the new one turns
        away from the old one's choice (:func:`guest.memory.topics.overturns`). Read only when the new
        rule names a topic's member at all.
        """
        if not topics.stances(text):
            return []
        raw = self.host.kv_get(META, CONVENTIONS_KEY)
        found = []
        for key in json.loads(raw) if raw else []:
            record = lookup.record(self.host, NAMESPACE, key)
            if record is not None and record.superseded_by is None and topics.overturns(text, record.text):
                found.append(record)
        return found

    def _list_directive(self, key: str) -> None:
        """Note a captured directive's id (newest last) for the session start's conventions."""
        raw = self.host.kv_get(META, CONVENTIONS_KEY)
        listed = [i for i in (json.loads(raw) if raw else []) if i != key]
        self.host.kv_put(META, CONVENTIONS_KEY, json.dumps([*listed, key][-MAX_CONVENTIONS:]).encode("utf-8"))

    def conventions(self, budget_chars: int) -> tuple[str, list[str]]:
        """``## Project conventions (rs-learn)``: the active captured directives, newest first, and their ids.

        Active: still stored, not superseded (only a chain's latest version is shown), not
        quarantined; each once (the text of a rule said twice is one memory). Within ``budget_chars``.
        """
        raw = self.host.kv_get(META, CONVENTIONS_KEY)
        head = "## Project conventions (rs-learn)"
        lines, ids, used = [head], [], len(head)
        for key in reversed(json.loads(raw) if raw else []):
            record = lookup.record(self.host, NAMESPACE, key)
            if record is None or record.superseded_by is not None or held(record.extra or {}, record.text):
                continue
            line = "- " + " ".join(record.text.split())
            if used + 1 + len(line) > budget_chars:
                break
            lines.append(line)
            ids.append(key)
            used += 1 + len(line)
        return ("\n".join(lines) if ids else ""), ids

    def _block(self, label: str, raw: str, at: int | None, session: str, screen: Screen) -> dict[str, Any]:
        """Archive one block unless the same content is archived already; ``{id, label, bytes, archived}``."""
        content = screen.text(raw, "content")
        data = content.encode("utf-8")
        address = f"{fnv1a64(data):016x}-{len(data)}"
        known = self.host.kv_get(BLOCKS, address)
        if known is not None:
            entry = json.loads(known)
            return {"id": entry["id"], "label": entry["label"], "bytes": len(data), "archived": False}
        done = self.call("archive", {"content": content, "label": label})
        entry = {
            "id": done["id"],
            "label": done["label"],
            "session": session,
            "at": at if at is not None else self.host.now_ms(),
        }
        self.host.kv_put(BLOCKS, address, _encode(entry))
        answer = {"id": done["id"], "label": done["label"], "bytes": len(data), "archived": True}
        return {**answer, "quarantined": done["quarantined"]} if done.get("quarantined") else answer

    def _list_blocks(self, session: str, compaction: str | None, blocks: list[dict[str, Any]]) -> None:
        """The session's latest compaction lists these blocks (after the ones of the same compaction)."""
        state = self._session(session)
        listed = state.get("blocks", []) if compaction and state.get("compaction") == compaction else []
        seen = {entry["id"] for entry in listed}
        listed += [
            {"id": b["id"], "label": b["label"], "bytes": b["bytes"]} for b in blocks if b["id"] not in seen
        ]
        state.update(blocks=listed, compaction=compaction, ts=self.host.now_ms())
        self.host.kv_put(SESSIONS, session, _encode(state))

    def _note(self, session: str, note: dict[str, str], screen: Screen) -> dict[str, Any]:
        """Create the session's note, or replace its text; ``{id, created}``."""
        state = self._session(session)
        body = {key: screen.text(value) for key, value in note.items()}
        created = True
        record: dict[str, Any] | None = None
        if isinstance(state.get("note"), str):
            try:
                record = self.call("update_session_note", {"id": state["note"], **body})
                created = False
            except NotFound:
                record = None  # deleted (by hand or by retention): a new one
        if record is None:
            record = self.call("create_session_note", {**body, "tags": ["captured"]})
        now = self.host.now_ms()
        state.update(note=record["id"], ts=now)
        self.host.kv_put(SESSIONS, session, _encode(state))
        self.host.kv_put(META, "last-note", _encode({"session": session, "note": record["id"], "ts": now}))
        return {"id": record["id"], "created": created}

    def _session(self, session: str) -> dict[str, Any]:
        raw = self.host.kv_get(SESSIONS, session)
        value = json.loads(raw) if raw else {}
        return value if isinstance(value, dict) else {}

    # capture_context

    def context(self, body: dict[str, Any]) -> dict[str, Any]:
        """``capture_context {session?, source?, budget_tokens?}``: ``{context, blocks, note}``."""
        source = requests.text(body, "source", 64, required=False) or "startup"
        session = requests.text(body, "session", MAX_SESSION_BYTES, required=False)
        budget = requests.integer(body, "budget_tokens", DEFAULT_BUDGET_TOKENS, MIN_BUDGET_TOKENS,
                                  MAX_BUDGET_TOKENS) * CHARS_PER_TOKEN
        rules, ids = self.conventions(int(budget * CONVENTIONS_SHARE))
        budget -= len(rules) + 2 if rules else 0
        answer = self._context(source, session, budget)
        answer["context"] = "\n\n".join(part for part in (rules, answer["context"]) if part)
        answer["conventions"] = ids
        return answer

    def _context(self, source: str, session: str | None, budget: int) -> dict[str, Any]:
        """The archived blocks' index after a compaction, else the last session's note."""
        if source == "compact":
            blocks = self._session(session).get("blocks", []) if session else []
            return {"context": index_text(blocks, budget), "blocks": len(blocks), "note": None}
        raw = self.host.kv_get(META, "last-note")
        last = json.loads(raw) if raw else None
        if not isinstance(last, dict):
            return {"context": "", "blocks": 0, "note": None}
        try:
            record = self.call("get_record", {"id": last["note"]})
        except NotFound:
            return {"context": "", "blocks": 0, "note": None}
        return {"context": note_text(record, budget), "blocks": 0, "note": record["id"]}


def index_text(blocks: list[dict[str, Any]], budget_chars: int) -> str:
    """``Archived before compaction: r7 — label (4.1 KB) · …`` within ``budget_chars``."""
    if not blocks:
        return ""
    head = "## Archived before compaction (rs-learn)\nArchived before compaction: "
    tail = f"\nUse recall({blocks[0]['id']}) (or archive_recall) to read one verbatim."
    parts: list[str] = []
    used = len(head) + len(tail)
    for i, block in enumerate(blocks):
        part = f"{block['id']} — {block['label']} ({_size(block['bytes'])})"
        more = f" · … {len(blocks) - i} more (recall_search finds them)"
        if used + len(part) + 3 + len(more) > budget_chars and i > 0:
            parts.append(more.removeprefix(" · "))
            break
        parts.append(part)
        used += len(part) + 3
    return head + " · ".join(parts) + tail


def note_text(record: dict[str, Any], budget_chars: int) -> str:
    """The last session's note under a heading, cut to ``budget_chars``."""
    text = f"## Where the last session stopped (rs-learn {record['id']})\n{record.get('content', '')}"
    if len(text) <= budget_chars:
        return text
    cut = text.rfind("\n", 0, budget_chars - 2)
    return text[: cut if cut > 0 else budget_chars - 2].rstrip() + "\n…"


def _size(count: int) -> str:
    return f"{count} B" if count < 1024 else f"{count / 1024:.1f} KB"


def _kind(record: Memory) -> str | None:
    captured = record.extra.get("captured") if record.source == SOURCE else None
    return captured.get("kind") if isinstance(captured, dict) else None


def _items(body: dict[str, Any], field: str, allowed: tuple[str, ...]) -> list[dict[str, Any]]:
    value = body.get(field, [])
    if not isinstance(value, list):
        raise InvalidRequest(f"field {field!r} must be an array, not {requests.kind_of(value)}")
    if len(value) > MAX_ITEMS:
        raise InvalidRequest(f"field {field!r} has {len(value)} items; the limit is {MAX_ITEMS}")
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise InvalidRequest(f"{field}[{i}] must be an object, not {requests.kind_of(item)}")
        unknown = sorted(set(item) - set(allowed))
        if unknown:
            raise InvalidRequest(f"{field}[{i}]: unknown fields: {', '.join(unknown)}")
    return value


def _content(item: dict[str, Any], where: str) -> str:
    value = item.get("content")
    if not isinstance(value, str):
        raise InvalidRequest(f"{where}: field 'content' must be a string, not {requests.kind_of(value)}")
    requests.check_unicode(value, f"{where}.content")
    return value


def _note(note: dict[str, Any]) -> dict[str, str]:
    unknown = sorted(set(note) - {"title", "content"})
    if unknown:
        raise InvalidRequest(f"note: unknown fields: {', '.join(unknown)} (a note takes title, content)")
    out = {"content": requests.text(note, "content", MAX_NOTE_BYTES)}
    if note.get("title") is not None:
        out["title"] = requests.text(note, "title", MAX_LABEL_BYTES)
    return out


def _encode(value: dict[str, Any]) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
