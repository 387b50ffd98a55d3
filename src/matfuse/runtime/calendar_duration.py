"""MATLAB ``calendarDuration`` arrays: lengths of time in calendar units.

Each element keeps months, days and milliseconds apart (a calendar month
or day has no fixed length): ``data`` is a structured array with those
three fields. Added to a datetime, months move the calendar month (the day
clamped to the month's end, as MATLAB does), then days, then the time.
The display is MATLAB's ``ymdt`` format: ``1y 2mo 3d 4h 5m 6s``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.time_arrays import TimeArray
from matfuse.runtime.values import class_of, normalize_shape

PARTS = np.dtype([("months", np.float64), ("days", np.float64), ("ms", np.float64)])


class CalendarDuration(TimeArray):
    """A calendarDuration array (value semantics)."""

    class_name = "calendarDuration"
    overloads: dict = {}
    fill_value = 0.0

    def __init__(self, data: Any, fmt: str | None = "ymdt"):
        arr = np.asarray(data, dtype=PARTS)
        if arr.ndim < 2:
            arr = arr.reshape(1, -1) if arr.ndim == 1 else arr.reshape(1, 1)
        elif arr.ndim > 2 and arr.shape[-1] == 1:
            arr = arr.reshape(normalize_shape(arr.shape), order="F")
        self.data = arr
        self.fmt = fmt or "ymdt"

    @staticmethod
    def from_parts(months: Any = 0.0, days: Any = 0.0, ms: Any = 0.0) -> "CalendarDuration":
        m, d, t = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (months, days, ms)))
        out = np.empty(m.shape, dtype=PARTS)
        out["months"], out["days"], out["ms"] = m, d, t
        return CalendarDuration(out)

    def like(self, data: Any) -> "CalendarDuration":
        return CalendarDuration(data, self.fmt)

    def coerce(self, value: Any) -> np.ndarray:
        if type(value) is CalendarDuration:
            return value.data
        from matfuse.runtime.duration_array import Duration

        if type(value) is Duration:
            return CalendarDuration.from_parts(0.0, 0.0, value.data).data
        if type(value) is np.ndarray and value.size == 0:
            return np.zeros(value.shape, dtype=PARTS)
        raise MatlabError("MATLAB:invalidConversion",
                          f"Conversion to calendarDuration from {class_of(value)} is not "
                          f"possible.")

    def object_paren_assign(self, target: Any, idx: list, rhs: Any) -> "CalendarDuration":
        from matfuse.runtime._assign import paren_set
        from matfuse.runtime._subscripts import DELETE

        base = target if type(target) is CalendarDuration else rhs
        current = target.data if type(target) is CalendarDuration else np.zeros((0, 0), PARTS)
        values = None if rhs is DELETE else base.coerce(rhs)
        fields = []
        for name in PARTS.names:
            part = np.ascontiguousarray(current[name])
            new = DELETE if values is None else np.ascontiguousarray(values[name])
            fields.append(np.asarray(paren_set(part, idx, new), dtype=np.float64))
        return base.like(CalendarDuration.from_parts(*fields).data)

    def element_texts(self) -> list[str]:
        return [calendar_text(e) for e in self.data.reshape(-1, order="F")]


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.4g}"


def calendar_text(element: Any) -> str:
    """One calendarDuration as ``1y 2mo 3d 4h 5m 6s`` (zero parts left out)."""
    months, days, ms = float(element["months"]), float(element["days"]), float(element["ms"])
    if math.isnan(months) or math.isnan(days) or math.isnan(ms):
        return "NaN"
    parts = []
    years, rest = int(months / 12), months - 12 * int(months / 12)
    if years:
        parts.append(f"{years}y")
    if rest:
        parts.append(f"{_number(rest)}mo")
    if days:
        parts.append(f"{_number(days)}d")
    if ms:
        sign = -1 if ms < 0 else 1
        secs = abs(ms) / 1000
        hours, rem = divmod(secs, 3600)
        minutes, seconds = divmod(rem, 60)
        parts.append(f"{sign * int(hours)}h {sign * int(minutes)}m {_number(sign * seconds)}s")
    return " ".join(parts) if parts else "0d"


def shift_months(ms: np.ndarray, months: np.ndarray) -> np.ndarray:
    """Datetimes moved by whole calendar months, the day clamped to the
    target month's last day (31-Jan + 1 month is 28/29-Feb)."""
    from matfuse.runtime.datetime_format import MS_PER_DAY, field_arrays, ms_from_field_arrays

    t, m = np.broadcast_arrays(np.asarray(ms, dtype=np.float64),
                               np.asarray(months, dtype=np.float64))
    f = field_arrays(t)
    total = f["Year"] * 12 + (f["Month"] - 1) + np.trunc(m)
    year, month = np.floor_divide(total, 12), np.mod(total, 12) + 1
    zero = np.zeros(t.shape)
    first = ms_from_field_arrays(year, month, zero + 1, zero, zero, zero)
    following = ms_from_field_arrays(year, month + 1, zero + 1, zero, zero, zero)
    day = np.minimum(f["Day"], (following - first) / MS_PER_DAY)
    out = ms_from_field_arrays(year, month, day, f["Hour"], f["Minute"], f["Second"])
    # NaT stays NaT; infinite datetimes stay infinite
    return np.where(np.isfinite(t), out, t + 0.0 * m)


def add_calendar(ms: np.ndarray, cal: np.ndarray, sign: float) -> np.ndarray:
    """``datetime + sign * calendarDuration`` elementwise: months, then days, then time."""
    from matfuse.runtime.datetime_format import MS_PER_DAY

    shifted = shift_months(ms, sign * cal["months"])
    return shifted + sign * cal["days"] * MS_PER_DAY + sign * cal["ms"]
