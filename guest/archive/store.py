"""The verbatim archive's storage: blocks under short ids ``r<seq>`` (seed 002).

A block is archived once and its content never changes: its id points at that block forever
(approving a quarantined block adds a field to its record, nothing else).
Everything goes through the host's key-value imports, one store per namespace
(``default`` uses plain buckets, a discipline ``name`` uses ``disciplines/<name>/…``;
see :func:`guest.host.bucket`). Buckets of a store:

* ``archive``        ``%020d`` seq -> JSON block ``{id, seq, label, content, ts[, locked][, quarantined,
  approved]}`` (``quarantined: {reason}`` for a block that reads as an instruction aimed at the agent,
  ``approved: {ts}`` once someone released it: ``guest/screening/screen.py``)
* ``archive-index``  ``%020d`` chunk number -> JSON search entries, column by column:
  ``{seq: [...], label: [...], excerpt: [...], label_terms: [...], content_terms: [...][,
  locked: [seq, ...]]}``: what ``archive_search`` needs, so that a search never loads the
  (possibly megabyte-sized) blocks themselves. Entries are packed 32 to a chunk (fewer
  when a chunk passes 128 KB): a search of 1,000 blocks reads 32 values, not 1,000 --
  each value crossing the component boundary has a fixed cost.
* ``archive-meta``   ``seq`` -> the last sequence number handed out; ``chunk`` -> the index
  chunk being filled; both ASCII decimal
* ``archive-alias``  ``%020d`` seq -> JSON list of sequence numbers: blocks that another branch
  had also numbered ``seq`` and that a git merge renumbered (``docs/decisions.md`` D58);
  ``archive_recall`` of that id names them
* ``archive-terms/%020d``  the keyword text of a *large* block, out of its index entry, in pieces
  (``guest/archive/terms.py``); the entry keeps ``content_terms = ""`` and its sequence number is
  listed in the chunk's ``split`` list.

Bounded search. A search reads the index one chunk at a time (``host-kv-get``, chunk 0 up to the
``chunk`` counter) and keeps only the best results so far; for a large block it asks the host
whether one of its pieces contains the keyword (``host-kv-query`` with the keyword and limit 1,
which the host answers by scanning those pieces, case-insensitively -- the same as ``in`` here,
since keyword text is lower-case keyword runes only). Neither side ever holds more than a chunk
(about 128 KB plus one entry of at most 16 KB of keyword text) or one piece, whatever the size of
the archive; before, every search moved the whole index -- megabytes of keyword text per large
block -- into the guest at once, and the host needed ~80 bytes per byte to do it.

The sequence lives in the store: monotonic, starting at 1, never reused, one per store,
and it survives restarts (each export call is one host transaction, so the counter and
the block commit together or not at all).

``locked`` is reserved for a future locked store (blocks encrypted under a locked
memory): a block record marked ``"locked": true`` is unreadable and behaves as absent
for recall; a sequence number in its chunk's ``locked`` list hides an entry from search.
Undecodable records behave the same way (and are logged); a damaged chunk is never
rewritten (the next entry starts a new chunk).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from guest.archive import terms
from guest.errors import Conflict, Internal
from guest.host import WARN, Host, bucket
from guest.strings.gostrings import trim_space

MAX_SEQ = 2**64 - 1
CHUNK_ENTRIES = 32
CHUNK_BYTES = 128 * 1024
_MAX_DIGITS = len(str(MAX_SEQ))
def parse_id(raw: str) -> int | None:
    """The sequence number of a tolerant id, or ``None`` when the id is malformed.

    Go's ``recallIDToSeq``: trim white space, drop one ``r`` prefix, then one ``R``
    prefix (so ``rR7`` is 7 but ``Rr7`` is malformed), trim again, then
    ``strconv.ParseUint(s, 10, 64)``: ASCII digits only, leading zeros allowed, no
    sign, no underscore, nothing above 2^64 - 1.
    """
    s = trim_space(trim_space(raw).removeprefix("r").removeprefix("R"))
    if not s or not (s.isascii() and s.isdigit()):
        return None
    digits = s.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:  # before int(): CPython caps int() at 4,300 digits
        return None
    seq = int(digits)
    return seq if seq <= MAX_SEQ else None


def format_id(seq: int) -> str:
    """The id of sequence number ``seq``."""
    return f"r{seq}"


def _key(seq: int) -> str:
    return f"{seq:020d}"


@dataclass(frozen=True)
class Block:
    """One archived block, content verbatim."""

    seq: int
    label: str
    content: str
    ts: int
    flags: dict[str, Any] = field(default_factory=dict)  # ``quarantined``, ``approved``

    @property
    def id(self) -> str:
        """``r<seq>``."""
        return format_id(self.seq)

    def encode(self) -> bytes:
        """Stable JSON bytes."""
        data = {"id": self.id, "seq": self.seq, "label": self.label, "content": self.content, "ts": self.ts}
        return _dump({**data, **self.flags})


@dataclass(frozen=True)
class Entry:
    """A block's search entry: its label, its excerpt and its keyword texts (see ``archive_search``)."""

    seq: int
    label: str
    excerpt: str
    label_terms: str
    content_terms: str

    @property
    def id(self) -> str:
        """``r<seq>``."""
        return format_id(self.seq)


