"""``rs-learn-host doctor`` and ``setup`` on configurations from before (issues 42 and 44).

Configurations that run rs-learn as a Python package (``python -m rs_learn_host``, the form ``git
install`` once wrote and people copied into agents' hooks) are rewritten to run the command; hook
budgets outside the guest's range (``contract.json``) are reported with the range; a project whose
hooks are installed but that has no ``.gm/`` is reported, and ``setup`` makes the folder.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from host_harness.cli.main import cli
from host_harness.contract import section

COMMAND = str((Path(sys.executable).parent / "rs-learn-host").absolute())
OLD = f"{shlex.quote(sys.executable)} -m rs_learn_host"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(folder / ".gitconfig"))
    for name in ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "APPDATA", "RS_LEARN_CACHE_DIR",
                 "RS_LEARN_HOOK_BUDGET", "RS_LEARN_SESSION_BUDGET", "RS_LEARN_CAPTURE_BUDGET"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def repo(git_repo: Path, home: Path) -> Path:
    return git_repo


def rs(project: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["-p", str(project), *args], catch_exceptions=False)


def legacy_files(repo: Path, home: Path) -> None:
    """An old installation's files: Claude Code hooks and a server, Gemini's server, Codex's table."""
    (repo / ".claude").mkdir()
    hooks = {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": f"{OLD} hook prompt-submit"}]}],
             "Stop": [{"hooks": [{"type": "command", "command": f"{OLD} -v hook stop"}]}],
             "PreToolUse": [{"hooks": [{"type": "command", "command": "./lint.sh"}]}]}
    (repo / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")
    server = {"command": sys.executable, "args": ["-m", "rs_learn_host", "mcp"]}
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"memory": server}}, indent=2) + "\n")
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(json.dumps({"mcpServers": {"rs-learn": server}}) + "\n")
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        f'# mine\n[mcp_servers.rs-learn]\ncommand = "{sys.executable}"\n'
        'args = ["-m", "rs_learn_host", "mcp"]\n')


def test_doctor_rewrites_what_ran_the_old_package_and_says_so(repo: Path, home: Path):
    legacy_files(repo, home)
    (repo / ".gm").mkdir()
    subprocess.run(["git", "config", "--global", "diff.rs-learn.textconv", f"{OLD} git textconv"], check=True)
    dry = rs(repo, "doctor", "--dry-run")
    assert dry.exit_code == 1 and dry.output.count("problem: runs a Python package") == 6, dry.output
    assert OLD in (repo / ".claude" / "settings.json").read_text(), "a dry run writes nothing"

    done = rs(repo, "doctor")
    assert done.exit_code == 0, done.output
    assert done.output.count("rewrote ") == 6 and "ok: " in done.output, done.output
    assert f"rewrote git config --global diff.rs-learn.textconv: `{OLD} git textconv` -> " \
           f"`{COMMAND} git textconv`" in done.output
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    assert settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] == f"{COMMAND} hook prompt-submit"
    assert settings["hooks"]["Stop"][0]["hooks"][0]["command"] == f"{COMMAND} -v hook stop"
    assert settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "./lint.sh"
    mine = {"command": COMMAND, "args": ["mcp"]}
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"]["memory"] == mine
    assert json.loads((home / ".gemini" / "settings.json").read_text())["mcpServers"]["rs-learn"] == mine
    assert (home / ".codex" / "config.toml").read_text() == \
        f'# mine\n[mcp_servers.rs-learn]\ncommand = "{COMMAND}"\nargs = ["mcp"]\n'
    assert "-m" not in (home / ".gitconfig").read_text()
    again = rs(repo, "doctor")
    assert again.exit_code == 0 and "rewrote" not in again.output


def test_setup_rewrites_the_old_hooks_in_place_instead_of_adding_twins(repo: Path, home: Path):
    legacy_files(repo, home)
    subprocess.run(["git", "config", "merge.rs-learn.driver", f"{OLD} git merge-driver %O %A %B %P"],
                   cwd=repo, check=True)
    done = rs(repo, "setup", "claude-code", "--no-warmup")
    assert done.exit_code == 0, done.output
    assert "rewrote hooks.UserPromptSubmit[0].hooks[0]: " in done.output, done.output
    assert "rewrote git config --local merge.rs-learn.driver: " in done.output
    hooks = json.loads((repo / ".claude" / "settings.json").read_text())["hooks"]
    assert [h["command"] for g in hooks["UserPromptSubmit"] for h in g["hooks"]] == [
        f"{COMMAND} hook prompt-submit"]
    assert [h["command"] for g in hooks["Stop"] for h in g["hooks"]] == [f"{COMMAND} hook stop"]  # one, ours
    assert COMMAND in subprocess.run(["git", "config", "merge.rs-learn.driver"], cwd=repo, text=True,
                                     capture_output=True, check=True).stdout


def test_setup_starts_the_projects_memory_and_doctor_reports_hooks_without_one(repo: Path, home: Path):
    """Issue 44 item 3: capture and recall need ``.gm/``; setup makes it in project scope, says what to
    run in user scope, and doctor reports a project with hooks but without it."""
    done = rs(repo, "setup", "claude-code", "--no-warmup", "--scope", "user")
    assert f"run `mkdir {repo / '.gm'}`" in done.output and not (repo / ".gm").exists()
    report = rs(repo, "doctor")
    assert report.exit_code == 1
    settings = home / ".claude" / "settings.json"
    assert f"{repo} has rs-learn's hooks ({settings}) but no .gm/ folder" in report.output
    done = rs(repo, "setup", "claude-code", "--no-warmup")
    assert ".gm/: created" in done.output
    assert (repo / ".gm" / ".gitignore").is_file() and (repo / ".gm" / ".gitattributes").is_file()
    assert rs(repo, "doctor").exit_code == 0
    assert ".gm/: created" not in rs(repo, "setup", "claude-code", "--no-warmup").output


def test_doctor_reports_hook_budgets_outside_the_guests_range(repo: Path, home: Path,
                                                                 monkeypatch: pytest.MonkeyPatch):
    """Issue 42 item 5: the ranges are the guest's (contract.json), named in the report."""
    low = section("memory.verbs").MIN_BUDGET_TOKENS
    assert rs(repo, "setup", "claude-code", "--no-warmup").exit_code == 0
    path = repo / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] += " --budget 20"
    settings["env"] = {"RS_LEARN_SESSION_BUDGET": "0"}
    path.write_text(json.dumps(settings))
    monkeypatch.setenv("RS_LEARN_HOOK_BUDGET", "200000")
    report = rs(repo, "doctor")
    assert report.exit_code == 1
    said = (f"`{COMMAND} hook prompt-submit --budget 20`: budget 20 is outside the range of hook "
            f"prompt-submit, {low} to 100000 tokens (the hook runs with {low})")
    assert said in report.output, report.output
    assert "$RS_LEARN_SESSION_BUDGET: budget 0 is outside the range of hook session-start, 1 to 100000" \
        in report.output
    assert "environment: $RS_LEARN_HOOK_BUDGET: budget 200000 is outside the range of hook prompt-submit" \
        in report.output
