"""The persisted postings of the keyword channel: layout, chunk directory, and a chunk cache.

A term's postings live in the store's ``terms`` bucket, in document order. Key ``<term>`` holds
the *head*: ``u32 full`` then up to :data:`CHUNK` postings; when the head is full its postings
move to the sealed chunk ``<term>#<n>`` (``n = full``) and a new head starts. A posting is
``u32 doc, u16 tf, u16 doc_length`` (little-endian).

A sealed chunk is stored *packed* (:func:`pack`): :data:`PACKED`, then a zlib stream of its
postings' eight byte planes (every posting's first byte, then every second byte, ...), padded by a
zero byte when the whole would be a multiple of 8 bytes long. A document number's high bytes and a
tf's high byte hardly vary within a chunk, so a packed chunk is ~a third of the raw one's 8 KiB:
that is what crosses into the component per chunk read, and crossing costs per byte (D66). A chunk
whose length is a multiple of 8 is raw postings, as written before packing; engines from then read
a packed chunk as torn (no postings): its documents go missing from their keyword channel, they
are never misattributed.

``<term>#d`` is the *directory* of the sealed chunks, one :data:`ENTRY` per chunk in order:
``u32 first doc, u32 crc32 of the chunk's stored bytes, u16 largest tf, u16 smallest doc length``.
It lets a search bound a chunk's best BM25 contribution and find the chunk holding a document
without reading it (see :mod:`guest.index.topk`). It is derived data, written whenever a chunk is
sealed or rewritten; a store written before it existed has none, and a reader treats every chunk
without an entry as unknown (it reads the chunk). A writer that seals a chunk completes the
entries of the earlier chunks first, so a term's directory fills in lazily; ``reindex {rebuild:
true}`` writes every directory at once.

A writer that does not know about directories (an older engine) can rewrite chunks and leave a
directory stale. So every writer here also stores, next to the store's stats, the stats it wrote
(``meta/postings``): a reader trusts the directories only while that copy equals ``meta/stats``
(or was never written). Once they differ, every writer keeps the mark stale until a rebuild.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from guest.host import Host

CHUNK = 1024
HEAD = struct.Struct("<I")
POSTING = struct.Struct("<IHH")
ENTRY = struct.Struct("<IIHH")
CHUNK_BYTES = CHUNK * POSTING.size
PACKED = b"pk"
FACET_MARKS = ("@", "~")  # a facet term starts with one (words never do): not counted in lengths
DIRECTORY = "#d"  # key suffix; terms are word characters only, chunk keys end in #<digits>
GUARD_KEY = "postings"  # in the store's meta bucket
STALE = b"stale"
CACHE_BYTES = 32 << 20


def length(words: list[str]) -> int:
    """A document's length in words: its terms less its facet terms (subjects, dates)."""
    return len(words) - sum(1 for word in words if word.startswith(FACET_MARKS))


def chunk_key(term: str, n: int) -> str:
    """The key of ``term``'s sealed chunk ``n``."""
    return f"{term}#{n}"


def directory_key(term: str) -> str:
    """The key of ``term``'s chunk directory."""
    return term + DIRECTORY


# (docs, codes), code = tf | doc_length << 16: arrays for sealed chunks, lists for heads
Postings = tuple["Sequence[int]", "Sequence[int]"]


def decode(blob: bytes) -> tuple[list[int], list[int]]:
    """``(docs, codes)`` of a run of raw postings (C speed).

    Lists, not arrays: a head is read on every search of its term and walked several times per
    search (its bound, its sums, bisections), and a list makes its int objects once where an
    array makes them on every access (natively 1.71 → 1.36 ms per keyword recall at 10k).
    """
    docs, codes = _split(blob)
    return docs.tolist(), codes.tolist()


def head_postings(head: bytes) -> tuple[list[int], list[int]]:
    """``(docs, codes)`` of a head's postings (``len(head) >= HEAD.size``): none when it is torn."""
    body = head[HEAD.size :]
    return decode(b"" if len(body) % POSTING.size else body)


def _split(blob: bytes) -> tuple[array[int], array[int]]:
    words = array("I")
    words.frombytes(blob)
    return words[0::2], words[1::2]


def document_count(head: bytes) -> int:
    """How many postings a term has, from its head (``len(head) >= HEAD.size``): sealed ones too."""
    full: int = HEAD.unpack_from(head)[0]
    return full * CHUNK + (len(head) - HEAD.size) // POSTING.size


def pack(raw: bytes) -> bytes:
    """The stored form of a sealed chunk whose raw postings are ``raw``."""
    width = POSTING.size
    blob = PACKED + zlib.compress(b"".join(raw[j::width] for j in range(width)))
    return blob + b"\0" if len(blob) % width == 0 else blob


def unpack(blob: bytes) -> Postings:
    """``(docs, codes)`` of a stored sealed chunk: none when it is torn or damaged."""
    if len(blob) % POSTING.size == 0:
        return _split(blob)  # raw, as written before chunks were packed (arrays, as the cache counts them)
    planes = _inflate(blob)
    n = len(planes) // POSTING.size
    docs, codes = bytearray(4 * n), bytearray(4 * n)
    for j in range(4):  # planes 0-3 are the documents' bytes, 4-7 the codes'
        docs[j::4] = planes[j * n : (j + 1) * n]
        codes[j::4] = planes[(j + 4) * n : (j + 5) * n]
    return array("I", docs), array("I", codes)


