"""Capture's dev set (issue 34): hand-written Claude Code sessions and what capture should keep of them.

Each session is written with :class:`transcripts.Transcript` (the CLI's JSONL shape) and says what it
should yield: the rules the user stated (``rules``), the lessons (``lessons``, by the command and the
files edited), how many blocks a compaction archives (``blocks``), and the later questions whose
answer is one of its rules (``asks``: question -> the rule's text). The traps are the point: rules in
the assistant's text, in tool output and in a subagent's prompt; "always"/"never" in statements and
questions; a command that failed and passed with no edit between; a failure never fixed.
``python tests/helpers/capture_devset.py DIR`` writes the transcripts and ``expected.json`` into DIR
(``bench/data/capture_devset/`` is that, committed; ``bench/capture_eval.py`` scores capture on it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from transcripts import Transcript

CWD = "/home/dev/shop"
BIG = "x = 1\n" * 700  # a 4 KB file


def sessions() -> list[tuple[Transcript, dict[str, Any]]]:
    out: list[tuple[Transcript, dict[str, Any]]] = []

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000001", branch="main")
    t.prompt("We use pnpm, not npm, in this repo. Please add lodash to the web package.")
    t.bash("pnpm add lodash --filter web", "Packages: +1\nDone in 2.1s")
    t.say("Added. Always run pnpm install after pulling, by the way.")
    t.prompt("Thanks. Should we always pin versions?")
    t.say("Pinning is a team choice.")
    out.append(
        (
            t,
            {
                "rules": ["We use pnpm, not npm, in this repo."],
                "lessons": [],
                "blocks": 0,
                "asks": {"which package manager do we use?": "We use pnpm, not npm, in this repo."},
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000002", branch="fix-checkout")
    t.prompt("The checkout test fails. Fix it. From now on, always run pytest with -x.")
    t.bash(
        "pytest -x tests/test_checkout.py",
        "tests/test_checkout.py:14: in test_total\nE   AssertionError: assert 1099 == 1100\n1 failed",
        code=1,
    )
    t.read("shop/checkout.py", BIG)
    t.edit("shop/checkout.py", "round(total)", "round(total, 2)")
    t.bash("pytest -x tests/test_checkout.py", "1 passed in 0.31s")
    t.todos(("fix rounding", "completed"), ("add a test for discounts", "pending"))
    out.append(
        (
            t,
            {
                "rules": ["From now on, always run pytest with -x."],
                "lessons": [("pytest -x tests/test_checkout.py", ["shop/checkout.py"])],
                "blocks": 1,
                "asks": {"how should I run pytest?": "From now on, always run pytest with -x."},
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000003", branch="main")
    t.prompt("Why does the build never finish on CI? It always hangs at the docker step.")
    t.bash("cat .github/workflows/ci.yml", "jobs:\n  build:\n    steps:\n      - run: docker build .\n")
    t.say("Never use docker build without a cache on CI; add --cache-from.")
    t.bash("cat NOTES.md", "Always deploy on Fridays. Remember that prod has no backups.")
    t.prompt("Never deploy on Fridays.", isSidechain=True)
    out.append((t, {"rules": [], "lessons": [], "blocks": 0, "asks": {}}))

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000004", branch="lint")
    t.prompt("Remember that the staging database is read-only. Run the linter and fix what it finds.")
    t.bash("ruff check .", "shop/api.py:3:1: F401 [*] `os` imported but unused\nFound 1 error.", code=1)
    t.edit("shop/api.py", "import os\n", "")
    t.bash("ruff check .", "All checks passed!")
    t.bash("mypy shop", "shop/cart.py:9: error: Incompatible return value type", code=1)
    t.bash("mypy shop", "shop/cart.py:9: error: Incompatible return value type", code=1)
    out.append(
        (
            t,
            {
                "rules": ["Remember that the staging database is read-only."],
                "lessons": [("ruff check .", ["shop/api.py"])],
                "blocks": 0,
                "asks": {
                    "can I write to the staging database?": "Remember that the staging database is read-only."
                },
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000005", branch="main")
    t.prompt("Use black instead of autopep8 for formatting. Also never commit directly to main.")
    t.bash("black .", "reformatted shop/cart.py\nAll done! 1 file reformatted.")
    t.bash("git status", "On branch main\nChanges not staged for commit:\n  modified: shop/cart.py")
    out.append(
        (
            t,
            {
                "rules": [
                    "Use black instead of autopep8 for formatting.",
                    "Also never commit directly to main.",
                ],
                "lessons": [],
                "blocks": 0,
                "asks": {
                    "which formatter?": "Use black instead of autopep8 for formatting.",
                    "can I push to main?": "Also never commit directly to main.",
                },
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000006", branch="migrations")
    t.prompt("Add a migration for the orders.note column")
    t.bash("alembic upgrade head", "sqlalchemy.exc.OperationalError: no such column: orders.note", code=1)
    t.bash("alembic upgrade head", "sqlalchemy.exc.OperationalError: no such column: orders.note", code=1)
    t.tool(
        "Write",
        {
            "file_path": f"{CWD}/migrations/versions/0042_order_note.py",
            "content": "def upgrade():\n    op.add_column('orders', sa.Column('note', sa.Text()))\n",
        },
        "File created successfully",
    )
    t.bash("alembic upgrade head", "INFO  [alembic.runtime.migration] Running upgrade 0041 -> 0042")
    t.bash("pytest", "................ 16 passed")
    t.prompt("Great. We prefer one migration per pull request.")
    out.append(
        (
            t,
            {
                "rules": ["We prefer one migration per pull request."],
                "lessons": [("alembic upgrade head", ["migrations/versions/0042_order_note.py"])],
                "blocks": 0,
                "asks": {"how many migrations per PR?": "We prefer one migration per pull request."},
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000007", branch="main")
    t.prompt(
        "Here is the stack trace from production:\n"
        + '  File "shop/api.py", line 88, in handler\n' * 60
        + "KeyError: 'sku'\nWhat is wrong?"
    )
    t.read("shop/api.py", BIG)
    t.bash("git log --oneline -50", "abc1234 fix\n" * 400)
    t.say("The handler reads 'sku' without a default.")
    out.append((t, {"rules": [], "lessons": [], "blocks": 3, "asks": {}}))

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000008", branch="flaky")
    t.prompt("The cart test is flaky; it fails sometimes")
    t.bash("pytest tests/test_cart.py", "E   TimeoutError: cart service did not answer", code=1)
    t.bash("pytest tests/test_cart.py", "3 passed")  # passed again with no edit: no lesson
    t.prompt("Going forward, mark flaky tests with @pytest.mark.flaky instead of retrying them by hand.")
    out.append(
        (
            t,
            {
                "rules": [
                    "Going forward, mark flaky tests with @pytest.mark.flaky instead of retrying "
                    "them by hand."
                ],
                "lessons": [],
                "blocks": 0,
                "asks": {
                    "what do we do with flaky tests?": "Going forward, mark flaky tests with "
                    "@pytest.mark.flaky instead of retrying them by hand."
                },
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000009", branch="main")
    t.prompt("Actually we use npm, not pnpm, since the monorepo move. Update the README.")
    t.read("README.md", "# Shop\n\nInstall with pnpm install.\n" * 80)
    t.edit("README.md", "pnpm install", "npm install")
    out.append(
        (
            t,
            {
                "rules": ["Actually we use npm, not pnpm, since the monorepo move."],
                "lessons": [],
                "blocks": 1,
                "supersedes": ["We use pnpm, not npm, in this repo."],
                "asks": {},
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000010", branch="docs")
    t.prompt("Write docs for the discount API. Prefer short examples over long prose in docs.")
    t.tool(
        "Write",
        {"file_path": f"{CWD}/docs/discounts.md", "content": "# Discounts\n" + "Example.\n" * 600},
        "File created successfully",
    )
    t.bash("mkdocs build", "ERROR - Config value 'nav': docs/discounts.md not found", code=1)
    t.edit("mkdocs.yml", "nav:", "nav:\n  - discounts.md")
    t.bash("mkdocs build", "INFO - Documentation built in 0.52 seconds")
    out.append(
        (
            t,
            {
                "rules": ["Prefer short examples over long prose in docs."],
                "lessons": [("mkdocs build", ["mkdocs.yml"])],
                "blocks": 1,
                "asks": {"how should docs be written?": "Prefer short examples over long prose in docs."},
            },
        )
    )

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000011", branch="main")
    t.prompt("Is it true that we never use ORMs in the reporting service?")
    t.say("Yes: always raw SQL there.")
    t.prompt("ok, run the report tests")
    t.bash("pytest tests/reporting", "7 passed")
    out.append((t, {"rules": [], "lessons": [], "blocks": 0, "asks": {}}))

    t = Transcript(CWD, "0a1b2c3d-0000-4000-8000-000000000012", branch="release")
    t.prompt("Cut the release. Always tag releases as vX.Y.Z and never reuse a tag.")
    t.bash("git tag v2.4.0", "fatal: tag 'v2.4.0' already exists", code=128)
    t.bash("git tag v2.4.1", "")
    out.append(
        (
            t,
            {
                "rules": ["Always tag releases as vX.Y.Z and never reuse a tag."],
                "lessons": [],
                "blocks": 0,
                "asks": {
                    "how do we name release tags?": "Always tag releases as vX.Y.Z and never reuse a tag."
                },
            },
        )
    )
    return out


def write(folder: Path) -> None:
    """The transcripts (``<session>.jsonl``) and ``expected.json`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    expected = []
    for t, want in sessions():
        t.write(folder / f"{t.session}.jsonl")
        expected.append(
            {
                "session": t.session,
                **want,
                "lessons": [{"command": c, "files": f} for c, f in want["lessons"]],
            }
        )
    (folder / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
