"""Datetime text: formatting and parsing with MATLAB's datetime format
letters (Unicode LDML: ``yyyy MM MMM dd HH mm ss SSS eeee a``...).

A datetime is a float of milliseconds since 1-Jan-1970 00:00:00 (no time
zone); NaN is NaT. Calendar fields come from exact integer arithmetic on
microseconds, with the proleptic Gregorian calendar of serial date numbers.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._datetime_text import (
    MONTHS,
    WEEKDAYS,
    civil_from_serial_day,
    serial_day_from_civil,
)

MS_PER_DAY = 86_400_000
EPOCH_SERIAL_DAY = 719_529          # serial day (datenum) of 1-Jan-1970
DEFAULT_FORMAT = "dd-MMM-uuuu HH:mm:ss"
DEFAULT_DATE_FORMAT = "dd-MMM-uuuu"
# Sunday first, as MATLAB's weekday numbers (1 = Sunday).
_DAY_NAMES = ("Sunday",) + WEEKDAYS[:6]

_TOKEN = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|.", re.S)


class Fields(NamedTuple):
    """Calendar fields of one datetime."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    microsecond: int
    weekday: int        # 1 = Sunday ... 7 = Saturday
    day_of_year: int


def fields_of(ms: float) -> Fields:
    """The calendar fields of a finite datetime (ms since 1970)."""
    micro = round(ms * 1000)
    day, rest = divmod(micro, MS_PER_DAY * 1000)
    serial = day + EPOCH_SERIAL_DAY
    civil = civil_from_serial_day(serial)
    secs, micro_part = divmod(rest, 1_000_000)
    hour, rem = divmod(secs, 3600)
    minute, second = divmod(rem, 60)
    weekday = (serial + 5) % 7 + 1
    doy = serial - serial_day_from_civil(civil.year, 1, 1) + 1
    return Fields(civil.year, civil.month, civil.day, hour, minute, second, micro_part,
                  weekday, doy)


def ms_from_fields(year: float, month: float, day: float, hour: float = 0.0,
                   minute: float = 0.0, second: float = 0.0) -> float:
    """Milliseconds since 1970 of a date and time; months and days out of
    range carry over as MATLAB's ``datetime(Y,M,D,...)`` does; NaN in, NaT out."""
    values = (year, month, day, hour, minute, second)
    if any(math.isnan(v) for v in values) or any(math.isinf(v) for v in values):
        return float("nan")
    whole_month = math.floor(month)
    y = int(math.floor(year)) + (whole_month - 1) // 12
    m = (whole_month - 1) % 12 + 1
    serial = serial_day_from_civil(y, m, 1)
    days = serial - EPOCH_SERIAL_DAY + (day - 1)
    return days * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000


def tokens(fmt: str) -> list[tuple[str, str]]:
    """``fmt`` as (kind, text) pairs: ``field`` runs of one letter, ``literal`` text."""
    out = []
    for match in _TOKEN.finditer(fmt):
        text = match.group(0)
        if text.startswith("'"):
            out.append(("literal", text[1:-1].replace("''", "'") if len(text) > 1 else ""))
        elif match.group(1):
            out.append(("field", text))
        else:
            out.append(("literal", text))
    return out


def format_datetime(ms: float, fmt: str) -> str:
    """One datetime as text in format ``fmt`` (``NaT`` for NaN)."""
    if math.isnan(ms):
        return "NaT"
    if math.isinf(ms):
        return "Inf" if ms > 0 else "-Inf"
    f = fields_of(ms)
    parts = []
    for kind, text in tokens(fmt):
        parts.append(text if kind == "literal" else _field_text(f, text))
    return "".join(parts)


