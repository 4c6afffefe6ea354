"""``BaseGuest``: the four export calls, each one atomic on the host.

Both targets -- :class:`host_harness.native.NativeGuest` (the guest package under
CPython) and :class:`host_harness.component.WasmGuest` (the built component) --
inherit these rules, so one test suite checks both:

* every call runs inside ``HostServices.begin()``, as a reader first: if its first
  write finds another connection holding the write lock, the call is rolled back and
  run once more with the write lock taken up front (``begin(write_lock=True)``);
* it commits only when the call succeeded: ``memorize``/``recall`` returned ok,
  ``dispatch`` returned an envelope with ``"ok": true`` (``version`` too);
* a guest error, an exception or a trap rolls back every store the call touched;
* a host import that failed during the call (recorded on the services) fails the
  call even when the guest carried on: rolled back, :class:`HostFailure` for the
  typed exports, an ``{"ok": false, "error": "internal: host failure: ..."}``
  envelope for ``dispatch``.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from host_harness.envelope import Envelope
from host_harness.errors import GuestError, GuestTrap, HostFailure
from host_harness.fs import effects

if TYPE_CHECKING:
    from host_harness.services import HostServices

T = TypeVar("T")
log = logging.getLogger("rs_learn.host")


def envelope_ok(envelope: str) -> bool:
    """Return whether a ``dispatch`` envelope says ``"ok": true`` (anything unparsable: no).

    The engine writes ``"ok"`` first; when that is the only ``"ok"`` token in the text, the answer
    is read from the prefix instead of parsing the whole envelope (an ``embed`` answer is 8 KB).
    """
    fast = envelope.startswith(('{"ok": true, ', '{"ok": false, ')) and envelope.endswith("}")
    if fast and envelope.count('"ok"') == 1:
        return envelope.startswith('{"ok": true, ')
    return Envelope.parse(envelope).ok


def answer(
    guest: BaseGuest, verb: str, body: str, where: str | None = None, *, token: str | None = None
) -> str:
    """``guest.dispatch`` that never raises: the envelope, or an error envelope for what it raised.

    A trap or a failed instantiation (:class:`GuestError`; the next call re-instantiates) and a
    harness bug cost this one request, not the long-lived process serving it (spool, MCP server).
    ``where`` names the request in the log (default: the verb); ``token`` is the spool's claim
    (see :meth:`BaseGuest.dispatch`).
    """
    try:
        return guest.dispatch(verb, body, token=token)
    except GuestError as error:
        log.error("%s failed: %s", where or verb, error.message)
        message = error.message
    except Exception as error:
        log.exception("%s: unexpected error", where or verb)
        message = f"internal: {type(error).__name__}: {error}"
    return json.dumps({"ok": False, "verb": verb, "error": message}, ensure_ascii=False)


def with_warnings(envelope: str, warnings: list[str]) -> str:
    """The envelope with ``"warnings": [...]`` (what the host left out of the call) when there are any."""
    if not warnings:
        return envelope
    try:
        value = json.loads(envelope)
    except ValueError:
        return envelope
    if not isinstance(value, dict):
        return envelope
    return json.dumps({**value, "warnings": list(warnings)}, ensure_ascii=False)


def _require_unicode(**strings: str) -> None:
    """Strings with lone surrogates (e.g. undecodable bytes from argv) cannot cross into the guest."""
    for name, value in strings.items():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise GuestError(f"validation: {name} is not valid Unicode (lone surrogate)") from None


class BaseGuest(ABC):
    """The export calls of the ``rs-learn`` world over :class:`HostServices`."""

    def __init__(self, services: HostServices) -> None:
        self.services = services

    def version(self) -> str:
        """Return the engine version."""
        return self._transact(self._version, lambda _: True)

    def memorize(self, text: str, namespace: str = "default") -> str:
        """Store ``text``; return the memory id. Raises :class:`GuestError`."""
        _require_unicode(text=text, namespace=namespace)
        return self._transact(lambda: self._memorize(text, namespace), lambda _: True)

    def recall(self, query: str, limit: int = 0) -> list[dict[str, Any]]:
        """Recall hits ``{id, text, score, namespace}``, best first. Raises :class:`GuestError`."""
        _require_unicode(query=query)
        return self._transact(lambda: self._recall(query, limit), lambda _: True)

    def dispatch(self, verb: str, body: str, *, token: str | None = None) -> str:
        """Serve one spool verb; returns the JSON envelope (a host failure becomes an error envelope).

        With a ``token`` (the spool's claim) and a ledger on the services, the envelope is recorded
        under the token in the transaction that commits the call (``host_harness/store/replay.py``).
        """
        try:
            _require_unicode(verb=verb, body=body)
        except GuestError as error:
            return json.dumps(
                {"ok": False, "verb": verb.encode("utf-8", "replace").decode(), "error": error.message}
            )
        try:
            envelope = self._transact(lambda: self._dispatch(verb, body), envelope_ok, token)
        except HostFailure as failure:
            return json.dumps({"ok": False, "verb": verb, "error": failure.message}, ensure_ascii=False)
        return self.finish(with_warnings(envelope, self.services.warnings))

    def finish(self, envelope: str) -> str:
        """Perform the host effects a committed envelope asks for (a managed skill's file); the answer."""
        return effects.apply(self.services.project.root, envelope)

    @abstractmethod
    def close(self) -> None:
        """Release the target's resources (the services stay open: they are the caller's)."""

    def _transact(self, run: Callable[[], T], succeeded: Callable[[T], bool], token: str | None = None) -> T:
        services = self.services
        for write_lock in (False, True):  # a second attempt only when the first found the lock taken
            services.begin(write_lock=write_lock, retry=write_lock)  # (begin rolls the first back)
            try:
                result = run()
            except GuestTrap:
                services.rollback()
                raise
            except GuestError as error:  # the guest's answer may stem from a failed import: say so
                if services.write_lock_busy and not write_lock:
                    continue
                failure = services.failure()
                services.rollback()
                if failure is not None:
                    raise HostFailure(failure) from error
                raise
            except BaseException:
                services.rollback()
                raise
            if services.write_lock_busy and not write_lock:
                continue
            failure = services.failure()
            if failure is not None:
                services.rollback()
                raise HostFailure(failure)
            if succeeded(result):
                services.commit(token=token, answer=result if isinstance(result, str) else None)
            else:
                services.rollback()
            return result
        raise AssertionError("unreachable: the second attempt holds the write lock")

    # what each target provides

    @abstractmethod
    def _version(self) -> str: ...

    @abstractmethod
    def _memorize(self, text: str, namespace: str) -> str: ...

    @abstractmethod
    def _recall(self, query: str, limit: int) -> list[dict[str, Any]]: ...

    @abstractmethod
    def _dispatch(self, verb: str, body: str) -> str: ...
