"""The relevance gate: whether the store holds evidence for a prompt at all (issue 28, D103).

``auto_recall`` injects nothing unless both tests pass (``recall`` is not gated: it ranks):

* **Coverage.** The best candidate holds at least :data:`MIN_COVERAGE` of the prompt's
  informative weight: each of the recalled text's keyword terms (chat words left out) weighs its
  inverse document frequency in this store, ``log((N + 1) / (df + 0.5))`` but at least
  :data:`MIN_WEIGHT`, and a candidate covers the weight of the terms it contains. A term no memory
  holds weighs the most, so a prompt about something the store never saw scores low against every
  memory; the floor keeps a small store's words from weighing nothing (in a store of three
  memories, "package" in two of them is still evidence against one unknown word); a share, not a
  raw score, so the threshold means about the same at 100 memories and at 1M. A one-letter term
  (the *s* of *it's*, *S/MIME*, *Bob's*) weighs nothing (:data:`MIN_TERM_CHARS`).
* **Names.** A prompt that names someone or something -- a capitalised word not opening a
  sentence (``Caroline``, ``Kubernetes``; not an all-capitals word such as ``LGBTQ`` or a pasted
  key, nor a code identifier with an inner capital such as ``FetchRequest`` or ``IHoverService``,
  which coverage judges alone; months, weekdays and the agents' own names are not names here) --
  that no memory holds is about something else, unless one candidate covers
  :data:`NAMED_COVERAGE` of it all the same ("Hi Sam, how do we deploy the staging database?").

Past the gate each injected hit needs evidence of its own (:meth:`Evidence.covers`, read by
:func:`guest.memory.autorecall.relevant`): it holds an informative term of the prompt -- a chat
word such as *use* is none -- or is very close in meaning. A hit's text is read with its context
(where an imported note stood) and, for a chain's head, the superseded memory that matched.

Measured (``make eval``, D103): on LoCoMo-dev the foreign questions mostly name people of another
conversation, on the dev set's unrelated prompts few terms are shared; the same-domain foreign
prompts of the dev set are the gate's hard case and stay mostly open.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from guest.generated.vocabulary import BACKGROUND
from guest.index import keywords
from guest.memory import autorecall
from guest.text.stem import stem_form

MIN_COVERAGE = 0.2
MIN_WEIGHT = 1.0
BACKGROUND_SHARE = 0.2  # an ordinary coding word ("test", "run", "file") weighs this share of its weight
MIN_TERM_CHARS = 2  # a one-letter term (the s of it's, S/MIME, Bob's; x) is no evidence
NAMED_COVERAGE = 0.5
NAME = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")  # a lower-case letter: not a key, not an acronym
CODE_NAME = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2}[a-z]")  # an inner capital: a code identifier, not a name
OPENERS = "\"'([{<*_`"
CLOSERS = "\"')]}>*_`"
SENTENCE_ENDS = (".", "!", "?", ":")
NOT_NAMES = frozenset(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday
    claude codex gemini copilot""".split()
)
CHAT_TERMS = frozenset(stem_form(word) for word in autorecall.CHAT_WORDS)  # "please", "help": no evidence


@dataclass(frozen=True)
class Evidence:
    """What the gate saw: the best candidate's coverage and the names no memory holds.

    ``weight``: each informative term of the prompt and its weight, for :meth:`covers`.
    """

    coverage: float
    unknown: tuple[str, ...]
    weight: dict[str, float] = field(default_factory=dict, compare=False)
    covered: dict[str, float] = field(default_factory=dict, compare=False)  # of the candidates assessed
    best: str = field(default="", compare=False)  # the text of the candidate that covers the most

    def covers(self, text: str) -> float:
        """The share of the prompt's *distinguishing* weight one candidate's ``text`` holds (0 to 1).

        The distinguishing terms are the informative ones that are not ordinary coding words
        (:data:`guest.generated.vocabulary.BACKGROUND`): "auth" in "what should I run before pushing
        auth changes?", not "run" or "pushing". A prompt made of ordinary words only is read whole.
        """
        return coverage(distinguishing(self.weight), text)

    def opened_by(self) -> dict[str, float]:
        """The prompt's terms the best candidate holds, and their weights (what opened the gate)."""
        held = terms_of(self.best)
        return {term: round(w, 3) for term, w in self.weight.items() if term in held}

    @property
    def passed(self) -> bool:
        """Whether anything may be injected."""
        return self.coverage >= MIN_COVERAGE and (not self.unknown or self.coverage >= NAMED_COVERAGE)

    def why(self) -> str:
        """Why nothing may be injected (``""`` when the gate is open)."""
        if self.passed:
            return ""
        if self.coverage < MIN_COVERAGE:
            best = f"{self.coverage:.0%}"
            return f"no memory holds {MIN_COVERAGE:.0%} of the prompt's informative words (best {best})"
        return f"no memory names {', '.join(self.unknown)}"

    def as_json(self) -> dict[str, Any]:
        """The answer's (and the ledger's) ``evidence``.

        ``words``: the prompt's informative terms and their weights; ``opened_by`` (when the gate is
        open): those the best candidate holds -- the words that opened the gate.
        """
        out: dict[str, Any] = {"coverage": round(self.coverage, 4), "passed": self.passed,
                               "words": {term: round(w, 3) for term, w in self.weight.items()}}
        if self.passed:
            out["opened_by"] = self.opened_by()
        if self.unknown:
            out["unknown_names"] = list(self.unknown)
        if not self.passed:
            out["why"] = self.why()
        return out


