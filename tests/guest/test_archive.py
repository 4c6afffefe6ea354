"""The verbatim archive (issue #5, seed 002): golden call log on both targets, then the rules one by one."""

from __future__ import annotations

import json
import math
import threading
import unicodedata
from pathlib import Path

import pytest
from docpages import page
from envelopes import call, ok
from helpers.cli import host_cli
from helpers.files import store_digests
from hypothesis import given, settings
from hypothesis import strategies as st
from stores import store_exists

from guest.archive.search import (
    derived_label,
    excerpt,
    fold,
    limit_of,
    query_terms,
    results_text,
    score,
    search,
    term_text,
)
from guest.archive.store import MAX_SEQ, Chunk, Entry, parse_id
from guest.archive.verbs import MAX_CONTENT_BYTES
from guest.strings.gostrings import UNICODE16_CAPITALS, fields, go_lower, is_print, quote, trim_space
from host_harness.services import HostServices
from host_harness.spool.watcher import ANSWERED, Spool

# the PostgreSQL copies: one case per verb and what the store decides (both_stores marks below)

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "archive_calls.json"
KEYWORD_RUNES = frozenset("abcdefghijklmnopqrstuvwxyz0123456789" + "".join(map(chr, range(0xE0, 0x100))))


# ---------------------------------------------------------------- the golden call log


def test_golden_log_is_big_enough():
    log = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(log["blocks"]) >= 35 and len(log["calls"]) >= 41
    cases = " ".join(c["case"] for c in log["calls"])
    needed = (
        "id absent", "id is a number", "id is blank", "prefix", "space", "leading zeros", "malformed",
        "negative", "plus sign", "zero", "absent block", "2^64", "huge", "quotes", "query absent",
        "query is a number", "query is blank", "too short", "upper case", "accents", "dotted capital I",
        "Greek", "underscore", "excerpt", "limit one", "truncated", "limit negative", "limit default",
        "at most", "as text is ignored", "no result", "punctuation",
    )
    for needed_case in needed:
        assert needed_case in cases, needed_case


@pytest.mark.both_stores
def test_golden_call_log(guest, clock):
    """Replay the seed-style log: the same blocks, then every call answers exactly as pinned."""
    log = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for block in log["blocks"]:
        clock.now_ms = block["ts"]
        assert call(guest, "archive", block["body"]) == block["expect"]
    mismatches = []
    for entry in log["calls"]:
        body = entry["raw"] if "raw" in entry else entry["body"]
        got = call(guest, entry["verb"], body)
        if got != entry["expect"]:
            mismatches.append((entry["case"], got, entry["expect"]))
    assert not mismatches, mismatches[:3]


# ---------------------------------------------------------------- ids


@pytest.mark.parametrize(
    ("raw", "seq"),
    [
        ("r7", 7), ("R7", 7), ("7", 7), ("  r7  ", 7), (" r 7 ", 7), ("rR7", 7), ("r\u00a07\u3000", 7),
        ("\x85r7", 7), ("r007", 7), ("r" + "0" * 5000 + "1", 1), ("r0", 0),
        ("r18446744073709551615", MAX_SEQ), ("18446744073709551615", MAX_SEQ),
        ("r18446744073709551616", None), ("9" * 5000, None), ("Rr7", None), ("rr7", None), ("RR7", None),
        ("r", None), ("R", None), ("", None), ("  ", None), ("+7", None), ("-7", None), ("r+7", None),
        ("r-7", None), ("7a", None), ("r7 8", None), ("r1_000", None), ("０", None), ("７", None),
        ("r٧", None), ("r²", None), ("\x1cr7", None), ("r7\x1c", None), ('"r7"', None), ("r 7.0", None),
        ("0x7", None),
    ],
)
def test_parse_id(raw, seq):
    assert parse_id(raw) == seq


# ---------------------------------------------------------------- Go string semantics


