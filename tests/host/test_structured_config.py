"""The ``memory`` configuration (host side): defaults, JSON, environment override, invalid values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostprocs import host, host_env
from structured_helpers import write_config

from host_harness.cli.main import cli
from host_harness.config.config import (
    ENV_FIELDS,
    ConfigError,
    MemoryConfig,
    env_name,
    load_memory_config,
    read_memory_config,
)
from host_harness.services import HostServices

DEFAULTS = {
    "enabled": True,
    "backend": "sqlite",
    "defaultLimit": 10,
    "maxContextTokens": 1500,
    "enableSemanticNotes": True,
    "retentionDays": 30,
    "archiveDeleteDays": 365,
    "maxChecklistDepth": 5,
}


def test_defaults_are_the_seeds(project: Path):
    assert load_memory_config(project, {}).as_json() == DEFAULTS
    assert MemoryConfig().as_json() == DEFAULTS


def test_env_names():
    assert env_name("retentionDays") == "RS_LEARN_MEMORY_RETENTION_DAYS"
    assert env_name("enableSemanticNotes") == "RS_LEARN_MEMORY_ENABLE_SEMANTIC_NOTES"
    assert env_name("enabled") == "RS_LEARN_MEMORY_ENABLED"


def test_json_block_and_other_blocks(project: Path):
    gm = project / ".gm"
    gm.mkdir()
    (gm / "config.json").write_text(
        json.dumps(
            {
                "memory": {"retentionDays": 7, "enableSemanticNotes": False, "backend": "sqlite"},
                "somethingElse": {"x": 1},
            }
        ),
        encoding="utf-8",
    )
    config = load_memory_config(project, {})
    assert (config.retentionDays, config.enableSemanticNotes, config.defaultLimit) == (7, False, 10)


def test_environment_wins(project: Path):
    write_config(project, retentionDays=7, maxChecklistDepth=3)
    env = {"RS_LEARN_MEMORY_RETENTION_DAYS": " 14 ", "RS_LEARN_MEMORY_ENABLED": "off", "UNRELATED": "x"}
    config = load_memory_config(project, env)
    assert (config.retentionDays, config.enabled, config.maxChecklistDepth) == (14, False, 3)
    for raw, value in [("1", True), ("TRUE", True), ("yes", True), ("0", False), ("no", False)]:
        assert load_memory_config(project, {"RS_LEARN_MEMORY_ENABLED": raw}).enabled is value


@pytest.mark.parametrize(
    ("memory", "env", "message"),
    [
        ({"retentionDays": -1}, {}, "memory.retentionDays must be between 0 and 36500, got -1"),
        ({"retentionDays": "30"}, {}, 'memory.retentionDays must be an integer, got "30"'),
        ({"defaultLimit": 0}, {}, "memory.defaultLimit must be between 1 and 100, got 0"),
        ({"defaultLimit": 2.5}, {}, "must be an integer, got 2.5"),
        ({"maxChecklistDepth": True}, {}, "must be an integer, got true"),
        ({"enabled": "yes"}, {}, 'memory.enabled must be true or false, got "yes"'),
        ({"enabled": 1}, {}, "must be true or false, got 1"),
        ({"backend": "postgres"}, {}, 'memory.backend must be one of sqlite, got "postgres"'),
        ({"retentionDay": 3}, {}, "unknown field memory.retentionDay"),
    ],
)
def test_invalid_values_are_errors(project: Path, memory, env, message):
    write_config(project, **memory)
    with pytest.raises(ConfigError) as caught:
        load_memory_config(project, env)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("env", "field", "value", "message"),
    [
        ({"RS_LEARN_MEMORY_ENABLED": "maybe"}, "enabled", True,
         "RS_LEARN_MEMORY_ENABLED must be a boolean (true/false, 1/0, yes/no, on/off), got 'maybe'; "
         "ignoring it: using true (the default)"),
        ({"RS_LEARN_MEMORY_MAX_CHECKLIST_DEPTH": "0"}, "maxChecklistDepth", 3,
         "RS_LEARN_MEMORY_MAX_CHECKLIST_DEPTH must be between 1 and 64, got 0; ignoring it: using 3 "
         "(.gm/config.json)"),
        ({"RS_LEARN_MEMORY_SQLITE_PATH": "/tmp/x"}, "defaultLimit", 10,
         "ignoring the unknown environment variable RS_LEARN_MEMORY_SQLITE_PATH (known: "),
        ({"RS_LEARN_MEMORY_RETENTION_DAYS": "thirty"}, "retentionDays", 0,
         "RS_LEARN_MEMORY_RETENTION_DAYS must be an integer, got 'thirty'; ignoring it: retentionDays "
         "cleanup is off until it is fixed"),
        ({"RS_LEARN_MEMORY_ARCHIVE_DELETE_DAYS": "-3"}, "archiveDeleteDays", 0,
         "RS_LEARN_MEMORY_ARCHIVE_DELETE_DAYS must be between 0 and 36500, got -3; ignoring it: "
         "archiveDeleteDays cleanup is off"),
    ],
)
def test_invalid_variables_are_warnings_not_errors(project: Path, env, field, value, message):
    """Issue 25, item 17: one stray variable no longer stops every command; a typo never deletes sooner."""
    write_config(project, maxChecklistDepth=3)
    config, warnings = read_memory_config(project, {**env, "RS_LEARN_MEMORY_DEFAULT_LIMIT": "10"})
    assert getattr(config, field) == value
    assert len(warnings) == 1 and warnings[0].startswith(message), warnings


def test_a_bad_variable_is_said_once_and_the_commands_and_hooks_go_on(project: Path, wasm_path: Path):
    env = host_env(project, RS_LEARN_MEMORY_RETENTION_DAYS="3O", RS_LEARN_MEMORY_BOGUS="1",
                   RS_LEARN_HOOK_TIMEOUT="20")
    done = host("memorize", "The staging server runs on port 8080.", env=env)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.decode().splitlines() if "RS_LEARN_MEMORY_" in line]
    assert warned == [
        "rs_learn.config: ignoring the unknown environment variable RS_LEARN_MEMORY_BOGUS (known: "
        + ", ".join(ENV_FIELDS) + ")",
        "rs_learn.config: RS_LEARN_MEMORY_RETENTION_DAYS must be an integer, got '3O'; ignoring it: "
        "retentionDays cleanup is off until it is fixed",
    ], "once each, on stderr"
    todo = host("records", "create", "todo", "Fix the login test", env=env)
    assert todo.returncode == 0 and todo.stdout == b"td-1\n", todo.stderr
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "which port does staging use?",
              "cwd": str(project)}
    hook = host("hook", "prompt-submit", env=env, input=json.dumps(prompt).encode(), timeout=60)
    assert hook.returncode == 0 and b"8080" in hook.stdout, (hook.stdout, hook.stderr)
    log = (project / ".gm" / "logs" / "hook.log").read_text(encoding="utf-8")
    assert "warning: ignoring the unknown environment variable RS_LEARN_MEMORY_BOGUS" in log
    assert "warning: RS_LEARN_MEMORY_RETENTION_DAYS must be an integer, got '3O'; ignoring it" in log


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1]", "must hold a JSON object"),
        ('{"memory": 3}', "memory must be an object"),
    ],
)
def test_invalid_files_are_errors(project: Path, text: str, message: str):
    (project / ".gm").mkdir()
    (project / ".gm" / "config.json").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_memory_config(project, {})


def test_the_host_serves_the_effective_config(project: Path, monkeypatch: pytest.MonkeyPatch):
    write_config(project, defaultLimit=3)
    monkeypatch.setenv("RS_LEARN_MEMORY_MAX_CONTEXT_TOKENS", "200")
    services = HostServices(project)
    served = json.loads(services.kv_get("host", "memory-config"))
    assert served == {**DEFAULTS, "defaultLimit": 3, "maxContextTokens": 200}
    services.close()


def test_invalid_config_fails_at_start(project: Path, monkeypatch: pytest.MonkeyPatch):
    write_config(project, retentionDays=-5)
    with pytest.raises(ConfigError, match="retentionDays"):
        HostServices(project)
    result = CliRunner().invoke(cli, ["-p", str(project), "--native", "records", "list"])
    assert (
        result.exit_code == 1
        and "invalid configuration" in result.output
        and "retentionDays" in result.output
    )
