"""The README's recipes work: its two commands, and `.ci/run` runs exactly the test command."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def first_block() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block, "the README opens with a sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_the_two_commands():
    assert first_block() == ["make demo", "make test"]


def test_ci_runs_exactly_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines() if line.strip() and not line.startswith("#")]
    assert commands[-1] == first_block()[1]


def test_make_demo_memorizes_and_recalls_through_the_component():
    done = subprocess.run(["make", "-s", "demo"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "(already stored)" in out
    # Each query's best hit is the fact it asks about.
    sections = out.split("$ rs-learn-host recall ")[1:]
    assert len(sections) == 3
    assert "pnpm" in sections[0].splitlines()[1]
    assert "terrain palette" in sections[1].splitlines()[1]
    assert "8080" in sections[2].splitlines()[1]
    assert "-wal" not in out and "-shm" not in out
