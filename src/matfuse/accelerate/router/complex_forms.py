"""Complex operations composed from device operations a provider does
have, for providers whose kernels lack them (wgpu's complex kernels do
elementwise arithmetic, ``exp``/``log``/``sqrt``, parts and comparisons):

* ``A * B``: four (or two, for a real operand) real matrix products of
  the parts, joined by ``complex``;
* ``z .^ k`` for a whole scalar ``|k| <= 100``: binary powering with complex
  products (NumPy's own method for such exponents; ``1 ./ z^|k|`` for k < 0);
* ``cumsum(z, ...)``: the real and imaginary parts summed separately
  (exactly the complex running sum);
* ``prod(z)``, ``prod(z, dim)``: halves multiplied pairwise until one
  element is left (log2(n) complex products).

The product and the power are tried only after the provider's own path
declined, so a provider with native complex kernels (CUDA) keeps them; the
running sum and the product along a dimension are these compositions on
every provider. Anything else returns None.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import COLON, call, first_nonsingleton, host_scalar, index, op


def _complex_device(v: Any) -> bool:
    return isinstance(v, GpuArray) and v.is_complex() and 0 not in v.shape \
        and v.matlab_class in ("double", "single")


def _parts(v: Any) -> tuple[Any, Any]:
    """(real, imaginary) of an operand; None as the imaginary part of a real one."""
    is_complex = v.is_complex() if isinstance(v, GpuArray) else np.iscomplexobj(v)
    return (call("real", v), call("imag", v)) if is_complex else (v, None)


def complex_mtimes(a: Any, b: Any) -> Any:
    """``a * b`` with a complex operand, from real matrix products."""
    ar, ai = _parts(a)
    br, bi = _parts(b)
    real = call("mtimes", ar, br)
    imag = None
    if ai is not None and bi is not None:
        real = op("-", real, call("mtimes", ai, bi))
    for x, y in ((ar, bi), (ai, br)):
        if x is not None and y is not None:
            term = call("mtimes", x, y)
            imag = term if imag is None else op("+", imag, term)
    return call("complex", real, imag)


def complex_power(z: GpuArray, exponent: Any) -> Any | None:
    """``z .^ k`` for a whole host scalar ``|k| <= 100``, else None."""
    k = host_scalar(exponent)
    if k is None or k != int(k) or abs(k) > 100 or not _complex_device(z):
        return None
    n = abs(int(k))
    if n == 0:
        return op("+", op(".*", z, 0.0), 1.0)
    result, square = None, z
    while n:
        if n & 1:
            result = square if result is None else op(".*", result, square)
        n >>= 1
        if n:
            square = op(".*", square, square)
    return op("./", 1.0, result) if k < 0 else result


def cumsum_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    if nargout > 1 or not args or not _complex_device(args[0]):
        return None
    rest = list(args[1:])
    real, imag = call("real", args[0]), call("imag", args[0])
    return [call("complex", call("cumsum", real, *rest), call("cumsum", imag, *rest))]


def prod_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    if nargout > 1 or len(args) not in (1, 2) or not _complex_device(args[0]):
        return None
    z = args[0]
    shape = tuple(z.shape)
    if len(args) == 2:
        if type(args[1]) is not float or args[1] < 1 or args[1] != int(args[1]):
            return None
        axis = int(args[1]) - 1
    else:
        axis = first_nonsingleton(shape)
    if axis >= len(shape):
        return [z]
    rank = len(shape)

    def along(v: Any, first: int, last: int) -> Any:
        subs: list[Any] = [COLON] * rank
        subs[axis] = np.arange(float(first), float(last) + 1.0).reshape(1, -1)
        return index(v, *subs)

    length = shape[axis]
    while length > 1:
        half = length // 2
        paired = op(".*", along(z, 1, half), along(z, half + 1, 2 * half))
        z = call("cat", float(axis + 1), paired, along(z, length, length)) if length % 2 else paired
        length = half + length % 2
    return [z]


COMPOSED = {"cumsum": cumsum_on_device, "prod": prod_on_device}
