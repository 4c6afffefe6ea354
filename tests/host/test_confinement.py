"""Never outside the project: links and hard links planted under ``.gm/`` are refused (issue 11, item 2).

``.gm/`` is committed, so a cloned repository can plant any of these. Each test points a link at
a folder outside the project and checks that nothing is written (or read) there.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from envelopes import call, ok
from hostprocs import host, host_env, write_request

from host_harness.config import ConfigError
from host_harness.fs import confine, skills
from host_harness.hooks.protocol import log_reason
from host_harness.services import HostServices
from host_harness.spool.watcher import Spool
from host_harness.store import Project
from host_harness.store.enabled_list import EnabledList

SKILL = {"action": "create", "name": "deploy", "description": "How we deploy", "body": "1. Ship\n"}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def everything(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def link(path: Path, target: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target, target_is_directory=target.is_dir())


@pytest.mark.parametrize("planted", [".gm/managed-skills/deploy", ".gm/managed-skills", ".gm"])
def test_a_managed_skill_is_never_written_through_a_link(guest, project: Path, outside: Path, planted: str):
    link(project / planted, outside)
    envelope = call(guest, "learn", {"memory": "Ship on Tuesdays.", "skill": SKILL})
    if planted == ".gm":  # the store itself is behind the link: the whole call is refused
        assert envelope["ok"] is False and "symbolic link" in envelope["error"]
    else:
        data = envelope["data"]
        assert data["isError"] is True and data["details"] == {"skill": None}
        assert data["text"].startswith("Lesson stored, but the managed skill could not be written: ")
        assert "symbolic link" in data["text"]
    assert everything(outside) == []


def test_a_discipline_folder_behind_a_link_gets_no_database(guest, project: Path, outside: Path):
    link(project / ".gm" / "disciplines" / "frontend", outside)
    envelope = call(guest, "memorize", {"text": "vite builds it", "namespace": "frontend"})
    assert envelope["ok"] is False and "symbolic link" in envelope["error"]
    assert everything(outside) == []
    assert ok(guest, "memorize", "the default store still works")["deduped"] is False


@pytest.mark.parametrize("name", ["rs-learn.db", "rs-learn.db-journal"])
def test_a_linked_database_or_journal_is_refused(guest_factory, project: Path, clock, outside: Path,
                                                 name: str):
    first = HostServices(project, clock=clock)
    ok(guest_factory(first), "memorize", "A first fact.")
    first.close()
    db = project / ".gm" / name
    if db.exists():
        os.replace(db, outside / name)
    link(db, outside / name)
    before = everything(outside)
    sizes = {p: p.stat().st_size for p in outside.iterdir()}
    services = HostServices(project, clock=clock)  # a process started after the link was planted
    envelope = call(guest_factory(services), "memorize", "A second fact.")
    services.close()
    assert envelope["ok"] is False and "symbolic link" in envelope["error"]
    assert everything(outside) == before and {p: p.stat().st_size for p in outside.iterdir()} == sizes


def test_the_spool_refuses_a_linked_answer_folder(guest, project: Path, outside: Path):
    victim = outside / "settings.json"
    victim.write_text('{"keep": true}')
    link(project / ".gm" / "exec-spool" / "out", outside)
    write_request(project, "memorize", "settings.json", b"overwrite settings")
    with pytest.raises(confine.OutsideProject, match="symbolic link"):
        Spool(project, guest)
    assert victim.read_text() == '{"keep": true}' and everything(outside) == ["settings.json"]


@pytest.mark.parametrize("planted", [".gm/exec-spool/out", ".gm/exec-spool/work", ".gm/exec-spool"])
def test_a_watcher_refuses_linked_spool_folders(project: Path, outside: Path, planted: str):
    (project / ".gm" / "exec-spool" / "in" / "memorize").mkdir(parents=True)
    if planted == ".gm/exec-spool":
        os.replace(project / ".gm" / "exec-spool", outside / "spool")
        link(project / planted, outside / "spool")
    else:
        link(project / planted, outside)
    before = everything(outside)
    done = host("spool", "--once", env=host_env(project))
    assert done.returncode == 1 and b"symbolic link" in done.stderr, done.stderr
    assert everything(outside) == before


def test_a_linked_verb_folder_is_set_aside_unread(guest, project: Path, outside: Path):
    (outside / "1.json").write_text('{"text": "a secret from outside"}')
    link(project / ".gm" / "exec-spool" / "in" / "memorize", outside)
    spool = Spool(project, guest)
    spool.drain_all(threading.Event())
    spool.close()
    assert not (project / ".gm" / "exec-spool" / "in" / "memorize").exists()
    rejected = list((project / ".gm" / "exec-spool" / "in" / ".rejected").rglob("memorize"))
    assert len(rejected) == 1 and rejected[0].is_symlink()
    assert everything(outside) == ["1.json"], "nothing was read, moved or removed out there"
    assert ok(guest, "stats")["memories"] == 0


def test_a_hard_linked_request_is_not_read(guest, project: Path, outside: Path):
    secret = outside / "secret.txt"
    secret.write_text("the production password is hunter2")
    folder = project / ".gm" / "exec-spool" / "in" / "memorize"
    folder.mkdir(parents=True)
    os.link(secret, folder / "1.txt")
    spool = Spool(project, guest)
    spool.drain_all(threading.Event())
    spool.close()
    answer = json.loads((project / ".gm" / "exec-spool" / "out" / "1.json").read_text())
    assert answer["ok"] is False and "hard link" in answer["error"]
    assert secret.read_text() == "the production password is hunter2" and secret.stat().st_nlink == 1
    assert ok(guest, "stats")["memories"] == 0


def test_the_hook_log_never_follows_a_linked_logs_folder(project: Path, outside: Path, tmp_path: Path):
    link(project / ".gm" / "logs", outside)
    cache = tmp_path / "cache"
    log_reason(project, "nothing injected", cache)
    assert everything(outside) == []
    line = (cache / "hook.log").read_text()
    assert "nothing injected" in line and "symbolic link" in line


def test_linked_settings_files_are_not_read(project: Path, outside: Path):
    (outside / "enabled.txt").write_text("secret-discipline\n")
    link(project / ".gm" / "disciplines" / "enabled.txt", outside / "enabled.txt")
    assert Project(project).enabled_disciplines() == []
    with pytest.raises(OSError, match="symbolic link"):
        EnabledList(Project(project)).enable("frontend")
    assert (outside / "enabled.txt").read_text() == "secret-discipline\n"
    (outside / "config.json").write_text('{"memory": {"retentionDays": 1}}')
    link(project / ".gm" / "config.json", outside / "config.json")
    with pytest.raises(ConfigError, match="symbolic link"):
        HostServices(project)


def test_linked_skill_folders_are_not_listed(project: Path, outside: Path):
    (outside / "stolen").mkdir()
    (outside / "stolen" / "SKILL.md").write_text("---\nname: stolen\n---\n")
    link(project / ".gm" / "managed-skills", outside)
    (project / ".gm" / "skills").mkdir()
    link(project / ".gm" / "skills" / "stolen", outside / "stolen")
    assert skills.managed_skills(project) == []
    assert skills.authored_skills(project) == []


STOLEN = "---\nname: stolen\ndescription: THE OUTSIDE SECRET\n---\n\nsteps\n"


@pytest.mark.parametrize("planted", [".claude", ".claude/skills", ".claude/skills/stolen",
                                     ".claude/skills/stolen/SKILL.md"])
def test_claude_skills_are_never_read_through_a_link(guest, project: Path, outside: Path, wasm_path: Path,
                                                     planted: str):
    """Issue 25, item 5: all four link forms under ``.claude``; the listing, the guest and the hook."""
    below = Path(planted).relative_to(".claude") if planted != ".claude" else Path(".")
    source = outside / "claude" / below  # what the link points at: the outside copy of that path
    (outside / "claude" / "skills" / "stolen").mkdir(parents=True)
    (outside / "claude" / "skills" / "stolen" / "SKILL.md").write_text(STOLEN)
    (project / ".gm" / "skills" / "mine").mkdir(parents=True)
    (project / ".gm" / "skills" / "mine" / "SKILL.md").write_text("---\ndescription: ours\n---\n")
    if planted.endswith("SKILL.md"):
        (project / ".claude" / "skills" / "stolen").mkdir(parents=True)
    link(project / planted, source)
    assert skills.authored_skills(project) == ["mine"]
    assert all("stolen" not in str(s) and "SECRET" not in str(s) for s in skills.discover(project))
    data = ok(guest, "session_start", {})
    assert "SECRET" not in data["context"] and "stolen" not in json.dumps(data)
    env = host_env(project, RS_LEARN_HOOK_TIMEOUT="30")
    listed = host("skills", "list", env=env)
    assert listed.returncode == 0 and b"stolen" not in listed.stdout, listed.stdout
    event = json.dumps({"hook_event_name": "SessionStart", "cwd": str(project), "source": "startup"}).encode()
    hook = host("hook", "session-start", env=env, input=event)
    assert hook.returncode == 0 and b"SECRET" not in hook.stdout and b"stolen" not in hook.stdout
    assert b"mine" in listed.stdout and b"ours" in hook.stdout
