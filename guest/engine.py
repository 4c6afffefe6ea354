"""The engine facade: typed entry points and ``dispatch`` for spool verbs.

This is the boundary of the guest: every public method either returns a value or
raises :class:`EngineError`; ``dispatch`` always returns an envelope. An
unexpected exception (a bug) is logged through the host and reported as
``internal:`` instead of trapping the instance.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from guest import requests
from guest.archive.verbs import ArchiveVerbs
from guest.capture.verbs import CaptureVerbs
from guest.contract import describe, names
from guest.errors import EngineError, Internal, InvalidRequest
from guest.git.verbs import GitVerbs
from guest.host import ERROR, Host, HostError
from guest.learn.verbs import LearnVerbs
from guest.memory.limits import DEFAULT_LIMIT
from guest.memory.memorize import Stored
from guest.memory.recall import Hit
from guest.memory.verbs import MemoryVerbs
from guest.quarantine.verbs import QuarantineVerbs
from guest.screening.redact import scrub
from guest.screening.screen import SecretNames
from guest.structured.verbs import StructuredVerbs
from guest.text.embed import EMBEDDER, StaticEmbedder
from guest.verbs import Rendered, Verb

VERSION = "0.2.0"
T = TypeVar("T")


class Engine:
    """rs-learn's memory engine over one :class:`Host`."""

    def __init__(self, host: Host, embedder: StaticEmbedder = EMBEDDER) -> None:
        host = SecretNames(host)  # no discipline named by a secret: it would be a committed folder
        self.host = host
        self.embedder = embedder
        self.memory = MemoryVerbs(host, embedder)
        self.verbs: dict[str, Verb] = {
            "version": Verb(self._version),
            **self.memory.table(),
            **StructuredVerbs(host, embedder).table(),
            **ArchiveVerbs(host).table(),
            **LearnVerbs(self.memory).table(),
            **GitVerbs(host, embedder).table(),
            **QuarantineVerbs(host).table(),
        }
        # `recall {"id": "r7"}` brings back an archived block (seed 002); any other body recalls memories.
        self.verbs["recall"] = ArchiveVerbs(host).with_recall_by_id(self.verbs["recall"])
        self.verbs.update(CaptureVerbs(self.memory, dict(self.verbs)).table())  # issue 34
        # For a host, not an agent: answered, but listed neither by `version` nor by the unknown-verb
        # error (no spool folder, no MCP tool; the conformance traces list the agent's verbs).
        self.host_verbs: dict[str, Verb] = {"describe": Verb(describe), "names": Verb(names)}

    def version(self) -> str:
        """The engine version."""
        return VERSION

    def _version(self, _body: dict[str, Any]) -> dict[str, Any]:
        """``version``: the engine, its embedder and every verb it serves (a host makes spool folders)."""
        return {"version": VERSION, "embedder": self.embedder.id, "verbs": sorted(self.verbs)}

    # Typed entry points (the WIT exports `memorize` and `recall`).

    def memorize_text(self, text: str, namespace: str) -> Stored:
        """Validate and store one memory; ``""``/``default`` let a sigil in ``text`` choose the store."""
        body = {"text": text} if namespace in ("", "default") else {"text": text, "namespace": namespace}
        return self._guard(lambda: self.memory.store(body))

    def recall_text(self, query: str, limit: int) -> list[Hit]:
        """Validate and run one recall."""
        return self._guard(lambda: self.memory.hits({"query": query, "limit": limit or DEFAULT_LIMIT}))

    # dispatch

    def dispatch(self, verb: str, body: str) -> str:
        """Serve one spool verb; the result is always a JSON envelope, whatever happens."""
        try:
            entry = self.verbs.get(verb) or self.host_verbs.get(verb)
            if entry is None:
                raise InvalidRequest(f"unknown verb {verb!r}; known verbs: {', '.join(sorted(self.verbs))}")
            data = self._guard(lambda: entry.handler(requests.parse_body(body, entry.text_field)))
            if isinstance(data, Rendered):
                return f'{{"ok": true, "verb": {json.dumps(verb, ensure_ascii=False)}, "data": {data.text}}}'
            return _envelope({"ok": True, "verb": verb, "data": data})
        except EngineError as error:
            return _envelope({"ok": False, "verb": verb, "error": scrub(str(error))})
        except Exception as error:  # e.g. the answer cannot be encoded: still an envelope, never a raise
            what = f"unexpected {type(error).__name__} while answering {verb!r}: {error}"
            self.host.log(ERROR, scrub(what))
            return _envelope({"ok": False, "verb": verb, "error": f"internal: {type(error).__name__}"})

    def _guard(self, call: Callable[[], T]) -> T:
        """``call()``; every error it raises leaves as an :class:`EngineError` without a secret in it."""
        try:
            return call()
        except EngineError as error:
            error.message = scrub(error.message)  # a message may quote a value: never a secret
            raise
        except HostError as error:
            raise Internal(scrub(f"host error: {error}")) from None
        except Exception as error:  # the component boundary: a bug must not trap the instance
            self.host.log(ERROR, scrub(f"unexpected {type(error).__name__}: {error} at {_where(error)}"))
            raise Internal(scrub(f"{type(error).__name__}: {error}")) from None


def _where(error: BaseException) -> str:
    """Frames of the traceback as ``file:line:function`` (no source lookup: no file access)."""
    frames = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append(f"{code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}:{code.co_name}")
        tb = tb.tb_next
    return " < ".join(reversed(frames[-8:]))


def _envelope(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)
