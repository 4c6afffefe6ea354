"""Which store a project uses: its SQLite files (the default) or a PostgreSQL server.

The first of these that is set decides:

* ``rs-learn-host --store URL`` (the CLI),
* ``$RS_LEARN_STORE``,
* the top-level ``store`` key of ``<project>/.gm/config.json``,

where the value is ``sqlite`` (the embedded default: ``.gm/rs-learn.db`` and a file per discipline)
or a ``postgresql://`` (or ``postgres://``) URL. A PostgreSQL store also needs the project's id,
which every checkout of the project shares: the top-level ``project`` key of ``.gm/config.json``
(``$RS_LEARN_STORE_PROJECT`` overrides it), for example::

    {"store": "postgresql://rs@db.example:5432/memory", "project": "acme-webapp",
     "password_env": "RS_LEARN_PG_PASSWORD"}

``.gm/config.json`` is committed, so the password does not belong in it: a URL without one lets
libpq take it from ``$PGPASSWORD`` or ``~/.pgpass`` (nothing here gets in the way), and
``password_env`` names an environment variable holding it (used with the config's ``store`` when
set; when it is not, libpq's own sources still apply). A config file whose ``store`` holds a
password still works, with a warning (:attr:`StoreChoice.warnings`: logged once per process, and
added to every ``dispatch`` envelope, so the hooks write it to their log).

Everything wrong with the choice is a :class:`ConfigError` whose one-line message names the
problem; a URL is only ever shown with its password replaced by ``***``.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from host_harness.config.config import ConfigError, Settings, settings_of

STORE_ENV = "RS_LEARN_STORE"
PROJECT_ENV = "RS_LEARN_STORE_PROJECT"
PASSWORD_ENV = "password_env"  # the config key naming the variable that holds the password
SCHEMES = ("postgresql", "postgres")
PROJECT_RE = re.compile(r"[^\x00-\x1f\x7f]{1,200}")
VARIABLE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
MASK = "***"

log = logging.getLogger("rs_learn.host")
_warned: set[str] = set()  # warnings logged by this process (once each)


@dataclass(frozen=True)
class StoreChoice:
    """``url=None``: the SQLite files; else a PostgreSQL server and the project's id in it."""

    url: str | None = None
    project_id: str | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)  # e.g. a password in a committed file

    @property
    def is_postgresql(self) -> bool:
        """Whether the project's memory lives on a PostgreSQL server."""
        return self.url is not None

    def describe(self) -> str:
        """Where the memory lives, for messages (no password)."""
        if self.url is None:
            return "SQLite files under .gm/"
        return f"PostgreSQL {redact(self.url)}, project {self.project_id!r}"


SQLITE = StoreChoice()


def resolve_store(project: Path | Settings, override: str | None = None,
                  environ: Mapping[str, str] | None = None) -> StoreChoice:
    """The store of ``project``: ``override`` (the CLI's ``--store``), the environment, the config file.

    ``project`` the project's folder (its file read now) or its :class:`Settings` read already.
    """
    environ = os.environ if environ is None else environ
    settings = settings_of(project)
    config = settings.get()
    where = settings.path
    warnings = committed_password(config, where)
    if override is not None:
        value, source = override, "--store"
    elif environ.get(STORE_ENV, "").strip():
        value, source = environ[STORE_ENV], STORE_ENV
    elif "store" in config:
        value, source = config["store"], f"{where}: store"
    else:
        return StoreChoice(warnings=warnings)
    if not isinstance(value, str):
        raise ConfigError(f"{source} must be a string (\"sqlite\" or a postgresql:// URL), got {value!r}")
    value = value.strip()
    if value.lower() == "sqlite":
        return StoreChoice(warnings=warnings)
    url = check_url(value, source)
    if source.startswith(str(where)):
        url = with_password_from_env(url, config, environ, where)
    project_id: object = environ.get(PROJECT_ENV, "").strip() or config.get("project")
    if project_id is None:
        raise ConfigError(
            f"a PostgreSQL store needs the project's id: add \"project\": \"<id>\" to {where} "
            f"(the same in every checkout), or set {PROJECT_ENV}"
        )
    if not isinstance(project_id, str) or PROJECT_RE.fullmatch(project_id) is None:
        raise ConfigError(f"{where}: project must be 1 to 200 printable characters, got {project_id!r}")
    return StoreChoice(url, project_id, warnings)


