"""The ``memory`` configuration (host side): defaults, JSON, environment override, invalid values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from structured_helpers import write_config

from host_harness.cli.main import cli
from host_harness.services import HostServices
from host_harness.store.config import ConfigError, MemoryConfig, env_name, load_memory_config

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
        ({}, {"RS_LEARN_MEMORY_RETENTION_DAYS": "-3"}, "RS_LEARN_MEMORY_RETENTION_DAYS must be between 0"),
        ({}, {"RS_LEARN_MEMORY_RETENTION_DAYS": "thirty"}, "must be an integer, got 'thirty'"),
        ({}, {"RS_LEARN_MEMORY_ENABLED": "maybe"}, "RS_LEARN_MEMORY_ENABLED must be a boolean"),
        (
            {},
            {"RS_LEARN_MEMORY_SQLITE_PATH": "/tmp/x"},
            "unknown environment variable RS_LEARN_MEMORY_SQLITE_PATH",
        ),
        ({}, {"RS_LEARN_MEMORY_MAX_CHECKLIST_DEPTH": "0"}, "between 1 and 64, got 0"),
    ],
)
def test_invalid_values_are_errors(project: Path, memory, env, message):
    write_config(project, **memory)
    with pytest.raises(ConfigError) as caught:
        load_memory_config(project, env)
    assert message in str(caught.value)


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
