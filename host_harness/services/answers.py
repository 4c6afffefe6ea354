"""``AnswerLedger``: where calls made with a spool claim's token record their answers.

Two implement it: the SQLite file ATTACHed to every store (``host_harness/store/replay.py``) and a
table of the PostgreSQL store (``host_harness/store/pg/replay.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol


class AnswerLedger(Protocol):
    """Where calls made with a token record their answers (``host_harness/store/replay.py``)."""

    @property
    def path(self) -> Path:
        """The ledger's file."""
        ...

    @property
    def schema(self) -> str:
        """The statement creating its table under the alias ``ledger``."""
        ...

    def statements(self, token: str, envelope: str) -> list[tuple[str, tuple[Any, ...]]]:
        """The writes that record ``envelope`` under ``token``."""
        ...

    def recorded(self) -> None:
        """The statements were committed."""
        ...

    def record(self, token: str, envelope: str) -> None:
        """Record in a transaction of its own."""
        ...

    @property
    def forget(self) -> set[str]:
        """Tokens of removed claims, deleted at the next recording."""
        ...

    def lookup(self, token: str) -> str | None:
        """The envelope committed under ``token``, or ``None``."""
        ...

    def clear(self, keep: Iterable[str] = ()) -> None:
        """Delete every row but those of ``keep``."""
        ...

    def close(self) -> None:
        """Close what the ledger opened itself."""
        ...
