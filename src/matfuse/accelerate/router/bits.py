"""Device paths of ``bitand``, ``bitor``, ``bitxor``, ``bitshift``,
``bitget`` and ``bitset``, in exact double arithmetic.

Every integer class up to 32 bits, and a double holding a nonnegative
integer up to ``flintmax``, is an exact double; its bits are exact too:
multiplying by a power of two, ``floor`` and subtraction never round
below 2^53. Signed integers are first taken to their two's-complement
pattern (``x + 2^k`` where negative) and back at the end.

* ``bitand/bitor/bitxor``: the k bits of each operand as columns of an
  n x k matrix (``floor(x .* 2.^-(0:k-1))`` minus twice its half), combined
  elementwise (product, maximum, absolute difference) and summed back with
  weights ``2.^(0:k-1)`` (sums of distinct powers of two below 2^53 are
  exact in any order);
* ``bitshift(a, n)``: ``mod(a * 2^n, 2^k)`` to the left, ``floor(a / 2^-n)``
  to the right (arithmetic for negative signed values, as the host);
* ``bitget/bitset``: ``mod(floor(u / 2^(b-1)), 2)``, and ``u`` plus or minus
  that power of two.

Double data with an ``assumedtype`` (``bitshift(a, n, 'int8')``,
``bitset(a, bit[, v], 'int16')``) is taken as that class's bit pattern and
the result is double again, as on the host. Double data is checked on the
device (one logical read back) and any value the host would reject returns
None, as do logical, single, 64-bit (data or assumed type), mixed integer
classes and shapes that need implicit expansion: the dispatcher's counted
host fallback then raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    call, host_scalar, op, size_of,
)
from matfuse.runtime.values import DeviceValue, char_array, is_char, to_str

_WIDTH = {"int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32, "uint32": 32,
          "double": 53}
_ALL = char_array("all")


def _class_of(v: Any) -> str | None:
    """MATLAB class of a real operand this module takes, else None."""
    if isinstance(v, DeviceValue):
        if not isinstance(v, GpuArray) or v.is_complex():
            return None
        cls = v.matlab_class
    elif type(v) is float:
        cls = "double"
    elif type(v) is np.ndarray and v.dtype.kind in "fiu" and v.size > 0:
        cls = v.dtype.name.replace("float64", "double")
    else:
        return None
    return cls if cls in _WIDTH else None


def _valid_double(v: Any, width: int = 53) -> bool:
    """Whether a double operand holds nonnegative integers up to 2^width
    (a device operand is checked on the device: one logical read back)."""
    return _valid_range(v, 0.0, 2.0 ** width)


def _valid_range(v: Any, low: float, high: float) -> bool:
    """Whether a double operand holds integers in ``[low, high]`` (a device
    operand is checked on the device: one logical read back)."""
    if isinstance(v, DeviceValue):
        bad = op("|", op("|", op("<", v, low), op("~=", v, call("floor", v))),
                 op(">", v, high))
        flag = call("any", op("|", bad, call("isnan", v)), _ALL).gather()
        return not bool(np.asarray(flag).reshape(-1)[0])
    a = np.asarray(v, dtype=np.float64)
    return bool(np.all((a >= low) & (a == np.floor(a)) & (a <= high)))


def _assumed_type(a: Any, word: Any) -> str | None:
    """The integer class named by ``assumedtype`` for double data ``a`` whose
    values all fit it, else None (64-bit types, other classes, values the
    host rejects: the host decides)."""
    if _class_of(a) != "double" or not is_char(word):
        return None
    name = to_str(word)
    if name not in _WIDTH or name == "double":
        return None
    info = np.iinfo(name)
    return name if _valid_range(a, float(info.min), float(info.max)) else None


def _fits(v: Any, cls: str) -> bool:
    """Whether a host double operand holds integers of class ``cls``."""
    if isinstance(v, DeviceValue):
        return False
    info = np.iinfo(cls)
    a = np.asarray(v, dtype=np.float64)
    return bool(np.all((a == np.floor(a)) & (a >= info.min) & (a <= info.max)))


def _unsigned(x: Any, cls: str) -> Any:
    """The two's-complement bit pattern of ``x`` as a nonnegative double."""
    x = call("double", x)
    if cls.startswith("int"):
        k = _WIDTH[cls]
        x = op("+", x, op(".*", op("<", x, 0.0), 2.0 ** k))
    return x


def _signed(u: Any, cls: str, result_class: str | None = None) -> Any:
    """A bit pattern (nonnegative double) back as a value of integer class
    ``cls``, in ``result_class`` (default ``cls``; ``double`` for an
    assumed type)."""
    if cls.startswith("int"):
        k = _WIDTH[cls]
        u = op("-", u, op(".*", op(">=", u, 2.0 ** (k - 1)), 2.0 ** k))
    result_class = result_class or cls
    return u if result_class == "double" else call(result_class, u)


def _bit_columns(u: Any, k: int) -> Any:
    """n x k matrix of the bits (0/1) of the column ``u``, least significant first."""
    scaled = call("floor", op(".*", u, 2.0 ** -np.arange(k, dtype=np.float64).reshape(1, -1)))
    return op("-", scaled, op(".*", 2.0, call("floor", op(".*", scaled, 0.5))))


