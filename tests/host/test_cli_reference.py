"""``docs/cli-reference.md`` is generated, current, and documents every command and option (issue 46 item 1).

The sqlite-utils habit: the test renders the reference again and compares it with the committed
file, so a new command, option, range or tool argument that is not in the file fails here until
``make wasm`` (``scripts/gen_cli_reference.py``) rewrites it; and a command or an option without
help fails even when the file is current.
"""

from __future__ import annotations

from pathlib import Path

import click

from host_harness.cli.main import cli
from host_harness.cli.reference import render, undocumented
from host_harness.contract import verbs
from host_harness.mcp.tools import MEMORY_TOOLS, STRUCTURED_TOOLS

PATH = Path(__file__).resolve().parents[2] / "docs" / "cli-reference.md"


def test_the_committed_reference_is_the_generated_one():
    assert PATH.read_text(encoding="utf-8") == render(), "stale: run scripts/gen_cli_reference.py"


def test_every_command_and_option_has_help():
    assert undocumented(cli) == []


def test_an_undocumented_option_is_found():
    @click.group()
    def root() -> None:
        """Root."""

    @root.command("bare")
    @click.option("--plain")
    def bare(plain: str) -> None:  # no docstring
        pass

    assert undocumented(root, "x") == ["x bare", "x bare --plain"]


def test_every_tool_and_argument_is_in_the_reference():
    text = render()
    for tool in (*MEMORY_TOOLS, *STRUCTURED_TOOLS):
        assert f"### `{tool.name}`" in text
        for name in verbs()[tool.verb]["fields"]:
            assert f"| `{name}` |" in text, (tool.name, name)


def test_a_verb_range_in_the_reference_is_the_guests():
    limit = verbs()["recall"]["fields"]["limit"]
    text = render()
    assert f"| `limit` | integer {limit['minimum']}..{limit['maximum']} |" in text  # the tool's
    command = text.split("### `rs-learn-host recall`", 1)[1].split("### ", 1)[0]
    assert f"[default: {limit['default']}; 1<=x<={limit['maximum']}]" in command  # the command's --limit


def test_the_reference_does_not_depend_on_what_ran_before():
    """A command run in this process caches its help option (``-h, --help``): the text stays the same."""
    from click.testing import CliRunner

    before = render()
    assert CliRunner().invoke(cli, ["records", "update-item", "-h"]).exit_code == 0
    assert render() == before and "-h, --help" in before
