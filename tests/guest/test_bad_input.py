"""Bad input that used to escape validation: deep nesting and lone surrogates in any field (issue 11)."""

from __future__ import annotations

import json

import pytest
from envelopes import call, ok

from guest.requests import MAX_DEPTH

VERBS = ("memorize", "recall", "learn", "archive", "archive_search", "create_checklist", "query_records")


def nested(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 1_050, 1_100, 5_000, 200_000])
def test_deep_nesting_is_a_validation_error_on_every_verb(guest, depth: int):
    for verb in VERBS:
        for body in (nested(depth), '{"text": ' + nested(depth, '{"a": ', "}").replace("}", "1}", 1) + "}"):
            envelope = call(guest, verb, body)
            assert envelope == {"ok": False, "verb": verb,
                                "error": f"validation: body nests deeper than {MAX_DEPTH} levels of "
                                         "arrays and objects"}, (verb, depth, envelope)
    assert ok(guest, "stats")["memories"] == 0, "the guest is alive and nothing was stored"


def test_nesting_up_to_the_limit_parses(guest):
    deep = {"title": "deep", "description": "x"}
    value: object = "leaf"
    for _ in range(MAX_DEPTH - 2):
        value = [value]
    deep["tags"] = value  # type: ignore[assignment]
    envelope = call(guest, "create_todo", deep)  # parsed, then refused by the verb's own rules
    assert envelope["ok"] is False and "tags" in envelope["error"] and "nests" not in envelope["error"]


def test_brackets_inside_strings_do_not_count(guest):
    text = "[" * 5_000 + " brackets in a text are text " + "{" * 5_000
    data = ok(guest, "memorize", {"text": text})
    assert data["deduped"] is False


@pytest.mark.parametrize(("verb", "body", "field"), [
    ("learn", {"memory": "A lesson.", "context": "bad \ud800 context"}, "context"),
    ("learn", {"memory": "A lesson.", "skill": {"action": "create", "name": "x", "description": "d \udfff",
                                                "body": "b"}}, "skill.description"),
    ("learn", {"memory": "A lesson.", "skill": {"action": "create", "name": "x", "description": "d",
                                                "body": "b \udc80"}}, "skill.body"),
    ("archive", {"content": "ok", "label": "bad \ud83d label"}, "label"),
    ("create_checklist", {"title": "t", "items": [{"title": "\udbff"}]}, "items[0].title"),
    ("recall", {"query": "q", "mode": "\ud800"}, "mode"),
])
def test_a_lone_surrogate_in_any_field_is_a_validation_error(guest, verb: str, body: dict, field: str):
    raw = json.dumps(body)  # ensure_ascii: the surrogate travels as a \\uXXXX escape, as a client sends it
    envelope = call(guest, verb, raw)
    assert envelope == {"ok": False, "verb": verb,
                        "error": f"validation: field {field!r} is not valid Unicode (lone surrogate)"}
    assert ok(guest, "stats")["memories"] == 0


def test_a_lone_surrogate_in_a_field_name_is_refused(guest):
    envelope = call(guest, "memorize", '{"text": "fine", "\\ud800": 1}')
    assert envelope["error"] == "validation: a field name is not valid Unicode (lone surrogate)"


def test_paired_surrogate_escapes_are_ordinary_text(guest):
    data = ok(guest, "memorize", '{"text": "a smile \\ud83d\\ude00 here"}')
    assert data["deduped"] is False
