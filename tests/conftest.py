"""Shared fixtures: one suite, two targets (vicinity's backend pattern).

* ``clock``    -- a :class:`ManualClock` (``clock.now_ms = ...``, ``clock.advance(ms)``)
                  starting at :data:`EPOCH_MS`;
* ``store_kind`` -- ``sqlite``, or, for tests marked ``both_stores`` (a module's ``pytestmark``
                  or a test's mark; ``sqlite_only`` opts a test out again), parametrised
                  ``sqlite`` / ``postgresql``;
* ``project``  -- an empty project directory; on ``postgresql`` its ``.gm/config.json`` names the
                  session's PostgreSQL server and a project id of its own, so every process that
                  opens the project (services, CLI, spool) uses that store;
* ``pg_cluster`` / ``pg_url`` -- a real PostgreSQL 16 + pgvector (PyPI ``pgserver``'s binaries,
                  as an unprivileged user when we are root, on a free loopback port) started once
                  per session when a test needs it (``host_harness/store/pg/cluster.py``), and its
                  test database;
* ``services`` -- :class:`HostServices` over ``project`` with ``clock``: real SQLite (or the real
                  PostgreSQL), real numpy vector index;
* ``guest``    -- parametrised ``native`` / ``wasm``: a fresh ``NativeGuest`` (the guest
                  package under CPython) or ``WasmGuest`` (the built component, fresh
                  ``Store``) over ``services``. The same assertions must hold on both;
* ``guest_factory`` -- ``make(services)``: a guest of the current target over services
                  of your own (a different busy timeout, an injected store...);
* ``scoped``   -- ``make(**scope)``: a guest of the current target over its own services
                  with that trusted scope, on the same project and clock;
* ``wasm_runtime`` -- the compiled component, once per session (precompiled cache);
* ``session_cache`` -- (autouse) the run's own ``$RS_LEARN_CACHE_DIR``, so the suite never writes
                  compiled components into the user's ``~/.cache/rs-learn``; made by the controlling
                  process and shared by every xdist worker and every process a test starts, so the
                  component is compiled once per run, by whichever worker first takes the compile
                  lock (``$RS_LEARN_TEST_CACHE_DIR`` names a lasting one instead, e.g. for CI caches);
* ``node_host`` -- ``hosts/node/rs-learn-node`` with its transpiled component (``make node``);
* ``git_repo`` -- a fresh git repository (``git init``) in the test's temporary folder.

Tiers (markers; ``make check`` runs none of them, ``make test`` runs everything, see
docs/development.md): ``slow`` (20 s or more on a loaded machine), ``network`` (the package
index), ``packaging`` (the wheel and the published artifact), ``browser`` (a real chromium). Under
pytest-xdist (``-n``, ``--dist loadfile``: a file's tests on one worker) every worker starts its own
PostgreSQL server when a test needs one.

Without ``dist/rs_learn.wasm`` the wasm cases skip, or FAIL when ``CI`` is set; so do the Node
host's cases without ``hosts/node/build``. Tests marked ``network`` install the package's
dependencies from the package index: they skip, saying why, when pip cannot get them
(:func:`index_unreachable`, or ``RS_LEARN_OFFLINE=1``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import pytest
from helpers.processes import loads_the_component, starts_a_process

from host_harness.cachedir import CACHE_ENV
from host_harness.services import HostServices, ManualClock
from host_harness.targets.base import BaseGuest
from host_harness.targets.runtime import Runtime

ROOT = Path(__file__).resolve().parent.parent
WASM = Path(os.environ.get("RS_LEARN_WASM") or ROOT / "dist" / "rs_learn.wasm")
NODE_HOST = ROOT / "hosts" / "node" / "rs-learn-node"
NODE_BINDINGS = ROOT / "hosts" / "node" / "build" / "rs_learn.js"
EPOCH_MS = 1_700_000_000_000
TARGETS = ("native", "wasm")
STORES = ("sqlite", "postgresql")


TIERS = {
    "slow": "20 s or more on a loaded 2-core machine (not in `make check`)",
    "network": "needs the package index (skipped, with the reason, offline; not in `make check`)",
    "packaging": "builds the wheel or the published artifact (not in `make check`)",
    "browser": "drives a real chromium (not in `make check`)",
}
SET_MARKS = {  # set on each item by pytest_collection_modifyitems; make check leaves them out too
    "wasm": "the case on the built component, or a test loading it itself",
    "postgresql": "the case on PostgreSQL + pgvector",
    "process": "starts a process (helpers/processes.py)",
}
CACHE_KEY = pytest.StashKey[tuple[Path, bool]]()  # the run's compile cache, and whether it lasts
CACHE_BEFORE = pytest.StashKey[str | None]()  # $RS_LEARN_CACHE_DIR as the run found it


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_stores: run on the SQLite files and on PostgreSQL + pgvector")
    config.addinivalue_line("markers", "sqlite_only: about the SQLite files (opts out of both_stores)")
    for mark, what in SET_MARKS.items():
        config.addinivalue_line("markers", f"{mark}: (set by the suite) {what}")
    for tier, what in TIERS.items():
        config.addinivalue_line("markers", f"{tier}: {what}")
    config.stash[CACHE_BEFORE] = os.environ.get(CACHE_ENV)
    if getattr(config, "workerinput", None) is None:  # the controlling process (or the only one)
        config.pluginmanager.register(FileTimes(), "rs-learn-file-times")
    config.stash[CACHE_KEY] = run_cache(config)


def run_cache(config: pytest.Config) -> tuple[Path, bool]:
    """The run's ``$RS_LEARN_CACHE_DIR``: made once by the controlling process, handed to each worker.

    Set in this process's environment before any worker starts, so workers and every process a test
    starts inherit it; the compile lock (``host_harness.targets.runtime.compile_lock``) lets one process
    compile the component while the others wait and load what it wrote.
    """
    worker = getattr(config, "workerinput", None)
    lasting = os.environ.get("RS_LEARN_TEST_CACHE_DIR")
    if worker is not None:
        cache = Path(worker["rs_learn_cache"])
    elif lasting:
        cache = Path(lasting)
    else:
        cache = Path(tempfile.mkdtemp(prefix="rs-learn-test-cache-"))
    cache.mkdir(parents=True, exist_ok=True)
    os.environ[CACHE_ENV] = str(cache)
    if worker is None and WASM.is_file() and "not wasm" not in (config.getoption("markexpr", "") or ""):
        # compiled here, before any worker starts: no test's process then waits on another's compile
        # (and prints the compile's progress on its stderr meanwhile); not for a run without the
        # component's cases (make check), where the first test that needs it would compile it
        from host_harness.warmup import warmup

        warmup(WASM, cache)
    return cache, bool(lasting) or worker is not None  # only its maker removes it


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # pytest-xdist, in the controlling process: each worker's input
    node.workerinput["rs_learn_cache"] = str(node.config.stash[CACHE_KEY][0])


def pytest_unconfigure(config: pytest.Config) -> None:
    if CACHE_KEY not in config.stash:
        return
    cache, keep = config.stash[CACHE_KEY]
    if (before := config.stash[CACHE_BEFORE]) is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = before
    if not keep:
        shutil.rmtree(cache, ignore_errors=True)  # ~56 MB of compiled component


_index: list[str | None] = []  # index_unreachable()'s answer, once per session


def index_unreachable() -> str | None:
    """Why pip cannot get the package's dependencies from its index (``None``: it can); asked once.

    pip resolves them as a fresh install would (``--dry-run --ignore-installed``), with a short
    timeout and no retries, so an offline machine answers in seconds.
    """
    if not _index:
        if os.environ.get("RS_LEARN_OFFLINE") == "1":
            _index.append("RS_LEARN_OFFLINE=1")
        else:
            project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
            needs = project["dependencies"]
            probe = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
                                    "--quiet", "--timeout", "10", "--retries", "0", *needs],
                                   capture_output=True, text=True, timeout=600)
            errors = [line for line in probe.stderr.splitlines() if line.startswith("ERROR")]
            _index.append(None if probe.returncode == 0 else (errors or ["pip failed"])[-1])
    return _index[0]


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A ``network`` test skips, saying why, when the package index cannot serve it."""
    if item.get_closest_marker("network") and (reason := index_unreachable()):
        pytest.skip(f"needs the package index, which pip cannot reach here ({reason})")


