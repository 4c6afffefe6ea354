"""``rs-learn-host records``: CliRunner on both targets, scope from flags and environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from host_harness.cli.main import cli


@pytest.fixture
def run(target: str, project: Path):
    """Invoke ``rs-learn-host -p PROJECT [--native] records ARGS``; returns the click Result."""
    runner = CliRunner()
    base = ["-p", str(project)] + (["--native"] if target == "native" else [])

    def invoke(*args: str, env: dict[str, str] | None = None):
        result = runner.invoke(cli, [*base, "records", *args], env=env, catch_exceptions=False)
        return result

    return invoke


def test_records_round_trip(run):
    scope = ["--project-id", "app"]
    assert (
        run(
            *scope,
            "create",
            "checklist",
            "Release 0.2",
            "--item",
            "Bump version",
            "--item",
            "Changelog",
            "--tag",
            "release",
        ).output
        == "cl-1\n"
    )
    assert run(*scope, "add-item", "cl-1", "Collect entries", "--parent", "it-2").output == "it-3\n"
    tree = run(*scope, "update-item", "cl-1", "it-1", "--status", "done").output
    assert tree.splitlines() == [
        "cl-1   checklist    [open, 1/3] Release 0.2 #release",
        "  [x] Bump version  it-1",
        "  [ ] Changelog  it-2",
        "      [ ] Collect entries  it-3",
    ]
    assert (
        run(*scope, "create", "todo", "Fix the flaky login test", "--priority", "4", "--tag", "ci").output
        == "td-1\n"
    )
    assert run(*scope, "create", "note", "The staging DB password rotates monthly.").output == "nt-1\n"
    listed = run(*scope, "list", "--kind", "todo").output.splitlines()
    assert listed == ["td-1   todo         [pending, p4] Fix the flaky login test #ci"]
    shown = run(*scope, "show", "cl-1")
    assert (
        shown.exit_code == 0
        and "  version 3, created " in shown.output
        and "[x] Bump version" in shown.output
    )
    assert run(*scope, "update", "td-1", "--status", "done", "--version", "1").output == "td-1 version 2\n"
    stale = run(*scope, "update", "td-1", "--title", "x", "--version", "1")
    assert stale.exit_code == 1 and "conflict: record 'td-1' is at version 2, not 1" in stale.output
    text = run(*scope, "retrieve", "release changelog").output
    assert text.startswith("## Structured memory\n- [checklist cl-1] Release 0.2 (open, 1/3 done) #release\n")
    assert run(*scope, "delete", "td-1").output == "td-1 deleted (soft)\n"
    data = json.loads(run(*scope, "list", "--json").output)
    assert [h["record"]["id"] for h in data["hits"]] == ["nt-1", "cl-1"]
    assert json.loads(run(*scope, "reconcile", "--json").output)["records"] == 3


def test_scope_flags_and_environment_isolate_records(run):
    assert run("--project-id", "p1", "--actor", "alice", "create", "todo", "alice's todo").output == "td-1\n"
    hidden = run("list").output  # unscoped callers do not see scoped records, but hear of them
    assert hidden.startswith("No records found.\n(1 record in a scope not shown: ")
    assert "--project-id" in hidden
    assert run("--project-id", "p2", "list").output == "No records found.\n"
    env = {"RS_LEARN_SCOPE_PROJECT": "p1", "RS_LEARN_SCOPE_ACTOR": "alice"}
    assert "alice's todo" in run("list", env=env).output
    missing = run("--project-id", "p1", "--actor", "bob", "show", "td-1")
    assert missing.exit_code == 1 and "not_found: no record 'td-1' in this scope" in missing.output
    assert run("--global", "create", "note", "Everyone sees this.").output == "nt-1\n"
    assert "Everyone sees this." in run("--project-id", "p2", "list").output


def test_unscoped_list_says_how_many_records_a_scope_hides(run):
    assert run("--project-id", "p1", "create", "todo", "p1 todo").exit_code == 0
    assert run("--project-id", "p1", "--thread", "t", "create", "note", "p1 note").exit_code == 0
    assert run("create", "todo", "an unscoped todo").exit_code == 0
    lines = run("list").output.splitlines()
    assert "an unscoped todo" in lines[0] and lines[1].startswith("(2 records in a scope not shown: ")
    assert "(1 record in a scope" in run("list", "--kind", "note").output
    assert json.loads(run("list", "--json").output)["hiddenByScope"] == 2
    scoped = run("--project-id", "p1", "list").output
    assert "p1 todo" in scoped and "not shown" not in scoped
    assert "not shown" not in run("list", env={"RS_LEARN_SCOPE_PROJECT": "p1"}).output


def test_bad_input_is_a_clean_error(run):
    result = run("update", "xx-1", "--title", "x")
    assert result.exit_code == 2 and "must start with cl-, td- or nt-" in result.output
    result = run("create", "todo", "x", "--priority", "9")
    assert (
        result.exit_code == 1
        and "validation: field 'priority' must be between 0 and 5, got 9" in result.output
    )
