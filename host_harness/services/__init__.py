"""The host side of one project: the six host imports, in per-call transactions over its stores.

* :class:`HostServices` -- the ``Host`` protocol the guest calls (``imports.py``), on the project's
  stores (``stores.py``: :func:`identity`) in one transaction per export call (``transaction.py``:
  :func:`busy_message`, :class:`UnusableStore`);
* :func:`wall_clock_ms`, :class:`ManualClock` -- the clocks ``host-now-ms`` reads (``clock.py``);
* :class:`LogRecord`, :func:`parse_log_event` -- the guest's log lines kept per call (``guestlog.py``);
* :class:`AnswerLedger` -- where a spool claim's call records its answer (``answers.py``).
"""

from host_harness.services.answers import AnswerLedger
from host_harness.services.clock import ManualClock, wall_clock_ms
from host_harness.services.guestlog import LogRecord, parse_log_event
from host_harness.services.imports import HostServices
from host_harness.services.stores import identity
from host_harness.services.transaction import UnusableStore, busy_message

__all__ = [
    "AnswerLedger", "HostServices", "LogRecord", "ManualClock", "UnusableStore", "busy_message", "identity",
    "parse_log_event", "wall_clock_ms",
]
