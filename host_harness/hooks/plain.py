"""A hook command line the fast path read, answered without click.

Recall's hooks go through the pipeline; capture's are handed to their detached run
(:mod:`host_harness.capture.hooks`), which builds on the pipeline itself: this dispatch stands above both.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

from host_harness.hooks import protocol
from host_harness.hooks.command_line import HookOptions
from host_harness.hooks.pipeline import HOOKS, answer
from host_harness.hooks.protocol import log_reason
from host_harness.project import Found


def answer_plain(options: HookOptions, found: Found | None = None) -> NoReturn:
    """A hook command line the fast path read (:mod:`host_harness.hooks.command_line`): answered, then leave.

    ``found``: the project the entry point found where the command line starts looking (located once).

    Without click nor the CLI's other commands (their native guest modules among them); the warm
    server first. Whatever happens, status 0.
    """
    protocol.log_to_hook_log()
    try:
        if options.command in ("pre-compact", "stop", "session-end"):  # capture's: start its run, leave
            from host_harness.capture.hooks import hand_off
            from host_harness.targets import DEFAULT_WASM

            hand_off(options.command, options.project if options.project is not None else Path.cwd(),
                     Path(os.environ.get("RS_LEARN_WASM") or DEFAULT_WASM))
        elif options.command == "session-context":
            from host_harness.capture.hooks import CaptureContextHook

            answer(CaptureContextHook, options, warm=True, found=found)
        else:
            answer(HOOKS[options.command], options, warm=True, found=found)
    except BaseException as error:  # the event must go through, whatever happened
        log_reason(protocol.noted_project(), f"hook failed: {type(error).__name__}: {error}")
    protocol.leave("")
