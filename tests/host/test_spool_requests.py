"""The spool's requests as a first user writes them (issue 25): verb folders, ids, scope."""

from __future__ import annotations

import json
import re
import subprocess
import threading
from pathlib import Path

import pytest
from docpages import blocks, page
from envelopes import ok
from hostprocs import Watcher, host, host_env, wait_for, write_request

from host_harness.spool.inbox import request_id
from host_harness.spool.watcher import ANSWERED, DEFERRED, Spool
from host_harness.targets.base import BaseGuest

OUT = (".gm", "exec-spool", "out")


def answer(project: Path, n: str) -> dict:
    return json.loads(project.joinpath(*OUT, f"{n}.json").read_text(encoding="utf-8"))


def drained(project: Path, guest: BaseGuest, **options: bool) -> dict[str, int]:
    return Spool(project, guest, **options).drain_all(threading.Event())


# item 13: every verb's folder exists once the spool has started


def test_the_spool_creates_the_folder_of_every_verb_the_guest_serves(guest: BaseGuest, project: Path):
    served = ok(guest, "version", {})["verbs"]
    assert {"memorize", "recall", "recall_search", "create_todo", "version"} <= set(served)
    assert served == sorted(served)
    drained(project, guest)
    folders = {p.name for p in project.joinpath(".gm", "exec-spool", "in").iterdir() if p.is_dir()}
    assert folders == set(served), "one folder per verb, and no list but the guest's"


def test_a_request_in_an_unknown_verb_folder_is_answered_with_an_error(guest: BaseGuest, project: Path):
    write_request(project, "memorise", "1.json", b'{"text": "x"}')
    assert drained(project, guest) == {ANSWERED: 1, DEFERRED: 0}
    got = answer(project, "1")
    assert got["ok"] is False and got["verb"] == "memorise"
    assert got["error"].startswith("validation: unknown verb 'memorise'; known verbs: ")
    assert "memorize" in got["error"]


def test_a_file_written_into_in_itself_is_answered_with_an_error(guest: BaseGuest, project: Path):
    stray = project / ".gm" / "exec-spool" / "in" / "5.json"
    stray.parent.mkdir(parents=True)
    stray.write_text('{"text": "x"}')
    assert drained(project, guest) == {ANSWERED: 1, DEFERRED: 0}
    got = answer(project, "5")
    assert got["ok"] is False and "a request goes in in/<verb>/<N>.<ext>" in got["error"]
    assert not stray.exists(), "answered, so removed: never skipped forever"


def test_the_docs_spool_example_works_in_a_fresh_project(wasm_path: Path, project: Path):
    """docs/spool.md's first block, line by line: the watcher, then printf, mv and cat in the project."""
    lines = [line.split("  #")[0].strip() for line in blocks(page("docs/spool.md"), "sh")[0].splitlines()]
    assert lines[0].startswith("rs-learn-host spool --watch &")
    env = host_env(project)
    watcher = Watcher(env)
    try:
        watcher.wait_ready()
        for line in lines[1:3]:  # printf ... > in/memorize/.1.tmp, then mv into place
            done = subprocess.run(["bash", "-c", line], cwd=project, capture_output=True, text=True,
                                  timeout=30)
            assert done.returncode == 0, f"{line}\n{done.stderr}"
        out = project.joinpath(*OUT, "1.json")
        wait_for(out.exists, 60, "the answer of in/memorize/1.json")
        assert lines[3].startswith("cat .gm/exec-spool/out/1.json")
        assert answer(project, "1")["ok"] is True and answer(project, "1")["data"]["id"].startswith("mem-")
    finally:
        assert watcher.stop() == 0


def test_once_creates_the_verb_folders_of_an_existing_spool(wasm_path: Path, project: Path):
    project.joinpath(".gm", "exec-spool", "in").mkdir(parents=True)
    done = host("spool", "--once", env=host_env(project))
    assert done.returncode == 0, done.stderr
    assert project.joinpath(".gm", "exec-spool", "in", "memorize").is_dir()
    assert project.joinpath(".gm", "exec-spool", "in", "create_todo").is_dir()


# item 16: the id is the file name without its final extension


@pytest.mark.parametrize(("name", "n"), [
    ("x.y.z.json", "x.y.z"), ("1.2.json", "1.2"), ("7.txt", "7"), ("9", "9"), ("v1.0.md", "v1.0"),
    ("8.", "8"),
])
def test_request_id(name: str, n: str):
    assert request_id(name) == n


def test_ids_with_dots_are_answered_under_their_whole_name(guest: BaseGuest, project: Path):
    write_request(project, "stats", "x.y.z.json", b"{}")
    write_request(project, "version", "1.2.json", b"{}")
    write_request(project, "version", "1.3.json", b"{}")
    assert drained(project, guest) == {ANSWERED: 3, DEFERRED: 0}, "1.2 and 1.3 do not collide"
    names = sorted(p.name for p in project.joinpath(*OUT).glob("*.json"))
    assert names == ["1.2.json", "1.3.json", "x.y.z.json"]
    assert answer(project, "x.y.z")["verb"] == "stats" and answer(project, "1.3")["ok"] is True


