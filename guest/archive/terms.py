"""The keyword text of a large archived block, kept out of the search index in pieces.

A block's keyword text (the distinct keyword-rune runs of its content, space-separated) can be
megabytes long. Over :data:`INLINE_TERMS` characters it is stored under ``archive-terms/<seq>`` in
pieces of at most :data:`PIECE_CHARS` characters: whole runs where they fit, a longer run in windows
overlapping by :data:`MAX_TERM_CHARS` -- the longest keyword a query (at most 8 KiB) can hold -- so
that every keyword found in the text lies inside one piece. The host then answers "does this block
hold the keyword?" with ``host-kv-query(ns, keyword, 1)``; piece keys are spelled in punctuation,
because that query matches keys too and no keyword can occur in them.
"""

from __future__ import annotations

INLINE_TERMS = 16 * 1024  # keyword text longer than this lives out of the index (characters)
PIECE_CHARS = 32 * 1024
MAX_TERM_CHARS = 8 * 1024  # a query holds at most 8 KiB, so no keyword is longer
_PIECE_KEY = str.maketrans("0123456789", "!#$%&()*+,")


def pieces(terms: str, size: int = PIECE_CHARS, overlap: int = MAX_TERM_CHARS) -> list[str]:
    """Cut keyword text into pieces so that every keyword of at most ``overlap`` runes is in one piece."""
    out: list[str] = []
    current: list[str] = []
    length = 0
    for run in terms.split(" ") if terms else []:
        if len(run) > size:  # one long run: overlapping windows
            start = 0
            while True:
                out.append(run[start : start + size])
                if start + size >= len(run):
                    break
                start += size - overlap
            continue
        if current and length + 1 + len(run) > size:
            out.append(" ".join(current))
            current, length = [], 0
        length += len(run) + (1 if current else 0)
        current.append(run)
    if current:
        out.append(" ".join(current))
    return out


def piece_key(i: int) -> str:
    """The key of piece ``i``: digits spelled in punctuation (a keyword never matches it)."""
    return f"{i:06d}".translate(_PIECE_KEY)
