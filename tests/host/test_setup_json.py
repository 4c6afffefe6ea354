"""Writing a changed agent configuration back in its own layout (issue 32): ``jsonlayout.render``.

Random documents in random layouts: adding rs-learn's server or hooks gives exactly the merged
document, and taking them out again gives back the file byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from host_harness.integrations import jsonconf
from host_harness.integrations.jsonlayout import render

ENTRY = {"command": "/opt/rs/bin/rs-learn-host", "args": ["mcp"]}
HOOK = "/opt/rs/bin/rs-learn-host hook prompt-submit"

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8))
keys = st.text(min_size=1, max_size=6)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)), max_leaves=8)
others = st.dictionaries(keys.filter(lambda k: k not in ("mcpServers", "hooks")),
                         values, max_size=4)
servers = st.dictionaries(keys.filter(lambda k: k != "rs-learn"), st.fixed_dictionaries({"command": keys}),
                          min_size=1, max_size=3)
layouts = st.sampled_from([None, 2, 4, "\t"])


def dump(doc: dict[str, Any], indent: int | str | None, compact: bool, newline: bool) -> str:
    text = json.dumps(doc, indent=indent, separators=(",", ":") if compact and indent is None else None,
                      ensure_ascii=False)
    return text + "\n" if newline else text


@settings(max_examples=150, derandomize=True, deadline=None)
@given(others, st.one_of(st.none(), servers), layouts, st.booleans(), st.booleans())
def test_a_server_in_and_out_leaves_the_file_as_it_was(mine: dict[str, Any], theirs: dict[str, Any] | None,
                                                       indent: int | str | None, compact: bool,
                                                       newline: bool):
    doc = dict(mine) if theirs is None else {**mine, "mcpServers": theirs}
    text = dump(doc, indent, compact, newline)
    merged = json.loads(text)
    jsonconf.put_server(merged, "mcpServers", "rs-learn", ENTRY)
    written = render(merged, text)
    assert json.dumps(json.loads(written)) == json.dumps(merged), "exactly the merged document, keys in order"
    assert len(set(text.splitlines()) - set(written.splitlines())) <= 1, "at most the line that gains a comma"
    back = json.loads(written)
    jsonconf.drop_server(back, "mcpServers", "rs-learn")
    if theirs is not None or mine:  # a file left with nothing in it is written as {}
        assert render(back, written) == text


@settings(max_examples=100, derandomize=True, deadline=None)
@given(others, st.lists(st.text(min_size=1, max_size=6), max_size=2), layouts, st.booleans())
def test_a_hook_in_and_out_leaves_the_file_as_it_was(mine: dict[str, Any], commands: list[str],
                                                     indent: int | str | None, newline: bool):
    doc = {**mine, "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}
                                                  for command in commands]}} if commands else dict(mine)
    text = dump(doc, indent, False, newline)
    merged = json.loads(text)
    jsonconf.put_hook(merged, "UserPromptSubmit", HOOK, "prompt-submit")
    written = render(merged, text)
    assert json.dumps(json.loads(written)) == json.dumps(merged)
    back = json.loads(written)
    jsonconf.drop_hook(back, "UserPromptSubmit", "prompt-submit")
    if commands or mine:
        assert render(back, written) == text


def test_an_existing_entry_changes_in_place():
    text = ('{\n  "mcpServers": {\n    "rs-learn": {"command": "/old/rs-learn-host", "args": ["mcp"],\n'
            '                 "env": {"A": "1"}}\n  }\n}\n')
    doc = json.loads(text)
    jsonconf.put_server(doc, "mcpServers", "rs-learn", ENTRY)
    assert render(doc, text) == text.replace("/old/rs-learn-host", ENTRY["command"])


def test_windows_line_ends_stay_windows_line_ends():
    text = '{\r\n  "mcpServers": {\r\n    "github": {"command": "gh-mcp"}\r\n  }\r\n}\r\n'
    doc = json.loads(text)
    jsonconf.put_server(doc, "mcpServers", "rs-learn", ENTRY)
    written = render(doc, text)
    assert json.loads(written) == doc and "\n" not in written.replace("\r\n", "")
    jsonconf.drop_server(doc, "mcpServers", "rs-learn")
    assert render(doc, written) == text
