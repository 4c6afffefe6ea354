"""Secrets given by name: ``password=…``, ``"api_key": "…"``, ``TOKEN: …``, ``--secret …``.

A *key* is a run of ``[A-Za-z0-9_.-]`` holding one of the secret words; it names a secret when its
last word (split at ``_ . -`` and camel case) is ``password``/``passwd``/``passphrase``/``pass``
(or ends so: ``PGPASSWORD``), ``secret``, ``token`` or ``pwd`` after another word (``MYSQL_PWD``;
``PWD`` alone is the working directory), or ``key`` after ``api``, ``secret``, ``access``,
``private``, ``auth``, ``client``, ``master``, ``encryption``, ``signing``. ``token_type``,
``max_tokens``, ``password_file`` and ``tokenizer`` name no secret.

The value follows ``=``, ``:``, ``:=`` or ``=>`` (or white space after a ``--flag``):

* quoted (``"…"``, ``'…'``, backticks, on one line): redacted unless it is a placeholder
  (:func:`placeholder`) or reads as a sentence (three words or more, except after ``passphrase``);
* after ``passphrase`` (``passphrase: correct horse battery staple``), unquoted: the rest of the line;
* unquoted (up to white space or ``" ' ` , ; & ( ) [ ] { } < > |``): redacted unless it is a
  placeholder, or reads as code -- followed by ``(``; or after a spaced ``=`` a (dotted) name or a
  number, unless the key is an upper-case variable (``DB_PASSWORD = hunter2``: a ``.env`` line);
  after ``:`` only when it ends its line or its quoted argument (``password: hunter2``,
  ``-H 'x-api-key: 55aa'``, not ``token: the one to use``).

A key that is an ARN's resource type (``arn:aws:secretsmanager:…:secret:prod/db``) names no secret.

The kinds: ``password``, ``secret`` (also ``secret_key``, ``private_key``, ``access_key`` …),
``token`` and ``api-key``.
"""

from __future__ import annotations

import re

PREFIX = "[REDACTED:"
_SECRET_WORD = (
    r"(?:pass|pwd|secret|token|api[-_.]?key|(?:access|auth|private|master|encryption|signing|preshared)[-_.]?key)"
)
# A secret word, the rest of its key, an operator: where an assignment may be (the key's start and
# kind are worked out afterwards, only for these few places).
# Matched in the lower-cased text (a case-insensitive pattern scans ~4x slower).
ASSIGNMENT = re.compile(_SECRET_WORD + r"[a-z0-9_.-]*[\"']?[ \t]*(?::=|=>|=|:)", re.ASCII)
FLAG = re.compile(r"(?<![^\s\"'(])--?[a-z0-9_.]*" + _SECRET_WORD + r"[a-z0-9_.-]*[ \t]+(?=[^\s-])", re.ASCII)
WORDS_IN = ("pass", "pwd", "secret", "token", "key")
KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", re.ASCII)
OPERATORS = (":=", "=>", "=", ":")
QUOTES = "\"'`"
UNQUOTED = re.compile(r"[^\s\"'`,;&()\[\]{}<>|]{1,512}", re.ASCII)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|[0-9]+", re.ASCII)
UPPER_KEY = re.compile(r"[A-Z0-9_]+", re.ASCII)
VARIABLE = re.compile(r"\$\{?[A-Za-z_]|%\(?[A-Za-z_]|\{\{|<[^>]*>$|\$\(", re.ASCII)
KEYS_BEFORE_KEY = frozenset(
    {"api", "secret", "access", "private", "auth", "client", "master", "encryption", "signing", "preshared"}
)
ENDINGS = (
    ("password", "password"), ("passwd", "password"), ("passphrase", "password"), ("token", "token"),
    ("secret", "secret"), ("apikey", "api-key"), ("secretkey", "secret"), ("accesskey", "secret"),
    ("privatekey", "secret"),
)
PLACEHOLDERS = frozenset(
    "none null nil true false undefined required optional string str bytes int bool value secret "
    "password token xxx yyy changeme example redacted hidden empty".split()
)


def kind_of(key: str) -> str | None:
    """The kind of secret ``key`` names, or ``None``."""
    words = [w.lower() for w in WORDS.findall(key)]
    if not words:
        return None
    last = words[-1]
    if last == "key" and len(words) > 1 and words[-2] in KEYS_BEFORE_KEY:
        return "api-key" if words[-2] == "api" else "secret"
    if last == "pass" or (last == "pwd" and len(words) > 1):
        return "password"
    for ending, kind in ENDINGS:
        if last.endswith(ending):
            return kind
    return None


def placeholder(value: str) -> bool:
    """Whether a value stands for a secret instead of being one (``${DB_PASSWORD}``, ``***``, ``<token>``)."""
    stripped = value.strip()
    if len(stripped) < 3 or PREFIX in stripped:
        return True
    if len(set(stripped)) == 1 or VARIABLE.match(stripped):
        return True
    return stripped.lower().strip(".") in PLACEHOLDERS