def test_go_white_space_is_not_python_white_space():
    assert trim_space("\x1c r7 \x1f") == "\x1c r7 \x1f"  # Python's strip() would eat U+001C..U+001F
    assert "\x1c".strip() == ""
    assert trim_space("\u3000\x85\u00a0\u2028r7\t\n\v\f\r ") == "r7"
    assert trim_space("\u200br7\ufeff") == "\u200br7\ufeff"  # ZWSP and BOM are not spaces in Go
    assert fields(" a\u2029b\x1cc\u180ed ") == ["a", "b\x1cc\u180ed"]


@pytest.mark.parametrize(
    ("text", "lowered"),
    [
        ("\u0130", "i"),  # Python: "i\u0307"
        ("\u0130STANBUL", "istanbul"),
        ("ΟΔΥΣΣΕΥΣ", "οδυσσευσ"),  # Python: final sigma "ς"
        ("ΣΑΣ ΣΑΣ", "σασ σασ"),
        ("\u212a", "k"),  # Kelvin sign
        ("\u212b", "å"),  # Angstrom sign
        ("ß", "ß"),
        ("ẞ", "ß"),
        ("ı", "ı"),  # Turkish dotless i stays
        ("Ÿ", "ÿ"),
        ("ǅ", "ǆ"),  # title case
        ("ÀÉÎÕÜ", "àéîõü"),
        ("\ua7cb\U00010d50", "\ua7cb\U00010d50"),  # Unicode 16 capitals: Go's 15 tables leave them
        ("ABC def", "abc def"),
    ],
)
def test_go_lower(text, lowered):
    assert go_lower(text) == lowered


def test_unicode16_capitals_are_unassigned_in_go_tables():
    # Go has Unicode 15, CPython 3.11 has 14: both leave these alone; CPython 3.14 would lower them.
    if unicodedata.unidata_version < "16":
        assert all(unicodedata.category(c) == "Cn" for c in UNICODE16_CAPITALS)
    assert len(UNICODE16_CAPITALS) == 27


def test_fold_agrees_with_go_lower_on_every_keyword_rune():
    """``fold`` (fast, str.lower based) and ``go_lower`` give the same keyword runes for every code point."""
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        go, fast = go_lower(c), fold(c)
        if go in KEYWORD_RUNES or any(ch in KEYWORD_RUNES for ch in fast):
            assert fast == go, (hex(cp), go, fast)


@settings(max_examples=300, derandomize=True)
@given(
    st.text(alphabet=st.sampled_from("aAzZ09éÉÿŸßİıΣσ\u212a÷×_ -.\n\u00a0\u0307"), max_size=40),
    st.text(alphabet=st.sampled_from("aAzZ09éÉÿŸßİıΣσ\u212a÷× _"), max_size=12),
)
def test_term_text_matches_go_contains(content, query):
    """``t in term_text(content)`` is Go's ``strings.Contains(strings.ToLower(content), t)``."""
    lowered = go_lower(content)
    for term in query_terms(query):
        assert (term in term_text(content)) == (term in lowered), (content, term)


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("İSTANBUL", ["istanbul"]),
        ("ΟΔΥΣΣΕΥΣ σοφία", []),
        ("Straße", ["stra"]),
        ("\u212aelvin", ["kelvin"]),
        ("kırmızı", ["rm"]),
        ("user_id", ["id", "user"]),
        ("a ab I 7 77", ["77", "ab"]),
        ("10÷2 3×4", ["10÷2"]),
        ("ŸES yes YES", ["yes", "ÿes"]),
        ("café CAFÉ Café", ["café"]),
        ("C++ node.js!!", ["js", "node"]),
        ("", []),
    ],
)
def test_query_terms(query, terms):
    assert query_terms(query) == terms


def test_is_print_follows_go_unicode15():
    for c in ("a", " ", "~", "é", "ÿ", "🙂", "７", "\u0307", "\U0001e4d0", "\U0001fae8", "\U00031350"):
        assert is_print(c), hex(ord(c))  # the last three were first assigned in Unicode 15
    for c in ("\x00", "\x1f", "\x7f", "\x85", "\u00a0", "\u00ad", "\u0378", "\u200b", "\u2028", "\u3000",
              "\ue000", "\ufeff", "\U00010d50", "\U0010ffff"):
        assert not is_print(c), hex(ord(c))  # U+10D50 is Unicode 16: not printable for Go 15


