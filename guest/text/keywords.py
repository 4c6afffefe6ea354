"""The keyword channel: terms, a persisted inverted index and BM25 scoring.

Postings live in the store's ``terms`` bucket (layout and chunk directories:
:mod:`guest.text.postings`). A write touches one small head per distinct term (and,
every :data:`CHUNK` postings of a term, seals a chunk and its directory entry). A
search reads the heads and directories of the query's terms and only the chunks its
pruning needs (:mod:`guest.text.topk`); :func:`scores` is the exhaustive reference.
"""

from __future__ import annotations

import re
from collections import Counter

from guest.host import Host, HostWrapper
from guest.text import topk
from guest.text.postings import (
    CHUNK,
    HEAD,
    POSTING,
    PostingsCache,
    chunk_key,
    directory_key,
    directory_of,
    seal,
)
from guest.text.stem import stem

MAX_TERM_CHARS = 40
scores = topk.scores  # the exhaustive reference (also the structured records' ranking)

WORD_RE = re.compile(r"[^\W_]+")
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves""".split()
)


def terms(text: str) -> list[str]:
    """Lower-cased, stop-word-free, stemmed word terms of ``text``, in order."""
    out = []
    for word in WORD_RE.findall(text.lower()):
        if word in STOP_WORDS or len(word) > MAX_TERM_CHARS:
            continue
        out.append(stem(word))
    return out


def index_documents(host: Host, ns: str, docs: list[tuple[int, list[str]]]) -> None:
    """Append the postings of ``docs`` (increasing doc numbers) to the index in bucket ``ns``.

    Each term's head is read and written once for the whole batch; the stored bytes are the
    same as indexing the documents one by one.
    """
    added: dict[str, list[bytes]] = {}
    for doc, words in docs:
        length = min(len(words), 0xFFFF)
        for term, tf in Counter(words).items():
            added.setdefault(term, []).append(POSTING.pack(doc, min(tf, 0xFFFF), length))
    for term in sorted(added):
        raw = host.kv_get(ns, term)
        full = HEAD.unpack_from(raw)[0] if raw else 0
        body = raw[HEAD.size :] if raw else b""
        for posting in added[term]:
            body += posting
            if len(body) == CHUNK * POSTING.size:
                seal(host, ns, term, full, body)
                full, body = full + 1, b""
        host.kv_put(ns, term, HEAD.pack(full) + body)


def index_document(host: Host, ns: str, doc: int, words: list[str]) -> None:
    """Append ``doc``'s postings to the index in bucket ``ns``."""
    index_documents(host, ns, [(doc, words)])


def set_postings(host: Host, ns: str, term: str, plist: list[tuple[int, int, int]]) -> None:
    """Rewrite ``term``'s postings as ``plist``, laid out as appending them in doc order would.

    That is: every ``CHUNK`` postings a full chunk ``<term>#<n>`` (and its directory entry), the
    rest in the head (no key at all when ``plist`` is empty).
    """
    body = b"".join(POSTING.pack(*posting) for posting in sorted(plist))
    size = CHUNK * POSTING.size
    full = len(body) // size
    chunks = [body[n * size : (n + 1) * size] for n in range(full)]
    values = {chunk_key(term, n): blob for n, blob in enumerate(chunks)}
    if chunks:
        values[directory_key(term)] = directory_of(chunks)
    if body:
        values[term] = HEAD.pack(full) + body[full * size :]
    raw = host.kv_get(ns, term)
    stored = HEAD.unpack_from(raw)[0] if raw else 0
    old = {term, directory_key(term), *(chunk_key(term, n) for n in range(stored))} if raw else set()
    for key in sorted(old - set(values)):
        host.kv_put(ns, key, b"")
    for key in sorted(values):
        host.kv_put(ns, key, values[key])


class _Buffer(HostWrapper):
    """The one bucket being rebuilt, held in guest memory: :func:`index_documents` reads and writes here."""

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.values: dict[str, bytes] = {}

    def kv_get(self, ns: str, key: str) -> bytes | None:
        return self.values.get(key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        self.values[key] = value


def rebuild(host: Host, ns: str, documents: list[tuple[int, list[str]]]) -> int:
    """Rewrite bucket ``ns`` as the index of ``documents`` (``(doc, terms)``, indexed in this order).

    The postings are built by :func:`index_documents` in guest memory, so the bucket ends up
    byte for byte as if every document had been indexed one by one into an empty bucket; then
    each key is written once (an unchanged value writes nothing) and stale keys are deleted.
    Returns the number of keys.
    """
    buffer = _Buffer(host)
    index_documents(buffer, ns, documents)
    for key, _ in host.kv_query(ns, "", 0):
        if key not in buffer.values:
            host.kv_put(ns, key, b"")
    for key in sorted(buffer.values):
        host.kv_put(ns, key, buffer.values[key])
    return len(buffer.values)


def postings(host: Host, ns: str, term: str) -> list[tuple[int, int, int]]:
    """Every ``(doc, tf, doc_length)`` posting of ``term``."""
    return topk.every_posting(host, ns, term)


def document_frequency(host: Host, ns: str, term: str) -> int:
    """How many documents contain ``term`` (reads the head only)."""
    raw = host.kv_get(ns, term)
    if not raw:
        return 0
    full: int = HEAD.unpack_from(raw)[0]
    return full * CHUNK + (len(raw) - HEAD.size) // POSTING.size


def bm25(
    host: Host,
    ns: str,
    query: list[str],
    docs: int,
    tokens: int,
    k: int,
    cache: PostingsCache | None = None,
    trusted: bool = True,
) -> list[tuple[int, float]]:
    """The ``k`` best ``(doc, score)`` by BM25 (ties: lower doc number first).

    Exactly :func:`scores`' best ``k`` (same documents, same floats), found without scoring every
    posting (:func:`guest.text.topk.search`); ``trusted`` says whether the store's chunk
    directories may be used (:func:`guest.text.postings.guard_ok`).
    """
    return topk.search(host, ns, query, docs, tokens, k, cache, trusted)