def _binary(combine: str) -> Any:
    def bitop(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``bitand/bitor/bitxor(a, b)`` of same-class integers, an integer
        array and fitting doubles, or nonnegative integer doubles."""
        if nargout > 1 or len(args) != 2:
            return None
        a, b = args
        classes = (_class_of(a), _class_of(b))
        if None in classes:
            return None
        ints = {c for c in classes if c != "double"}
        if len(ints) > 1:
            return None
        cls = ints.pop() if ints else "double"
        if cls == "double":
            if not (_valid_double(a) and _valid_double(b)):
                return None
        elif any(c == "double" and not _fits(v, cls) for v, c in zip(args, classes)):
            return None
        sa, sb = size_of(a), size_of(b)
        shape = sa if int(np.prod(sb)) == 1 else sb
        if sa != sb and 1 not in (int(np.prod(sa)), int(np.prod(sb))):
            return None
        k = _WIDTH[cls]
        bits = [_bit_columns(call("reshape", _unsigned(v, cls), float(np.prod(size_of(v))), 1.0), k)
                for v in (a, b)]
        if combine == "and":
            both = op(".*", bits[0], bits[1])
        elif combine == "or":
            both = call("max", bits[0], bits[1])
        else:
            both = call("abs", op("-", bits[0], bits[1]))
        weights = 2.0 ** np.arange(k, dtype=np.float64).reshape(1, -1)
        u = call("sum", op(".*", both, weights), 2.0)
        return [_signed(call("reshape", u, *[float(d) for d in shape]), cls)]
    return bitop


def bitshift_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``bitshift(a, n)`` and ``bitshift(a, n, assumedtype)`` of doubles
    (signed types in two's complement: arithmetic right shifts, left shifts
    that wrap into the sign bit) with a host integer scalar ``n``."""
    if nargout > 1 or len(args) not in (2, 3) or not isinstance(args[0], GpuArray):
        return None
    a = args[0]
    cls = _class_of(a)
    n = host_scalar(args[1])
    if cls is None or n is None or n != int(n) or isinstance(args[1], DeviceValue):
        return None
    bits_of = cls
    if len(args) == 3:
        bits_of = _assumed_type(a, args[2])
        if bits_of is None:
            return None
    elif cls == "double" and not _valid_double(a):
        return None
    k = _WIDTH[bits_of]
    if n >= 0:
        if n >= 64:
            return [op(".*", a, 0.0)]
        u = op(".*", _unsigned(a, bits_of), 2.0 ** n)
        wrapped = op("-", u, op(".*", call("floor", op(".*", u, 2.0 ** -k)), 2.0 ** k))
        return [_signed(wrapped, bits_of, cls)]
    right = min(-n, k - 1 if bits_of != "double" else 63)
    shifted = call("floor", op(".*", call("double", a), 2.0 ** -right))
    return [_signed(_unsigned(shifted, bits_of), bits_of, cls)]


def _positions(bit: Any, width: int) -> bool:
    """Whether host bit positions are integers in [1, width]."""
    if isinstance(bit, DeviceValue) or _class_of(bit) is None:
        return False
    p = np.asarray(bit, dtype=np.float64)
    return bool(np.all((p >= 1) & (p <= width) & (p == np.floor(p))))


def _same_or_scalar(a: Any, *others: Any) -> bool:
    shape = size_of(a)
    return all(size_of(o) == shape or int(np.prod(size_of(o))) == 1 for o in others)


def bitget_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``bitget(a, bit)``: 1 where bit ``bit`` of ``a`` is set, in ``a``'s class."""
    if nargout > 1 or len(args) != 2 or not isinstance(args[0], GpuArray):
        return None
    a, bit = args
    cls = _class_of(a)
    if cls is None or not _positions(bit, _WIDTH[cls]) or not _same_or_scalar(a, bit):
        return None
    if cls == "double" and not _valid_double(a):
        return None
    scaled = call("floor", op(".*", _unsigned(a, cls), op(".^", 2.0, op("-", 1.0, bit))))
    got = op("-", scaled, op(".*", 2.0, call("floor", op(".*", scaled, 0.5))))
    return [got if cls == "double" else call(cls, got)]


def bitset_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``bitset(a, bit)``, ``bitset(a, bit, v)`` (``v`` nonzero: set, 0:
    clear) and both with an ``assumedtype`` for double ``a`` (signed types
    in two's complement: setting the sign bit gives a negative value)."""
    if nargout > 1 or len(args) not in (2, 3, 4) or not isinstance(args[0], GpuArray):
        return None
    a, bit = args[0], args[1]
    rest = list(args[2:])
    assumed = rest.pop() if rest and is_char(rest[-1]) else None
    if len(rest) > 1 or any(is_char(v) for v in rest):
        return None
    value = rest[0] if rest else 1.0
    cls = _class_of(a)
    if cls is None or _class_of(value) is None:
        return None
    bits_of = cls
    if assumed is not None:
        bits_of = _assumed_type(a, assumed)
        if bits_of is None:
            return None
    elif cls == "double" and not _valid_double(a):
        return None
    if not _positions(bit, _WIDTH[bits_of]) or not _same_or_scalar(a, bit, value):
        return None
    u = _unsigned(a, bits_of)
    weight = op(".^", 2.0, op("-", bit, 1.0))
    scaled = call("floor", op("./", u, weight))
    current = op("-", scaled, op(".*", 2.0, call("floor", op(".*", scaled, 0.5))))
    wanted = op("~=", call("double", value) if isinstance(value, DeviceValue) else value, 0.0)
    return [_signed(op("+", u, op(".*", op("-", wanted, current), weight)), bits_of, cls)]


COMPOSED = {
    "bitand": _binary("and"),
    "bitor": _binary("or"),
    "bitxor": _binary("xor"),
    "bitshift": bitshift_on_device,
    "bitget": bitget_on_device,
    "bitset": bitset_on_device,
}