@pytest.mark.parametrize(
    ("raw", "quoted"),
    [
        ("r7", '"r7"'),
        ('r"7"', r'"r\"7\""'),
        ("r'7'", '"r\'7\'"'),
        ("r\\7", r'"r\\7"'),
        ("a\a\b\f\n\r\t\vb", r'"a\a\b\f\n\r\t\vb"'),
        ("\x00\x1c\x7f", r'"\x00\x1c\x7f"'),
        ("\x85\u00a0\u200b\ufeff", r'"\u0085\u00a0\u200b\ufeff"'),
        ("\U0010ffff\U000e0001", r'"\U0010ffff\U000e0001"'),
        ("é🙂７", '"é🙂７"'),
        ("", '""'),
    ],
)
def test_quote_is_go_percent_q(raw, quoted):
    assert quote(raw) == quoted


# ---------------------------------------------------------------- score, limit, excerpts


def entry(seq: int, label: str, content: str) -> Entry:
    return Entry(seq, label, excerpt(content), term_text(go_lower(label)), term_text(content))


def test_score_counts_label_twice_and_substrings():
    e = entry(1, "Export notes", "The transport layer; PORT 80.")
    assert score(["port"], e) == 3  # "export" in the label, "transport"/"port" in the content
    assert score(["port", "layer", "notes"], e) == 3 + 1 + 2
    assert score(["missing"], e) == 0


def chunk_of(*entries: Entry, locked: list[int] | None = None) -> Chunk:
    chunk = Chunk(locked=locked)
    for e in entries:
        chunk.append(e)
    return chunk


def test_ties_newest_first_and_zero_scores_left_out():
    first = chunk_of(entry(1, "a", "alpha beta"), entry(2, "b", "alpha"))
    second = chunk_of(entry(3, "alpha", "x"), entry(4, "c", "y"), entry(5, "alpha", "alpha"), locked=[5])
    results = search(["alpha"], [first, second], 5)
    assert [(r.entry.seq, r.score) for r in results] == [(3, 2), (2, 1), (1, 1)]
    assert [r.entry.seq for r in search(["alpha"], [first, second], 1)] == [3]
    assert [(r.entry.seq, r.score) for r in search(["alpha", "beta"], [first], 5)] == [(1, 2), (2, 1)]
    assert results[0].entry == entry(3, "alpha", "x")
    assert all(r.score == score(["alpha"], r.entry) for r in results)
    assert results_text([]) == "No archived block matches the query."


@pytest.mark.parametrize(
    ("value", "limit"),
    [
        (None, 5), (1, 1), (3, 3), (2.9, 2), (19.99, 19), (0.9, 5), (0, 5), (-1, 5), (-1.5, 5), (20, 20),
        (21, 20), (50, 20), (10**30, 20), (-(10**30), 5), (1e300, 20), (math.inf, 20), (-math.inf, 5),
        (math.nan, 5), ("3", 5), (True, 5), (False, 5), ([3], 5), ({"n": 3}, 5),
    ],
)
def test_limit_like_go_int_float64(value, limit):
    assert limit_of(value) == limit


def test_excerpt():
    assert excerpt("") == ""
    assert excerpt(" \n\t ") == ""
    assert excerpt("a\n\n  b\r\n\tc\u2028d") == "a b c d"
    assert excerpt("a\x1cb") == "a\x1cb"  # not white space for Go
    assert excerpt("x" * 160) == "x" * 160
    assert excerpt("x" * 161) == "x" * 160 + "…"
    assert excerpt("a " * 100) == ("a " * 80)[:159] + "…"  # the cut falls after a space: trimmed
    assert excerpt("é" * 300) == "é" * 160 + "…"  # runes, not bytes
    big = "word " * 300_000
    assert excerpt(big) == ("word " * 32).strip() + "…"


