"""Apply a function to each element: cellfun, arrayfun, structfun.

The function is a handle or a name; it is called through ``ctx.call`` so
user functions, builtins and anonymous functions all work.  Uniform output
collects scalar results into arrays; ``'UniformOutput', false`` into cells.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.runtime.classdef_objects import ClassObject
from matfuse.runtime.builtins._common import int_value, is_text
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CellArray,
    DeviceValue,
    FunctionHandle,
    StringArray,
    StructArray,
    canonical,
    class_of,
    is_complex_value,
    numel,
    shape_of,
    to_array,
    to_str,
)


def _split_options(args: list[Any], fn: str) -> tuple[list[Any], bool, Any]:
    """Strip trailing 'UniformOutput'/'ErrorHandler' pairs."""
    uniform = True
    handler = None
    while len(args) >= 2 and is_text(args[-2]) and to_str(args[-2]).lower() in ("uniformoutput", "errorhandler"):
        key = to_str(args[-2]).lower()
        value = args[-1]
        if key == "uniformoutput":
            uniform = bool(to_array(value).reshape(-1)[0]) if not is_text(value) else True
        else:
            handler = value
        args = args[:-2]
    return args, uniform, handler


def _function_arg(f: Any, fn: str) -> Any:
    if isinstance(f, FunctionHandle):
        return f
    if is_text(f):
        return to_str(f)
    raise MatlabError(f"MATLAB:{fn}:InvalidFunction" if fn != "cellfun" else "MATLAB:cellfun:InvalidFirstInput",
                      "First input must be a function handle." if fn != "cellfun"
                      else "Input #1 expected to be a function handle or a character vector.")


def _element(v: Any, i: int) -> Any:
    """Element i (column-major) of an arrayfun input, as a MATLAB value."""
    if isinstance(v, StructArray):
        data = np.empty((1, 1), dtype=object)
        data[0, 0] = v.data.reshape(-1, order="F")[i]
        return StructArray(list(v.fields), data)
    if isinstance(v, CellArray):
        return CellArray.from_list([v.data.reshape(-1, order="F")[i]], (1, 1))
    if isinstance(v, StringArray):
        return StringArray.scalar(v.data.reshape(-1, order="F")[i])
    if type(v) in (float, bool) or isinstance(v, FunctionHandle) or type(v) is ClassObject:
        return v
    if type(v) is ObjectArray:
        return v.data.reshape(-1, order="F")[i]
    if hasattr(v, "element_texts"):       # datetime, duration...: their own indexing
        return v.object_paren_get([float(i + 1)])
    arr = to_array(v)
    return canonical(arr.reshape(-1, order="F")[i:i + 1].reshape(1, 1))


def _uniform_array(values: list[Any], shape: tuple[int, ...], fn: str, k: int) -> Any:
    if not values:
        return np.zeros(shape)
    if all(type(v) is float for v in values):
        # Every output a double scalar (the common case): one array build.
        return canonical(np.array(values, dtype=np.float64).reshape(shape, order="F"))
    if all(type(v) is bool for v in values):
        return canonical(np.array(values, dtype=np.bool_).reshape(shape, order="F"))
    arrays = []
    for idx, v in enumerate(values):
        if isinstance(v, (CellArray, StructArray, StringArray, FunctionHandle)) or numel(v) != 1:
            raise MatlabError(f"MATLAB:{fn}:NotAScalarOutput",
                              f"Non-scalar in Uniform output, at index {idx + 1}, output {k + 1}.\n"
                              f"Set 'UniformOutput' to false.")
        arrays.append(to_array(v).reshape(-1))
    classes = {class_of(v) for v in values}
    if len(classes) > 1 and not classes <= {"double", "logical"}:
        raise MatlabError(f"MATLAB:{fn}:MismatchInOutputTypes",
                          f"Mismatch in type of outputs, at index {len(values)}, output {k + 1}"
                          f" ({' versus '.join(sorted(classes))}).\nSet 'UniformOutput' to false.")
    flat = np.concatenate(arrays)
    if len(classes) > 1:
        flat = flat.astype(np.float64)
    return canonical(flat.reshape(shape, order="F"))


def _apply(ctx: Any, fn: str, f: Any, inputs: list[Any], count: int, shape: tuple[int, ...],
           uniform: bool, handler: Any, nargout: int, getter) -> Any:
    # ``f`` is looked up once (ctx.function_caller), not once per element.
    direct = ctx.function_caller(f)
    if nargout == 1 and len(inputs) == 1 and handler is None:
        return _apply_one(fn, direct, inputs[0], count, shape, uniform, getter)
    nout = max(nargout, 1)
    call_nargout = nargout
    results: list[list[Any]] = [[] for _ in range(nout)]
    for i in range(count):
        args = [getter(v, i) for v in inputs]
        try:
            out = direct(args, call_nargout)
        except MatlabError as err:
            if handler is None:
                raise
            info = StructArray.scalar({"message": make_char(err.message),
                                       "identifier": make_char(err.identifier),
                                       "index": float(i + 1)})
            out = ctx.call(handler, [info] + args, call_nargout)
        if nargout == 0 and not out:
            if i == 0:
                results = []
            continue
        if len(out) < nout:
            raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
        for k in range(nout):
            results[k].append(out[k])
    if not results:
        return None
    outputs = []
    for k in range(nout):
        outputs.append(_collect(results[k], shape, fn, k, uniform, count))
    return tuple(outputs) if nout > 1 else outputs[0]


def _apply_one(fn: str, call: Any, column: Any, count: int, shape: tuple[int, ...],
               uniform: bool, getter) -> Any:
    """``_apply`` of a handle called directly on one input, one output and no
    ErrorHandler (``cellfun(@(x) ..., c)``): one call per element, no
    per-element argument list building beyond ``[x]``."""
    elements = column if type(column) is list else [getter(column, i) for i in range(count)]
    values = []
    append = values.append
    for x in elements:
        out = call([x], 1)
        if not out:
            raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
        append(out[0])
    return _collect(values, shape, fn, 0, uniform, count)


def _collect(values: list[Any], shape: tuple[int, ...], fn: str, k: int, uniform: bool,
             count: int) -> Any:
    """Output ``k`` of every element: an array (UniformOutput) or a cell."""
    if uniform:
        return _uniform_array(values, shape, fn, k)
    return CellArray.from_list(values, shape) if values or count == 0 else CellArray.empty(shape)


_LEGACY = {
    "isempty": lambda v: numel(v) == 0,
    "islogical": lambda v: class_of(v) == "logical",
    "isreal": lambda v: (type(v) not in (CellArray, StructArray, StringArray, FunctionHandle)
                         and not is_complex_value(v)),
    "length": lambda v: float(max(shape_of(v)) if numel(v) else 0),
    "ndims": lambda v: float(len(shape_of(v))),
    "prodofsize": lambda v: float(numel(v)),
}


@builtin("cellfun", category="cells", nargin=(2, None), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def cellfun(ctx: Any, f: Any, *args: Any, nargout: int = 1) -> Any:
    """Apply a function to the contents of each cell."""
    rest, uniform, handler = _split_options(list(args), "cellfun")
    if is_text(f) and to_str(f) in _LEGACY and len(rest) == 1:
        c = rest[0]
        if not isinstance(c, CellArray):
            raise MatlabError("MATLAB:cellfun:NotACell", "Input #2 expected to be a cell array, was "
                              f"{class_of(c)} instead.")
        test = _LEGACY[to_str(f)]
        values = [test(v) for v in c.data.reshape(-1, order="F")]
        dtype = bool if isinstance(values[0] if values else False, bool) else np.float64
        return canonical(np.array(values, dtype=dtype).reshape(c.data.shape, order="F"))
    if is_text(f) and to_str(f) in ("size", "isclass") and len(rest) == 2:
        c, extra = rest
        if to_str(f) == "size":
            k = int_value(extra, "cellfun") - 1
            vals = [float(shape_of(v)[k]) if k < len(shape_of(v)) else 1.0 for v in c.data.reshape(-1, order="F")]
            return canonical(np.array(vals).reshape(c.data.shape, order="F"))
        cls = to_str(extra)
        vals = [class_of(v) == cls for v in c.data.reshape(-1, order="F")]
        return canonical(np.array(vals, dtype=bool).reshape(c.data.shape, order="F"))
    func = _function_arg(f, "cellfun")
    if not rest:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    for idx, c in enumerate(rest):
        if not isinstance(c, CellArray):
            raise MatlabError("MATLAB:cellfun:NotACell",
                              f"Input #{idx + 2} expected to be a cell array, was {class_of(c)} instead.")
        if c.data.shape != rest[0].data.shape:
            raise MatlabError("MATLAB:cellfun:AllInputsSameSize",
                              "All of the input arguments must be of the same size and shape.")
    shape = rest[0].data.shape
    # Element lists (object arrays give their objects unchanged): a loop
    # reads list items faster than array items.
    columns = [c.data.reshape(-1, order="F").tolist() for c in rest]
    return _apply(ctx, "cellfun", func, columns, rest[0].data.size, shape, uniform, handler,
                  nargout, lambda column, i: column[i])


@builtin("arrayfun", category="cells", nargin=(2, None), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def arrayfun(ctx: Any, f: Any, *args: Any, nargout: int = 1) -> Any:
    """Apply a function to each element of arrays."""
    rest, uniform, handler = _split_options(list(args), "arrayfun")
    func = _function_arg(f, "arrayfun")
    if not rest:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    rest = [v.gather() if isinstance(v, DeviceValue) else v for v in rest]
    shape = shape_of(rest[0])
    for v in rest[1:]:
        if shape_of(v) != shape:
            raise MatlabError("MATLAB:arrayfun:AllInputsSameSize",
                              "All of the input arguments must be of the same size and shape.")
    count = numel(rest[0])
    # Double and logical arrays give their elements as Python floats/bools
    # (the scalar value model) in one conversion.
    columns = [v.reshape(-1, order="F").tolist()
               if type(v) is np.ndarray and (v.dtype == np.float64 or v.dtype == np.bool_)
               else v for v in rest]
    return _apply(ctx, "arrayfun", func, columns, count, shape, uniform, handler, nargout,
                  _column_element)


def _column_element(column: Any, i: int) -> Any:
    """Element i of an arrayfun input: from its element list, else ``_element``."""
    return column[i] if type(column) is list else _element(column, i)


@builtin("structfun", category="structs", nargin=(2, None), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def structfun(ctx: Any, f: Any, *args: Any, nargout: int = 1) -> Any:
    """Apply a function to each field of a scalar struct."""
    rest, uniform, handler = _split_options(list(args), "structfun")
    func = _function_arg(f, "structfun")
    if len(rest) != 1 or not isinstance(rest[0], StructArray) or rest[0].data.size != 1:
        raise MatlabError("MATLAB:structfun:NotAScalarStructure",
                          "Inputs to STRUCTFUN must be scalar structures.")
    s = rest[0]
    mapping = s.data.reshape(-1)[0]
    values = [mapping[name] for name in s.fields]
    count = len(values)
    out = _apply(ctx, "structfun", func, [values], count, (count, 1), uniform, handler, nargout,
                 lambda vals, i: vals[i])
    if uniform or out is None:
        return out
    outs = out if isinstance(out, tuple) else (out,)
    structs = tuple(StructArray.scalar(dict(zip(s.fields, o.data.reshape(-1, order="F")))) for o in outs)
    return structs if len(structs) > 1 else structs[0]
