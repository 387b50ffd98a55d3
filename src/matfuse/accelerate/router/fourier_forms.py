"""Device paths of ``fft``, ``ifft``, ``fft2`` and ``ifft2`` through the
provider's one-dimensional ``fft`` hook; a length the hook does not take
(wgpu: only powers of two, without padding) is padded or cut on the device
and transformed by Bluestein's algorithm from power-of-two transforms.

``fft2`` and ``ifft2`` transform along the first dimension, then the second
(with the optional lengths ``m``, ``n``). An inverse transform gives a real
result where its input is conjugate symmetric (``x(k) == conj(x(mod(-k, n)))``
along the transformed dimensions, exactly), as the host decides: that test
is one comparison on the device and one logical read back.

Forms left to the host (counted fallback, which raises MATLAB's errors):
``'symmetric'`` (the host transforms only the first half), lengths that
resize the data before an inverse transform, dimensions past the array's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate.router.compose_ops import COLON, FLOAT, call, first_nonsingleton, index, op, positive_int
from matfuse.accelerate.router.real_domain import any_true
from matfuse.accelerate_api import Unsupported
from matfuse.runtime.values import char_array, is_char


def _float_data(x: Any) -> bool:
    return isinstance(x, GpuArray) and x.matlab_class in FLOAT and 0 not in x.shape


def _length(v: Any) -> int | None | str:
    """A transform length argument: an int, None for ``[]``, "bad" otherwise."""
    if type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fiub":
        return None
    n = positive_int(v)
    return "bad" if n is None else n


def _transform(x: GpuArray, n: int | None, dim: int, inverse: bool) -> GpuArray | None:
    """The provider's transform of ``x`` along ``dim`` (length ``n``); where
    the hook does not take that length, Bluestein's from transforms of a
    power-of-two length it does take."""
    p = x.provider
    try:
        return wrap_handle(p.fft(x.valid_handle(), n, dim, inverse), x.matlab_class, p)
    except Unsupported:
        pass
    length = x.shape[dim] if dim < len(x.shape) else 1
    if n is not None and n != length:
        x = _resized(x, n, dim)
        try:
            return wrap_handle(p.fft(x.valid_handle(), None, dim, inverse), x.matlab_class, p)
        except Unsupported:
            length = n
    if length < 2 or length & (length - 1) == 0:
        return None
    return _bluestein(x, dim, inverse)


def _along(values: np.ndarray, dim: int, ndim: int) -> np.ndarray:
    """A host vector laid out along ``dim`` (singleton elsewhere)."""
    shape = [1] * max(ndim, dim + 1)
    shape[dim] = values.size
    return values.reshape(shape, order="F")


def _resized(x: GpuArray, n: int, dim: int) -> Any:
    """``x`` truncated or zero-padded to length ``n`` along ``dim``."""
    length = x.shape[dim]
    if n < length:
        subs: list[Any] = [COLON] * len(x.shape)
        subs[dim] = np.arange(1, n + 1, dtype=np.float64).reshape(1, -1)
        return index(x, *subs)
    shape = list(x.shape)
    shape[dim] = n - length
    zeros = call("zeros", *[float(d) for d in shape], char_array("like"), x)
    return call("cat", float(dim + 1), x, zeros)


def _bluestein(x: GpuArray, dim: int, inverse: bool) -> GpuArray | None:
    """The DFT of length N along ``dim`` as a circular convolution of length
    M >= 2N - 1 (a power of two): ``X = w .* ifft(fft(pad(x .* w)) .* B)(1:N)``
    with the chirp ``w_k = exp(-+i pi k^2 / N)`` (``k^2 mod 2N`` keeps its
    angle exact) and ``B`` the transform of the conjugate chirp, made on the
    host from N alone. The inverse takes the conjugate chirp and divides by N."""
    ndim = len(x.shape)
    length = x.shape[dim]
    size = 1 << (2 * length - 2).bit_length()
    single = x.matlab_class == "single"
    k = np.arange(length, dtype=np.int64)
    sign = 1.0 if inverse else -1.0
    chirp = np.exp(sign * 1j * np.pi * ((k * k) % (2 * length)) / length)
    kernel = np.zeros(size, dtype=np.complex128)
    kernel[:length] = np.conj(chirp)
    kernel[size - length + 1:] = np.conj(chirp[1:])[::-1]
    kernel = np.fft.fft(kernel)
    cdtype = np.complex64 if single else np.complex128
    chirp_along = _along(chirp.astype(cdtype), dim, ndim)
    padded = _resized(op(".*", x, chirp_along), size, dim)
    p = x.provider
    try:
        spectrum = wrap_handle(p.fft(padded.valid_handle(), None, dim, False), x.matlab_class, p)
        product = op(".*", spectrum, _along(kernel.astype(cdtype), dim, ndim))
        conv = wrap_handle(p.fft(product.valid_handle(), None, dim, True), x.matlab_class, p)
    except Unsupported:
        return None
    subs: list[Any] = [COLON] * ndim
    subs[dim] = np.arange(1, length + 1, dtype=np.float64).reshape(1, -1)
    out = op(".*", index(conv, *subs), chirp_along)
    return op("./", out, float(length)) if inverse else out


def _conjugate_symmetric(x: GpuArray, dims: tuple[int, ...]) -> bool:
    """``x`` equals the conjugate of itself mirrored (``k -> mod(-k, n)``) along ``dims``."""
    subs: list[Any] = [COLON] * len(x.shape)
    for d in dims:
        n = x.shape[d]
        subs[d] = ((-np.arange(n)) % n + 1).astype(np.float64).reshape(1, -1)
    mirrored = call("conj", index(x, *subs))
    return not any_true(op("~=", x, mirrored))


def _inverse_result(x: GpuArray, out: GpuArray, dims: tuple[int, ...]) -> GpuArray:
    return call("real", out) if _conjugate_symmetric(x, dims) else out


def fft_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``fft(x)``, ``fft(x, n)`` and ``fft(x, n, dim)`` of double/single gpuArrays."""
    if nargout > 1 or not 1 <= len(args) <= 3 or not _float_data(args[0]):
        return None
    x = args[0]
    shape = tuple(x.shape)
    n = _length(args[1]) if len(args) >= 2 else None
    if len(args) == 3:
        dim = positive_int(args[2])
        if dim is None or dim > len(shape):
            return None
        dim -= 1
    elif n is not None and shape == (1, 1):
        dim = 0
    else:
        dim = first_nonsingleton(shape)
    if n == "bad":
        return None
    out = _transform(x, n, dim, False)
    return None if out is None else [out]


