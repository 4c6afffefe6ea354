"""Codex's ``config.toml`` edited as text: comments, other tables and own keys survive (issue 26)."""

from __future__ import annotations

import tomllib

import pytest

from host_harness.integrations.edits import SetupError
from host_harness.integrations.tomlconf import drop_table, put_table

OURS = {"command": "/opt/rs/bin/rs-learn-host", "args": ["mcp"]}
CONFIG = """\
# my Codex settings
model = "o3"  # the default model

[mcp_servers.github]
command = "gh-mcp"
args = ["--read-only"]

# notifications
[notify]
enabled = true
"""


def test_a_new_table_is_appended_and_everything_else_kept_byte_for_byte():
    new = put_table(CONFIG, "rs-learn", OURS)
    assert new.startswith(CONFIG) and new[len(CONFIG):] == (
        '\n[mcp_servers.rs-learn]\ncommand = "/opt/rs/bin/rs-learn-host"\nargs = ["mcp"]\n')
    parsed = tomllib.loads(new)
    assert parsed["mcp_servers"]["rs-learn"] == OURS
    assert parsed["mcp_servers"]["github"]["command"] == "gh-mcp"


def test_put_then_drop_gives_the_file_back():
    assert drop_table(put_table(CONFIG, "rs-learn", OURS), "rs-learn") == CONFIG
    assert drop_table(put_table("", "rs-learn", OURS), "rs-learn") == ""
    once = put_table(CONFIG, "rs-learn", OURS)
    assert put_table(once, "rs-learn", OURS) == once


def test_an_existing_table_keeps_its_comments_keys_and_sub_tables():
    mine = """\
[mcp_servers.rs-learn]   # memory
command = "/old/rs-learn-host"  # moved since
startup_timeout_sec = 30
args = [
  "mcp",
  "--verbose",
]

[mcp_servers.rs-learn.env]
RS_LEARN_HOOK_BUDGET = "900"

[mcp_servers.other]
command = "x"
"""
    new = put_table(mine, "rs-learn", OURS)
    assert new == """\
[mcp_servers.rs-learn]   # memory
command = "/opt/rs/bin/rs-learn-host"
startup_timeout_sec = 30
args = ["mcp"]

[mcp_servers.rs-learn.env]
RS_LEARN_HOOK_BUDGET = "900"

[mcp_servers.other]
command = "x"
"""
    assert drop_table(new, "rs-learn") == '[mcp_servers.other]\ncommand = "x"\n'


def test_a_quoted_header_is_ours_too():
    text = '[mcp_servers."rs-learn"]\ncommand = "old"\n'
    assert tomllib.loads(put_table(text, "rs-learn", OURS))["mcp_servers"]["rs-learn"] == OURS


def test_a_missing_key_is_added_after_the_last_one():
    text = '[mcp_servers.rs-learn]\ncommand = "old"\n\n[other]\nx = 1\n'
    assert put_table(text, "rs-learn", OURS) == (
        '[mcp_servers.rs-learn]\ncommand = "/opt/rs/bin/rs-learn-host"\nargs = ["mcp"]\n\n[other]\nx = 1\n')


@pytest.mark.parametrize("text", [
    '[mcp_servers]\nrs-learn = { command = "old", args = [] }\n',
    'mcp_servers.rs-learn.command = "old"\n',
])
def test_forms_it_does_not_edit_are_refused_with_the_table_to_add(text: str):
    with pytest.raises(SetupError, match=r"does not edit.*add this by hand:\n\[mcp_servers\.rs-learn\]"):
        put_table(text, "rs-learn", OURS)


def test_invalid_toml_is_refused():
    with pytest.raises(SetupError, match="not valid TOML"):
        put_table("model = \n", "rs-learn", OURS)


def test_a_path_with_quotes_and_backslashes_is_written_as_a_valid_string():
    odd = {"command": 'C:\\Tools\\rs "learn"\\rs-learn-host.exe', "args": ["mcp"]}
    assert tomllib.loads(put_table(None, "rs-learn", odd))["mcp_servers"]["rs-learn"] == odd
