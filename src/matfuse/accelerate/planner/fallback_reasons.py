"""Why an operation on device data ran on the host, in words for
``--explain``: the form of the call that no device path took.

The device paths return "not mine" for many distinct reasons (an option
word, a class, complex data, an empty array, a provider without the hook);
the call's form names which: ``median(gpuArray int32 30x20, 'omitnan')``
reads as "this form of median, with int32 data, has no device path".
Strings are built only while someone observes fallbacks.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.runtime.values import (
    AUTO_OFFLOADED,
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    FunctionHandle,
    class_of,
)

_MAX_TEXT = 24


def _size(shape: Any) -> str:
    return "x".join(str(int(d)) for d in shape)


def describe_value(v: Any) -> str:
    """A short MATLAB-style description of one argument."""
    if isinstance(v, DeviceValue):
        cls = v.underlying_class() + (" complex" if v.is_complex() else "")
        where = "(on the device)" if v in AUTO_OFFLOADED else "gpuArray"
        return f"{where} {cls} {_size(v.shape)}" if where == "gpuArray" else \
            f"{cls} {_size(v.shape)} {where}"
    t = type(v)
    if t is float:
        return f"{v:g}"
    if t is bool:
        return "true" if v else "false"
    if t is complex:
        return f"complex {v}"
    if isinstance(v, FunctionHandle):
        return v.display_text()
    if isinstance(v, CellArray):
        return f"cell {_size(v.shape)}"
    if t is np.ndarray:
        if v.dtype == CHAR_DTYPE and v.ndim == 2 and v.shape[0] <= 1:
            text = "".join(v.reshape(-1))
            return "'" + (text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT] + "...") + "'"
        kind = " complex" if v.dtype.kind == "c" else ""
        return f"{class_of(v)}{kind} {_size(v.shape)}"
    return class_of(v)


def call_form(name: str, args: list[Any]) -> Callable[[], str]:
    """The reason of a builtin's fallback: its call form."""
    return lambda: (f"no device path for {name}("
                    + ", ".join(describe_value(a) for a in args) + ")")


def operator_form(symbol: str, *operands: Any) -> Callable[[], str]:
    """The reason of an operator's fallback: its operands."""
    if len(operands) == 1:
        return lambda: f"no device path for {symbol} of {describe_value(operands[0])}"
    a, b = operands
    return lambda: f"no device path for {describe_value(a)} {symbol} {describe_value(b)}"


def message(text: str) -> Callable[[], str]:
    """A fixed reason."""
    return lambda: text
