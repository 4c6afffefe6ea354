"""The verb spec: every field of the verbs a host exposes, with its type, range, default and help.

The one description of those verbs' interface (issue 46 item 1). ``describe`` answers it under
``verbs``; ``scripts/build_component.py`` writes it into ``host_harness/contract.json``, and the
host builds from it the MCP tools' input schemas (``host_harness/mcp/schemas.py``), the click
options that set a verb's field (their range, default and help: ``host_harness/cli/spec.py``) and
``docs/cli-reference.md``. Every bound is the constant the verb's validation reads, so the spec and
the checks cannot drift.

A verb is ``{"title", "help", "fields": {name: field}, "required": [names]}``, fields in the order a
host lists them; ``title`` and ``help`` (what an agent reads to choose the verb: the MCP tool's title
and description) are given for the verbs an agent calls, not for those a hook calls.
A field is a JSON Schema subset: ``type`` (a JSON type, or ``[type, "null"]`` when ``null`` clears
the value), ``description``, and when they apply ``minimum``/``maximum``, ``minLength``/``maxLength``
(characters), ``maxItems``, ``enum``, ``pattern`` (a Python ``fullmatch`` pattern: a host anchors
it), ``items``, ``properties``/``required`` (an object) and ``default``; two keys are the guest's
own: ``maxBytes`` (the UTF-8 length the guest checks) and ``recursive`` (an array of objects whose
items take the same field again, nested to the configured ``maxChecklistDepth``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from guest import requests
from guest.archive import search as archive_search
from guest.archive import verbs as archive
from guest.capture import verbs as capture
from guest.learn import skills
from guest.learn import verbs as learn
from guest.memory import limits, listing, lookup, tombstones
from guest.memory import verbs as memory
from guest.structured import fields, shapes, store, tree

Field = dict[str, Any]


def _string(description: str, **extra: Any) -> Field:
    return {"type": "string", "description": description, **extra}


def _integer(description: str, low: int, high: int, **extra: Any) -> Field:
    return {"type": "integer", "minimum": low, "maximum": high, "description": description, **extra}


def _number(description: str, low: float, high: float, **extra: Any) -> Field:
    return {"type": "number", "minimum": low, "maximum": high, "description": description, **extra}


def _boolean(description: str) -> Field:
    return {"type": "boolean", "description": description, "default": False}


def _enum(description: str, values: Iterable[str], **extra: Any) -> Field:
    return {"type": "string", "enum": list(values), "description": description, **extra}


def _array(description: str, items: Field, max_items: int | None = None) -> Field:
    field: Field = {"type": "array", "items": items, "description": description}
    if max_items is not None:
        field["maxItems"] = max_items
    return field


def _nullable(field: Field, why: str) -> Field:
    return {**field, "type": [field["type"], "null"], "description": f"{field['description']} {why}"}


def _verb(fields_: dict[str, Field], required: Iterable[str] = ()) -> dict[str, Any]:
    return {"fields": fields_, "required": [name for name in required if name in fields_]}


def _id(prefix: str) -> str:
    return rf"{prefix}-[1-9][0-9]{{0,15}}"


NAMESPACE = _string("`default` (the project store) or a discipline name, e.g. `frontend`; omit it to use the "
                    "`@name` sigil of the text, or the default.", pattern=requests.NAME_RE.pattern)
TAG = _string("A tag: no white space, ',', '#', '\"' or '\\\\'.", pattern=fields.TAG_RE.pattern)
DUE = _string("ISO-8601 date (2026-12-01) or date-time with Z or an offset.", pattern=fields.DUE_RE.pattern)
ITEM_ID = _string("A checklist item id, e.g. `it-3`.", pattern=_id("it"))
VERSION = _integer("Fail with a conflict unless the record is still at this version.", 1, fields.MAX_VERSION)
MEMORY_ID = _string("A memory id, e.g. `mem-03a1bd30e5d2fbe6-58`.", pattern=lookup.ID_RE.pattern)
STORE = {**NAMESPACE, "description": "The store to look in: `default` or a discipline name; omit it to look "
         "in the project store, then every discipline."}

# Every structured-memory body field, by the name the guest validates it under; ``status`` depends
# on the record kind (:func:`_structured`).
STRUCTURED: dict[str, Field] = {
    "title": _string(f"Short title, 1-{fields.MAX_TITLE_CHARS} characters.", minLength=1,
                     maxLength=fields.MAX_TITLE_CHARS),
    "description": _string(f"Free text, at most {fields.MAX_TEXT_BYTES} bytes.",
                           maxBytes=fields.MAX_TEXT_BYTES),
    "content": _string(f"The note's text, at most {fields.MAX_TEXT_BYTES} bytes.", minLength=1,
                       maxBytes=fields.MAX_TEXT_BYTES),
    "tags": _array(f"Up to {fields.MAX_TAGS} tags (stored lower-cased).", TAG, fields.MAX_TAGS),
    "due": DUE,
    "priority": _integer(f"0-{fields.MAX_PRIORITY}, {fields.MAX_PRIORITY} the most urgent (default 0).", 0,
                         fields.MAX_PRIORITY, default=0),
    "importance": _number("0-1, how much the note matters (default 0.5).", 0, 1, default=0.5),
    "ordinal": _integer("Position among its siblings (default: last).", 0, fields.MAX_ORDINAL),
    "id": _string("The record id, e.g. `td-1`, `cl-2`, `nt-3`."),
    "version": VERSION,
    "checklistId": _string("The checklist id, e.g. `cl-1`.", pattern=_id("cl")),
    "checklistVersion": _integer("Fail with a conflict unless the checklist is still at this version.", 1,
                                 fields.MAX_VERSION),
    "itemId": ITEM_ID,
    "parentId": {**ITEM_ID, "description": "The parent item id (omit it for a top-level item)."},
    "hard": _boolean("true removes the record for good; default false (soft delete, purged later)."),
    "query": _string(f"Words to search titles, tags, descriptions and contents for (at most "
                     f"{shapes.MAX_QUERY_BYTES} bytes); omit it for the newest records.",
                     maxBytes=shapes.MAX_QUERY_BYTES),
    "kinds": _array("Only these kinds (default all).", _enum("A record kind.", shapes.ALL_KINDS)),
    "includeArchived": _boolean("Include archived records (default false)."),
    "limit": _integer("At most this many records (0 or omitted: the configured defaultLimit).", 0,
                      shapes.MAX_LIMIT),
    "maxTokens": _integer("Token budget of the text (default: the configured maxContextTokens).", 1,
                          shapes.MAX_TOKENS),
}
CLEARED = {"description": "null clears it.", "due": "null clears it.",
           "parentId": "null moves the item to the top level."}


def _structured(names: Iterable[str], kind: str | None = None) -> dict[str, Field]:
    """The fields ``names`` (``status`` of ``kind``; of any kind, as a filter, without one)."""
    out: dict[str, Field] = {}
    for name in names:
        if name != "status":
            out[name] = STRUCTURED[name]
        elif kind is None:
            out[name] = _array("Only records with one of these statuses.",
                               _enum("A status.", shapes.ALL_STATUSES))
        else:
            out[name] = _enum(f"The {kind.replace('_', ' ')}'s status.", store.STATUSES[kind])
    return out


def _clearable(fields_: dict[str, Field]) -> dict[str, Field]:
    """An update's fields: ``null`` clears ``description`` and ``due`` (and moves ``parentId`` up)."""
    return {name: _nullable(field, CLEARED[name]) if name in CLEARED else field
            for name, field in fields_.items()}


