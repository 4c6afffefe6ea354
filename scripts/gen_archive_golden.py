"""Regenerate ``tests/data/golden/archive_calls.json``: the verbatim archive's call log (seed 002).

Like the seed's parity log: archive 40 varied blocks (Unicode accents and case, tags and
entities, an empty block, long first lines, twenty-five similar blocks), then record what
each call of the log answers. ``tests/guest/test_archive.py`` replays the log on both targets.

The log pins behaviour: after regenerating, READ the diff and check every changed text by
hand against the rules in ``guest/archive/search.py`` and ``guest/archive/verbs.py``::

    .venv/bin/python scripts/gen_archive_golden.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_harness.services import HostServices, ManualClock  # noqa: E402
from host_harness.targets.native import NativeGuest  # noqa: E402

OUT = ROOT / "tests" / "data" / "golden" / "archive_calls.json"
START_MS = 1_700_000_000_000
STEP_MS = 60_000

LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt " * 4

BLOCKS: list[dict[str, Any]] = [
    {
        "label": "Café crème recipe",
        "content": "Faire chauffer le LAIT, ajouter le café.\nServir la CRÈME à part.",
    },
    {"label": "ÉLÈVES et écoles", "content": "Liste des élèves de l'École Ÿvonne : ÀNGEL, Ëmile, Øyvind."},
    {"label": "Turkish city notes", "content": "İSTANBUL and İzmir; also the dotless ı in kırmızı."},
    {"label": "Greek notes", "content": "ΣΟΦΙΑ means wisdom; σοφία in lower case. ΟΔΥΣΣΕΥΣ returns."},
    {"label": "German street", "content": "Die Straße heißt STRASSE in Großbuchstaben."},
    {
        "label": "Kelvin temperatures",
        "content": "Water boils at 373 \u212a; the Kelvin sign \u212a is not K.",
    },
    {
        "label": "HTML snippet <div>",
        "content": '<div class="note">Tom &amp; Jerry &lt;3</div>\n<p>Caf&eacute; &#233;</p>\n',
    },
    {"label": "Empty block", "content": ""},
    {"label": "Whitespace only", "content": "   \n\t\n  "},
    {"label": "Long first line", "content": LOREM.strip() + "\nSecond line.\n"},
    {"label": "Long accented line", "content": "déjà vu, " * 30},
    {"label": "snake_case fields", "content": "user_id and order_total are columns; see snake_case_names."},
    {
        "label": "Punctuation soup",
        "content": "C++, C#, node.js & Objective-C!!! (v2.0) -- e-mail: ops@example.com",
    },
    {"label": "Division sign", "content": "Compute 10÷2 and 3×4.\r\nDone."},
    *(
        {
            "label": f"Deploy log {i:02d}",
            "content": f"Deployment {i:02d} of the payments service finished.\n"
            + ("Database migration applied.\n" if i % 5 == 0 else "")
            + f"Rollback plan: redeploy build {100 + i}.",
        }
        for i in range(1, 26)
    ),
    {"content": "   \n  Quoted \"id\" note: the id \"r7\" was cited as recall:r7.\nMore text."},
]

R = "archive_recall"
S = "archive_search"
CALLS: list[tuple[str, str, Any]] = [
    # recall: id absent, non-text, blank
    ("recall: id absent", R, {}),
    ("recall: empty body (id absent)", R, ""),
    ("recall: id null", R, {"id": None}),
    ("recall: id is a number", R, {"id": 7}),
    ("recall: id is an array", R, {"id": ["r1"]}),
    ("recall: id is blank", R, {"id": "   "}),
    ("recall: id is Go white space only", R, {"id": "\u3000\t\x85"}),
    ("recall: U+001C is not Go white space", R, {"id": "\x1c"}),
    # prefix and space variants
    ("recall: r prefix", R, {"id": "r1"}),
    ("recall: R prefix", R, {"id": "R2"}),
    ("recall: no prefix", R, {"id": "3"}),
    ("recall: spaces around", R, {"id": "  r7  "}),
    ("recall: space after the prefix", R, {"id": " r 7 "}),
    ("recall: r then R", R, {"id": "rR7"}),
    ("recall: R then r is malformed", R, {"id": "Rr7"}),
    ("recall: two r is malformed", R, {"id": "rr7"}),
    ("recall: trailing newline is trimmed", R, {"id": "r7\n"}),
    ("recall: NBSP is Go white space", R, {"id": "r\u00a07"}),
    ("recall: NEL before the prefix", R, {"id": "\x85r7"}),
    ("recall: raw text body", R, "r10"),
    # leading zeros
    ("recall: leading zeros", R, {"id": "r007"}),
    ("recall: many leading zeros", R, {"id": "r" + "0" * 30 + "7"}),
    # malformed, negative, plus sign, zero, absent, huge
    ("recall: letters after digits", R, {"id": "r7a"}),
    ("recall: r alone", R, {"id": "r"}),
    ("recall: negative after prefix", R, {"id": "r-7"}),
    ("recall: negative", R, {"id": "-7"}),
    ("recall: plus sign", R, {"id": "r+7"}),
    ("recall: underscore", R, {"id": "r1_0"}),
    ("recall: full-width digit", R, {"id": "７"}),
    ("recall: zero", R, {"id": "r0"}),
    ("recall: absent block", R, {"id": "r999"}),
    ("recall: largest 64-bit id, absent", R, {"id": "r18446744073709551615"}),
    ("recall: 2^64 overflows", R, {"id": "r18446744073709551616"}),
    ("recall: huge", R, {"id": "r99999999999999999999999999999999"}),
    # quotes and other characters in the id
    ("recall: double quotes in the id", R, {"id": 'r"7"'}),
    ("recall: quoted id", R, {"id": '"r7"'}),
    ("recall: single quotes in the id", R, {"id": "r'7'"}),
    ("recall: backslash in the id", R, {"id": "r\\7"}),
    ("recall: tab inside the id", R, {"id": "r\t7x"}),
    ("recall: control characters", R, {"id": "r\x017\x07\x7f"}),
    ("recall: zero-width space", R, {"id": "r\u200b7"}),
    ("recall: byte order mark", R, {"id": "\ufeffr7"}),
    ("recall: emoji and accents kept", R, {"id": "r7🙂é"}),
    # blocks verbatim
    ("recall: tags and entities verbatim", R, {"id": "r7"}),
    ("recall: empty block", R, {"id": "r8"}),
    ("recall: whitespace-only block", R, {"id": "r9"}),
    ("recall: CRLF kept", R, {"id": "r14"}),
    ("recall: derived label", R, {"id": "r40"}),
    ("recall: recall verb with an id", "recall", {"id": "r1"}),
    ("recall: recall verb, absent block", "recall", {"id": "r999"}),
    ("recall: recall verb, malformed id", "recall", {"id": "x"}),
    ("recall: another store has no r1", R, {"id": "r1", "namespace": "frontend"}),
    # recall_search: query absent, non-text, blank
    ("search: query absent", S, {}),
    ("search: query null", S, {"query": None}),
    ("search: query is a number", S, {"query": 42}),
    ("search: query is an object", S, {"query": {"q": "café"}}),
    ("search: query is blank", S, {"query": " \n\t "}),
    # words too short
    ("search: words too short", S, {"query": "a b c I 7"}),
    # case, accents, İ, Greek outside words
    ("search: upper case with accent", S, {"query": "CAFÉ"}),
    ("search: accented capitals", S, {"query": "ÉLÈVES"}),
    ("search: accents matter", S, {"query": "eleves"}),
    ("search: Ÿ and Ø lower-cased", S, {"query": "ŸVONNE øyvind"}),
    ("search: dotted capital I", S, {"query": "İSTANBUL"}),
    ("search: dotted capital I in content", S, {"query": "izmir"}),
    ("search: dotless i splits", S, {"query": "kırmızı"}),
    ("search: Greek is outside words", S, {"query": "ΣΟΦΙΑ wisdom"}),
    ("search: Greek only", S, {"query": "σοφία ΟΔΥΣΣΕΥΣ"}),
    ("search: sharp s splits", S, {"query": "Straße"}),
    ("search: Kelvin sign", S, {"query": "\u212aELVIN"}),
    ("search: duplicate terms count once", S, {"query": "café CAFÉ Café"}),
    # underscore splits
    ("search: underscore splits", S, {"query": "user_id"}),
    ("search: underscore splits, label counts double", S, {"query": "snake_case_names"}),
    # bounded excerpts
    ("search: long first line excerpt", S, {"query": "lorem"}),
    ("search: accented excerpt counts runes", S, {"query": "déjà"}),
    ("search: empty and blank blocks", S, {"query": "block whitespace"}),
    # limits: one, truncated, negative, default, at most, textual ignored
    ("search: limit one", S, {"query": "deploy", "limit": 1}),
    ("search: limit truncated", S, {"query": "deploy", "limit": 2.9}),
    ("search: limit below one", S, {"query": "deploy", "limit": 0.9}),
    ("search: limit negative", S, {"query": "deploy", "limit": -1.5}),
    ("search: limit zero", S, {"query": "deploy", "limit": 0}),
    ("search: limit default", S, {"query": "deploy"}),
    ("search: limit at most 20", S, {"query": "deploy", "limit": 50}),
    ("search: limit 20", S, {"query": "deploy", "limit": 20}),
    ("search: limit huge", S, {"query": "deploy", "limit": 1e300}),
    ("search: limit as text is ignored", S, {"query": "deploy", "limit": "3"}),
    ("search: limit boolean is ignored", S, {"query": "deploy", "limit": True}),
    ("search: limit null is ignored", S, {"query": "deploy", "limit": None}),
    ("search: scores then newest first", S, {"query": "database deployment", "limit": 7}),
    ("search: raw text body", S, "payments rollback"),
    # no result
    ("search: no result", S, {"query": "kubernetes helm"}),
    ("search: other store", S, {"query": "deploy", "namespace": "frontend"}),
    # punctuation
    ("search: punctuation", S, {"query": "C++ node.js!!"}),
    ("search: e-mail address", S, {"query": "e-mail: ops@example.com"}),
    ("search: tags and entities", S, {"query": "&amp; <div>"}),
    ("search: division sign is a keyword rune", S, {"query": "10÷2"}),
    ("search: multiplication sign splits", S, {"query": "3×4"}),
    ("search: substring match", S, {"query": "ploy"}),
    ("search: digits", S, {"query": "373"}),
    ("search: label only", S, {"query": "temperatures"}),
]


def envelope(guest: NativeGuest, verb: str, body: Any) -> dict[str, Any]:
    """One dispatch; ``body`` is a JSON value, or a raw string when it is a ``str``."""
    raw = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    result: dict[str, Any] = json.loads(guest.dispatch(verb, raw))
    return result


def call_entry(case: str, verb: str, body: Any, expect: dict[str, Any]) -> dict[str, Any]:
    """A log line: raw bodies under ``raw``, JSON bodies under ``body``."""
    where = {"raw": body} if isinstance(body, str) else {"body": body}
    return {"case": case, "verb": verb, **where, "expect": expect}


def main() -> None:
    """Run the log natively and write it."""
    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock(START_MS)
        services = HostServices(Path(tmp), clock=clock)
        guest = NativeGuest(services)
        blocks = []
        for number, body in enumerate(BLOCKS):
            clock.now_ms = START_MS + number * STEP_MS
            blocks.append({"ts": clock.now_ms, "body": body, "expect": envelope(guest, "archive", body)})
        calls = [call_entry(case, verb, body, envelope(guest, verb, body)) for case, verb, body in CALLS]
        services.close()
    log = {
        "about": "Verbatim archive call log (seed 002); regenerate with scripts/gen_archive_golden.py",
        "blocks": blocks,
        "calls": calls,
    }
    OUT.write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(blocks)} blocks, {len(calls)} calls")


if __name__ == "__main__":
    main()
