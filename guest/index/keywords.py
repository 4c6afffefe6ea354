"""The keyword channel: terms, a persisted inverted index and BM25 scoring.

Postings live in the store's ``terms`` bucket (layout and chunk directories:
:mod:`guest.index.postings`). A write touches one small head per distinct term (and,
every :data:`CHUNK` postings of a term, seals a chunk and its directory entry). A
search reads the heads and directories of the query's terms and only the chunks its
pruning needs (:mod:`guest.index.topk`); :func:`scores` is the exhaustive reference.
"""

from __future__ import annotations

import re
from collections import Counter

from guest.host import Host, HostWrapper
from guest.index import pending, topk
from guest.index.postings import (
    CHUNK,
    HEAD,
    POSTING,
    PostingsCache,
    chunk_key,
    directory_key,
    document_count,
    length,
    pack_all,
    seal,
)
from guest.text.stem import stem, stem_form
from guest.text.wordpin import pinned

MAX_TERM_CHARS = 40
scores = topk.scores  # the exhaustive reference (also the structured records' ranking)
mark = pending.mark

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


def terms(text: str, forms: bool = False) -> list[str]:
    """Lower-cased, stop-word-free, stemmed word terms of ``text``, in order.

    Words are those of Unicode 14 on both targets (:mod:`guest.text.wordpin`). ``forms``: irregular
    forms meet their lemma (:func:`guest.text.stem.stem_form`), as memory stores of terms version 2
    index them.
    """
    stemmer = stem_form if forms else stem
    return [stemmer(word) for word in words(text)]


def words(text: str) -> list[str]:
    """The lower-cased, stop-word-free words of ``text`` that :func:`terms` stems, in order."""
    found = WORD_RE.findall(pinned(text).lower())
    return [word for word in found if word not in STOP_WORDS and len(word) <= MAX_TERM_CHARS]


# Terms version 4's words (:func:`words_v4`): a contraction's fragments are no words, and an
# identifier is indexed whole and by its parts; version 5's (:func:`words_v5`) cut clitics too.
NEGATED_RE = re.compile(r"[^\W_]+n['\u2019]t(?![^\W_])")  # don't, isn't, can't: "do not" -- stop words
CLITIC_RE = re.compile(r"(?<=[^\W_])['\u2019](?:s|re|ve|ll|d|m|t)(?![^\W_])")  # Bob's -> Bob, we're -> we
CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")  # an ASCII piece's parts
PARTS_RE = re.compile(r"[a-z][A-Z]|[A-Z][A-Z][a-z]|[^\W_]_+[^\W_]")  # where an identifier has parts
# the same, searched faster one by one (an alternation is tried at every position)
PARTS = (re.compile(r"[a-z][A-Z]"), re.compile(r"[A-Z][A-Z][a-z]"), re.compile(r"[^\W_]_+[^\W_]"))
# version 5: contractions in capitals too (DON'T, IT'S), identifiers with a digit inside (base64Encode,
# s3Bucket; not 16GB)
NEGATED_V5 = re.compile(NEGATED_RE.pattern, re.IGNORECASE)
CLITIC_V5 = re.compile(CLITIC_RE.pattern, re.IGNORECASE)
DIGIT_PARTS_RE = re.compile(r"[a-z][0-9]+[A-Z]")
TOKEN_RE = re.compile(r"\w+")


def words_v4(text: str, clitics: bool = False) -> list[str]:
    """The words of terms version 4, lower-cased, stop words dropped, in order.

    As :func:`words`, but a negated contraction (``don't``, ``isn't``) is dropped whole, so that
    ``don`` and ``t`` are never terms; and an identifier with parts (``IHoverService``,
    ``parse_config``, ``HTTPServer``) is its whole lower-cased self followed by each part of two
    characters or more (``hover``, ``service``): a prompt's "hovering" meets ``IHoverService``. (Text
    with neither takes one ``findall``, as :func:`words`.) ``clitics``: version 5's words
    (:func:`words_v5`).
    """
    digits = clitics
    text = pinned(text)
    if "'" in text or "\u2019" in text:
        text = (NEGATED_V5 if clitics else NEGATED_RE).sub(" ", text)
        text = CLITIC_V5.sub("", text) if clitics else text
    if not _has_parts(text, digits):
        found = WORD_RE.findall(text.lower())
    else:
        found = []
        for token in TOKEN_RE.findall(text):
            if PARTS_RE.search(token) is None and not (digits and DIGIT_PARTS_RE.search(token)):
                found += WORD_RE.findall(token.lower())
                continue
            found.append(token.lower().strip("_"))
            for piece in WORD_RE.findall(token):
                parts = CAMEL_RE.findall(piece) if piece.isascii() else [piece]
                found += [part.lower() for part in parts if len(part) >= 2]
    return [word for word in found if word not in STOP_WORDS and len(word) <= MAX_TERM_CHARS]


def words_v5(text: str) -> list[str]:
    """The words of terms version 5: version 4's, no clitic, identifiers split at a digit.

    No clitic is a term (``it's``, ``we've``, ``I'm``, ``Bob's``: ``bob``; the words a clitic stands
    for -- is, have, am, are, will, would -- are stop words), a contraction in capitals is read as one
    in lower case (``DON'T``), and identifiers with a digit inside are split too (``base64Encode``:
    ``base64encode``, ``base``, ``64``, ``encode``). The relevance gate reads a prompt with these words
    whatever the store's version.
    """
    return words_v4(text, clitics=True)