@pytest.fixture(scope="session", autouse=True)
def session_cache(pytestconfig: pytest.Config) -> Path:
    """``$RS_LEARN_CACHE_DIR`` for the whole run (every worker's), inherited by the processes tests start."""
    return pytestconfig.stash[CACHE_KEY][0]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``store_kind`` runs both stores for tests marked ``both_stores`` (and not ``sqlite_only``)."""
    if "store_kind" not in metafunc.fixturenames:
        return
    node = metafunc.definition
    if node.get_closest_marker("both_stores") and not node.get_closest_marker("sqlite_only"):
        metafunc.parametrize("store_kind", STORES, indirect=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The PostgreSQL copy of a parametrised test runs its first case only; each item is marked by what
    it needs -- ``wasm`` (the component's case, or a test loading it itself), ``postgresql``,
    ``process`` (it starts one; both read from the source by ``helpers/processes.py``) -- so ``-m``
    picks the native, SQLite, in-process tier (``make check``).

    A test's other cases (the bad-input tables...) are about the guest, which both stores serve alike:
    they all run on SQLite, on both targets; the PostgreSQL copy keeps one representative case.
    """
    first: dict[tuple[str, str], str] = {}  # (function, target) -> the id of its first case
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        names = getattr(item, "fixturenames", ())
        function = item.originalname if isinstance(item, pytest.Function) else None
        if params.get("target") == "wasm" or (function and loads_the_component(item.path, function, names)):
            item.add_marker("wasm")
        if function and starts_a_process(item.path, function, names):
            item.add_marker("process")
        if "pg_cluster" in names or any(
                isinstance(value, str) and value == "postgresql" for value in params.values()):
            item.add_marker("postgresql")
        if params.get("store_kind") == "postgresql":
            case = repr([(k, v) for k, v in sorted(params.items()) if k not in {"target", "store_kind"}])
            key = (item.nodeid.split("[", 1)[0], str(params.get("target")))
            if case != "[]" and first.setdefault(key, case) != case:
                dropped.append(item)
                continue
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


