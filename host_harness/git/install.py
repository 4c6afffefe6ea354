"""``rs-learn-host git install``: the attributes line and the driver configuration, idempotently.

* ``<top>/.gitattributes`` gets ``.gm/**/*.db diff=rs-learn merge=rs-learn`` (appended once, the
  rest of the file kept byte for byte, written atomically; committed, so the team shares it);
* the repository's ``.git/config`` (or ``~/.gitconfig`` with ``--global``) gets
  ``diff.rs-learn.textconv``, ``diff.rs-learn.cachetextconv`` (git caches each blob's text) and
  ``merge.rs-learn.name`` / ``.driver``. Each driver runs the installed ``rs-learn-host`` by its
  absolute path, so it works whether or not the command is on git's ``PATH``, and never names a
  Python package (D128); drivers an older version wrote as ``python -m <package>``, in either
  configuration, are rewritten (``host_harness/integrations/legacy.py``);
* the project's ``.gitignore`` gets the local state that must not be committed (the spool, the
  logs, the socket: ``host_harness/integrations/localstate.py``).

A value that is already set as wanted is not written again; the answer lists what changed.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from host_harness.fs import write_atomic
from host_harness.integrations.legacy import fix_git
from host_harness.integrations.localstate import gitignore_edit

ATTRIBUTES = ".gm/**/*.db diff=rs-learn merge=rs-learn"
DRIVER = "rs-learn"


class InstallError(Exception):
    """Not a git repository, or git refused a setting."""


def command(wasm: Path | None, host: Path | None = None) -> str:
    """The shell command that runs this harness (with ``--wasm`` when it is not the default).

    ``host``: the installed ``rs-learn-host``; without it, this interpreter with the package.
    """
    base = [str(host)] if host is not None else [sys.executable, "-m", "host_harness"]
    words = base + (["--wasm", str(wasm)] if wasm is not None else [])
    return " ".join(shlex.quote(word) for word in words)


def settings(base: str) -> dict[str, str]:
    """The git configuration of both drivers."""
    return {
        f"diff.{DRIVER}.textconv": f"{base} git textconv",
        f"diff.{DRIVER}.cachetextconv": "true",
        f"merge.{DRIVER}.name": "rs-learn memory store (three-way merge)",
        f"merge.{DRIVER}.driver": f"{base} git merge-driver %O %A %B %P",
    }


def install(where: Path, base: str, global_: bool = False, host: Path | None = None) -> list[str]:
    """Set up ``where``'s repository; return what changed (empty: it was already set up).

    With ``host`` (the installed command), drivers of either configuration that run a Python package
    are first rewritten to run it (:func:`~host_harness.integrations.legacy.fix_git`).
    """
    top = Path(_git(where, "rev-parse", "--show-toplevel").strip())
    changed = [f"rewrote {fix} (ran the Python package, not the command)"
               for fix in (fix_git(top, host) if host is not None else [])]
    attributes = top / ".gitattributes"
    old = attributes.read_bytes() if attributes.exists() else b""
    lines = old.decode("utf-8", "replace").splitlines()
    if ATTRIBUTES not in (line.strip() for line in lines):
        glue = b"" if not old or old.endswith(b"\n") else b"\n"
        write_atomic(attributes, old + glue + ATTRIBUTES.encode("utf-8") + b"\n")
        changed.append(f"{attributes}: {ATTRIBUTES}")
    scope = "--global" if global_ else "--local"
    for key, value in settings(base).items():
        current = subprocess.run(["git", "config", scope, "--get", key], cwd=top, capture_output=True,
                                 text=True, check=False)
        if current.returncode == 0 and current.stdout.rstrip("\n") == value:
            continue
        _git(top, "config", scope, key, value)
        changed.append(f"git config {scope} {key}")
    ignore = gitignore_edit(where)
    if ignore.changes:
        ignore.apply()
        changed.append(f"{ignore.path}: {ignore.what}")
    return changed


def _git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise InstallError(f"git {' '.join(args[:2])} failed in {where}: {done.stderr.strip()}")
    return done.stdout
