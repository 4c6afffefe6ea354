"""Which sentences of a typed prompt state a rule: a standing instruction, kept in the user's words.

A rule is what the user wants to hold after this prompt -- "Always run make lint first", "We use pnpm,
not npm", "Don't ever push to main", "From now on, answer in bullet points", "Whenever you change the
schema, write a migration" -- in English and in the common forms of other languages ("Verwende immer
pnpm", "Nunca hagas push a main", "以后请始终使用 pnpm"). Chat is not: a question ("Should we always
run the tests?"), "never mind", a scope that ends ("for now", "for this one test", "this time"), a
one-off choice among what the assistant offered ("Prefer the second option you gave"), a description
("The test always fails on CI", "Always the same error"), quoted text (a ``>`` line, words in quotes
or backticks, code blocks), a hedge ("maybe we should always …").

:func:`verdict` says why a sentence is not a rule (``None``: it is one); :func:`directives` keeps the
rule sentences of a prompt. No model is called: the decision is made from the words in
:mod:`host_harness.capture.rule_words` and where they stand. ``bench/capture_rules.py`` measures it
on a dev set of typed prompts (``make eval``).
"""

from __future__ import annotations

import re

from host_harness.capture import rule_words as w

MAX_DIRECTIVE_CHARS = 400
MIN_DIRECTIVE_WORDS = 3
MIN_CJK_CHARS = 6
FENCE = re.compile(r"```.*?(?:```|$)", re.S)
QUOTE_LINE = re.compile(r"^[ \t]*>.*$", re.M)
SENTENCE_END = re.compile(
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
QUOTED = re.compile(r"`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]|「[^」\n]*」|『[^』\n]*』"
                    r"|(?<![\w])'[^'\n]+'(?![\w])")
BULLET = re.compile(r"^(?:[-*•+]|\d{1,3}[.)])\s+")
LABEL = re.compile(r"^([^,:]{1,30}):\s+")
LABEL_WORDS = 3
FOREIGN_HEAD = 6  # the words of a sentence an "always"/"never" of another language may open


def directives(prompt: str) -> list[str]:
    """The sentences of a typed prompt that state a rule, as typed (trimmed)."""
    return [sentence for sentence in sentences(prompt) if verdict(sentence) is None]


def sentences(prompt: str) -> list[str]:
    """The sentences of ``prompt`` that could be a rule: code blocks and ``>`` quoted lines left out."""
    text = QUOTE_LINE.sub("\n", FENCE.sub("\n", prompt))
    out = []
    for part in SENTENCE_END.split(text):
        sentence = BULLET.sub("", part.strip()).strip()
        if sentence and len(sentence) <= MAX_DIRECTIVE_CHARS and _long_enough(sentence):
            out.append(sentence)
    return out


def verdict(sentence: str) -> str | None:
    """Why ``sentence`` is not a rule ("question", "never mind", "temporary" …); ``None`` when it is one."""
    text = " ".join(sentence.split())
    if text.endswith(("?", "？")) or text.startswith("¿"):
        return "question"
    plain = QUOTED.sub(" Q ", text).replace(", ever,", " ever")
    lowered = " ".join(plain.split()).rstrip(" .!;。！").casefold()
    core = opening(lowered)
    if not _cue(lowered, core):  # most sentences: the costlier checks below are never run
        return "no rule in it"
    return _chat(lowered, core)


def _cue(lowered: str, core: str) -> bool:
    """Whether the sentence words something as a rule does (chat may still be what it is)."""
    if w.CJK.search(core):
        return _cjk_rule(core)
    return bool(w.FROM_NOW_ON.search(lowered) or w.CONVENTION.match(lowered) or _english_rule(core)
                or _foreign_rule(core))


def _chat(lowered: str, core: str) -> str | None:
    """What makes a sentence worded as a rule chat after all; ``None`` when nothing does."""
    if w.NEVER_MIND.search(lowered) or w.NEVER_MIND_CJK.search(lowered):
        return "never mind"
    scoped = w.FROM_NOW_ON.sub(" ", lowered)  # "from today on" is no scope that ends
    if w.TEMPORARY.search(scoped) or w.TEMPORARY_CJK.search(scoped):
        return "temporary"
    if w.REPORTED_SPEECH.search(lowered):
        return "someone else's words"
    if w.HEDGE.search(lowered):
        return "hedged"
    if w.CHOICE.search(lowered) or w.CHOSEN.match(core):
        return "a one-off choice"
    if w.ASKS.match(core) or w.ASKS_WHEN_FOLLOWED.match(core):
        return "question"
    return None


def opening(lowered: str) -> str:
    """``lowered`` without what opens it and changes nothing: "also, please", "important:", "btw"."""
    core = lowered
    while True:
        stripped = w.LEAD.sub("", core, count=1)
        label = LABEL.match(stripped)
        if label and len(label.group(1).split()) <= LABEL_WORDS and not w.REPORTED.search(label.group(1)):
            stripped = stripped[label.end() :]
        if stripped == core:
            return core
        core = stripped


def _english_rule(core: str) -> bool:
    if (found := w.IMPERATIVE.match(core)) is not None:
        word, then = found.group(1).strip(",.;:!"), found.group(2).strip(",.;:!")
        return _acts(word) and not (word in w.INVERTED and then in w.PRONOUNS)  # not "Never have I seen"
    if (found := w.WE.match(core)) is not None:
        adverb, verb = found.group(1), found.group(2).strip(",.")
        return adverb in ("prefer", "use", "keep", "avoid") or (verb not in w.HAPPENS and _acts(verb))
    if (found := w.REMEMBER.match(core)) is not None:
        if found.group(1) == "to":
            return True
        clause = found.group(2)  # "remember that <clause>": a fact to keep, not "that file I mentioned"
        return w.SHARED_PAST.search(clause) is None and w.CLAUSE_VERB.search(clause) is not None
    if (found := w.WHENEVER.match(core)) is not None:
        return found.group(1).strip(",.") not in w.NOT_IMPERATIVE
    return bool(
        w.MODAL.search(core)
        or w.USE_NOT.match(core)
        or w.CONTRAST.match(core)
        or w.EVER_AFTER.match(core)
        or w.STANDING.match(core)
        or w.QUANTIFIED.match(core)
        or w.CONDITION_THEN.match(core)
        or w.SCOPE.match(core)
        or w.CONVENTION.match(core)
    )


def _acts(word: str) -> bool:
    """Whether the word after "always"/"never" can be what the user wants done (not "the", "seen")."""
    word = word.strip(",.;:!")
    if word in w.NOT_AN_ACTION:
        return False
    return not (word.endswith("ed") and len(word) >= 4 and not word.endswith("eed"))


def _foreign_rule(core: str) -> bool:
    """"Verwende immer …", "Nunca hagas …", "Ne pousse jamais …", "Wir verwenden immer …"."""
    head = core[:120].replace("her zaman", "her_zaman").replace("hiçbir zaman", "hiçbir_zaman")
    words = [token.strip(",.;:!") for token in head.split(None, FOREIGN_HEAD)[:FOREIGN_HEAD]]
    if w.ALWAYS_NEVER.isdisjoint(words) or words[0] in w.ARTICLES:
        return False
    at = next(i for i, word in enumerate(words) if word in w.ALWAYS_NEVER)
    before = [word for word in words[:at] if word not in w.NEGATION]
    allowed = 2 if words[0] in w.WE_WORDS else 1
    if len(before) > allowed:
        return False
    after = [word for word in words[at + 1 : at + 3] if word not in w.NEGATION]
    return not (after and w.DESCRIBES_RU.search(after[0]) and w.CYRILLIC.search(after[0]))


def _cjk_rule(core: str) -> bool:
    """Japanese, Chinese, Korean: "from now on" or "always"/"never" with a request ("请", "ください")."""
    return bool((w.FROM_NOW_ON_CJK.search(core) or w.ALWAYS_CJK.search(core)) and w.ORDER_CJK.search(core))


def _long_enough(sentence: str) -> bool:
    if len(sentence.split()) >= MIN_DIRECTIVE_WORDS:
        return True
    return len(w.CJK.findall(sentence)) >= MIN_CJK_CHARS
