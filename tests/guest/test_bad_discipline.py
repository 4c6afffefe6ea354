"""One bad discipline store does not break recall: it is skipped with a warning (issue 11, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from envelopes import call, ok
from hostprocs import host, host_env

from host_harness.services import HostServices
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime

LFS_POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
               b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n")


def enable(project: Path, *names: str) -> None:
    folder = project / ".gm" / "disciplines"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "enabled.txt").write_text("".join(f"{n}\n" for n in names))


def plant(project: Path, name: str, content: bytes) -> Path:
    db = project / ".gm" / "disciplines" / name / "rs-learn.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(content)
    return db


@pytest.mark.parametrize("content", [LFS_POINTER, b"garbage " * 1000], ids=["lfs-pointer", "garbage"])
def test_recall_skips_a_broken_enabled_store_and_says_so(guest, project: Path, content: bytes):
    ok(guest, "memorize", "The default store knows the deploy command.")
    enable(project, "frontend")  # a known discipline: its sigil routes
    ok(guest, "memorize", "@frontend The frontend deploy uses vite build.")
    db = plant(project, "broken", content)
    enable(project, "frontend", "broken")
    envelope = call(guest, "recall", "deploy")
    assert envelope["ok"] is True, envelope
    assert {hit["namespace"] for hit in envelope["data"]} == {"default", "frontend"}
    [warning] = envelope["warnings"]
    assert warning.startswith("discipline 'broken' skipped: its store .gm/disciplines/broken/rs-learn.db")
    assert "not a database" in warning
    auto = call(guest, "auto_recall", {"prompt": "how do we deploy the frontend?"})
    assert auto["ok"] is True and "vite" in auto["data"]["context"] and auto["warnings"] == [warning]
    assert db.read_bytes() == content, "the broken file is left as it is"
    assert "warnings" not in call(guest, "recall", "@frontend deploy"), "no warning when nothing was skipped"


def test_naming_a_broken_store_explicitly_is_still_an_error(guest, project: Path):
    plant(project, "broken", LFS_POINTER)
    envelope = call(guest, "recall", "@broken anything")
    assert envelope["ok"] is False and "not a database" in envelope["error"]


def test_the_typed_recall_export_skips_it_too(guest, project: Path):
    ok(guest, "memorize", "The default store knows the port: 8080.")
    plant(project, "broken", LFS_POINTER)
    enable(project, "broken")
    assert [hit["namespace"] for hit in guest.recall("port", 3)] == ["default"]
    assert any("discipline 'broken' skipped" in w for w in guest.services.warnings)


def test_the_hook_injects_the_rest_and_logs_the_skip(wasm_path: Path, wasm_runtime: Runtime, project: Path):
    services = HostServices(project)
    guest = WasmGuest(wasm_runtime, services)
    guest.memorize("The staging server listens on port 8080.", "default")
    guest.close()
    services.close()
    plant(project, "broken", LFS_POINTER)
    enable(project, "broken")
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project),
                         "prompt": "which port does the staging server use?"}).encode()
    done = host("hook", "prompt-submit", env=host_env(project, RS_LEARN_HOOK_TIMEOUT="20"), input=prompt)
    assert done.returncode == 0
    assert "8080" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    log = (project / ".gm" / "logs" / "hook.log").read_text()
    assert "warning: discipline 'broken' skipped" in log
