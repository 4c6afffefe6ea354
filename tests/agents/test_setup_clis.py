"""What ``setup`` writes, read by the agents' own CLIs from npm (issue 26).

Claude Code lists the servers of ``.mcp.json`` / ``~/.claude.json`` and connects to them, and runs
the hooks of ``.claude/settings.json`` in a real session; Gemini CLI and Codex list (Gemini also
connects to) the server setup wrote. Each agent's own ``mcp add`` writes the same entry setup does.
Skipped, saying why, only where npm cannot be reached (``tests/helpers/agentclis.py``).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from agentclis import (
    agent_clis,
    agent_env,
    claude_session,
    codex_first_request,
    gemini_requests,
    gemini_tools,
    hook_context,
    run,
)

from host_harness.integrations.agents import CODEX_DEFAULTS, GEMINI_DEFAULTS
from host_harness.integrations.localstate import LOCAL_STATE

HOST = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "rs-learn-host"


@pytest.fixture(scope="session")
def clis() -> dict[str, Path]:
    """The agents' CLIs from npm (installed once into build/agent-clis; skipped where npm is unreachable)."""
    return agent_clis()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def repo(git_repo: Path) -> Path:
    return git_repo


@pytest.fixture
def host(wasm_runtime) -> Path:  # the compile cache holds the component: servers start at once
    from host_harness.cli.setup import installed_host

    return installed_host().resolve()  # what setup writes: links resolved (.venv may be one)


def setup(host: Path, repo: Path, home: Path, *args: str) -> None:
    done = run([host, "-p", repo, "setup", *args, "--no-warmup"], cwd=repo, env=agent_env(home))
    assert done.returncode == 0, done.stdout + done.stderr


def test_claude_reads_and_connects_to_the_project_server(clis, host: Path, repo: Path, home: Path):
    setup(host, repo, home, "claude-code")
    listed = run([clis["claude"], "mcp", "list"], cwd=repo, env=agent_env(home))
    assert f"rs-learn: {host} mcp - ⏸ Pending approval" in listed.stdout, listed.stdout + listed.stderr
    (repo / ".claude" / "settings.local.json").write_text('{"enabledMcpjsonServers": ["rs-learn"]}')
    listed = run([clis["claude"], "mcp", "list"], cwd=repo, env=agent_env(home))
    assert f"rs-learn: {host} mcp - ✔ Connected" in listed.stdout, listed.stdout + listed.stderr


def test_claude_connects_to_the_user_server(clis, host: Path, repo: Path, home: Path, tmp_path: Path):
    setup(host, repo, home, "claude-code", "--scope", "user")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = run([clis["claude"], "mcp", "list"], cwd=elsewhere, env=agent_env(home))
    assert f"rs-learn: {host} mcp - ✔ Connected" in listed.stdout, listed.stdout + listed.stderr


def test_claude_runs_both_hooks_setup_wrote(clis, host: Path, repo: Path, home: Path, tmp_path: Path):
    env = agent_env(home)
    assert run([host, "-p", repo, "memorize", "Deploys go through ArgoCD; never kubectl apply by hand."],
               cwd=repo, env=env).returncode == 0
    (tmp_path / "release.md").write_text("1. Tag\n2. Ship\n", encoding="utf-8")
    assert run([host, "-p", repo, "learn", "Releases follow a checklist.", "--skill", "release",
                "--description", "How we release", "--body", tmp_path / "release.md"], cwd=repo,
               env=env).returncode == 0
    setup(host, repo, home, "claude-code")
    added = hook_context(claude_session(clis["claude"], repo, home, "how do we deploy to production?"))
    assert any("## Recall for this prompt" in text and "ArgoCD" in text for text in added["UserPromptSubmit"])
    assert any("## Skills in this project" in text and "release" in text for text in added["SessionStart"])


def test_claude_writes_the_same_entries_as_setup(clis, host: Path, repo: Path, home: Path,
                                                 tmp_path: Path):
    twin = tmp_path / "twin"
    twin.mkdir()
    env = agent_env(home)
    for scope in ("project", "user"):
        done = run([clis["claude"], "mcp", "add", "--scope", scope, "rs-learn", "--", host, "mcp"],
                   cwd=twin, env=env)
        assert done.returncode == 0, done.stderr
    theirs = json.loads((twin / ".mcp.json").read_text())["mcpServers"]["rs-learn"]
    user = json.loads((home / ".claude.json").read_text())["mcpServers"]["rs-learn"]
    setup(host, repo, home, "claude-code")
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"]["rs-learn"] == theirs == user


def gemini_list(gemini: Path, repo: Path, home: Path) -> str:
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(repo): "TRUST_FOLDER"}))
    listed = run([gemini, "mcp", "list"], cwd=repo, env=agent_env(home))
    return listed.stdout + listed.stderr


def test_gemini_lists_and_connects_to_what_setup_wrote(clis, host: Path, repo: Path, home: Path):
    """Issue 32: setup's entry carries a ``timeout``: without one ``gemini mcp list`` gives up after 5 s."""
    setup(host, repo, home, "gemini")
    listed = gemini_list(clis["gemini"], repo, home)
    assert f"rs-learn: {host} mcp (stdio) - Connected" in listed, listed
    twin = repo / "twin"
    twin.mkdir()
    done = run([clis["gemini"], "mcp", "add", "rs-learn", host, "mcp"], cwd=twin, env=agent_env(home))
    assert done.returncode == 0, done.stderr
    ours = json.loads((repo / ".gemini" / "settings.json").read_text())["mcpServers"]["rs-learn"]
    theirs = json.loads((twin / ".gemini" / "settings.json").read_text())["mcpServers"]["rs-learn"]
    assert ours == theirs | GEMINI_DEFAULTS


