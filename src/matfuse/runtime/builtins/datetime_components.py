"""Reading datetimes as numbers: ``year quarter month day hour minute
second weekday ymd hms timeofday``, ``posixtime juliandate exceltime
yyyymmdd``, and the datetime methods of ``datenum datestr datevec``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._datetime_text import MONTHS
from matfuse.runtime.datetime_array import Datetime, component_array
from matfuse.runtime.datetime_format import EPOCH_SERIAL_DAY, MS_PER_DAY, field_arrays
from matfuse.runtime.duration_array import Duration
from matfuse.runtime.registry import builtin
from matfuse.runtime.time_arrays import time_method
from matfuse.runtime.values import CellArray, canonical, char_array, char_rows, class_of, to_str

_DAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


def _the_datetime(t: Any, name: str) -> Datetime:
    if type(t) is not Datetime:
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{name}' for input arguments of type "
                          f"'{class_of(t)}'.")
    return t


def _field(t: Datetime, name: str) -> np.ndarray:
    """One field of every element as a float array of ``t``'s shape."""
    return field_arrays(t.data)[name].reshape(t.data.shape)


def _names(values: np.ndarray, names: tuple[str, ...], short: bool) -> CellArray:
    texts = [("NaN" if v != v else names[int(v) - 1][:3] if short else names[int(v) - 1])
             for v in values.reshape(-1, order="F")]
    return CellArray.from_list([char_array(s) for s in texts], values.shape)


def _kind(kind: Any, allowed: tuple[str, ...], name: str) -> str:
    if kind is None:
        return allowed[0]
    text = to_str(kind).lower()
    if text not in allowed:
        raise MatlabError(f"MATLAB:datetime:{name}:InvalidKind",
                          f"'{to_str(kind)}' is not a valid component type for {name}.")
    return text


@builtin("year", category="datetime", nargin=(1, 2))
def year(t: Any, kind: Any = None) -> Any:
    """The year number of each datetime."""
    return component_array(_the_datetime(t, "year").data, "Year")