def _record_id(kind: str) -> Field:
    prefix = store.PREFIXES[kind]
    return _string(f"The {kind.replace('_', ' ')}'s id, e.g. `{prefix}-1`.", pattern=_id(prefix))


def _budget(module: Any, what: str) -> dict[str, Any]:
    """The ``budget_tokens`` of a verb a hook calls (the hook's ``--budget``)."""
    return _verb({"budget_tokens": _integer(f"Tokens of {what} at most.", module.MIN_BUDGET_TOKENS,
                                            module.MAX_BUDGET_TOKENS, default=module.DEFAULT_BUDGET_TOKENS)})


def _memory_verbs() -> dict[str, dict[str, Any]]:
    skill = {
        "type": "object", "description": "Managed skill to create or enhance in the same call.",
        "properties": {
            "action": _enum("create a new managed skill or update an existing one.", ("create", "update")),
            "name": _string(f"Skill name (made lowercase kebab-case, at most {skills.MAX_NAME} characters)."),
            "description": _string("One line: when the skill applies."),
            "body": _string(f"The SKILL.md body in Markdown (the whole file at most {skills.MAX_FILE_BYTES} "
                            "bytes)."),
        },
        "required": ["action", "name", "description", "body"],
    }
    return {
        "recall": _verb({
            "query": _string(f"What to look for, in plain words (at most {limits.MAX_QUERY_BYTES} bytes); a "
                             "leading `@name` searches only that discipline.",
                             maxBytes=limits.MAX_QUERY_BYTES),
            "id": _string("Instead of a query: an archived block's id, e.g. `r7`, to get the block back "
                          "verbatim."),
            "limit": _integer(f"At most this many memories (0 or omitted: the default, "
                              f"{limits.DEFAULT_LIMIT}).", 0, limits.MAX_LIMIT, default=limits.DEFAULT_LIMIT),
            "mode": _enum("hybrid (default), vector (meaning only) or keyword (words only).", limits.MODES,
                          default=limits.MODES[0]),
            "explain": _boolean("true: each hit also carries `explain`, where its score comes from "
                                "(cosine and BM25, raw and scaled to 0-1 over this query's candidates, "
                                "the lift of a named subject or time, fused, and the recency and stale "
                                "factors)."),
            "as_of": _string("When the question is asked, for its relative dates ('10 days ago', 'last "
                             "week'): an ISO date or date-time such as 2026-10-02 or 2026-10-02T15:00:00Z "
                             "(UTC unless it says otherwise). Omitted: now."),
            "namespace": NAMESPACE,
        }),
        "memorize": _verb({
            "text": _string(f"The fact, self-contained (at most {limits.MAX_TEXT_BYTES} bytes); a leading "
                            "`@name` stores it in that discipline.", minLength=1,
                            maxBytes=limits.MAX_TEXT_BYTES),
            "namespace": NAMESPACE,
            "supersedes": _array("Ids of memories this fact replaces (of the same store): recall then shows "
                                 "only the new one. An unknown id stores nothing and says so.", MEMORY_ID,
                                 lookup.MAX_IDS),
        }, ["text"]),
        "list_memories": _verb({
            "namespace": {**NAMESPACE, "description": "The store to list: `default` (the default) or a "
                          "discipline name."},
            "limit": _integer(f"At most this many memories (default {listing.DEFAULT_PAGE}).", 1,
                              listing.MAX_PAGE, default=listing.DEFAULT_PAGE),
            "cursor": _string("The `next` of the previous page.", pattern=listing.CURSOR_RE.pattern),
            "query": _string(f"Only memories whose text contains this, case-insensitive (at most "
                             f"{listing.MAX_QUERY_BYTES} bytes).", maxBytes=listing.MAX_QUERY_BYTES),
            "include": _array("Also list these hidden memories.",
                              _enum("A kind of hidden memory.", listing.INCLUDE)),
            "stale": _boolean("Only memories whose cited project files changed since they were stored."),
            "quarantined": _boolean("Only memories held back from the agent because they read as "
                                    "instructions (a person approves them)."),
        }),
        "get_memory": _verb({"id": MEMORY_ID, "namespace": STORE}, ["id"]),
        "forget": _verb({
            "ids": _array("The ids of the memories to forget.", MEMORY_ID, lookup.MAX_IDS),
            "reason": _string(f"Why (at most {tombstones.MAX_REASON_BYTES} bytes), kept with the tombstone.",
                              minLength=1, maxBytes=tombstones.MAX_REASON_BYTES),
            "namespace": STORE,
        }, ["ids"]),
        "learn": _verb({
            "memory": _string("Durable, self-contained lesson to remember: what, when, and why.",
                              minLength=1),
            "context": _string("Source context for the lesson."),
            "skill": skill,
        }, ["memory"]),
        "archive": _verb({
            "content": _string(f"The block, verbatim (at most {archive.MAX_CONTENT_BYTES} bytes).",
                               maxBytes=archive.MAX_CONTENT_BYTES),
            "label": _string("A one-line title; omit it to use the block's first line."),
            "namespace": NAMESPACE,
        }, ["content"]),
        "recall_search": _verb({
            "query": _string(f"Keywords (at most {archive.MAX_QUERY_BYTES} bytes); words of one letter are "
                             "ignored.", minLength=1, maxBytes=archive.MAX_QUERY_BYTES),
            "limit": _integer(f"At most this many blocks (0 or omitted: the default, "
                              f"{archive_search.DEFAULT_LIMIT}).", 0, archive_search.MAX_LIMIT,
                              default=archive_search.DEFAULT_LIMIT),
            "namespace": NAMESPACE,
        }, ["query"]),
        "auto_recall": _budget(memory, "recalled context"),
        "session_start": _budget(learn, "skill list"),
        "capture_context": _budget(capture, "session context"),
    }


