"""Conventions in every request's context (issue 47 item 5), on a generated dev set of our own.

``python -m bench.conventions [--conversations 30] [--wasm]`` writes long conversations -- each a
project of five Claude Code sessions in which the user states coding conventions among unrelated
talk and later changes some of them ("From now on end variable names with '_x', not '_m'") -- and
replays them as the hooks do: every session captured as the ``Stop`` hook does, then a new session's
start (``capture_context``, the ``hook session-context`` budget) and, for every convention still in
force, a coding request it governs through per-prompt recall (``auto_recall`` with the start's
conventions excluded, as ``hook prompt-submit`` sends them). The requests share few or no words with
their conventions ("write a function that checks for palindromes" for the naming rule).

Printed: how many conventions are in force, the share whose latest version is in the start's
context, in the hook's context, and in either (target >= .95); how many stale versions (a version
the user changed since) either context shows (target 0); and the start context's size. The
generator is seeded: the same conversations on every run; nothing is taken from a held-out set.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_harness.capture import run
from host_harness.targets.session import DEFAULT_WASM, Session

START_BUDGET_TOKENS = 600  # hook session-context's default
SESSIONS = 5
FAMILIES_PER_CONVERSATION = 8
FILLER_PER_SESSION = 6


@dataclass(frozen=True)
class Family:
    """A convention, the versions the user may state in turn, and a request it governs."""

    versions: tuple[str, ...]
    request: str


FAMILIES = (
    Family(("Always end variable names with _m in this codebase.",
            "From now on, end variable names with _x instead of _m."),
           "Write a function that checks if a string is a palindrome."),
    Family(("Use single quotes for string literals in Python files.",
            "We switched: use double quotes for string literals in Python files, not single quotes."),
           "Add a helper that builds the greeting shown after login."),
    Family(("Indent code with 2 spaces, never tabs.",
            "Indent code with 4 spaces from now on, not 2."),
           "Create a small module that parses the retry settings."),
    Family(("Always add type hints to every function signature.",),
           "Implement a function that merges two sorted lists."),
    Family(("Every public function needs a Google-style docstring.",
            "Use NumPy-style docstrings for public functions instead of Google-style ones."),
           "Expose a public function that converts Celsius to Fahrenheit."),
    Family(("We use pnpm, not npm, in this repo.",
            "We use yarn now, not pnpm.",
            "We moved back: use pnpm, never yarn."),
           "Install the date-fns dependency for the dashboard."),
    Family(("Write tests with pytest, never unittest.",),
           "Cover the invoice rounding with tests."),
    Family(("Commit messages must start with the ticket number.",
            "Commit messages must start with the component name in brackets, not the ticket number."),
           "Commit the fix for the flaky upload check."),
    Family(("Never use print for diagnostics; use the logging module.",),
           "Add some output so I can see why the sync job stalls."),
    Family(("Never catch bare exceptions; catch the specific error.",),
           "Make the config loader survive a missing file."),
    Family(("Keep lines under 100 characters.",
            "Keep lines under 80 characters from now on, not 100."),
           "Refactor the report generator into smaller pieces."),
    Family(("Always store timestamps in UTC.",),
           "Record when each order was shipped."),
    Family(("Decorate every route handler with @require_auth.",),
           "Add an endpoint that returns the current user's settings."),
    Family(("Use f-strings for formatting, never the % operator.",),
           "Print a summary line with the count and the total."),
    Family(("Never push directly to main; open a pull request.",
            "Never push directly to main or release branches; open a pull request and wait for review."),
           "Merge my branch into main."),
    Family(("Put constants in config/constants.py.",),
           "Introduce a maximum page size for the search API."),
    Family(("Prefer async functions for anything that does I/O.",),
           "Write the code that downloads the nightly export."),
    Family(("Use Decimal for money amounts, never float.",),
           "Compute the invoice total with tax."),
    Family(("Prefix interface names with I, like IUserStore.",
            "Stop prefixing interface names with I; name them by role, like UserStore."),
           "Define the interface for the payment gateway."),
    Family(("Always use semicolons in JavaScript files.",
            "No semicolons in JavaScript files from now on."),
           "Write a JavaScript util that debounces a callback."),
    Family(("Use functional React components, never class components.",),
           "Build a React widget that shows the unread count."),
    Family(("Write SQL keywords in uppercase.",
            "Write SQL keywords in lowercase from now on, not uppercase."),
           "Write the query that lists customers without orders."),
    Family(("Run make lint before every commit.",),
           "I'm done with the parser change, let's wrap it up."),
    Family(("Name branches feature/<ticket>-<slug>.",
            "Name branches <user>/<ticket> from now on, not feature/<ticket>-<slug>."),
           "Start a branch for the export bug."),
)

FILLER = (
    "Can you explain what this regular expression does: ^\\d{3}-\\d{4}$ ?",
    "Why does the CI job take so long today?",
    "Summarise the changes in the last three commits.",
    "What does a 502 from the load balancer usually mean?",
    "Rename the helper in utils to something clearer.",
    "Look at the failing snapshot test and tell me what changed.",
    "How do I profile memory in a Python process?",
    "Thanks, that worked.",
    "Show me where the retry count is read.",
    "What is the difference between a process and a thread?",
    "Open the README and fix the broken link.",
    "Let's look at the billing page next.",
    "Is there a faster way to build the Docker image?",
    "Explain the stack trace from the worker logs.",
    "Please bump the version in the changelog.",
    "What's a good name for a queue of pending emails?",
    "How many tests do we have in the api package?",
    "Try running the migrations again.",
    "Check whether the cron schedule is in local time.",
    "Let me know when the build is green.",
)


@dataclass
class Conversation:
    families: list[Family]
    sessions: list[list[str]]  # each session's typed prompts, in order
    latest: dict[int, int]  # family index (in ``families``) -> the version stated last


def generate(seed: int) -> Conversation:
    """One conversation: eight conventions stated among filler, some changed in a later session."""
    rng = random.Random(seed)
    families = rng.sample(FAMILIES, FAMILIES_PER_CONVERSATION)
    sessions: list[list[str]] = [rng.sample(FILLER, FILLER_PER_SESSION) for _ in range(SESSIONS)]
    latest: dict[int, int] = {}
    for i, family in enumerate(families):
        at = rng.randrange(3)  # stated in one of the first three sessions
        for version, text in enumerate(family.versions):
            if version and rng.random() < 0.3:
                break  # this change is never made
            if version:
                at = rng.randrange(at + 1, SESSIONS) if at + 1 < SESSIONS else at
            prompt = text if rng.random() < 0.5 else f"{text} {rng.choice(FILLER)}"
            sessions[at].insert(rng.randrange(len(sessions[at]) + 1), prompt)
            latest[i] = version
            if at == SESSIONS - 1:
                break
    return Conversation(families, sessions, latest)


def transcript(prompts: list[str], session: str, cwd: str, day: int) -> str:
    """The Claude Code transcript of one session: each typed prompt and a short answer."""
    lines, parent = [], None
    for n, prompt in enumerate(prompts):
        for role, content in (("user", prompt), ("assistant", [{"type": "text", "text": "Done."}])):
            entry_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}/{n}/{role}"))
            message: dict[str, Any] = {"role": role, "content": content}
            lines.append(json.dumps({
                "parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd,
                "sessionId": session, "version": "2.1.197", "gitBranch": "main", "type": role,
                "message": message, "uuid": entry_id,
                "timestamp": f"2026-11-{day:02d}T09:{n // 30:02d}:{n % 30 * 2:02d}.000Z",
            }))
            parent = entry_id
    return "\n".join(lines) + "\n"


def clause(rule: str) -> str:
    """What capture keeps of a rule: its first sentence up to a semicolon (capture splits there)."""
    return rule.split(";")[0]


def shows(context: str, rule: str) -> bool:
    """Whether a line of ``context`` is ``rule`` (a later version may start with an earlier one's words)."""
    for line in context.splitlines():
        text = line.removeprefix("- ")
        rest = text[len(rule) :] if text.startswith(rule) else None
        if rest is not None and (rest in ("", ";") or rest.startswith((" (", " —"))):
            return True
    return False


def replay(conversation: Conversation, project: Path, wasm: Path, native: bool) -> dict[str, int]:
    """Capture the conversation's sessions into ``project``; score a new session's contexts."""
    (project / ".gm").mkdir(parents=True)
    guest = Session(project, wasm, native, None)
    try:
        for n, prompts in enumerate(conversation.sessions):
            session = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{project}/{n}"))
            path = project.parent / f"{session}.jsonl"
            path.write_text(transcript(prompts, session, str(project), n + 1), encoding="utf-8")
            run.capture(project, path, guest.dispatch)
        start = guest.dispatch("capture_context", {"source": "startup", "budget_tokens": START_BUDGET_TOKENS})
        counts = {"active": 0, "start": 0, "hook": 0, "either": 0, "stale": 0,
                  "start_chars": len(start["context"])}
        for i, family in enumerate(conversation.families):
            latest = clause(family.versions[conversation.latest[i]])
            asked = {"prompt": family.request, "exclude": start["conventions"]}
            hooked = guest.dispatch("auto_recall", asked)
            shown = (start["context"], hooked.get("context") or "")
            found = [shows(text, latest) for text in shown]
            counts["active"] += 1
            counts["start"] += found[0]
            counts["hook"] += found[1]
            counts["either"] += any(found)
            older = family.versions[: conversation.latest[i]]
            counts["stale"] += sum(shows(text, clause(old)) for old in older for text in shown)
    finally:
        guest.close()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=30)
    parser.add_argument("--wasm", action="store_true", help="through the component (default: native guest)")
    parser.add_argument("--component", type=Path, default=DEFAULT_WASM)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="rs-conventions-"))
    totals: dict[str, int] = {}
    try:
        for seed in range(args.conversations):
            counts = replay(generate(seed), base / f"c{seed}" / "project", args.component, not args.wasm)
            for key, value in counts.items():
                totals[key] = totals.get(key, 0) + value
    finally:
        shutil.rmtree(base, ignore_errors=True)
    active = totals["active"]
    print(f"conventions dev set: {args.conversations} conversations of {SESSIONS} sessions, "
          f"{active} conventions in force ({'component' if args.wasm else 'native guest'})")
    print("| context | latest version present | stale versions shown |")
    print("|---|---:|---:|")
    for key in ("start", "hook", "either"):
        print(f"| {key} | {totals[key] / active:.3f} ({totals[key]}/{active}) |"
              f" {totals['stale'] if key == 'either' else '-'} |")
    print(f"start context: {totals['start_chars'] / args.conversations:.0f} characters on average")


if __name__ == "__main__":
    main()
