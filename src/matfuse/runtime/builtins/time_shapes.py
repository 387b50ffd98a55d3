"""Shape and set functions for datetime, duration and calendarDuration
arrays: ``repmat reshape permute fliplr flipud flip circshift squeeze rot90
transpose ctranspose`` (the numeric builtin rearranges element positions,
which then pick the elements), ``unique``, ``ismember`` and ``linspace``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.calendar_duration import CalendarDuration
from matfuse.runtime.datetime_array import Datetime
from matfuse.runtime.duration_array import Duration
from matfuse.runtime.registry import lookup
from matfuse.runtime.time_arrays import TimeArray, time_method
from matfuse.runtime.values import class_of, to_array

ALL = (Datetime, Duration, CalendarDuration)
ORDERED = (Datetime, Duration)


def _rearranged(name: str, t: TimeArray, rest: tuple) -> TimeArray:
    """``name(t, rest...)`` computed on element positions."""
    for value in rest:
        if isinstance(value, TimeArray):
            raise MatlabError("MATLAB:UndefinedFunction",
                              f"Undefined function '{name}' for input arguments of type "
                              f"'{class_of(value)}'.")
    positions = np.arange(t.data.size, dtype=np.float64).reshape(t.data.shape, order="F")
    moved = to_array(lookup(name).impl(positions, *rest))
    flat = t.data.reshape(-1, order="F")
    picked = flat[moved.reshape(-1, order="F").astype(np.intp)]
    return t.like(picked.reshape(moved.shape, order="F"))


def _declare(name: str, nargin: tuple[int, int | None]) -> None:
    def method(t: TimeArray, *rest: Any) -> TimeArray:
        return _rearranged(name, t, rest)

    method.__doc__ = f"``{name}`` of a datetime, duration or calendarDuration array."
    time_method(name, ALL, nargin=nargin)(method)


for _name, _nargin in (("repmat", (2, None)), ("reshape", (2, None)), ("permute", (2, 2)),
                       ("fliplr", (1, 1)), ("flipud", (1, 1)), ("flip", (1, 2)),
                       ("circshift", (2, 3)), ("squeeze", (1, 1)), ("rot90", (1, 2)),
                       ("transpose", (1, 1)), ("ctranspose", (1, 1))):
    _declare(_name, _nargin)


def _same_class_data(v: Any, like: TimeArray) -> np.ndarray:
    if isinstance(v, TimeArray) and type(v) is not type(like):
        raise MatlabError("MATLAB:invalidConversion",
                          f"Conversion to {like.class_name} from {class_of(v)} is not "
                          f"possible.")
    return v.data if isinstance(v, TimeArray) else like.coerce(v)


@time_method("unique", ORDERED, nargin=(1, 4), nargout=(0, 3), wants_nargout=True)
def time_unique(t: TimeArray, *options: Any, nargout: int = 1) -> Any:
    """``[C, ia, ic] = unique(t, ...)``: the distinct times, sorted (options
    as for numeric ``unique``); every NaT is distinct."""
    out = lookup("unique").impl(t.data, *options, nargout=max(nargout, 1))
    if type(out) is tuple:
        return (t.like(to_array(out[0])),) + tuple(out[1:])
    return t.like(to_array(out))


@time_method("ismember", ORDERED, nargin=(2, 3), nargout=(0, 2), wants_nargout=True)
def time_ismember(a: Any, s: Any, *options: Any, nargout: int = 1) -> Any:
    """``[tf, loc] = ismember(a, s)`` for times (text converts to datetime)."""
    like = a if isinstance(a, TimeArray) else s
    return lookup("ismember").impl(_same_class_data(a, like), _same_class_data(s, like),
                                   *options, nargout=max(nargout, 1))


@time_method("linspace", ORDERED, nargin=(2, 3))
def time_linspace(a: Any, b: Any, n: Any = None) -> TimeArray:
    """``n`` (default 100) evenly spaced times from ``a`` to ``b``."""
    like = a if isinstance(a, TimeArray) else b
    x, y = _same_class_data(a, like), _same_class_data(b, like)
    if x.size != 1 or y.size != 1:
        raise MatlabError("MATLAB:linspace:scalarInputs", "Inputs must be scalars.")
    args = (float(x.reshape(-1)[0]), float(y.reshape(-1)[0])) + (() if n is None else (n,))
    return like.like(to_array(lookup("linspace").impl(*args)))
