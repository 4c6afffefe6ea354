"""Merging the verbatim archive: blocks by sequence number, collisions renumbered, aliases kept.

Blocks never change, so a key (``r<seq>``) that differs between the branches is either a block
only one side has -- added (or deleted, when the other side still has the base's) -- or a number
*both* branches handed out to different blocks after they split. Then (``docs/decisions.md`` D58)
the block archived first (smaller ``ts``, then smaller stored bytes) keeps the number and the
other gets a new one after every number either side used, in order of the old numbers; the move
is recorded in ``archive-alias`` (old number -> new numbers), so ``archive_recall r7`` answers the
block that kept ``r7`` and names the one that moved. Alias lists of the side whose block moved are
rewritten to its new number, then both sides' lists are united. Finally the sequence counter is
the largest number used and the search index is rebuilt from ours' entries and the new blocks.
"""

from __future__ import annotations

import math

from guest.archive.search import entry_of
from guest.archive.store import Archive, decode_aliases, decode_block, format_id, renumbered
from guest.git.sides import Report, Sides, take
from guest.host import Host

BLOCKS = "archive"
ALIASES = "archive-alias"
OWNED = (BLOCKS, ALIASES, "archive-index", "archive-meta")
STORE = "default"


def owns(bucket: str) -> bool:
    """Whether ``bucket`` belongs to the archive."""
    return bucket in OWNED


def merge(host: Host, sides: Sides, report: Report) -> None:
    """Merge theirs' archive into ours."""
    changed = sides.changed(BLOCKS)
    if not changed and not sides.changed(ALIASES):
        return
    store = Archive(host, STORE)
    fresh: dict[int, bytes] = {}  # seq -> the record to store there (b"": none)
    moves: list[tuple[int, bytes, str]] = []  # (old seq, record, side it comes from)
    for key, state in changed.items():
        seq, winner = int(key), take(state)
        ours, theirs = sides.get("ours", BLOCKS, key), sides.get("theirs", BLOCKS, key)
        if winner == "theirs":
            fresh[seq] = theirs or b""
        elif winner == "ours":
            continue
        elif ours is not None and theirs is not None and not state.base:
            if _order(theirs) < _order(ours):
                fresh[seq] = theirs
                moves.append((seq, ours, "ours"))
            else:
                moves.append((seq, theirs, "theirs"))
        elif ours is None and theirs is not None:
            fresh[seq] = theirs
            report.conflict(f"archive {format_id(seq)}: deleted on ours, changed on theirs; kept theirs")
        else:
            report.conflict(f"archive {format_id(seq)}: changed on both sides; kept ours")
    last = max([store.last_seq(), _counter(sides.get("theirs", "archive-meta", "seq")), *map(int, changed)])
    renames: dict[str, dict[int, int]] = {"ours": {}, "theirs": {}}
    for seq, raw, side in sorted(moves):
        last += 1
        fresh[last] = renumbered(raw, last) or raw
        renames[side][seq] = last
        report.add("archive", "renumbered", {"from": format_id(seq), "to": format_id(last), "side": side})
    for seq, raw in sorted(fresh.items()):
        store.put_raw(seq, raw)
    _merge_aliases(store, sides, renames)
    if last > store.last_seq():
        store.set_last_seq(last)
    entries, locked = store.entries()
    for seq, raw in fresh.items():
        entries.pop(seq, None)
        block = decode_block(raw) if raw else None
        if block is not None:
            entries[seq] = entry_of(block)
    store.reindex(list(entries.values()), locked - set(fresh))
    report.count("archive", "blocks", sum(1 for raw in fresh.values() if raw))


def _merge_aliases(store: Archive, sides: Sides, renames: dict[str, dict[int, int]]) -> None:
    """Unite both sides' alias lists (each rewritten for its moved blocks) and add the new moves."""
    theirs = {int(key): decode_aliases(raw) for key, raw in sides.all("theirs", ALIASES)}
    ours = store.all_aliases()
    merged: dict[int, set[int]] = {}
    for side, aliases in (("ours", ours), ("theirs", theirs)):
        for seq, targets in aliases.items():
            merged.setdefault(seq, set()).update(renames[side].get(t, t) for t in targets)
    for side_renames in renames.values():
        for old, new in side_renames.items():
            merged.setdefault(old, set()).add(new)
    for seq, moved in sorted(merged.items()):
        if sorted(moved) != ours.get(seq):
            store.set_aliases(seq, sorted(moved))


def _order(raw: bytes) -> tuple[float, bytes]:
    """Which of two blocks numbered alike keeps the number: the earlier archived, then the smaller record."""
    block = decode_block(raw)
    return (block.ts if block is not None else math.inf, raw)


def _counter(raw: bytes | None) -> int:
    text = (raw or b"0").decode("ascii", "replace")
    return int(text) if text.isdigit() else 0