class Chunk:
    """An index chunk, stored column by column (one JSON list per :class:`Entry` field).

    Columns keep a search cheap inside the component: no per-entry objects, keys stored
    once, and the keyword columns scanned by C-level ``map``. ``locked`` lists the
    sequence numbers of entries that are unreadable.
    """

    def __init__(
        self,
        columns: dict[str, list[Any]] | None = None,
        locked: list[int] | None = None,
        split: list[int] | None = None,
    ) -> None:
        self.columns: dict[str, list[Any]] = columns or {name: [] for name in COLUMNS}
        self.locked = locked or []
        self.split = split or []  # entries whose keyword text lives in ``archive-terms/<seq>``

    def __len__(self) -> int:
        return len(self.columns["seq"])

    def append(self, entry: Entry) -> None:
        """Add ``entry`` at the end."""
        for name in COLUMNS:
            self.columns[name].append(getattr(entry, name))

    def entry(self, i: int) -> Entry:
        """The ``i``-th entry."""
        return Entry(*(self.columns[name][i] for name in COLUMNS))

    def encode(self) -> bytes:
        """Stable JSON bytes."""
        extra = {"locked": self.locked} if self.locked else {}
        if self.split:
            extra["split"] = self.split
        return _dump({**self.columns, **extra})

    @classmethod
    def decode(cls, raw: bytes) -> Chunk | None:
        """The chunk, or ``None`` when it is not a well-formed chunk."""
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        locked, split = data.get("locked", []), data.get("split", [])
        if not all(isinstance(data.get(name), list) for name in COLUMNS) or not isinstance(locked, list):
            return None
        if not isinstance(split, list) or not set(map(type, split)) <= {int}:
            return None
        columns: dict[str, list[Any]] = {name: data[name] for name in COLUMNS}
        if len({len(column) for column in columns.values()}) != 1:
            return None
        if not all(set(map(type, columns[name])) <= {kind} for name, kind in COLUMN_TYPES.items()):
            return None
        if not set(map(type, locked)) <= {int}:
            return None
        return cls(columns, locked, split)


