"""The ``rs-learn-host`` CLI: CliRunner on both targets, and one real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.cli import host_cli
from helpers.files import digest
from hostprocs import leftovers

from host_harness.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run(target: str, project: Path):
    """Invoke the CLI on ``project`` with the current target; returns the click Result."""
    return host_cli(project, target)


def test_memorize_recall_stats_version(run, project: Path):
    first = run("memorize", "Use pnpm, not npm, to install packages in this repository.")
    assert first.exit_code == 0, first.output
    mem_id = first.output.strip()
    assert mem_id.startswith("mem-") and " " not in mem_id
    again = run("memorize", "Use pnpm, not npm, to install packages in this repository.")
    assert again.output.strip() == f"{mem_id} (already stored)"
    assert run("memorize", "The staging server runs on port 8080.").exit_code == 0

    hits = run("recall", "which package manager do we use on the server?", "--limit", "2")
    assert hits.exit_code == 0, hits.output
    lines = hits.output.splitlines()
    assert lines[0].startswith("1. (") and "pnpm" in lines[0] and lines[0].endswith(mem_id)
    assert len(lines) == 2 and lines[1].startswith("2. (") and "8080" in lines[1]
    explained = run("recall", "which package manager do we use on the server?", "--limit", "2", "--explain")
    assert explained.output.splitlines()[::2] == lines  # each hit, then its channel scores
    scores = explained.output.splitlines()[1::2]
    assert all(line.startswith("   cosine ") and "; fused " in line for line in scores)
    assert run("recall", "how do I bake a chocolate cake").output == "No memories found.\n"

    as_json = json.loads(run("recall", "package manager", "--json").output)
    assert as_json[0]["id"] == mem_id and set(as_json[0]) == {"id", "text", "score", "namespace", "ts"}

    stats = json.loads(run("stats", "--json").output)
    assert stats["memories"] == 2 and stats["namespace"] == "default"
    assert "memories: 2" in run("stats").output
    assert "terms: 5" in run("stats").output
    rebuilt = json.loads(run("reindex", "--rebuild", "--json").output)
    assert rebuilt["memories"] == 2 and rebuilt["rebuilt"]["memories"] == 2
    assert "re-embedded 0;" in run("reindex").output
    version = json.loads(run("version", "--json").output)
    assert version["version"] == "0.2.0" and version["harness"] and version["wasmtime"]
    assert leftovers(project) == []


def test_memorize_json_stdin_and_namespace(run, project: Path):
    result = run("memorize", "-", "--namespace", "frontend", "--json", input="The app is built with vite.\n")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["namespace"] == "frontend" and data["deduped"] is False
    assert (project / ".gm" / "disciplines" / "frontend" / "rs-learn.db").exists()
    assert "No memories found." in run("recall", "vite").output  # the default store is empty


def test_errors_exit_1_with_the_guest_message(run, project: Path):
    result = run("memorize", "   ")
    assert result.exit_code == 1 and "Error: validation: field 'text' is empty" in result.output
    result = run("memorize", "fine", "--namespace", "../escape")
    assert result.exit_code == 1 and "is not a valid name" in result.output
    assert run("recall", "q", "--limit", "0").exit_code == 2  # click rejects it before the guest
    assert not (project / ".gm").exists()


def test_a_recall_changes_nothing(run, project: Path):
    run("memorize", "A fact to recall.")
    db = project / ".gm" / "rs-learn.db"
    before = digest(db)
    assert run("recall", "fact").exit_code == 0
    assert run("stats").exit_code == 0
    assert digest(db) == before


def test_a_corrupt_database_is_reported(run, project: Path):
    (project / ".gm").mkdir()
    (project / ".gm" / "rs-learn.db").write_bytes(b"garbage" * 100)
    result = run("recall", "anything")
    assert result.exit_code == 1 and "host failure" in result.output and "not a database" in result.output


def test_missing_component_is_a_clear_error(project: Path, tmp_path: Path):
    result = CliRunner().invoke(cli, ["-p", str(project), "--wasm", str(tmp_path / "nope.wasm"), "version"])
    assert result.exit_code == 1
    assert "component not found" in result.output and "make wasm" in result.output


def test_help_has_examples():
    runner = CliRunner()
    assert "Examples:" in runner.invoke(cli, ["--help"]).output
    for command in ("memorize", "recall", "stats", "version"):
        output = runner.invoke(cli, [command, "--help"]).output
        assert "Example" in output and "rs-learn-host" in output
    assert "--native" not in runner.invoke(cli, ["--help"]).output


def test_a_real_subprocess_run(wasm_path: Path, tmp_path: Path):
    project = tmp_path / "proj"
    project.mkdir()
    env = {**os.environ, "RS_LEARN_PROJECT": str(project), "RS_LEARN_WASM": str(wasm_path),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def host(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "host_harness", *args], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)

    stored = host("memorize", "The CI pipeline runs on Python 3.11 with two cores.")
    assert stored.returncode == 0, stored.stderr
    assert stored.stdout.startswith("mem-")
    db = project / ".gm" / "rs-learn.db"
    before = digest(db)
    found = host("recall", "python version in CI", "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)[0]["id"] == stored.stdout.strip()
    assert digest(db) == before
    assert leftovers(project) == []
    failed = host("memorize", "")
    assert failed.returncode == 1 and "Error: validation" in failed.stderr
