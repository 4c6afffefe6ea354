"""The git verbs: ``git_text`` (textconv) and ``git_merge`` (the merge driver).

They run only inside the host's git drivers (``rs-learn-host git textconv`` / ``merge-driver``),
which serve the view they read (``host`` fact ``git`` and the ``git/`` namespaces); anywhere else
they answer ``validation:``. ``git_text`` takes no body; ``git_merge`` takes ``{theirs: {commit?,
author?, self?}}`` when the driver knows who wrote the branch merged in (``guest/memory/origin.py``).
"""

from __future__ import annotations

from typing import Any

from guest.git.merge import merge_store
from guest.git.projection import project
from guest.host import Host
from guest.text.embed import StaticEmbedder
from guest.verbs import Verb


class GitVerbs:
    """The git drivers' verbs over one host."""

    def __init__(self, host: Host, embedder: StaticEmbedder) -> None:
        self.host = host
        self.embedder = embedder

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {"git_text": Verb(self.text), "git_merge": Verb(self.merge)}

    def text(self, body: dict[str, Any]) -> dict[str, Any]:
        """``git_text``: the store as text."""
        return {"text": project(self.host)}

    def merge(self, body: dict[str, Any]) -> dict[str, Any]:
        """``git_merge``: merge theirs into the store; the report."""
        return merge_store(self.host, self.embedder, body)
