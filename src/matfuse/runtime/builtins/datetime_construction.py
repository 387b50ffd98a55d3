"""Creating datetimes: ``datetime`` (from text, components, date vectors or
converted numbers), ``NaT``, and the ``isdatetime``/``isnat`` tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.datetime_array import (
    Datetime,
    checked_format,
    compose_ms,
    now_ms,
    relative_day,
    text_to_ms,
)
from matfuse.runtime.datetime_format import EPOCH_SERIAL_DAY, MS_PER_DAY
from matfuse.runtime.datetime_zones import checked_zone, convert_zone
from matfuse.runtime.registry import builtin
from matfuse.runtime.time_arrays import text_list, text_shape
from matfuse.runtime.values import CHAR_DTYPE, StringArray, canonical, class_of, to_str

_OPTIONS = ("format", "inputformat", "convertfrom", "timezone", "locale", "pivotyear",
            "epoch", "tickspersecond")
# Days from each ConvertFrom origin to 1-Jan-1970.
_DAY_ORIGINS = {"datenum": EPOCH_SERIAL_DAY, "excel": 25569.0, "excel1904": 24107.0,
                "juliandate": 2440587.5, "modifiedjuliandate": 40587.0}


def _is_text(v: Any) -> bool:
    return (type(v) is np.ndarray and v.dtype == CHAR_DTYPE) or type(v) is StringArray


def _split_options(args: tuple, first_option: int) -> tuple[list, dict[str, Any]]:
    """The data arguments and the name-value options (names lower-cased)."""
    data = list(args[:first_option])
    rest = args[first_option:]
    if len(rest) % 2:
        raise MatlabError("MATLAB:datetime:InvalidNameValuePair" if rest else
                          "MATLAB:datetime:InvalidInput",
                          "Name-value pair arguments must come in pairs.")
    options: dict[str, Any] = {}
    for name, value in zip(rest[::2], rest[1::2]):
        key = to_str(name).lower() if _is_text(name) else None
        if key not in _OPTIONS:
            raise MatlabError("MATLAB:datetime:InvalidParameterName",
                              f"'{to_str(name) if _is_text(name) else class_of(name)}' is not "
                              f"a recognized parameter. For a list of valid name-value pair "
                              f"arguments, see the documentation for datetime.")
        options[key] = value
    return data, options


def _first_option(args: tuple, start: int) -> int:
    for k in range(start, len(args)):
        if _is_text(args[k]) and to_str(args[k]).lower() in _OPTIONS:
            return k
    return len(args)


def _numbers(v: Any, what: str = "datetime") -> np.ndarray:
    if type(v) is float or type(v) is bool:
        return np.array([[float(v)]])
    if type(v) is np.ndarray and v.dtype.kind in "biuf":
        return v.astype(np.float64)
    raise MatlabError("MATLAB:datetime:InvalidNumericData" if what == "datetime" else
                      "MATLAB:datetime:InvalidInput",
                      "Numeric input data must be a matrix with three or six columns, or "
                      "else three, six, or seven separate numeric arrays.")


def _format_option(options: dict[str, Any]) -> tuple[str | None, bool]:
    """(Format, whether it is 'preserveinput')."""
    if "format" not in options:
        return None, False
    text = to_str(options["format"])
    if text == "preserveinput":
        return None, True
    return checked_format(options["format"]), False


def _convert_from(values: np.ndarray, options: dict[str, Any]) -> np.ndarray:
    kind = to_str(options["convertfrom"]).lower()
    if kind in _DAY_ORIGINS:
        return (values - _DAY_ORIGINS[kind]) * MS_PER_DAY
    if kind == "posixtime":
        return values * 1000.0
    if kind == "yyyymmdd":
        year = np.floor(values / 10000)
        month = np.floor(values / 100) - 100 * year
        day = values - 10000 * year - 100 * month
        return compose_ms(year, month, day)
    if kind in ("epochtime", "ntp", ".net", "ntfs", "tt2000"):
        if kind != "epochtime":
            raise MatlabError("MATLAB:datetime:UnsupportedConversion",
                              f"Conversion from '{kind}' is not supported.")
        epoch = datetime_fn(options["epoch"]) if "epoch" in options else Datetime(0.0)
        ticks = float(np.asarray(options.get("tickspersecond", 1.0)).reshape(-1)[0])
        return epoch.data.reshape(-1)[0] + values / ticks * 1000.0
    raise MatlabError("MATLAB:datetime:UnrecognizedConvertFrom",
                      f"'{kind}' is not a valid value for 'ConvertFrom'.")


@builtin("datetime", category="datetime", nargin=(0, None))
def datetime_fn(*args: Any) -> Datetime:
    """Create a datetime array.

    ``datetime`` / ``datetime('now')``: the current date and time;
    ``'today'``, ``'yesterday'``, ``'tomorrow'``: midnight of that day;
    ``datetime(text, 'InputFormat', fmt)``: dates read from text (char,
    string or cellstr; the format is guessed without InputFormat);
    ``datetime(Y,M,D)``, ``datetime(Y,M,D,H,MI,S[,MS])``: from components
    (out-of-range values carry over); ``datetime(DateVectors)``;
    ``datetime(X, 'ConvertFrom', kind)`` for ``datenum``, ``posixtime``,
    ``excel``, ``juliandate``, ``yyyymmdd``, ``epochtime``. Options
    ``'Format'`` (display format) and ``'TimeZone'`` (kept as text).
    """
    if not args:
        return Datetime(now_ms())
    if _is_text(args[0]) or type(args[0]) is np.ndarray and args[0].dtype == object:
        return _from_text(args)
    from matfuse.runtime.values import CellArray

    if type(args[0]) is CellArray:
        return _from_text(args)
    if type(args[0]) is Datetime:
        data, options = _split_options(args, 1)
        fmt, _ = _format_option(options)
        zone = checked_zone(to_str(options["timezone"])) if "timezone" in options \
            else args[0].time_zone
        return Datetime(convert_zone(args[0].data, args[0].time_zone, zone),
                        fmt if "format" in options else args[0].fmt, zone)
    data, options = _split_options(args, _first_option(args, 1))
    fmt, _ = _format_option(options)
    zone = checked_zone(to_str(options["timezone"])) if "timezone" in options else ""
    numbers = [_numbers(v) for v in data]
    if "convertfrom" in options:
        if len(numbers) != 1:
            raise MatlabError("MATLAB:datetime:InvalidNumericData",
                              "'ConvertFrom' needs one numeric array.")
        return Datetime(_convert_from(numbers[0], options), fmt, zone)
    if len(numbers) == 1:
        vectors = numbers[0]
        if vectors.ndim != 2 or vectors.shape[1] not in (3, 6):
            raise MatlabError("MATLAB:datetime:InvalidNumericData",
                              "Numeric input data must be a matrix with three or six columns, "
                              "or else three, six, or seven separate numeric arrays.")
        columns = [vectors[:, k:k + 1] for k in range(vectors.shape[1])]
        return Datetime(compose_ms(*columns), fmt, zone)
    if len(numbers) not in (3, 6, 7):
        raise MatlabError("MATLAB:datetime:InvalidNumericData",
                          "Numeric input data must be a matrix with three or six columns, or "
                          "else three, six, or seven separate numeric arrays.")
    if len(numbers) == 7:
        numbers = numbers[:5] + [numbers[5] + numbers[6] / 1000.0]
    _check_sizes(numbers)
    return Datetime(compose_ms(*numbers), fmt, zone)


def _check_sizes(arrays: list[np.ndarray]) -> None:
    shapes = {a.shape for a in arrays if a.size != 1}
    if len(shapes) > 1:
        raise MatlabError("MATLAB:datetime:InputSizeMismatch",
                          "Numeric inputs must be the same size, or any of them can be a "
                          "scalar.")


def _from_text(args: tuple) -> Datetime:
    data, options = _split_options(args, 1)
    texts = text_list(data[0])
    if texts is None:
        raise MatlabError("MATLAB:datetime:InvalidTextInput",
                          "Input data must be a string array, character vector, or cell "
                          "array of character vectors.")
    fmt, preserve = _format_option(options)
    input_format = to_str(options["inputformat"]) if "inputformat" in options else None
    zone = checked_zone(to_str(options["timezone"])) if "timezone" in options else ""
    pivot = None
    if "pivotyear" in options:
        year = _numbers(options["pivotyear"], "pivot").reshape(-1)
        if year.size != 1 or not np.isfinite(year[0]) or year[0] != int(year[0]):
            raise MatlabError("MATLAB:datetime:InvalidPivotYear",
                              "PivotYear must be an integer scalar.")
        pivot = int(year[0])
    values = []
    for text in texts:
        keyword = relative_day(text.strip().lower(), zone) if input_format is None else None
        values.append(keyword if keyword is not None else
                      text_to_ms(text, None, input_format, pivot))
    if preserve and input_format is not None:
        fmt = input_format
    shape = text_shape(data[0])
    return Datetime(np.array(values, dtype=np.float64).reshape(shape, order="F"), fmt, zone)


@builtin("NaT", category="datetime", nargin=(0, None))
def nat(*args: Any) -> Datetime:
    """``NaT``, ``NaT(n)``, ``NaT(sz1, sz2, ...)``: not-a-time datetimes
    (``'Format'`` may follow)."""
    data, options = _split_options(args, _first_option(args, 0))
    fmt, _ = _format_option(options)
    sizes = [x for d in data for x in np.asarray(_numbers(d)).reshape(-1).tolist()]
    if any(not np.isfinite(x) or x != int(x) for x in sizes):
        raise MatlabError("MATLAB:NonIntegerInput", "Size inputs must be integers.")
    dims = [int(x) for x in sizes]
    if not dims:
        dims = [1, 1]
    elif len(dims) == 1:
        dims = dims * 2
    return Datetime(np.full([max(d, 0) for d in dims], np.nan), fmt)


@builtin("isdatetime", category="datetime", nargin=(1, 1))
def isdatetime(v: Any) -> bool:
    """True for a datetime array."""
    return type(v) is Datetime


@builtin("isnat", category="datetime", nargin=(1, 1))
def isnat(v: Any) -> Any:
    """True where a datetime is NaT (not-a-time)."""
    if type(v) is not Datetime:
        raise MatlabError("MATLAB:datetime:isnat:InvalidInput",
                          "Input must be a datetime array.")
    return canonical(np.isnan(v.data))
