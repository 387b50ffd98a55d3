"""The MATLAB value model.

A MATLAB value is one of these Python objects:

===================  =========================================================
Python type          MATLAB value
===================  =========================================================
``float``            1x1 real ``double`` (the scalar fast path)
``bool``             1x1 ``logical``
``numpy.ndarray``    numeric/logical/char array; the dtype gives the class:
                     float64 double, float32 single, complex128/complex64
                     complex double/single, bool logical, int8..uint64,
                     ``<U1`` char.  ``ndim >= 2``, no trailing singleton
                     dimensions beyond the second.  Semantics are column-major
                     whatever the memory layout: linearise with ``order='F'``.
``CellArray``        cell array (object ndarray of values)
``StructArray``      struct / struct array (ordered field names + dicts)
``StringArray``      ``string`` array (object ndarray of ``str``)
``FunctionHandle``   ``@name`` or ``@(x) ...``
``DeviceValue``      a gpuArray (subclass defined by ``matfuse.accelerate``)
``MObject``          other objects (MException, gpuDevice, rng state, ...)
===================  =========================================================

Python ``int`` is never a MATLAB value. ``canonical`` turns 1x1 double/logical
arrays into ``float``/``bool`` so fast paths can test ``type(v) is float``.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Iterable

import numpy as np

from matfuse.errors import MatlabError

CHAR_DTYPE = np.dtype("<U1")
_FLOAT64 = np.dtype(np.float64)
_LOGICAL = np.dtype(np.bool_)

# MATLAB class name -> numpy dtype (char uses CHAR_DTYPE).
CLASS_DTYPES: dict[str, np.dtype] = {
    "double": np.dtype(np.float64),
    "single": np.dtype(np.float32),
    "logical": np.dtype(np.bool_),
    "char": CHAR_DTYPE,
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "int16": np.dtype(np.int16),
    "uint16": np.dtype(np.uint16),
    "int32": np.dtype(np.int32),
    "uint32": np.dtype(np.uint32),
    "int64": np.dtype(np.int64),
    "uint64": np.dtype(np.uint64),
}

_DTYPE_CLASSES: dict[np.dtype, str] = {dt: name for name, dt in CLASS_DTYPES.items()}
_DTYPE_CLASSES[np.dtype(np.complex128)] = "double"
_DTYPE_CLASSES[np.dtype(np.complex64)] = "single"

INTEGER_CLASSES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
FLOAT_CLASSES = ("double", "single")
NUMERIC_CLASSES = FLOAT_CLASSES + INTEGER_CLASSES


# --------------------------------------------------------------- value classes
class DeviceValue:
    """Base class of values that live on an accelerator (``gpuArray``).

    ``matfuse.accelerate`` defines the concrete subclass; the runtime only
    relies on these members.
    """

    __slots__ = ()

    @property
    def shape(self) -> tuple[int, ...]:
        raise NotImplementedError

    def underlying_class(self) -> str:
        """The element class (``double``, ``single``, ``logical``, ...)."""
        raise NotImplementedError

    def is_complex(self) -> bool:
        raise NotImplementedError

    def gather(self) -> Any:
        """Copy to the host and return the equivalent host value."""
        raise NotImplementedError

    @property
    def is_lazy(self) -> bool:
        """Whether the value is a computation not yet run (the device layer
        defers work to fuse it); its ``node`` is then that computation."""
        return False

    def bind_hint(self, live: bool) -> None:
        """Told by the VM whether the variable holding this value is read
        again later (compiler liveness). A lazy value that is will be written
        out by the kernel computing it instead of being recomputed."""

    @property
    def user_visible(self) -> bool:
        """False for values the auto-offload planner moved to the device: the
        program sees them as the host value (``class``, ``isgpuarray``...)."""
        return self not in AUTO_OFFLOADED


# Device values the planner created behind the program's back (see
# matfuse.accelerate.planner.offload). A weak set: membership ends with the value.
AUTO_OFFLOADED: "weakref.WeakSet[DeviceValue]" = weakref.WeakSet()


def keep_visibility(result: Any, *sources: Any) -> Any:
    """``result`` of device work on ``sources``: auto-offloaded when one of
    them was and none is a user's gpuArray (so unary ops, indexing... of an
    offloaded value stay invisible)."""
    hidden = False
    for source in sources:
        if isinstance(source, DeviceValue):
            if source not in AUTO_OFFLOADED:
                return result
            hidden = True
    if hidden:
        hide_device_value(result)
    return result


def hide_device_value(v: Any) -> Any:
    """Mark ``v`` (a DeviceValue; others are returned unchanged) as auto-offloaded."""
    if isinstance(v, DeviceValue):
        AUTO_OFFLOADED.add(v)
    return v


class CellArray:
    """A MATLAB cell array: ``data`` is an object ndarray (ndim >= 2)."""

    __slots__ = ("data",)

    def __init__(self, data: np.ndarray):
        self.data = data

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @staticmethod
    def empty(shape: tuple[int, ...] = (0, 0)) -> "CellArray":
        # Fill a flat array first: reshape(order="F") of a C-ordered array
        # is a copy, so writing through it would leave the cells None.
        flat = np.empty(int(np.prod(shape)), dtype=object)
        for i in range(flat.size):
            flat[i] = np.zeros((0, 0))
        return CellArray(flat.reshape(shape, order="F"))

    @staticmethod
    def from_list(values: list[Any], shape: tuple[int, ...] | None = None) -> "CellArray":
        """Cell from a column-major list of values (default shape 1xN)."""
        if shape is None:
            shape = (1, len(values))
        data = np.empty(len(values), dtype=object)
        for i, v in enumerate(values):
            data[i] = v
        return CellArray(data.reshape(shape, order="F"))

    def __repr__(self) -> str:
        return f"CellArray(shape={self.shape})"


class StructArray:
    """A MATLAB struct array.

    ``fields`` is the ordered list of field names (kept even when the array
    is empty); ``data`` is an object ndarray whose elements are dicts mapping
    every field name to its value.
    """

    __slots__ = ("fields", "data")

    def __init__(self, fields: list[str], data: np.ndarray):
        self.fields = fields
        self.data = data

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @staticmethod
    def scalar(mapping: dict[str, Any] | None = None) -> "StructArray":
        mapping = dict(mapping or {})
        data = np.empty((1, 1), dtype=object)
        data[0, 0] = mapping
        return StructArray(list(mapping.keys()), data)

    def __repr__(self) -> str:
        return f"StructArray(fields={self.fields}, shape={self.shape})"


class StringArray:
    """A MATLAB ``string`` array: ``data`` is an object ndarray of ``str``
    (``None`` stands for ``<missing>``)."""

    __slots__ = ("data",)

    def __init__(self, data: np.ndarray):
        self.data = data

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @staticmethod
    def scalar(text: str) -> "StringArray":
        data = np.empty((1, 1), dtype=object)
        data[0, 0] = text
        return StringArray(data)


class FunctionHandle:
    """``@name`` (``name`` set, ``fn`` None until resolved) or an anonymous
    function (``fn`` is a callable ``fn(args, nargout) -> list``; ``text`` is
    its source for display, ``captured`` the captured workspace)."""

    __slots__ = ("name", "fn", "text", "captured", "scope")

    def __init__(self, name: str | None = None, fn: Callable | None = None,
                 text: str | None = None, captured: dict | None = None,
                 scope: Any = None):
        self.name = name
        self.fn = fn
        self.text = text
        self.captured = captured
        # The function-lookup scope (file/local functions) where it was made.
        self.scope = scope

    @property
    def shape(self) -> tuple[int, ...]:
        return (1, 1)

    def display_text(self) -> str:
        if self.text is not None:
            return self.text
        return f"@{self.name}"


class MObject:
    """Base for other MATLAB objects (``gpuDevice``, ``RandStream`` state...).

    ``class_name`` is what ``class()`` returns; properties are read with
    ``get_property`` (``obj.Name``).
    """

    class_name = "object"

    @property
    def shape(self) -> tuple[int, ...]:
        return (1, 1)

    def get_property(self, name: str) -> Any:
        raise MatlabError("MATLAB:noSuchMethodOrField",
                          f"Unrecognized method, property, or field '{name}' for class '{self.class_name}'.")

    def property_names(self) -> list[str]:
        return []

    def set_property(self, name: str, value: Any) -> "MObject":
        """``obj.Name = value``: handle objects change in place and return
        themselves; others refuse."""
        raise MatlabError("MATLAB:noPublicFieldForClass",
                          f"Unable to set the '{name}' property of class '{self.class_name}'.")


# ------------------------------------------------------------------- helpers
def normalize_shape(shape: Iterable[int]) -> tuple[int, ...]:
    """MATLAB shape: at least 2 dims, trailing singletons beyond 2 removed."""
    dims = [int(d) for d in shape]
    while len(dims) < 2:
        dims.append(1)
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    return tuple(dims)


def as_matlab_array(arr: np.ndarray) -> np.ndarray:
    """Reshape an ndarray to MATLAB's shape conventions (no data copy).

    0-d and 1-d arrays become row vectors ``1xN`` (MATLAB's default for
    lists); trailing singleton dimensions beyond 2 are dropped.
    """
    if arr.ndim == 0:
        return arr.reshape(1, 1)
    if arr.ndim == 1:
        return arr.reshape(1, arr.shape[0])
    if arr.ndim > 2 and arr.shape[-1] == 1:
        return arr.reshape(normalize_shape(arr.shape), order="F")
    return arr


def canonical(arr: Any) -> Any:
    """Return ``float``/``bool`` for 1x1 real double/logical arrays, the
    (shape-normalised) array otherwise; non-arrays pass through."""
    if type(arr) is not np.ndarray:
        if isinstance(arr, (np.floating, np.bool_, np.integer, np.complexfloating)):
            arr = np.asarray(arr)
        else:
            return arr
    ndim = arr.ndim
    if ndim == 2:       # the common case first: already MATLAB-shaped
        if arr.size != 1:
            return arr
    elif ndim > 2 or arr.size != 1:
        return as_matlab_array(arr)
    dt = arr.dtype
    if dt == _FLOAT64 or dt == _LOGICAL:
        return arr.item()   # a Python float or bool
    return as_matlab_array(arr)


def to_array(v: Any) -> np.ndarray:
    """Any numeric/logical/char value as an ndarray (scalars become 1x1)."""
    t = type(v)
    if t is np.ndarray:
        return v
    if t is float:
        return np.array([[v]], dtype=np.float64)
    if t is bool:
        return np.array([[v]], dtype=np.bool_)
    if isinstance(v, DeviceValue):
        return to_array(v.gather())
    if t is complex:
        return np.array([[v]], dtype=np.complex128)
    if t is int:
        return np.array([[float(v)]], dtype=np.float64)
    if isinstance(v, (np.generic,)):
        return np.asarray(v).reshape(1, 1)
    full = getattr(v, "full_array", None)      # sparse matrices
    if full is not None:
        return full()
    raise MatlabError("MATLAB:invalidType",
                      f"Expected a numeric, logical or char value, got {class_of(v)}.")


def char_array(text: str) -> np.ndarray:
    """A 1xN char row vector from a Python string."""
    if text == "":
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    # One string of width N in a 1x1 array seen as a 1xN array of
    # one-character cells: no per-character list, no reshape.
    return np.array(text, ndmin=2).view(CHAR_DTYPE)


def char_rows(lines: list[str]) -> np.ndarray:
    """A char matrix from rows padded with spaces (``char({'a','bcd'})``)."""
    width = max((len(s) for s in lines), default=0)
    if not lines:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    out = np.full((len(lines), width), " ", dtype=CHAR_DTYPE)
    for i, s in enumerate(lines):
        if s:
            out[i, : len(s)] = list(s)
    return out


def char_codes(arr: np.ndarray) -> np.ndarray:
    """Code points of a char array as uint32, same shape (no copy)."""
    return np.ascontiguousarray(arr).view(np.uint32).reshape(arr.shape)


def codes_to_char(codes: np.ndarray) -> np.ndarray:
    """Char array from integer code points (same shape)."""
    return np.ascontiguousarray(codes.astype(np.uint32)).view(CHAR_DTYPE).reshape(codes.shape)


def is_char(v: Any) -> bool:
    return type(v) is np.ndarray and v.dtype == CHAR_DTYPE


def to_str(v: Any) -> str:
    """A char row vector (or string scalar) as a Python ``str``."""
    if type(v) is np.ndarray and v.dtype == CHAR_DTYPE:
        if v.ndim == 2 and v.shape[0] == 1:
            return "".join(v[0].tolist())     # a row: no column-major reshape
        return "".join(v.reshape(-1, order="F").tolist())
    if isinstance(v, StringArray) and v.data.size == 1:
        text = v.data.reshape(-1)[0]
        return "" if text is None else text
    raise MatlabError("MATLAB:invalidInput", "Expected a character vector or string scalar.")


def class_of(v: Any) -> str:
    """MATLAB ``class(v)``."""
    t = type(v)
    if t is float:
        return "double"
    if t is bool:
        return "logical"
    if t is np.ndarray:
        return _DTYPE_CLASSES.get(v.dtype, "double")
    if isinstance(v, DeviceValue):
        return "gpuArray" if v.user_visible else v.underlying_class()
    if t is CellArray:
        return "cell"
    if t is StructArray:
        return "struct"
    if t is StringArray:
        return "string"
    if t is FunctionHandle:
        return "function_handle"
    if isinstance(v, MObject):
        return v.class_name
    if isinstance(v, MatlabError):
        return "MException"
    if t is complex:
        return "double"
    return type(v).__name__


def element_class(v: Any) -> str:
    """Like ``class_of`` but a gpuArray reports its underlying class."""
    if isinstance(v, DeviceValue):
        return v.underlying_class()
    return class_of(v)


def shape_of(v: Any) -> tuple[int, ...]:
    """MATLAB ``size(v)`` as a tuple (at least two dims)."""
    t = type(v)
    if t is float or t is bool or t is complex or t is int:
        return (1, 1)
    if isinstance(v, MatlabError):
        return (1, 1)
    return tuple(v.shape)


def numel(v: Any) -> int:
    n = 1
    for d in shape_of(v):
        n *= d
    return n


def is_complex_value(v: Any) -> bool:
    if type(v) is np.ndarray:
        return v.dtype.kind == "c"
    if type(v) is complex:
        return True
    if isinstance(v, DeviceValue):
        return v.is_complex()
    return False


def empty_double() -> np.ndarray:
    return np.zeros((0, 0), dtype=np.float64)


def dtype_for_class(cls: str, complex_: bool = False) -> np.dtype:
    if complex_:
        return np.dtype(np.complex64 if cls == "single" else np.complex128)
    try:
        return CLASS_DTYPES[cls]
    except KeyError:
        raise MatlabError("MATLAB:invalidClass", f"Unknown class '{cls}'.") from None