class Archive:
    """The archive of one store."""

    def __init__(self, host: Host, namespace: str) -> None:
        self.host = host
        self.namespace = namespace
        self.blocks_ns = bucket(namespace, "archive")
        self.index_ns = bucket(namespace, "archive-index")
        self.meta_ns = bucket(namespace, "archive-meta")
        self.alias_ns = bucket(namespace, "archive-alias")

    def terms_ns(self, seq: int) -> str:
        """Where the keyword text of large block ``seq`` lives."""
        return bucket(self.namespace, f"archive-terms/{_key(seq)}")

    def add(self, block: Block, entry: Entry) -> None:
        """Store a block (numbered by :meth:`next_seq`) and append its search entry to the index."""
        self.host.kv_put(self.blocks_ns, _key(block.seq), block.encode())
        split = len(entry.content_terms) > terms.INLINE_TERMS
        if split:
            cut = terms.pieces(entry.content_terms, terms.PIECE_CHARS, terms.MAX_TERM_CHARS)
            for i, piece in enumerate(cut):
                self.host.kv_put(self.terms_ns(block.seq), terms.piece_key(i), piece.encode("utf-8"))
            entry = Entry(entry.seq, entry.label, entry.excerpt, entry.label_terms, "")
        number = self._counter("chunk")
        raw = self.host.kv_get(self.index_ns, _key(number))
        chunk = self._chunk(raw) if raw else Chunk()
        if chunk is None or _full(chunk, raw or b""):
            number, chunk = number + 1, Chunk()  # a damaged chunk is left as it is
            self.host.kv_put(self.meta_ns, "chunk", str(number).encode("ascii"))
        chunk.append(entry)
        if split:
            chunk.split.append(entry.seq)
        self.host.kv_put(self.index_ns, _key(number), chunk.encode())
        self.host.kv_put(self.meta_ns, "seq", str(block.seq).encode("ascii"))

    def reindex(self, entries: list[Entry], locked: set[int]) -> int:
        """Rewrite the whole index as ``entries`` (by sequence), packed like :meth:`add` packs them.

        ``locked`` lists the sequence numbers to mark unreadable. Returns the number of chunks.
        """
        chunks: list[Chunk] = [Chunk()]
        raw = b""
        for entry in sorted(entries, key=lambda e: e.seq):
            if _full(chunks[-1], raw):
                chunks.append(Chunk())
            chunks[-1].append(entry)
            if entry.seq in locked:
                chunks[-1].locked.append(entry.seq)
            raw = chunks[-1].encode()
        values = {_key(n): chunk.encode() for n, chunk in enumerate(chunks) if len(chunk)}
        for key, _ in self.host.kv_query(self.index_ns, "", 0):
            if key not in values:
                self.host.kv_put(self.index_ns, key, b"")
        for key, value in values.items():
            self.host.kv_put(self.index_ns, key, value)
        self.host.kv_put(self.meta_ns, "chunk", str(max(len(values) - 1, 0)).encode("ascii"))
        return len(values)

    def entries(self) -> tuple[dict[int, Entry], set[int]]:
        """Every indexed entry by sequence, and the sequence numbers marked locked."""
        found: dict[int, Entry] = {}
        locked: set[int] = set()
        for chunk in self.chunks():
            found.update((entry.seq, entry) for entry in map(chunk.entry, range(len(chunk))))
            locked.update(chunk.locked)
        return found, locked

    def raw(self, seq: int) -> bytes | None:
        """The stored record of block ``seq`` as bytes, whatever its state."""
        return self.host.kv_get(self.blocks_ns, _key(seq))

    def put_raw(self, seq: int, raw: bytes) -> None:
        """Store a block record as it is (a merge copies records between branches); empty deletes."""
        self.host.kv_put(self.blocks_ns, _key(seq), raw)

    def last_seq(self) -> int:
        """The last sequence number handed out (0 for a new archive)."""
        return self._counter("seq")

    def set_last_seq(self, seq: int) -> None:
        """Record that every sequence number up to ``seq`` is used."""
        self.host.kv_put(self.meta_ns, "seq", str(seq).encode("ascii"))

    def aliases(self, seq: int) -> list[int]:
        """The blocks a git merge renumbered away from ``seq`` (see ``archive-alias``)."""
        return decode_aliases(self.host.kv_get(self.alias_ns, _key(seq)))

    def all_aliases(self) -> dict[int, list[int]]:
        """The whole alias map."""
        return {int(key): decode_aliases(raw) for key, raw in self.host.kv_query(self.alias_ns, "", 0)}

    def set_aliases(self, seq: int, seqs: list[int]) -> None:
        """Record the blocks renumbered away from ``seq``."""
        self.host.kv_put(self.alias_ns, _key(seq), _dump(sorted(set(seqs))) if seqs else b"")

    def next_seq(self) -> int:
        """The next sequence number (not yet reserved: :meth:`add` records it)."""
        last = self._counter("seq")
        if last >= MAX_SEQ:
            raise Conflict(f"the archive of {self.namespace!r} has used every sequence number")
        return last + 1

    def _counter(self, key: str) -> int:
        raw = self.host.kv_get(self.meta_ns, key) or b"0"
        if not (raw.isascii() and raw.isdigit()):
            raise Internal(f"the archive {key} counter of {self.namespace!r} is corrupt: {raw[:40]!r}")
        return int(raw)

    def get(self, seq: int) -> Block | None:
        """The readable block ``seq``, or ``None`` (absent, locked or undecodable)."""
        raw = self.host.kv_get(self.blocks_ns, _key(seq))
        data = self._decode(raw) if raw else None
        if data is None:
            return None
        return Block(seq, data["label"], data["content"], data["ts"], _flags(data))

    def chunks(self) -> Iterator[Chunk]:
        """Every well-formed index chunk, by increasing sequence, read one at a time."""
        for number in range(self._counter("chunk") + 1):
            raw = self.host.kv_get(self.index_ns, _key(number))
            chunk = self._chunk(raw) if raw else None
            if chunk is not None:
                yield chunk

    def has_term(self, seq: int, term: str) -> bool:
        """Whether the out-of-line keyword text of large block ``seq`` contains ``term``."""
        return bool(self.host.kv_query(self.terms_ns(seq), term, 1))

    def _chunk(self, raw: bytes) -> Chunk | None:
        chunk = Chunk.decode(raw)
        if chunk is None:
            self.host.log(WARN, f"archive: skipping an undecodable index chunk in {self.index_ns}")
        return chunk

    def _decode(self, raw: bytes) -> dict[str, Any] | None:
        """The block record as a dict when it is well formed and not locked."""
        data = _record(raw)
        if data is None:
            self.host.log(WARN, f"archive: skipping an undecodable record in {self.blocks_ns}")
            return None
        return None if data.get("locked") is True else data


