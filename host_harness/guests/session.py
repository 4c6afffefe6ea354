"""One CLI invocation's project, component and guest, shared by every command group."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from host_harness.errors import GuestError
from host_harness.guests.base import BaseGuest
from host_harness.guests.runtime import Runtime
from host_harness.services import HostServices
from host_harness.store.config import ConfigError

# An installed wheel carries the component in the package (setup.py); a checkout has it in dist/.
PACKAGED_WASM = Path(__file__).resolve().parents[1] / "assets" / "rs_learn.wasm"
CHECKOUT_WASM = Path(__file__).resolve().parents[2] / "dist" / "rs_learn.wasm"
DEFAULT_WASM = PACKAGED_WASM if PACKAGED_WASM.is_file() else CHECKOUT_WASM


class Session:
    """The project, the component and the guest of one CLI invocation, opened on first use."""

    def __init__(self, project: Path, wasm: Path, native: bool) -> None:
        self.project = project
        self.wasm = wasm
        self.native = native
        self.services: HostServices | None = None
        self.guest: BaseGuest | None = None
        self.scope: dict[str, Any] | None = None  # trusted scope, set by a command group before open()
        self.timeout_s: float | None = None  # the component's per-call deadline (default: the guest's)

    def open(self) -> BaseGuest:
        """Return the guest (native or wasm) over the project's services."""
        if self.guest is None:
            try:
                self.services = HostServices(self.project, scope=self.scope)
            except ConfigError as error:
                raise click.ClickException(f"invalid configuration: {error}") from None
            self.guest = self.guest_for(self.services)
        return self.guest

    def guest_for(self, services: HostServices) -> BaseGuest:
        """A guest of this invocation's target (native or the component) over ``services``."""
        if self.native:
            from host_harness.guests.native import NativeGuest

            return NativeGuest(services)
        if not self.wasm.is_file():
            raise click.ClickException(
                f"component not found: {self.wasm} (run `make wasm`, or pass --wasm / set RS_LEARN_WASM)"
            )
        from host_harness.guests.component import WasmGuest

        runtime = Runtime.load(self.wasm)
        if self.timeout_s is None:
            return WasmGuest(runtime, services)
        return WasmGuest(runtime, services, timeout_s=self.timeout_s)

    def dispatch(self, verb: str, body: dict[str, Any]) -> Any:
        """One verb; its ``data``, or a ``ClickException`` with the guest's error."""
        try:
            envelope = json.loads(self.open().dispatch(verb, json.dumps(body, ensure_ascii=False)))
        except GuestError as error:
            raise click.ClickException(error.message) from None
        if not envelope.get("ok"):
            raise click.ClickException(str(envelope.get("error", "unknown error")))
        return envelope.get("data")

    def close(self) -> None:
        """Close the guest and every database."""
        if self.guest is not None:
            self.guest.close()
        if self.services is not None:
            self.services.close()


def echo_json(value: Any) -> None:
    """Print ``value`` as indented JSON."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))