def committed_password(config: Mapping[str, object], where: Path) -> tuple[str, ...]:
    """A warning when the project's config file (committed with the code) holds a database password."""
    store = config.get("store")
    if not isinstance(store, str) or not secrets(store.strip()):
        return ()
    warning = (f"{where} holds the database password in its store URL, and the file is committed with "
               f"the code: remove it and use \"{PASSWORD_ENV}\", $PGPASSWORD or ~/.pgpass "
               "(docs/postgresql.md)")
    if warning not in _warned:
        _warned.add(warning)
        log.warning("%s", warning)
    return (warning,)


def with_password_from_env(url: str, config: Mapping[str, object], environ: Mapping[str, str],
                           where: Path) -> str:
    """``url`` with the password of the variable ``password_env`` names (unchanged when it names none)."""
    if PASSWORD_ENV not in config:
        return url
    variable = config[PASSWORD_ENV]
    if not isinstance(variable, str) or VARIABLE_RE.fullmatch(variable) is None:
        raise ConfigError(f"{where}: {PASSWORD_ENV} must name an environment variable, got {variable!r}")
    if secrets(url):
        raise ConfigError(f"{where}: the store URL holds a password and {PASSWORD_ENV} names another; "
                          f"keep {PASSWORD_ENV} and remove the password from the URL")
    password = environ.get(variable, "")
    if not password:
        log.info("%s: %s is not set; libpq looks in $PGPASSWORD and ~/.pgpass", where, variable)
        return url
    parts = urlsplit(url)
    query = urlencode([*parse_qsl(parts.query, keep_blank_values=True), ("password", password)])
    return urlunsplit(parts._replace(query=query))


def check_url(url: str, source: str = "store") -> str:
    """``url`` if it is a usable ``postgresql://`` URL; else :class:`ConfigError` naming the problem."""
    try:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
    except ValueError as error:
        raise ConfigError(f"{source}: not a valid URL ({error}): {redact(url)}") from None
    if scheme not in SCHEMES:
        raise ConfigError(f"{source} must be \"sqlite\" or a postgresql:// URL, got {redact(url)!r}")
    try:
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number in range
    except ValueError:
        raise ConfigError(f"{source}: the port of {redact(url)} is not a number from 1 to 65535") from None
    if not parts.path.strip("/"):
        raise ConfigError(f"{source}: {redact(url)} names no database (postgresql://host:port/DATABASE)")
    return url


def redact(url: str) -> str:
    """``url`` with its password (in the authority or a ``password=`` parameter) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK if ":" in url or "@" in url else url
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hostport = netloc.rpartition("@")
        user, colon, _ = userinfo.partition(":")
        netloc = f"{user}{':' + MASK if colon else ''}@{hostport}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, MASK if k.lower() == "password" else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def secrets(url: str) -> list[str]:
    """The password of ``url`` in every spelling a message might echo (raw and percent-decoded)."""
    found: list[str] = []
    try:
        parts = urlsplit(url)
        if parts.password:
            found += [parts.password, unquote(parts.password)]
        found += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() == "password"]
    except ValueError:
        pass
    return sorted({s for s in found if s}, key=len, reverse=True)


def scrub(message: str, url: str | None) -> str:
    """``message`` on one line, with the password of ``url`` masked wherever it appears."""
    text = " ".join(message.split())
    if url is not None:
        text = text.replace(url, redact(url))
        for secret in secrets(url):
            text = text.replace(secret, MASK)
    return text
