"""Secrets whose extent a pattern alone gets wrong, read by parsing their form (issue 45, item 4).

Each finder yields ``(start, stop, kind)`` spans of ``text``; :func:`spans` runs those whose
literal is present. The forms:

* a URL's password holding ``@`` (``postgres://app:p@ssW0rd!x@db…``): the user info ends at the
  last ``@`` of the authority that a host follows, not at the first;
* a YAML key that names a secret with its value on the next, more indented line, or in a block
  scalar (``password: >-`` then the lines of the block);
* an XML element that names a secret (``<password>…</password>``, ``<storePass>``);
* a connection string's password (JDBC, ODBC, ADO.NET: ``password=Wz8 k3Lp!q;``, ``Pwd={a;b}``): the
  whole value up to ``;``, the quote or the line's end, spaces included;
* a JWT split over two lines (a line break, with a ``\\`` or indentation, inside or between its parts);
* a PuTTY key's private lines and MAC, an OpenVPN static key or inline ``<tls-auth>``/``<key>`` block.

:func:`unescaped` handles JSON's ``\\/`` (a Slack webhook pasted from JSON): a run of text holding it
is redacted as its unescaped form would be.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from guest.screening import assignments

_F = re.ASCII
_FI = re.ASCII | re.IGNORECASE
Span = tuple[int, int, str]

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,20}://([^\s:/?#@'\"<>]*):", _F)
_AUTHORITY_END = re.compile(r"[\s'\"<>]", _F)
_HOST = re.compile(r"[A-Za-z0-9\[][A-Za-z0-9.\-\[\]:]*(?=[/?#\s'\"<>),;]|$)", _F)
_INNER_HOST = re.compile(r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::[0-9]+)?[/?#]", _F)
_PORT = re.compile(r"[0-9]{1,5}(?:[/?#]|$)", _F)


def url_passwords(text: str) -> Iterator[Span]:
    """The password of ``scheme://user:PASSWORD@host``, ``@`` in the password included."""
    for match in _URL.finditer(text):
        start = match.end()
        end_m = _AUTHORITY_END.search(text, start)
        end = end_m.start() if end_m else len(text)
        at = text.rfind("@", start, end)
        while at > start:
            password = text[start:at]
            if _HOST.match(text, at + 1) and not _INNER_HOST.search(password):
                if not (assignments.placeholder(password) or _PORT.match(password) or "://" in password):
                    yield start, at, "url-credentials"
                break
            at = text.rfind("@", start, at)


_YAML_KEY = re.compile(r"^([ \t]*)(?:- )?[\"']?([A-Za-z0-9_.-]+)[\"']?[ \t]*:[ \t]*([|>][-+]?)?[ \t]*(?:#.*)?$",  # noqa: E501
                       _F | re.MULTILINE)


def yaml_values(text: str) -> Iterator[Span]:
    """A secret key's value on the next, more indented lines (a plain or a block scalar)."""
    for match in _YAML_KEY.finditer(text):
        kind = assignments.kind_of(match.group(2))
        if kind is None:
            continue
        indent = len(match.group(1).expandtabs())
        pos = match.end() + 1
        first = last = None
        while pos < len(text):
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            line = text[pos:line_end]
            stripped = line.strip()
            if stripped and len(line) - len(line.lstrip()) <= indent:
                break
            if stripped:
                if first is None:
                    if match.group(3) is None and (stripped.startswith(("- ", "#"))
                                                   or re.match(r"[\"']?[\w.-]+[\"']?[ \t]*:(?:\s|$)", stripped)):  # noqa: E501
                        break  # a list or a mapping under the key: its own keys are read as assignments
                    first = pos + len(line) - len(line.lstrip())
                last = pos + len(line.rstrip())
                if match.group(3) is None:
                    break  # a plain scalar on the next line: that line
            pos = line_end + 1
        if first is not None and last is not None:
            value = text[first:last].strip("\"'")
            if not assignments.placeholder(value):
                yield first, last, kind


_XML = re.compile(r"<([A-Za-z_][\w.:-]*)(?:\s[^<>]*)?>([^<>\n]{1,512})</\1\s*>", _F)


def xml_elements(text: str) -> Iterator[Span]:
    """The text of an element whose name names a secret (``<password>…</password>``)."""
    for match in _XML.finditer(text):
        name = match.group(1).split(":")[-1]
        kind = assignments.kind_of(name) or ("password" if name.lower().endswith(("pass", "pwd")) else None)
        value = match.group(2)
        if kind and not assignments.placeholder(value) and value.strip():
            yield match.start(2), match.end(2), kind


_CONN = re.compile(r"(?:^|[;\s\"'?&])(password|pwd|passwd|pass|user[ _]?password)[ \t]*=[ \t]*"
                   r"(\{[^}\n]{1,256}\}|[^;\n\"'&]{1,256})", _FI | re.MULTILINE)


