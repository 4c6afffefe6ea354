"""``rs-learn-host hook``: Claude Code hooks.

``prompt-submit`` injects recalled memories before the model sees a prompt; ``session-start``
tells a new session which managed and authored skills exist. Neither may ever block Claude Code,
which blocks on exit status 2 -- also click's status for a usage error. So the entry point
routes a ``hook <event>`` command line through :func:`run_hook`, which runs the CLI in
non-standalone mode and turns *every* outcome -- a bad option, a missing ``-p`` directory, an
exception -- into exit status 0 and a line in the hook log. The options click declares (for
``--help`` and its messages) reach the hook as the fast path's do
(:class:`~host_harness.hooks.command_line.HookOptions`), through the same pipeline
(:func:`host_harness.hooks.pipeline.answer`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from host_harness.cachedir import default_cache_dir
from host_harness.capture import EVENTS as CAPTURE_EVENTS
from host_harness.hooks.command_line import HookOptions, project_start
from host_harness.hooks.prompt_run import LOG_PROMPTS_ENV, unread_run
from host_harness.hooks.protocol import (
    BUDGET_ENV,
    DEFAULT_TIMEOUTS,
    EVENTS,
    TIMEOUT_ENV,
    TIMEOUT_RANGE,
    budget_range,
    clamp_budget,
    default_budget,
    log_reason,
    log_to_hook_log,
)
from host_harness.project import find_project
from host_harness.targets.session import Session

if TYPE_CHECKING:  # the component, the stores and numpy load when a hook runs, not for --help
    from host_harness.hooks.pipeline import Hook

HOOK_COMMANDS = (*EVENTS, *CAPTURE_EVENTS)  # capture's hooks: host_harness/capture/hooks.py
FC = TypeVar("FC", bound=Callable[..., object])


@click.group("hook")
def hook() -> None:
    """Claude Code hooks.

    \b
    Install in .claude/settings.json:
      {"hooks": {
        "UserPromptSubmit": [{"hooks": [
          {"type": "command", "command": "rs-learn-host hook prompt-submit"}]}],
        "SessionStart": [{"hooks": [
          {"type": "command", "command": "rs-learn-host hook session-start"}]}]}}
    """


def timeout_option(command: str) -> Callable[[FC], FC]:
    """The ``--timeout`` option of a hook, with that hook's default (``DEFAULT_TIMEOUTS``)."""
    return click.option(
        "--timeout", type=click.FloatRange(*TIMEOUT_RANGE), default=DEFAULT_TIMEOUTS[command],
        show_default=True, envvar=TIMEOUT_ENV, show_envvar=True,
        help="Seconds before the hook gives up silently.",
    )


def budget(command: str, what: str) -> Callable[[FC], FC]:
    """The ``--budget`` of hook ``command``: its verb's ``budget_tokens`` default and range (the spec)."""
    low, high = budget_range(command)
    return click.option(
        "--budget", type=int, default=default_budget(command), show_default=True, envvar=BUDGET_ENV[command],
        show_envvar=True, help=f"Tokens of {what} at most ({low} to {high}, the guest's range; a value "
        "outside it runs with the nearest allowed one, and says so in the hook log and `why`).",
    )


@hook.command("prompt-submit")
@budget("prompt-submit", "recalled context")
@timeout_option("prompt-submit")
@click.option("--log-prompts", is_flag=True,
              help=f"Keep each prompt's text (secrets redacted) in the ledger (also ${LOG_PROMPTS_ENV}=1).")
@click.pass_obj
def prompt_submit(session: Session, budget: int, timeout: float, log_prompts: bool) -> None:
    """Read a UserPromptSubmit event on stdin; print the memories relevant to its prompt.

    Prints {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
    "additionalContext": "## Recall for this prompt ..."}} or nothing. Always
    exits 0; reasons for injecting nothing go to <project>/.gm/logs/hook.log.
    Every run appends a line to <project>/.gm/logs/ledger.jsonl (see `rs-learn-host
    why`): the prompt's digest, the query, every candidate with its scores and
    what was decided. A memory is injected at most once per session; `#rs-learn
    off` in a prompt turns auto-recall off for the session ($RS_LEARN_AUTO_RECALL=0
    or {"auto_recall": false} in .gm/config.json: for everything).

    \b
    Example:
      echo '{"cwd": ".", "prompt": "how do we deploy?"}' | rs-learn-host hook prompt-submit
    """
    from host_harness.hooks.pipeline import PromptSubmitHook

    _run(PromptSubmitHook, session, budget, timeout, log_prompts)


