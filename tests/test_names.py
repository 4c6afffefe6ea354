"""Names (issue 11, item 10): ``host`` is never a discipline; skill names are normalised first."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from envelopes import call, ok

from guest.learn.skills import sanitize_name
from host_harness.errors import StoreError
from host_harness.store.enabled_list import BadName, check_name
from host_harness.store.router import Project

RESERVED = "validation: {what} 'host' is reserved: it is the host's read-only namespace, not a discipline"


@pytest.mark.parametrize(("verb", "body", "what"), [
    ("memorize", {"text": "A fact.", "namespace": "host"}, "namespace"),
    ("recall", {"query": "fact", "namespace": "host"}, "namespace"),
    ("archive", {"content": "block", "namespace": "host"}, "namespace"),
    ("learn", {"memory": "A lesson.", "namespace": "host"}, "namespace"),
    ("stats", {"namespace": "host"}, "namespace"),
])
def test_the_host_namespace_is_not_a_discipline(guest, project: Path, verb: str, body, what: str):
    envelope = call(guest, verb, body)
    assert envelope == {"ok": False, "verb": verb, "error": RESERVED.format(what=what)}
    assert not (project / ".gm" / "disciplines" / "host").exists()


def test_a_host_sigil_is_text(guest, project: Path):
    """``host`` is never a known discipline, so ``@host`` is ordinary text (the sigil rule, D10)."""
    (project / ".gm" / "disciplines" / "host").mkdir(parents=True)  # a planted folder does not make it one
    stored = ok(guest, "memorize", "@host A fact behind a sigil.")
    assert stored["namespace"] == "default"
    hits = ok(guest, "recall", "@host fact behind a sigil")
    assert [(h["text"], h["namespace"]) for h in hits] == [("@host A fact behind a sigil.", "default")]
    assert not (project / ".gm" / "disciplines" / "host" / "rs-learn.db").exists()


def test_an_enabled_host_line_is_ignored(guest, project: Path):
    ok(guest, "memorize", "A default fact about ports.")
    (project / ".gm" / "disciplines").mkdir(parents=True)
    (project / ".gm" / "disciplines" / "enabled.txt").write_text("host\n")
    hits = ok(guest, "recall", "ports")
    assert [h["namespace"] for h in hits] == ["default"]
    assert not (project / ".gm" / "disciplines" / "host").exists()


def test_the_host_refuses_a_host_discipline(project: Path):
    with pytest.raises(StoreError, match="not 'host'"):
        Project(project).discipline_db("host")
    with pytest.raises(BadName, match="reserved"):
        check_name("host")


@pytest.mark.parametrize(("raw", "name"), [
    ("Café Setup", "cafe-setup"),
    (unicodedata.normalize("NFD", "Café Setup"), "cafe-setup"),
    (unicodedata.normalize("NFD", "évil"), "evil"),
    ("évil", "evil"),
    ("ſkill", "skill"),
    ("ＤＥＰＬＯＹ", "deploy"),
    ("İstanbul notes", "istanbul-notes"),
    ("Straße", "strasse"),
    ("Ⅻ steps", "xii-steps"),
    ("𝐁𝐨𝐥𝐝 name", "bold-name"),
    ("Søren's ﬁle", "soren-s-file"),
])
def test_skill_names_are_normalised_before_sanitising(raw: str, name: str):
    assert sanitize_name(raw) == name


def test_every_spelling_of_a_name_is_the_same_skill(guest, project: Path):
    nfc, nfd = "Évil Plan", unicodedata.normalize("NFD", "Évil Plan")
    assert nfc != nfd
    first = ok(guest, "learn", {"memory": "One lesson.", "skill": {"action": "create", "name": nfc,
                                                                 "description": "d", "body": "b"}})
    second = ok(guest, "learn", {"memory": "Another lesson.", "skill": {"action": "create", "name": nfd,
                                                                       "description": "d", "body": "c"}})
    assert first["details"] == second["details"] == {"skill": "evil-plan"}
    assert second["text"] == 'Lesson stored. Updated managed skill "evil-plan".'
    assert sorted(p.name for p in (project / ".gm" / "managed-skills").iterdir()) == ["evil-plan"]


def test_names_fold_the_same_natively_and_in_the_component(guest):
    """Code points Unicode 16 added (the component's CPython) fold like unassigned ones (the host's)."""
    raw = "\U0001ccd6\U0001ccf0 x"  # OUTLINED LATIN CAPITAL LETTER A, OUTLINED DIGIT ZERO (Unicode 16)
    data = ok(guest, "learn", {"memory": "Lesson.", "skill": {"action": "create", "name": raw,
                                                             "description": "d", "body": "b"}})
    assert data["details"] == {"skill": "x"}
    assert json.dumps(data["details"]) == '{"skill": "x"}'
