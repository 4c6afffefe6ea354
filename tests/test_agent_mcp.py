"""The current Claude Code connects to rs-learn's MCP server (issue 44).

Claude Code 2.1.332 opens with the 2026-07-28 ``server/discover`` and falls back to ``initialize
2025-11-25`` when the answer is slow; the server must then serve the handshake session it falls back
to. ``claude mcp list`` health-checks the server ``setup`` wrote in ``.mcp.json`` (the pinned CLI's own
check is in ``tests/test_setup_clis.py``); the messages the CLI sent are read on the way in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from agentclis import agent_env, current_claude, run

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
