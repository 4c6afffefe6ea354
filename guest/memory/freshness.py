"""Freshness: the project files a memory names, and whether they changed since it was stored.

At memorize the guest picks candidate paths out of the text (:func:`paths`), asks the host for
each one's digest and records those that exist as ``files: {path: sha256}`` in the record. At recall
(and in the hook) a hit whose recorded file changed or vanished is *stale*: it carries the paths, and
its score is multiplied by :data:`STALE_FACTOR` before the final order, so it ranks below an equally
relevant fresh hit -- never dropped. A memory that names no file costs nothing: its record (read
anyway) has no ``files``.

The host serves digests read-only under the reserved namespace: key ``file/<relative path>`` of
``host`` answers ``{"sha256": "<hex>"}`` for a regular file of the project, ``{"exists": false}``
when there is none at that path, and nothing (``none``) when it cannot say: no file access, a path
outside the project or through a link, a file too large to hash. Nothing is *unknown*, never stale.

Candidates are conservative: words (quotes, backticks, brackets and a trailing ``:42`` removed; a
Markdown link's target) that are relative paths with a ``/`` (``src/retry.py``, ``docs/api.md``,
``./bin/run``), file names with an extension that starts with a letter (``setup.py``,
``package.json``) and well-known names without one (``Makefile``, ``Dockerfile``). Never URLs,
absolute or home paths, ``..``, ``@scope/name``, options (``-h/--help``) or version numbers
(``1.2.3``, ``v1.2``); at most :data:`MAX_FILES` per text, so a memorize asks the host at most that
many times. ASCII only: which characters are Unicode word characters depends on the Unicode version
of the interpreter (CPython 3.11 natively, 3.14 in the component), and the two must agree.
"""

from __future__ import annotations

import json
import re

from guest.host import HOST_NS, Host

MAX_FILES = 8
MAX_PATH_CHARS = 255
STALE_FACTOR = 0.9  # a stale hit's score factor: below an equally relevant fresh hit
SEGMENT = r"\.?[A-Za-z0-9_][A-Za-z0-9_.+-]*"  # not "-h", "+/-" or "...x": a word character first
PATH_RE = re.compile(rf"(?:{SEGMENT}/)*{SEGMENT}")  # ASCII only: the same on both targets
LEAD = "`'\"([{<*"  # around a path in prose or Markdown; not "." (a dotfile's)
TRAIL = "`'\")]}>*,;!?."  # "." last: the full stop of a sentence
EXTENSION_RE = re.compile(r"[^.]\.([A-Za-z][A-Za-z0-9]{0,9})$")
DOTFILE_RE = re.compile(r"\.[A-Za-z][\w.-]*")
LETTER_RE = re.compile(r"[A-Za-z]")
NAMES = frozenset(
    """Makefile GNUmakefile Dockerfile Containerfile Justfile Gemfile Rakefile Procfile Vagrantfile
    Jenkinsfile Pipfile Brewfile Caddyfile Tiltfile LICENSE README CHANGELOG CODEOWNERS""".split()
)
NOT_FILES = frozenset({"e.g", "i.e", "etc", "vs", "a.m", "p.m", "et.al"})
DOMAINS = frozenset({"com", "org", "net", "io", "dev", "ai", "co", "edu", "gov", "app"})


def paths(text: str) -> list[str]:
    """The candidate project paths ``text`` names, in order, distinct, at most :data:`MAX_FILES`.

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
            if len(out) == MAX_FILES:
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


def digest(host: Host, path: str) -> str | None:
    """The host's answer for ``path``: its sha256, ``""`` when it does not exist, ``None`` when unknown."""
    raw = host.kv_get(HOST_NS, f"file/{path}")
    if raw is None:
        return None
    try:
        answer = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(answer, dict):
        return None
    if answer.get("exists") is False:
        return ""
    value = answer.get("sha256")
    return value if isinstance(value, str) and value else None


def digests(host: Host, text: str) -> dict[str, str]:
    """``{path: sha256}`` of the files ``text`` names that exist in the project (the host's answer)."""
    found = {}
    for path in paths(text):
        value = digest(host, path)
        if value:
            found[path] = value
    return found


def changed(host: Host, files: dict[str, str] | None) -> list[str]:
    """The recorded files whose digest differs now, or that vanished (unknown answers are not changes)."""
    out = []
    for path, recorded in sorted((files or {}).items()):
        now = digest(host, path)
        if now is not None and now != recorded:
            out.append(path)
    return out
