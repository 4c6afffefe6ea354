"""``rs-learn-host setup AGENT``: each agent's file as its docs give it, merged, idempotent (issue 26).

The real CLIs read what setup writes in ``tests/agents/test_setup_clis.py``; here the files themselves:
their shape, what they keep of the person's own configuration, backups, dry runs, removal, links.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostprocs import HeldCompile, wait_for

from host_harness.cli.main import cli
from host_harness.integrations.edits import backup_of
from host_harness.integrations.localstate import LOCAL_STATE

HOST = Path(sys.executable).parent / "rs-learn-host"  # the console script of this interpreter
COMMAND = str(HOST.absolute())


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the test's own; the agents' own variables unset."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "APPDATA", "RS_LEARN_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def repo(git_repo: Path, home: Path) -> Path:
    return git_repo


def setup(project: Path, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["-p", str(project), "setup", *args, "--no-warmup"])
    assert result.exit_code == code, result.output
    return result.output


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


WORKSPACE = ["mcp", "-p", "${workspaceFolder}"]
STDIO = {"type": "stdio", "command": COMMAND, "args": ["mcp"], "env": {}}
VSCODE = {"type": "stdio", "command": COMMAND, "args": WORKSPACE}
# issue 32: `mcp list` waits 5 s without a timeout; issue 44: `gemini -p` drops an untrusted server's tools
GEMINI = {"command": COMMAND, "args": ["mcp"], "timeout": 600_000, "trust": True}
# (agent, scope) -> file relative to the project (project scope) or the home folder, key, entry
JSON_FORMATS = {
    ("claude-code", "project"): (".mcp.json", "mcpServers", STDIO),
    ("claude-code", "user"): (".claude.json", "mcpServers", STDIO),
    ("cursor", "project"): (".cursor/mcp.json", "mcpServers", {"command": COMMAND, "args": WORKSPACE}),
    ("cursor", "user"): (".cursor/mcp.json", "mcpServers", {"command": COMMAND, "args": WORKSPACE}),
    ("gemini", "project"): (".gemini/settings.json", "mcpServers", GEMINI),
    ("gemini", "user"): (".gemini/settings.json", "mcpServers", GEMINI),
    ("vscode", "project"): (".vscode/mcp.json", "servers", VSCODE),
    ("vscode", "user"): (".config/Code/User/mcp.json", "servers", VSCODE),
}


@pytest.mark.parametrize(("agent", "scope"), sorted(JSON_FORMATS))
def test_each_agent_gets_the_entry_its_docs_give(repo: Path, home: Path, agent: str, scope: str):
    name, key, entry = JSON_FORMATS[agent, scope]
    setup(repo, agent, "--scope", scope)
    path = (repo if scope == "project" else home) / name
    recall = {"type": "command", "command": f"{COMMAND} hook prompt-submit"}
    hooks = {"hooks": {"BeforeAgent": [{"hooks": [recall]}]}}
    assert load(path) == {key: {"rs-learn": entry}} | (hooks if agent == "gemini" else {})  # issue 44 item 6
    assert path.read_text(encoding="utf-8").startswith('{\n  "'), "two spaces, as the agents write it"
    assert (repo / ".gitignore").exists() == (scope == "project")


@pytest.mark.parametrize("scope", ["project", "user"])
def test_claude_code_gets_every_hook(repo: Path, home: Path, scope: str):
    setup(repo, "claude-code", "--scope", scope)
    settings = load((repo / ".claude" if scope == "project" else home / ".claude") / "settings.json")
    assert settings == {"hooks": our_hooks()}


def our_hooks() -> dict[str, list[dict[str, object]]]:
    """What setup puts in Claude Code's settings: recall, skills and capture's context, capture (issue 34)."""
    def group(verb: str) -> dict[str, object]:
        return {"hooks": [{"type": "command", "command": f"{COMMAND} hook {verb}"}]}

    return {"UserPromptSubmit": [group("prompt-submit")],
            "SessionStart": [group("session-start"), group("session-context")],
            "PreCompact": [group("pre-compact")], "Stop": [group("stop")],
            "SessionEnd": [group("session-end")]}


def test_codex_gets_its_table(repo: Path, home: Path):
    """Issue 32: ``required`` (Codex starts a turn without a server still starting unless it is) and
    a minute to start; a person's own values of both are kept."""
    setup(repo, "codex", "--scope", "user")
    config = home / ".codex" / "config.toml"
    assert config.read_text(encoding="utf-8") == (
        f'[mcp_servers.rs-learn]\ncommand = "{COMMAND}"\nargs = ["mcp"]\nrequired = true\n'
        f'startup_timeout_sec = 60\n')
    config.write_text('[mcp_servers.rs-learn]\ncommand = "old"\nrequired = false  # mine\n'
                      'startup_timeout_sec = 5\n', encoding="utf-8")
    setup(repo, "codex", "--scope", "user")
    assert config.read_text(encoding="utf-8") == (
        f'[mcp_servers.rs-learn]\ncommand = "{COMMAND}"\nrequired = false  # mine\nstartup_timeout_sec = 5\n'
        f'args = ["mcp"]\n')
    setup(repo, "codex")
    project_file = (repo / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert project_file.startswith("[mcp_servers.rs-learn]\n")


def test_user_scope_follows_the_agents_own_variables(repo: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for agent in ("codex", "claude-code", "vscode"):
        setup(repo, agent, "--scope", "user")
    assert (tmp_path / "codex" / "config.toml").is_file()
    assert load(tmp_path / "claude" / ".claude.json")["mcpServers"]["rs-learn"]["command"] == COMMAND
    assert "hooks" in load(tmp_path / "claude" / "settings.json")
    assert "rs-learn" in load(tmp_path / "xdg" / "Code" / "User" / "mcp.json")["servers"]


def test_merging_keeps_other_tools_hooks_servers_and_the_indentation(repo: Path):
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"model": "opus", "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-guard"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "other-tool hook prompt-submit"}]}]},
        "permissions": {"allow": ["Bash(npm test)"]}}
    settings.write_text(json.dumps(mine, indent=4) + "\n", encoding="utf-8")
    servers = repo / ".mcp.json"
    servers.write_text(json.dumps({"mcpServers": {"github": {"command": "gh-mcp", "args": []}}}, indent="\t"),
                       encoding="utf-8")
    setup(repo, "claude-code")
    after = load(settings)
    assert after["model"] == "opus" and after["permissions"] == mine["permissions"]
    assert after["hooks"]["PreToolUse"] == mine["hooks"]["PreToolUse"]
    prompt = after["hooks"]["UserPromptSubmit"]
    assert prompt[0] == mine["hooks"]["UserPromptSubmit"][0], "the other tool's hook first, as it was"
    assert prompt[1] == {"hooks": [{"type": "command", "command": f"{COMMAND} hook prompt-submit"}]}
    assert list(after) == ["model", "hooks", "permissions"], "key order kept"
    assert settings.read_text(encoding="utf-8").startswith('{\n    "model"'), "four spaces kept"
    text = servers.read_text(encoding="utf-8")
    assert text.startswith('{\n\t"mcpServers"') and not text.endswith("\n"), "tabs and no final newline kept"
    assert list(json.loads(text)["mcpServers"]) == ["github", "rs-learn"]


