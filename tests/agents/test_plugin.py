"""The Claude Code plugin and marketplace in this repository (issue 26).

``claude plugin validate`` checks the manifests, the hooks and the skill; the marketplace then
installs the plugin into a home of the test's own, Claude Code connects to its server and runs its
hooks in a real session. The plugin's script finds ``rs-learn-host`` on PATH or where ``uv tool`` and
``pipx`` install it, and without one a hook prints nothing, exits 0 and logs how to install it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from agentclis import agent_clis, agent_env, claude_session, hook_context, run
from conftest import ROOT

from host_harness.hooks import prompt_ledger
from host_harness.hooks.switches import OFF_TEXT

PLUGIN = ROOT / "integrations" / "claude-code"
SCRIPT = PLUGIN / "scripts" / "rs-learn"
EVENT = json.dumps({"cwd": "/nowhere", "prompt": "how do we deploy?", "hook_event_name": "UserPromptSubmit"})


@pytest.fixture(scope="session")
def clis() -> dict[str, Path]:
    """The agents' CLIs from npm (installed once into build/agent-clis; skipped where npm is unreachable)."""
    return agent_clis()


def test_the_manifests_agree_with_each_other_and_the_package():
    marketplace = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    (entry,) = marketplace["plugins"]
    assert (ROOT / entry["source"]).resolve() == PLUGIN
    assert entry["name"] == manifest["name"] == "rs-learn"
    assert entry["version"] == manifest["version"] == version
    hooks = json.loads((PLUGIN / "hooks" / "hooks.json").read_text())["hooks"]
    commands = {event: [hook["command"] for group in groups for hook in group["hooks"]]
                for event, groups in hooks.items()}
    run = 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/rs-learn" hook '
    assert commands == {"SessionStart": [run + "session-start", run + "session-context"],
                        "UserPromptSubmit": [run + "prompt-submit"], "PreCompact": [run + "pre-compact"],
                        "Stop": [run + "stop"], "SessionEnd": [run + "session-end"]}
    server = json.loads((PLUGIN / ".mcp.json").read_text())["mcpServers"]["rs-learn"]
    assert server == {"command": "sh", "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/rs-learn", "mcp"]}
    skill = (PLUGIN / "skills" / "memory" / "SKILL.md").read_text()
    assert all(f"## {verb}" in skill for verb in ("recall", "memorize", "learn", "archive"))


