"""Calendar steps between and to datetimes: ``between`` (a calendarDuration
of years, months, days and time) and ``dateshift`` (to the start or end of
a unit of time)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.calendar_duration import CalendarDuration, shift_months
from matfuse.runtime.datetime_array import Datetime, as_datetime
from matfuse.runtime.datetime_format import MS_PER_DAY, fields_of, ms_from_fields
from matfuse.runtime.registry import builtin
from matfuse.runtime.time_arrays import broadcast_pair, text_list
from matfuse.runtime.values import to_str

_COMPONENTS = ("years", "quarters", "months", "weeks", "days", "time")
_UNITS = ("year", "quarter", "month", "week", "day", "hour", "minute", "second")


def _component_set(value: Any) -> set[str]:
    texts = text_list(value) if value is not None else list(_COMPONENTS[:3]) + ["days", "time"]
    if texts is None:
        raise MatlabError("MATLAB:datetime:between:InvalidComponents",
                          "Components must be a character vector, string array, or cell "
                          "array of character vectors.")
    out = set()
    for text in texts:
        key = text.lower()
        if not key.endswith("s") and key != "time":
            key += "s"
        if key not in _COMPONENTS:
            raise MatlabError("MATLAB:datetime:between:InvalidComponents",
                              f"'{text}' is not a valid date or time component.")
        out.add(key)
    return out


def _between_one(a: float, b: float, parts: set[str]) -> tuple[float, float, float]:
    if math.isnan(a) or math.isnan(b):
        return math.nan, math.nan, math.nan
    if b < a:
        months, days, ms = _between_one(b, a, parts)
        return -months, -days, -ms
    months = 0
    if parts & {"years", "quarters", "months"}:
        fa, fb = fields_of(a), fields_of(b)
        months = (fb.year - fa.year) * 12 + (fb.month - fa.month)
        step = 12 if "months" not in parts and "quarters" not in parts else \
            3 if "months" not in parts else 1
        months -= months % step
        while months > 0 and shift_months(np.array(a), np.array(float(months))) > b:
            months -= step
    start = float(shift_months(np.array(a), np.array(float(months))))
    days = 0
    if parts & {"weeks", "days"}:
        days = math.floor((b - start) / MS_PER_DAY)
        if "days" not in parts:
            days -= days % 7
    ms = b - start - days * MS_PER_DAY if "time" in parts else 0.0
    return float(months), float(days), ms


@builtin("between", category="datetime", nargin=(2, 3))
def between(t1: Any, t2: Any, components: Any = None) -> CalendarDuration:
    """``between(t1, t2)``: the calendar difference ``t2 - t1`` in years,
    months, days and time; ``components`` picks the units (``'days'``,
    ``{'months','days'}``...)."""
    like = t1 if type(t1) is Datetime else t2
    if type(like) is not Datetime:
        raise MatlabError("MATLAB:datetime:between:InvalidInput",
                          "Inputs must be datetime arrays.")
    a, b = broadcast_pair(as_datetime(t1).data, as_datetime(t2).data, "between")
    a, b = np.broadcast_arrays(a, b)
    parts = _component_set(components)
    triples = [_between_one(x, y, parts) for x, y in zip(a.reshape(-1).tolist(),
                                                         b.reshape(-1).tolist())]
    months, days, ms = (np.array([t[k] for t in triples]).reshape(a.shape) for k in range(3))
    return CalendarDuration.from_parts(months, days, ms)


def _unit_start(ms: float, unit: str, count: int) -> float:
    """The start of the unit holding ``ms``, moved by ``count`` units."""
    f = fields_of(ms)
    if unit in ("year", "quarter", "month"):
        size = {"year": 12, "quarter": 3, "month": 1}[unit]
        first = (f.month - 1) - (f.month - 1) % size
        return ms_from_fields(f.year, first + 1 + count * size, 1)
    if unit == "week":
        day = ms_from_fields(f.year, f.month, f.day)
        return day - (f.weekday - 1) * MS_PER_DAY + count * 7 * MS_PER_DAY
    size = {"day": MS_PER_DAY, "hour": 3_600_000, "minute": 60_000, "second": 1000}[unit]
    return math.floor(ms / size) * size + count * size


def _shift_one(ms: float, where: str, unit: str, rule: Any) -> float:
    if math.isnan(ms) or math.isinf(ms):
        return ms
    start = _unit_start(ms, unit, 0)
    if isinstance(rule, int):
        count = rule
    elif rule == "current":
        count = 0
    elif rule == "next":
        count = 1
    elif rule == "previous":
        count = -1
    else:  # nearest
        nxt = _unit_start(ms, unit, 1)
        return nxt if ms - start >= nxt - ms else start
    if where == "start":
        return _unit_start(ms, unit, count)
    following = _unit_start(ms, unit, count + 1)
    # the end of a day/hour/minute/second is the start of the next one; the
    # end of a year/quarter/month/week is the start of its last day
    return following - MS_PER_DAY if unit in ("year", "quarter", "month", "week") else following


_WEEKDAY_NAMES = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")


def _weekday_set(dow: Any) -> set[int]:
    """Weekday numbers (1 = Sunday) named by ``dow``: a number, a day name
    (full or three letters), ``'weekend'`` or ``'weekday'``."""
    if type(dow) is float and dow == int(dow) and 1 <= dow <= 7:
        return {int(dow)}
    text = to_str(dow).lower() if text_list(dow) is not None else None
    if text == "weekend":
        return {1, 7}
    if text == "weekday":
        return {2, 3, 4, 5, 6}
    for k, name in enumerate(_WEEKDAY_NAMES):
        if text is not None and len(text) >= 3 and name.startswith(text):
            return {k + 1}
    raise MatlabError("MATLAB:datetime:dateshift:InvalidDOW",
                      "The day of week must be a number from 1 to 7, a day name, 'weekend' "
                      "or 'weekday'.")


def _to_weekday(ms: float, days: set[int], rule: Any) -> float:
    """The nearest matching day on or after ``ms`` (``'next'``: after,
    ``'previous'``: before, an integer n: the n-th match after/before)."""
    if math.isnan(ms) or math.isinf(ms):
        return ms
    f = fields_of(ms)
    midnight = ms_from_fields(f.year, f.month, f.day)
    time_of_day = ms - midnight
    weekday = f.weekday
    if rule in ("current", "nearest") or rule == 0:
        step, skip_today, count = 1, False, 1
    elif rule == "next":
        step, skip_today, count = 1, True, 1
    elif rule == "previous":
        step, skip_today, count = -1, True, 1
    else:
        step, skip_today, count = (1 if rule > 0 else -1), True, abs(rule)
    offset = 0 if not skip_today else step
    weeks = (count - 1) // len(days)         # every 7 days hold len(days) matches
    offset += step * 7 * weeks
    count -= weeks * len(days)
    found = 0
    while True:
        if (weekday - 1 + offset) % 7 + 1 in days:
            found += 1
            if found == count:
                return midnight + offset * MS_PER_DAY + time_of_day
        offset += step


def _rule(rule: Any) -> Any:
    if rule is None:
        return "current"
    if type(rule) is float and rule == int(rule):
        return int(rule)
    how = to_str(rule).lower() if text_list(rule) is not None else None
    if how not in ("current", "next", "previous", "nearest"):
        raise MatlabError("MATLAB:datetime:dateshift:InvalidRule",
                          "The rule must be 'current', 'next', 'previous', 'nearest' or a "
                          "whole number.")
    return how


@builtin("dateshift", category="datetime", nargin=(3, 4))
def dateshift(t: Any, where: Any, unit: Any, rule: Any = None) -> Datetime:
    """``dateshift(t, 'start'|'end', unit[, rule])``: each datetime moved to
    the start or end of its ``year``, ``quarter``, ``month``, ``week``,
    ``day``, ``hour``, ``minute`` or ``second`` (the end of a day or shorter
    unit is the next one's start; of a longer unit, its last day);
    ``dateshift(t, 'dayofweek', dow)`` to the day ``dow`` (number, name,
    ``'weekend'``, ``'weekday'``) on or after it; ``rule`` ``'current'``
    (default), ``'next'``, ``'previous'``, ``'nearest'`` or a whole number."""
    if type(t) is not Datetime:
        raise MatlabError("MATLAB:datetime:dateshift:InvalidInput",
                          "The first input must be a datetime array.")
    position = to_str(where).lower()
    if position == "dayofweek":
        days = _weekday_set(unit)
        how = _rule(rule)
        flat = [_to_weekday(v, days, how) for v in t.data.reshape(-1).tolist()]
        return t.like(np.array(flat).reshape(t.data.shape))
    if position not in ("start", "end"):
        raise MatlabError("MATLAB:datetime:dateshift:InvalidShiftType",
                          "The shift type must be 'start', 'end' or 'dayofweek'.")
    name = to_str(unit).lower().rstrip("s") if text_list(unit) is not None else None
    if name not in _UNITS:
        raise MatlabError("MATLAB:datetime:dateshift:InvalidUnit",
                          "The unit must be 'year', 'quarter', 'month', 'week', 'day', "
                          "'hour', 'minute' or 'second'.")
    how = _rule(rule)
    flat = [_shift_one(v, position, name, how) for v in t.data.reshape(-1).tolist()]
    return t.like(np.array(flat).reshape(t.data.shape))
