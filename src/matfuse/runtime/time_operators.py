"""Operators on datetime, duration and calendarDuration arrays.

MATLAB's rules: datetime ± duration (or a number of days) is a datetime;
datetime − datetime is a duration; datetime ± calendarDuration moves the
calendar; durations add, scale by numbers and divide into numbers;
comparisons need two values of one kind (text converts to datetime).
Arrays combine with implicit expansion.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.calendar_duration import CalendarDuration, add_calendar
from matfuse.runtime.datetime_array import Datetime, as_datetime
from matfuse.runtime.datetime_zones import convert_zone
from matfuse.runtime.duration_array import Duration, as_duration_data
from matfuse.runtime.time_arrays import TimeArray, broadcast_pair
from matfuse.runtime.values import canonical, class_of

_COMPARE = {"==": np.equal, "~=": np.not_equal, "<": np.less, "<=": np.less_equal,
            ">": np.greater, ">=": np.greater_equal}


def _unsupported(op: str, a: Any, b: Any) -> MatlabError:
    kind = next(class_of(x) for x in (a, b) if isinstance(x, TimeArray))
    return MatlabError("MATLAB:UndefinedFunction",
                       f"Operator '{op}' is not supported for operands of type '{kind}'.")


def _numeric(v: Any) -> np.ndarray | None:
    if type(v) is float or type(v) is bool:
        return np.array([[float(v)]])
    if type(v) is np.ndarray and v.dtype.kind in "biuf":
        return v.astype(np.float64)
    return None


def _compare(op: str, x: np.ndarray, y: np.ndarray) -> Any:
    x, y = broadcast_pair(x, y, op)
    return canonical(_COMPARE[op](x, y))


def time_binary(op: str, a: Any, b: Any) -> Any:
    """``a op b`` where ``a`` or ``b`` is a time array."""
    if type(a) is Datetime or type(b) is Datetime:
        return _datetime_binary(op, a, b)
    if type(a) is CalendarDuration or type(b) is CalendarDuration:
        return _calendar_binary(op, a, b)
    return _duration_binary(op, a, b)


def _zone_aligned(x: Datetime, y: Datetime) -> np.ndarray:
    """``y``'s times in ``x``'s time zone (zoned and unzoned do not mix)."""
    if x.time_zone == y.time_zone:
        return y.data
    if (x.time_zone == "") != (y.time_zone == ""):
        raise MatlabError("MATLAB:datetime:IncompatibleTZ",
                          "Cannot combine or compare a datetime array with a time zone with "
                          "one without a time zone.")
    return convert_zone(y.data, y.time_zone, x.time_zone)


def _datetime_binary(op: str, a: Any, b: Any) -> Any:
    if op in _COMPARE:
        like = a if type(a) is Datetime else b
        x, y = as_datetime(a, like), as_datetime(b, like)
        if type(a) is Datetime and type(b) is Datetime:
            return _compare(op, x.data, _zone_aligned(x, y))
        return _compare(op, x.data, y.data)
    if op == "+":
        if type(a) is not Datetime:
            a, b = b, a
        if type(b) is Datetime:
            raise MatlabError("MATLAB:datetime:DatetimeAdditionNotDefined",
                              "Addition is not defined between datetime arrays.")
        return _shift(a, b, 1.0, op)
    if op == "-":
        if type(a) is not Datetime:
            raise MatlabError("MATLAB:datetime:SubtractionNotDefined",
                              f"Subtraction is not defined between {class_of(a)} and datetime "
                              f"arrays.")
        if type(b) is Datetime or isinstance(b, np.ndarray) and b.dtype.kind == "U":
            other = as_datetime(b, a)
            y_data = _zone_aligned(a, other) if type(b) is Datetime else other.data
            x, y = broadcast_pair(a.data, y_data, op)
            return Duration(x - y)
        return _shift(a, b, -1.0, op)
    raise _unsupported(op, a, b)


def _shift(t: Datetime, amount: Any, sign: float, op: str) -> Datetime:
    if type(amount) is CalendarDuration:
        x = t.data
        cal = amount.data
        x, cal = np.broadcast_arrays(x, cal) if x.ndim == cal.ndim else broadcast_pair(x, cal, op)
        return t.like(add_calendar(np.array(x), np.array(cal), sign))
    ms = as_duration_data(amount)
    if ms is None:
        raise _unsupported(op, t, amount)
    x, y = broadcast_pair(t.data, ms, op)
    return t.like(x + sign * y)


def _duration_binary(op: str, a: Any, b: Any) -> Any:
    first = a if type(a) is Duration else b
    if op in ("+", "-") or op in _COMPARE:
        x, y = as_duration_data(a), as_duration_data(b)
        if x is None or y is None:
            raise _unsupported(op, a, b)
        if op in _COMPARE:
            return _compare(op, x, y)
        x, y = broadcast_pair(x, y, op)
        return first.like(x + y if op == "+" else x - y)
    if op in (".*", "*"):
        if type(a) is Duration and type(b) is Duration:
            raise _unsupported(op, a, b)
        scale = _numeric(b if type(a) is Duration else a)
        if scale is None or (op == "*" and scale.size != 1 and first.data.size != 1):
            raise _unsupported(op, a, b)
        x, y = broadcast_pair(first.data, scale, op)
        return first.like(x * y)
    if op in ("./", "/"):
        if type(a) is not Duration:
            raise _unsupported(op, a, b)
        if type(b) is Duration:
            x, y = broadcast_pair(a.data, b.data, op)
            return canonical(x / y)
        scale = _numeric(b)
        if scale is None:
            raise _unsupported(op, a, b)
        x, y = broadcast_pair(a.data, scale, op)
        return a.like(x / y)
    raise _unsupported(op, a, b)


def _calendar_binary(op: str, a: Any, b: Any) -> Any:
    first = a if type(a) is CalendarDuration else b
    if op in ("+", "-"):
        x = first.coerce(a) if type(a) is not CalendarDuration else a.data
        y = first.coerce(b) if type(b) is not CalendarDuration else b.data
        sign = 1.0 if op == "+" else -1.0
        return CalendarDuration.from_parts(x["months"] + sign * y["months"],
                                           x["days"] + sign * y["days"],
                                           x["ms"] + sign * y["ms"])
    if op in (".*", "*") or (op in ("./", "/") and type(a) is CalendarDuration):
        scale = _numeric(b if type(a) is CalendarDuration else a)
        if scale is None:
            raise _unsupported(op, a, b)
        factor = scale if op in (".*", "*") else 1.0 / scale
        data = first.data
        return CalendarDuration.from_parts(data["months"] * factor, data["days"] * factor,
                                           data["ms"] * factor)
    if op in ("==", "~="):
        x, y = np.broadcast_arrays(first.coerce(a), first.coerce(b))
        same = ((x["months"] == y["months"]) & (x["days"] == y["days"]) & (x["ms"] == y["ms"]))
        return canonical(same if op == "==" else ~same)
    raise _unsupported(op, a, b)


def time_unary(op: str, a: TimeArray) -> Any:
    """``-a`` / ``+a`` of a duration or calendarDuration."""
    if op == "+" and type(a) is not Datetime:
        return a
    if op == "-" and type(a) is Duration:
        return a.like(-a.data)
    if op == "-" and type(a) is CalendarDuration:
        data = a.data
        return CalendarDuration.from_parts(-data["months"], -data["days"], -data["ms"])
    raise MatlabError("MATLAB:UndefinedFunction",
                      f"Operator '{op}' is not supported for operands of type "
                      f"'{class_of(a)}'.")



def time_colon(start: Any, step: Any, stop: Any) -> Any:
    """``t1:step:t2`` for datetimes or durations: a row from ``start`` by
    ``step`` (a duration, calendarDuration or number of days; one day when
    omitted) while not past ``stop``."""
    first = start if isinstance(start, TimeArray) else stop
    if type(first) is CalendarDuration or type(start) is not type(stop) or (
            start.data.size != 1 or stop.data.size != 1):
        raise MatlabError("MATLAB:colon:nonScalarEndpoints" if type(start) is type(stop)
                          else "MATLAB:colon:invalidOperands",
                          "Colon operands must be both datetime scalars or both duration "
                          "scalars.")
    a = float(start.data.reshape(-1)[0])
    b = float(stop.data.reshape(-1)[0])
    if type(step) is CalendarDuration:
        values = [a]
        count = 1
        while True:
            shifted = add_calendar(np.array([[a]]), step.data.reshape(1, 1), float(count))
            nxt = float(shifted.reshape(-1)[0])
            if not (nxt <= b) or count > 10_000_000:
                break
            values.append(nxt)
            count += 1
        return first.like(np.array(values).reshape(1, -1))
    ms = 86_400_000.0 if step is None else float(as_duration_data(step).reshape(-1)[0])
    if ms == 0 or (b - a) / ms < 0:
        return first.like(np.zeros((1, 0)))
    n = int(np.floor((b - a) / ms + 1e-10)) + 1
    return first.like((a + ms * np.arange(n)).reshape(1, n))