def ifft_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``ifft(y)``, ``ifft(y, n)`` (n the data's length or ``[]``) and
    ``ifft(y, n, dim)`` of double/single gpuArrays."""
    if nargout > 1 or not 1 <= len(args) <= 3 or not _float_data(args[0]):
        return None
    if any(is_char(a) for a in args[1:]):
        return None
    x = args[0]
    shape = tuple(x.shape)
    n = _length(args[1]) if len(args) >= 2 else None
    dim = first_nonsingleton(shape) if len(args) < 3 else positive_int(args[2])
    if n == "bad" or dim is None or (len(args) == 3 and dim > len(shape)):
        return None
    if len(args) == 3:
        dim -= 1
    if n is not None and n != shape[dim]:
        return None
    out = _transform(x, None, dim, True)
    return None if out is None else [_inverse_result(x, out, (dim,))]


def _two_dimensional(inverse: bool) -> Any:
    def transform(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        if nargout > 1 or not 1 <= len(args) <= 3 or not _float_data(args[0]):
            return None
        if any(is_char(a) for a in args[1:]):
            return None
        x = args[0]
        sizes = [_length(a) for a in args[1:]] + [None] * (3 - len(args))
        if "bad" in sizes or len(x.shape) < 2:
            return None
        if inverse and any(s is not None and s != x.shape[d] for d, s in enumerate(sizes)):
            return None
        first = _transform(x, sizes[0], 0, inverse)
        out = None if first is None else _transform(first, sizes[1], 1, inverse)
        if out is None:
            return None
        return [_inverse_result(x, out, (0, 1)) if inverse else out]
    transform.__doc__ = (f"``{'i' if inverse else ''}fft2(x)`` and ``(x, m, n)``: along the "
                         "first dimension, then the second.")
    return transform


COMPOSED = {
    "fft": fft_on_device,
    "ifft": ifft_on_device,
    "fft2": _two_dimensional(False),
    "ifft2": _two_dimensional(True),
}
