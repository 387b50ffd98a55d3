"""Class and shape predicates: ``isa isnumeric ... isequal`` and ``size numel
ndims length``.

These read only a value's class and shape, so device values answer without
a copy to the host (``GpuSpec(kind="metadata")``).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.classdef_objects import ClassInfo, ClassObject
from matfuse.runtime._classrules import INTEGER_SET
from matfuse.runtime.builtins._common import dim_arg, text_arg
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    FunctionHandle,
    StringArray,
    StructArray,
    char_codes,
    class_of,
    element_class,
    is_complex_value,
    to_array,
)

_META = GpuSpec(kind="metadata", hook=None, op=None, returns_gpu=False)
_FLOATS = ("double", "single")


def shape_tuple(v: Any) -> tuple[int, ...]:
    """``size(v)`` as a tuple; device values report their shape directly."""
    t = type(v)
    if t is float or t is bool or t is complex:
        return (1, 1)
    shape = getattr(v, "shape", None)
    if shape is None:
        return (1, 1)
    return tuple(int(d) for d in shape)


def _predicate(name: str, test: Callable[[Any], bool], doc: str) -> None:
    def impl(v: Any) -> bool:
        return bool(test(v))

    impl.__name__ = name
    impl.__doc__ = doc
    builtin(name, category="types", nargin=(1, 1), gpu=_META)(impl)


def _is_numeric(v: Any) -> bool:
    return element_class(v) in _FLOATS or element_class(v) in INTEGER_SET


def _is_cellstr(v: Any) -> bool:
    if type(v) is not CellArray:
        return False
    return all(type(e) is np.ndarray and e.dtype == CHAR_DTYPE for e in v.data.reshape(-1))


def _is_real(v: Any) -> bool:
    if type(v) in (CellArray, StructArray, StringArray, FunctionHandle):
        return False
    return not is_complex_value(v)


def _is_vector(v: Any) -> bool:
    s = shape_tuple(v)
    return len(s) == 2 and (s[0] == 1 or s[1] == 1)


_predicate("isnumeric", _is_numeric, "True for double, single and integer arrays.")
_predicate("isfloat", lambda v: element_class(v) in _FLOATS, "True for double and single arrays.")
_predicate("isinteger", lambda v: element_class(v) in INTEGER_SET, "True for integer arrays.")
_predicate("islogical", lambda v: element_class(v) == "logical", "True for logical arrays.")
_predicate("ischar", lambda v: element_class(v) == "char", "True for char arrays.")
_predicate("iscell", lambda v: type(v) is CellArray, "True for cell arrays.")
_predicate("isstruct", lambda v: type(v) is StructArray, "True for structs.")
_predicate("iscellstr", _is_cellstr, "True for a cell array whose elements are all char arrays.")
_predicate("isreal", _is_real, "True when the value has no imaginary part storage.")
_predicate("iscomplex", lambda v: type(v) not in (CellArray, StructArray, StringArray, FunctionHandle)
           and is_complex_value(v), "True when the value has complex storage (even with zero imaginary parts).")
_predicate("isscalar", lambda v: shape_tuple(v) == (1, 1), "True for 1x1 values.")
_predicate("isvector", _is_vector, "True for 1xN and Nx1 values.")
_predicate("isrow", lambda v: len(shape_tuple(v)) == 2 and shape_tuple(v)[0] == 1,
           "True for 1xN values.")
_predicate("iscolumn", lambda v: len(shape_tuple(v)) == 2 and shape_tuple(v)[1] == 1,
           "True for Nx1 values.")
_predicate("ismatrix", lambda v: len(shape_tuple(v)) == 2, "True for 2-D values.")
_predicate("issquare", lambda v: len(shape_tuple(v)) == 2 and shape_tuple(v)[0] == shape_tuple(v)[1],
           "True for NxN values.")
_predicate("isempty", lambda v: 0 in shape_tuple(v), "True when some dimension is zero.")


@builtin("isa", category="types", nargin=(2, 2), gpu=_META)
def isa(v: Any, name: Any) -> bool:
    """``isa(x, cls)``; also the categories ``numeric``, ``float``, ``integer``."""
    cls = text_arg(name, "isa", "class name")
    if cls == "numeric":
        return _is_numeric(v)
    if cls == "float":
        return element_class(v) in _FLOATS
    if cls == "integer":
        return element_class(v) in INTEGER_SET
    if cls == "MException" and isinstance(v, MatlabError):
        return True
    if isinstance(getattr(v, "cls", None), ClassInfo):
        return v.cls.isa(cls)     # an object or object array
    if cls == "handle" and getattr(v, "is_handle_object", False):
        return True               # containers.Map, inputParser
    return class_of(v) == cls


# ------------------------------------------------------------------ isequal
def values_equal(a: Any, b: Any, nan_equal: bool) -> bool:
    """MATLAB ``isequal``/``isequaln`` of two values (class-insensitive for
    numbers, recursive for cells and structs)."""
    if isinstance(a, DeviceValue):
        a = a.gather()
    if isinstance(b, DeviceValue):
        b = b.gather()
    ta, tb = type(a), type(b)
    if ta is float and tb is float:
        return a == b or (nan_equal and a != a and b != b)
    if ta is CellArray or tb is CellArray:
        if ta is not tb or a.shape != b.shape:
            return False
        return all(values_equal(x, y, nan_equal)
                   for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)))
    if ta is StructArray or tb is StructArray:
        if ta is not tb or a.shape != b.shape or set(a.fields) != set(b.fields):
            return False
        return all(values_equal(x[f], y[f], nan_equal)
                   for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)) for f in a.fields)
    if ta is StringArray or tb is StringArray:
        return _strings_equal(a, b)
    if ta is FunctionHandle or tb is FunctionHandle:
        return a is b or (ta is tb and a.name is not None and a.name == b.name and a.fn is None)
    if isinstance(a, MatlabError) or isinstance(b, MatlabError):
        return a is b
    if ta is ClassObject or tb is ClassObject:
        # objects: same class and equal property values (handles: the same
        # object, or equal properties, as MATLAB's isequal on handles)
        if ta is not tb or a.cls is not b.cls:
            return False
        return a is b or all(values_equal(a.props[k], b.props[k], nan_equal) for k in a.props)
    if not (ta in (float, bool, complex, np.ndarray) and tb in (float, bool, complex, np.ndarray)):
        return a is b
    x, y = _comparable(to_array(a)), _comparable(to_array(b))
    if x.shape != y.shape:
        return False
    if nan_equal:
        both_nan = _isnan(x) & _isnan(y)
        return bool(np.all((x == y) | both_nan))
    return bool(np.all(x == y))


def _comparable(arr: np.ndarray) -> np.ndarray:
    return char_codes(arr) if arr.dtype == CHAR_DTYPE else arr


def _isnan(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind in "fc":
        return np.isnan(arr)
    return np.zeros(arr.shape, dtype=bool)


def _strings_equal(a: Any, b: Any) -> bool:
    def as_strings(v: Any) -> np.ndarray | None:
        if type(v) is StringArray:
            return v.data
        if type(v) is np.ndarray and v.dtype == CHAR_DTYPE and v.ndim == 2 and v.shape[0] <= 1:
            out = np.empty((1, 1), dtype=object)
            out[0, 0] = "".join(v.reshape(-1).tolist())
            return out
        if type(v) is CellArray:
            return None
        return None

    x, y = as_strings(a), as_strings(b)
    if x is None or y is None or x.shape != y.shape:
        return False
    return all(p is not None and p == q for p, q in zip(x.reshape(-1), y.reshape(-1)))


@builtin("isequal", category="types", nargin=(2, None))
def isequal(a: Any, b: Any, *rest: Any) -> bool:
    """True when all arguments have equal sizes and values (NaN ~= NaN)."""
    values = (a, b) + rest
    return all(values_equal(values[0], v, False) for v in values[1:])


@builtin("isequaln", category="types", nargin=(2, None))
def isequaln(a: Any, b: Any, *rest: Any) -> bool:
    """Like ``isequal`` but NaN values compare equal."""
    values = (a, b) + rest
    return all(values_equal(values[0], v, True) for v in values[1:])


# ------------------------------------------------------------------- sizes
@builtin("size", category="types", nargin=(1, None), nargout=(0, None),
         wants_nargout=True, gpu=_META)
def size(v: Any, *dims: Any, nargout: int = 1) -> Any:
    """``size(x)``, ``size(x, dim)``, ``size(x, [d1 d2])``, ``[m, n] = size(x)``."""
    shape = shape_tuple(v)
    if dims:
        wanted: list[int] = []
        for d in dims:
            arr = to_array(d)
            if arr.size == 1:
                wanted.append(dim_arg(d, "size"))
            else:
                flat = arr.reshape(-1, order="F")
                if flat.dtype.kind == "U":
                    flat = flat.view(np.uint32)
                wanted.extend(dim_arg(float(x), "size") for x in flat)
        sizes = [float(shape[k]) if k < len(shape) else 1.0 for k in wanted]
        if nargout <= 1:
            return sizes[0] if len(sizes) == 1 else np.array([sizes], dtype=np.float64)
        return tuple(sizes)
    if nargout <= 1:
        return np.array([shape], dtype=np.float64)
    out: list[float] = []
    for k in range(nargout):
        if k < nargout - 1:
            out.append(float(shape[k]) if k < len(shape) else 1.0)
        else:
            rest = 1
            for d in shape[k:]:
                rest *= d
            out.append(float(rest))
    return tuple(out)


@builtin("numel", category="types", nargin=(1, None), gpu=_META)
def numel(v: Any, *index: Any) -> float:
    """Number of elements."""
    t = type(v)
    if t is np.ndarray:
        return float(v.size)     # the loop cases: no shape tuple to build
    if t is CellArray or t is StructArray:
        return float(v.data.size)
    count = 1
    for d in shape_tuple(v):
        count *= d
    return float(count)


@builtin("ndims", category="types", nargin=(1, 1), gpu=_META)
def ndims(v: Any) -> float:
    """Number of dimensions (at least 2)."""
    return float(len(shape_tuple(v)))


@builtin("length", category="types", nargin=(1, 1), gpu=_META)
def length(v: Any) -> float:
    """Largest dimension, or 0 for an empty value."""
    shape = shape_tuple(v)
    return 0.0 if 0 in shape else float(max(shape))
