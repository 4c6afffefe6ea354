"""``retrieve_memory``: ranked records rendered for a prompt, within the context budget.

The records are those of ``query_records`` (same body fields, same ranking), at most ``limit``
(default ``defaultLimit``). Each is rendered as a Markdown bullet -- checklists with their item
tree and status marks -- under a ``## Structured memory`` heading. Tokens are estimated as
``ceil(characters / 4)`` of the whole text, heading included; the budget is ``maxTokens``
(default ``maxContextTokens``). Records are taken in rank order and the first one that would
overflow stops the list (a lower-ranked record never displaces a better one); a first record
that alone overflows is cut to fit and ends with ``…``. No record -> empty text.
"""

from __future__ import annotations

from typing import Any

from guest.host import Host
from guest.structured import fields, query, tree
from guest.structured.context import Context
from guest.structured.shapes import MAX_TOKENS
from guest.text.embed import StaticEmbedder

HEADING = "## Structured memory"
MARKS = {"pending": "[ ]", "in_progress": "[~]", "done": "[x]", "skipped": "[-]"}
LABELS = {"checklist": "checklist", "todo": "todo", "session_note": "note"}


def tokens(text: str) -> int:
    """The token estimate: ``ceil(len(text) / 4)``."""
    return -(-len(text) // 4)


def render(record: dict[str, Any]) -> str:
    """One record as Markdown lines."""
    kind = record["kind"]
    facts = [record.get("status", "")]
    if kind == "todo" and record.get("priority"):
        facts.append(f"priority {record['priority']}")
    if kind == "session_note":
        facts.append(f"importance {record.get('importance', 0.5):g}")
    if kind == "checklist":
        items = record.get("items", [])
        facts.append(f"{sum(i.get('status') == 'done' for i in items)}/{len(items)} done")
    if record.get("due"):
        facts.append(f"due {record['due']}")
    tags = "".join(f" #{tag}" for tag in record.get("tags", []))
    title = str(record.get("title", ""))
    body = str(record.get("description") or record.get("content") or "").strip()
    if kind == "session_note" and body.startswith(title.removesuffix("…")):  # title derived from content
        title = ""
    lines = [f"- [{LABELS[kind]} {record['id']}] {title + ' ' if title else ''}({', '.join(facts)}){tags}"]
    lines.extend(f"  {line}" for line in body.splitlines())
    for item, depth in tree.walk(record.get("items", [])):
        mark = MARKS.get(item.get("status", ""), "[?]")
        due = f" (due {item['due']})" if item.get("due") else ""
        lines.append(f"{'  ' * depth}- {mark} {item.get('title', '')}{due}")
    return "\n".join(lines)


def retrieve(host: Host, embedder: StaticEmbedder, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
    """Run the query and pack the rendered records into the token budget."""
    budget = ctx.config.maxContextTokens
    if body.get("maxTokens") is not None:
        budget = fields.integer(body["maxTokens"], "maxTokens", 1, MAX_TOKENS)
    request = query.Query.parse(body, ctx.config.defaultLimit)
    hits = query.run(host, embedder, ctx, request)
    text, chosen, truncated = HEADING, [], False
    for hit in hits:
        block = render(hit.record)
        if tokens(f"{text}\n{block}") <= budget:
            text = f"{text}\n{block}"
            chosen.append(hit)
            continue
        room = budget * 4 - len(text) - 2
        if not chosen and room > 0:
            text = f"{text}\n{block[:room]}…"
            chosen.append(hit)
        truncated = True
        break
    if not chosen:
        text = ""
    return {
        "text": text,
        "tokens": tokens(text),
        "budget": budget,
        "truncated": truncated,
        "records": [hit.as_json() for hit in chosen],
    }
