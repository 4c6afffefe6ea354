"""Time expressions in a query: the window of days it asks about, and whether it asks *when*.

:func:`window` reads the first time expression of a query (English) as a window of whole UTC days,
``[first, end)`` in day numbers, resolved against ``now`` (``host.now_ms()``):

* dates: ``2026-10-02``, ``2 October 2026``, ``October 2, 2026``, ``the 2nd of October`` (a date
  without a year is its last occurrence up to today), a month ``in May`` / ``May 2026`` / ``last
  May``, a year ``in 2025``;
* relative days: ``today``, ``tonight``, ``this morning``, ``yesterday``, ``last night``, ``the day
  before yesterday``, ``this`` / ``last week`` (weeks start on Monday), ``this`` / ``last weekend``,
  ``this`` / ``last month``, ``this`` / ``last year``, ``3 days ago`` (a week ago: that day, give or
  take one), ``in the last 10 days`` / ``past two weeks`` (up to today);
* ``since <date>`` or ``after <date>``: from that date up to today.

A bare month name needs a preposition, a day or a year (``in May``, ``May 2``, ``May 2026``), and
``may`` next to a number only counts in capitals, so that the verb "may" is not a month. Of two
expressions that overlap (``in May 2022``) the more specific wins. :func:`asks_when` tells a
question about *when* something happened ("when did", "what date"): the hook then shows every
hit's date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from guest.strings.dates import DAY_MS, civil_from_days, days_from_civil, month_days, weekday

MONTHS = {
    name: n + 1
    for n, names in enumerate(
        ("january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
         "august aug", "september sep sept", "october oct", "november nov", "december dec")
    )
    for name in names.split()
}
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "few": 3, "couple": 2}
UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december|" \
        r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
YEAR = r"((?:19|20|21)\d\d)"
COUNT = r"(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple)"
FLAGS = re.IGNORECASE
SOURCES: tuple[tuple[str, str], ...] = (
    ("iso", r"\b((?:19|20|21)\d\d)-(\d{1,2})-(\d{1,2})\b"),
    ("day month year", rf"\b{DAY}(?:\s+of)?\s+{MONTH},?\s+{YEAR}\b"),
    ("month day year", rf"\b{MONTH}\s+{DAY}(?:,\s*|\s+){YEAR}\b"),
    ("day month", rf"\b{DAY}(?:\s+of)?\s+{MONTH}\b"),
    ("month day", rf"\b{MONTH}\s+{DAY}\b(?!\s*(?::|[ap]\.?m\b))"),
    ("month year", rf"\b{MONTH},?\s+{YEAR}\b"),
    ("month", rf"\b(in|during|of|since|last|this|early|late|mid)[\s-]+{MONTH}\b"),
    ("year", rf"\b(?:in|during|of|since)\s+{YEAR}\b"),
    ("ago", rf"\b{COUNT}\s+(day|week|month|year)s?\s+ago\b"),
    ("past", rf"\b(?:last|past|previous)\s+{COUNT}\s+(day|week|month|year)s?\b"),
    ("relative", r"\b(the\s+day\s+before\s+yesterday|yesterday|today|tonight|this\s+morning|"
                 r"this\s+afternoon|this\s+evening|last\s+night|(?:this|last)\s+(?:weekend|week|month|year))\b"),
)
PATTERNS = tuple((kind, re.compile(pattern, FLAGS)) for kind, pattern in SOURCES)
SINCE = re.compile(r"\b(?:since|after)\s+$", FLAGS)
WHEN = re.compile(r"^\W*when\b|\bwhen\s+(?:did|was|were|is|do|does|have|has|had|will)\b|"
                  r"\bwhat\s+(?:date|day|time|year|month)\b|\bhow\s+long\s+ago\b", FLAGS)


@dataclass(frozen=True)
class Window:
    """Days ``first`` to ``end - 1`` (day numbers, UTC)."""

    first: int
    end: int

    def holds(self, ts_ms: int) -> bool:
        """Whether a time falls in the window."""
        return self.first * DAY_MS <= ts_ms < self.end * DAY_MS


def asks_when(query: str) -> bool:
    """Whether ``query`` asks when something happened."""
    return WHEN.search(query) is not None


def window(query: str, now_ms: int) -> Window | None:
    """The window of days the first time expression of ``query`` names, or ``None``."""
    today = now_ms // DAY_MS
    found: list[tuple[str, re.Match[str]]] = []
    for kind, pattern in PATTERNS:  # in priority order: the most specific first
        for match in pattern.finditer(query):
            if kind in ("day month", "month day") and match.group(2 if kind == "day month" else 1) == "may":
                continue  # "may" in lower case next to a number: the verb ("you may 2x it")
            found.append((kind, match))
            break
    if not found:
        return None
    first = min(match.start() for _, match in found)
    end = min(match.end() for _, match in found if match.start() == first)
    # the expression that starts first; of those that overlap it, the most specific
    kind, match = next((k, m) for k, m in found if m.start() < end)
    span = _resolve(kind, match, today)
    if span is None or span.end <= span.first:
        return None
    since = SINCE.search(query[: match.start()]) or match.group(0).lower().startswith("since")
    if since and span.first <= today:
        return Window(span.first, today + 1)
    return span


def _resolve(kind: str, match: re.Match[str], today: int) -> Window | None:
    """The days one matched expression names."""
    g = match.groups()
    year, month, _ = civil_from_days(today)
    if kind == "iso":
        return _date(int(g[0]), int(g[1]), int(g[2]))
    if kind == "day month year":
        return _date(int(g[2]), MONTHS[g[1].lower()], int(g[0]))
    if kind == "month day year":
        return _date(int(g[2]), MONTHS[g[0].lower()], int(g[1]))
    if kind in ("day month", "month day"):
        day, name = (g[0], g[1]) if kind == "day month" else (g[1], g[0])
        wanted = MONTHS[name.lower()]
        found = _date(year, wanted, int(day))
        if found is not None and found.first > today:
            found = _date(year - 1, wanted, int(day))
        return found
    if kind == "month year":
        return _month(int(g[1]), MONTHS[g[0].lower()])
    if kind == "month":
        wanted = MONTHS[g[1].lower()]
        if g[0].lower() == "this":
            return _month(year, wanted)
        return _month(year if wanted < month or (wanted == month and g[0].lower() != "last") else year - 1,
                      wanted)
    if kind == "year":
        return Window(days_from_civil(int(g[0]), 1, 1), days_from_civil(int(g[0]) + 1, 1, 1))
    if kind == "relative":
        return _relative(" ".join(g[0].lower().split()), today)
    count = NUMBERS.get(g[0].lower()) or int(g[0])
    unit = UNIT_DAYS[g[1].lower()]
    if kind == "ago":
        middle = today - count * unit
        slack = max(1, unit // 7)  # a day either side of "3 days ago", a week of "2 months ago"
        return Window(middle - slack, middle + slack + 1)
    return Window(today - count * unit, today + 1)  # "past": up to today


def _relative(phrase: str, today: int) -> Window | None:
    """``yesterday``, ``last week`` ... relative to ``today``."""
    year, month, _ = civil_from_days(today)
    monday = today - weekday(today)
    spans = {
        "the day before yesterday": (today - 2, today - 1),
        "yesterday": (today - 1, today), "last night": (today - 1, today + 1),
        "this week": (monday, today + 1), "last week": (monday - 7, monday),
        "this weekend": (monday + 5, monday + 7), "last weekend": (monday - 2, monday),
        "this year": (days_from_civil(year, 1, 1), today + 1),
        "last year": (days_from_civil(year - 1, 1, 1), days_from_civil(year, 1, 1)),
    }
    if phrase in spans:
        return Window(*spans[phrase])
    if phrase == "this month":
        return Window(days_from_civil(year, month, 1), today + 1)
    if phrase == "last month":
        return _month(year if month > 1 else year - 1, month - 1 if month > 1 else 12)
    return Window(today, today + 1)  # today, tonight, this morning / afternoon / evening


def _date(year: int, month: int, day: int) -> Window | None:
    if not (1 <= month <= 12 and 1 <= day <= month_days(year, month)):
        return None
    first = days_from_civil(year, month, day)
    return Window(first, first + 1)


def _month(year: int, month: int) -> Window:
    first = days_from_civil(year, month, 1)
    return Window(first, first + month_days(year, month))
