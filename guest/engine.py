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
from guest.embed import EMBEDDER, StaticEmbedder
from guest.errors import EngineError, Internal, InvalidRequest
from guest.host import ERROR, Host, HostError
from guest.memorize import Stored, memorize
from guest.recall import MODES, Hit, RecallOptions, recall
from guest.records import Stats, bucket

VERSION = "0.1.0"
MAX_TEXT_BYTES = 64 * 1024
MAX_QUERY_BYTES = 8 * 1024
DEFAULT_LIMIT = 8
MAX_LIMIT = 100

Handler = Callable[[dict[str, Any]], Any]
T = TypeVar("T")


class Engine:
    """rs-learn's memory engine over one :class:`Host`."""

    def __init__(self, host: Host, embedder: StaticEmbedder = EMBEDDER) -> None:
        self.host = host
        self.embedder = embedder
        self.verbs: dict[str, tuple[str, Handler]] = {
            "version": ("text", lambda _: {"version": VERSION, "embedder": self.embedder.id}),
            "memorize": ("text", self._memorize),
            "recall": ("query", self._recall),
            "stats": ("namespace", self._stats),
            "embed": ("text", self._embed),
        }

    def version(self) -> str:
        """The engine version."""
        return VERSION

    # Typed entry points (the WIT exports `memorize` and `recall`).

    def memorize_text(self, text: str, namespace: str) -> Stored:
        """Validate and store one memory."""
        return self._guard(lambda: self._store({"text": text, "namespace": namespace or "default"}))

    def recall_text(self, query: str, limit: int) -> list[Hit]:
        """Validate and run one recall over the default store."""
        body = {"query": query, "limit": limit or DEFAULT_LIMIT}
        return self._guard(lambda: self._hits(body))

    # dispatch

    def dispatch(self, verb: str, body: str) -> str:
        """Serve one spool verb; the result is always a JSON envelope."""
        try:
            entry = self.verbs.get(verb)
            if entry is None:
                raise InvalidRequest(f"unknown verb {verb!r}; known verbs: {', '.join(sorted(self.verbs))}")
            text_field, handler = entry
            data = self._guard(lambda: handler(requests.parse_body(body, text_field)))
        except EngineError as error:
            return _envelope({"ok": False, "verb": verb, "error": str(error)})
        return _envelope({"ok": True, "verb": verb, "data": data})

    def _guard(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except EngineError:
            raise
        except HostError as error:
            raise Internal(f"host error: {error}") from None
        except Exception as error:  # the component boundary: a bug must not trap the instance
            self.host.log(ERROR, f"unexpected {type(error).__name__}: {error} at {_where(error)}")
            raise Internal(f"{type(error).__name__}: {error}") from None

    # verbs

    def _store(self, body: dict[str, Any]) -> Stored:
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        namespace = requests.namespace(body) or "default"
        return memorize(self.host, self.embedder, text, namespace)

    def _memorize(self, body: dict[str, Any]) -> dict[str, Any]:
        stored = self._store(body)
        return {"id": stored.id, "namespace": stored.namespace, "deduped": stored.deduped}

    def _hits(self, body: dict[str, Any]) -> list[Hit]:
        query = requests.text(body, "query", MAX_QUERY_BYTES)
        limit = requests.integer(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        namespace = requests.namespace(body) or "default"
        mode = requests.choice(body, "mode", "hybrid", MODES)
        return recall(self.host, self.embedder, query, limit, namespace, RecallOptions(mode=mode))

    def _recall(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"id": h.id, "text": h.text, "score": h.score, "namespace": h.namespace} for h in self._hits(body)
        ]

    def _embed(self, body: dict[str, Any]) -> dict[str, Any]:
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        vector = self.embedder.embed(text)
        return {"embedder": self.embedder.id, "dims": len(vector), "vector": vector}

    def _stats(self, body: dict[str, Any]) -> dict[str, Any]:
        namespace = requests.namespace(body) or "default"
        stats = Stats.decode(self.host.kv_get(bucket(namespace, "meta"), "stats"))
        return {
            "namespace": namespace,
            "memories": stats.docs,
            "embedder": stats.embedder or None,
            "current_embedder": self.embedder.id,
        }


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
