"""Warm by default inside an agent (issue 33, item 2): a real Claude Code session with the plugin.

The plugin starts ``rs-learn-host mcp`` for the session, and that server serves the hooks' warm
socket once its component is loaded; so a later prompt of the same session is answered through it
(the ledger line's ``path`` is ``warm``), not by a cold process. When the session ends the server
ends with it: the socket refuses connections.
"""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

from agentclis import FakeApi, agent_env
from hostprocs import wait_for
from test_plugin import clis, deploy_project, installed  # noqa: F401 (fixtures)

from host_harness.hooks import prompt_ledger


def refuses(path: Path) -> bool:
    """Whether nothing listens on the Unix socket at ``path`` any more."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except (ConnectionRefusedError, FileNotFoundError):
            return True
    return False


def test_the_second_prompt_of_a_session_meets_the_plugins_warm_server(clis, installed: Path,  # noqa: F811
                                                                      tmp_path: Path, wasm_runtime):
    project = deploy_project(installed, tmp_path)
    warm_socket = project / ".gm" / "rs-learn.sock"
    with FakeApi() as api:
        env = agent_env(installed, ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY="sk-test-no-account",
                        RS_LEARN_HOOK_TIMEOUT="60")
        session = subprocess.Popen(
            [str(clis["claude"]), "-p", "--input-format", "stream-json", "--output-format", "stream-json",
             "--verbose"], cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        assert session.stdin is not None and session.stdout is not None

        def prompt(text: str) -> None:
            """One user turn; returns when Claude Code has finished it (the stand-in API refuses)."""
            assert session.stdin is not None and session.stdout is not None
            message = {"type": "user", "message": {"role": "user", "content": text}}
            session.stdin.write(json.dumps(message) + "\n")
            session.stdin.flush()
            for line in session.stdout:
                if json.loads(line).get("type") == "result":
                    return
            raise AssertionError("the session ended before the turn did")

        try:
            prompt("how do we deploy?")
            # the plugin's MCP server listens once its component is loaded (a person types meanwhile)
            wait_for(lambda: warm_socket.exists() and not refuses(warm_socket), 180, "the warm socket")
            prompt("which tool do deploys go through?")
        finally:
            session.stdin.close()
            session.wait(120)
    first, second = prompt_ledger.read(project)
    assert first["session"] == second["session"] and second["session"], (first, second)
    assert first["outcome"] == "injected", first  # cold or warm: the server may still be loading then
    assert second["path"] == "warm", second
    (candidate,) = second["candidates"]  # the same memory, known to be injected already in this session
    assert "ArgoCD" in candidate["excerpt"] and candidate["decision"] == "seen", second
    wait_for(lambda: refuses(warm_socket), 60, "the server to end with the session")
