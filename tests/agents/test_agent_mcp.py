"""The current Claude Code connects to rs-learn's MCP server and calls its tools (issue 44).

Claude Code 2.1.332 opens with the 2026-07-28 ``server/discover`` and falls back to ``initialize
2025-11-25`` when the answer is slow; the server must then serve the handshake session it falls back
to. ``claude mcp list`` health-checks the server ``setup`` wrote in ``.mcp.json`` (the pinned CLI's own
check is in ``tests/agents/test_setup_clis.py``); the messages the CLI sent are read on the way in.

Then a session: the stand-in model API (``agentclis.FakeApi`` with a script) asks for ``recall``, then
``memorize``; Claude Code runs each through the server ``setup`` wrote and sends its result back in its
next request, where the test reads it -- quiet, and with a CPU hog on every core (a loaded machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from agentclis import FakeApi, agent_clis, agent_env, current_claude, run

pytestmark = pytest.mark.network


def test_the_current_claude_connects_through_discover_and_the_handshake(wasm_runtime, git_repo: Path,
                                                                         tmp_path: Path):
    claude = current_claude()
    home = tmp_path / "home"
    home.mkdir()
    seen = tmp_path / "client.jsonl"
    host = Path(sys.executable).parent / "rs-learn-host"
    relay = tmp_path / "relay.sh"  # the server setup names, with the client's messages kept on the way in
    relay.write_text(f"#!/bin/sh\ntee -a {seen} | {host} mcp -p {git_repo}\n", encoding="utf-8")
    relay.chmod(0o755)
    mcp = {"mcpServers": {"rs-learn": {"command": str(relay), "args": []}}}
    (git_repo / ".mcp.json").write_text(json.dumps(mcp), encoding="utf-8")
    (git_repo / ".claude").mkdir(exist_ok=True)
    (git_repo / ".claude" / "settings.local.json").write_text('{"enabledMcpjsonServers": ["rs-learn"]}')
    config = {"hasCompletedOnboarding": True,
              "projects": {str(git_repo.resolve()): {"hasTrustDialogAccepted": True,
                                                     "enabledMcpjsonServers": ["rs-learn"]}}}
    (home / ".claude.json").write_text(json.dumps(config), encoding="utf-8")
    listed = run([claude, "mcp", "list"], cwd=git_repo, env=agent_env(home), timeout=600)
    assert "rs-learn: " in listed.stdout and "✔ Connected" in listed.stdout, listed.stdout + listed.stderr
    methods = [json.loads(line).get("method") for line in seen.read_text(encoding="utf-8").splitlines()]
    assert "tools/list" in methods or "initialize" in methods or "server/discover" in methods, methods


RECALL, MEMORIZE = "mcp__rs-learn__recall", "mcp__rs-learn__memorize"
KNOWN = "Staging runs on port 8080; production on 443."
NEW = "Deploys need a green CI run on main first."


SEARCHES = 30  # ToolSearch waits 5 s for a server still connecting: a bound for a loaded machine


def model(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The stand-in model: get the two tools, ``recall``, ``memorize``, then a closing text.

    The current Claude Code defers MCP tools (and a server still connecting) behind its ``ToolSearch``,
    so the model loads them first as a real one would, searching again while the result says the
    server is still connecting (as that result asks); the pinned one lists a connected server's tools
    with the others and offers ``WaitForMcpServers`` until then. A side request (no tools: a title, a
    summary) gets a text.
    """
    tools = {tool.get("name") for tool in body.get("tools") or []}
    if not tools & {"ToolSearch", "WaitForMcpServers", RECALL}:
        return [{"type": "text", "text": "ok"}]
    results = tool_results([("", body)])
    searches = [ident for ident in results if ident.startswith("toolu_search")]
    if "ToolSearch" in tools and (not searches or ("still connecting" in results[searches[-1]]
                                                   and len(searches) < SEARCHES)):
        search = {"query": f"select:{RECALL},{MEMORIZE}"}
        return [{"type": "tool_use", "id": f"toolu_search{len(searches)}", "name": "ToolSearch",
                 "input": search}]
    if RECALL not in tools and "WaitForMcpServers" in tools and len(searches) < SEARCHES:
        wait = {"servers": ["rs-learn"]}
        return [{"type": "tool_use", "id": f"toolu_search{len(searches)}", "name": "WaitForMcpServers",
                 "input": wait}]
    for ident, name, arguments in (("toolu_recall", RECALL, {"query": "staging port"}),
                                   ("toolu_memorize", MEMORIZE, {"text": NEW})):
        if ident not in results:
            return [{"type": "tool_use", "id": ident, "name": name, "input": arguments}]
    return [{"type": "text", "text": "Staging is on 8080; noted the deploy rule."}]


