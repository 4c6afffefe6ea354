"""`make demo`: memorize and recall through the real component in a fresh project.

Runs the `rs-learn-host` CLI (``python -m host_harness``) as separate processes
against a new temporary project, exactly as a user would; the project is removed at
the end, and the last lines say how to install the command and wire an agent.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FACTS = [
    "Use pnpm, not npm, to install packages in this repository.",
    "The terrain palette switches when the biome changes.",
    "CI runs on Python 3.11 with two cores; keep the test suite under 15 minutes.",
    "Database migrations are numbered and must stay idempotent.",
    "The staging server listens on port 8080 behind nginx.",
]
QUERIES = ["which package manager do we use?", "terrain palette switching", "what port does staging use"]


def host(project: Path, *args: str) -> str:
    """Run one CLI command and return its output."""
    cmd = [sys.executable, "-m", "host_harness", "--project", str(project), *args]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return done.stdout.rstrip()


def show(project: Path, *args: str, note: str = "") -> None:
    """Print a command line, then run it and print its output."""
    print(f"$ rs-learn-host {' '.join(repr(a) if ' ' in a else a for a in args)}{note}")
    print(host(project, *args))


NEXT_STEPS = """\
Next steps
  Put rs-learn-host on your PATH:  uv tool install .     (or: pipx install .; or use this checkout's:
                                   export PATH="{venv}:$PATH")
  Wire an agent, in your project:  rs-learn-host setup claude-code   (or codex, cursor, gemini, vscode)
  Claude Code plugin instead:      /plugin marketplace add {root}
                                   /plugin install rs-learn@rs-learn
  Bring what you already keep:     rs-learn-host import --from claude-md
  More: README.md and docs/agents.md"""


def warm_up() -> None:
    """Compile the component into the cache first, saying so (the first run takes a while)."""
    from host_harness.cli.setup import warm_up as compile_component
    from host_harness.targets.session import DEFAULT_WASM

    compile_component(DEFAULT_WASM)


def main() -> None:
    """Memorize a few facts, then recall them."""
    warm_up()
    with tempfile.TemporaryDirectory(prefix="rs-learn-demo-") as tmp:
        project = Path(tmp)
        print(f"project: {project}")
        for fact in FACTS:
            show(project, "memorize", fact)
        show(project, "memorize", FACTS[0], note="   # again: deduplicated")
        for query in QUERIES:
            print()
            show(project, "recall", query, "--limit", "2")
        print()
        show(project, "stats")
        leftovers = sorted(p.name for p in (project / ".gm").iterdir())
        print(f"\n.gm/ holds: {', '.join(leftovers)}")
    print(f"(the demo project {project} is removed)\n")
    print(NEXT_STEPS.format(venv=Path(sys.executable).parent, root=ROOT))


if __name__ == "__main__":
    main()
