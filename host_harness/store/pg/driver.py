"""The PostgreSQL driver: psycopg 3 (an optional dependency), one-line errors, lock keys.

``psycopg`` and ``pgvector`` are imported only when a project uses a PostgreSQL store, so the
SQLite path (and the prompt-submit hook's start-up) never pays for them. Every error leaving this
package is a :class:`PostgresError` on one line, with the URL's password masked.
"""

from __future__ import annotations

import hashlib
import shlex
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

from host_harness.config import ConfigError, scrub

DRIVER = ("psycopg[binary]>=3.3,<3.4", "pgvector>=0.5,<0.6")  # the `postgresql` extra of pyproject.toml
LOCK_CLASS = 0x52534C4E  # "RSLN": the first key of every advisory lock rs-learn takes
CONNECT_TIMEOUT_S = 10
SERIALIZATION_FAILURE = "40001"
DEADLOCK = "40P01"

Connection = Any  # psycopg.Connection[tuple[Any, ...]]; psycopg is optional, so typed loosely here


class PostgresError(Exception):
    """A PostgreSQL store failed (cannot connect, connection lost, a query failed); one line, no password."""

    def __init__(self, message: str, sqlstate: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


def psycopg() -> ModuleType:
    """The ``psycopg`` module, or a :class:`ConfigError` saying how to install it."""
    try:
        import pgvector.psycopg  # noqa: F401 -- the adapter must be there too
        import psycopg as module
    except ImportError as error:
        raise ConfigError(f"a PostgreSQL store needs psycopg 3 and pgvector ({error}): "
                          f"{install_hint()}") from None
    return module


def install_hint(prefix: Path | None = None, python: str | None = None) -> str:
    """How to add the driver to the environment ``rs-learn-host`` runs in (``sys.prefix`` by default).

    A ``uv tool`` environment holds ``uv-receipt.toml``, a ``pipx`` one ``pipx_metadata.json``;
    anything else is a virtualenv (or a Python) that ``python -m pip`` installs into.
    """
    prefix = Path(sys.prefix) if prefix is None else prefix
    packages = " ".join(shlex.quote(package) for package in DRIVER)
    if (prefix / "uv-receipt.toml").is_file():
        withs = " ".join(f"--with {shlex.quote(package)}" for package in DRIVER)
        return f"uv tool install --force {withs} {_uv_source(prefix / 'uv-receipt.toml')}"
    if (prefix / "pipx_metadata.json").is_file():
        return f"pipx inject rs-learn {packages}"
    return f"{shlex.quote(python or sys.executable)} -m pip install {packages}"


def _uv_source(receipt: Path) -> str:
    """What ``uv tool install`` installed rs-learn from, as its receipt says, else a placeholder."""
    try:
        requirements = tomllib.loads(receipt.read_text(encoding="utf-8"))["tool"]["requirements"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        requirements = []
    for requirement in requirements if isinstance(requirements, list) else []:
        if isinstance(requirement, dict) and requirement.get("name") == "rs-learn":
            source = requirement.get("directory") or requirement.get("path") or requirement.get("editable")
            if isinstance(source, str):
                return shlex.quote(source)
    return "<the rs-learn checkout or wheel you installed>"


def describe(error: BaseException, url: str | None) -> str:
    """What went wrong, on one line, without the password."""
    text = str(error).strip() or type(error).__name__
    return scrub(text, url)


def sqlstate(error: BaseException) -> str | None:
    """The SQLSTATE of a psycopg error (``None`` for anything else)."""
    return getattr(error, "sqlstate", None)


def is_psycopg_error(error: BaseException) -> bool:
    """Whether ``error`` came from psycopg (without importing it)."""
    return type(error).__module__.startswith("psycopg")


def project_lock_key(project: str) -> int:
    """The second advisory-lock key of a project: 31 bits of a hash of its id, never 0 (the migrations').

    Two projects whose keys collide only take turns writing; nothing else depends on the key.
    """
    digest = hashlib.blake2b(project.encode("utf-8"), digest_size=4).digest()
    return (int.from_bytes(digest, "little") >> 1) or 1