def tool_results(requests: list[tuple[str, object]]) -> dict[str, str]:
    """The text of each tool result the CLI sent the model, by tool-use id."""
    found: dict[str, str] = {}
    for _, body in requests:
        for message in body.get("messages", []) if isinstance(body, dict) else []:
            for block in message["content"] if isinstance(message["content"], list) else []:
                if block.get("type") == "tool_result":
                    content = block.get("content")
                    texts = [c.get("text", "") for c in content] if isinstance(content, list) else [content]
                    found[block["tool_use_id"]] = "\n".join(str(text) for text in texts)
    return found


@contextmanager
def cpu_hogs(on: bool) -> Iterator[None]:
    """A busy process per core while the block runs (a machine building something), when ``on``."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)
            ] if on else []
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.mark.parametrize(("cli", "loaded"), [("current", False), ("current", True), ("pinned", False)],
                         ids=["current-quiet", "current-cpu-hog-per-core", "pinned-quiet"])
def test_claude_calls_recall_and_memorize_through_setup_s_mcp_json(
        wasm_runtime, git_repo: Path, tmp_path: Path, cli: str, loaded: bool):
    claude = current_claude() if cli == "current" else agent_clis()["claude"]
    home = tmp_path / "home"
    home.mkdir()
    host = Path(sys.executable).parent / "rs-learn-host"
    env = agent_env(home)
    done = run([host, "-p", git_repo, "setup", "claude-code", "--no-warmup"], cwd=git_repo, env=env)
    assert done.returncode == 0, done.stderr
    assert run([host, "-p", git_repo, "memorize", KNOWN], cwd=git_repo, env=env).returncode == 0
    # the approval Claude Code asks for once, at its first start in the project (setup says so)
    (git_repo / ".claude" / "settings.local.json").write_text('{"enabledMcpjsonServers": ["rs-learn"]}')
    config = {"hasCompletedOnboarding": True,
              "projects": {str(git_repo.resolve()): {"hasTrustDialogAccepted": True}}}
    (home / ".claude.json").write_text(json.dumps(config), encoding="utf-8")
    with cpu_hogs(loaded), FakeApi(model) as api:
        api_env = agent_env(home, ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY="sk-test-no-account",
                            RS_LEARN_HOOK_TIMEOUT="60")
        session = run([claude, "-p", "What port does staging use? Also remember the deploy rule.",
                       "--allowedTools", f"{RECALL},{MEMORIZE}", "--output-format", "json"],
                      cwd=git_repo, env=api_env, timeout=900)
    results = tool_results(api.requests)
    assert "toolu_recall" in results and "toolu_memorize" in results, session.stdout + session.stderr
    assert "8080" in results["toolu_recall"], results
    listed = run([host, "-p", git_repo, "list", "--json"], cwd=git_repo, env=env)
    [stored] = [m for m in json.loads(listed.stdout)["memories"] if m["text"] == NEW]
    assert stored["id"] in results["toolu_memorize"], results
    assert "Staging is on 8080" in json.loads(session.stdout)["result"]
