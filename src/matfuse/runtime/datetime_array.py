"""MATLAB ``datetime`` arrays.

``data`` holds milliseconds since 1-Jan-1970 00:00:00 (NaN is NaT). With
no explicit ``Format`` the display uses MATLAB's default
``dd-MMM-uuuu HH:mm:ss``, shortened to ``dd-MMM-uuuu`` when every element
falls on midnight (``datetime(2020,1,15)`` shows ``15-Jan-2020``).
``TimeZone`` is kept as text only: datetimes are unzoned.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.datetime_format import (
    DEFAULT_DATE_FORMAT,
    DEFAULT_FORMAT,
    MS_PER_DAY,
    field_arrays,
    format_datetime,
    guess_format,
    ms_from_field_arrays,
    parse_datetime,
    tokens,
)
from matfuse.runtime.datetime_zones import checked_zone, convert_zone, now_in
from matfuse.runtime.time_arrays import TimeArray, text_list, text_shape
from matfuse.runtime.values import char_array, class_of, to_str

_COMPONENTS = ("Year", "Month", "Day", "Hour", "Minute", "Second")


class Datetime(TimeArray):
    """A datetime array (value semantics)."""

    class_name = "datetime"
    overloads: dict = {}
    fill_value = float("nan")

    def __init__(self, data: Any, fmt: str | None = None, time_zone: str = ""):
        super().__init__(data, fmt)
        self.time_zone = time_zone

    def like(self, data: Any) -> "Datetime":
        return Datetime(data, self.fmt, self.time_zone)

    def display_format(self) -> str:
        """The format elements are shown in (``char``, display)."""
        if self.fmt is not None:
            return self.fmt
        data = self.data
        finite = np.isfinite(data)
        micro = np.round(np.where(finite, data, 0.0) * 1000)
        if np.all(np.mod(micro, MS_PER_DAY * 1000) == 0):
            return DEFAULT_DATE_FORMAT
        return DEFAULT_FORMAT

    def element_texts(self) -> list[str]:
        fmt = self.display_format()
        return [format_datetime(float(v), fmt) for v in self.data.reshape(-1, order="F")]

    def coerce(self, value: Any) -> np.ndarray:
        if type(value) is Datetime:
            return value.data
        texts = text_list(value)
        if texts is not None:
            fmt = self.fmt if self.fmt is not None else None
            values = [text_to_ms(t, fmt) for t in texts]
            return np.array(values, dtype=np.float64).reshape(text_shape(value), order="F")
        return super().coerce(value)

    # ------------------------------------------------------- properties
    def property_names(self) -> list[str]:
        return ["Format", "TimeZone", *_COMPONENTS, "SystemTimeZone"]

    def get_property(self, name: str) -> Any:
        if name == "Format":
            return char_array(self.fmt if self.fmt is not None else DEFAULT_FORMAT)
        if name == "TimeZone":
            return char_array(self.time_zone)
        if name == "SystemTimeZone":
            return char_array("UTC")
        if name in _COMPONENTS:
            return component_array(self.data, name)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> "Datetime":
        if name == "Format":
            return Datetime(self.data, checked_format(value), self.time_zone)
        if name == "TimeZone":
            zone = checked_zone(to_str(value))
            return Datetime(convert_zone(self.data, self.time_zone, zone), self.fmt, zone)
        if name in _COMPONENTS:
            parts = {c: component_array(self.data, c) for c in _COMPONENTS}
            parts[name] = np.broadcast_to(np.asarray(value, dtype=np.float64),
                                          self.data.shape)
            data = compose_ms(*(np.asarray(parts[c], dtype=np.float64) for c in _COMPONENTS))
            return self.like(data)
        return super().set_property(name, value)


def checked_format(value: Any) -> str | None:
    """A ``Format`` value: ``'default'``/``'defaultdate'`` or a format text."""
    try:
        text = to_str(value)
    except MatlabError:
        raise MatlabError("MATLAB:datetime:InvalidFormat",
                          "Format must be a character vector or string scalar.") from None
    if text == "default":
        return None
    if text == "defaultdate":
        return DEFAULT_DATE_FORMAT
    for kind, token in tokens(text):
        if kind == "field" and token[0] not in "yuMLdDeEcHhmsSaQGzZxX":
            raise MatlabError("MATLAB:datetime:UnsupportedSymbol",
                              f"Unsupported format symbol '{token[0]}' in '{text}'.")
    return text


def component_array(data: np.ndarray, name: str) -> Any:
    """One calendar field (``Year``...``Second``, ``Weekday``, ``DayOfYear``)
    of every element, as double (NaN for NaT)."""
    from matfuse.runtime.values import canonical

    return canonical(field_arrays(data)[name].reshape(data.shape))


def compose_ms(year: Any, month: Any, day: Any, hour: Any = 0.0, minute: Any = 0.0,
               second: Any = 0.0) -> np.ndarray:
    """Milliseconds of date/time fields with implicit expansion; months and
    days out of range carry over, as in ``datetime(Y,M,D,H,MI,S)``."""
    arrays = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in
                                   (year, month, day, hour, minute, second)))
    return ms_from_field_arrays(*arrays)


def pivot_year() -> int:
    return _dt.datetime.now().year - 50


def text_to_ms(text: str, fmt: str | None, input_format: str | None = None,
               pivot: int | None = None) -> float:
    """One date text as ms since 1970 (MATLAB's ``datetime(text)`` rules)."""
    stripped = text.strip()
    if stripped in ("", "NaT"):
        return float("nan")
    keyword = relative_day(stripped.lower())
    if keyword is not None and input_format is None:
        return keyword
    pivot = pivot_year() if pivot is None else pivot
    if input_format is not None:
        value = parse_datetime(stripped, input_format, pivot)
        if value is None:
            raise MatlabError("MATLAB:datetime:ParseErr",
                              f"Unable to convert '{text}' to datetime using the format "
                              f"'{input_format}'.")
        return value
    for candidate in ([fmt] if fmt else []):
        value = parse_datetime(stripped, candidate, pivot)
        if value is not None:
            return value
    guessed = guess_format(stripped, pivot)
    if guessed is None:
        raise MatlabError("MATLAB:datetime:UnrecognizedDateStringSuggestLocale",
                          f"Could not recognize the date/time format of '{text}'. You can "
                          f"specify a format using the 'InputFormat' parameter. If the "
                          f"date/time text contains day, month, or time zone names in a "
                          f"language foreign to the 'en_US' locale, those might not be "
                          f"recognized. You can specify a different locale using the "
                          f"'Locale' parameter.")
    return parse_datetime(stripped, guessed, pivot)


def now_ms(zone: str = "") -> float:
    """The current wall-clock time (of ``zone``; local when unzoned) as ms since 1970."""
    return now_in(zone)


def relative_day(keyword: str, zone: str = "") -> float | None:
    """``'now'``, ``'today'``, ``'yesterday'``, ``'tomorrow'`` as ms, else None."""
    if keyword == "now":
        return now_ms(zone)
    offsets = {"today": 0, "yesterday": -1, "tomorrow": 1}
    if keyword not in offsets:
        return None
    today = math.floor(now_ms(zone) / MS_PER_DAY) * MS_PER_DAY
    return today + offsets[keyword] * MS_PER_DAY


def as_datetime(value: Any, like: Datetime | None = None) -> Datetime:
    """A datetime operand: datetimes as they are, text converted."""
    if type(value) is Datetime:
        return value
    texts = text_list(value)
    if texts is not None:
        fmt = like.fmt if like is not None else None
        data = np.array([text_to_ms(t, fmt) for t in texts]).reshape(text_shape(value), order="F")
        return Datetime(data, fmt)
    raise MatlabError("MATLAB:datetime:InvalidComparison" if like is not None else
                      "MATLAB:invalidConversion",
                      f"Comparison is not defined between datetime and {class_of(value)} "
                      f"arrays." if like is not None else
                      f"Conversion to datetime from {class_of(value)} is not possible.")
