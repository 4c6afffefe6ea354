"""The few Go string functions whose exact behaviour the verbatim archive reproduces (seed 002).

The seed's tools are Go; its parity log pins what Go does, so these are Go's rules,
not Python's look-alikes:

* :func:`trim_space` / :func:`fields` -- ``strings.TrimSpace`` / ``strings.Fields``, with
  ``unicode.IsSpace``. Python's ``str.strip()``/``str.split()`` also treat U+001C..U+001F
  as white space; Go does not.
* :func:`go_lower` -- ``strings.ToLower``: ``unicode.ToLower`` rune by rune, simple
  one-to-one mappings, no context. Python's ``str.lower()`` differs in three ways, each
  pinned here: ``İ`` (U+0130) lowers to ``i`` + U+0307 (Go: ``i``); a final ``Σ`` becomes
  ``ς`` (Go: always ``σ``); CPython 3.14 (Unicode 16) lowers the 27 capitals added in
  Unicode 16, which Go's Unicode 15 tables leave alone. Unicode 15 added no case pair, so
  CPython 3.11 (Unicode 14) needs no other pin.
* :func:`quote` -- ``strconv.Quote``, i.e. ``fmt``'s ``%q``, with Go's ``IsPrint`` from the
  Unicode 15.0 table in :mod:`guest.unicode15` (``str.isprintable`` depends on the
  interpreter's Unicode version; the table makes native and wasm agree with Go).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from guest.generated.unicode15 import PRINT_BOUNDS

# unicode.IsSpace: the Latin-1 spaces plus the other White_Space code points.
SPACES = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" + (
    "\u2028\u2029\u202f\u205f\u3000"
)
FIELD_RE = re.compile("[^" + re.escape(SPACES) + "]+")

# Capitals that Unicode 16 added with a lowercase: Go's Unicode 15 ToLower returns them unchanged.
UNICODE16_CAPITALS = frozenset(
    chr(cp) for cp in (0x1C89, 0xA7CB, 0xA7CC, 0xA7DA, 0xA7DC, *range(0x10D50, 0x10D66))
)
_DOTTED_CAPITAL_I = "\u0130"

_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def trim_space(s: str) -> str:
    """``strings.TrimSpace``: strip Go white space at both ends."""
    return s.strip(SPACES)


def fields(s: str) -> list[str]:
    """``strings.Fields``: the runs of non-space runes."""
    return FIELD_RE.findall(s)


def lower_rune(c: str) -> str:
    """``unicode.ToLower`` of one rune (Unicode 15 semantics on any CPython)."""
    if c == _DOTTED_CAPITAL_I:
        return "i"
    if c in UNICODE16_CAPITALS:
        return c
    lowered = c.lower()
    return lowered if len(lowered) == 1 else c


def go_lower(s: str) -> str:
    """``strings.ToLower``: :func:`lower_rune` applied rune by rune (``Σ`` is always ``σ``)."""
    if s.isascii():
        return s.lower()
    return "".join(lower_rune(c) for c in s)


def is_print(c: str) -> bool:
    """``strconv.IsPrint`` (Unicode 15.0)."""
    cp = ord(c)
    if cp < 0x80:
        return 0x20 <= cp < 0x7F
    return bisect_right(PRINT_BOUNDS, cp) % 2 == 1


def quote(s: str) -> str:
    """``strconv.Quote(s)`` -- what ``fmt.Sprintf("%q", s)`` prints."""
    out = ['"']
    for c in s:
        if c in ('"', "\\"):
            out.append("\\" + c)
        elif is_print(c):
            out.append(c)
        elif c in _ESCAPES:
            out.append(_ESCAPES[c])
        else:
            out.append(_escape(ord(c)))
    out.append('"')
    return "".join(out)


def _escape(cp: int) -> str:
    if cp < 0x20 or cp == 0x7F:
        return f"\\x{cp:02x}"
    if 0xD800 <= cp <= 0xDFFF:  # not a valid rune: Go quotes it as U+FFFD
        cp = 0xFFFD
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"
