"""Capture's Claude Code hooks (issue 34): ``hook stop`` / ``session-end`` / ``pre-compact`` start a capture
in the background and print nothing; ``hook session-context`` shows the index after a compaction and the
last session's note at a start; a transcript outside the project's sessions is never read. Then the real
Claude Code CLI runs the hooks ``setup claude-code`` wrote, against the stand-in API of ``agentclis``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agentclis import agent_clis, agent_env, claude_session, hook_context, run
from conftest import ROOT
from transcripts import Transcript

from host_harness.capture import state
from host_harness.capture.transcript import folder_name

WAIT_S = 240.0  # a generous bound for a background run on a loaded machine (not what is checked)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def repo(git_repo: Path) -> Path:
    (git_repo / ".gm").mkdir()
    return git_repo


def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "RS_LEARN_PROJECT"))}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), RS_LEARN_HOOK_TIMEOUT="60")
    return env


def hook(verb: str, event: dict[str, object], home: Path, project: Path, wasm: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "host_harness", "--wasm", str(wasm), "hook", verb],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=env_for(home),
        cwd=project,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


def session_file(home: Path, project: Path, t: Transcript) -> Path:
    return t.write(home / ".claude" / "projects" / folder_name(project.resolve()) / f"{t.session}.jsonl")


def wait_captured(project: Path, path: Path) -> state.State:
    """The transcript's state once the capture runs the hooks started are over (and one read it)."""
    until = time.monotonic() + WAIT_S
    while time.monotonic() < until:
        if state.wait_idle(project, path, WAIT_S):
            saved = state.load(project, path)
            if saved.offset > 0:
                return saved
        time.sleep(0.2)
    log = project / ".gm" / "logs"
    raise AssertionError(f"no capture of {path}: {[p.read_text() for p in log.glob('*.log')]}")


def listed(project: Path, wasm: Path, home: Path) -> list[dict[str, object]]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "host_harness",
            "-p",
            str(project),
            "--wasm",
            str(wasm),
            "list",
            "--captured",
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env_for(home),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout)["memories"])


def event(name: str, t: Transcript, path: Path, project: Path, **extra: object) -> dict[str, object]:
    return {
        "session_id": t.session,
        "transcript_path": str(path),
        "cwd": str(project),
        "hook_event_name": name,
        **extra,
    }


def test_stop_captures_in_the_background_and_the_next_start_shows_the_note(
    repo, home, wasm_runtime, wasm_path
):
    t = Transcript(repo).prompt("Fix the build. From now on, always run make lint first.")
    t.bash("make", "src/app.c:3: error: expected ';'", code=2).edit("src/app.c").bash("make", "ok")
    path = session_file(home, repo, t)
    assert hook("stop", event("Stop", t, path, repo, stop_hook_active=False), home, repo, wasm_path) == ""
    wait_captured(repo, path)
    texts = sorted(str(m["text"]) for m in listed(repo, wasm_path, home))
    assert texts == [
        "From now on, always run make lint first.",
        "`make` failed with `src/app.c:3: error: expected ';'`; fixed by editing src/app.c.",
    ]
    start = {"session_id": "next", "cwd": str(repo), "hook_event_name": "SessionStart", "source": "startup"}
    out = json.loads(hook("session-context", start, home, repo, wasm_path))["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart"
    assert "## Where the last session stopped" in out["additionalContext"]
    assert "Files edited: src/app.c" in out["additionalContext"]


def test_pre_compact_archives_and_the_compacted_session_gets_the_index(repo, home, wasm_runtime, wasm_path):
    t = Transcript(repo).prompt("Look at the test output")
    t.bash("pytest -x", "FAILED test_a\n" * 400).read("src/retry.py", "def retry():\n" * 300)
    path = session_file(home, repo, t)
    before = event("PreCompact", t, path, repo, trigger="manual")
    assert hook("pre-compact", before, home, repo, wasm_path) == ""
    compact = event("SessionStart", t, path, repo, source="compact")
    out = json.loads(hook("session-context", compact, home, repo, wasm_path))["hookSpecificOutput"]
    context = out["additionalContext"]
    assert "Archived before compaction: r1 — `pytest -x` output (2026-11-30 09:00 UTC) (5.5 KB)" in context
    assert "r2 — src/retry.py (2026-11-30 09:00 UTC) (3.8 KB)" in context


def test_a_transcript_outside_the_projects_sessions_is_never_read(repo, home, tmp_path, wasm_path):
    t = Transcript(repo).prompt("Always use tabs.")
    elsewhere = t.write(tmp_path / "other" / f"{t.session}.jsonl")
    other = t.write(home / ".claude" / "projects" / "-some-other-project" / f"{t.session}.jsonl")
    renamed = t.write(home / ".claude" / "projects" / folder_name(repo.resolve()) / "not-the-session.jsonl")
    for path in (elsewhere, other, renamed):
        assert hook("stop", event("Stop", t, path, repo), home, repo, wasm_path) == ""
    log = (repo / ".gm" / "logs" / "hook.log").read_text()
    assert log.count("is not one of this project's sessions") == 2 and "is not session" in log
    assert not (repo / ".gm" / "logs" / "capture").exists()


def test_no_store_or_capture_off_means_nothing_is_started(repo, home, wasm_path, tmp_path):
    (repo / ".gm" / "config.json").write_text('{"capture": false}')
    t = Transcript(repo).prompt("Always use tabs.")
    path = session_file(home, repo, t)
    assert hook("stop", event("Stop", t, path, repo), home, repo, wasm_path) == ""
    assert "capture is off" in (repo / ".gm" / "logs" / "hook.log").read_text()
    bare = tmp_path / "bare"
    bare.mkdir()
    assert hook("session-end", event("SessionEnd", t, path, bare), home, bare, wasm_path) == ""
    assert not (bare / ".gm").exists()


def test_the_real_claude_code_runs_capture_from_the_hooks_setup_wrote(repo, home, wasm_runtime):
    clis = agent_clis()
    host = ROOT / ".venv" / "bin" / "rs-learn-host"
    done = run([host, "-p", repo, "setup", "claude-code", "--no-warmup"], cwd=repo, env=agent_env(home))
    assert done.returncode == 0, done.stderr
    run([host, "-p", repo, "memorize", "Staging runs on port 8080."], cwd=repo, env=agent_env(home))
    claude_session(clis["claude"], repo, home, "From now on, always use pnpm, not npm, in this repository.")
    [path] = (home / ".claude" / "projects").glob("*/*.jsonl")
    assert path.parent.name == folder_name(repo.resolve())  # where the CLI keeps the project's sessions
    wait_captured(repo, path)
    done = run([host, "-p", repo, "review", "--json"], cwd=repo, env=agent_env(home))
    memories = json.loads(done.stdout)["memories"]
    assert [m["text"] for m in memories] == ["From now on, always use pnpm, not npm, in this repository."]
    assert memories[0]["captured"]["session"] == path.stem
    later = hook_context(claude_session(clis["claude"], repo, home, "what next?"))
    assert any("## Where the last session stopped" in text for text in later["SessionStart"]), later
