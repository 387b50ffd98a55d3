"""Functions MATLAB overloads for datetime, duration and calendarDuration
arrays: text conversion (``char string cellstr disp``), ``isequal``,
ordering (``sort min max``), ``diff``, ``mean``/``median``, and for
durations ``sum abs isnan round floor ceil``. The numeric work is the
numeric builtin's, run on the arrays' milliseconds; results are wrapped back."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.calendar_duration import CalendarDuration
from matfuse.runtime.datetime_array import Datetime
from matfuse.runtime.duration_array import Duration
from matfuse.runtime.registry import lookup
from matfuse.runtime.time_arrays import TimeArray, time_method
from matfuse.runtime.values import (
    CellArray,
    StringArray,
    canonical,
    char_array,
    char_rows,
    class_of,
    to_array,
    to_str,
)

ALL = (Datetime, Duration, CalendarDuration)
ORDERED = (Datetime, Duration)


def _numeric(name: str) -> Any:
    return lookup(name).impl


def _data(v: Any, like: TimeArray) -> Any:
    """An operand's milliseconds: a time array's own, text converted to
    ``like``'s class; ``[]`` passes (the placeholder of ``min(t, [], dim)``)."""
    if isinstance(v, TimeArray):
        if type(v) is not type(like):
            like.coerce(v)          # MATLAB's conversion error
        return v.data
    if type(v) is np.ndarray and v.size == 0 and v.dtype.kind == "f":
        return v
    return like.coerce(v)


# ------------------------------------------------------------------ text
@time_method("char", ALL)
def time_char(t: TimeArray) -> Any:
    """The elements' display text as a char matrix (one row each)."""
    texts = t.element_texts()
    if len(texts) == 1:
        return char_array(texts[0])
    return char_rows(texts)


@time_method("string", ALL)
def time_string(t: TimeArray) -> StringArray:
    """The elements' display text as a string array of the same size."""
    texts = np.empty(len(t.element_texts()), dtype=object)
    texts[:] = t.element_texts()
    return StringArray(texts.reshape(t.shape, order="F"))


@time_method("cellstr", ALL)
def time_cellstr(t: TimeArray) -> CellArray:
    """The elements' display text as a cell array of char vectors."""
    return CellArray.from_list([char_array(s) for s in t.element_texts()], t.shape)


@time_method("disp", ALL, needs_ctx=True, nargout=(0, 0))
def time_disp(ctx: Any, t: TimeArray) -> None:
    """The elements as the display shows them, without the name and class lines."""
    lines = t.body_lines()
    ctx.write("\n".join(lines) + "\n" if lines else "")


# ------------------------------------------------------------- equality
def _equal(values: tuple, nan_equal: bool) -> bool:
    like = next(v for v in values if isinstance(v, TimeArray))
    try:
        arrays = [v.data if type(v) is type(like) else like.coerce(v) for v in values]
    except MatlabError:          # a value of another class is not equal
        return False
    first = arrays[0]
    for other in arrays[1:]:
        if first.shape != other.shape:
            return False
        names = first.dtype.names or (None,)
        for n in names:
            x, y = (first, other) if n is None else (first[n], other[n])
            if not np.array_equal(x, y, equal_nan=nan_equal):
                return False
    return True


@time_method("isequal", ALL, nargin=(2, None))
def time_isequal(*values: Any) -> bool:
    """True when all arguments are the same size and hold the same times (NaT ~= NaT)."""
    return _equal(values, False)


@time_method("isequaln", ALL, nargin=(2, None))
def time_isequaln(*values: Any) -> bool:
    """Like ``isequal``, with NaT (NaN) elements equal."""
    return _equal(values, True)


# ------------------------------------------------------------- ordering
@time_method("sort", ORDERED, nargin=(1, 3), nargout=(0, 2), wants_nargout=True)
def time_sort(t: TimeArray, *args: Any, nargout: int = 1) -> Any:
    """``[s, i] = sort(t, dim, mode)``: sorted times (NaT last ascending)."""
    out = _numeric("sort")(t.data, *args, nargout=max(nargout, 1))
    if type(out) is tuple:
        return (t.like(to_array(out[0])),) + tuple(out[1:])
    return t.like(to_array(out))


def _extreme(name: str, args: tuple, nargout: int) -> Any:
    like = next(a for a in args if isinstance(a, TimeArray))
    plain = [_data(a, like) if k < 2 else a for k, a in enumerate(args)]
    out = _numeric(name)(*plain, nargout=max(nargout, 1))
    if type(out) is tuple:
        return (like.like(to_array(out[0])),) + tuple(out[1:])
    return like.like(to_array(out))