def _structured_verbs() -> dict[str, dict[str, Any]]:
    checklist = _structured(shapes.FIELDS["checklist"], "checklist")
    item = _structured(tree.ITEM_FIELDS, "item")
    items = {"type": "array", "description": "Items, each with the same fields", "recursive": True,
             "items": {"type": "object", "properties": item, "required": ["title"]}}
    return {
        "create_checklist": _verb({**checklist, "items": items}, ["title"]),
        "update_checklist": _verb(
            _clearable({"id": _record_id("checklist"), "version": VERSION, **checklist}), ["id"]),
        "add_checklist_item": _verb({**_structured(("checklistId", "checklistVersion", "parentId")), **item},
                                    ["checklistId", "title"]),
        "update_checklist_item": _verb(
            _clearable({**_structured(("checklistId", "itemId", "version", "checklistVersion", "parentId")),
                        **item}), ["checklistId", "itemId"]),
        **{f"create_{kind}": _verb(_structured(shapes.FIELDS[kind], kind),
                                   ["content" if kind == "session_note" else "title"])
           for kind in ("todo", "session_note")},
        **{f"update_{kind}": _verb(_clearable({"id": _record_id(kind), "version": VERSION,
                                               **_structured(shapes.FIELDS[kind], kind)}), ["id"])
           for kind in ("todo", "session_note")},
        "get_record": _verb({"id": STRUCTURED["id"]}, ["id"]),
        "query_records": _verb(_structured(shapes.QUERY_FIELDS)),
        "retrieve_memory": _verb(_structured((*shapes.QUERY_FIELDS, "maxTokens"))),
        "delete_record": _verb({
            "id": _string("The record id (`cl-`, `td-`, `nt-`), or a checklist item id (`it-`) with "
                          "checklistId."),
            "hard": STRUCTURED["hard"],
            "version": VERSION,
            "checklistId": {**STRUCTURED["checklistId"],
                            "description": "The checklist of an item id (`it-`)."},
        }, ["id"]),
    }


