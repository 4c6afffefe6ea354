"""Disciplines: the @name sigil, fan-out over enabled disciplines, merge-ranking, hostile names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from envelopes import call, ok

from guest.errors import InvalidRequest
from guest.memory.disciplines import split_sigil


def enable(project: Path, *lines: str) -> None:
    path = project / ".gm" / "disciplines" / "enabled.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


SIGILS = [
    ("@frontend uses vite", ("frontend", "uses vite")),
    ("  @front_end-2 uses vite", ("front_end-2", "uses vite")),
    ("@frontend", ("frontend", "")),
    ("@frontend\nmultiline fact", ("frontend", "multiline fact")),
    ("use @latest when installing", (None, "use @latest when installing")),
    ("mail me@example.com", (None, "mail me@example.com")),
    ("@ alone", (None, "@ alone")),
    ("@", (None, "@")),
    ("@frontend: uses vite", (None, "@frontend: uses vite")),
    ("@a@b text", (None, "@a@b text")),
    ("@" + "n" * 64 + " x", ("n" * 64, "x")),
]


@pytest.mark.parametrize(("text", "expected"), SIGILS)
def test_split_sigil(text, expected):
    assert split_sigil(text) == expected


@pytest.mark.parametrize("text", ["@../etc x", "@a/b x", "@" + "n" * 65 + " x", "@..", "@a\\b x"])
def test_hostile_sigils_are_refused(text):
    with pytest.raises(InvalidRequest, match="not a valid name"):
        split_sigil(text)


def test_sigil_write_goes_to_discipline_store_and_is_stripped(guest, project, services):
    data = ok(guest, "memorize", "@frontend The app is built with vite.")
    assert data["namespace"] == "frontend"
    assert (project / ".gm" / "disciplines" / "frontend" / "rs-learn.db").exists()
    assert not (project / ".gm" / "rs-learn.db").exists()
    record = json.loads(services.kv_get("disciplines/frontend/memories", data["id"]))
    assert record["text"] == "The app is built with vite."
    # the same fact through the namespace field is the same memory
    again = ok(guest, "memorize", {"text": "The app is built with vite.", "namespace": "frontend"})
    assert again == {**data, "deduped": True}


def test_sigil_read_is_restricted(guest, project):
    ok(guest, "memorize", "@frontend The app is built with vite.")
    ok(guest, "memorize", "The backend is built with cargo.")
    enable(project, "frontend")
    hits = ok(guest, "recall", "@frontend built with")
    assert [(h["namespace"], h["text"]) for h in hits] == [("frontend", "The app is built with vite.")]
    hits = ok(guest, "recall", {"query": "built with", "namespace": "default"})
    assert [h["namespace"] for h in hits] == ["default"]


def test_fan_out_over_enabled_disciplines_with_prefix(guest, project):
    ok(guest, "memorize", "@frontend The app is built with vite.")
    ok(guest, "memorize", "@ops Deploys run through the build pipeline.")
    ok(guest, "memorize", "The backend is built with cargo.")
    before = ok(guest, "recall", "built with")
    assert [h["namespace"] for h in before] == ["default"], "disabled disciplines are not read"
    enable(project, "# comment", "", "frontend", "  frontend  ", "ops", "../evil", "default")
    hits = ok(guest, "recall", {"query": "built with", "limit": 5})
    assert {h["namespace"] for h in hits} == {"default", "frontend", "ops"}
    for hit in hits:
        prefix = f"[discipline:{hit['namespace']}] "
        assert hit["text"].startswith(prefix) == (hit["namespace"] != "default")
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True), "one merged ranking"
    assert ok(guest, "recall", "vite")[0]["text"] == "[discipline:frontend] The app is built with vite."


def test_writes_without_sigil_land_in_default(guest, project):
    enable(project, "frontend")
    data = ok(guest, "memorize", "Plain fact without a sigil.")
    assert data["namespace"] == "default"
    assert not (project / ".gm" / "disciplines" / "frontend" / "rs-learn.db").exists()


BAD = [
    ("memorize", "@../etc steal", "not a valid name"),
    ("memorize", "@" + "x" * 65 + " long", "not a valid name"),
    ("memorize", {"text": "@frontend fact", "namespace": "ops"}, "disagree"),
    ("memorize", "@frontend", "field 'text' is empty"),
    ("recall", "@a/b query", "not a valid name"),
    ("recall", "@frontend", "field 'query' is empty"),
]


@pytest.mark.parametrize(("verb", "body", "message"), BAD)
def test_bad_sigils_are_clear_errors(guest, project, verb, body, message):
    envelope = call(guest, verb, body)
    assert envelope["ok"] is False and message in envelope["error"]
    assert not (project / ".gm").exists()


def test_typed_export_honours_sigils(guest, project):
    assert guest.memorize("@frontend vite builds the app", "default") == ok(
        guest, "memorize", {"text": "vite builds the app", "namespace": "frontend"}
    )["id"]
    enable(project, "frontend")
    hits = guest.recall("vite", 3)
    assert hits and hits[0]["namespace"] == "frontend"