def _record(raw: bytes) -> dict[str, Any] | None:
    """A well-formed block record as a dict (locked or not), else ``None``."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if _valid(data, _BLOCK_FIELDS) else None


def renumbered(raw: bytes, seq: int) -> bytes | None:
    """The block record ``raw`` moved to number ``seq`` (other fields kept); ``None`` if undecodable."""
    data = _record(raw)
    return None if data is None else _dump({**data, "id": format_id(seq), "seq": seq})


def decode_block(raw: bytes) -> Block | None:
    """A readable block record, or ``None`` (not a block record, or locked)."""
    data = _record(raw)
    if data is None or data.get("locked") is True:
        return None
    return Block(data["seq"], data["label"], data["content"], data["ts"], _flags(data))


def _flags(data: dict[str, Any]) -> dict[str, Any]:
    """A block record's quarantine fields."""
    return {name: data[name] for name in FLAGS if name in data}


def decode_aliases(raw: bytes | None) -> list[int]:
    """An ``archive-alias`` value: sequence numbers (anything malformed reads as none)."""
    try:
        value = json.loads(raw) if raw else []
    except ValueError:
        return []
    if not isinstance(value, list):
        return []
    return [n for n in value if isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_SEQ]


def _full(chunk: Chunk, raw: bytes) -> bool:
    """Whether a chunk (stored as ``raw``) takes no more entries."""
    return len(chunk) >= CHUNK_ENTRIES or len(raw) >= CHUNK_BYTES


def _valid(data: object, fields: dict[str, type]) -> TypeGuard[dict[str, Any]]:
    """Whether ``data`` is an object with ``fields`` of these types (booleans are not integers)."""
    return isinstance(data, dict) and all(
        isinstance(data.get(name), kind) and not isinstance(data.get(name), bool)
        for name, kind in fields.items()
    )


_BLOCK_FIELDS: dict[str, type] = {"seq": int, "label": str, "content": str, "ts": int}
FLAGS = ("quarantined", "approved")
COLUMN_TYPES: dict[str, type] = {
    "seq": int, "label": str, "excerpt": str, "label_terms": str, "content_terms": str,
}
COLUMNS = tuple(COLUMN_TYPES)


def _dump(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
