"""Discrete Fourier transforms: fft ifft fft2 ifft2 fftshift ifftshift.

``fft`` always returns a complex array (as MATLAB does, even for real
input).  ``ifft`` returns a real array when the input is conjugate symmetric
along the transformed dimension (MATLAB's test) or with ``'symmetric'``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_shape
from matfuse.runtime._host_threads import map_columns
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, int_value, is_text
from matfuse.runtime.builtins._reduction_args import numeric_input
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, to_str


def _complex_input(v: Any, fn: str) -> np.ndarray:
    arr = numeric_input(v, fn)
    if arr.dtype in (np.float32, np.complex64):
        return arr.astype(np.complex64)
    return arr.astype(np.complex128)


def _forward_input(v: Any, fn: str) -> np.ndarray:
    """The input of a forward transform: real single/double data as they are
    (NumPy's real-input FFT gives the complex transform's bits without the
    complex copy), everything else as ``_complex_input``."""
    arr = numeric_input(v, fn)
    if arr.dtype == np.float64 or arr.dtype == np.float32:
        return arr
    return _complex_input(arr, fn)


def _length_arg(n: Any, fn: str) -> int | None:
    if n is None or (type(n) is np.ndarray and n.size == 0):
        return None
    value = int_value(n, fn)
    if value < 0:
        raise MatlabError(f"MATLAB:{fn}:lengthNotNonNegInt",
                          "Transform length must be a nonnegative integer scalar.")
    return value


def _resize(x: np.ndarray, n: int, axis: int) -> np.ndarray:
    """Zero-pad or truncate ``x`` to length ``n`` along ``axis``."""
    cur = x.shape[axis]
    if n == cur:
        return x
    if n < cur:
        return np.take(x, range(n), axis=axis)
    check_shape(x.shape[:axis] + (n,) + x.shape[axis + 1:], x.itemsize)
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, n - cur)
    return np.pad(x, pad)


def is_conjugate_symmetric(x: np.ndarray, axis: int) -> bool:
    """x[k] == conj(x[(n-k) % n]) exactly, along ``axis``."""
    n = x.shape[axis]
    if n == 0:
        return True
    idx = (-np.arange(n)) % n
    return bool(np.all(x == np.conj(np.take(x, idx, axis=axis))))


def _transform(x: Any, n: Any, dim: Any, fn: str, inverse: bool, symmetric: bool) -> Any:
    arr = _complex_input(x, fn) if inverse else _forward_input(x, fn)
    length = _length_arg(n, fn)
    if dim is not None:
        axis = dim_arg(dim, fn)
    elif length is not None and arr.ndim == 2 and arr.shape == (1, 1):
        axis = 0
    else:
        axis = first_nonsingleton_dim(arr.shape)
    if axis >= arr.ndim:
        arr = arr.reshape(arr.shape + (1,) * (axis + 1 - arr.ndim))
    if length is not None:
        arr = _resize(arr, length, axis)
    out_dtype = np.result_type(arr.dtype, np.complex64)
    if arr.shape[axis] == 0:
        return canonical(arr.astype(out_dtype))
    if inverse:
        real_out = symmetric or is_conjugate_symmetric(arr, axis)
        if symmetric:
            m = arr.shape[axis]
            half = np.take(arr, range(m // 2 + 1), axis=axis)
            out = np.fft.irfft(half, n=m, axis=axis)
        else:
            out = np.fft.ifft(arr, axis=axis)
            if real_out:
                out = out.real
        real_dtype = np.float32 if out_dtype == np.complex64 else np.float64
        return canonical(out.astype(real_dtype) if real_out else out.astype(out_dtype, copy=False))
    return canonical(_fft_along(arr, axis).astype(out_dtype, copy=False))


def _fft_along(arr: np.ndarray, axis: int) -> np.ndarray:
    """np.fft.fft along ``axis``; a large matrix transformed down its
    columns runs on column blocks in parallel (the same bits)."""
    if axis == 0:
        out = map_columns(lambda block: np.fft.fft(block, axis=0), arr,
                          np.result_type(arr.dtype, np.complex64))
        if out is not None:
            return out
    return np.fft.fft(arr, axis=axis)


def _split_symmetric(args: tuple) -> tuple[list[Any], bool]:
    rest = list(args)
    symmetric = False
    if rest and is_text(rest[-1]):
        word = to_str(rest.pop()).lower()
        if word not in ("symmetric", "nonsymmetric"):
            raise MatlabError("MATLAB:ifft:unknownOption", "Option must be 'symmetric' or 'nonsymmetric'.")
        symmetric = word == "symmetric"
    return rest, symmetric


@builtin("fft", category="signal", nargin=(1, 3),
         gpu=GpuSpec(kind="fft", hook="fft", op="fft"))
def fft(x: Any, n: Any = None, dim: Any = None) -> Any:
    """Discrete Fourier transform: fft(X, n, dim)."""
    return _transform(x, n, dim, "fft", False, False)


@builtin("ifft", category="signal", nargin=(1, 4),
         gpu=GpuSpec(kind="fft", hook="fft", op="ifft"))
def ifft(x: Any, *args: Any) -> Any:
    """Inverse DFT: ifft(Y, n, dim, 'symmetric')."""
    rest, symmetric = _split_symmetric(args)
    n = rest[0] if rest else None
    dim = rest[1] if len(rest) > 1 else None
    return _transform(x, n, dim, "ifft", True, symmetric)


def _input_2d(x: Any, sizes: tuple, fn: str) -> np.ndarray:
    """The complex input of fft2/ifft2, padded or cropped to the optional (m, n)."""
    arr = _complex_input(x, fn)
    m = _length_arg(sizes[0], fn) if len(sizes) >= 1 else None
    n = _length_arg(sizes[1], fn) if len(sizes) >= 2 else None
    if m is not None:
        arr = _resize(arr, m, 0)
    if n is not None:
        arr = _resize(arr, n, 1)
    return arr


def _fft2(x: Any, args: tuple) -> Any:
    arr = _input_2d(x, args, "fft2")
    if arr.size == 0:
        return canonical(arr)
    return canonical(np.fft.fft2(arr, axes=(0, 1)).astype(arr.dtype))


@builtin("fft2", category="signal", nargin=(1, 3))
def fft2(x: Any, *args: Any) -> Any:
    """2-D DFT: fft2(X, m, n)."""
    return _fft2(x, args)


@builtin("ifft2", category="signal", nargin=(1, 4))
def ifft2(x: Any, *args: Any) -> Any:
    """2-D inverse DFT: ifft2(Y, m, n, 'symmetric')."""
    rest, symmetric = _split_symmetric(args)
    arr = _input_2d(x, rest, "ifft2")
    if arr.size == 0:
        return canonical(arr)
    real_out = symmetric or bool(np.all(arr == np.conj(np.roll(np.flip(arr, (0, 1)), (1, 1), (0, 1)))))
    out = np.fft.ifft2(arr, axes=(0, 1))
    real_dtype = np.float32 if arr.dtype == np.complex64 else np.float64
    return canonical(out.real.astype(real_dtype) if real_out else out.astype(arr.dtype))


def _shift(x: Any, dim: Any, fn: str, inverse: bool) -> Any:
    # Shifting only moves elements, so char and logical keep their class.
    arr = x if type(x) is np.ndarray else numeric_input(x, fn)
    axes = [dim_arg(dim, fn)] if dim is not None else list(range(arr.ndim))
    out = arr
    for ax in axes:
        if ax >= arr.ndim:
            continue
        n = arr.shape[ax]
        shift = -(n // 2) if inverse else n // 2
        out = np.roll(out, shift, axis=ax)
    return canonical(out)


@builtin("fftshift", category="signal", nargin=(1, 2))
def fftshift(x: Any, dim: Any = None) -> Any:
    """Move the zero-frequency component to the centre."""
    return _shift(x, dim, "fftshift", False)


@builtin("ifftshift", category="signal", nargin=(1, 2))
def ifftshift(x: Any, dim: Any = None) -> Any:
    """Inverse of fftshift."""
    return _shift(x, dim, "ifftshift", True)
