"""Issue 47 item 5: per-prompt recall does not repeat the conventions the session start listed.

The session-context hook (``capture_context``) lists the project's active conventions and notes their
ids in the session's state; the prompt-submit hook then sends them as ``exclude``. A convention
superseded since is a new memory: its successor is injected. Both hooks run in process, on each target.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import WASM, make_guest
from envelopes import ok

from host_harness.capture.hooks import CaptureContextHook
from host_harness.hooks import sessions
from host_harness.hooks.pipeline import HookConfig, PromptSubmitHook
from host_harness.services import HostServices

PROMPT = "Should I install the dependencies with npm or pnpm?"


def capture(project: Path, target: str, request: pytest.FixtureRequest, text: str) -> str:
    """Capture ``text`` as a directive of the user's; its memory id."""
    services = HostServices(project)
    guest = make_guest(target, services, request)
    try:
        answer = ok(guest, "capture", {"session": "typed", "directives": [{"text": text}]})
        return str(answer["directives"][0]["id"])
    finally:
        guest.close()
        services.close()


def run(hook: type[CaptureContextHook] | type[PromptSubmitHook], project: Path, target: str,
        event: dict[str, object]) -> str:
    """The context the hook prints for ``event`` (``""``: nothing)."""
    config = HookConfig(wasm=WASM, fallback_project=project, native=target == "native", timeout_s=120,
                        started=time.monotonic())
    printed = hook(config).run(lambda: json.dumps({"cwd": str(project), **event}).encode("utf-8"))
    return json.loads(printed)["hookSpecificOutput"]["additionalContext"] if printed else ""


def prompt(project: Path, target: str, session: str) -> str:
    event = {"session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": PROMPT}
    return run(PromptSubmitHook, project, target, event)


def start(project: Path, target: str, session: str) -> str:
    return run(CaptureContextHook, project, target, {"session_id": session, "hook_event_name": "SessionStart",
                                                     "source": "startup"})


def test_the_prompt_hook_leaves_out_the_conventions_the_start_listed_until_superseded(
        project: Path, target: str, request: pytest.FixtureRequest):
    (project / ".gm").mkdir(exist_ok=True)
    old = capture(project, target, request, "Use npm, not pnpm, here.")
    assert "Use npm, not pnpm, here." in prompt(project, target, "no-start"), "without a start it is injected"

    assert "- Use npm, not pnpm, here." in start(project, target, "s1").splitlines()
    assert sessions.load(project, "s1").conventions == [old]
    assert "Use npm, not pnpm, here." not in prompt(project, target, "s1"), "listed at the start already"

    capture(project, target, request, "Use pnpm, not npm, here.")  # supersedes it
    assert "Use pnpm, not npm, here." in prompt(project, target, "s1"), "the successor is new to the session"
    state = sessions.load(project, "s1")
    assert old in state.conventions and old not in state.injected
