"""What under ``<project>/.gm/`` is local state, never to be committed: one list for every writer of ignores.

``.gm/`` is meant to be committed (the stores, ``config.json``, ``enabled.txt``, skills), but a few
things in it belong to one machine and one moment: SQLite's journals (a rollback journal while a
write is under way; a *super-journal* ``<db>-mj…`` while a spool call commits the store and its
ledger together -- it holds absolute paths), the writers' queue file, the spool's folders and
ledger, the hook log and the warm server's socket. :data:`LOCAL_STATE` lists them as ``.gitignore``
patterns relative to ``.gm/``; the host writes them to ``.gm/.gitignore`` when a write first uses ``.gm/``
(``host_harness/fs/confine.py``), and :func:`project_patterns` gives the same list for the
project's own ``.gitignore`` (what a setup command adds there).
"""

from __future__ import annotations

GITIGNORE = ".gitignore"
GITATTRIBUTES = ".gitattributes"
ATTRIBUTES = "*.db diff=rs-learn merge=rs-learn"  # the stores, at any depth (host_harness/git/install.py)
SOCKET = "rs-learn.sock"  # host_harness/hooks/protocol.py WARM_SOCKET (a test keeps them equal)
QUEUE_SUFFIX = "-queue"  # the writers' queue beside a store (host_harness/store/queue.py)

# Patterns relative to .gm/: no slash matches at any depth below .gm, a leading slash only at its top.
LOCAL_STATE: tuple[str, ...] = (
    "*-journal",
    "*-wal",
    "*-shm",
    "*-mj*",
    "*" + QUEUE_SUFFIX,
    "/exec-spool/",
    "/logs/",
    "/" + SOCKET,
)
HEADER = "# Local state of rs-learn: never commit it (the stores, config.json and skills are committed).\n"


def gitignore_text() -> str:
    """The content of ``.gm/.gitignore``."""
    return HEADER + "".join(pattern + "\n" for pattern in LOCAL_STATE)


def gitattributes_text() -> str:
    """The content of ``.gm/.gitattributes``: git diffs and merges the stores with rs-learn's drivers.

    Without the drivers configured (``rs-learn-host git install``) git ignores the names and treats
    the stores as the binary files they are.
    """
    header = "# rs-learn's stores diff and merge as memories once `rs-learn-host git install` has run.\n"
    return header + ATTRIBUTES + "\n"


def project_patterns() -> list[str]:
    """:data:`LOCAL_STATE` as lines of the project's own ``.gitignore`` (paths from the project root)."""
    return [".gm" + pattern if pattern.startswith("/") else ".gm/**/" + pattern for pattern in LOCAL_STATE]
