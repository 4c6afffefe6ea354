"""``similar``: stored memories a new one may contradict (same subject, different content).

A memorize answers at most :data:`MAX_SIMILAR` ``{id, text, score}`` so the agent can decide to
supersede them; nothing is changed automatically. Static embeddings are anisotropic (unrelated
texts sit at cosine 0.6-0.8), so cosine alone cannot say "same subject": measured on 40 hand-made
pairs of a fact and its revision ("Use npm" / "Use pnpm, not npm") against the bench corpus (1,000
corpus paragraphs memorized into a store of 10,000 others), a candidate must pass three tests:

* cosine >= :data:`MIN_COSINE` (revisions: 0.87-0.995; a corpus paragraph's nearest stored
  neighbour is above 0.87 for 83 % of them, so this alone would flag almost everything);
* term Jaccard >= :data:`MIN_JACCARD` and at least :data:`MIN_SHARED` shared terms (the two say
  something about the same things; with the cosine test, 36 of the 40 revisions pass and 4.2 % of
  the corpus paragraphs get a ``similar``, mostly templated docstrings such as "Return true if the
  object is a frame object." / "... defined in the given module.");
* not a near-duplicate (cosine >= 0.97 and Jaccard >= 0.8: recall's collapse treats those as one).

The candidates are the :data:`CANDIDATES` nearest stored vectors of the new memory's store, searched
before the new memory is written (a vector search after a vector write in the same call makes the
host bring its persisted index up to date first: measured, that was most of a memorize at 10k);
the ones the new memory supersedes are left out. Of those above :data:`MIN_COSINE`, only the
:data:`MAX_SIMILAR` nearest are read and put to the term tests (each read is a host call and a
tokenised text, on every memorize's critical path; the search's scores come best first, so a
record further down could only be answered in place of a nearer one that failed); superseded
memories among them are dropped. ``score`` is the cosine (float32, as recall's scores); best
first, ties by id.
"""

from __future__ import annotations

from typing import Any

from guest.host import Host, bucket
from guest.index import keywords
from guest.memory import lookup
from guest.memory.channels import f32
from guest.memory.recall import RecallOptions
from guest.text.embed import StaticEmbedder

MAX_SIMILAR = 3
CANDIDATES = 8
MIN_COSINE = 0.87
MIN_JACCARD = 0.4
MIN_SHARED = 2


def similar(
    host: Host,
    embedder: StaticEmbedder,
    namespace: str,
    text: str,
    vector: list[float],
    exclude: set[str],
    near_duplicates: bool = False,
) -> list[dict[str, Any]]:
    """The stored memories of ``namespace`` that ``text`` (embedded as ``vector``) may contradict.

    ``near_duplicates``: keep those too (a captured rule: "use pnpm, not npm" after "use npm, not
    pnpm" has the same words in another order, and replaces it: ``guest/capture/verbs.py``).
    """
    hits = host.vec_search(bucket(namespace, f"vectors/{embedder.id}"), vector, CANDIDATES)
    options = RecallOptions()
    words: set[str] | None = None  # the new text's terms, once a candidate is close enough to need them
    out: list[dict[str, Any]] = []
    close = [(key, score) for key, score in hits if score >= MIN_COSINE and key not in exclude]
    for memory_id, score in close[:MAX_SIMILAR]:
        record = lookup.record(host, namespace, memory_id)
        if record is None or record.superseded_by is not None:
            continue
        if words is None:
            words = set(keywords.terms(text))
        other = set(keywords.terms(record.text))
        shared = len(words & other)
        jaccard = shared / max(1, len(words | other))
        if shared < MIN_SHARED or jaccard < MIN_JACCARD:
            continue
        if not near_duplicates and score >= options.duplicate_cosine and jaccard >= options.duplicate_jaccard:
            continue  # a near-duplicate: recall shows one of the two
        out.append({"id": record.id, "text": record.text, "score": f32(score)})
    return out