def redact(text: str, mark: str, lowered: str | None = None) -> tuple[str, dict[str, int]]:
    """``text`` with every named secret's value replaced by ``mark.format(kind)``; counts by kind.

    ``lowered``: ``text.lower()`` when the caller has it.
    """
    counts: dict[str, int] = {}
    lowered = text.lower() if lowered is None else lowered
    if not any(word in lowered for word in WORDS_IN):
        return text, counts
    if len(lowered) != len(text):  # a character lower-cased to two: positions would not match
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    found: dict[int, tuple[int, int, str]] = {}  # by the value's start
    candidates = [m.start() for m in ASSIGNMENT.finditer(lowered)]
    if "-" in text:
        candidates += [m.start() for m in FLAG.finditer(lowered)]
    for position in candidates:
        start = end = position
        while start > 0 and text[start - 1] in KEY_CHARS:
            start -= 1
        if start > 0 and text[start - 1] == "\\" and text[start : start + 1] in ("n", "t", "r"):
            start += 1  # a JSON or quoted line break: ``…\napi_key: X`` is ``api_key``
        while end < len(text) and text[end] in KEY_CHARS:
            end += 1
        key = text[start:end]
        if start > 0 and text[start - 1] == ":" and "arn:" in _word_before(lowered, start):
            continue  # an ARN's resource type (``arn:aws:secretsmanager:…:secret:prod/db``): a name
        kind = kind_of(key)
        span = _value(text, key, end) if kind is not None else None
        if span is not None and kind is not None:
            found[span[0]] = (*span, kind)
    if not found:
        return text, counts
    out, last = [], 0
    for start, stop, kind in sorted(found.values()):
        if start < last:
            continue
        out += [text[last:start], mark.format(kind)]
        last = stop
        counts[kind] = counts.get(kind, 0) + 1
    out.append(text[last:])
    return "".join(out), counts


def _value(text: str, key: str, pos: int) -> tuple[int, int] | None:
    """The span of the secret assigned to ``key`` (which ends at ``pos``), if there is one."""
    n = len(text)
    if pos < n and text[pos] in "\"'":
        pos += 1  # the closing quote of a quoted key
    before = pos
    while pos < n and text[pos] in " \t":
        pos += 1
    spaced = pos > before
    op = next((o for o in OPERATORS if text.startswith(o, pos)), None)
    if op is None:
        if not (key.startswith("-") and pos > before and pos < n and text[pos] not in "\n\r"):
            return None
        op = " "
    else:
        if text[pos + len(op) : pos + len(op) + 1] in ((":", "/") if op == ":" else ("=",)):
            return None  # C++ scope, a URL scheme, a comparison
        pos += len(op)
    spaced = spaced or (pos < n and text[pos] in " \t")
    while pos < n and text[pos] in " \t":
        pos += 1
    if pos >= n:
        return None
    if text[pos] in QUOTES:
        close = _closing(text, pos)
        if close is None:
            return None
        value = text[pos + 1 : close]
        words = len(value.split())
        if placeholder(value) or (words >= 3 and not key.lower().endswith("passphrase")):
            return None
        return pos + 1, close
    if key.lower().endswith("passphrase") and op != " ":
        line_end = text.find("\n", pos)
        stop = len(text) if line_end < 0 else line_end
        while stop > pos and text[stop - 1] in " \t\r":
            stop -= 1
        return None if placeholder(text[pos:stop]) else (pos, stop)  # words, to the end of the line
    match = UNQUOTED.match(text, pos)
    if match is None:
        return None
    value, stop = match.group(), match.end()
    if placeholder(value) or text[stop : stop + 1] == "(":
        return None
    rest = text[stop:].split("\n", 1)[0].strip()
    if op == ":" and text[stop : stop + 1] not in ("'", '"') and rest not in ("", ",", "}", "},"):
        return None  # prose after a colon, not a value (a header in a quoted argument ends at its quote)
    code = spaced and op in ("=", ":=", "=>") and NAME.fullmatch(value)
    if code and not UPPER_KEY.fullmatch(key.strip("-")):
        return None  # code: ``token = next_token``
    return pos, stop


def _word_before(lowered: str, end: int) -> str:
    """The white-space-delimited word of ``lowered`` that ends at ``end``."""
    return lowered[max(lowered.rfind(c, 0, end) for c in " \t\n\"'") + 1 : end]


def _closing(text: str, pos: int) -> int | None:
    """The index of the quote closing the one at ``pos`` on the same line (backslash escapes)."""
    quote = text[pos]
    i = pos + 1
    limit = min(len(text), pos + 514)
    while i < limit:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == quote:
            return i
        if c == "\n":
            return None
        i += 1
    return None