# Layouts a person wrote by hand, which no serialiser reproduces (issue 32): compact objects and
# arrays inside an indented file, aligned values, a file on one line.
HAND_SETTINGS = """{
  "model": "opus",
  "permissions": {"allow": ["Bash(npm test)", "Bash(ls)"], "deny": []},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-guard"}]}]
  },
  "env":   {"DEBUG": "1"}
}
"""
HAND_SERVERS = {
    ".mcp.json": '{"mcpServers": {"github": {"command": "gh-mcp", "args": ["--read-only"]}}, "x": [1, 2]}\n',
    ".cursor/mcp.json": ('{\n    "mcpServers": {\n        "github": {"command": "gh-mcp", "args": []}\n'
                         '    }\n}'),
}


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines a unified diff takes out of ``before`` and puts into ``after``."""
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))
    return ([line[1:] for line in diff if line.startswith("-") and not line.startswith("---")],
            [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")])


def test_only_the_entrys_own_lines_change_and_remove_restores_the_bytes(repo: Path):
    """Issue 32: setup and --remove keep the person's layout byte for byte outside rs-learn's entry
    (the one line before an added member gains its comma, as JSON needs)."""
    files = {".claude/settings.json": HAND_SETTINGS, **HAND_SERVERS}
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    setup(repo, "claude-code")
    setup(repo, "cursor")
    settings = (repo / ".claude/settings.json").read_text(encoding="utf-8")
    taken, put = changed_lines(HAND_SETTINGS, settings)
    pre_tool_use = next(line for line in HAND_SETTINGS.splitlines() if "PreToolUse" in line)
    assert taken == [pre_tool_use] and put[0] == pre_tool_use + ","
    ours = our_hooks()
    assert put[1:] == ["  " + line for line in json.dumps(ours, indent=2).splitlines()[1:-1]], "its unit"
    assert load(repo / ".claude/settings.json")["hooks"]["UserPromptSubmit"] == [
        {"hooks": [{"type": "command", "command": f"{COMMAND} hook prompt-submit"}]}]
    one_line = (repo / ".mcp.json").read_text(encoding="utf-8")
    github = '"github": {"command": "gh-mcp", "args": ["--read-only"]}'
    assert one_line == HAND_SERVERS[".mcp.json"].replace(github, f'{github}, "rs-learn": {json.dumps(STDIO)}')
    cursor = (repo / ".cursor/mcp.json").read_text(encoding="utf-8")
    taken, put = changed_lines(HAND_SERVERS[".cursor/mcp.json"], cursor)
    assert taken == ['        "github": {"command": "gh-mcp", "args": []}']
    assert put[:2] == ['        "github": {"command": "gh-mcp", "args": []},', '        "rs-learn": {']
    setup(repo, "claude-code", "--remove")
    setup(repo, "cursor", "--remove")
    assert {name: (repo / name).read_text(encoding="utf-8") for name in files} == files


def test_a_second_run_changes_nothing_and_says_so(repo: Path):
    first = setup(repo, "claude-code")
    assert ".mcp.json: wrote mcpServers.rs-learn" in first
    files = [repo / ".claude" / "settings.json", repo / ".mcp.json", repo / ".gitignore"]
    before = [(p.read_bytes(), p.stat().st_mtime_ns) for p in files]
    again = setup(repo, "claude-code")
    assert "already set up: nothing changed" in again
    assert [(p.read_bytes(), p.stat().st_mtime_ns) for p in files] == before
    assert not list(repo.rglob("*.bak"))


def test_a_moved_installation_updates_its_entries_and_keeps_added_keys(repo: Path):
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "/old/bin/rs-learn-host hook prompt-submit --timeout 5"}]}]}}),
        encoding="utf-8")
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"rs-learn": {
        "command": "/old/bin/rs-learn-host", "args": ["mcp"], "env": {"RS_LEARN_HOOK_BUDGET": "900"}}}}),
        encoding="utf-8")
    out = setup(repo, "claude-code")
    assert f"previous version: ~/.cache/rs-learn/setup-backups{repo.absolute()}/.mcp.json" in out
    hooks = load(repo / ".claude" / "settings.json")["hooks"]["UserPromptSubmit"]
    assert hooks == [{"hooks": [{"type": "command", "command": f"{COMMAND} hook prompt-submit"}]}], "one hook"
    entry = load(repo / ".mcp.json")["mcpServers"]["rs-learn"]
    assert entry["command"] == COMMAND and entry["env"] == {"RS_LEARN_HOOK_BUDGET": "900"}
    previous = load(backup_of(repo / ".mcp.json"))
    assert previous["mcpServers"]["rs-learn"]["command"] == "/old/bin/rs-learn-host"


def test_dry_run_prints_the_diff_and_writes_nothing(repo: Path):
    (repo / ".gitignore").write_text("node_modules/\n", encoding="utf-8")
    out = setup(repo, "gemini", "--dry-run")
    assert "+++ b/.gemini/settings.json" in out and f'+      "command": "{COMMAND}",' in out
    assert "+.gm/exec-spool/" in out and " node_modules/" in out
    assert out.rstrip().endswith("dry run: nothing written")
    assert not (repo / ".gemini").exists() and (repo / ".gitignore").read_text() == "node_modules/\n"


def test_backups_stay_out_of_the_project_and_out_of_git(repo: Path, home: Path):
    """Issue 32: setup, a moved installation, removal: every replaced file is kept in the cache, none
    beside it, so ``git status`` shows only the configuration setup wrote."""
    for agent in ("claude-code", "cursor", "gemini", "vscode", "codex"):
        setup(repo, agent)
    for path in (repo / ".mcp.json", repo / ".cursor" / "mcp.json"):
        path.write_text(path.read_text(encoding="utf-8").replace(COMMAND, "/old/bin/rs-learn-host"))
    setup(repo, "claude-code")
    setup(repo, "cursor")
    for agent in ("claude-code", "cursor", "gemini", "vscode", "codex"):
        setup(repo, agent, "--remove")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo,
                            capture_output=True, text=True, check=True).stdout.split("\n")
    written = {".gitignore", ".mcp.json", ".claude/settings.json", ".cursor/mcp.json",
               ".gemini/settings.json", ".vscode/mcp.json", ".codex/config.toml"}
    made = {".gm/.gitignore", ".gm/.gitattributes"}  # issue 44: setup starts the project's memory
    assert {line[3:] for line in status if line} == written | made
    kept = home / ".cache" / "rs-learn" / "setup-backups"
    assert sorted(str(p.relative_to(kept / repo.absolute().relative_to("/"))) for p in kept.rglob("*")
                  if p.is_file()) == sorted(written - {".gitignore"})
    assert COMMAND in backup_of(repo / ".cursor" / "mcp.json").read_text(), "what --remove replaced"


def test_remove_takes_out_only_ours(repo: Path):
    servers = {"mcpServers": {"github": {"command": "gh-mcp"}}}
    (repo / ".cursor").mkdir()
    (repo / ".cursor" / "mcp.json").write_text(json.dumps(servers, indent=2) + "\n", encoding="utf-8")
    original = (repo / ".cursor" / "mcp.json").read_bytes()
    setup(repo, "cursor")
    assert "removed mcpServers.rs-learn" in setup(repo, "cursor", "--remove")
    assert (repo / ".cursor" / "mcp.json").read_bytes() == original
    assert "nothing to remove" in setup(repo, "cursor", "--remove")
    setup(repo, "claude-code")
    setup(repo, "claude-code", "--remove")
    assert load(repo / ".claude" / "settings.json") == {} and load(repo / ".mcp.json") == {}
    assert all(line in (repo / ".gitignore").read_text() for line in LOCAL_STATE), "local state stays ignored"


def test_a_file_with_comments_is_refused_and_left_alone(repo: Path):
    jsonc = '{\n  // my servers\n  "servers": {},\n}\n'
    (repo / ".vscode").mkdir()
    (repo / ".vscode" / "mcp.json").write_text(jsonc, encoding="utf-8")
    out = setup(repo, "vscode", code=1)
    assert "is not plain JSON" in out and "comments are kept" in out and '"rs-learn"' in out
    assert (repo / ".vscode" / "mcp.json").read_text(encoding="utf-8") == jsonc


SHAPES = ['["an", "array"]', '{"mcpServers": []}', '{"hooks": {"SessionStart": {}}}']


@pytest.mark.parametrize("content", SHAPES)
def test_an_unexpected_shape_is_refused(repo: Path, content: str):
    (repo / ".mcp.json").write_text(content, encoding="utf-8")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(content, encoding="utf-8")
    out = setup(repo, "claude-code", code=1)
    assert "not changed" in out
    assert (repo / ".mcp.json").read_text(encoding="utf-8") == content


def test_a_link_out_of_the_project_is_refused(repo: Path, tmp_path: Path):
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    (repo / ".mcp.json").symlink_to(outside)
    assert "leads out of the project" in setup(repo, "claude-code", code=1)
    assert outside.read_text() == "{}" and not (repo / ".claude").exists(), "nothing written at all"


def test_a_linked_user_file_is_written_where_the_link_points(repo: Path, home: Path, tmp_path: Path):
    dotfiles = tmp_path / "dotfiles" / "mcp.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text("{}\n", encoding="utf-8")
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").symlink_to(dotfiles)
    setup(repo, "cursor", "--scope", "user")
    assert (home / ".cursor" / "mcp.json").is_symlink(), "the link is kept"
    assert "rs-learn" in load(dotfiles)["mcpServers"]


def test_private_files_stay_private(repo: Path, home: Path):
    claude_json = home / ".claude.json"
    claude_json.write_text('{"userID": "x"}', encoding="utf-8")
    claude_json.chmod(0o600)
    setup(repo, "claude-code", "--scope", "user")
    assert stat.S_IMODE(claude_json.stat().st_mode) == 0o600
    assert stat.S_IMODE(backup_of(claude_json).stat().st_mode) == 0o600
    assert load(claude_json)["userID"] == "x"


def test_gitignore_gets_the_local_state_once_and_git_ignores_it(repo: Path):
    (repo / ".gitignore").write_text("node_modules/", encoding="utf-8")  # no final newline
    setup(repo, "cursor")
    setup(repo, "gemini")
    text = (repo / ".gitignore").read_text(encoding="utf-8")
    assert text.startswith("node_modules/\n\n# rs-learn: local state")
    assert all(text.count(line + "\n") == 1 for line in LOCAL_STATE)
    paths = [".gm/logs/hook.log", ".gm/exec-spool/in/recall/1.json", ".gm/rs-learn.sock",
             ".gm/disciplines/ops/rs-learn.db-journal", ".gm/rs-learn.db", ".gm/config.json"]
    done = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=repo, capture_output=True,
                          text=True)
    assert done.stdout.split() == paths[:4], "local state ignored, the stores and config committed"


def test_git_install_adds_the_gitignore_lines_too(repo: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    result = CliRunner().invoke(cli, ["-p", str(repo), "git", "install"])
    assert result.exit_code == 0, result.output
    assert ".gitignore" in result.output
    assert all(line in (repo / ".gitignore").read_text() for line in LOCAL_STATE)
    again = CliRunner().invoke(cli, ["-p", str(repo), "git", "install"])
    assert again.output.strip() == "already installed"


def test_the_entries_run_the_installed_host_harness_by_its_absolute_path(repo: Path, home: Path):
    link = home / "bin" / "rs-learn-host"  # as `uv tool` links it into ~/.local/bin
    link.parent.mkdir()
    link.symlink_to(HOST)
    env = {**os.environ, "HOME": str(home)}
    done = subprocess.run([str(link), "setup", "cursor", "--no-warmup"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert load(repo / ".cursor" / "mcp.json")["mcpServers"]["rs-learn"]["command"] == str(HOST.resolve())


def test_setup_compiles_the_component_for_the_first_start(repo: Path, home: Path, tmp_path: Path, wasm_path,
                                                          wasm_runtime):
    compile_ = HeldCompile(tmp_path / "cache", wasm_runtime, wasm_path)  # the compile, as setup's would end
    cache = compile_.cache
    env = {**os.environ, "HOME": str(home), "RS_LEARN_CACHE_DIR": str(cache), "RS_LEARN_WASM": str(wasm_path)}
    errors = tmp_path / "stderr"
    with errors.open("wb") as sink:
        proc = subprocess.Popen([str(HOST), "setup", "codex", "--scope", "user"], cwd=repo, env=env,
                                stdout=subprocess.PIPE, stderr=sink)
        try:
            wait_for(lambda: b"compiling the component" in errors.read_bytes(), 300, "setup's compile")
        finally:
            compile_.finish()
            out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, errors.read_text()
    assert "component compiled in" in out.decode()
    assert [p.suffix for p in cache.glob("rs_learn-*.cwasm")] == [".cwasm"]
    again = subprocess.run([str(HOST), "setup", "codex", "--scope", "user"], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=300)
    assert "already set up" in again.stdout and "component already compiled" in again.stdout


def test_a_warning_when_the_plugin_does_the_same(repo: Path, home: Path):
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"enabledPlugins": {"rs-learn@rs-learn": true}}')
    for dry in (["--dry-run"], []):  # issue 32: the dry run warns as the run does
        result = CliRunner().invoke(cli, ["-p", str(repo), "setup", "claude-code", "--no-warmup", *dry])
        assert result.exit_code == 0 and "warning: the rs-learn plugin is enabled too" in result.output
    assert "warning" not in setup(repo, "cursor")