def _field_text(f: Fields, token: str) -> str:
    letter, n = token[0], len(token)
    if letter in "yu":
        if n == 2:
            return f"{f.year % 100:02d}"
        return f"{f.year:0{n}d}" if f.year >= 0 else f"-{-f.year:0{n}d}"
    if letter in "ML":
        if n >= 4:
            return MONTHS[f.month - 1]
        if n == 3:
            return MONTHS[f.month - 1][:3]
        return f"{f.month:0{n}d}"
    if letter == "d":
        return f"{f.day:0{n}d}"
    if letter == "D":
        return f"{f.day_of_year:0{n}d}"
    if letter in "eEc":
        if letter != "E" and n <= 2:
            return f"{f.weekday:0{n}d}"
        name = _DAY_NAMES[f.weekday - 1]
        return name if n == 4 else name[:2] if n >= 6 else name[0] if n == 5 else name[:3]
    if letter == "H":
        return f"{f.hour:0{n}d}"
    if letter == "h":
        return f"{(f.hour % 12) or 12:0{n}d}"
    if letter == "m":
        return f"{f.minute:0{n}d}"
    if letter == "s":
        return f"{f.second:0{n}d}"
    if letter == "S":
        return f"{f.microsecond:06d}"[:n].ljust(n, "0")
    if letter == "a":
        return "AM" if f.hour < 12 else "PM"
    if letter == "Q":
        quarter = (f.month - 1) // 3 + 1
        return f"Q{quarter}" if n == 3 else f"{quarter:0{n}d}" if n <= 2 else f"{quarter}th quarter"
    if letter == "G":
        return "AD" if f.year > 0 else "BC"
    if letter in "zZxX":
        return ""
    raise MatlabError("MATLAB:datetime:UnsupportedSymbol",
                      f"Unsupported format symbol '{token}'.")


def is_midnight(ms: float) -> bool:
    return math.isnan(ms) or math.isinf(ms) or round(ms * 1000) % (MS_PER_DAY * 1000) == 0


# ------------------------------------------------------------------ parsing
_MONTH_ALTS = "|".join(MONTHS + tuple(m[:3] for m in MONTHS))
_DAY_ALTS = "|".join(WEEKDAYS + tuple(d[:3] for d in WEEKDAYS))


def _field_pattern(token: str) -> str:
    letter, n = token[0], len(token)
    if letter in "yu":
        return r"(?P<y2>\d{2})" if n == 2 else r"(?P<y>[-+]?\d{1,6})"
    if letter in "ML":
        return rf"(?P<mon>{_MONTH_ALTS})" if n >= 3 else r"(?P<M>\d{1,2})"
    if letter == "d":
        return r"(?P<d>\d{1,2})"
    if letter == "D":
        return r"(?P<D>\d{1,3})"
    if letter in "eEc":
        return rf"(?:{_DAY_ALTS})" if letter == "E" or n >= 3 else r"\d{1,2}"
    if letter == "H":
        return r"(?P<H>\d{1,2})"
    if letter == "h":
        return r"(?P<h>\d{1,2})"
    if letter == "m":
        return r"(?P<m>\d{1,2})"
    if letter == "s":
        return r"(?P<s>\d{1,2})"
    if letter == "S":
        return r"(?P<S>\d{1,9})"
    if letter == "a":
        return r"(?P<a>AM|PM|am|pm)"
    if letter in "zZxX":
        return r"(?:Z|[-+]\d{2}:?\d{2}|[A-Za-z_/]+)?"
    raise MatlabError("MATLAB:datetime:UnsupportedSymbol",
                      f"Unsupported format symbol '{token}'.")


_PATTERNS: dict[str, re.Pattern] = {}


def _compiled(fmt: str) -> re.Pattern:
    pattern = _PATTERNS.get(fmt)
    if pattern is None:
        parts = []
        for kind, text in tokens(fmt):
            if kind == "field":
                parts.append(_field_pattern(text))
            elif text.isspace():
                parts.append(r"\s+")
            else:
                parts.append(re.escape(text))
        pattern = re.compile(r"\s*" + "".join(parts) + r"\s*", re.I)
        _PATTERNS[fmt] = pattern
    return pattern


def parse_datetime(text: str, fmt: str, pivot_year: int) -> float | None:
    """``text`` read with format ``fmt`` (ms since 1970), None when it does not match."""
    match = _compiled(fmt).fullmatch(text)
    if match is None:
        return None
    g = match.groupdict()
    if g.get("y2") is not None:
        two = int(g["y2"])
        year = pivot_year - pivot_year % 100 + two
        if year < pivot_year:
            year += 100
    else:
        year = int(g["y"]) if g.get("y") is not None else 1970 if g.get("D") is None else 1970
    if g.get("mon") is not None:
        month = next(k + 1 for k, name in enumerate(MONTHS)
                     if name.lower().startswith(g["mon"].lower()[:3]))
    else:
        month = int(g["M"]) if g.get("M") is not None else 1
    day = int(g["d"]) if g.get("d") is not None else 1
    if g.get("D") is not None:
        day = int(g["D"])
        month = 1
    hour = int(g["H"]) if g.get("H") is not None else 0
    if g.get("h") is not None:
        hour = int(g["h"]) % 12
    if g.get("a") is not None and g["a"].upper() == "PM" and hour < 12:
        hour += 12
    minute = int(g["m"]) if g.get("m") is not None else 0
    second = float(g["s"]) if g.get("s") is not None else 0.0
    if g.get("S") is not None:
        second += int(g["S"]) / 10 ** len(g["S"])
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
        return None
    if g.get("D") is None and day > _days_in_month(year, month):
        return None
    return ms_from_fields(year, month, day, hour, minute, second)


