"""One run's project context: the project, its ``.gm/config.json`` read once, and the store it names.

A command, a hook run or a server makes one :class:`ProjectContext` where it knows its project (the
CLI's :class:`~host_harness.targets.session.Session`, the hook pipeline once the event's ``cwd`` is
known, the warm server at its start) and passes it down: the store's services, the router's
``memory`` block and ``redact``, the hooks' switches all read the :class:`Settings` it holds instead
of the file. So one cold prompt opens ``.gm/config.json`` once (``tests/process/test_project_context.py``).

Nothing is cached behind a caller's back: a function given a project's folder instead of its
:class:`Settings` reads the file then, as before. A file that cannot be used is kept as its
:class:`ConfigError`, raised by whoever asks for it -- where each reader raised it before, so a bad
file still stops what it stopped (the store's services) and no more (a hook's switch reads it as
its safe default).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from host_harness.config.config import ConfigError, Settings
from host_harness.config.selection import StoreChoice, resolve_store
from host_harness.project import GIVEN, Found


@dataclass(frozen=True)
class ProjectContext:
    """Which project, why, its configuration and its store: made once per run, passed down.

    ``store`` is the choice of ``--store``/``$RS_LEARN_STORE``/the file; ``store_error`` says why
    there is none (:meth:`store_choice` raises it).
    """

    root: Path
    found_by: str
    settings: Settings
    store: StoreChoice | None
    store_error: ConfigError | None = None

    @classmethod
    def load(cls, found: Found | Path, store: str | None = None,
             environ: Mapping[str, str] | None = None) -> ProjectContext:
        """The context of ``found`` (a bare folder: as given), ``store`` the CLI's ``--store``."""
        if not isinstance(found, Found):
            found = Found(Path(found), GIVEN)
        settings = Settings.read(found.root)
        environ = os.environ if environ is None else environ
        try:
            choice: StoreChoice | None = resolve_store(settings, store, environ)
            error = None
        except ConfigError as bad:
            choice, error = None, bad
        return cls(found.root, found.reason, settings, choice, error)

    @property
    def found(self) -> Found:
        """The project's root and why it was chosen (``stats --json``)."""
        return Found(self.root, self.found_by)

    def store_choice(self) -> StoreChoice:
        """The store; :class:`ConfigError` when the choice is bad."""
        if self.store is None:
            assert self.store_error is not None
            raise self.store_error
        return self.store