@builtin("quarter", category="datetime", nargin=(1, 1))
def quarter(t: Any) -> Any:
    """The quarter (1-4) of each datetime."""
    return canonical((_field(_the_datetime(t, "quarter"), "Month") - 1) // 3 + 1)


@builtin("month", category="datetime", nargin=(1, 2))
def month(t: Any, kind: Any = None) -> Any:
    """The month number (``'monthofyear'``, default), or ``'name'`` /
    ``'shortname'`` as a cell array of text."""
    k = _kind(kind, ("monthofyear", "name", "shortname"), "month")
    values = _field(_the_datetime(t, "month"), "Month")
    return canonical(values) if k == "monthofyear" else _names(values, MONTHS, k == "shortname")


@builtin("day", category="datetime", nargin=(1, 2))
def day(t: Any, kind: Any = None) -> Any:
    """The day of the month (default), ``'dayofweek'`` (1 = Sunday),
    ``'dayofyear'``, or the weekday ``'name'``/``'shortname'``."""
    k = _kind(kind, ("dayofmonth", "dayofweek", "dayofyear", "name", "shortname"), "day")
    the = _the_datetime(t, "day")
    if k in ("dayofweek", "name", "shortname"):
        values = _field(the, "Weekday")
        return canonical(values) if k == "dayofweek" else _names(values, _DAY_NAMES,
                                                                  k == "shortname")
    if k == "dayofyear":
        return canonical(_field(the, "DayOfYear"))
    return component_array(the.data, "Day")


@builtin("hour", category="datetime", nargin=(1, 1))
def hour(t: Any) -> Any:
    """The hour (0-23) of each datetime."""
    return component_array(_the_datetime(t, "hour").data, "Hour")


@builtin("minute", category="datetime", nargin=(1, 1))
def minute(t: Any) -> Any:
    """The minute (0-59) of each datetime."""
    return component_array(_the_datetime(t, "minute").data, "Minute")


@builtin("second", category="datetime", nargin=(1, 2))
def second(t: Any, kind: Any = None) -> Any:
    """The seconds (with fraction) of each datetime: ``'secondofminute'``
    (default) or ``'secondofday'``."""
    k = _kind(kind, ("secondofminute", "secondofday"), "second")
    the = _the_datetime(t, "second")
    if k == "secondofday":
        fields = field_arrays(the.data)
        return canonical((fields["Hour"] * 3600 + fields["Minute"] * 60
                          + fields["Second"]).reshape(the.data.shape))
    return component_array(the.data, "Second")


@builtin("weekday", category="datetime", nargin=(1, 2), nargout=(0, 2), wants_nargout=True)
def weekday(t: Any, *_: Any, nargout: int = 1) -> Any:
    """``[N, S] = weekday(D)``: the day of the week (1 = Sunday) and its
    three-letter name, for datetimes or serial date numbers."""
    if type(t) is Datetime:
        values = _field(t, "Weekday")
    else:
        if not (type(t) in (float, bool) or type(t) is np.ndarray and t.dtype.kind in "biuf"):
            raise MatlabError("MATLAB:weekday:InvalidInput",
                              "Input must be a datetime array or serial date numbers.")
        numbers = np.asarray(t, dtype=np.float64)
        values = np.where(np.isfinite(numbers), (np.floor(numbers) + 5) % 7 + 1, np.nan)
        values = values.reshape(np.shape(t) or (1, 1))
    numbers_out = canonical(values)
    if nargout < 2:
        return numbers_out
    names = [_DAY_NAMES[int(v) - 1][:3] for v in values.reshape(-1, order="F")]
    return numbers_out, char_rows(names)


@builtin("ymd", category="datetime", nargin=(1, 1), nargout=(0, 3))
def ymd(t: Any) -> tuple:
    """``[y, m, d] = ymd(t)``: year, month and day numbers."""
    the = _the_datetime(t, "ymd")
    return tuple(component_array(the.data, c) for c in ("Year", "Month", "Day"))


@builtin("hms", category="datetime", nargin=(1, 1), nargout=(0, 3))
def hms(t: Any) -> tuple:
    """``[h, m, s] = hms(t)``: hour, minute and second of datetimes, or the
    hours, minutes and seconds of durations."""
    if type(t) is Duration:
        total = t.data / 1000.0
        sign = np.sign(total)
        whole = np.abs(total)
        h = np.floor(whole / 3600)
        m = np.floor((whole - 3600 * h) / 60)
        s = whole - 3600 * h - 60 * m
        return canonical(sign * h), canonical(sign * m), canonical(sign * s)
    the = _the_datetime(t, "hms")
    return tuple(component_array(the.data, c) for c in ("Hour", "Minute", "Second"))


@builtin("timeofday", category="datetime", nargin=(1, 1))
def timeofday(t: Any) -> Duration:
    """The time since midnight of each datetime, as a duration."""
    data = _the_datetime(t, "timeofday").data
    return Duration(data - np.floor(data / MS_PER_DAY) * MS_PER_DAY)


@builtin("posixtime", category="datetime", nargin=(1, 1))
def posixtime(t: Any) -> Any:
    """Seconds since 1-Jan-1970 00:00:00 (POSIX time) of each datetime."""
    return canonical(_the_datetime(t, "posixtime").data / 1000.0)


@builtin("juliandate", category="datetime", nargin=(1, 2))
def juliandate(t: Any, kind: Any = None) -> Any:
    """The Julian date (``'juliandate'``) or modified Julian date
    (``'modifiedjuliandate'``) of each datetime."""
    k = _kind(kind, ("juliandate", "modifiedjuliandate"), "juliandate")
    days = _the_datetime(t, "juliandate").data / MS_PER_DAY
    return canonical(days + (2440587.5 if k == "juliandate" else 40587.0))


@builtin("exceltime", category="datetime", nargin=(1, 2))
def exceltime(t: Any, system: Any = None) -> Any:
    """Excel serial day numbers (1900 date system) of each datetime."""
    days = _the_datetime(t, "exceltime").data / MS_PER_DAY
    return canonical(days + 25569.0)


@builtin("yyyymmdd", category="datetime", nargin=(1, 1))
def yyyymmdd(t: Any) -> Any:
    """Each datetime as the number ``yyyymmdd``."""
    fields = field_arrays(_the_datetime(t, "yyyymmdd").data)
    return canonical((fields["Year"] * 10000 + fields["Month"] * 100
                      + fields["Day"]).reshape(t.data.shape))


# ----------------------------------------------- serial date number methods
@time_method("datenum", (Datetime,))
def datetime_datenum(t: Datetime) -> Any:
    """Serial date numbers (days from year 0) of datetimes."""
    return canonical(t.data / MS_PER_DAY + EPOCH_SERIAL_DAY)


@time_method("datevec", (Datetime,), nargout=(0, 6))
def datetime_datevec(t: Datetime) -> Any:
    """``datevec(t)``: an N-by-6 matrix ``[Y M D H MI S]``."""
    columns = [component_array(t.data.reshape(-1, 1, order="F"), c)
               for c in ("Year", "Month", "Day", "Hour", "Minute", "Second")]
    return canonical(np.hstack([np.asarray(c).reshape(-1, 1) for c in columns]))


@time_method("datestr", (Datetime,), nargin=(1, 3))
def datetime_datestr(t: Datetime, *rest: Any) -> Any:
    """``datestr(t, ...)``: the datestr text of the datetimes' date numbers."""
    from matfuse.runtime.builtins.environment import datestr

    numbers = t.data.reshape(-1, 1, order="F") / MS_PER_DAY + EPOCH_SERIAL_DAY
    return datestr(numbers, *rest)


@builtin("isweekend", category="datetime", nargin=(1, 1))
def isweekend(t: Any) -> Any:
    """True where a datetime falls on a Saturday or Sunday."""
    days = _field(_the_datetime(t, "isweekend"), "Weekday")
    return canonical((days == 1) | (days == 7))


@builtin("isbetween", category="datetime", nargin=(3, 4))
def isbetween(t: Any, lower: Any, upper: Any, interval: Any = None) -> Any:
    """True where ``lower <= t <= upper`` (``'closed'``, the default;
    ``'open'``, ``'openleft'``, ``'openright'`` exclude ends)."""
    from matfuse.runtime import ops

    kind = "closed" if interval is None else to_str(interval).lower()
    if kind not in ("closed", "open", "openleft", "openright", "closedleft", "closedright"):
        raise MatlabError("MATLAB:datetime:isbetween:InvalidIntervalType",
                          f"'{to_str(interval)}' is not a valid interval type.")
    _the_datetime(t, "isbetween")
    low_op = ">" if kind in ("open", "openleft", "closedright") else ">="
    high_op = "<" if kind in ("open", "openright", "closedleft") else "<="
    return ops.binary("&", ops.binary(low_op, t, lower), ops.binary(high_op, t, upper))