def test_gemini_reads_the_user_settings(clis, host: Path, repo: Path, home: Path):
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir()
    mine = {"ui": {"theme": "GitHub"}, "mcpServers": {"other": {"command": "true"}}}
    settings.write_text(json.dumps(mine, indent=2))
    setup(host, repo, home, "gemini", "--scope", "user")
    listed = gemini_list(clis["gemini"], repo, home)
    assert f"rs-learn: {host} mcp (stdio) - Connected" in listed, listed
    assert "other: true" in listed
    assert json.loads(settings.read_text())["ui"] == {"theme": "GitHub"}


def codex_servers(codex: Path, cwd: Path, env: dict[str, str]) -> dict[str, dict]:
    done = run([codex, "mcp", "list", "--json"], cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    return {server["name"]: server["transport"] for server in json.loads(done.stdout)}


def test_codex_lists_the_user_server_and_keeps_the_config(clis, host: Path, repo: Path, home: Path):
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('# mine\nmodel = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n', encoding="utf-8")
    setup(host, repo, home, "codex", "--scope", "user")
    servers = codex_servers(clis["codex"], repo, agent_env(home))
    assert servers["rs-learn"]["command"] == str(host) and servers["rs-learn"]["args"] == ["mcp"]
    assert servers["github"]["command"] == "gh-mcp"
    assert config.read_text(encoding="utf-8").startswith('# mine\nmodel = "o3"\n')
    twin = home / "twin"
    twin.mkdir()
    env = agent_env(twin)  # codex mcp add in another home: the same table
    added = run([clis["codex"], "mcp", "add", "rs-learn", "--", host, "mcp"], cwd=repo, env=env)
    assert added.returncode == 0, added.stderr
    theirs = tomllib.loads((twin / ".codex" / "config.toml").read_text())["mcp_servers"]["rs-learn"]
    assert tomllib.loads(config.read_text())["mcp_servers"]["rs-learn"] == theirs | CODEX_DEFAULTS


def test_codex_reads_the_project_config_of_a_trusted_project(clis, host: Path, repo: Path, home: Path):
    setup(host, repo, home, "codex")
    assert all(line in (repo / ".gitignore").read_text() for line in LOCAL_STATE)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    servers = codex_servers(clis["codex"], repo, agent_env(home))
    assert servers["rs-learn"]["command"] == str(host)


def test_codex_exec_gives_the_model_the_tools_of_the_server_setup_wrote(clis, host: Path, repo: Path,
                                                                        home: Path):
    """Issue 32: Codex starts its first turn about a second after it spawns the MCP servers; only a
    ``required`` server is waited for. The first request to the (stand-in) Responses API carries
    rs-learn's tools."""
    setup(host, repo, home, "codex")
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    first = codex_first_request(clis["codex"], repo, home, "Which port does staging use?")
    tools = {tool.get("name"): tool for tool in first["tools"] if isinstance(tool, dict)}  # type: ignore[union-attr]
    assert "mcp__rs_learn" in tools, sorted(name for name in tools if name)
    served = {tool["name"] for tool in tools["mcp__rs_learn"]["tools"]}
    assert {"recall", "memorize", "forget", "list_memories"} <= served


def test_headless_gemini_gives_the_model_the_tools_of_the_server_setup_wrote(clis, host: Path, repo: Path,
                                                                            home: Path):
    """Issue 44 item 5: ``gemini -p`` drops the tools that would ask for confirmation, so an untrusted
    server's tools never reach the model. setup trusts rs-learn's server; the first request to the
    (stand-in) Gemini API carries its tools. Without the trust (a person's ``"trust": false``, which
    setup keeps) they are gone: the check can fail."""
    setup(host, repo, home, "gemini")
    settings = repo / ".gemini" / "settings.json"
    assert json.loads(settings.read_text())["mcpServers"]["rs-learn"]["trust"] is True
    [first, *_] = gemini_requests(clis["gemini"], repo, home, "Which port does staging use?")
    offered = gemini_tools(first)
    assert {"mcp_rs-learn_recall", "mcp_rs-learn_memorize", "mcp_rs-learn_forget"} <= set(offered), offered
    settings.write_text(settings.read_text().replace('"trust": true', '"trust": false'))
    setup(host, repo, home, "gemini")
    assert json.loads(settings.read_text())["mcpServers"]["rs-learn"]["trust"] is False
    [first, *_] = gemini_requests(clis["gemini"], repo, home, "Which port does staging use?")
    assert not [name for name in gemini_tools(first) if name.startswith("mcp_rs-learn_")]


def test_gemini_recalls_before_each_prompt_through_the_hook_setup_wrote(clis, host: Path, repo: Path,
                                                                       home: Path):
    """Issue 44 item 6: Gemini CLI's ``BeforeAgent`` hook is its prompt-submit; the memories it recalls
    reach the model appended to the prompt, and the run is in the ledger (``why``)."""
    env = agent_env(home, RS_LEARN_HOOK_TIMEOUT="60")  # a loaded machine: a bound, not what is checked
    assert run([host, "-p", repo, "memorize", "The staging server listens on port 8080."], cwd=repo,
               env=env).returncode == 0
    setup(host, repo, home, "gemini")
    [first, *_] = gemini_requests(clis["gemini"], repo, home, "Which port does the staging server use?",
                                  RS_LEARN_HOOK_TIMEOUT="60")
    sent = json.dumps(first["contents"])
    assert "## Recall for this prompt" in sent and "port 8080" in sent, sent[-2000:]
    why = run([host, "-p", repo, "why"], cwd=repo, env=env)
    assert "injected 1 memory" in why.stdout, why.stdout
