"""Calendar arithmetic on epoch milliseconds, in UTC: days, months, ISO dates, date facets.

The guest has no time zone: a memory's date is the UTC date of its ``ts``. Pure integer arithmetic
(Howard Hinnant's civil-date algorithms), the same on both targets and for any year.

A memory of a store of terms version 2 carries three *date facet* terms in the keyword index
(:func:`facets`): ``~2026-10-02`` (its day), ``~2026-10`` (its month) and ``~2026`` (its year). A
window of whole days is covered by the fewest of them (:func:`cover`): a whole year by its year
term, a whole month by its month term, the rest day by day.
"""

from __future__ import annotations

import re

DAY_MS = 86_400_000
DATE_MARK = "~"


def month_days(year: int, month: int) -> int:
    """How many days ``month`` of ``year`` has."""
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """``(year, month, day)`` of a day number (days since 1970-01-01)."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def day_of(ts_ms: int) -> int:
    """The day number of an epoch-milliseconds time."""
    return ts_ms // DAY_MS


def iso_date(ts_ms: int) -> str:
    """``YYYY-MM-DD`` of an epoch-milliseconds time."""
    year, month, day = civil_from_days(day_of(ts_ms))
    return f"{year:04d}-{month:02d}-{day:02d}"


def weekday(days: int) -> int:
    """Monday 0 ... Sunday 6 of a day number (1970-01-01 was a Thursday)."""
    return (days + 3) % 7


def facets(ts_ms: int) -> list[str]:
    """The date facet terms of a memory stored at ``ts_ms``: its day, month and year."""
    year, month, day = civil_from_days(day_of(ts_ms))
    return [f"{DATE_MARK}{year:04d}-{month:02d}-{day:02d}", f"{DATE_MARK}{year:04d}-{month:02d}",
            f"{DATE_MARK}{year:04d}"]


def cover(first: int, end: int, most: int) -> list[str] | None:
    """The facet terms whose days are exactly days ``first`` to ``end - 1``; ``None`` past ``most`` terms."""
    out: list[str] = []
    day = first
    while day < end:
        year, month, mday = civil_from_days(day)
        if month == 1 and mday == 1 and days_from_civil(year + 1, 1, 1) <= end:
            out.append(f"{DATE_MARK}{year:04d}")
            day = days_from_civil(year + 1, 1, 1)
        elif mday == 1 and day + month_days(year, month) <= end:
            out.append(f"{DATE_MARK}{year:04d}-{month:02d}")
            day += month_days(year, month)
        else:
            out.append(f"{DATE_MARK}{year:04d}-{month:02d}-{mday:02d}")
            day += 1
        if len(out) > most:
            return None
    return out


LAST_MS = days_from_civil(10_000, 1, 1) * DAY_MS - 1  # 9999-12-31T23:59:59.999Z
ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"  # a date, then optionally a time and an offset (none: UTC)
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?"
)


def parse_iso(text: str) -> int | None:
    """Epoch milliseconds of an ISO 8601 date or date-time (``2026-10-02``, ``2026-10-02T15:00Z``).

    A date alone is its first millisecond, UTC; a time without an offset is UTC. ``None`` for
    anything else, an impossible date or time included, and for a time before 1970.
    """
    match = ISO.fullmatch(text.strip())
    if match is None:
        return None
    year, month, day = (int(g) for g in match.group(1, 2, 3))
    hour, minute, second = (int(g or 0) for g in match.group(4, 5, 6))
    if not (1 <= month <= 12 and 1 <= day <= month_days(year, month) and hour < 24 and minute < 60
            and second < 60):
        return None
    millis = int((match.group(7) or "0")[:3].ljust(3, "0"))
    offset = 0
    zone = match.group(8)
    if zone and zone != "Z":
        hours, minutes = int(zone[1:3]), int(zone[-2:])
        if hours > 23 or minutes > 59:
            return None
        offset = (hours * 60 + minutes) * (1 if zone[0] == "+" else -1)
    ms = (days_from_civil(year, month, day) * 86_400 + hour * 3600 + (minute - offset) * 60 + second) * 1000
    ms += millis
    return ms if 0 <= ms <= LAST_MS else None
