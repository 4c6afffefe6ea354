"""The time a query is asked (issue 32.7, issue 35.3): ``as_of`` on ``recall``, ``--as-of``, the MCP tool.

Relative dates ("10 days ago", "last week") are read against the request's ``as_of`` instead of the
host clock, and rank the memories of that window first; a bad ``as_of`` is a clear ``validation:``
error. On both targets (and both stores: the lift reads the store's date facets), through the real
CLI, and through the MCP tool.
"""

from __future__ import annotations

import asyncio
import datetime
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from envelopes import call, ok
from mcp import Client

from guest.strings.dates import DAY_MS, LAST_MS, days_from_civil, parse_iso
from host_harness.cli.main import cli
from host_harness.mcp.server import RsLearnServer
from host_harness.mcp.worker import GuestWorker
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest

pytestmark = pytest.mark.both_stores

NOW = days_from_civil(2026, 10, 14) * DAY_MS + 15 * 3_600_000  # the host clock: 14 October 2026, 15:00
ASKED = days_from_civil(2026, 8, 20) * DAY_MS + 9 * 3_600_000  # when the question was asked
BOUGHT = {
    "I bought a new tent.": ASKED - 10 * DAY_MS,  # 10 days before it was asked
    "I bought a coffee grinder.": NOW - 10 * DAY_MS,  # 10 days before the host clock
    "I bought running shoes.": ASKED - 60 * DAY_MS,
    "Last spring I bought a secondhand bicycle, repainted the frame, replaced the chain and the brakes, "
    "then sold it again to a neighbour.": ASKED - 200 * DAY_MS,
    "The tent poles need a new bag.": ASKED - 30 * DAY_MS,
}
QUESTION = "what did I buy 10 days ago?"


def remember(guest, clock) -> None:
    clock.now_ms = NOW
    for text, ts in BOUGHT.items():
        ok(guest, "memorize", {"text": text, "ts": ts})


def first(guest, **body) -> str:
    return str(ok(guest, "recall", {"query": QUESTION, "limit": 3, **body})[0]["text"])


def test_relative_dates_are_read_from_as_of(guest, clock):
    remember(guest, clock)
    tent, grinder = list(BOUGHT)[:2]
    assert first(guest) == grinder  # against the host clock
    assert first(guest, as_of=ASKED) == tent  # against the time it was asked
    assert first(guest, as_of="2026-08-20") == tent  # an ISO date: that day, UTC
    assert first(guest, as_of="2026-08-20T23:30:00+02:00") == tent
    assert first(guest, as_of=NOW) == grinder
    explained = ok(guest, "recall", {"query": QUESTION, "as_of": ASKED, "explain": True})
    assert [h["explain"]["lift"] for h in explained] == [0.5] + [0.0] * (len(explained) - 1)
    # recency is measured from it too: as of the day asked, the tent is 10 days old
    recent = ok(guest, "recall", {"query": QUESTION, "as_of": ASKED, "recency_weight": 1.0, "explain": True})
    assert recent[0]["text"] == tent
    assert recent[0]["explain"]["recency"] == pytest.approx(1 + 0.5 ** (10 / 30))


@pytest.mark.parametrize("value, error", [
    ("yesterday", "field 'as_of' must be an ISO date or date-time"),
    ("2026-02-30", "field 'as_of' must be an ISO date or date-time"),
    ("2026-10-02T25:00", "field 'as_of' must be an ISO date or date-time"),
    ("1969-12-31", "field 'as_of' must be an ISO date or date-time"),
    (-1, "field 'as_of' must be between 0 and"),
    (LAST_MS + 1, "field 'as_of' must be between 0 and"),
    (True, "field 'as_of' must be an integer, not a boolean"),
    ([2026], "field 'as_of' must be an integer, not an array"),
])
def test_a_bad_as_of_is_refused(guest, value, error):
    ok(guest, "memorize", "I bought a tent.")
    envelope = call(guest, "recall", {"query": QUESTION, "as_of": value})
    assert envelope["ok"] is False and envelope["error"].startswith(f"validation: {error}"), envelope


@pytest.mark.parametrize("text", [
    "2026-10-02", "2026-10-02T15:04", "2026-10-02T15:04:05Z", "2026-10-02 15:04:05.250",
    "2026-10-02T15:04:05.123456+05:30", "2026-10-02T01:00:00-0800", "1970-01-01", "2024-02-29T23:59:59Z",
    "9999-12-31T23:59:59.999Z",
])
def test_iso_times_agree_with_datetime(text):
    parsed = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.UTC)
    want = (parsed - datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)) // datetime.timedelta(milliseconds=1)
    assert parse_iso(text) == want


@pytest.mark.parametrize("text", [
    "", "2026-1-2", "02/10/2026", "2026-10-02T15", "2026-13-01", "2026-10-02T12:60", "2026-10-02T12:00+24:00",
    "2026-10-02x",
])
def test_what_is_not_an_iso_time(text):
    assert parse_iso(text) is None


@pytest.fixture
def run(target: str, project: Path):
    runner = CliRunner()
    base = ["-p", str(project)] + (["--native"] if target == "native" else [])
    return lambda *args: runner.invoke(cli, [*base, *args], catch_exceptions=False)


def test_the_cli_takes_as_of(run):
    for text, ts in BOUGHT.items():
        assert run("memorize", "--ts", str(ts), text).exit_code == 0
    tent = next(iter(BOUGHT))
    for when in ("2026-08-20", "2026-08-20T09:00:00Z", str(ASKED)):
        hits = json.loads(run("recall", QUESTION, "--as-of", when, "--json").stdout)
        assert hits[0]["text"] == tent, when
    shown = run("recall", QUESTION, "--as-of", "2026-08-20", "--explain")
    assert shown.exit_code == 0 and "lift +0.500" in shown.stdout.splitlines()[1]
    bad = run("recall", QUESTION, "--as-of", "last tuesday")
    assert bad.exit_code == 1 and "validation: field 'as_of' must be an ISO date" in bad.output


def test_the_mcp_recall_tool_takes_as_of(target: str, project: Path, clock, request: pytest.FixtureRequest):
    clock.now_ms = NOW
    runtime = request.getfixturevalue("wasm_runtime") if target == "wasm" else None

    def open_guest() -> BaseGuest:  # on the worker thread, like the MCP server's
        services = HostServices(project, clock=clock)
        return NativeGuest(services) if runtime is None else WasmGuest(runtime, services)

    worker = GuestWorker.of(open_guest)

    async def scenario() -> None:
        started = worker.start().services
        async with Client(RsLearnServer(worker, started.project, started.router.memory_config)) as client:
            for text, ts in BOUGHT.items():
                envelope = await worker.dispatch("memorize", {"text": text, "ts": ts})
                assert envelope["ok"], envelope
            asked = await client.call_tool("recall", {"query": QUESTION, "as_of": "2026-08-20"})
            assert asked.is_error is False
            assert asked.structured_content["result"][0]["text"] == next(iter(BOUGHT))
            now = await client.call_tool("recall", {"query": QUESTION})
            assert now.structured_content["result"][0]["text"] == list(BOUGHT)[1]
            bad = await client.call_tool("recall", {"query": QUESTION, "as_of": "soon"})
            assert bad.is_error is True and "field 'as_of' must be an ISO date" in bad.content[0].text

    try:
        asyncio.run(scenario())
    finally:
        worker.close()
