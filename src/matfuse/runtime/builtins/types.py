"""Class conversion builtins: ``double single logical char int8..uint64 cast
typecast`` and ``class``.

Conversions to integers round half away from zero and saturate (NaN -> 0);
``logical`` rejects NaN; ``char`` of a cell or several arguments pads rows.
The class and size predicates live in ``types_predicates.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._classrules import convert
from matfuse.runtime.builtins._common import text_arg
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    INTEGER_CLASSES,
    CellArray,
    DeviceValue,
    StringArray,
    canonical,
    char_array,
    char_rows,
    class_of,
    element_class,
)

_CONVERTIBLE = ("double", "single", "logical", "char") + INTEGER_CLASSES


def to_class(v: Any, cls: str) -> Any:
    """``cls(v)`` for a host value: MATLAB's conversion rules and errors."""
    t = type(v)
    if t is float:
        if cls == "double":
            return v
        return canonical(convert(np.array([[v]]), cls))
    if t is bool or t is np.ndarray or t is complex:
        arr = np.array([[v]]) if t is not np.ndarray else v
        if cls == "logical" and arr.dtype == CHAR_DTYPE:
            raise MatlabError("MATLAB:invalidConversion",
                              "Conversion to logical from char is not possible.")
        if class_of(arr) == cls:
            return canonical(arr)
        return canonical(convert(arr, cls))
    if t is StringArray and cls in ("double", "single"):
        return _string_to_number(v, cls)
    if t is StringArray and cls == "char":
        return _char_of_strings(list(v.data.reshape(-1, order="F")))
    raise MatlabError("MATLAB:invalidConversion",
                      f"Conversion to {cls} from {class_of(v)} is not possible.")


def _string_to_number(v: StringArray, cls: str) -> Any:
    """``double("3.5")`` parses each string (``str2double`` rules: NaN when
    the text is not a number)."""
    out = np.empty(v.data.shape, dtype=np.float64, order="F")
    flat_in = v.data.reshape(-1, order="F")
    flat_out = out.reshape(-1, order="F")
    for i, s in enumerate(flat_in):
        try:
            flat_out[i] = float(s.strip().replace("Inf", "inf")) if s is not None else np.nan
        except ValueError:
            flat_out[i] = np.nan
    result = out.reshape(v.data.shape, order="F")
    return canonical(result if cls == "double" else result.astype(np.float32))


def _char_of_strings(items: list[Any]) -> np.ndarray:
    lines = []
    for s in items:
        if s is None:
            raise MatlabError("MATLAB:string:MissingNotConvertible",
                              "Unable to convert <missing> to character vector.")
        lines.append(s)
    if len(lines) == 1:
        return char_array(lines[0]) if lines[0] else np.zeros((1, 0), dtype=CHAR_DTYPE)
    return char_rows(lines)


def _conversion(cls: str) -> Callable[[Any], Any]:
    def impl(v: Any) -> Any:
        return to_class(v, cls)

    impl.__name__ = cls
    impl.__doc__ = (f"Convert to {cls}"
                    + (" (round half away from zero, saturate, NaN -> 0)." if cls in INTEGER_CLASSES
                       else "."))
    return impl


for _cls in ("double", "single") + INTEGER_CLASSES:
    builtin(_cls, category="types", nargin=(1, 1),
            gpu=GpuSpec(kind="elementwise", hook="cast", op=_cls), fusion=f"cast_{_cls}")(
        _conversion(_cls))


@builtin("logical", category="types", nargin=(1, 1),
         gpu=GpuSpec(kind="elementwise", hook="cast", op="logical"), fusion="cast_logical")
def logical(v: Any) -> Any:
    """Convert to logical: nonzero is true; NaN is an error."""
    return to_class(v, "logical")


@builtin("char", category="types", nargin=(0, None))
def char(*args: Any) -> Any:
    """``char(x)``: code points to characters; ``char(c)`` of a cell of text
    and ``char(a, b, ...)`` make a char matrix with rows padded by spaces."""
    if not args:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    if len(args) == 1:
        v = args[0]
        if type(v) is CellArray:
            return _char_rows_of([_text_rows(e) for e in v.data.reshape(-1, order="F")])
        if isinstance(v, DeviceValue):
            v = v.gather()
        if getattr(v, "enum_name", None) is not None:
            return char_array(v.enum_name)     # an enumeration member's name
        return to_class(v, "char")
    return _char_rows_of([_text_rows(a) for a in args])