class FileTimes:
    """After the twenty slowest steps, the twenty slowest files (their steps' seconds summed): where a
    run's time goes, for planning the tiers (issue 46). Under xdist the controlling process gets
    every report."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        path = report.nodeid.split("::", 1)[0]
        self.seconds[path] = self.seconds.get(path, 0.0) + report.duration

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if len(self.seconds) < 2:
            return
        terminalreporter.write_sep("=", "slowest 20 files (their tests' steps summed)")
        for path, seconds in sorted(self.seconds.items(), key=lambda kv: -kv[1])[:20]:
            terminalreporter.write_line(f"{seconds:8.1f}s  {path}")


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


@pytest.fixture(scope="session")
def pg_cluster():
    """A PostgreSQL + pgvector server for the whole session (never skipped: a failure to start fails)."""
    from host_harness.store.pg.cluster import Cluster

    cluster = Cluster()
    cluster.start()
    yield cluster
    cluster.close()


@pytest.fixture(scope="session")
def pg_url(pg_cluster) -> str:
    """The URL of the session's test database (every test uses a project id of its own in it)."""
    return str(pg_cluster.create_database("rs_learn_test"))


@pytest.fixture
def store_kind(request: pytest.FixtureRequest) -> str:
    """``sqlite`` unless the test is parametrised over both stores."""
    return str(getattr(request, "param", "sqlite"))


def use_postgresql(root: Path, url: str, project_id: str | None = None) -> str:
    """Configure the project ``root`` for the PostgreSQL store at ``url``; its project id.

    As the docs advise, the committed config names the password's variable (``password_env``) and
    holds no password; the variable is set in this process's environment, which the processes the
    tests start inherit.
    """
    project_id = project_id or f"test-{uuid.uuid4().hex[:12]}"
    parts = urlsplit(url)
    variable = f"PG_TEST_PASSWORD_{parts.port}"
    os.environ[variable] = unquote(parts.password or "")
    bare = urlunsplit(parts._replace(netloc=f"{parts.username}@{parts.hostname}:{parts.port}"))
    document = {"store": bare, "project": project_id, "password_env": variable}
    gm = root / ".gm"
    gm.mkdir(exist_ok=True)
    (gm / "config.json").write_text(json.dumps(document), encoding="utf-8")
    return project_id


@pytest.fixture
def project(tmp_path: Path, store_kind: str, request: pytest.FixtureRequest) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    if store_kind == "postgresql":
        use_postgresql(root, request.getfixturevalue("pg_url"))
    return root


@pytest.fixture
def services(project: Path, clock: ManualClock, store_kind: str) -> Iterator[HostServices]:
    host = HostServices(project, clock=clock)
    assert host.store.is_postgresql == (store_kind == "postgresql"), "the test replaced the store's config"
    yield host
    host.close()


def make_guest(target: str, services: HostServices, request: pytest.FixtureRequest) -> BaseGuest:
    """A fresh guest of ``target`` over ``services``."""
    if target == "native":
        from host_harness.targets.native import NativeGuest

        return NativeGuest(services)
    from host_harness.targets.component import WasmGuest

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


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    """A fresh git repository, ``<tmp_path>/repo``."""
    folder = tmp_path / "repo"
    folder.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    return folder
