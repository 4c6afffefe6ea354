"""A project's history as store files, for the git driver tests: a base, then two branches."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_harness.git import driver
from host_harness.services import HostServices, ManualClock
from host_harness.targets.base import BaseGuest

STORE = Path(".gm") / "rs-learn.db"


class History:
    """Project folders ``base``, ``ours`` and ``theirs`` under ``root``; verbs run on the chosen target."""

    def __init__(self, root: Path, clock: ManualClock, make: Callable[[HostServices], BaseGuest]) -> None:
        self.root = root
        self.clock = clock
        self.make = make
        (root / "base").mkdir(parents=True)

    def folder(self, name: str) -> Path:
        return self.root / name

    def db(self, name: str) -> Path:
        return self.root / name / STORE

    def call(self, name: str, verb: str, body: Any = None) -> dict:
        """Dispatch one verb on a branch's store; the envelope."""
        services = HostServices(self.folder(name), clock=self.clock)
        try:
            guest = self.make(services)
            return json.loads(guest.dispatch(verb, json.dumps({} if body is None else body)))
        finally:
            services.close()

    def ok(self, name: str, verb: str, body: Any = None) -> Any:
        envelope = self.call(name, verb, body)
        assert envelope["ok"], envelope
        return envelope["data"]

    def branch(self) -> None:
        """``ours`` and ``theirs`` start as copies of ``base``."""
        for name in ("ours", "theirs"):
            shutil.copytree(self.folder("base"), self.folder(name))

    def merge(self, into: str = "ours", other: str = "theirs", base: str = "base",
              came: dict | None = None) -> driver.Merged:
        """Run the merge driver: ``other`` into ``into``; ``came``: who wrote ``other`` (by default
        this checkout's own user, as when one person merges their branches)."""
        for name in (base, into, other):
            self.db(name).parent.mkdir(parents=True, exist_ok=True)
            self.db(name).touch()
        path = ".gm/rs-learn.db"
        came = {"self": True} if came is None else came
        return driver.merge(self.db(base), self.db(into), self.db(other), path, self.make, self.clock, came)

    def text(self, name: str) -> str:
        return driver.textconv(self.db(name), self.make, self.clock)
