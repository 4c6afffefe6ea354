"""One CLI invocation's project, component and guest, shared by every command group."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from host_harness.config import ConfigError, ProjectContext
from host_harness.envelope import Envelope
from host_harness.errors import GuestError
from host_harness.project import GIVEN, Found
from host_harness.store.pg.driver import PostgresError
from host_harness.targets import DEFAULT_WASM as DEFAULT_WASM  # where it was (scripts/demo.py)

if TYPE_CHECKING:  # wasmtime and numpy load when a command opens the project, not for --help
    from host_harness.services import HostServices
    from host_harness.targets.base import BaseGuest
    from host_harness.targets.runtime import Runtime


class Session:
    """The project, the component and the guest of one CLI invocation, opened on first use."""

    def __init__(self, project: Path, wasm: Path, native: bool, store: str | None = None) -> None:
        self.project = project
        self.found = Found(project, GIVEN)  # which project, and why (host_harness/project.py)
        self.wasm = wasm
        self.native = native
        self.store = store  # --store / $RS_LEARN_STORE (else .gm/config.json decides)
        self.services: HostServices | None = None
        self.guest: BaseGuest | None = None
        self.scope: dict[str, Any] | None = None  # trusted scope, set by a command group before open()
        self.timeout_s: float | None = None  # the component's per-call deadline (default: the guest's)
        self.load_runtime: Callable[[Path], Runtime] = load_runtime  # the MCP server: in the background
        self._context: ProjectContext | None = None

    def context(self) -> ProjectContext:
        """The invocation's project, its ``.gm/config.json`` and its store: made on first use, once."""
        if self._context is None:
            self._context = ProjectContext.load(self.found, self.store or None)
        return self._context

    def open(self) -> BaseGuest:
        """Return the guest (native or wasm) over the project's services."""
        if self.guest is None:
            self.guest = self.guest_for(self.open_services())
        return self.guest

    def open_services(self) -> HostServices:
        """The project's services (without loading the component); a PostgreSQL store is connected now."""
        if self.services is None:
            from host_harness.services import HostServices

            try:
                services = HostServices(self.context(), scope=self.scope)
            except ConfigError as error:
                raise click.ClickException(f"invalid configuration: {error}") from None
            try:
                services.connect()
            except (ConfigError, PostgresError) as error:
                services.close()
                raise click.ClickException(str(error)) from None
            self.services = services
        return self.services

    def guest_for(self, services: HostServices) -> BaseGuest:
        """A guest of this invocation's target (native or the component) over ``services``."""
        if self.native:
            from host_harness.targets.native import NativeGuest

            return NativeGuest(services)
        self.require_wasm()
        from host_harness.targets.component import WasmGuest

        runtime = self.load_runtime(self.wasm)
        if self.timeout_s is None:
            return WasmGuest(runtime, services)
        return WasmGuest(runtime, services, timeout_s=self.timeout_s)

    def require_wasm(self) -> Path:
        """The component's path; a ``ClickException`` when there is no file there."""
        if not self.wasm.is_file():
            raise click.ClickException(
                f"component not found: {self.wasm} (run `make wasm`, or pass --wasm / set RS_LEARN_WASM)"
            )
        return self.wasm

    def guest_beside(self, services: HostServices) -> BaseGuest:
        """Another guest of this target over ``services``, sharing the component already loaded."""
        from host_harness.targets.component import WasmGuest

        if isinstance(self.guest, WasmGuest):
            return WasmGuest(self.guest.runtime, services)
        return self.guest_for(services)

    def stored_disciplines(self) -> list[str]:
        """The disciplines whose store exists (files, or rows of a PostgreSQL store)."""
        try:
            return self.open_services().stored_disciplines()
        except PostgresError as error:
            raise click.ClickException(str(error)) from None

    def dispatch(self, verb: str, body: dict[str, Any]) -> Any:
        """One verb; its ``data``, or a ``ClickException`` with the guest's error."""
        try:
            envelope = Envelope.parse(self.open().dispatch(verb, json.dumps(body, ensure_ascii=False)))
        except GuestError as error:
            raise click.ClickException(error.message) from None
        if not envelope.ok:
            raise click.ClickException(envelope.error)
        return envelope.data

    def close(self) -> None:
        """Close the guest and every database."""
        if self.guest is not None:
            self.guest.close()
        if self.services is not None:
            self.services.close()


def load_runtime(wasm: Path) -> Runtime:
    """The component at ``wasm``, loaded: from the precompiled cache, else compiled with progress on stderr.

    The first command after an install or upgrade compiles for tens of seconds: it says so, as
    ``warmup`` does, instead of sitting silent (a bar on a terminal, a line every 10 s otherwise).
    """
    from host_harness.progress import progress_for
    from host_harness.targets.runtime import Runtime

    shown = progress_for(sys.stderr)
    try:
        return Runtime.load(wasm, progress=shown)
    finally:
        shown.clear()


def echo_json(value: Any) -> None:
    """Print ``value`` as indented JSON."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))
