"""A rule is found by what it is about, through the prompt hook as Claude Code runs it (issue 47 item 2).

The live examples of the issue: "Always use pnpm, never npm, in this repo." shares no word with
"Which package manager should I use to run the calc tests?" (and its cosine is below the gate's),
and "merge my branch into main" none but ordinary ones with "Never push directly to main; open a
PR". The store indexes each rule under its topic at write time (:mod:`guest.memory.topics`); the
hook (``hook prompt-submit``'s body, in process) injects it, on both targets. The pure parts are in
``tests/test_topics.py``; ``auto_recall``'s evidence in ``tests/test_relevance.py``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from conftest import WASM

from host_harness.hooks.pipeline import HookConfig, PromptSubmitHook

PNPM = "Always use pnpm, never npm, in this repo."
MAIN = "Never push directly to main; open a PR."
NOTES = [
    "The calc tests live in tests/calc and cover add and sub.",
    "pnpm 9 changed the lockfile format last spring.",  # a mention, no rule: no topic
    "frontend: run pnpm lint and the storybook snapshots before pushing.",
    "The staging server listens on port 8080 behind nginx.",
    "Use httpx for calls to other services, not requests.",
]


def hook(project: Path, target: str, prompt: str, session: str) -> str:
    """One prompt-submit run in process: the context it injects (``""``: nothing)."""
    raw = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": prompt, "session_id": session,
                      "cwd": str(project)}).encode()
    config = HookConfig(wasm=WASM, fallback_project=project, native=target == "native", timeout_s=60,
                        started=time.monotonic())
    output = PromptSubmitHook(config).run(lambda: raw)
    return json.loads(output)["hookSpecificOutput"]["additionalContext"] if output else ""


def test_the_hook_injects_a_rule_for_a_question_about_its_topic(guest, project: Path, target: str):
    for text in [PNPM, MAIN, *NOTES]:
        guest.memorize(text, "default")
    guest.close()
    context = hook(project, target, "Which package manager should I use to run the calc tests?", "s-1")
    assert PNPM in context
    assert NOTES[1] not in context  # the mention of pnpm says nothing about which one to use
    assert MAIN in hook(project, target, "merge my branch into main", "s-2")
    assert "httpx" in hook(project, target, "Which HTTP client library should I use?", "s-3")
    assert hook(project, target, "How long is the warranty on the office chairs?", "s-4") == ""
