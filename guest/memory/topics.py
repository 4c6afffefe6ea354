"""What a preference or a rule is about, so that people find it by asking about that (issue 47 item 2).

"Always use pnpm, never npm, in this repo." shares no word with "Which package manager should I
use?". At write time, without a model, a memory that *states* a preference or a rule
(:func:`is_rule`: "I prefer ...", "always ...", "never ...", "don't ...", "we use X, not Y", "my
favourite ...", "stick to ...", an instruction such as "Use httpx ..." or "Deploy only on ...", "I'm
really into ...") and names a member of a topic of the generated lexicon
(:data:`guest.generated.topics.TOPICS`: pnpm, npm, yarn -> package manager) is also indexed
under the topic's names (:func:`terms`): the pnpm rule answers "which package manager". (Version 4
also added the topic's other members; at 18 extra terms a rule's document grew threefold and BM25's
length normalisation sank it below shorter notes that share the question's other words, D213.) A
memory that only mentions pnpm ("pnpm 9 changed the lockfile format") is not a rule and gains
nothing.

The terms are those of a store of terms version 4 (:mod:`guest.memory.rules`); the relevance gate
reads them as part of a hit's evidence too.
"""

from __future__ import annotations

import re

from guest.generated import vocabulary
from guest.generated.topics import TOPICS
from guest.index.keywords import words_v4
from guest.text.stem import stem_form

RULE_RE = re.compile(
    r"\b(?:always|never|prefer|prefers|preferred|preference|favou?rite|must|mustn['\u2019]t|should|"
    r"shouldn['\u2019]t|don['\u2019]t|do not|avoid|instead of|rather than|stick (?:to|with)|"
    r"(?:i|we) (?:only |usually |mostly |now )?(?:use|like|love|want)|not allowed|forbidden|required)\b",
    re.I,
)
# an instruction: a sentence opening with a verb of how things are done ("Use httpx ...", "Deploy only
# on Tuesdays"), or a person's own taste ("I'm really into jazz", "I'm a big fan of Thai food")
IMPERATIVE_RE = re.compile(
    r"(?:^|[.;!?]\s+)(?:please\s+)?(?:use|keep|name|deploy|format|write|put|store|follow|ensure|"
    r"make sure|prefer|only)\b|"
    r"\b(?:i|we)(?:['\u2019]m| am|['\u2019]re| are) (?:really |so |a |a big |a huge )?"
    r"(?:into|fans? of|vegetarian|vegan)\b",
    re.I,
)
# terms version 4's lexicon: each topic as (its name's terms, the set of its members' terms)
LEXICON_V4: tuple[tuple[tuple[str, ...], frozenset[str]], ...] = tuple(
    (tuple(name.split()), frozenset(members.split()))
    for name, members in (entry.strip().split("\n", 1) for entry in vocabulary.TOPICS)
)
# version 5's: each topic as (its names' terms, its members' terms, its members as sets of words)
LEXICON: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[frozenset[str], ...]], ...] = tuple(
    (names, member_terms, tuple(frozenset(member) for member in members))
    for names, member_terms, members in TOPICS
)


def is_rule(text: str, version: int = 5) -> bool:
    """Whether ``text`` states a preference or a rule (its wording: no model; version 4: no instruction)."""
    return RULE_RE.search(text) is not None or (version >= 5 and IMPERATIVE_RE.search(text) is not None)


def terms(text: str, rule: bool = False, version: int = 5) -> list[str]:
    """The terms of what ``text`` is about when it states a preference or a rule (or ``rule``), else none.

    For each topic one of whose members ``text`` names (every word of it, as written or by its term:
    "Tuesdays" names ``tuesday``, "pretty" does not name ``prettier``): the topic's names' terms, in
    the lexicon's order, each once and none that the text holds already.
    A store of terms version 4 keeps its first lexicon (:func:`terms_v4`): what a memory was indexed
    under is what its removal takes out of the index.
    """
    if not (rule or is_rule(text, version)):
        return []
    if version < 5:
        return terms_v4(text)
    words = words_v4(text)
    held = {stem_form(word) for word in words}
    out: dict[str, None] = {}
    for topic in _named(words):  # in the lexicon's order
        out.update(dict.fromkeys(term for term in LEXICON[topic][0] if term not in held))
    return list(out)


def terms_v4(text: str) -> list[str]:
    """Terms version 4's topic terms of a rule (the first lexicon: members met by their terms)."""
    held = {stem_form(word) for word in words_v4(text)}
    out: dict[str, None] = {}
    for name, members in LEXICON_V4:
        if members & held:
            out.update(dict.fromkeys(term for term in (*name, *sorted(members)) if term not in held))
    return list(out)


# what a rule turns away from: the words right after "not", "never", "instead of" ... ("We use yarn
# now, not pnpm": pnpm; "use pnpm, never yarn": yarn; "no more npm")
REJECTS_RE = re.compile(
    r"\b(?:not|never|no more|no longer|instead of|rather than|stop using|avoid|"
    r"(?:don['\u2019]t|do not) use)\s+((?:[\w.+#-]+\s*){1,3})",
    re.I,
)


def stances(text: str) -> dict[int, tuple[frozenset[int], frozenset[int]]]:
    """Per topic ``text`` names members of (by index): the members it endorses and those it rejects.

    A member named right after "not", "never", "instead of" ... is rejected; every other member
    named is endorsed ("We use yarn now, not pnpm": yarn endorsed, pnpm rejected).
    """
    named = _named(words_v4(text))
    rejected = _named([word for hit in REJECTS_RE.finditer(text) for word in words_v4(hit.group(1))])
    out: dict[int, tuple[frozenset[int], frozenset[int]]] = {}
    for topic, members in named.items():
        against = rejected.get(topic, frozenset())
        out[topic] = (members - against, against)
    return out


def _named(words: list[str]) -> dict[int, frozenset[int]]:
    """The members ``words`` name, per topic (every word of a member, as written or by its term)."""
    held = {stem_form(word) for word in words}.union(words)
    found: dict[int, frozenset[int]] = {}
    for topic, (_, _, members) in enumerate(LEXICON):
        hits = frozenset(i for i, member in enumerate(members) if member <= held)
        if hits:
            found[topic] = hits
    return found


def overturns(new: str, old: str) -> bool:
    """Whether the rule ``new`` turns away from a topic's choice the rule ``old`` made, or back.

    ``new`` rejects a member ``old`` endorses, or endorses one ``old`` rejects: the later word on that
    choice wins. "We use yarn now, not pnpm." overturns "We use pnpm, not npm." (and "We use pnpm, not npm."
    overturns it back); "Use pytest, never unittest." does not overturn "Use jest for the frontend
    tests." (neither turns away from what the other chose).
    """
    said = stances(old)
    return any(
        (against & said[topic][0]) or (chosen & said[topic][1])
        for topic, (chosen, against) in stances(new).items()
        if topic in said
    )
