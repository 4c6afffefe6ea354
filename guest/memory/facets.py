"""Facets: who or what a memory is about (its subjects) and when it was stored, as keyword terms.

A memory's *subjects* (:func:`subjects`), case-folded:

* a leading label: ``Melanie: ...``, ``Deploy: ...``, ``frontend: ...`` -- one or two words (a
  letter first, then letters, digits, ``_ . + / -``) and a colon followed by white space, at most
  :data:`MAX_LABEL_CHARS` characters; not a stop word, nor a word that labels a kind of text
  rather than its subject (:data:`NOT_SUBJECTS`: ``Note:``, ``TODO:``, ``Returns:`` ...);
* a file path, as the path and as its file name when that has an extension or is a well-known
  name: from terms version 3 on, the paths of the one path extractor (:func:`guest.strings.paths.paths`,
  which freshness reads too: ``src/retry.py``, ``bin/run``, ``Makefile``, ``.env``; ASCII only, so
  the same on both targets); in a store of version 2, by that version's own rules (:func:`_paths`:
  a name with an extension that starts with a letter, or two slashes; Unicode word characters as
  pinned by :mod:`guest.text.wordpin`), kept until ``reindex {"rebuild": true}`` moves the store on;
* an identifier in backticks: ```parse_config```, ````RecallOptions````, ```os.path```: no white
  space (``()`` after it dropped), and shaped like an identifier rather than a word -- a ``_``,
  ``.``, ``/``, ``-`` or digit in it, or a capital after a small letter -- so that ```None```,
  ```str``` or ```queue``` (which any sentence may say) are not subjects.

A query *names* a subject when one of its words (or two adjacent words, or a path or its file name)
is that subject exactly, case-folded (:func:`named`). Stores of terms version 2 and later index each subject
as the facet term ``@<subject>`` (two words joined by ``+``), and the memory's date as three
``~`` terms (:func:`guest.strings.dates.facets`). Facet terms never count in a document's length and
never meet a query's word terms: the keyword channel's BM25 is what it was; recall reads their
postings to learn which candidates a query's subject or time window covers
(:mod:`guest.memory.lift`).
"""

from __future__ import annotations

import re

from guest.index import keywords
from guest.strings import dates
from guest.strings.paths import NAMES, paths
from guest.text import wordpin

SUBJECT_MARK = "@"
MAX_LABEL_CHARS = 40
MAX_SUBJECT_CHARS = 64
MAX_SUBJECTS = 8  # per memory
MAX_NAMED = 24  # candidates per query
PIECE = r"[^\W\d_][\w.+/-]*"
LABEL_RE = re.compile(rf"\s*({PIECE}(?: {PIECE})?)\s*:\s")
PATH_RE = re.compile(r"(?<![\w./~:@\\-])(?:\./)?((?:[\w.+-]+/)*[\w+-][\w.+-]*)(?![\w/\\])")
EXTENSION_RE = re.compile(r"[^./]\.[A-Za-z][A-Za-z0-9]{0,9}$")
TICKED_RE = re.compile(r"`+([^`\s]{2,80})`+")
SUBJECT_RE = re.compile(r"[\w.+/-]+")
LETTER_RE = re.compile(r"[^\W\d_]")
IDENTIFIER_RE = re.compile(r"[_./\d-]|[a-z][A-Z]")
WORD_RE = re.compile(r"[^\W\d_][\w-]*")  # a word of a two-word label
URL_RE = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S*")
EDGES = "\"'`.,;:!?()[]{}<>*"
NOT_FILES = frozenset({"e.g", "i.e", "etc", "vs", "a.m", "p.m", "et.al"})
DOMAINS = frozenset({"com", "org", "net", "io", "dev", "ai", "co", "edu", "gov", "app"})
NOT_SUBJECTS = frozenset(
    """note notes nb ps example examples usage args arguments param params parameters return returns
    raises yields see warning warnings caution important tip hint todo fixme xxx hack internal
    deprecated summary description update edit re fwd subject q question answer reply info error
    errors output input result results step steps status reason cause fix solution problem issue
    context details detail author date time""".split()
)


def subjects(text: str, version: int) -> list[str]:
    """The subjects of a memory's text in a store of terms ``version`` (2 or later), in order.

    Distinct, at most :data:`MAX_SUBJECTS`.
    """
    cited = paths(text) if version >= 3 else []  # what freshness reads: the text as given
    text = wordpin.pinned(text)
    out: list[str] = []
    label = LABEL_RE.match(text)
    if label is not None and len(label.group(1)) <= MAX_LABEL_CHARS:
        name = label.group(1).lower()
        if not any(word in keywords.STOP_WORDS or word in NOT_SUBJECTS for word in name.split()):
            _add(out, name.replace(" ", "+"))
    if version >= 3:
        for path in cited:
            _add(out, path.lower())
            name = path.rsplit("/", 1)[-1]
            if name in NAMES or EXTENSION_RE.search(name):  # not "run" of bin/run: a word, not a name
                _add(out, name.lower())
    else:
        for path in _paths(text):
            _add(out, path)
            _add(out, path.rsplit("/", 1)[-1])
    for ticked in TICKED_RE.findall(text):
        name = ticked.removesuffix("()")
        if SUBJECT_RE.fullmatch(name) and LETTER_RE.search(name) and IDENTIFIER_RE.search(name):
            _add(out, name.lower())
    return out[:MAX_SUBJECTS]


def named(query: str) -> list[str]:
    """The subjects ``query`` could name: its words, pairs of adjacent words, paths and file names."""
    query = wordpin.pinned(URL_RE.sub(" ", query))
    out: list[str] = []
    previous = ""
    for raw in query.split():
        token = _strip(raw).lower()
        word = token if WORD_RE.fullmatch(token) and token not in keywords.STOP_WORDS else ""
        if word and previous:
            _add(out, f"{previous}+{word}")
        previous = word
        if SUBJECT_RE.fullmatch(token) and LETTER_RE.search(token) and token not in keywords.STOP_WORDS:
            _add(out, token)
            if "/" in token:
                _add(out, token.rsplit("/", 1)[-1])
    return out[:MAX_NAMED]


def term(subject: str) -> str:
    """The facet term of a subject."""
    return SUBJECT_MARK + subject


def of(text: str, ts_ms: int, version: int) -> list[str]:
    """The facet terms of a memory in a store of terms ``version``: its subjects' and its date's."""
    return [term(subject) for subject in subjects(text, version)] + dates.facets(ts_ms)


def _add(out: list[str], subject: str) -> None:
    if 2 <= len(subject) <= MAX_SUBJECT_CHARS and subject not in out:
        out.append(subject)


def _strip(token: str) -> str:
    """A query token without surrounding punctuation and a possessive ``'s``."""
    token = token.strip(EDGES)
    for suffix in ("'s", "\u2019s"):
        if token.lower().endswith(suffix):
            token = token[: -len(suffix)]
    return token.strip(EDGES)


def _paths(text: str) -> list[str]:
    """The file paths a text names by terms version 2's rules, case-folded (see the module docstring).

    Frozen: stores of version 2 are indexed and queried by these rules until they are rebuilt.
    """
    out = []
    for match in PATH_RE.finditer(URL_RE.sub(" ", text)):
        path = match.group(1).rstrip(".").lower()
        parts = path.split("/")
        if any(part in ("", ".", "..") for part in parts) or not LETTER_RE.search(path):
            continue
        if path in NOT_FILES:
            continue
        extension = EXTENSION_RE.search(parts[-1])
        if (extension and path.rsplit(".", 1)[-1] not in DOMAINS) or len(parts) > 2:
            out.append(path)
    return out
