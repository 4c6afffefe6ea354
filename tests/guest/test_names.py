"""Names (issue 11, item 10): ``host`` is never a discipline; skill names are normalised first."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from envelopes import call, ok

from guest.learn.skills import sanitize_name
from host_harness.errors import StoreError
from host_harness.store import Project
from host_harness.store.enabled_list import BadName, check_name

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


# Windows device names and names that differ only in case (issue 25, item 9)

DEVICES = ["CON", "con", "Nul", "PRN", "aux", "COM0", "com9", "LPT1", "lpt0"]


@pytest.mark.both_stores
@pytest.mark.parametrize("name", ["CON", "nul", "LPT1"])
@pytest.mark.parametrize("verb", ["memorize", "recall", "archive", "stats"])
def test_a_device_name_is_not_a_discipline(guest, project: Path, verb: str, name: str):
    body = {"memorize": {"text": "A fact."}, "recall": {"query": "fact"}, "archive": {"content": "block"},
            "stats": {}}[verb]
    envelope = call(guest, verb, {**body, "namespace": name})
    assert envelope["ok"] is False
    assert envelope["error"] == (f"validation: namespace {name!r} is a reserved device name on Windows "
                                 "(CON, PRN, AUX, NUL, COM0-9, LPT0-9): a folder of that name breaks a "
                                 "checkout there; choose another name")
    assert not (project / ".gm" / "disciplines").exists()


def test_listed_device_names_are_not_disciplines(guest, project: Path):
    ok(guest, "memorize", "A default fact about ports.")
    (project / ".gm" / "disciplines" / "nul").mkdir(parents=True)
    (project / ".gm" / "disciplines" / "enabled.txt").write_text("CON\nLpt1\n")
    assert [h["namespace"] for h in ok(guest, "recall", "ports")] == ["default"]
    assert ok(guest, "memorize", "@nul A fact behind a device sigil.")["namespace"] == "default"
    assert sorted(p.name for p in (project / ".gm" / "disciplines").iterdir()) == ["enabled.txt", "nul"]
    assert not (project / ".gm" / "disciplines" / "nul" / "rs-learn.db").exists()


@pytest.mark.both_stores
@pytest.mark.parametrize("verb", ["memorize", "recall"])
def test_a_discipline_differing_only_in_case_is_refused(guest, project: Path, verb: str, store_kind: str):
    ok(guest, "memorize", {"text": "The app is built with vite.", "namespace": "frontend"})
    body = {"text": "Components live in src/ui."} if verb == "memorize" else {"query": "vite"}
    envelope = call(guest, verb, {**body, "namespace": "Frontend"})
    assert envelope["ok"] is False
    assert envelope["error"] == ("validation: field 'namespace' 'Frontend' differs only in case from the "
                                 "discipline 'frontend': on macOS and Windows they would be one folder; "
                                 "use the existing name")
    if store_kind == "sqlite":
        assert sorted(p.name for p in (project / ".gm" / "disciplines").iterdir()) == ["frontend"]
    assert ok(guest, "stats", {"namespace": "frontend"})["memories"] == 1
    assert ok(guest, "stats", {"namespace": "FrontEnd2"})["memories"] == 0, "another name is fine"


@pytest.mark.parametrize(("raw", "name"), [("CON", "con"), ("Nul", "nul"), ("LPT 1", "lpt-1"),
                                           ("lpt1", "lpt1"), ("Com7", "com7"), ("AUX!", "aux")])
def test_a_skill_named_like_a_device_is_reported_after_the_lesson(guest, project: Path, raw: str, name: str):
    data = ok(guest, "learn", {"memory": "Ship on Tuesdays.",
                               "skill": {"action": "create", "name": raw, "description": "d", "body": "b"}})
    if name == "lpt-1":  # not a device name: written
        assert data["isError"] is False and data["details"] == {"skill": "lpt-1"}
        return
    assert data["isError"] is True and data["details"] == {"skill": None}
    assert data["text"] == (f"Lesson stored, but the managed skill could not be written: skill name {name!r} "
                            "is a reserved device name on Windows (CON, PRN, AUX, NUL, COM0-9, LPT0-9): a "
                            "folder of that name breaks a checkout there; choose another name")
    assert not (project / ".gm" / "managed-skills").exists()
    assert ok(guest, "recall", "ship tuesdays")[0]["text"] == "Ship on Tuesdays."


@pytest.mark.parametrize("name", [*DEVICES, "con.txt", "NUL.tar.gz", "CON ", "nul.", "COM\u00b9",
                                  "lpt\u00b3"])
def test_the_host_refuses_device_names(project: Path, name: str):
    from host_harness.fs import is_device_name, valid_name

    assert is_device_name(name) and not valid_name(name)
    with pytest.raises(StoreError, match="not a Windows device name"):
        Project(project).discipline_db(name)
    with pytest.raises(BadName, match="reserved device name on Windows"):
        check_name(name)


@pytest.mark.parametrize("name", ["console", "nul2", "com10", "lpt", "aux-notes", "prn_x", "icon", "connect"])
def test_names_that_only_start_like_a_device_are_fine(project: Path, name: str):
    from host_harness.fs import valid_name

    assert valid_name(name)
    assert Project(project).discipline_db(name).parent.name == name


def test_the_host_refuses_a_discipline_or_skill_folder_differing_only_in_case(project: Path):
    from host_harness.fs import effects
    from host_harness.store import StoreRouter
    from host_harness.store.enabled_list import EnabledList

    (project / ".gm" / "disciplines" / "frontend").mkdir(parents=True)
    with pytest.raises(StoreError, match="'Frontend' differs only in case from the existing 'frontend'"):
        StoreRouter(Project(project)).route("disciplines/Frontend/memories")
    assert StoreRouter(Project(project)).route("disciplines/frontend/memories").ns == "memories"
    with pytest.raises(BadName, match="differs only in case"):
        EnabledList(Project(project)).enable("FrontEnd")
    assert not (project / ".gm" / "disciplines" / "enabled.txt").exists()
    (project / ".gm" / "managed-skills" / "Deploy").mkdir(parents=True)
    for path, reason in [("managed-skills/deploy/SKILL.md", "'deploy' differs only in case from the existing "
                                                            "'Deploy'"),
                         ("managed-skills/lpt1/SKILL.md", "'lpt1' is a reserved device name on Windows")]:
        envelope = json.dumps({"ok": True, "verb": "learn", "data": {
            "text": "Lesson stored.", "isError": False, "details": {"skill": "x"},
            "write": {"path": path, "content": "---\n---\n", "failure_prefix": "Lesson stored"}}})
        data = json.loads(effects.apply(project, envelope))["data"]
        assert data["isError"] is True and reason in data["text"], data
    assert sorted(p.name for p in (project / ".gm" / "managed-skills").iterdir()) == ["Deploy"]


def test_the_cli_refuses_device_names_and_case_twins(project: Path):
    from click.testing import CliRunner

    from host_harness.cli.main import cli

    runner = CliRunner()
    for verb in ("create", "enable"):
        done = runner.invoke(cli, ["-p", str(project), "discipline", verb, "LPT1"])
        assert done.exit_code == 2 and "reserved device name on Windows" in done.output, done.output
    assert runner.invoke(cli, ["-p", str(project), "discipline", "create", "notes"]).exit_code == 0
    for verb in ("create", "enable"):
        done = runner.invoke(cli, ["-p", str(project), "discipline", verb, "Notes"])
        assert done.exit_code == 1 and "'Notes' differs only in case from the existing 'notes'" in done.output
    assert sorted(p.name for p in (project / ".gm" / "disciplines").iterdir()) == ["notes"]
