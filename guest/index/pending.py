"""The pending list: the newest documents' postings, held in one value until a batch is indexed.

Appending one document to the postings rewrites the head of each of its terms: ~25 values of up
to 8 KiB for a short memory, two host calls each. Like PostgreSQL GIN's ``fastupdate`` pending
list, a one-document write instead appends the document's terms to a single value of the
``terms`` bucket, ``#pending``; once it would hold more than :data:`PENDING_DOCS` documents, they
are indexed in one batch (:func:`guest.index.keywords.index_documents`: one read and write of each
term's head), and the value is deleted. The postings then are byte for byte those that indexing
every document one by one would have written.

Layout (UTF-8 text, ``\\n``-separated lines): ``pending <docs> <tokens>``, the store's document
and token counts (``meta/stats``) as this writer left them, then one line per document in order:
``<doc> <length> <term>:<tf> <term>:<tf> ...`` (terms sorted; a term is word characters only, or a
facet term, :mod:`guest.memory.facets`, so no term holds a space, a colon or a newline; the length
does not count facet terms).

A reader adds a term's pending postings after its head's: pending documents are the newest, so
the postings stay in document order. A writer that does not know the pending list (an older
engine) changes the counts without it, and may have numbered, moved or indexed documents past it:
a list whose counts differ from ``meta/stats``'s is *stale*. Readers then ignore it, and the next
writer that knows it rebuilds the keyword index from the memories. (Only the counts: a write that
changes only the store's embedder leaves the documents and the list as they were.)
"""

from __future__ import annotations

from collections import Counter

from guest.index.postings import HEAD, POSTING, length

KEY = "#pending"  # in the terms bucket; never a term (terms are word characters)
PENDING_DOCS = 32
MARK = b"pending "


def mark(docs: int, tokens: int) -> bytes:
    """What a pending list records of the store's counts."""
    return b"%d %d" % (docs, tokens)


class Pending:
    """A parsed pending list (empty when there is none or it is stale)."""

    def __init__(self, raw: bytes | None, counts: bytes) -> None:
        """``counts``: :func:`mark` of the store's stats."""
        lines = raw.split(b"\n") if raw else []
        self.stale = bool(lines) and lines[0] != MARK + counts
        self.lines = [] if self.stale else lines[1:]
        self.raw = b"" if self.stale else raw or b""

    def __len__(self) -> int:
        """How many documents it holds."""
        return len(self.lines)

    def postings(self, term: str) -> bytes:
        """``term``'s packed postings (``u32 doc, u16 tf, u16 length``), in document order."""
        needle = b" " + term.encode("utf-8") + b":"
        if needle not in self.raw:
            return b""
        out = []
        for line in self.lines:
            at = line.find(needle)
            if at >= 0:
                doc, length = line.split(b" ", 2)[:2]
                end = line.find(b" ", at + 1)
                tf = int(line[at + len(needle) : end if end >= 0 else len(line)])
                out.append(POSTING.pack(int(doc), min(tf, 0xFFFF), min(int(length), 0xFFFF)))
        return b"".join(out)

    def documents(self) -> list[tuple[int, list[str]]]:
        """The documents it holds as ``(doc, terms)`` (each term repeated ``tf`` times)."""
        out = []
        for line in self.lines:
            head, _, rest = line.partition(b" ")
            words: list[str] = []
            for item in rest.split(b" ")[1:]:
                term, _, tf = item.rpartition(b":")
                words += [term.decode("utf-8")] * int(tf)
            out.append((int(head), words))
        return out


def encode(documents: list[tuple[int, list[str]]], counts: bytes) -> bytes:
    """The pending list holding ``documents`` (in document order), marked with ``counts``."""
    lines = [MARK + counts]
    for doc, words in documents:
        terms = " ".join(f"{term}:{tf}" for term, tf in sorted(Counter(words).items()))
        lines.append(f"{doc} {length(words)} {terms}".rstrip(" ").encode("utf-8"))
    return b"\n".join(lines)


def append(raw: bytes | None, documents: list[tuple[int, list[str]]], counts: bytes) -> bytes:
    """``raw`` (a list that is not stale, or none) with ``documents`` added, marked with ``counts``."""
    added = encode(documents, counts)
    if not raw:
        return added
    _, _, held = raw.partition(b"\n")
    first, _, new = added.partition(b"\n")
    return b"\n".join(part for part in (first, held, new) if part)


def joined(head: bytes | None, listed: Pending | None, term: str) -> bytes | None:
    """A term's head with the list's postings of it appended (they follow in document order)."""
    extra = listed.postings(term) if listed is not None else b""
    if not extra:
        return head
    return (head if head and len(head) >= HEAD.size else HEAD.pack(0)) + extra
