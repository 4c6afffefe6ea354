"""Shared fixtures: one suite, two targets (vicinity's backend pattern).

* ``clock``    -- a :class:`ManualClock` (``clock.now_ms = ...``, ``clock.advance(ms)``)
                  starting at :data:`EPOCH_MS`;
* ``project``  -- an empty project directory;
* ``services`` -- :class:`HostServices` over ``project`` with ``clock``: real SQLite,
                  real numpy vector index;
* ``guest``    -- parametrised ``native`` / ``wasm``: a fresh ``NativeGuest`` (the guest
                  package under CPython) or ``WasmGuest`` (the built component, fresh
                  ``Store``) over ``services``. The same assertions must hold on both;
* ``guest_factory`` -- ``make(services)``: a guest of the current target over services
                  of your own (a different busy timeout, an injected store...);
* ``scoped``   -- ``make(**scope)``: a guest of the current target over its own services
                  with that trusted scope, on the same project and clock;
* ``wasm_runtime`` -- the compiled component, once per session (precompiled cache);
* ``node_host`` -- ``hosts/node/rs-learn-node`` with its transpiled component (``make node``).

Without ``dist/rs_learn.wasm`` the wasm cases skip, or FAIL when ``CI`` is set; so do the Node
host's cases without ``hosts/node/build``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from host_harness.guests.base import BaseGuest
from host_harness.guests.runtime import Runtime
from host_harness.services import HostServices, ManualClock

ROOT = Path(__file__).resolve().parent.parent
WASM = Path(os.environ.get("RS_LEARN_WASM") or ROOT / "dist" / "rs_learn.wasm")
NODE_HOST = ROOT / "hosts" / "node" / "rs-learn-node"
NODE_BINDINGS = ROOT / "hosts" / "node" / "build" / "rs_learn.js"
EPOCH_MS = 1_700_000_000_000
TARGETS = ("native", "wasm")


def require_wasm() -> Path:
    """The component's path; skip (or fail under CI) when it has not been built."""
    require_built(WASM, "make wasm")
    return WASM


def require_built(path: Path, how: str) -> None:
    """Skip (or fail under CI) when a build product is missing."""
    if not path.is_file():
        message = f"{path} does not exist: run `{how}`"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: every target is mandatory)")
        pytest.skip(message)


@pytest.fixture(scope="session")
def node_host() -> Path:
    """The Node reference host's CLI, ready to run (its component transpiled)."""
    require_built(NODE_BINDINGS, "make node")
    return NODE_HOST


@pytest.fixture(scope="session")
def wasm_path() -> Path:
    return require_wasm()


@pytest.fixture(scope="session")
def wasm_runtime(wasm_path: Path) -> Iterator[Runtime]:
    """The component compiled once for the whole session (from the precompiled cache if warm)."""
    runtime = Runtime.load(wasm_path)
    yield runtime
    runtime.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(EPOCH_MS)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


@pytest.fixture
def services(project: Path, clock: ManualClock) -> Iterator[HostServices]:
    host = HostServices(project, clock=clock)
    yield host
    host.close()


def make_guest(target: str, services: HostServices, request: pytest.FixtureRequest) -> BaseGuest:
    """A fresh guest of ``target`` over ``services``."""
    if target == "native":
        from host_harness.guests.native import NativeGuest

        return NativeGuest(services)
    from host_harness.guests.component import WasmGuest

    return WasmGuest(request.getfixturevalue("wasm_runtime"), services)


@pytest.fixture(params=TARGETS)
def target(request: pytest.FixtureRequest) -> str:
    """The name of the target under test (``native`` or ``wasm``)."""
    if request.param == "wasm":
        require_wasm()
    return str(request.param)


@pytest.fixture
def guest(target: str, services: HostServices, request: pytest.FixtureRequest) -> Iterator[BaseGuest]:
    instance = make_guest(target, services, request)
    yield instance
    instance.close()


@pytest.fixture
def guest_factory(
    target: str, request: pytest.FixtureRequest
) -> Iterator[Callable[[HostServices], BaseGuest]]:
    made: list[BaseGuest] = []

    def make(services: HostServices) -> BaseGuest:
        instance = make_guest(target, services, request)
        made.append(instance)
        return instance

    yield make
    for instance in made:
        instance.close()


@pytest.fixture
def scoped(guest_factory, project, clock):
    """``scoped(**scope)``: a guest over its own ``HostServices`` with that trusted scope (same project)."""
    made: list[HostServices] = []

    def make(**scope):
        services = HostServices(project, scope=scope or None, clock=clock)
        made.append(services)
        return guest_factory(services)

    yield make
    for services in made:
        services.close()
