"""A throwaway PostgreSQL + pgvector server for the tests and the bench, from the PyPI package ``pgserver``.

``pgserver`` ships PostgreSQL 16 with pgvector in its wheel (``pgserver/pginstall``); only its
binaries are used here: ``initdb`` into a fresh folder, then ``postgres`` on a free loopback port
(``127.0.0.1`` only), started and stopped with ``pg_ctl``. PostgreSQL refuses to run as root, so
as root the server runs as the unprivileged system user :data:`USER` (created with ``useradd``
when missing) through ``setpriv``; anyone else runs it as themselves. When that user cannot reach
the binaries (a checkout in a private folder, as a ``mktemp -d`` clone is), they are copied once to
a folder of the temporary directory that it can reach.

The superuser ``postgres`` has a password and TCP connections must give it (``scram-sha-256``), so
the URLs the tests use carry a password, as real ones do.

    with Cluster() as cluster:
        url = cluster.url("rs_learn")      # postgresql://postgres:<password>@127.0.0.1:<port>/rs_learn
        cluster.restart()                   # a PostgreSQL restart (fault tests)
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

USER = "rslearn-pg"
SUPERUSER = "postgres"
ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
FAST = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")


def binaries(prefix: list[str]) -> Path:
    """``pgserver``'s PostgreSQL ``bin`` folder, runnable with ``prefix`` (the package is never imported)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the PyPI package pgserver is missing (the dev extra: make test installs it)")
    found = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (found / "postgres").is_file():
        raise RuntimeError(f"pgserver has no PostgreSQL binaries in {found}")
    if prefix and not runs(prefix, found):
        found = reachable_copy(found.parent) / "bin"
    return found


def runs(prefix: list[str], bin_dir: Path) -> bool:
    """Whether ``initdb --version`` (which loads the bundled libraries) runs with ``prefix``."""
    done = subprocess.run([*prefix, str(bin_dir / "initdb"), "--version"], env=ENV, capture_output=True,
                          check=False, timeout=60)
    return done.returncode == 0


def reachable_copy(install: Path) -> Path:
    """``install`` copied (once per install) into the temporary directory, which every user can reach.

    The binaries find their libraries at ``$ORIGIN/../../../pgserver.libs`` (the wheel's layout), so
    the copy keeps ``pgserver/pginstall`` beside ``pgserver.libs``.
    """
    postgres = (install / "bin" / "postgres").stat()
    key = hashlib.sha256(f"{install}:{postgres.st_size}:{postgres.st_mtime_ns}".encode()).hexdigest()[:16]
    target = Path(tempfile.gettempdir()) / f"rs-learn-pginstall-{key}"
    if not (target / "pgserver" / "pginstall" / "bin" / "postgres").is_file():
        staging = Path(tempfile.mkdtemp(prefix="rs-learn-pginstall-", dir=target.parent))
        try:
            shutil.copytree(install, staging / "pgserver" / "pginstall", symlinks=True)
            libs = install.parent.parent / "pgserver.libs"
            if libs.is_dir():
                shutil.copytree(libs, staging / "pgserver.libs", symlinks=True)
            for folder in (staging, staging / "pgserver"):
                folder.chmod(0o755)
            with contextlib.suppress(OSError):  # another process put its copy there first
                staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target / "pgserver" / "pginstall"


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_as() -> tuple[list[str], int | None, int | None]:
    """The command prefix, uid and gid that run a server process (root: :data:`USER` via setpriv)."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                       check=True, capture_output=True)
        entry = pwd.getpwnam(USER)
    prefix = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups"]
    return prefix, entry.pw_uid, entry.pw_gid


class Cluster:
    """One PostgreSQL server in a temporary folder, listening on ``127.0.0.1:<port>``."""

    def __init__(self, *, durable: bool = False, max_connections: int = 200) -> None:
        self.prefix, uid, gid = run_as()
        self.bin = binaries(self.prefix)
        self.root = Path(tempfile.mkdtemp(prefix="rs-learn-pg-"))
        if uid is not None and gid is not None:
            os.chown(self.root, uid, gid)
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.password = secrets.token_urlsafe(12)
        self.port = 0
        self.options = ["-c", f"max_connections={max_connections}", *(() if durable else FAST)]
        self.running = False

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([*self.prefix, *args], env=ENV, cwd=self.root, capture_output=True, text=True,
                              timeout=timeout, check=False)
        if done.returncode:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            what = " ".join(args[:2])
            raise RuntimeError(f"{what} failed ({done.returncode}): {done.stderr.strip()}\n{log}")
        return done

    def init(self) -> None:
        """``initdb``: UTF-8, C collation, trust on the socket, scram-sha-256 passwords over TCP."""
        pwfile = self.root / "pwfile"
        pwfile.write_text(self.password + "\n")
        if self.prefix:
            os.chown(pwfile, os.stat(self.root).st_uid, os.stat(self.root).st_gid)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--pwfile", str(pwfile),
                  "-E", "UTF8", "--locale=C", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync")
        pwfile.unlink()

    def start(self) -> None:
        """Start the server on a free loopback port (a new one if the port was taken meanwhile)."""
        if not self.data.exists():
            self.init()
        for attempt in range(5):
            self.port = self.port or free_port()
            options = " ".join(["-c listen_addresses=127.0.0.1", f"-c port={self.port}",
                                f"-c unix_socket_directories={self.root}", *self._quoted()])
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                          "-t", "60", "-o", options, "start")
                self.running = True
                return
            except RuntimeError:
                if attempt == 4:
                    raise
                self.port = 0  # someone took the port: try another
                time.sleep(0.2)

    def _quoted(self) -> list[str]:
        return [f"{flag} {value}" for flag, value in zip(self.options[::2], self.options[1::2], strict=True)]

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: roll back open transactions, disconnect clients)."""
        if self.running:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")
            self.running = False

    def restart(self) -> None:
        """Stop and start again on the same port: every connection is cut."""
        self.stop()
        self.start()

    def url(self, database: str = SUPERUSER) -> str:
        """A connection URL for the superuser (with its password)."""
        return f"postgresql://{SUPERUSER}:{self.password}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database ``name`` (if missing); its URL."""
        psql = [str(self.bin / "psql"), "-h", str(self.root), "-p", str(self.port), "-U", SUPERUSER, "-d",
                SUPERUSER, "-v", "ON_ERROR_STOP=1", "-qtA", "-c"]
        exists = self._run(*psql, f"SELECT 1 FROM pg_database WHERE datname = '{name}'").stdout.strip()
        if not exists:
            self._run(*psql, f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        """Stop the server and remove its folder."""
        try:
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
