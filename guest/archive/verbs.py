"""The archive verbs: ``archive``, ``archive_recall``, ``recall_search`` (seed 002), ``archive_list``.

``recall_search`` is the seed's name for the keyword search; ``archive_search`` is the same verb
under this project's older name, kept as an alias.

Each answers with the seed's tool text in ``data.text`` and structured fields next to it.
Bad input (a missing, non-string or blank id or query, a malformed id, a wrong type, an
oversized field, an invalid namespace) is an ``ok: false`` envelope with a
``validation:`` error; an id that parses but names no readable block is ``not_found:``;
a search without a match is a success with no results and its own text. Ids in error
texts are quoted like Go's ``%q``. A malformed id never reads the archive.
"""

from __future__ import annotations

from typing import Any

from guest import requests
from guest.archive.search import (
    MAX_TERMS,
    derived_label,
    entry_of,
    left_out_text,
    limit_of,
    query_keywords,
    query_terms,
    results_text,
    search,
)
from guest.archive.store import Archive, Block, Entry, format_id, parse_id
from guest.errors import InvalidRequest, NotFound
from guest.host import Host
from guest.screening.screen import Screen, quarantine, quarantine_of, quarantined
from guest.strings.gostrings import quote, trim_space
from guest.verbs import Verb

MAX_CONTENT_BYTES = requests.MAX_BODY_BYTES - 64 * 1024
MAX_LABEL_BYTES = 1024
MAX_ID_BYTES = 1024
MAX_QUERY_BYTES = 8 * 1024
DEFAULT_LIST = 100
MAX_LIST = 1000
LINE_BREAKS = frozenset("\n\r\v\f\x85\u2028\u2029")


