"""Arguments of graphics functions: MATLAB values as NumPy data and text,
name-value pairs (property names are case-insensitive, as in MATLAB)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE, DeviceValue, StringArray, to_array, to_str,
)


def gathered(value: Any) -> Any:
    """gpuArray data copied to the host (others unchanged)."""
    return value.gather() if isinstance(value, DeviceValue) else value


def is_text(value: Any) -> bool:
    """A char row vector or a string scalar."""
    if type(value) is np.ndarray and value.dtype == CHAR_DTYPE:
        return value.ndim == 2 and value.shape[0] <= 1
    return isinstance(value, StringArray) and value.data.size == 1


def text_of(value: Any) -> str:
    if type(value) is np.ndarray and value.dtype == CHAR_DTYPE and value.size == 0:
        return ""
    return to_str(value)


def texts_of(value: Any) -> list[str]:
    """Text, a cell array of texts, a string array or a char matrix as a list."""
    from matfuse.runtime.values import CellArray

    if is_text(value):
        return [text_of(value)]
    if isinstance(value, CellArray):
        return [text_of(v) for v in value.data.reshape(-1, order="F")]
    if isinstance(value, StringArray):
        return ["" if s is None else s for s in value.data.reshape(-1, order="F")]
    if type(value) is np.ndarray and value.dtype == CHAR_DTYPE:
        return ["".join(row).rstrip() for row in value.tolist()]
    raise MatlabError("MATLAB:graphics:invalidText",
                      "Expected a character vector, string, or cell array of character vectors.")


def is_numeric(value: Any) -> bool:
    value = gathered(value)
    if type(value) in (float, bool, complex):
        return True
    return type(value) is np.ndarray and value.dtype != CHAR_DTYPE


def numeric(value: Any) -> np.ndarray:
    """A numeric/logical value as a float64 ndarray (complex kept complex)."""
    value = gathered(value)
    if not is_numeric(value):
        raise MatlabError("MATLAB:graphics:invalidData", "Data must be numeric.")
    arr = to_array(value)
    if arr.dtype.kind == "c":
        return arr.astype(np.complex128)
    return arr.astype(np.float64)


def scalar(value: Any, what: str = "Value", finite: bool = True) -> float:
    """A numeric scalar as a float (finite unless ``finite`` is False)."""
    arr = numeric(value) if is_numeric(value) else None
    if arr is None or arr.size != 1 or arr.dtype.kind == "c":
        raise MatlabError("MATLAB:graphics:invalidScalar", f"{what} must be a real scalar.")
    number = float(arr.reshape(-1)[0])
    if finite and not np.isfinite(number):
        raise MatlabError("MATLAB:graphics:invalidScalar", f"{what} must be finite.")
    return number


def positive(value: Any, what: str = "Value") -> float:
    number = scalar(value, what)
    if number <= 0:
        raise MatlabError("MATLAB:graphics:notPositive", f"{what} must be greater than 0.")
    return number


def whole(value: Any, what: str = "Value", minimum: int = 1) -> int:
    """A whole number of at least ``minimum`` (counts, indices, grid sizes)."""
    number = scalar(value, what)
    if number != int(number) or number < minimum:
        raise MatlabError("MATLAB:graphics:invalidInteger",
                          f"{what} must be an integer of at least {minimum}.")
    return int(number)


def real_data(value: Any, what: str = "Data") -> np.ndarray:
    """Plot data: real numbers (complex parts are dropped, as MATLAB warns)."""
    arr = numeric(value)
    if arr.ndim > 2 and what != "image":
        raise MatlabError("MATLAB:graphics:dataNot2D", f"{what} must be a vector or 2-D matrix.")
    return np.real(arr).astype(np.float64)


def name_value_pairs(args: list[Any], fn: str) -> list[tuple[str, Any]]:
    """``'Name', value, ...`` as (name, value) pairs; names must be text."""
    if len(args) % 2:
        raise MatlabError("MATLAB:graphics:nameValueMismatch",
                          f"Invalid parameter/value pair arguments in '{fn}'.")
    pairs = []
    for k in range(0, len(args), 2):
        if not is_text(args[k]):
            raise MatlabError("MATLAB:graphics:invalidParameter",
                              f"Invalid parameter name in '{fn}': parameter names must be text.")
        pairs.append((text_of(args[k]), args[k + 1]))
    return pairs


def on_off(value: Any, what: str) -> bool:
    """``'on'``/``'off'`` (or a logical) as a bool."""
    if is_text(value):
        word = text_of(value).lower()
        if word in ("on", "off"):
            return word == "on"
    elif type(value) is bool or (type(value) is float and value in (0.0, 1.0)):
        return bool(value)
    raise MatlabError("MATLAB:datatypes:onoffboolean:IncorrectValue",
                      f"Invalid value for {what}: must be 'on' or 'off'.")
