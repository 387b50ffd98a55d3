"""MATLAB ``duration`` arrays: lengths of time in fixed units.

``data`` holds milliseconds. The ``Format`` is a single unit (``'y'``
fixed-length years of 365.2425 days, ``'d'``, ``'h'``, ``'m'``, ``'s'``:
shown as ``1.5 hr``) or a digital timer (``'hh:mm:ss'``, ``'dd:hh:mm:ss'``,
``'mm:ss'``, ``'hh:mm'``, optionally with ``.S`` to ``.SSSSSSSSS``
fractional seconds). Fractional seconds beyond the format are truncated.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.time_arrays import TimeArray
from matfuse.runtime.values import to_str

MS_PER_UNIT = {"y": 365.2425 * 86_400_000, "d": 86_400_000.0, "h": 3_600_000.0,
               "m": 60_000.0, "s": 1000.0}
_UNIT_NAMES = {"y": ("yr", "yrs"), "d": ("day", "days"), "h": ("hr", "hr"),
               "m": ("min", "min"), "s": ("sec", "sec")}
_TIMER = re.compile(r"(dd:hh:mm:ss|hh:mm:ss|mm:ss|hh:mm)(?:\.(S{1,9}))?")
DEFAULT_DURATION_FORMAT = "hh:mm:ss"


class Duration(TimeArray):
    """A duration array (value semantics)."""

    class_name = "duration"
    overloads: dict = {}
    fill_value = 0.0

    def __init__(self, data: Any, fmt: str | None = DEFAULT_DURATION_FORMAT):
        super().__init__(data, fmt if fmt is not None else DEFAULT_DURATION_FORMAT)

    def like(self, data: Any) -> "Duration":
        return Duration(data, self.fmt)

    def element_texts(self) -> list[str]:
        fmt = self.fmt
        return [duration_text(float(v), fmt) for v in self.data.reshape(-1, order="F")]

    def checked_format(self, value: Any) -> str:
        return checked_duration_format(value)


def checked_duration_format(value: Any) -> str:
    try:
        text = to_str(value)
    except MatlabError:
        text = None
    if text is None or not (text in MS_PER_UNIT or _TIMER.fullmatch(text)):
        raise MatlabError("MATLAB:duration:UnrecognizedFormat",
                          f"'{text}' is not a valid duration format. The format must be "
                          f"'y', 'd', 'h', 'm', 's', 'dd:hh:mm:ss', 'hh:mm:ss', 'mm:ss', "
                          f"'hh:mm', or one of the digital timer formats followed by "
                          f"'.S' up to '.SSSSSSSSS'.")
    return text


def short_number(value: float) -> str:
    """A number as MATLAB's ``format short`` shows a duration: 5 significant digits."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    if value == 0:
        return "0"
    text = f"{value:.5g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = exponent[0]
        digits = exponent[1:].lstrip("0").rjust(2, "0")
        text = f"{mantissa}e{sign}{digits}"
    return text


def duration_text(ms: float, fmt: str) -> str:
    """One duration in format ``fmt``."""
    unit = MS_PER_UNIT.get(fmt)
    if unit is not None:
        value = ms / unit
        singular, plural = _UNIT_NAMES[fmt]
        return f"{short_number(value)} {singular if value == 1 else plural}"
    if math.isnan(ms):
        return "NaN"
    if math.isinf(ms):
        return "Inf" if ms > 0 else "-Inf"
    match = _TIMER.fullmatch(fmt)
    fields, fraction = match.group(1), match.group(2)
    sign = "-" if ms < 0 else ""
    micro = math.floor(round(abs(ms) * 1000, 3))
    secs, micro_part = divmod(micro, 1_000_000)
    if fields == "dd:hh:mm:ss":
        days, rem = divmod(secs, 86400)
        hours, rem = divmod(rem, 3600)
        minutes, seconds = divmod(rem, 60)
        text = f"{days:02d}:{hours:02d}:{minutes:02d}:{seconds:02d}"
    elif fields == "hh:mm:ss":
        hours, rem = divmod(secs, 3600)
        minutes, seconds = divmod(rem, 60)
        text = f"{hours:02d}:{minutes:02d}:{seconds:02d}"
    elif fields == "mm:ss":
        minutes, seconds = divmod(secs, 60)
        text = f"{minutes:02d}:{seconds:02d}"
    else:
        hours, rem = divmod(secs, 3600)
        text = f"{hours:02d}:{rem // 60:02d}"
    if fraction:
        text += "." + f"{micro_part:06d}".ljust(9, "0")[:len(fraction)]
    return sign + text


def as_duration_data(value: Any) -> np.ndarray | None:
    """A duration operand's milliseconds (numbers count as days), None for others."""
    if type(value) is Duration:
        return value.data
    if type(value) is float or type(value) is bool:
        return np.array([[float(value) * MS_PER_UNIT["d"]]])
    if type(value) is np.ndarray and value.dtype.kind in "biuf":
        return value.astype(np.float64) * MS_PER_UNIT["d"]
    return None
