"""What may go into a MAT-file, checked before anything is written.

``save`` validates every variable first so that a bad value (a function
handle, a field name MATLAB cannot store) is reported before the old file is
touched.  Variable and field names must be ASCII identifiers of at most
``NAME_LENGTH_MAX`` (63) characters, as MATLAB's ``namelengthmax``.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.sparse_matrix import SparseMatrix
from matfuse.runtime.values import CellArray, DeviceValue, StringArray, StructArray, class_of

NAME_LENGTH_MAX = 63
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def is_valid_name(name: str) -> bool:
    """A MATLAB variable or field name (ASCII, letter first, <= 63 chars)."""
    return bool(_IDENT.match(name)) and len(name) <= NAME_LENGTH_MAX


def host_value(value: Any) -> Any:
    """gpuArrays are saved as their gathered host value."""
    if isinstance(value, DeviceValue):
        return value.gather()
    return value


def check_saveable(value: Any, name: str) -> None:
    """Raise MATLAB's save error when ``value`` (variable ``name``) cannot be
    written; walks cells and structs."""
    value = host_value(value)
    t = type(value)
    if t in (float, bool, complex):
        return
    if t is np.ndarray:
        if value.dtype.kind not in "biufcU":
            raise _unsupported(name, value)
        return
    if t is StringArray or t is SparseMatrix:
        return
    if t is CellArray:
        for item in value.data.reshape(-1):
            check_saveable(item, name)
        return
    if t is StructArray:
        if not value.fields and value.data.size > 1:
            raise MatlabError("MATLAB:save:unsupportedClass",
                              f"Unable to save variable '{name}': struct arrays with no fields "
                              "and more than one element are not supported.")
        for field in value.fields:
            if not is_valid_name(field):
                raise MatlabError("MATLAB:save:invalidFieldName",
                                  f"Unable to save variable '{name}': invalid field name '{field}'.")
        for element in value.data.reshape(-1):
            for field in value.fields:
                check_saveable(element[field], name)
        return
    raise _unsupported(name, value)


def _unsupported(name: str, value: Any) -> MatlabError:
    return MatlabError("MATLAB:save:unsupportedClass",
                       f"Unable to save variable '{name}' of class '{class_of(value)}'.")
