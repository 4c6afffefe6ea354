"""gitleaks' default rules (``guest/generated/secrets.py``) run over a note, keyword first (issue 45).

A rule runs only when one of its keywords starts a word of the lower-cased text (or follows a
digit, ``_``, ``-``, ``.`` or any other character that is not a letter: ``MY_ADAFRUIT_KEY``,
``adafruitKey``; not ``myadafruitkey``, where gitleaks, which looks for the keyword anywhere, would
try the rule). The keywords are found in one pass: :class:`Prefilter` is a single pattern of all of
them (and of the project's own rules' literals), factored into a trie and tried only where a word
starts, so a note costs less than the project's ~70 substring searches did before the gitleaks
rules came (``make bench-compare``'s ``redact`` row); a keyword found also stands for the shorter
keywords inside it (``xoxe.xoxb-`` holds ``xoxb``). A rule's pattern is compiled the first time it
runs.

What a rule matched is its *secret* (its group, or the first group that matched, or the whole
match); it is redacted unless it is below the rule's entropy, or one of the rule's or the global
allow-lists clears it (a regex found in the secret, the match or the line; a stopword in the
secret), or it is a placeholder or already holds a marker.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from guest.generated.secrets import ALLOW, RULES

_FLAGS = re.ASCII
_compiled: dict[str, re.Pattern[str]] = {}


def _pattern(source: str) -> re.Pattern[str]:
    found = _compiled.get(source)
    if found is None:
        found = _compiled[source] = re.compile(source, _FLAGS)
    return found


KEYWORDS = tuple(sorted({k for rule in RULES for k in rule[2]}))
_BY_KEYWORD: dict[str, tuple[int, ...]] = {
    word: tuple(i for i, rule in enumerate(RULES) if word in rule[2]) for word in KEYWORDS
}
_ESCAPED = re.compile(r"%[0-9a-f]{2}", _FLAGS)
Trie = dict[str, "Trie"]


def trie(words: list[str]) -> str:
    """One pattern matching any of ``words``, longest first at each branch, as a trie."""
    tree: Trie = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def walk(node: Trie) -> str:
        branches = [re.escape(ch) + walk(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return "(?:" + body + ")?" if "" in node else body

    return walk(tree)



class Prefilter:
    """Which of some lower-case words occur at a word start of a lower-cased text, in one pass.

    A word starts where a letter follows anything but a letter (or a URL-encoded character,
    ``%3dghp_``); a word that does not start with a letter is looked for anywhere (``://``: a
    second trie, which ``re`` also skips to by its first characters). The words that start with
    a letter are one pattern, a trie, behind a non-letter: ``[^a-z](?=(…))`` over the text with a
    space in front. A pattern that starts with a character set lets ``re`` skip to the next
    non-letter in C, so the trie is tried only where a word starts (~20 places in a note), not at
    every character (a lookbehind first made it try every position: 3x the cost, issue 45). A
    word found also stands for the words inside it (``xoxe.xoxb-`` holds ``xoxb``).
    """

    def __init__(self, words: list[str] | tuple[str, ...]) -> None:
        self.words = tuple(sorted(set(words)))
        lettered = [w for w in self.words if "a" <= w[0] <= "z"]
        anywhere = [w for w in self.words if not "a" <= w[0] <= "z"]
        self.pattern = re.compile("[^a-z](?=(" + trie(lettered) + "))", _FLAGS)
        # consuming (a pattern that starts with a lookahead is tried at every character); the next
        # search starts one character on, so one word's match never hides another's start
        self.anywhere = re.compile(trie(anywhere) if anywhere else "(?!)", _FLAGS)
        self.inside = {w: frozenset(v for v in self.words if v in w) for w in self.words}

    def present(self, lowered: str) -> set[str]:
        """The words that occur in ``lowered``."""
        found = set(self.pattern.findall(" " + lowered))
        if "%" in lowered:
            found.update(self.pattern.findall(" " + _ESCAPED.sub(" ", lowered)))
        match = self.anywhere.search(lowered)
        while match is not None:
            found.add(match.group())
            match = self.anywhere.search(lowered, match.start() + 1)
        out: set[str] = set()
        for word in found:
            out.update(self.inside[word])
        return out


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for c in value:
        counts[c] = counts.get(c, 0) + 1
    n = len(value)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def rules_for(present: set[str]) -> list[int]:
    """The indices of the rules one of whose keywords is in ``present``, in table order."""
    wanted: set[int] = set()
    for word in present:
        wanted.update(_BY_KEYWORD.get(word, ()))
    return sorted(wanted)


def _cleared(secret: str, match: str, line: str, allow: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # noqa: E501
             ) -> bool:
    lowered = secret.lower()
    for target, regexes, stopwords in allow:
        where = {"secret": secret, "match": match, "line": line}.get(target, secret)
        if any(_pattern(r).search(where) for r in regexes) or any(w in lowered for w in stopwords):
            return True
    return False


_GLOBAL = (("secret", ALLOW[0], ALLOW[1]),)


def _in_marker(text: str, start: int, stop: int, prefix: str) -> bool:
    """Whether ``text[start:stop]`` overlaps a marker an earlier rule left."""
    opened = text.rfind(prefix, 0, stop)
    return opened >= 0 and text.find("]", opened) >= start


def apply(text: str, present: set[str], mark: str, counts: dict[str, int], prefix: str,
          placeholder: Callable[[str], bool]) -> str:
    """``text`` with what the rules one of whose keywords is in ``present`` find redacted."""
    for index in rules_for(present):
        _rid, kind, _keywords, source, group, needed, allow = RULES[index]
        out: list[str] = []
        end = 0
        for match in _pattern(source).finditer(text):
            g = group or next((i for i in range(1, (match.lastindex or 0) + 1) if match.group(i)), 0)
            if match.group(g) is None:
                continue
            start, stop = match.span(g)
            secret = match.group(g)
            if start < end or not secret or _in_marker(text, start, stop, prefix) or placeholder(secret):
                continue
            if needed and entropy(secret) < needed:
                continue
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", stop)
            line = text[line_start : len(text) if line_end < 0 else line_end]
            if _cleared(secret, match.group(0), line, allow) or _cleared(secret, secret, secret, _GLOBAL):
                continue
            out += [text[end:start], mark.format(kind)]
            end = stop
            counts[kind] = counts.get(kind, 0) + 1
        if out:
            out.append(text[end:])
            text = "".join(out)
    return text