def assess(texts: list[str], candidates: Iterable[str], df: Callable[[str], int], docs: int) -> Evidence:
    """The evidence for the recalled ``texts`` (the cleaned prompt, the derived query) in candidates' texts.

    ``df(word)``: how many of the store's ``docs`` memories hold a lower-cased word's term (by the
    store's rules); a word and a candidate meet when their terms with word forms are one
    (``ran`` / ``running``), whatever the store's terms version. Names are read from the
    cleaned prompt only (the derived query is lower-cased): a long prompt is judged on coverage.
    """
    weight = weights(texts, df, docs, CHAT_TERMS)
    covered = {text: coverage(weight, text) for text in candidates}
    best = min(covered, key=lambda text: -covered[text], default="")
    names = tuple(dict.fromkeys(name for text in texts for name in unknown_names(text, df)))
    return Evidence(covered.get(best, 0.0), names, weight, covered, best)


def terms_of(text: str) -> set[str]:
    """The terms of ``text`` as the gate reads them (terms version 5's words, with word forms)."""
    return {stem_form(word) for word in keywords.words_v5(text)}


def coverage(weight: dict[str, float], text: str) -> float:
    """The share of ``weight`` (informative terms and their weights) whose terms ``text`` holds."""
    total = sum(weight.values())
    if total <= 0:
        return 0.0
    held = terms_of(text)
    return sum(w for term, w in weight.items() if term in held) / total


def distinguishing(weight: dict[str, float]) -> dict[str, float]:
    """The terms of ``weight`` that are not ordinary coding words (all of them when every one is)."""
    out = {term: w for term, w in weight.items() if term not in BACKGROUND}
    return out or weight


def weights(texts: list[str], df: Callable[[str], int], docs: int,
            ignored: frozenset[str]) -> dict[str, float]:
    """Each informative term of ``texts`` and its inverse document frequency in the store.

    An ordinary coding word weighs :data:`BACKGROUND_SHARE` of that: shared with a memory, it says
    little about what the prompt asks, even in a small store where it is rare.
    """
    out: dict[str, float] = {}
    for text in texts:
        for word in keywords.words_v5(text):
            term = stem_form(word)
            if term not in out and term not in ignored and len(term) >= MIN_TERM_CHARS:
                weight = max(math.log((docs + 1) / (df(word) + 0.5)), MIN_WEIGHT)
                out[term] = weight * BACKGROUND_SHARE if term in BACKGROUND else weight
    return out


def unknown_names(text: str, df: Callable[[str], int]) -> tuple[str, ...]:
    """The names ``text`` uses (in order, once each) of which no memory holds a term."""
    out: list[str] = []
    starts = True  # the first word opens a sentence
    for word in text.split():
        match = NAME.match(word.lstrip(OPENERS))
        opening, starts = starts, word.rstrip(CLOSERS).endswith(SENTENCE_ENDS)
        if not match or opening:
            continue
        name = match.group()
        if CODE_NAME.search(name):  # FetchRequest, IHoverService: a code identifier, judged on coverage
            continue
        if name in out or name.lower() in NOT_NAMES or name.lower() in keywords.STOP_WORDS:
            continue
        if not df(name.lower()):
            out.append(name)
    return tuple(out)