def plain_env(home: Path, **extra: str) -> dict[str, str]:
    """No rs-learn-host anywhere: a PATH of system folders only and an empty home."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    env.update(extra)
    return env


def test_without_host_harness_a_hook_prints_nothing_exits_0_and_logs_how_to_install(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    for verb in ("prompt-submit", "session-start"):
        done = subprocess.run(["sh", str(SCRIPT), "hook", verb], input=EVENT, capture_output=True, text=True,
                              env=plain_env(home), timeout=60)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    log = (home / ".cache" / "rs-learn" / "hook.log").read_text().splitlines()
    assert len(log) == 2 and "plugin hook prompt-submit: rs-learn-host not found" in log[0]
    assert "uv tool install ." in log[0] and "pipx install ." in log[0]
    served = subprocess.run(["sh", str(SCRIPT), "mcp"], capture_output=True, text=True, env=plain_env(home),
                            timeout=60)
    assert served.returncode == 127 and "rs-learn-host not found" in served.stderr and not served.stdout


def test_a_hook_never_blocks_even_when_the_log_cannot_be_written(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".cache").write_text("a file where the folder would go")
    done = subprocess.run(["sh", str(SCRIPT), "hook", "prompt-submit"], input=EVENT, capture_output=True,
                          text=True, env=plain_env(home), timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


# where `uv tool install` and `pipx install` put the command, under HOME or the folder a variable names
PLACES = {
    "uv tool, ~/.local/bin": (".local/bin", {}),
    "uv tool, its venv": (".local/share/uv/tools/rs-learn/bin", {}),
    "uv tool, $UV_TOOL_DIR": ("tools/rs-learn/bin", {"UV_TOOL_DIR": "tools"}),
    "uv tool, $UV_TOOL_BIN_DIR": ("uvbin", {"UV_TOOL_BIN_DIR": "uvbin"}),
    "uv tool, $XDG_DATA_HOME": ("data/uv/tools/rs-learn/bin", {"XDG_DATA_HOME": "data"}),
    "pipx, its venv": (".local/share/pipx/venvs/rs-learn/bin", {}),
    "pipx, an older pipx": (".local/pipx/venvs/rs-learn/bin", {}),
    "pipx, $PIPX_HOME": ("px/venvs/rs-learn/bin", {"PIPX_HOME": "px"}),
    "pipx, $PIPX_BIN_DIR": ("pxbin", {"PIPX_BIN_DIR": "pxbin"}),
    "$RS_LEARN_HOST": ("anywhere", {"RS_LEARN_HOST": "anywhere/rs-learn-host"}),
}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_the_script_finds_host_harness_where_uv_and_pipx_install_it(tmp_path: Path, place: str):
    home = tmp_path / "home"
    folder, variables = PLACES[place]
    target = home / folder / "rs-learn-host"
    target.parent.mkdir(parents=True)
    target.write_text('#!/bin/sh\necho "ran $0 $*"\n')  # stands in for the installed console script
    target.chmod(0o755)
    env = plain_env(home, **{name: str(home / value) for name, value in variables.items()})
    done = subprocess.run(["sh", str(SCRIPT), "hook", "prompt-submit"], input=EVENT, capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.stdout == f"ran {target} hook prompt-submit\n"


def test_the_script_runs_the_real_host_harness_on_path(tmp_path: Path, wasm_path: Path):
    project = tmp_path / "project"
    (project / ".gm").mkdir(parents=True)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}/usr/bin:/bin",
           "RS_LEARN_WASM": str(wasm_path)}
    stored = subprocess.run(["sh", str(SCRIPT), "-p", str(project), "memorize", "Deploys go through ArgoCD."],
                            capture_output=True, text=True, env=env, timeout=300)
    assert stored.returncode == 0 and stored.stdout.startswith("mem-"), stored.stderr
    assert subprocess.run(["sh", str(SCRIPT), "--version"], capture_output=True, text=True, env=env,
                          timeout=120).stdout.startswith("rs-learn-host ")


def test_claude_validates_the_plugin_and_the_marketplace(clis, tmp_path: Path):
    for path in (PLUGIN, ROOT):
        done = run([clis["claude"], "plugin", "validate", "--strict", path], cwd=tmp_path,
                   env=agent_env(tmp_path))
        assert done.returncode == 0 and "Validation passed" in done.stdout, done.stdout + done.stderr


@pytest.fixture
def installed(clis, tmp_path: Path) -> Path:
    """A home where Claude Code added this repository's marketplace and installed the plugin from it."""
    home = tmp_path / "home"
    home.mkdir()
    for command in (["plugin", "marketplace", "add", str(ROOT)], ["plugin", "install", "rs-learn@rs-learn"]):
        done = run([clis["claude"], *command], cwd=tmp_path, env=agent_env(home))
        assert done.returncode == 0, done.stdout + done.stderr
    listed = run([clis["claude"], "plugin", "list"], cwd=tmp_path, env=agent_env(home))
    assert "rs-learn@rs-learn" in listed.stdout and "enabled" in listed.stdout, listed.stdout
    return home


def test_the_installed_plugin_serves_mcp(clis, installed: Path, tmp_path: Path, wasm_runtime):
    project = tmp_path / "project"
    project.mkdir()
    listed = run([clis["claude"], "mcp", "list"], cwd=project, env=agent_env(installed))
    line = next((x for x in listed.stdout.splitlines() if x.startswith("plugin:rs-learn:rs-learn")), "")
    assert "scripts/rs-learn mcp" in line and "✔ Connected" in line, listed.stdout + listed.stderr


def deploy_project(installed: Path, tmp_path: Path) -> Path:
    """A git project whose store holds one memory about deploys, stored by the installed host."""
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    fact = "Deploys go through ArgoCD; never kubectl apply."
    stored = run(["rs-learn-host", "-p", project, "memorize", fact], cwd=project, env=agent_env(installed))
    assert stored.returncode == 0, stored.stderr
    return project


def test_the_installed_plugin_recalls_in_a_real_session(clis, installed: Path, tmp_path: Path,
                                                         wasm_runtime):
    project = deploy_project(installed, tmp_path)
    added = hook_context(claude_session(clis["claude"], project, installed, "how do we deploy?"))
    assert any("## Recall for this prompt" in text and "ArgoCD" in text for text in added["UserPromptSubmit"])


def test_the_plugin_command_turns_auto_recall_off_for_the_session(clis, installed: Path, tmp_path: Path,
                                                                   wasm_runtime):
    project = deploy_project(installed, tmp_path)
    off = hook_context(claude_session(clis["claude"], project, installed, "/rs-learn:recall-off"))
    assert off["UserPromptSubmit"] == [OFF_TEXT], off
    (entry,) = prompt_ledger.read(project)
    assert entry["outcome"] == "off" and entry["session"], entry
    asked = "how do we deploy?"
    later = claude_session(clis["claude"], project, installed, asked, "--resume", entry["session"])
    assert "## Recall for this prompt" not in "".join(hook_context(later).get("UserPromptSubmit", []))
    assert [e["outcome"] for e in prompt_ledger.read(project)] == ["off", "off"]
    assert prompt_ledger.read(project)[-1]["session"] == entry["session"]