def connection_passwords(text: str) -> Iterator[Span]:
    """``password=…`` in a ``;`` or ``&`` separated connection string: the whole value."""
    for match in _CONN.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line = text[line_start : len(text) if line_end < 0 else line_end]
        if ";" not in line and not re.search(r"jdbc:|odbc|driver=|server=|data source=", line, _FI):
            continue
        value = match.group(2).rstrip()
        if not value or assignments.placeholder(value.strip("{}")):
            continue
        yield match.start(2), match.start(2) + len(value), "password"


_JWT_BREAK = r"(?:\\?\r?\n[ \t]*)"
_JWT = re.compile(r"(?<![A-Za-z0-9_-])eyJ(?:[A-Za-z0-9_-]|" + _JWT_BREAK + r"(?=[A-Za-z0-9_-]))+"
                  r"(?:\.|" + _JWT_BREAK + r"\.|\." + _JWT_BREAK + r")"
                  r"(?:[A-Za-z0-9_-]|" + _JWT_BREAK + r"(?=[A-Za-z0-9_-]))+"
                  r"(?:\.|" + _JWT_BREAK + r"\.|\." + _JWT_BREAK + r")"
                  r"[A-Za-z0-9_-]{8,}(?:" + _JWT_BREAK + r"[A-Za-z0-9_-]{8,}(?=\s|$))?", _F)


def split_jwts(text: str) -> Iterator[Span]:
    """A JWT with a line break inside or between its parts."""
    for match in _JWT.finditer(text):
        if "\n" in match.group():
            yield match.start(), match.end(), "jwt"


_PUTTY = re.compile(r"^Private-Lines:[ \t]*\d+\r?\n(?:[A-Za-z0-9+/=]+(?:\r?\n|\Z))+(?:Private-MAC:[ \t]*[0-9a-fA-F]+)?",  # noqa: E501
                    _F | re.MULTILINE)
_OVPN = re.compile(r"-----BEGIN OpenVPN Static key V1-----.*?(?:-----END OpenVPN Static key V1-----|\Z)"
                   r"|<(tls-auth|tls-crypt|tls-crypt-v2|key|secret)>.*?(?:</\1>|\Z)", _F | re.DOTALL)


def key_blocks(text: str) -> Iterator[Span]:
    """PuTTY private lines, OpenVPN static keys and inline key blocks."""
    for pattern in (_PUTTY, _OVPN):
        for match in pattern.finditer(text):
            yield match.start(), match.end(), "private-key"


# Gates: a necessary part of each named form, as a pattern that starts with literals (``re`` skips
# to them in C), so an ordinary note with "key" or a line break in it runs no finder (issue 45).
_SECRET_END = r"(?:pass|passwd|password|passphrase|pwd|token|secret|key)"
_YAML_GATE = re.compile(_SECRET_END + r"[a-z0-9_.-]*[\"']?[ \t]*:[ \t]*(?:[|>][-+]?)?[ \t]*(?:#[^\n]*)?\r?\n",
                        _F)
_XML_GATE = re.compile(_SECRET_END + r"\s*>", _F)
_CONN_GATE = re.compile(r"(?:password|pwd|passwd|pass)[ \t]*=", _F)


def spans(text: str, lowered: str) -> list[Span]:
    """Every span the finders whose literals occur in ``text`` find, sorted, overlaps dropped.

    A finder runs only when its literal is there, and for the named forms a gate: the secret word
    that ends a key, and the form's own punctuation after it (``password:`` at a line's end for
    YAML, ``password>`` for XML, ``password=`` for a connection string).
    """
    found: list[Span] = []
    if "://" in text and "@" in text:
        found.extend(url_passwords(text))
    if "eyJ" in text:
        found.extend(split_jwts(text))
    if "Private-Lines" in text or "OpenVPN" in text or "<tls-" in text or "<key>" in text:
        found.extend(key_blocks(text))
    if "\n" in text and _YAML_GATE.search(lowered):
        found.extend(yaml_values(text))
    if "</" in text and _XML_GATE.search(lowered):
        found.extend(xml_elements(text))
    if "=" in text and _CONN_GATE.search(lowered):
        found.extend(connection_passwords(text))
    if not found:
        return found
    found.sort()
    out: list[Span] = []
    for span in found:
        if out and span[0] < out[-1][1]:
            continue
        out.append(span)
    return out


_ESCAPED_RUN = re.compile(r"[^\s\"'<>]*\\/[^\s\"'<>]*", _F)


def unescaped(text: str, redact: Callable[[str], tuple[str, dict[str, int]]], counts: dict[str, int]) -> str:
    """``text`` with each run holding JSON's ``\\/`` redacted as its unescaped form is."""
    if "\\/" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        plain = match.group().replace("\\/", "/")
        out, found = redact(plain)
        if not found:
            return match.group()
        for kind, n in found.items():
            counts[kind] = counts.get(kind, 0) + n
        return out.replace("/", "\\/")

    return _ESCAPED_RUN.sub(one, text)
