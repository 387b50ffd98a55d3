"""Serial date numbers and MATLAB ``datestr`` formatting.

A serial date number counts days from year 0 (``datenum(2020,7,28)`` is
738000): Python's proleptic ordinal plus 366.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import NamedTuple

from matfuse.errors import MatlabError

DATENUM_OFFSET = 366
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# MATLAB's numbered datestr formats.
NUMBERED_FORMATS = {
    0: "dd-mmm-yyyy HH:MM:SS", 1: "dd-mmm-yyyy", 2: "mm/dd/yy", 3: "mmm", 4: "m", 5: "mm",
    6: "mm/dd", 7: "dd", 8: "ddd", 9: "d", 10: "yyyy", 11: "yy", 12: "mmmyy",
    13: "HH:MM:SS", 14: "HH:MM:SS PM", 15: "HH:MM", 16: "HH:MM PM", 17: "QQ-YY", 18: "QQ",
    19: "dd/mm", 20: "dd/mm/yy", 21: "mmm.dd,yyyy HH:MM:SS", 22: "mmm.dd,yyyy",
    23: "mm/dd/yyyy", 24: "dd/mm/yyyy", 25: "yy/mm/dd", 26: "yyyy/mm/dd", 27: "QQ-YYYY",
    28: "mmmyyyy", 29: "yyyy-mm-dd", 30: "yyyymmddTHHMMSS", 31: "yyyy-mm-dd HH:MM:SS",
}

_TOKENS = re.compile(r"yyyy|YYYY|yy|YY|mmmm|mmm|mm|m|dddd|ddd|dd|d|HH|MM|SS|FFF|AM|PM|QQ")


def datenum_from_datetime(t: _dt.datetime) -> float:
    day = t.date().toordinal() + DATENUM_OFFSET
    secs = t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6
    return day + secs / 86400.0


class CivilDate(NamedTuple):
    """A proleptic Gregorian date of any year (year 0 and negative years
    included, as MATLAB's serial date numbers allow)."""

    year: int
    month: int
    day: int
    serial_day: int

    def weekday(self) -> int:
        """0 for Monday ... 6 for Sunday (serial day 1, 1-Jan-0000, was a Saturday)."""
        return (self.serial_day + 4) % 7


def civil_from_serial_day(serial_day: int) -> CivilDate:
    """The date of an integer serial day (day 1 is 1-Jan-0000), for any
    integer: the days-to-civil algorithm on 400-year eras, exact in Python ints."""
    z = serial_day - 61                      # days since 1-Mar-0000
    era = z // 146097
    doe = z - era * 146097                   # [0, 146096]
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return CivilDate(year, month, day, serial_day)


def serial_day_from_civil(year: int, month: int, day: int) -> int:
    """The serial day of a proleptic Gregorian date of any year (inverse of
    :func:`civil_from_serial_day`)."""
    y = year - (1 if month <= 2 else 0)
    era = y // 400
    yoe = y - era * 400
    mp = month - 3 if month > 2 else month + 9
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe + 61


def datetime_from_datenum(num: float) -> tuple[CivilDate, int]:
    """(date, milliseconds since midnight), rounded to the millisecond."""
    if not math.isfinite(num):
        raise MatlabError("MATLAB:datestr:ConvertDateNumber", "DATESTR failed converting date number to date vector.")
    day = math.floor(num)
    ms = int(round((num - day) * 86400000.0))
    if ms >= 86400000:
        day, ms = day + 1, ms - 86400000
    return civil_from_serial_day(int(day)), ms


def format_datestr(num: float, pattern: int | str) -> str:
    """``datestr(num, pattern)`` for one date number."""
    if isinstance(pattern, int):
        if pattern not in NUMBERED_FORMATS:
            raise MatlabError("MATLAB:datestr:DateNumber", f"Unknown date format number {pattern}.")
        pattern = NUMBERED_FORMATS[pattern]
    day, ms = datetime_from_datenum(num)
    hour, rem = divmod(ms, 3600000)
    minute, rem = divmod(rem, 60000)
    second, milli = divmod(rem, 1000)
    twelve = "AM" in pattern or "PM" in pattern

    def token(m: re.Match) -> str:
        t = m.group(0)
        if t in ("yyyy", "YYYY"):
            return f"{day.year:04d}"
        if t in ("yy", "YY"):
            return f"{day.year % 100:02d}"
        if t == "mmmm":
            return MONTHS[day.month - 1]
        if t == "mmm":
            return MONTHS[day.month - 1][:3]
        if t == "mm":
            return f"{day.month:02d}"
        if t == "m":
            return MONTHS[day.month - 1][0]
        if t == "dddd":
            return WEEKDAYS[day.weekday()]
        if t == "ddd":
            return WEEKDAYS[day.weekday()][:3]
        if t == "dd":
            return f"{day.day:02d}"
        if t == "d":
            return WEEKDAYS[day.weekday()][0]
        if t == "HH":
            if twelve:
                h12 = hour % 12 or 12
                return f"{h12:2d}"
            return f"{hour:02d}"
        if t == "MM":
            return f"{minute:02d}"
        if t == "SS":
            return f"{second:02d}"
        if t == "FFF":
            return f"{milli:03d}"
        if t in ("AM", "PM"):
            return "AM" if hour < 12 else "PM"
        return f"Q{(day.month - 1) // 3 + 1}"

    return _TOKENS.sub(token, pattern)