# Each tool verb's title and help: what an agent reads to choose it (the MCP tool's title and description).
HELP: dict[str, tuple[str, str]] = {
    "recall": ("Recall memories",
         "Search this project's long-term memory before answering a question about the project, its "
         "conventions or earlier decisions, or before redoing work that may have been done. Give `query` "
         "in plain words; returns the best-matching memories (id, text, score, namespace), best first, or "
         "an empty list: memories with no evidence for the query are left out. A score orders one answer "
         "(0.25 x meaning + 0.75 x shared words, each scaled over this query's candidates); it does not "
         "compare across queries. Give `id` (e.g. `r7`) instead to bring back an archived block verbatim."),
    "memorize": ("Memorize a fact",
         "Store one durable, self-contained fact about this project (a convention, a decision, a gotcha) "
         "so that later sessions can recall it. Storing the same text again stores nothing. Returns the "
         "memory's id, its namespace and whether it was already stored. When the answer lists `similar` "
         'memories (same subject, different content), read them: if the new fact replaces one ("we '
         'switched from npm to pnpm"), call memorize again with the same text and `supersedes: [its id]`, '
         "so recall shows only the new one; if both stay true, do nothing. Nothing is superseded "
         "automatically. Pass `supersedes` directly when you already know the ids of the facts this one "
         "corrects."),
    "list_memories": ("List stored memories",
         "Page through what this project remembers, newest first, to review it or to find a memory to "
         "correct: each item has its id, text, time and, when they apply, `superseded_by`, `supersedes`, "
         "`stale` (cited files changed since), `quarantined` (held back until a person approves it) and "
         "`forgotten`. `query` filters by a case-insensitive substring (use `recall` to search by "
         "meaning); pass the answer's `next` as `cursor` for the following page; `include` shows "
         "forgotten or superseded memories too."),
    "get_memory": ("Get a memory",
         "Read one memory by id (`mem-…`): its text, time, supersede links, the project files it names "
         "and whether they changed since (`stale`), or when and why it was forgotten."),
    "forget": ("Forget memories",
         "Forget memories that are wrong or obsolete, by id (from `recall` or `list_memories`), with a "
         "short `reason`. A forgotten memory is never recalled or injected again, and the decision "
         "survives git merges and imports; memorizing the same text later brings it back. Prefer "
         "`memorize` with `supersedes` when a new fact replaces an old one. Returns the ids forgotten and "
         "the ids not found."),
    "learn": ("Learn a lesson",
         "Capture a reusable lesson (what, when, and why) into long-term memory, and optionally create or "
         "update a managed skill (a SKILL.md for a repeatable procedure) in the same call. Use it "
         "sparingly: one precise lesson beats several vague ones; put `skill` only on repeatable "
         "procedures. Returns what was stored; an authored skill of the same name wins, which is reported "
         "as an error after the lesson is stored."),
    "archive": ("Archive a block verbatim",
         "Before summarising or dropping a big block of context (a file, a page, a diff, a log), archive "
         "it verbatim under a short id such as `r7` and cite that id in your summary. Returns the id; "
         "`recall` with that `id` brings the block back byte for byte."),
    "recall_search": ("Search archived blocks",
         "Find archived blocks by keywords when you do not have their id (for instance an `r` id that "
         "fell out of the summary). Returns matching blocks, best first, each with its id, label and a "
         "one-line excerpt; then `recall` with the id brings a block back verbatim."),
    "create_checklist": ("Create a checklist",
         "Start a checklist for a multi-step task that must survive restarts and long sessions (items may "
         "nest). Returns the checklist with its id (`cl-<n>`), version and item ids (`it-<n>`)."),
    "update_checklist": ("Update a checklist",
         "Change a checklist's title, description, tags, due date or status (open, done, archived). Pass "
         "the `version` you read to avoid overwriting someone else's change. Returns the checklist."),
    "add_checklist_item": ("Add a checklist item",
         "Add an item to a checklist, at the top level or under `parentId`. Returns the new item and the "
         "checklist with its new version."),
    "update_checklist_item": ("Update a checklist item",
         "Tick off or change an item: status (pending, in_progress, done, skipped), title, tags, due "
         "date, position or parent. Returns the item and the checklist."),
    "create_todo": ("Create a todo",
         "Record a follow-up that must not be forgotten across sessions, with a priority (0-5) and an "
         "optional due date. Returns the todo with its id (`td-<n>`)."),
    "update_todo": ("Update a todo",
         "Change a todo: status (pending, in_progress, done, cancelled, archived), priority, title, "
         "description, tags or due date. Returns the todo."),
    "create_session_note": ("Write a session note",
         "Write down a finding, a decision or some context worth keeping for later in this project "
         "(importance 0-1). Notes are found by words and by meaning. Returns the note with its id "
         "(`nt-<n>`)."),
    "update_session_note": ("Update a session note",
         "Change a session note's content, title, importance, tags or status (active, archived). Returns "
         "the note."),
    "query_records": ("Search checklists, todos and notes",
         "Find checklists, todos and session notes by words, kind, status or tags; without a query, the "
         "newest first. Returns ranked hits, each with its record."),
    "retrieve_memory": ("Brief me from structured memory",
         "Get the checklists, todos and notes relevant to a question as compact Markdown within a token "
         "budget: what is open, what is done, what was noted. Use it when resuming a task."),
    "get_record": ("Get a record",
         "Read one checklist, todo or session note by id (`cl-`, `td-`, `nt-`), with its version. Returns "
         "the record."),
    "delete_record": ("Delete a record",
         "Delete a checklist, todo or session note (soft by default: hidden at once, purged later; `hard: "
         "true` removes it now), or a checklist item with its sub-items. Returns what was deleted."),
}


VERBS: dict[str, dict[str, Any]] = {
    name: {**({"title": HELP[name][0], "help": HELP[name][1]} if name in HELP else {}), **verb}
    for name, verb in {**_memory_verbs(), **_structured_verbs()}.items()
}
