"""Creating durations and reading them back as numbers: ``duration``,
``years days hours minutes seconds milliseconds`` (numbers in, a duration
out; a duration in, the number of units out), ``isduration``."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.duration_array import (
    DEFAULT_DURATION_FORMAT,
    MS_PER_UNIT,
    Duration,
    checked_duration_format,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.time_arrays import text_list, text_shape
from matfuse.runtime.values import CHAR_DTYPE, StringArray, canonical, class_of, to_str

_TIMER_TEXT = re.compile(r"\s*(-)?(?:(\d+):)?(\d+):(\d+):(\d+(?:\.\d*)?)\s*|"
                         r"\s*(-)?(\d+):(\d+)(?::(\d+(?:\.\d*)?))?\s*")


def _numbers(v: Any) -> np.ndarray:
    if type(v) is float or type(v) is bool:
        return np.array([[float(v)]])
    if type(v) is np.ndarray and v.dtype.kind in "biuf":
        return v.astype(np.float64)
    raise MatlabError("MATLAB:duration:InvalidNumericData",
                      f"Input data must be numeric, not {class_of(v)}.")


def _is_text(v: Any) -> bool:
    return (type(v) is np.ndarray and v.dtype == CHAR_DTYPE) or type(v) is StringArray


def _split(args: tuple) -> tuple[list, str | None]:
    """Data arguments and the ``'Format'`` option's value."""
    for k, a in enumerate(args):
        if _is_text(a) and to_str(a).lower() in ("format", "inputformat") and k > 0:
            rest = args[k:]
            if len(rest) % 2:
                raise MatlabError("MATLAB:duration:InvalidNameValuePair",
                                  "Name-value pair arguments must come in pairs.")
            fmt = None
            for name, value in zip(rest[::2], rest[1::2]):
                if to_str(name).lower() == "format":
                    fmt = checked_duration_format(value)
            return list(args[:k]), fmt
    return list(args), None


def _text_ms(text: str) -> float:
    match = _TIMER_TEXT.fullmatch(text)
    if match is None:
        if text.strip() in ("", "NaN"):
            return float("nan")
        raise MatlabError("MATLAB:duration:DataMismatch",
                          f"Unable to convert '{text}' to duration.")
    g = match.groups()
    if g[4] is not None:
        sign, days, hours, minutes, seconds = g[0], g[1] or "0", g[2], g[3], g[4]
    else:
        sign, days, hours, minutes, seconds = g[5], "0", g[6], g[7], g[8] or "0"
    total = ((int(days) * 24 + int(hours)) * 60 + int(minutes)) * 60 + float(seconds)
    return (-1 if sign else 1) * total * 1000.0


@builtin("duration", category="datetime", nargin=(0, None))
def duration(*args: Any) -> Duration:
    """``duration(H,MI,S)``, ``duration(H,MI,S,MS)``, ``duration(DV)`` (an
    N-by-3 matrix), ``duration(text)`` (``hh:mm:ss`` or ``dd:hh:mm:ss``);
    ``'Format'`` sets the display format (default ``'hh:mm:ss'``)."""
    data, fmt = _split(args)
    if not data:
        return Duration(np.zeros((1, 1)), fmt)
    texts = text_list(data[0])
    if texts is not None and len(data) == 1:
        values = [_text_ms(t) for t in texts]
        return Duration(np.array(values).reshape(text_shape(data[0]), order="F"), fmt)
    if type(data[0]) is Duration and len(data) == 1:
        return Duration(data[0].data, fmt or data[0].fmt)
    numbers = [_numbers(v) for v in data]
    if len(numbers) == 1:
        vectors = numbers[0]
        if vectors.ndim != 2 or vectors.shape[1] != 3:
            raise MatlabError("MATLAB:duration:InvalidNumericData",
                              "Numeric input data must be a matrix with three columns, or "
                              "else three or four separate numeric arrays.")
        numbers = [vectors[:, k:k + 1] for k in range(3)]
    if len(numbers) not in (3, 4):
        raise MatlabError("MATLAB:duration:InvalidNumericData",
                          "Numeric input data must be a matrix with three columns, or else "
                          "three or four separate numeric arrays.")
    shapes = {a.shape for a in numbers if a.size != 1}
    if len(shapes) > 1:
        raise MatlabError("MATLAB:duration:InputSizeMismatch",
                          "Numeric inputs must be the same size, or any of them can be a "
                          "scalar.")
    parts = np.broadcast_arrays(*numbers)
    ms = parts[0] * 3_600_000 + parts[1] * 60_000 + parts[2] * 1000
    if len(parts) == 4:
        ms = ms + parts[3]
    return Duration(np.array(ms), fmt or DEFAULT_DURATION_FORMAT)


def _unit(name: str, unit: str, ms_per: float, value: Any, fmt: str) -> Any:
    if type(value) is Duration:
        return canonical(value.data / ms_per)
    return Duration(_numbers(value) * ms_per, fmt)


@builtin("years", category="datetime", nargin=(1, 1))
def years(x: Any) -> Any:
    """Numbers to a duration of fixed-length years (365.2425 days), or a
    duration to its number of years."""
    return _unit("years", "y", MS_PER_UNIT["y"], x, "y")


@builtin("days", category="datetime", nargin=(1, 1))
def days(x: Any) -> Any:
    """Numbers to a duration of 24-hour days, or a duration to its number of days."""
    return _unit("days", "d", MS_PER_UNIT["d"], x, "d")


@builtin("hours", category="datetime", nargin=(1, 1))
def hours(x: Any) -> Any:
    """Numbers to a duration in hours, or a duration to its number of hours."""
    return _unit("hours", "h", MS_PER_UNIT["h"], x, "h")


@builtin("minutes", category="datetime", nargin=(1, 1))
def minutes(x: Any) -> Any:
    """Numbers to a duration in minutes, or a duration to its number of minutes."""
    return _unit("minutes", "m", MS_PER_UNIT["m"], x, "m")


@builtin("seconds", category="datetime", nargin=(1, 1))
def seconds(x: Any) -> Any:
    """Numbers to a duration in seconds, or a duration to its number of seconds."""
    return _unit("seconds", "s", MS_PER_UNIT["s"], x, "s")


@builtin("milliseconds", category="datetime", nargin=(1, 1))
def milliseconds(x: Any) -> Any:
    """Numbers to a duration of milliseconds (shown in seconds), or a
    duration to its number of milliseconds."""
    return _unit("milliseconds", "s", 1.0, x, "s")


@builtin("isduration", category="datetime", nargin=(1, 1))
def isduration(v: Any) -> bool:
    """True for a duration array."""
    return type(v) is Duration
