"""Capture from the agent's own session, with no model call (issue 34): ``docs/capture.md``.

``transcript`` reads a Claude Code transcript from where the last run stopped, ``extract`` decides
what is worth keeping (directives, lessons, blocks, the session note), ``state`` keeps each
transcript's offset and what a later run needs, ``run`` sends it to the guest's ``capture`` verb,
``switches`` reads the per-kind off switches, ``hooks`` serves Claude Code's hook events.
"""

EVENTS = {
    "pre-compact": "PreCompact",
    "stop": "Stop",
    "session-end": "SessionEnd",
    "session-context": "SessionStart",
}  # hook command -> the event it serves (here, so that the CLI names them without loading a hook)