def test_derived_label():
    assert derived_label("\n\n   Title   line \t\nrest") == "Title line"
    assert derived_label("y" * 100) == "y" * 70 + "…"
    assert derived_label("") == "(empty)"
    assert derived_label(" \n\t\n") == "(empty)"


# ---------------------------------------------------------------- storage, on both targets


@pytest.mark.both_stores
def test_sequence_survives_a_new_engine(guest, guest_factory, project, clock):
    assert ok(guest, "archive", {"label": "one", "content": "first"})["id"] == "r1"
    assert ok(guest, "archive", {"label": "two", "content": "second"})["id"] == "r2"
    other = HostServices(project, clock=clock)
    try:
        again = guest_factory(other)
        assert ok(again, "archive", {"label": "three", "content": "third"})["id"] == "r3"
        assert ok(again, "archive_recall", {"id": "r1"})["content"] == "first"
    finally:
        other.close()


@pytest.mark.both_stores
def test_sequence_is_per_store(guest, project):
    assert ok(guest, "archive", {"label": "d1", "content": "x"})["id"] == "r1"
    assert ok(guest, "archive", {"label": "f1", "content": "front", "namespace": "frontend"})["id"] == "r1"
    assert ok(guest, "archive", {"label": "d2", "content": "y"})["id"] == "r2"
    assert ok(guest, "archive", {"label": "b1", "content": "back", "namespace": "backend"})["id"] == "r1"
    assert ok(guest, "archive", {"label": "f2", "content": "front2", "namespace": "frontend"})["id"] == "r2"
    assert store_exists(project, "frontend")
    front = ok(guest, "archive_recall", {"id": "r1", "namespace": "frontend"})
    assert (front["content"], front["namespace"]) == ("front", "frontend")
    assert ok(guest, "archive_recall", {"id": "r1"})["content"] == "x"
    found = ok(guest, "archive_search", {"query": "front", "namespace": "frontend"})
    assert [r["id"] for r in found["results"]] == ["r2", "r1"]
    assert ok(guest, "archive_search", {"query": "front"})["results"] == []