@hook.command("session-start")
@budget("session-start", "skill list")
@timeout_option("session-start")
@click.pass_obj
def session_start(session: Session, budget: int, timeout: float) -> None:
    """Read a SessionStart event on stdin; print the skills a new session should know about.

    Prints {"hookSpecificOutput": {"hookEventName": "SessionStart",
    "additionalContext": "## Skills in this project ..."}} -- the managed skills
    (.gm/managed-skills/) and authored ones (.gm/skills/, .claude/skills/) with
    their descriptions and where to read them -- or nothing. Always exits 0;
    reasons for injecting nothing go to <project>/.gm/logs/hook.log.

    \b
    Example:
      echo '{"cwd": ".", "hook_event_name": "SessionStart"}' | rs-learn-host hook session-start
    """
    from host_harness.hooks.pipeline import SessionStartHook

    _run(SessionStartHook, session, budget, timeout)


def _run(kind: type[Hook], session: Session, budget: int, timeout: float, log_prompts: bool = False) -> None:
    """Run one hook on stdin and print what it has to add: the fast path's pipeline, with click's values."""
    from host_harness.hooks.pipeline import answer

    command = click.get_current_context().info_name or ""
    budget, note = clamp_budget(command, budget)
    options = HookOptions(command, session.project, budget, timeout, log_prompts, note)
    answer(kind, options, wasm=session.wasm, native=session.native)


@hook.command("build-index", hidden=True)
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("ns")
@click.argument("dim", type=click.IntRange(1, 65_536))
def build_index(db: Path, ns: str, dim: int) -> None:
    """Build the persisted vector index of NS in DB (prompt-submit starts this in the background)."""
    from host_harness.store import SqliteKV
    from host_harness.vectors import IndexDir, IndexPolicy, VectorIndex

    policy = IndexPolicy.from_env(default_cache_dir())
    kv = SqliteKV(db)
    try:
        VectorIndex(kv, policy).prepare(ns, dim)
    finally:
        kv.close()
        if policy.cache_dir is not None:
            IndexDir(policy, db, ns, dim).path.with_suffix(".building").unlink(missing_ok=True)


def is_hook(args: Sequence[str]) -> bool:
    """Whether a command line invokes one of the hooks."""
    return any(a == "hook" and b in HOOK_COMMANDS for a, b in itertools.pairwise(args))


def run_hook(command: click.Command, args: Sequence[str]) -> int:
    """Run the CLI for a hook; always return 0, logging whatever went wrong (nothing goes to stderr)."""
    log_to_hook_log()
    try:
        command.main(args=list(args), prog_name="rs-learn-host", standalone_mode=False)
    except SystemExit as done:
        if done.code not in (0, None):
            log_reason(_project_hint(args), f"hook exited with status {done.code}; nothing injected")
    except click.ClickException as error:
        project, reason = _project_hint(args), f"hook command line rejected: {error.format_message()}"
        log_reason(project, reason)
        if "prompt-submit" in args:
            unread_run(reason, project, outcome="error")
    except BaseException as error:  # the event must go through, whatever happened
        log_reason(_project_hint(args), f"hook failed: {type(error).__name__}: {error}")
    return 0


def _project_hint(args: Sequence[str]) -> Path | None:
    """The project whose hook log gets a rejected command line's reason; ``None``: the cache dir's log.

    Found as a hook finds it (``host_harness/project.py``) from ``-p``/``--project``, else
    ``$RS_LEARN_PROJECT``, else the working directory; a ``-p`` that is no directory names none.
    """
    start = project_start(list(args))
    return find_project(start) if start is not None else None
