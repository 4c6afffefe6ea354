"""The rules a memory store's keyword terms follow: its *terms version*, kept in its stats.

* **1** (stores written before issue 29): the words of the text, lower-cased, stop words dropped,
  stemmed by the light suffix stemmer (:func:`guest.index.keywords.terms`).
* **2** (stores written between issues 29 and 32): the same words, irregular forms meeting their
  lemma (``ran`` -> ``run``: :func:`guest.text.stem.stem_form`), plus the memory's facet terms
  (:mod:`guest.memory.facets`): its subjects and its date.
* **3** (a new store; an older one after ``reindex {"rebuild": true}``): version 2's terms plus the
  words of the memory's *context* -- where an imported note stood, such as ``CLAUDE.md > Conventions
  > Commit messages follow Conventional Commits:`` -- without its leading file name
  (:func:`context_text`): a nested item is found by the words of the line it hangs from; and the
  file paths among the subjects are those of the one path extractor freshness reads too
  (:func:`guest.strings.paths.paths`: ``bin/run`` and ``Makefile`` are subjects, ``café/menü.py`` is
  none, on both targets alike).
* **4** (issue 47): version 3's terms, but the words are :func:`guest.index.keywords.words_v4`'s --
  a contraction's fragments (``don``, ``isn``, ``t``) are no terms, and an identifier is indexed
  whole and by its parts (``IHoverService``: ``ihoverservice``, ``hover``, ``service``;
  ``parse_config``: ``parse_config``, ``parse``, ``config``) -- plus, for a memory that states a
  preference or a rule, the words of what it is about (:mod:`guest.memory.topics`: "Always use
  pnpm" is also indexed under ``package manager`` and the other package managers).
* **5** (issue 47, a new store): version 4's terms, with :func:`guest.index.keywords.words_v5`'s words
  (no clitic is a term: ``it's``, ``we've``, ``I'm`` give no ``s``, ``ve``, ``m``; ``Bob's`` is
  ``bob``; an identifier with a digit inside is split too, ``base64Encode``), and a rule's topics
  from the lexicon of ``scripts/gen_topics.py`` (37 topics: HTTP client, ORM, CI, error tracking,
  seating ...; members of several words; a member met by its words as written, so "pretty" is no
  ``prettier``); an instruction ("Use httpx ...", "Deploy only on ...") or "I'm into ..." reads as
  a rule. A version 4 store keeps its words and its first lexicon until ``reindex --rebuild``.

A store is indexed and queried with its own version's rules only -- writes, removals, merges and
rebuilds of the keyword index keep the version; only a rebuild asked for by ``reindex`` moves a
store to :data:`CURRENT` -- so an index never mixes two sets of rules. A store of a version newer
than this engine knows is refused (:func:`check`) rather than written with older rules.
"""

from __future__ import annotations

import re

from guest.errors import InvalidRequest
from guest.index import keywords
from guest.memory import facets, topics
from guest.memory.records import TERMS_VERSION, Memory
from guest.text.stem import stem, stem_form

CURRENT = TERMS_VERSION
SOURCE_RE = re.compile(r"^\s*[^\s>:]+\.[A-Za-z][A-Za-z0-9]{0,9}(?:\s*>\s*|:\s+|\s*$)")
FORMS = True  # version 2 conflates irregular forms (a bench variant turns it off)


def check(namespace: str, version: int) -> None:
    """Refuse a store whose terms version this engine does not know."""
    if not 1 <= version <= CURRENT:
        raise InvalidRequest(f"store {namespace!r} has terms version {version}, written by a newer "
                             f"rs-learn (this one knows 1 to {CURRENT}); upgrade rs-learn")


def term(word: str, version: int) -> str:
    """The term of one lower-cased word under ``version``'s rules."""
    return stem_form(word) if FORMS and version >= 2 else stem(word)


def words(text: str, version: int) -> list[str]:
    """The word terms of a text (a memory's or a query's) under ``version``'s rules."""
    if version >= 5:
        return [term(word, version) for word in keywords.words_v5(text)]
    if version >= 4:
        return [term(word, version) for word in keywords.words_v4(text)]
    return keywords.terms(text, forms=FORMS and version >= 2)


def document(memory: Memory, version: int) -> list[str]:
    """Every keyword term a memory is indexed under in a store of ``version``."""
    found = words(memory.text, version)
    if version >= 3 and memory.context:
        found += words(context_text(memory.context), version)
    if version >= 4:
        found += topics.terms(memory.text, directive(memory), version)
    return found + facets.of(memory.text, memory.ts, version) if version >= 2 else found


def directive(memory: Memory) -> bool:
    """Whether ``memory`` was captured from an agent's session as a rule the user typed."""
    captured = (memory.extra or {}).get("captured")
    return isinstance(captured, dict) and captured.get("kind") == "directive"


def context_text(context: str) -> str:
    """A memory's context without its leading source file name (``CLAUDE.md > ``, ``x.mdc: ``).

    The file says where the note came from, not what it is about: every note of ``CLAUDE.md``
    would otherwise answer a prompt that names ``CLAUDE.md``.
    """
    return SOURCE_RE.sub("", context, count=1)
