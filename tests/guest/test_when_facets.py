"""The pure parts of issue 29's recall: time expressions, calendar arithmetic, subjects of a text."""

from __future__ import annotations

import datetime

import pytest

from guest.memory import facets
from guest.strings import dates, when

NOW = dates.days_from_civil(2026, 10, 14) * dates.DAY_MS + 15 * 3_600_000  # Wednesday 2026-10-14 15:00


def span(query: str) -> tuple[str, str] | None:
    found = when.window(query, NOW)
    if found is None:
        return None
    return dates.iso_date(found.first * dates.DAY_MS), dates.iso_date((found.end - 1) * dates.DAY_MS)


@pytest.mark.parametrize("query, first, last", [
    ("what did we decide yesterday", "2026-10-13", "2026-10-13"),
    ("the day before yesterday", "2026-10-12", "2026-10-12"),
    ("anything today?", "2026-10-14", "2026-10-14"),
    ("deploy issues last week", "2026-10-05", "2026-10-11"),
    ("this week so far", "2026-10-12", "2026-10-14"),
    ("last weekend", "2026-10-10", "2026-10-11"),
    ("last month", "2026-09-01", "2026-09-30"),
    ("this month", "2026-10-01", "2026-10-14"),
    ("last year", "2025-01-01", "2025-12-31"),
    ("notes from May", None, None),
    ("notes from in May", "2026-05-01", "2026-05-31"),
    ("last May", "2026-05-01", "2026-05-31"),
    ("in December", "2025-12-01", "2025-12-31"),
    ("in May 2022", "2022-05-01", "2022-05-31"),
    ("on 25 February, 2022", "2022-02-25", "2022-02-25"),
    ("February 7, 2022", "2022-02-07", "2022-02-07"),
    ("on December 1,2023", "2023-12-01", "2023-12-01"),
    ("on 8th December, 2023", "2023-12-08", "2023-12-08"),
    ("on the 2nd of October", "2026-10-02", "2026-10-02"),
    ("Oct 20", "2025-10-20", "2025-10-20"),
    ("2026-09-01", "2026-09-01", "2026-09-01"),
    ("in 2025", "2025-01-01", "2025-12-31"),
    ("since 2026-09-01", "2026-09-01", "2026-10-14"),
    ("what changed since May", "2026-05-01", "2026-10-14"),
    ("three days ago", "2026-10-10", "2026-10-12"),
    ("in the last 10 days", "2026-10-04", "2026-10-14"),
    ("you may want this", None, None),
    ("it may 2x the cost", None, None),
    ("On May 2 we shipped", "2026-05-02", "2026-05-02"),
    ("February 30, 2022", None, None),
    ("before the migration", None, None),
])
def test_time_expressions(query, first, last):
    assert span(query) == (None if first is None else (first, last))


def test_when_questions():
    assert when.asks_when("When did Melanie paint a sunrise?")
    assert when.asks_when("what date was the migration")
    assert not when.asks_when("what did we decide about deploys")


def test_calendar_arithmetic_agrees_with_datetime():
    epoch = datetime.date(1970, 1, 1)
    for days in range(-800_000, 800_000, 997):
        year, month, day = dates.civil_from_days(days)
        assert dates.days_from_civil(year, month, day) == days
        if 1 <= year <= 9999:
            assert datetime.date(year, month, day) == epoch + datetime.timedelta(days=days)
            assert dates.weekday(days) == datetime.date(year, month, day).weekday()


def test_a_window_is_covered_by_the_fewest_date_terms():
    first, end = dates.days_from_civil(2022, 12, 30), dates.days_from_civil(2024, 2, 3)
    assert dates.cover(first, end, 40) == ["~2022-12-30", "~2022-12-31", "~2023", "~2024-01", "~2024-02-01",
                                          "~2024-02-02"]
    assert dates.cover(1, 400, 40) is None  # too many terms: not lifted
    assert dates.facets(NOW) == ["~2026-10-14", "~2026-10", "~2026"]


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize("text, subjects", [
    ("Melanie: I painted a sunrise.", ["melanie"]),
    ("Jon Smith: hello", ["jon+smith"]),
    ("Deploy: use ArgoCD for src/retry.py and setup.py", ["deploy", "src/retry.py", "retry.py", "setup.py"]),
    ("Note: the cache is cleared nightly.", []),
    ("returns a tuple of three lists: a, b", []),
    ("10:30 standup moved", []),
    ("see https://example.com/a/b.py and e.g. this", []),
    ("Call `parse_config()` and ``RecallOptions`` or `os.path`",
     ["os.path", "parse_config", "recalloptions"]),
    ("If ``strict`` is ``True`` or `None`, a `str`", []),
])
def test_subjects_of_a_text(text, subjects, version):
    assert facets.subjects(text, version) == subjects


@pytest.mark.parametrize("text, v2, v3", [
    # version 2 had a path extractor of its own; version 3 reads the one freshness reads
    ("and/or TCP/IP docs/api/v2", ["docs/api/v2", "v2"], ["and/or", "tcp/ip", "docs/api/v2"]),
    ("Run bin/run after the Makefile.", [], ["bin/run", "makefile"]),
    ("Edit café/menü.py and ./src/App.tsx:12.", ["café/menü.py", "menü.py", "src/app.tsx", "app.tsx"],
     ["src/app.tsx", "app.tsx"]),
    ("Secrets go in .env, never in config/.env.example.", [],
     [".env", "config/.env.example", ".env.example"]),
])
def test_path_subjects_by_terms_version(text, v2, v3):
    assert facets.subjects(text, 2) == v2
    assert facets.subjects(text, 3) == v3


def test_subjects_a_query_names():
    named = facets.named("What did Melanie's son paint?")
    assert named == ["melanie", "melanie+son", "son", "son+paint", "paint"]
    assert facets.named("how do we deploy src/retry.py?") == ["deploy", "src/retry.py", "retry.py"]
    named = facets.named("what does `parse_config` return")
    assert named == ["parse_config", "parse_config+return", "return"]