def _has_parts(text: str, digits: bool = False) -> bool:
    """Whether ``text`` may hold an identifier with parts (:data:`PARTS_RE`; ``digits``: or a digit's)."""
    camel, capitals, snake = PARTS
    return (camel.search(text) is not None or capitals.search(text) is not None
            or ("_" in text and snake.search(text) is not None)
            or (digits and DIGIT_PARTS_RE.search(text) is not None))


def index_documents(host: Host, ns: str, docs: list[tuple[int, list[str]]]) -> None:
    """Append the postings of ``docs`` (increasing doc numbers) to the index in bucket ``ns``.

    Each term's head is read and written once for the whole batch; the stored bytes are the
    same as indexing the documents one by one.
    """
    added: dict[str, list[bytes]] = {}
    for doc, words in docs:
        size = min(length(words), 0xFFFF)
        for term, tf in Counter(words).items():
            added.setdefault(term, []).append(POSTING.pack(doc, min(tf, 0xFFFF), size))
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


def add_documents(
    host: Host, ns: str, docs: list[tuple[int, list[str]]], before: bytes, after: bytes
) -> bool:
    """Index ``docs`` (numbered after every document indexed so far) through the pending list.

    ``before`` and ``after`` are the store's counts before and after this write (:func:`mark`). A
    write that fits in the pending list appends to it; otherwise the list and ``docs`` are indexed
    together (:mod:`guest.index.pending`). Returns ``False``, having indexed nothing, when the
    pending list is stale: the caller must rebuild the index.
    """
    raw = host.kv_get(ns, pending.KEY)
    listed = pending.Pending(raw, before)
    if listed.stale:
        return False
    if docs and len(listed) + len(docs) <= pending.PENDING_DOCS:
        host.kv_put(ns, pending.KEY, pending.append(raw, docs, after))
    elif raw or docs:
        index_documents(host, ns, listed.documents() + docs)
        if raw:
            host.kv_put(ns, pending.KEY, b"")
    return True


def settle(host: Host, ns: str, counts: bytes) -> bool:
    """Index the pending list now (before postings are rewritten in place); ``False``: it is stale."""
    return add_documents(host, ns, [], counts, counts)


def read_pending(host: Host, ns: str, docs: int, tokens: int) -> pending.Pending:
    """The pending list of the index in bucket ``ns``, of a store with these counts."""
    return pending.Pending(host.kv_get(ns, pending.KEY), mark(docs, tokens))


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
    packed, directory = pack_all(chunks)
    values = {chunk_key(term, n): blob for n, blob in enumerate(packed)}
    if chunks:
        values[directory_key(term)] = directory
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


def rebuild(host: Host, ns: str, documents: list[tuple[int, list[str]]], pending_docs: int = 0,
            counts: bytes = b"") -> int:
    """Rewrite bucket ``ns`` as the index of ``documents`` (``(doc, terms)``, indexed in this order).

    The last ``pending_docs`` documents go to the pending list (marked with ``counts``), the others
    into the postings, built by :func:`index_documents` in guest memory: the bucket ends up byte for
    byte as if every document had been indexed one by one into an empty bucket. Then each key is
    written once (an unchanged value writes nothing) and stale keys are deleted. Returns the number
    of keys.
    """
    buffer = _Buffer(host)
    held = max(0, min(pending_docs, len(documents)))
    index_documents(buffer, ns, documents[: len(documents) - held])
    if held:
        buffer.values[pending.KEY] = pending.encode(documents[len(documents) - held :], counts)
    for key, _ in host.kv_query(ns, "", 0):
        if key not in buffer.values:
            host.kv_put(ns, key, b"")
    for key in sorted(buffer.values):
        host.kv_put(ns, key, buffer.values[key])
    return len(buffer.values)


def postings(
    host: Host, ns: str, term: str, extra: pending.Pending | None = None
) -> list[tuple[int, int, int]]:
    """Every ``(doc, tf, doc_length)`` posting of ``term`` (``extra``: the pending list's too)."""
    return topk.every_posting(host, ns, term, extra)


def document_frequency(host: Host, ns: str, term: str, extra: pending.Pending | None = None) -> int:
    """How many documents contain ``term`` (reads the head only; ``extra``: the pending list)."""
    raw = pending.joined(host.kv_get(ns, term), extra, term)
    return document_count(raw) if raw else 0


def bm25(
    host: Host,
    ns: str,
    query: list[str],
    docs: int,
    tokens: int,
    k: int,
    cache: PostingsCache | None = None,
    trusted: bool = True,
    extra: pending.Pending | None = None,
) -> list[tuple[int, float]]:
    """The ``k`` best ``(doc, score)`` by BM25 (ties: lower doc number first).

    Exactly :func:`scores`' best ``k`` (same documents, same floats), found without scoring every
    posting (:func:`guest.index.topk.search`); ``trusted`` says whether the store's chunk
    directories may be used (:func:`guest.index.postings.guard_ok`); ``extra`` is the index's pending
    list (:func:`read_pending`).
    """
    return topk.search(host, ns, query, docs, tokens, k, cache, trusted, extra)