def _inflate(blob: bytes) -> bytes:
    """The byte planes of a packed chunk: ``b""`` unless ``blob`` is one, whole and sound."""
    if not blob.startswith(PACKED):
        return b""
    inflate = zlib.decompressobj()
    try:
        planes = inflate.decompress(memoryview(blob)[len(PACKED) :], CHUNK_BYTES + 1)
    except zlib.error:
        return b""
    if len(planes) % POSTING.size or len(planes) > CHUNK_BYTES or not inflate.eof:
        return b""
    return planes if inflate.unused_data in (b"", b"\0") else b""


def entry(blob: bytes, after: int = 0) -> bytes:
    """The directory entry of a stored sealed chunk (``after``: the previous chunk's first doc).

    A chunk that is missing or torn (a damaged store) reads as no postings, here as everywhere:
    its entry bounds nothing and keeps the first docs in order.
    """
    return _entry(unpack(blob), zlib.crc32(blob), after)


def _entry(found: Postings, crc: int, after: int) -> bytes:
    docs, codes = found
    if not docs:
        return ENTRY.pack(after, crc, 0, 0xFFFF)
    halves = array("H", array("I", codes).tobytes())  # tf, length, tf, length, ...
    return ENTRY.pack(docs[0], crc, max(halves[0::2]), min(halves[1::2]))


def parse_directory(raw: bytes | None, full: int) -> list[tuple[int, int, int, int]]:
    """The entries ``(first doc, crc, max tf, min length)`` of the first sealed chunks.

    At most ``full`` of them; an entry past ``full`` or a torn value means the directory does
    not describe this term any more: then none is trusted.
    """
    if not raw or len(raw) % ENTRY.size or len(raw) // ENTRY.size > full:
        return []
    return list(ENTRY.iter_unpack(raw))


def seal(host: Host, ns: str, term: str, full: int, raw: bytes) -> None:
    """Write the postings ``raw`` as ``term``'s sealed chunk ``full`` (packed) and its directory entry.

    Entries missing for earlier chunks (a store older than directories) are computed from the
    chunks first, so the directory always covers chunks ``0 .. full``.
    """
    blob = pack(raw)
    host.kv_put(ns, chunk_key(term, full), blob)
    directory = host.kv_get(ns, directory_key(term))
    entries = [ENTRY.pack(*e) for e in parse_directory(directory, full)]
    for n in range(len(entries), full):  # a store older than directories: fill them in
        entries.append(entry(host.kv_get(ns, chunk_key(term, n)) or b"", _first(entries)))
    entries.append(_packed_entry(raw, blob, _first(entries)))
    host.kv_put(ns, directory_key(term), b"".join(entries))


def pack_all(chunks: list[bytes]) -> tuple[list[bytes], bytes]:
    """Raw sealed chunks ``chunks`` (in order) packed, and their directory."""
    blobs: list[bytes] = []
    entries: list[bytes] = []
    for raw in chunks:
        blobs.append(pack(raw))
        entries.append(_packed_entry(raw, blobs[-1], _first(entries)))
    return blobs, b"".join(entries)


def _packed_entry(raw: bytes, blob: bytes, after: int) -> bytes:
    """The entry of ``blob``, just packed from ``raw``: bounded from ``raw``, not inflated again."""
    return _entry(_split(raw), zlib.crc32(blob), after)


def _first(entries: list[bytes]) -> int:
    return ENTRY.unpack(entries[-1])[0] if entries else 0


def directory_of(chunks: Iterable[bytes]) -> bytes:
    """The directory of these stored sealed chunks (in order)."""
    entries: list[bytes] = []
    for blob in chunks:
        entries.append(entry(blob, _first(entries)))
    return b"".join(entries)


def guard_ok(host: Host, meta: str, stats: bytes | None) -> bool:
    """Whether the directories of the store whose ``meta`` bucket holds ``stats`` can be trusted."""
    mark = host.kv_get(meta, GUARD_KEY)
    return mark is None or mark == stats


def keep_guard(host: Host, meta: str, before: bytes | None, after: bytes) -> None:
    """Record that the store's stats went from ``before`` to ``after`` by a writer that keeps directories.

    Called just before ``after`` is written over ``before`` in ``meta/stats``.
    """
    host.kv_put(meta, GUARD_KEY, after if guard_ok(host, meta, before) else STALE)


def renew_guard(host: Host, meta: str, stats: bytes) -> None:
    """Every directory was just rewritten (a rebuild): trust them again."""
    host.kv_put(meta, GUARD_KEY, stats)


class PostingsCache:
    """Sealed chunks already read by this instance, as ``(docs, codes)``, keyed by bucket, term and number.

    A sealed chunk changes only when a writer rewrites the whole term, which rewrites its
    directory too: an entry is used only while the directory's crc for that chunk equals the
    crc of the stored bytes it was unpacked from. Least recently used chunks go first beyond
    :data:`CACHE_BYTES`.
    """

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self.chunks: OrderedDict[tuple[str, str, int], tuple[int, Postings]] = OrderedDict()

    def get(self, key: tuple[str, str, int], crc: int) -> Postings | None:
        """The cached postings of chunk ``key`` if its stored bytes are the ones with ``crc``."""
        found = self.chunks.get(key)
        if found is None or found[0] != crc:
            return None
        self.chunks.move_to_end(key)
        return found[1]

    def put(self, key: tuple[str, str, int], crc: int, postings: Postings) -> None:
        """Remember the postings of chunk ``key`` (whose stored bytes have ``crc``)."""
        old = self.chunks.pop(key, None)
        if old is not None:
            self.size -= len(old[1][0]) * POSTING.size
        self.chunks[key] = (crc, postings)
        self.size += len(postings[0]) * POSTING.size
        while self.size > self.limit and self.chunks:
            _, (_, gone) = self.chunks.popitem(last=False)
            self.size -= len(gone[0]) * POSTING.size