def _days_in_month(year: int, month: int) -> int:
    nxt = serial_day_from_civil(year + month // 12, month % 12 + 1, 1)
    return nxt - serial_day_from_civil(year, month, 1)


# Formats tried, in order, for text given without an InputFormat.
GUESSED_FORMATS = (
    "dd-MMM-uuuu HH:mm:ss", "dd-MMM-uuuu HH:mm:ss.SSS", "dd-MMM-uuuu HH:mm", "dd-MMM-uuuu",
    "uuuu-MM-dd HH:mm:ss", "uuuu-MM-dd HH:mm:ss.SSS", "uuuu-MM-dd HH:mm",
    "uuuu-MM-dd'T'HH:mm:ss", "uuuu-MM-dd'T'HH:mm:ss.SSS", "uuuu-MM-dd",
    "MM/dd/uuuu HH:mm:ss", "MM/dd/uuuu HH:mm", "MM/dd/uuuu", "uuuu/MM/dd HH:mm:ss",
    "uuuu/MM/dd", "dd.MM.uuuu HH:mm:ss", "dd.MM.uuuu", "MMMM d, uuuu HH:mm:ss",
    "MMMM d, uuuu", "MMM d, uuuu", "dd MMM uuuu HH:mm:ss", "dd MMM uuuu", "MM/dd/yy",
)


def guess_format(text: str, pivot_year: int) -> str | None:
    """The first of :data:`GUESSED_FORMATS` that reads ``text``."""
    for fmt in GUESSED_FORMATS:
        if parse_datetime(text, fmt, pivot_year) is not None:
            return fmt
    return None


# ------------------------------------------------------- whole-array versions
def field_arrays(ms: np.ndarray) -> dict[str, np.ndarray]:
    """Calendar fields of every element (float arrays, NaN where NaT/Inf):
    the days-to-civil algorithm on int64 arrays."""
    finite = np.isfinite(ms)
    micro = np.where(finite, np.round(np.where(finite, ms, 0.0) * 1000), 0).astype(np.int64)
    day, rest = np.divmod(micro, MS_PER_DAY * 1000)
    serial = day + EPOCH_SERIAL_DAY
    z = serial - 61
    era = np.floor_divide(z, 146097)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day_of_month = doy - (153 * mp + 2) // 5 + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    secs, micro_part = np.divmod(rest, 1_000_000)
    out = {
        "Year": year, "Month": month, "Day": day_of_month, "Hour": secs // 3600,
        "Minute": (secs // 60) % 60, "Second": secs % 60 + micro_part / 1e6,
        "Weekday": (serial + 5) % 7 + 1,
        "DayOfYear": np.where(month <= 2, doy - 305, doy + 60)
        + np.where((month > 2) & _leap(year), 1, 0),
    }
    return {k: np.where(finite, v.astype(np.float64), np.nan) for k, v in out.items()}


def _leap(year: np.ndarray) -> np.ndarray:
    return ((year % 4 == 0) & (year % 100 != 0)) | (year % 400 == 0)


def ms_from_field_arrays(year: np.ndarray, month: np.ndarray, day: np.ndarray,
                         hour: np.ndarray, minute: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Elementwise :func:`ms_from_fields` on broadcast float arrays."""
    bad = ~(np.isfinite(year) & np.isfinite(month) & np.isfinite(day) & np.isfinite(hour)
            & np.isfinite(minute) & np.isfinite(second))
    y0 = np.where(bad, 1970, np.floor(year)).astype(np.int64)
    m0 = np.where(bad, 1, np.floor(month)).astype(np.int64)
    y = y0 + np.floor_divide(m0 - 1, 12)
    m = np.mod(m0 - 1, 12) + 1
    yy = y - (m <= 2)
    era = np.floor_divide(yy, 400)
    yoe = yy - era * 400
    mp = np.where(m > 2, m - 3, m + 9)
    doy = (153 * mp + 2) // 5
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    serial = era * 146097 + doe + 61
    days = (serial - EPOCH_SERIAL_DAY).astype(np.float64) + (np.where(bad, 1, day) - 1)
    ms = days * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000
    return np.where(bad, np.nan, ms)
