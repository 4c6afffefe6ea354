"""The project's configuration: ``.gm/config.json`` with its environment overrides, and the store it names.

* :class:`MemoryConfig`, :func:`load_memory_config`, :func:`read_memory_config`, :func:`load_redact`,
  :func:`read_config`, :class:`ConfigError`, :data:`CONFIG_FILE`, :data:`TRUE`, :data:`FALSE` -- the
  file and its ``memory`` block (``config.py``);
* :class:`Settings`, :func:`settings_of` -- the file read once, or the error reading it raised
  (``config.py``);
* :class:`ProjectContext` -- one run's project, its settings and its store, made once and passed down
  (``context.py``);
* :class:`StoreChoice`, :func:`resolve_store`, :data:`SQLITE`, :func:`redact`, :func:`scrub` -- which
  store a project uses, SQLite or PostgreSQL, and its URL without the password (``selection.py``).
"""

from host_harness.config.config import (
    CONFIG_FILE,
    FALSE,
    TRUE,
    ConfigError,
    MemoryConfig,
    Settings,
    load_memory_config,
    load_redact,
    read_config,
    read_memory_config,
    settings_of,
)
from host_harness.config.context import ProjectContext
from host_harness.config.selection import SQLITE, StoreChoice, redact, resolve_store, scrub

__all__ = [
    "CONFIG_FILE", "FALSE", "SQLITE", "TRUE", "ConfigError", "MemoryConfig", "ProjectContext", "Settings",
    "StoreChoice", "load_memory_config", "load_redact", "read_config", "read_memory_config", "redact",
    "resolve_store", "scrub", "settings_of",
]
