"""The project paths a text names: one extractor for every reader (freshness, facets).

Candidates are conservative: words (quotes, backticks, brackets and a trailing ``:42`` removed; a
Markdown link's target) that are relative paths with a ``/`` (``src/retry.py``, ``docs/api.md``,
``./bin/run``), file names with an extension that starts with a letter (``setup.py``,
``package.json``), dotfiles (``.env``) and well-known names without an extension (``Makefile``,
``Dockerfile``). Never URLs, absolute or home paths, ``..``, ``@scope/name``, options
(``-h/--help``) or version numbers (``1.2.3``, ``v1.2``); at most :data:`MAX_PATHS` per text.

ASCII only, scanned word by word (split at white space): which characters are Unicode word
characters depends on the Unicode version of the interpreter (CPython 3.11 natively, 3.14 in the
component), and the two targets must give the same answer; a path with a non-ASCII character
(``café/menü.py``) is no candidate. Most words hold neither ``/`` nor ``.`` nor a well-known name,
and cost a few substring tests and one set lookup.
"""

from __future__ import annotations

import re

MAX_PATHS = 8
MAX_PATH_CHARS = 255
SEGMENT = r"\.?[A-Za-z0-9_][A-Za-z0-9_.+-]*"  # not "-h", "+/-" or "...x": a word character first
PATH_RE = re.compile(rf"(?:{SEGMENT}/)*{SEGMENT}")  # ASCII only: the same on both targets
LEAD = "`'\"([{<*"  # around a path in prose or Markdown; not "." (a dotfile's)
TRAIL = "`'\")]}>*,;!?."  # "." last: the full stop of a sentence
EXTENSION_RE = re.compile(r"[^.]\.([A-Za-z][A-Za-z0-9]{0,9})$")
DOTFILE_RE = re.compile(r"\.[A-Za-z][A-Za-z0-9_.-]*")
LETTER_RE = re.compile(r"[A-Za-z]")
NAMES = frozenset(
    """Makefile GNUmakefile Dockerfile Containerfile Justfile Gemfile Rakefile Procfile Vagrantfile
    Jenkinsfile Pipfile Brewfile Caddyfile Tiltfile LICENSE README CHANGELOG CODEOWNERS""".split()
)
NOT_FILES = frozenset({"e.g", "i.e", "etc", "vs", "a.m", "p.m", "et.al"})
DOMAINS = frozenset({"com", "org", "net", "io", "dev", "ai", "co", "edu", "gov", "app"})


def paths(text: str) -> list[str]:
    """The candidate project paths ``text`` names, in order, distinct, at most :data:`MAX_PATHS`.

    Word by word (split at white space): most words hold neither ``/`` nor ``.`` nor a well-known
    name, and cost a few substring tests and one set lookup.
    """
    out: list[str] = []
    for word in text.split():
        if "/" not in word and "." not in word and word.strip(LEAD + TRAIL) not in NAMES:
            continue
        path = _path(word)
        if path and path not in out and len(path) <= MAX_PATH_CHARS and _plausible(path):
            out.append(path)
            if len(out) == MAX_PATHS:
                break
    return out


def _path(word: str) -> str | None:
    """The path a word may be: quotes, brackets, a trailing ``:42`` and a leading ``./`` removed.

    A Markdown link's target is the path (``[the API](docs/api.md)``).
    """
    if "://" in word or "\\" in word:
        return None
    token = word.rpartition("](")[2].lstrip(LEAD).rstrip(TRAIL).split(":", 1)[0].rstrip(TRAIL)
    if token.startswith("./"):
        token = token[2:]
    if token.startswith(("/", "~", "@", "www.")) or not PATH_RE.fullmatch(token):
        return None
    return token


def _plausible(path: str) -> bool:
    """A path with a ``/``, a file name with a real extension, or a well-known file name."""
    if any(part in ("", ".", "..") for part in path.split("/")) or not LETTER_RE.search(path):
        return False
    if "/" in path or path in NAMES or DOTFILE_RE.fullmatch(path):
        return True
    if path.lower() in NOT_FILES:
        return False
    match = EXTENSION_RE.search(path)
    return match is not None and match.group(1).lower() not in DOMAINS
