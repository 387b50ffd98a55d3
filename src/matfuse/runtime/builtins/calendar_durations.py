"""Calendar durations: ``calyears calquarters calmonths calweeks caldays``,
``calendarDuration(Y,M,D[,H,MI,S])``, ``iscalendarduration``, and ``split``
of calendar and fixed durations into units."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.calendar_duration import CalendarDuration
from matfuse.runtime.duration_array import Duration
from matfuse.runtime.registry import builtin
from matfuse.runtime.time_arrays import text_list, time_method
from matfuse.runtime.values import canonical, class_of


def _integers(v: Any, name: str) -> np.ndarray:
    if type(v) is float or type(v) is bool:
        arr = np.array([[float(v)]])
    elif type(v) is np.ndarray and v.dtype.kind in "biuf":
        arr = v.astype(np.float64)
    else:
        raise MatlabError(f"MATLAB:{name}:InvalidInput",
                          f"Input must be numeric, not {class_of(v)}.")
    finite = arr[np.isfinite(arr)]
    if np.any(finite != np.round(finite)):
        raise MatlabError("MATLAB:calendarDuration:NonintegerCalendarValues",
                          "Calendar duration values must be integers.")
    return arr


def _numbers(v: Any, name: str) -> np.ndarray:
    """A numeric time part (hours, minutes, seconds: fractions allowed)."""
    if type(v) is float or type(v) is bool:
        return np.array([[float(v)]])
    if type(v) is np.ndarray and v.dtype.kind in "biuf":
        return v.astype(np.float64)
    raise MatlabError(f"MATLAB:{name}:InvalidInput", f"Input must be numeric, not {class_of(v)}.")


@builtin("calyears", category="datetime", nargin=(1, 1))
def calyears(x: Any) -> CalendarDuration:
    """Calendar years (whole numbers) as a calendarDuration."""
    return CalendarDuration.from_parts(months=12 * _integers(x, "calyears"))


@builtin("calquarters", category="datetime", nargin=(1, 1))
def calquarters(x: Any) -> CalendarDuration:
    """Calendar quarters (three calendar months each) as a calendarDuration."""
    return CalendarDuration.from_parts(months=3 * _integers(x, "calquarters"))


@builtin("calmonths", category="datetime", nargin=(1, 1))
def calmonths(x: Any) -> CalendarDuration:
    """Calendar months as a calendarDuration."""
    return CalendarDuration.from_parts(months=_integers(x, "calmonths"))


@builtin("calweeks", category="datetime", nargin=(1, 1))
def calweeks(x: Any) -> CalendarDuration:
    """Calendar weeks (seven calendar days) as a calendarDuration."""
    return CalendarDuration.from_parts(days=7 * _integers(x, "calweeks"))


@builtin("caldays", category="datetime", nargin=(1, 1))
def caldays(x: Any) -> CalendarDuration:
    """Calendar days as a calendarDuration."""
    return CalendarDuration.from_parts(days=_integers(x, "caldays"))


@builtin("calendarDuration", category="datetime", nargin=(1, 6))
def calendar_duration(*args: Any) -> CalendarDuration:
    """``calendarDuration(Y,M,D)`` or ``calendarDuration(Y,M,D,H,MI,S)``
    (or one N-by-3 / N-by-6 matrix)."""
    parts = [_integers(a, "calendarDuration") if k < 3 else
             _numbers(a, "calendarDuration") for k, a in enumerate(args)]
    if len(parts) == 1:
        matrix = parts[0]
        if matrix.shape[1] not in (3, 6):
            raise MatlabError("MATLAB:calendarDuration:InvalidNumericData",
                              "Numeric input data must be a matrix with three or six columns, "
                              "or else three or six separate numeric arrays.")
        parts = [matrix[:, k:k + 1] for k in range(matrix.shape[1])]
    if len(parts) not in (3, 6):
        raise MatlabError("MATLAB:calendarDuration:InvalidNumericData",
                          "Numeric input data must be a matrix with three or six columns, or "
                          "else three or six separate numeric arrays.")
    ms = 0.0
    if len(parts) == 6:
        ms = parts[3] * 3_600_000 + parts[4] * 60_000 + parts[5] * 1000
    return CalendarDuration.from_parts(12 * parts[0] + parts[1], parts[2], ms)


@builtin("iscalendarduration", category="datetime", nargin=(1, 1))
def iscalendarduration(v: Any) -> bool:
    """True for a calendarDuration array."""
    return type(v) is CalendarDuration


_CALENDAR_UNITS = ("years", "quarters", "months", "weeks", "days", "time")
_FIXED_UNITS = {"years": 365.2425 * 86_400_000.0, "days": 86_400_000.0,
                "hours": 3_600_000.0, "minutes": 60_000.0, "seconds": 1000.0}


def _unit_names(units: Any, allowed: tuple[str, ...]) -> list[str]:
    texts = text_list(units)
    if texts is None:
        raise MatlabError("MATLAB:calendarDuration:split:InvalidUnits",
                          "Units must be a character vector, string array, or cell array of "
                          "character vectors.")
    names = []
    for text in texts:
        name = text.lower() if text.lower() == "time" else text.lower().rstrip("s") + "s"
        if name not in allowed:
            raise MatlabError("MATLAB:calendarDuration:split:InvalidUnits",
                              f"'{text}' is not a valid unit.")
        names.append(name)
    return names


def _split_calendar(c: CalendarDuration, names: list[str]) -> list[Any]:
    months, days, ms = (c.data[f].copy() for f in ("months", "days", "ms"))
    out = {}
    for name, size in (("years", 12), ("quarters", 3), ("months", 1)):
        if name in names:
            out[name] = np.trunc(months / size)
            months = months - out[name] * size
    for name, size in (("weeks", 7), ("days", 1)):
        if name in names:
            out[name] = np.trunc(days / size)
            days = days - out[name] * size
    if "time" in names:
        out["time"] = Duration(ms)
    return [out[n] if n == "time" else canonical(out[n]) for n in names]


def _split_duration(d: Duration, names: list[str]) -> list[Any]:
    rest = d.data.copy()
    sign = np.sign(rest)
    rest = np.abs(rest)
    out = {}
    order = [n for n in _FIXED_UNITS if n in names]
    for k, name in enumerate(order):
        size = _FIXED_UNITS[name]
        part = rest / size if k == len(order) - 1 else np.floor(rest / size)
        out[name] = part
        rest = rest - part * size
    return [canonical(sign * out[n]) for n in names]


@time_method("split", (CalendarDuration, Duration), nargin=(2, 2), nargout=(0, None))
def split_time(t: Any, units: Any) -> tuple:
    """``[a, b, ...] = split(t, units)``: a calendarDuration's years,
    quarters, months, weeks, days and time (a duration), or a duration's
    years, days, hours, minutes and seconds (the last one keeps the fraction)."""
    if type(t) is CalendarDuration:
        return tuple(_split_calendar(t, _unit_names(units, _CALENDAR_UNITS)))
    return tuple(_split_duration(t, _unit_names(units, tuple(_FIXED_UNITS))))