@time_method("min", ORDERED, nargin=(1, 4), nargout=(0, 2), wants_nargout=True)
def time_min(*args: Any, nargout: int = 1) -> Any:
    """The earliest/shortest elements (``min(t)``, ``min(t, [], dim)``, ``min(a, b)``)."""
    return _extreme("min", args, nargout)


@time_method("max", ORDERED, nargin=(1, 4), nargout=(0, 2), wants_nargout=True)
def time_max(*args: Any, nargout: int = 1) -> Any:
    """The latest/longest elements (``max(t)``, ``max(t, [], dim)``, ``max(a, b)``)."""
    return _extreme("max", args, nargout)


@time_method("diff", ORDERED, nargin=(1, 3))
def time_diff(t: TimeArray, *args: Any) -> Duration:
    """Differences between neighbouring elements, as durations."""
    out = to_array(_numeric("diff")(t.data, *args))
    return Duration(out) if type(t) is Datetime else t.like(out)


@time_method("issorted", ORDERED, nargin=(1, 3))
def time_issorted(t: TimeArray, *args: Any) -> Any:
    """True when the times are in order."""
    return _numeric("issorted")(t.data, *args)


# ----------------------------------------------------------- statistics
@time_method("mean", ORDERED, nargin=(1, 4))
def time_mean(t: TimeArray, *args: Any) -> TimeArray:
    """The mean time (datetime) or mean length (duration)."""
    return t.like(to_array(_numeric("mean")(t.data, *args)))


@time_method("median", ORDERED, nargin=(1, 4))
def time_median(t: TimeArray, *args: Any) -> TimeArray:
    """The median time or length."""
    return t.like(to_array(_numeric("median")(t.data, *args)))


@time_method("sum", (Duration,), nargin=(1, 4))
def duration_sum(t: Duration, *args: Any) -> Duration:
    """The total of durations."""
    return t.like(to_array(_numeric("sum")(t.data, *args)))


@time_method("abs", (Duration,))
def duration_abs(t: Duration) -> Duration:
    """Absolute lengths."""
    return t.like(np.abs(t.data))


@time_method("isnan", (Duration,))
def duration_isnan(t: Duration) -> Any:
    """True where a duration is NaN."""
    return canonical(np.isnan(t.data))


@time_method("num2str", ALL, nargin=(1, 2))
def time_num2str(t: TimeArray, *_: Any) -> Any:
    """Not defined for times: MATLAB's error naming the class."""
    raise MatlabError("MATLAB:num2str:nonNumericInput",
                      f"Input to num2str must be numeric, not {class_of(t)}.")


_ROUND_UNITS = {"seconds": 1000.0, "minutes": 60_000.0, "hours": 3_600_000.0,
                "days": 86_400_000.0, "years": 365.2425 * 86_400_000.0}


def _rounded(t: Duration, unit: Any, how: Any) -> Duration:
    name = "seconds" if unit is None else to_str(unit).lower()
    if not name.endswith("s"):
        name += "s"
    if name not in _ROUND_UNITS:
        raise MatlabError("MATLAB:duration:InvalidRoundingUnit",
                          f"'{to_str(unit)}' is not a valid unit for rounding a duration.")
    size = _ROUND_UNITS[name]
    return t.like(how(t.data / size) * size)


def _half_away(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


@time_method("round", (Duration,), nargin=(1, 2))
def duration_round(t: Duration, unit: Any = None) -> Duration:
    """Durations rounded to whole seconds (or ``unit``: ``'minutes'``,
    ``'hours'``, ``'days'``, ``'years'``), halves away from zero."""
    return _rounded(t, unit, _half_away)


@time_method("floor", (Duration,), nargin=(1, 2))
def duration_floor(t: Duration, unit: Any = None) -> Duration:
    """Durations rounded toward negative infinity to whole seconds (or ``unit``)."""
    return _rounded(t, unit, np.floor)


@time_method("ceil", (Duration,), nargin=(1, 2))
def duration_ceil(t: Duration, unit: Any = None) -> Duration:
    """Durations rounded toward positive infinity to whole seconds (or ``unit``)."""
    return _rounded(t, unit, np.ceil)


@time_method("isobject", ALL)
def time_isobject(t: TimeArray) -> bool:
    """True: datetime, duration and calendarDuration arrays are MATLAB objects."""
    return True
