"""Disciplines: the @name sigil, fan-out over enabled disciplines, merge-ranking, hostile names."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from envelopes import call, ok
from stores import store_exists

from guest.memory.disciplines import split_sigil
from host_harness.spool.watcher import Spool

# the PostgreSQL copies: one case per verb and what the store decides (both_stores marks below)


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
    ("@" + "n" * 65 + " x", (None, "@" + "n" * 65 + " x")),
    ("@unknown fact", (None, "@unknown fact")),
    ("@Frontend is case-sensitive", (None, "@Frontend is case-sensitive")),
    ("@../etc x", (None, "@../etc x")),
]
KNOWN = {"frontend", "front_end-2", "n" * 64, "a"}


@pytest.mark.parametrize(("text", "expected"), SIGILS)
def test_split_sigil(text, expected):
    assert split_sigil(text, KNOWN.__contains__) == expected


# Texts agents memorize all the time: none of them names a discipline this project knows.
CODE_AND_TEXT = [
    '@app.get("/x") returns JSON',
    "@param encoding Default is utf-8.",
    "@dataclass is required on Config",
    "@Override marks toString in Money.java",
    "@latest is the npm dist-tag we install",
    "@types/node ships the Node typings",
    "admin@example.com owns the staging box",
    "@admin@example.com owns the staging box",
    "@@x is how the template escapes a sigil",
    "\\@frontend is escaped and stays text",
    "@../etc/passwd is not a path to follow",
    "@" + "x" * 65 + " is too long to be a name",
]


@pytest.mark.parametrize("text", CODE_AND_TEXT)
def test_text_starting_with_at_is_stored_intact_in_default(guest, project, services, text):
    enable(project, "frontend")  # a known discipline, named by none of these texts at their start
    data = ok(guest, "memorize", text)
    assert data["namespace"] == "default"
    assert json.loads(services.kv_get("memories", data["id"]))["text"] == text
    assert sorted(p.name for p in (project / ".gm" / "disciplines").iterdir()) == ["enabled.txt"]
    hits = ok(guest, "recall", text)
    assert hits and hits[0]["text"] == text and hits[0]["namespace"] == "default"


@pytest.mark.parametrize(
    ("text", "name", "stored"),
    [
        ("@param encoding Default is utf-8.", "param", "encoding Default is utf-8."),
        ("@dataclass is required on Config", "dataclass", "is required on Config"),
    ],
)
def test_a_known_discipline_takes_its_sigil(guest, project, services, text, name, stored):
    (project / ".gm" / "disciplines" / name).mkdir(parents=True)  # known by its folder alone
    data = ok(guest, "memorize", text)
    assert data["namespace"] == name
    assert json.loads(services.kv_get(f"disciplines/{name}/memories", data["id"]))["text"] == stored


@pytest.mark.both_stores
@pytest.mark.parametrize("namespace", [None, "default", ""])
def test_sigil_write_goes_to_discipline_store_and_is_stripped(guest, project, services, namespace):
    enable(project, "frontend")
    body = {"text": "@frontend The app is built with vite."}
    if namespace is not None:
        body["namespace"] = namespace  # the seed's own body shape sends "default": not a choice
    data = ok(guest, "memorize", body)
    assert data["namespace"] == "frontend"
    assert store_exists(project, "frontend")
    assert not store_exists(project)
    record = json.loads(services.kv_get("disciplines/frontend/memories", data["id"]))
    assert record["text"] == "The app is built with vite."
    # the same fact through the namespace field is the same memory
    again = ok(guest, "memorize", {"text": "The app is built with vite.", "namespace": "frontend"})
    assert again == {**data, "deduped": True}


@pytest.mark.both_stores
def test_the_seeds_body_through_the_spool(guest, project):
    inbox = project / ".gm" / "exec-spool" / "in" / "memorize"
    inbox.mkdir(parents=True)
    body = '{"text": "@frontend The app is built with vite.", "namespace": "default"}'
    out = project / ".gm" / "exec-spool" / "out"
    spool = Spool(project, guest)
    namespaces = []
    for n in (1, 2):
        (inbox / f"{n}.json").write_text(body, encoding="utf-8")
        spool.drain_all(threading.Event())
        answer = json.loads((out / f"{n}.json").read_text(encoding="utf-8"))
        assert answer["ok"], answer
        namespaces.append(answer["data"]["namespace"])
        enable(project, "frontend")
    assert namespaces == ["default", "frontend"], "text while unknown; the discipline once enabled"


def test_unknown_sigil_in_a_fresh_project_is_text(guest, project, services):
    data = ok(guest, "memorize", {"text": "@frontend The app is built with vite.", "namespace": "default"})
    assert data["namespace"] == "default"
    stored = json.loads(services.kv_get("memories", data["id"]))["text"]
    assert stored == "@frontend The app is built with vite."
    assert not (project / ".gm" / "disciplines").exists()


@pytest.mark.both_stores
def test_explicit_namespace_creates_the_discipline_and_makes_its_sigil_known(guest, project, services):
    first = ok(guest, "memorize", {"text": "@ops Deploys run at noon.", "namespace": "ops"})
    assert first["namespace"] == "ops"
    def text(data):
        return json.loads(services.kv_get("disciplines/ops/memories", data["id"]))["text"]

    assert text(first) == "Deploys run at noon."
    # an unknown sigil under an explicit namespace is text of that namespace
    other = ok(guest, "memorize", {"text": "@param x is the width", "namespace": "ops"})
    assert text(other) == "@param x is the width"
    # the folder now exists: @ops selects the discipline from any body
    assert ok(guest, "memorize", "@ops Rollbacks need approval.")["namespace"] == "ops"
    hits = ok(guest, "recall", "@ops rollbacks")
    assert [h["text"] for h in hits][:1] == ["Rollbacks need approval."]


def test_sigil_read_is_restricted(guest, project):
    enable(project, "frontend")
    ok(guest, "memorize", "@frontend The app is built with vite.")
    ok(guest, "memorize", "The backend is built with cargo.")
    hits = ok(guest, "recall", "@frontend built with")
    assert [(h["namespace"], h["text"]) for h in hits] == [("frontend", "The app is built with vite.")]
    hits = ok(guest, "recall", {"query": "@frontend built with", "namespace": "default"})
    assert [h["namespace"] for h in hits] == ["frontend"], "default yields to a known sigil"
    hits = ok(guest, "recall", {"query": "built with", "namespace": "default"})
    assert [h["namespace"] for h in hits] == ["default"]
    hits = ok(guest, "recall", {"query": "@nothing built with", "limit": 5})
    assert {h["namespace"] for h in hits} == {"default", "frontend"}, "an unknown sigil is query text"


@pytest.mark.both_stores
def test_fan_out_over_enabled_disciplines_with_prefix(guest, project):
    ok(guest, "memorize", {"text": "The app is built with vite.", "namespace": "frontend"})
    ok(guest, "memorize", {"text": "Deploys are built with the release pipeline.", "namespace": "ops"})
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
    ("memorize", {"text": "fact", "namespace": "../etc"}, "is not a valid name"),
    ("memorize", {"text": "fact", "namespace": "x" * 65}, "is not a valid name"),
    ("memorize", {"text": "fact", "namespace": 3}, "must be a string"),
    ("memorize", {"text": "@frontend fact", "namespace": "ops"}, "name different disciplines"),
    ("memorize", "@frontend", "field 'text' is empty"),
    ("recall", {"query": "q", "namespace": "a/b"}, "is not a valid name"),
    ("recall", {"query": "@frontend q", "namespace": "ops"}, "name different disciplines"),
    ("recall", "@frontend", "field 'query' is empty"),
]


@pytest.mark.both_stores
@pytest.mark.parametrize(("verb", "body", "message"), BAD)
def test_bad_namespaces_are_clear_errors(guest, project, verb, body, message):
    enable(project, "frontend")
    envelope = call(guest, verb, body)
    assert envelope["ok"] is False and message in envelope["error"]
    assert sorted(p.name for p in (project / ".gm" / "disciplines").iterdir()) == ["enabled.txt"]
    assert not (project / ".gm" / "rs-learn.db").exists()


@pytest.mark.both_stores
def test_typed_export_honours_sigils(guest, project):
    assert guest.memorize("@frontend vite builds the app", "default") == ok(
        guest, "memorize", {"text": "@frontend vite builds the app"}
    )["id"], "unknown: text in default"
    enable(project, "frontend")
    assert guest.memorize("@frontend vite builds the app", "default") == ok(
        guest, "memorize", {"text": "vite builds the app", "namespace": "frontend"}
    )["id"]
    hits = guest.recall("@frontend vite", 3)
    assert [h["namespace"] for h in hits] == ["frontend"]
    hits = guest.recall("vite", 3)
    assert hits and hits[0]["namespace"] == "frontend"


SECRET_NAMES = [
    "ghp_" + "a1B2c3D4" * 4 + "e5F6",  # a GitHub token
    "glpat-" + "x1Y2z3W4v5U6t7S8r9Q0",  # a GitLab token
    "xoxb-123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx",  # a Slack bot token
]


@pytest.mark.parametrize("name", SECRET_NAMES, ids=["github", "gitlab", "slack"])
def test_a_discipline_named_by_a_secret_is_refused_on_every_path(guest, project, services, name):
    """Issue 38, item 4: a secret as a discipline name would be a committed folder; refused, not echoed."""
    for verb, body in [
        ("memorize", {"text": "fact", "namespace": name}),
        ("recall", {"query": "fact", "namespace": name}),
        ("list_memories", {"namespace": name}),
        ("archive", {"content": "a block", "namespace": name}),
        ("import", {"memories": [{"text": "fact"}], "namespace": name}),
        ("import", {"memories": [{"text": "fact", "namespace": name}]}),
    ]:
        envelope = call(guest, verb, body)
        assert envelope["ok"] is False, (verb, envelope)
        assert "reads as a secret" in envelope["error"] and name not in envelope["error"], envelope
    with pytest.raises(Exception, match="reads as a secret"):
        guest.memorize("fact", name)
    skipped = ok(guest, "import", {"memories": [{"text": "kept"}, {"text": "fact", "namespace": name}],
                                   "skip_invalid": True})
    assert skipped["imported"] == 1 and skipped["skipped"][0]["index"] == 1
    assert "reads as a secret" in skipped["skipped"][0]["error"]
    assert not store_exists(project, name)
    assert not (project / ".gm" / "disciplines" / name).exists()
    enable(project, name, "frontend")  # planted by hand: recall leaves it out instead of failing
    assert call(guest, "recall", "fact")["ok"] is True