def _text_rows(v: Any) -> list[str]:
    """The rows of one ``char`` argument as strings."""
    if type(v) is np.ndarray and v.dtype == CHAR_DTYPE:
        if v.size == 0:
            return [""]
        if v.ndim > 2:
            raise MatlabError("MATLAB:char:invalidInput", "Inputs must be 2-D.")
        return ["".join(row) for row in v.tolist()]
    if type(v) is StringArray:
        return [s if s is not None else "" for s in v.data.reshape(-1, order="F")]
    if type(v) is CellArray:
        rows: list[str] = []
        for e in v.data.reshape(-1, order="F"):
            rows.extend(_text_rows(e))
        return rows
    if type(v) in (float, bool) or type(v) is np.ndarray:
        arr = to_class(v, "char")
        return _text_rows(arr) if isinstance(arr, np.ndarray) else [str(arr)]
    raise MatlabError("MATLAB:char:cellsMustContainChar",
                      "Cell elements must be character arrays.")


def _char_rows_of(groups: list[list[str]]) -> np.ndarray:
    lines = [line for group in groups for line in group]
    return char_rows(lines)


@builtin("cast", category="types", nargin=(2, 3))
def cast(v: Any, cls: Any, proto: Any = None) -> Any:
    """``cast(x, 'int16')`` or ``cast(x, 'like', p)``."""
    name = text_arg(cls, "cast", "class name")
    if name == "like":
        if proto is None:
            raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
        name = element_class(proto)
    if name not in _CONVERTIBLE:
        raise MatlabError("MATLAB:cast:unsupportedClass",
                          f"Unsupported data type '{name}'.")
    if isinstance(v, DeviceValue):
        v = v.gather()
    result = to_class(v, name)
    if proto is not None and name in ("double", "single") and _is_complex(proto):
        # 'like' takes the prototype's complexity too (MATLAB's cast doc).
        from matfuse.runtime.builtins.complex_parts import complex_

        result = complex_(result)
    if proto is not None:
        from matfuse.runtime.builtins.construction import place_like

        result = place_like(result, proto)  # a gpuArray prototype: a gpuArray result
    return result


def _is_complex(v: Any) -> bool:
    """Whether a value is stored complex (a sparse matrix by its CSC data)."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    if type(v) is complex:
        return True
    store = getattr(v, "csc", v)
    return isinstance(getattr(store, "dtype", None), np.dtype) and store.dtype.kind == "c"


_TYPECAST_CLASSES = ("double", "single") + INTEGER_CLASSES


@builtin("typecast", category="types", nargin=(2, 2))
def typecast(v: Any, cls: Any) -> Any:
    """Reinterpret the bytes of a numeric vector as another class."""
    name = text_arg(cls, "typecast", "class name")
    if name not in _TYPECAST_CLASSES:
        raise MatlabError("MATLAB:typecast:unsupportedClass",
                          f"Unsupported class '{name}'.")
    if isinstance(v, DeviceValue):
        v = v.gather()
    if type(v) is float:
        v = np.array([[v]])
    if type(v) is not np.ndarray or v.dtype.kind not in "iuf":
        raise MatlabError("MATLAB:typecast:invalidInputClass",
                          "The first input argument must be a full, non-complex numeric value.")
    if v.ndim != 2 or (v.shape[0] != 1 and v.shape[1] != 1):
        raise MatlabError("MATLAB:typecast:inputMustBeVector",
                          "The first input argument must be a vector.")
    target = np.dtype(name)
    raw = np.ascontiguousarray(v.reshape(-1, order="F")).view(np.uint8)
    if raw.size % target.itemsize:
        raise MatlabError("MATLAB:typecast:notEnoughInputElements",
                          "Too few input values to make output type.")
    out = raw.view(target)
    shape = (out.size, 1) if v.shape[1] == 1 and v.shape[0] != 1 else (1, out.size)
    return canonical(out.reshape(shape).copy())


@builtin("class", category="types", nargin=(1, 1))
def class_(v: Any) -> np.ndarray:
    """The class name of a value (``gpuArray`` for device values)."""
    return char_array(class_of(v))