class ArchiveVerbs:
    """Validated archive, recall by id and keyword search over one host."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {
            "archive": Verb(self.archive, "content"),
            "archive_recall": Verb(self.recall, "id"),
            "recall_search": Verb(self.search, "query"),
            "archive_search": Verb(self.search, "query"),  # alias of the seed's recall_search
            "archive_list": Verb(self.list_blocks, "namespace"),
        }

    def archive(self, body: dict[str, Any]) -> dict[str, Any]:
        """``archive {label?, content, namespace?}``: store the block, return its new id.

        Verbatim, except that secrets are redacted (``redacted`` says which) and a block that
        reads as an instruction aimed at the agent is stored quarantined (``quarantined``).
        """
        screen = Screen(self.host)
        content = _string(body, "content", MAX_CONTENT_BYTES, "the block to archive", allow_blank=True)
        content = screen.text(content, "content", MAX_CONTENT_BYTES)
        label = _label(body, screen)
        namespace = requests.namespace(body) or requests.DEFAULT_NAMESPACE
        if label is None:
            label = derived_label(content)
        reason = quarantine(label, content)
        store = Archive(self.host, namespace)
        seq = store.next_seq()
        block = Block(seq, label, content, self.host.now_ms(), quarantined(reason) if reason else {})
        store.add(block, entry_of(block))
        size = len(content.encode("utf-8"))
        held = f" Quarantined: {reason}." if reason else ""
        answer = {
            "text": f"Archived as {block.id}: {label} ({size} bytes).{screen.note()}{held}",
            "id": block.id,
            "seq": seq,
            "label": label,
            "namespace": namespace,
            "bytes": size,
        }
        return screen.report({**answer, "quarantined": reason} if reason else answer)

    def recall(self, body: dict[str, Any]) -> dict[str, Any]:
        """``archive_recall {id, namespace?}``: the block verbatim."""
        raw = _string(body, "id", MAX_ID_BYTES, "the block id, e.g. r7")
        namespace = requests.namespace(body) or requests.DEFAULT_NAMESPACE
        seq = parse_id(raw)
        if seq is None:  # checked before anything is read
            raise InvalidRequest(f"block id {quote(raw)} is not valid: expected r and digits, e.g. r7")
        store = Archive(self.host, namespace)
        block = store.get(seq)
        moved = [b for b in map(store.get, store.aliases(seq)) if b is not None]
        if block is None and moved:  # only renumbered blocks carry this number now
            block = moved.pop(0)
        if block is None:
            raise NotFound(
                f"archived block {quote(raw)} not found: check the id, "
                "or find the block by keywords with recall_search"
            )
        note = "".join(f"; another branch's {format_id(seq)} is now {b.id} ({b.label})" for b in moved)
        if block.seq != seq:
            note = f"; {format_id(seq)} on another branch" + note
        held = quarantine_of(block.flags)
        if held:
            note += f"; quarantined: {held}"
        answer = {
            "text": f"[{block.id} — {block.label}, recalled verbatim{note}]\n{block.content}",
            "id": block.id,
            "label": block.label,
            "namespace": namespace,
            "ts": block.ts,
            "content": block.content,
        }
        if moved:
            answer["renumbered"] = [{"id": b.id, "label": b.label} for b in moved]
        if held:
            answer["quarantined"] = held
        return answer

    def search(self, body: dict[str, Any]) -> dict[str, Any]:
        """``recall_search {query, limit?, namespace?}`` (also ``archive_search``): blocks, best first."""
        query = _string(body, "query", MAX_QUERY_BYTES, "keywords to look for")
        namespace = requests.namespace(body) or requests.DEFAULT_NAMESPACE
        limit = limit_of(body.get("limit"))
        keywords = query_keywords(query)
        terms = query_terms(query)  # at most MAX_TERMS of them: bounded work (guest/archive/search.py)
        archive = Archive(self.host, namespace)
        results = search(terms, archive.chunks(), limit, archive.has_term) if terms else []
        text = results_text(results)
        if len(keywords) > MAX_TERMS:
            text += "\n" + left_out_text(keywords)
        return {
            "text": text,
            "terms": terms,
            "namespace": namespace,
            "results": [r.as_dict() for r in results],
        }

    def list_blocks(self, body: dict[str, Any]) -> dict[str, Any]:
        """``archive_list {limit?, namespace?}``: the newest readable blocks' ids, labels and excerpts.

        Not in the seed: it lets a host list the archive (the MCP server's resources). It reads only
        the search index, never the blocks; ``total`` counts every readable block.
        """
        limit = requests.integer(body, "limit", DEFAULT_LIST, 1, MAX_LIST)
        namespace = requests.namespace(body) or requests.DEFAULT_NAMESPACE
        entries: list[Entry] = []
        for chunk in Archive(self.host, namespace).chunks():
            locked = set(chunk.locked)
            entries.extend(chunk.entry(i) for i, seq in enumerate(chunk.columns["seq"]) if seq not in locked)
        entries.sort(key=lambda e: e.seq, reverse=True)
        blocks = [{"id": e.id, "label": e.label, "excerpt": e.excerpt} for e in entries[:limit]]
        return {"namespace": namespace, "total": len(entries), "blocks": blocks}

    def with_recall_by_id(self, memory_recall: Verb) -> Verb:
        """``memory_recall``, except that a body with an ``id`` field recalls an archived block."""

        def handler(body: dict[str, Any]) -> Any:
            return self.recall(body) if "id" in body else memory_recall.handler(body)

        return Verb(handler, memory_recall.text_field)


def _string(body: dict[str, Any], field: str, max_bytes: int, what: str, allow_blank: bool = False) -> str:
    """A string field; blank means Go's ``strings.TrimSpace(s) == ""``."""
    value = body.get(field)
    if value is None:
        raise InvalidRequest(f"missing field {field!r} ({what})")
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a string, not {requests.kind_of(value)}")
    requests.check_unicode(value, field)
    if not allow_blank and not trim_space(value):
        raise InvalidRequest(f"field {field!r} is blank ({what})")
    size = len(value.encode("utf-8"))
    if size > max_bytes:
        raise InvalidRequest(f"field {field!r} is {size} bytes; the limit is {max_bytes}")
    return value


def _label(body: dict[str, Any], screen: Screen) -> str | None:
    """The label, redacted, one line; ``None`` when absent (it is then derived from the content).

    Redacted before its lines are checked: the error quotes it on one line (``\n``), where an
    ``api_key: X`` would no longer end its line.
    """
    if body.get("label") is None:
        return None
    label = _string(body, "label", MAX_LABEL_BYTES, "a short title; omit it to use the first line")
    label = screen.text(label, "label", MAX_LABEL_BYTES)
    if any(c in LINE_BREAKS for c in label):
        raise InvalidRequest(f"field 'label' must be one line, got {quote(label)}")
    return label
