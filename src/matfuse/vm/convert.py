"""Converting values between Python and MATLAB for the Python API.

MATLAB -> Python (``to_python``; every result is a copy, so editing it never
changes a workspace variable behind MATLAB's copy semantics):

=========================  ============================================
MATLAB                     Python
=========================  ============================================
double / logical scalar    ``float`` / ``bool``
other numeric, logical     ``numpy.ndarray`` copy, same dtype and shape
arrays, complex            (``a[i, j, k]`` is ``A(i+1, j+1, k+1)``)
char row vector            ``str``
char matrix                ``numpy.ndarray`` of dtype ``<U1`` (rows x cols)
string scalar              ``str`` (``<missing>``: ``None``)
string array               object ``numpy.ndarray`` of ``str``/``None``
cell vector (1xN, Nx1)     ``list``
other cells (N-D, MxN)     object ``numpy.ndarray``
scalar struct              ``dict`` (field order kept)
struct vector              ``list`` of ``dict``; N-D: object ndarray of dicts
gpuArray                   its gathered host value, converted as above
sparse matrix              ``scipy.sparse.csc_matrix`` copy
=========================  ============================================

Python -> MATLAB (``to_matlab``): ``bool`` logical, ``int``/``float``
double, ``complex`` complex double, ``str`` char row vector, NumPy scalars
and arrays keep their class (1-D arrays are rows; ``<U1`` arrays are char,
other ``U`` arrays strings; object arrays cells), ``dict`` scalar struct, a
list of numbers (or of equal-length number lists) a double matrix, a list of
bools a logical row, a list of dicts with the same keys a 1xN struct array,
any other list a 1xN cell, a 2-D ``scipy.sparse`` matrix of
float/complex/bool values a sparse matrix.  ``None`` and objects with no
MATLAB equivalent raise ``TypeError``.
"""

from __future__ import annotations

import numbers
import re
from typing import Any

import numpy as np

from matfuse.runtime.sparse_matrix import SparseMatrix, sparse_from_scipy
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    FunctionHandle,
    MObject,
    StringArray,
    StructArray,
    as_matlab_array,
    canonical,
    char_array,
    to_str,
)

_FIELD = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}\Z")
_NUMPY_CLASSES = frozenset("biufc")


# ------------------------------------------------------------ to Python
def to_python(value: Any) -> Any:
    """A MATLAB value as plain Python/NumPy data (a copy; see the module doc)."""
    if isinstance(value, DeviceValue):
        value = value.gather()
    t = type(value)
    if t in (float, bool, complex):
        return value
    if t is np.ndarray:
        if value.dtype == CHAR_DTYPE and value.ndim == 2 and value.shape[0] <= 1:
            return to_str(value) if value.size else ""
        return value.copy()
    if t is StringArray:
        if value.data.size == 1:
            return value.data.reshape(-1)[0]
        return value.data.copy()
    if t is CellArray:
        return _container(value.data, to_python)
    if t is StructArray:
        fields = value.fields

        def as_dict(element: dict) -> dict:
            return {f: to_python(element[f]) for f in fields}

        if value.data.size == 1:
            return as_dict(value.data.reshape(-1)[0])
        return _container(value.data, as_dict)
    if t is SparseMatrix:
        return value.csc.copy()
    if isinstance(value, (FunctionHandle, MObject)):
        return value        # opaque: usable only by passing it back to MATLAB
    return value



def _is_scipy_sparse(value: Any) -> bool:
    """A SciPy sparse matrix or array, without importing SciPy for values
    that cannot be one."""
    module = type(value).__module__
    if not module.startswith("scipy.sparse"):
        return False
    import scipy.sparse

    return scipy.sparse.issparse(value)

def _container(data: np.ndarray, convert: Any) -> Any:
    """Vectors (and 0x0) as lists in column-major order, others as object arrays."""
    if data.ndim == 2 and (data.shape[0] <= 1 or data.shape[1] <= 1):
        return [convert(x) for x in data.reshape(-1, order="F")]
    out = np.empty(data.shape, dtype=object)
    for idx in np.ndindex(data.shape):
        out[idx] = convert(data[idx])
    return out