# item 15: the scope of records made through the spool


def created_scope(project: Path, n: str) -> dict:
    got = answer(project, n)
    assert got["ok"] is True, got
    return got["data"]["scope"]


UNSCOPED = {"actorId": None, "conversationId": None, "projectId": None, "threadId": None, "global": False}


def test_the_watcher_uses_the_scope_of_its_options_and_environment(wasm_path: Path, project: Path):
    write_request(project, "create_todo", "1.json", b'{"title": "Fix the login test"}')
    done = host("spool", "--once", env=host_env(project, RS_LEARN_SCOPE_PROJECT="app"))
    assert done.returncode == 0, done.stderr
    assert created_scope(project, "1") == {**UNSCOPED, "projectId": "app"}
    write_request(project, "create_todo", "2.json", b'{"title": "Ship it"}')
    done = host("spool", "--once", "--project-id", "web", "--thread", "t1", env=host_env(project))
    assert done.returncode == 0, done.stderr
    assert created_scope(project, "2") == {**UNSCOPED, "projectId": "web", "threadId": "t1"}
    listed = host("records", "--project-id", "app", "list", "--json", env=host_env(project))
    assert [hit["record"]["title"] for hit in json.loads(listed.stdout)["hits"]] == ["Fix the login test"]


SCOPED = b'{"$spool": {"scope": {"projectId": "app", "threadId": "t-7"}}, "title": "Fix the login test"}'


def test_a_request_scope_needs_the_trust_flag(guest: BaseGuest, project: Path):
    write_request(project, "create_todo", "1.json", SCOPED)
    drained(project, guest)
    got = answer(project, "1")
    assert got == {"ok": False, "verb": "create_todo", "error": got["error"]}
    assert "'$spool.scope' is refused" in got["error"] and "--trust-request-scope" in got["error"]
    assert ok(guest, "query_records", {})["hits"] == [], "nothing was created"


def test_a_trusted_request_scope_applies_to_that_request_only(guest: BaseGuest, project: Path):
    write_request(project, "create_todo", "1.json", SCOPED)
    write_request(project, "create_todo", "2.json", b'{"title": "An unscoped one"}')
    write_request(project, "create_todo", "3.json", b'{"$spool": {"scope": null}, "title": "Unscoped too"}')
    write_request(project, "memorize", "4.json", b'{"$spool": {}, "text": "The wrapper never reaches it."}')
    assert drained(project, guest, trust_request_scope=True) == {ANSWERED: 4, DEFERRED: 0}
    assert created_scope(project, "1") == {**UNSCOPED, "projectId": "app", "threadId": "t-7"}
    assert created_scope(project, "2") == UNSCOPED == created_scope(project, "3")
    assert answer(project, "4")["ok"] is True
    titles = sorted(hit["record"]["title"] for hit in ok(guest, "query_records", {})["hits"])
    assert titles == ["An unscoped one", "Unscoped too"], "the scoped record stays in its scope"


@pytest.mark.parametrize(("body", "message"), [
    (b'{"$spool": 3, "title": "x"}', "field '$spool' must be an object, got 3"),
    (b'{"$spool": {"scoop": {}}, "title": "x"}', "field '$spool.scoop' is unknown (known: scope)"),
    (b'{"$spool": {"scope": []}, "title": "x"}', "field '$spool.scope' must be an object, got []"),
    (b'{"$spool": {"scope": {"project": "a"}}, "title": "x"}', "field '$spool.scope.project' is unknown"),
    (b'{"$spool": {"scope": {"projectId": 7}}, "title": "x"}', "'$spool.scope.projectId' must be a string"),
    (b'{"$spool": {"scope": {"actorId": ""}}, "title": "x"}', "'$spool.scope.actorId' must be a string"),
    (b'{"$spool": {"scope": {"global": "yes"}}, "title": "x"}', "'$spool.scope.global' must be true or"),
])
def test_a_malformed_wrapper_is_refused(guest: BaseGuest, project: Path, body: bytes, message: str):
    write_request(project, "create_todo", "1.json", body)
    drained(project, guest, trust_request_scope=True)
    got = answer(project, "1")
    assert got["ok"] is False and got["error"].startswith("validation: ") and message in got["error"], got
    assert ok(guest, "query_records", {})["hits"] == []


def test_a_scope_inside_the_body_is_still_refused_by_the_guest(guest: BaseGuest, project: Path):
    """D18 holds for the body itself: only the watcher's wrapper may carry a scope."""
    write_request(project, "create_todo", "1.json", b'{"title": "x", "projectId": "app"}')
    drained(project, guest, trust_request_scope=True)
    assert re.search(r"field 'projectId' is a scope field", answer(project, "1")["error"])
