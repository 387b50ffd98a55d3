"""Parallel host kernels: run a NumPy/SciPy call that releases the GIL on
blocks of an array in a small thread pool.

Used where each column is transformed independently (``fft`` and
``filter`` down the columns of a matrix) and for elementwise ufuncs on
large arrays (``sin``, ``exp``, ``x.^p``): every block gets exactly the call
the whole array would have got, so the result is bit-identical to the serial
one (checked for NumPy's SIMD loops with unaligned block edges). Small
inputs stay serial (a thread hand-off costs tens of microseconds).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

# Below this many elements a call is not worth splitting.
MIN_PARALLEL_ELEMENTS = 1 << 20
# Elementwise transcendental functions cost 2-60 ns an element: split from
# here, in blocks of at least this many elements.
MIN_ELEMENTWISE = 1 << 18
_ELEMENTWISE_BLOCK = 1 << 16

_pool: ThreadPoolExecutor | None = None


def host_threads() -> int:
    """Worker count: the CPUs this process may run on, at most 16."""
    try:
        count = len(os.sched_getaffinity(0))
    except AttributeError:      # not on Linux
        count = os.cpu_count() or 1
    return max(1, min(count, 16))


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        # imported here: only large arrays reach the pool, start-up skips it
        from concurrent.futures import ThreadPoolExecutor

        _pool = ThreadPoolExecutor(max_workers=host_threads(), thread_name_prefix="matfuse-host")
    return _pool


def _forget_pool_in_child() -> None:
    # a forked child has the pool object but none of its threads
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def map_columns(func: Callable[[np.ndarray], np.ndarray], arr: np.ndarray,
                out_dtype: np.dtype) -> np.ndarray | None:
    """``func(arr)`` for a 2-D ``arr`` whose columns ``func`` treats
    independently (it must keep the shape), computed on column blocks in
    parallel into a column-major result; None when the input is too small
    or has too few columns to split (the caller then calls ``func`` itself)."""
    threads = host_threads()
    if arr.ndim != 2 or arr.size < MIN_PARALLEL_ELEMENTS or threads < 2 or arr.shape[1] < 2:
        return None
    blocks = min(threads, arr.shape[1])
    bounds = np.linspace(0, arr.shape[1], blocks + 1).astype(int)
    out = np.empty(arr.shape, dtype=out_dtype, order="F")

    def run(k: int) -> None:
        cols = slice(bounds[k], bounds[k + 1])
        # NumPy's error state is per thread: MATLAB arithmetic is quiet
        with np.errstate(all="ignore"):
            out[:, cols] = func(arr[:, cols])

    # list() re-raises a worker's exception here
    list(_executor().map(run, range(blocks)))
    return out



def map_elementwise(ufunc: np.ufunc, arr: np.ndarray, *scalars: Any) -> np.ndarray | None:
    """``ufunc(arr, *scalars)`` for a large contiguous real float ``arr`` and
    a ufunc whose result has ``arr``'s dtype, on blocks of the memory in
    parallel; None when it is not worth it (the caller calls ``ufunc``)."""
    if arr.size < MIN_ELEMENTWISE:
        return None
    return _map_blocks(ufunc, arr, (arr,) + scalars)


def map_arithmetic(ufunc: np.ufunc, a: Any, b: Any) -> np.ndarray | None:
    """``ufunc(a, b)`` for memory-bound arithmetic (``+ - .* ./``) of a large
    real float array with a Python float or a same-shape array of the same
    dtype and memory order; None when it is not one of these or small."""
    like = a if type(a) is np.ndarray else b
    if like.size < MIN_PARALLEL_ELEMENTS:
        return None
    return _map_blocks(ufunc, like, (a, b))


def _map_blocks(ufunc: np.ufunc, like: np.ndarray, operands: tuple[Any, ...]) -> np.ndarray | None:
    threads = host_threads()
    size = like.size
    if threads < 2 or like.dtype.kind != "f":
        return None
    order = "F" if like.flags.f_contiguous else "C" if like.flags.c_contiguous else None
    if order is None:
        return None
    flats: list[Any] = []
    for operand in operands:
        if type(operand) is not np.ndarray:
            flats.append(operand)
            continue
        if (operand.shape != like.shape or operand.dtype != like.dtype
                or not operand.flags[order + "_CONTIGUOUS"]):
            return None
        flats.append(operand.ravel(order=order))
    out = np.empty(like.shape, dtype=like.dtype, order=order)
    flat_out = out.ravel(order=order)
    blocks = max(2, min(threads, size // _ELEMENTWISE_BLOCK))
    # block edges on multiples of 64 elements (whole cache lines)
    bounds = [min(size, (size * k // blocks) // 64 * 64) for k in range(blocks)] + [size]

    def run(k: int) -> None:
        lo, hi = bounds[k], bounds[k + 1]
        if lo < hi:
            args = [f[lo:hi] if type(f) is np.ndarray else f for f in flats]
            with np.errstate(all="ignore"):
                ufunc(*args, out=flat_out[lo:hi])

    list(_executor().map(run, range(blocks)))
    return out
