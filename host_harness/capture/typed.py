"""What the user typed, in a Claude Code transcript entry: an allow-list, never "everything but …".

Claude Code writes much more than prompts as ``{"type": "user"}`` entries: ``!`` bash mode
(``<bash-input>``, then ``<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>``), a background
task's ``<task-notification>``, other agents' ``<teammate-message>`` and ``<cross-session-message>``,
``<system-reminder>`` blocks, slash commands (``<command-name>``), their output
(``<local-command-stdout>``), ``[Request interrupted by user]``, tool results, a subagent's
conversation, the summary after a compaction. Text the user never typed must never become a rule, so
:func:`typed_text` keeps only what has every mark of a typed prompt (checked against 2.1.197 and
2.1.332):

* the entry: ``type: user``, ``message.role: user``; none of ``isMeta``, ``isSidechain``,
  ``isCompactSummary``, ``isVisibleInTranscriptOnly``, ``isVirtual``, ``toolUseResult``,
  ``sourceToolUseID`` …; its provenance, where the CLI writes one, a person's: ``origin.kind``
  ``human``, ``rowSource`` ``local``, ``promptSource`` ``typed``, ``queued`` or ``sdk`` (``claude -p``);
  its content holds no ``tool_result``;
* each text block on its own: a block that opens with a tag (``<bash-stdout>``, ``<system-reminder>``,
  ``<anything>``) or a bracketed notice (``[SYSTEM NOTIFICATION - NOT USER INPUT]``) is not typed;
  in a typed block, a paste (``<pasted_content id="…">…</pasted_content id="…">``) is cut out and the
  text stops at the first line that opens a tag (a reminder the CLI appended).

A prompt typed while the agent was busy is written as an ``attachment`` of type ``queued_command``
(``commandMode`` ``prompt``): :func:`queued_text` reads it by the same rules.
"""

from __future__ import annotations

import re
from typing import Any

PERSON_SOURCES = frozenset({"typed", "queued", "sdk"})  # promptSource: at the prompt, queued, `claude -p`
NOT_TYPED_FLAGS = (
    "isMeta", "isSidechain", "isCompactSummary", "isVisibleInTranscriptOnly", "isVirtual",
    "userContextReminder", "turnCompanion", "handedOff", "toolUseResult", "sourceToolUseID",
    "isApiErrorMessage", "carriedByCompaction",
)
OPENS_TAG = re.compile(r"^[ \t]*<[A-Za-z][\w:-]*[\s>/]", re.M)  # Claude Code's own test, per line
NOTICE = re.compile(r"^\s*(?:\[(?:[A-Z][A-Z0-9 _-]{2,}|Request interrupted|Tool call did not complete)|"
                    r"Caveat: The messages below)")
PASTE = re.compile(r'<pasted_content id="([0-9a-f]{4})">\n.*?\n</pasted_content id="\1">\n?', re.S)


def typed_text(value: dict[str, Any]) -> str | None:
    """The text the user typed in a transcript entry (its typed blocks joined), ``None`` when none."""
    message = value.get("message")
    if value.get("type") != "user" or not isinstance(message, dict) or message.get("role", "user") != "user":
        return None
    if not from_a_person(value):
        return None
    return _text(message.get("content"))


def queued_text(value: dict[str, Any]) -> str | None:
    """The prompt of a ``queued_command`` attachment (typed while the agent worked), ``None`` when not one."""
    attachment = value.get("attachment")
    if value.get("type") != "attachment" or not isinstance(attachment, dict):
        return None
    if attachment.get("type") != "queued_command" or attachment.get("commandMode", "prompt") != "prompt":
        return None
    if not (from_a_person(value) and from_a_person(attachment)):
        return None
    return _text(attachment.get("prompt"))


def from_a_person(value: dict[str, Any]) -> bool:
    """Whether an entry's flags and provenance (where it has them) say a person wrote it."""
    if any(value.get(flag) not in (None, False) for flag in NOT_TYPED_FLAGS):
        return False
    origin = value.get("origin")
    if origin is not None and not (isinstance(origin, dict) and origin.get("kind") == "human"):
        return False
    if value.get("rowSource", "local") != "local":
        return False
    source = value.get("promptSource")
    return source is None or source in PERSON_SOURCES


def _text(content: Any) -> str | None:
    if isinstance(content, str):
        blocks = [content]
    elif isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return None
        blocks = [b["text"] for b in content
                  if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    else:
        return None
    parts = [part for part in (typed_part(block) for block in blocks) if part]
    return "\n\n".join(parts) or None


def typed_part(block: str) -> str:
    """What of one text block was typed.

    Nothing when it opens with a tag or a notice; else the text before the first line that opens a tag,
    pastes cut out.
    """
    text = PASTE.sub("\n", block)
    if NOTICE.match(text) or OPENS_TAG.match(text.lstrip()):
        return ""
    tag = OPENS_TAG.search(text)
    return (text[: tag.start()] if tag else text).strip()