# ------------------------------------------------------------ to MATLAB
def to_matlab(value: Any) -> Any:
    """A Python value as a MATLAB value; TypeError when there is none."""
    if value is None:
        raise TypeError("None has no MATLAB equivalent; use an empty array (numpy.zeros((0, 0))) "
                        "or an empty list for [].")
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (str, np.str_)):
        return char_array(str(value))
    if isinstance(value, np.generic):
        return _array(np.asarray(value).reshape(1, 1))
    if isinstance(value, numbers.Integral) or isinstance(value, float):
        return float(value)
    if isinstance(value, complex):
        return np.array([[value]], dtype=np.complex128)
    if isinstance(value, np.ndarray):
        return _array(value)
    if isinstance(value, dict):
        return StructArray.scalar(_fields(value))
    if isinstance(value, (list, tuple)):
        return _sequence(list(value))
    if _is_scipy_sparse(value):
        return _sparse(value)
    if isinstance(value, (CellArray, StructArray, StringArray, FunctionHandle, MObject, DeviceValue)):
        return value
    raise TypeError(f"Cannot convert a Python {type(value).__name__} to a MATLAB value.")


def _sparse(value: Any) -> SparseMatrix:
    if value.dtype.kind not in "fcb" or value.ndim != 2:
        raise TypeError(f"Sparse matrices of dtype {value.dtype} have no MATLAB class "
                        "(MATLAB's sparse matrices are double or logical).")
    return sparse_from_scipy(value)


def _fields(mapping: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in mapping.items():
        if not isinstance(key, str) or not _FIELD.match(key):
            raise TypeError(f"Dictionary key {key!r} is not a valid MATLAB field name "
                            "(ASCII letter first, then letters, digits or '_', at most 63).")
        out[key] = to_matlab(item)
    return out


def _array(value: np.ndarray) -> Any:
    kind = value.dtype.kind
    if kind == "U":
        if value.dtype == CHAR_DTYPE:
            return as_matlab_array(value.copy()) if value.ndim >= 2 else char_array("".join(value.tolist()))
        data = np.empty(value.shape if value.ndim >= 2 else (1, value.size), dtype=object)
        data.reshape(-1)[:] = [str(s) for s in value.reshape(-1)]
        return StringArray(data)
    if kind == "O":
        data = np.empty(value.shape, dtype=object)
        for idx in np.ndindex(value.shape):
            data[idx] = to_matlab(value[idx])
        return CellArray(as_matlab_array(data))
    if kind not in _NUMPY_CLASSES or value.dtype in (np.float16, np.longdouble, np.clongdouble):
        raise TypeError(f"NumPy arrays of dtype {value.dtype} have no MATLAB class.")
    return canonical(as_matlab_array(np.array(value, copy=True)))


def _sequence(items: list) -> Any:
    if not items:
        return np.zeros((0, 0))
    if all(isinstance(x, (bool, np.bool_)) for x in items):
        return canonical(np.array(items, dtype=np.bool_).reshape(1, -1))
    if all(_is_number(x) for x in items):
        kind = np.complex128 if any(isinstance(x, complex) for x in items) else np.float64
        return canonical(np.array(items, dtype=kind).reshape(1, -1))
    if all(isinstance(x, (list, tuple)) and x and all(_is_number(y) for y in x) for x in items) \
            and len({len(x) for x in items}) == 1:
        kind = np.complex128 if any(isinstance(y, complex) for x in items for y in x) else np.float64
        return canonical(np.array(items, dtype=kind))
    if all(isinstance(x, dict) for x in items) and len({tuple(x) for x in items}) == 1:
        converted = [_fields(x) for x in items]
        data = np.empty((1, len(items)), dtype=object)
        for i, element in enumerate(converted):
            data[0, i] = element
        return StructArray(list(converted[0]), data)
    return CellArray.from_list([to_matlab(x) for x in items])


def _is_number(x: Any) -> bool:
    return isinstance(x, (numbers.Number, np.number)) and not isinstance(x, (bool, np.bool_))