@pytest.mark.both_stores
def test_megabyte_block_round_trips_byte_exact(guest):
    unit = "line é€🙂\r\n\ttab\x00nul \u2028 <b>&amp;</b>\n"
    content = (unit * (1024 * 1024 // len(unit.encode()) + 1))[: 1024 * 1024]
    assert len(content.encode("utf-8")) >= 1024 * 1024
    stored = ok(guest, "archive", {"label": "big", "content": content})
    assert stored["bytes"] == len(content.encode("utf-8"))
    back = ok(guest, "archive_recall", {"id": stored["id"]})
    assert back["content"].encode("utf-8") == content.encode("utf-8")
    assert back["text"] == f"[{stored['id']} — big, recalled verbatim]\n" + content
    hits = ok(guest, "archive_search", {"query": "nul"})["results"]
    assert [h["id"] for h in hits] == [stored["id"]] and hits[0]["excerpt"].endswith("…")
    assert len(hits[0]["excerpt"]) == 161


def test_empty_block(guest):
    stored = ok(guest, "archive", {"label": "nothing", "content": ""})
    assert stored["bytes"] == 0
    back = ok(guest, "archive_recall", stored["id"])
    assert back["content"] == "" and back["text"] == f"[{stored['id']} — nothing, recalled verbatim]\n"
    found = ok(guest, "archive_search", "nothing")
    assert found["results"] == [{"id": stored["id"], "label": "nothing", "score": 2, "excerpt": ""}]
    assert found["text"].endswith("\n  (empty)")


def _lock_block(services: HostServices, seq: int) -> None:
    key = f"{seq:020d}"
    record = json.loads(services.kv_get("archive", key))
    services.kv_put("archive", key, json.dumps({**record, "locked": True}).encode())


def _edit_index(services: HostServices, change, chunk: int = 0) -> None:
    """Apply ``change`` to the columns of index chunk ``chunk``."""
    key = f"{chunk:020d}"
    columns = json.loads(services.kv_get("archive-index", key))
    services.kv_put("archive-index", key, json.dumps(change(columns)).encode())


@pytest.mark.both_stores
def test_locked_blocks_behave_as_absent(guest, services):
    ok(guest, "archive", {"label": "secret plan", "content": "launch codes"})
    ok(guest, "archive", {"label": "public plan", "content": "launch party"})
    _lock_block(services, 1)
    _edit_index(services, lambda columns: {**columns, "locked": [1]})
    gone = call(guest, "archive_recall", {"id": "r1"})
    assert gone["ok"] is False and gone["error"].startswith('not_found: archived block "r1" not found')
    assert [r["id"] for r in ok(guest, "archive_search", "launch plan")["results"]] == ["r2"]
    _lock_block(services, 2)  # the block record alone already hides it from recall
    assert call(guest, "archive_recall", {"id": "r2"})["ok"] is False
    assert ok(guest, "archive", {"label": "next", "content": "launch z"})["id"] == "r3", "ids are not reused"
    assert [r["id"] for r in ok(guest, "archive_search", "launch")["results"]] == ["r3", "r2"]


def test_undecodable_records_are_skipped_and_logged(guest, services):
    ok(guest, "archive", {"label": "good", "content": "alpha"})
    ok(guest, "archive", {"label": "bad", "content": "alpha"})
    services.kv_put("archive", f"{2:020d}", b'{"seq": "2"}')
    services.kv_put("archive-index", f"{1:020d}", b"{not json")  # chunks a search reads: 0 .. counter
    services.kv_put("archive-index", f"{2:020d}", b'{"seq": [9], "label": [1]}')
    services.kv_put("archive-meta", "chunk", b"2")
    assert [r["id"] for r in ok(guest, "archive_search", "alpha")["results"]] == ["r2", "r1"]
    assert call(guest, "archive_recall", "r2")["error"].startswith("not_found:")
    assert sum("undecodable" in record.msg for record in services.logs) == 3
    # A damaged chunk is left as it is: the next entry starts a new chunk.
    _edit_index(services, lambda columns: {**columns, "seq": ["1", 2]})
    assert ok(guest, "archive_search", "alpha")["results"] == []
    assert ok(guest, "archive", {"label": "after", "content": "alpha"})["id"] == "r3"
    assert [r["id"] for r in ok(guest, "archive_search", "alpha")["results"]] == ["r3"]
    assert b'"seq":["1",2]' in services.kv_get("archive-index", f"{0:020d}").replace(b" ", b"")


@pytest.mark.both_stores
def test_index_chunks_roll_over(guest, services):
    for n in range(1, 71):
        assert ok(guest, "archive", {"label": f"note {n}", "content": f"common word {n}"})["id"] == f"r{n}"
    chunks = services.kv_query("archive-index", "", 0)
    assert [json.loads(raw)["seq"][0] for _, raw in chunks] == [1, 33, 65]
    assert [len(json.loads(raw)["label"]) for _, raw in chunks] == [32, 32, 6]
    found = ok(guest, "archive_search", {"query": "common", "limit": 20})["results"]
    assert [r["id"] for r in found] == [f"r{n}" for n in range(70, 50, -1)]
    assert ok(guest, "archive_search", "word 7")["results"][0]["id"] == "r70"


class CountingServices(HostServices):
    """Counts the archive reads that reach the host."""

    reads = 0

    def kv_get(self, ns, key):
        if "archive" in ns:
            self.reads += 1
        return super().kv_get(ns, key)

    def kv_query(self, ns, q, limit):
        if "archive" in ns:
            self.reads += 1
        return super().kv_query(ns, q, limit)


def test_a_malformed_id_never_reads_the_archive(guest_factory, project, clock):
    services = CountingServices(project, clock=clock)
    try:
        guest = guest_factory(services)
        ok(guest, "archive", {"label": "x", "content": "y"})
        for bad in ("Rr7", "r-1", "+1", "r18446744073709551616", "r", "７", 'r"1"', "x"):
            services.reads = 0
            envelope = call(guest, "archive_recall", {"id": bad})
            assert envelope["error"].startswith("validation: block id"), envelope
            assert services.reads == 0, bad
            assert call(guest, "recall", {"id": bad})["ok"] is False and services.reads == 0
        services.reads = 0
        assert call(guest, "archive_recall", {"id": "r0"})["error"].startswith("not_found:")
        assert services.reads == 2  # the block and its archive-alias entry (blocks a git merge renumbered)
        services.reads = 0
        assert ok(guest, "archive_search", "a b c")["results"] == [] and services.reads == 0
    finally:
        services.close()


BAD = [
    ("archive", "", "missing field 'content'"),
    ("archive", {"label": "x"}, "missing field 'content'"),
    ("archive", {"content": 5}, "field 'content' must be a string, not a number"),
    ("archive", {"content": "x", "label": 3}, "field 'label' must be a string, not a number"),
    ("archive", {"content": "x", "label": ["a"]}, "field 'label' must be a string, not an array"),
    ("archive", {"content": "x", "label": "  "}, "field 'label' is blank"),
    ("archive", {"content": "x", "label": "two\nlines"}, "field 'label' must be one line"),
    ("archive", {"content": "x", "label": "l" * 1025}, "the limit is 1024"),
    ("archive", {"content": "x" * (MAX_CONTENT_BYTES + 1)}, f"the limit is {MAX_CONTENT_BYTES}"),
    ("archive", {"content": "x", "namespace": "../etc"}, "is not a valid name"),
    ("archive", {"content": "x", "namespace": "/abs"}, "is not a valid name"),
    ("archive", {"content": "x", "namespace": "a\u0000b"}, "is not a valid name"),
    ("archive", {"content": "x", "namespace": 7}, "must be a string"),
    ("archive", '{"content": "\\ud800"}', "not valid Unicode"),
    ("archive", "[1]", "not an array"),
    ("archive", '{"content": "x"', "does not parse"),
    ("archive_recall", {"id": "r1" + "0" * 1030}, "the limit is 1024"),
    ("archive_recall", {"id": "r1", "namespace": "../x"}, "is not a valid name"),
    ("archive_recall", {"id": True}, "field 'id' must be a string, not a boolean"),
    ("archive_search", {"query": "q" * 8193}, "the limit is 8192"),
    ("archive_search", {"query": "q", "namespace": "a/b"}, "is not a valid name"),
    ("archive_search", '{"query": "\\udfff"}', "not valid Unicode"),
    ("recall", {"id": 12}, "field 'id' must be a string"),
]


@pytest.mark.both_stores
@pytest.mark.parametrize(("verb", "body", "message"), BAD, ids=[f"{v}-{i}" for i, (v, *_) in enumerate(BAD)])
def test_bad_requests_are_clear_errors_and_change_nothing(guest, project, verb, body, message):
    ok(guest, "archive", {"label": "kept", "content": "a block that must survive"})
    before = store_digests(project)
    envelope = call(guest, verb, body)
    assert envelope["ok"] is False and envelope["verb"] == verb
    assert envelope["error"].startswith("validation: ") and message in envelope["error"], envelope["error"]
    assert store_digests(project) == before
    assert ok(guest, "archive", {"label": "next", "content": "z"})["id"] == "r2", "no sequence number used"


def test_recall_without_an_id_still_recalls_memories(guest):
    ok(guest, "memorize", "The staging server runs on port 8080.")
    ok(guest, "archive", {"label": "port notes", "content": "The staging server runs on port 8080."})
    hits = ok(guest, "recall", {"query": "staging server port"})
    assert hits and hits[0]["id"].startswith("mem-")
    assert ok(guest, "recall", "staging server")[0]["id"].startswith("mem-")
    assert ok(guest, "recall", {"id": "r1"})["label"] == "port notes"


def test_recall_search_is_the_seeds_name_for_archive_search(guest, project):
    ok(guest, "archive", {"label": "deploy failure", "content": "Deploy 42 failed: database timeout"})
    ok(guest, "archive", {"content": "unrelated notes"})
    for body in ({"query": "database deploy", "limit": 3}, "deploy", {"query": "zzz"}):
        seed, alias = call(guest, "recall_search", body), call(guest, "archive_search", body)
        assert seed["verb"] == "recall_search" and seed["ok"] is True
        assert seed["data"] == alias["data"]
    assert [r["id"] for r in ok(guest, "recall_search", "deploy")["results"]] == ["r1"]
    bad = call(guest, "recall_search", {"query": "  "})
    assert bad == {"ok": False, "verb": "recall_search", "error": bad["error"]}
    assert bad["error"].startswith("validation: field 'query' is blank")
    # the spool path: in/recall_search/<N>.txt is answered in out/<N>.json
    request = project / ".gm" / "exec-spool" / "in" / "recall_search" / "1.txt"
    request.parent.mkdir(parents=True)
    request.write_text("database", encoding="utf-8")
    assert Spool(project, guest).drain_all(threading.Event())[ANSWERED] == 1
    answer = json.loads((project / ".gm" / "exec-spool" / "out" / "1.json").read_text(encoding="utf-8"))
    assert answer["verb"] == "recall_search" and [r["id"] for r in answer["data"]["results"]] == ["r1"]


# ---------------------------------------------------------------- the CLI


@pytest.fixture
def run(target: str, project: Path):
    return host_cli(project, target)


@pytest.mark.both_stores
def test_cli_put_get_search(run, tmp_path: Path):
    source = tmp_path / "deploy.log"
    content = "Deploy 42 failed:\r\n  timeout contacting the database\n\ttrailing\t\n"
    source.write_bytes(content.encode("utf-8"))
    put = run("archive", "put", "--label", "deploy failure", str(source))
    assert put.exit_code == 0, put.output
    assert put.output == "r1\n"
    piped = run("archive", "put", "-", input=b"second block from stdin\n")
    assert piped.output == "r2\n"

    got = run("archive", "get", " R1 ")
    assert got.exit_code == 0 and got.stdout_bytes == content.encode("utf-8")
    as_json = json.loads(run("archive", "get", "r2", "--json").output)
    assert as_json["label"] == "second block from stdin" and as_json["content"] == "second block from stdin\n"

    found = run("archive", "search", "database deploy")
    assert found.exit_code == 0
    assert found.output.splitlines() == [
        "Archived blocks matching the query (recall one by its id):",
        "- r1 — deploy failure",
        "  Deploy 42 failed: timeout contacting the database trailing",
    ]
    data = json.loads(run("archive", "search", "block", "--limit", "1", "--json").output)
    assert [r["id"] for r in data["results"]] == ["r2"]
    assert run("archive", "search", "zzz").output == "No archived block matches the query.\n"
    assert run("recall-search", "database deploy").output == found.output, "the seed's tool name"


def test_cli_errors(run, tmp_path: Path):
    missing = run("archive", "get", "r9")
    assert missing.exit_code == 1 and 'not_found: archived block "r9" not found' in missing.output
    malformed = run("archive", "get", "r-9")
    assert malformed.exit_code == 1 and "validation: block id" in malformed.output
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\xff\xfe\x00binary")
    bad = run("archive", "put", str(binary))
    assert bad.exit_code == 1 and "is not UTF-8 text" in bad.output
    assert "Examples:" in run("archive", "--help").output
    for sub in ("put", "get", "search"):
        text = run("archive", sub, "--help").output
        assert "Examples:\n" in text and "\\b" not in text, text  # examples are kept one per line
    assert "\n    rs-learn-host archive get r7\n" in run("archive", "get", "--help").output


def test_cli_put_names_the_content_and_its_real_limit(run, tmp_path: Path):
    """Issue 25, item 19: not "body is larger than 2097152 bytes"."""
    big = tmp_path / "big.log"
    big.write_bytes(b"x" * 3_000_000)
    refused = run("archive", "put", str(big))
    assert refused.exit_code == 1
    assert (f"{big}: the content is 3,000,000 bytes; an archived block holds at most {MAX_CONTENT_BYTES:,} "
            "bytes (1.94 MiB)") in refused.output
    quotes = tmp_path / "quotes.txt"  # 1.5 MB of content, 3 MB once JSON escapes every quote
    quotes.write_bytes(b'"' * 1_500_000)
    escaped = run("archive", "put", str(quotes))
    assert escaped.exit_code == 1 and "the content is 1,500,000 bytes, 3,000,0" in escaped.output
    assert "once escaped for the request, whose limit is 2,097,152" in escaped.output
    assert f"at most {MAX_CONTENT_BYTES:,}" in run("archive", "put", "--help").output


@pytest.mark.both_stores
def test_cli_get_says_when_a_merge_renumbered_the_block(run, project: Path):
    """Issue 25, item 19: the note of the tool text reaches stderr, the block alone stdout."""
    assert run("archive", "put", "--label", "kept", "-", input=b"kept its number\n").output == "r1\n"
    assert run("archive", "put", "--label", "moved", "-", input=b"moved here by a merge\n").output == "r2\n"
    services = HostServices(project)
    services.kv_put("archive-alias", f"{1:020d}", b"[2]")  # what a git merge records (D58)
    services.kv_put("archive-alias", f"{9:020d}", b"[2]")
    services.close()
    first = run("archive", "get", "r1")
    assert first.stdout == "kept its number\n"
    assert first.stderr == "[r1 — kept, recalled verbatim; another branch's r1 is now r2 (moved)]\n"
    only = run("archive", "get", "r9")
    assert only.stdout == "moved here by a merge\n"
    assert only.stderr == "[r2 — moved, recalled verbatim; r9 on another branch]\n"
    plain = run("archive", "get", "r2")
    assert plain.stdout == "moved here by a merge\n" and plain.stderr == ""


# ---------------------------------------------------------------- the README's examples


def readme_exchanges() -> list[tuple[str, object, dict]]:
    """The (verb, body, envelope) examples of ``docs/archive.md``."""
    block = page("archive.md").split("```json\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    out = []
    for request, response in zip(lines[::2], lines[1::2], strict=True):
        body, verb = request.split("->")
        out.append((verb.split()[0], json.loads(body), json.loads(response)))
    return out


def test_readme_examples(guest):
    exchanges = readme_exchanges()
    assert [verb for verb, _, _ in exchanges] == ["archive", "archive_recall", "recall_search"]
    for n in range(6):
        ok(guest, "archive", {"label": f"filler {n}", "content": "filler"})
    for verb, body, envelope in exchanges:
        assert call(guest, verb, body) == envelope


@pytest.mark.both_stores
def test_archive_list_reads_the_index_newest_first(guest):
    assert ok(guest, "archive_list") == {"namespace": "default", "total": 0, "blocks": []}
    for i in range(3):
        ok(guest, "archive", {"content": f"Block {i}:   spread\nover lines", "label": f"Label {i}"})
    ok(guest, "archive", {"content": "elsewhere", "namespace": "frontend"})
    listed = ok(guest, "archive_list", {"limit": 2})
    assert listed == {"namespace": "default", "total": 3, "blocks": [
        {"id": "r3", "label": "Label 2", "excerpt": "Block 2: spread over lines"},
        {"id": "r2", "label": "Label 1", "excerpt": "Block 1: spread over lines"}]}
    assert [b["id"] for b in ok(guest, "archive_list", {"namespace": "frontend"})["blocks"]] == ["r1"]
    assert call(guest, "archive_list", {"limit": 0})["error"] == (
        "validation: field 'limit' must be between 1 and 1000, got 0")
