"""factorial, nchoosek, primes and isprime."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import scalar_value
from matfuse.runtime.builtins._math_support import (
    finish,
    is_integer_array,
    numeric_array,
    check_allocation,
    saturate_to,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, CellArray

# factorial(n) as doubles for n = 0..170; 171! overflows to Inf.
_FACTORIALS = np.array([float(math.factorial(n)) for n in range(171)])


@builtin("factorial", category="elementwise", nargin=(1, 1))
def factorial(n: Any) -> Any:
    """Factorial of nonnegative integers (Inf beyond 170 for doubles)."""
    arr = numeric_array(n, "factorial")
    if arr.dtype.kind == "c" or np.any(arr < 0) or np.any(arr != np.floor(arr)) \
            or np.any(np.isnan(arr) if arr.dtype.kind == "f" else False):
        raise MatlabError("MATLAB:factorial:NNegativeInteger",
                          "N must be an array of real non-negative integers.")
    values = arr.astype(np.float64)
    big = values > 170
    idx = np.where(big, 0, values).astype(np.int64)
    out = np.where(big, np.inf, _FACTORIALS[idx])
    if is_integer_array(arr):
        return finish(saturate_to(out, arr.dtype))
    return finish(out.astype(arr.dtype))


@builtin("nchoosek", category="elementwise", nargin=(2, 2))
def nchoosek(v: Any, k: Any) -> Any:
    """Binomial coefficient for scalar n, or all k-combinations of a vector's
    elements (rows in lexicographic order of positions)."""
    kk = scalar_value(k, "nchoosek")
    if not math.isfinite(kk) or kk < 0 or kk != math.floor(kk):
        raise MatlabError("MATLAB:nchoosek:InvalidArg2",
                          "K must be an integer between 0 and N.")
    kk = int(kk)
    if isinstance(v, CellArray):
        return _combinations_of(v.data.reshape(-1, order="F"), kk, cell=True)
    arr = v if type(v) is np.ndarray else numeric_array(v, "nchoosek")
    if arr.size == 1 and arr.dtype != CHAR_DTYPE:
        n = float(arr.reshape(-1)[0].real) if arr.dtype.kind == "c" else float(arr.reshape(-1)[0])
        if not math.isfinite(n) or n < 0 or n != math.floor(n):
            raise MatlabError("MATLAB:nchoosek:InvalidArg1",
                              "N must be a real non-negative integer.")
        if kk > n:
            raise MatlabError("MATLAB:nchoosek:KOutOfRange",
                              "K must be an integer between 0 and N.")
        value = float(math.comb(int(n), kk))
        if is_integer_array(arr):
            return finish(saturate_to(np.array([[value]]), arr.dtype))
        return finish(np.array([[value]], dtype=arr.dtype if arr.dtype.kind == "f" else np.float64))
    if arr.ndim != 2 or (min(arr.shape) > 1):
        raise MatlabError("MATLAB:nchoosek:InvalidArg1",
                          "The first input must be a vector.")
    return _combinations_of(arr.reshape(-1, order="F"), kk, cell=False, dtype=arr.dtype)


def _combinations_of(items: np.ndarray, k: int, cell: bool,
                     dtype: np.dtype | None = None) -> Any:
    n = items.shape[0]
    if k > n:
        if cell:
            return CellArray.empty((0, k))
        return finish(np.zeros((0, k), dtype=dtype))
    check_allocation((math.comb(n, k), k), 8)
    combos = list(itertools.combinations(range(n), k))
    index = np.array(combos, dtype=np.int64).reshape(len(combos), k)
    if cell:
        data = np.empty(index.shape, dtype=object)
        for pos in np.ndindex(index.shape):
            data[pos] = items[index[pos]]
        return CellArray(data)
    return finish(items[index])


def _sieve(limit: int) -> np.ndarray:
    if limit < 2:
        return np.zeros(0, dtype=np.int64)
    flags = np.ones(limit + 1, dtype=bool)
    flags[:2] = False
    for p in range(2, math.isqrt(limit) + 1):
        if flags[p]:
            flags[p * p::p] = False
    return np.flatnonzero(flags)


@builtin("primes", category="elementwise", nargin=(1, 1))
def primes(n: Any) -> Any:
    """Row vector of the primes less than or equal to n (class of n)."""
    arr = numeric_array(n, "primes")
    if arr.size != 1:
        raise MatlabError("MATLAB:primes:InputNotScalar", "Input must be a scalar.")
    limit = float(arr.reshape(-1)[0].real)
    if math.isnan(limit):
        raise MatlabError("MATLAB:primes:InputNotReal", "Input must be a real scalar.")
    if limit >= 2:
        check_allocation((int(min(limit, 2 ** 62)),), 1)
    found = _sieve(int(limit) if limit >= 0 else 0)
    out_dtype = arr.dtype if arr.dtype.kind in "iuf" else np.float64
    return finish(found.astype(out_dtype).reshape(1, -1))


@builtin("isprime", category="elementwise", nargin=(1, 1))
def isprime(x: Any) -> Any:
    """True for prime elements; input must be nonnegative integers."""
    arr = numeric_array(x, "isprime")
    if arr.dtype.kind == "c" or np.any(arr < 0) or np.any(arr != np.floor(arr)) \
            or not np.all(np.isfinite(arr)):
        raise MatlabError("MATLAB:isprime:InputNotPosInt",
                          "All entries must be nonnegative integers.")
    if arr.size and float(np.max(arr)) <= 1e7:
        # Small values: one sieve answers every element at once.
        flags = np.zeros(int(np.max(arr)) + 1, dtype=bool)
        flags[_sieve(flags.size - 1)] = True
        return finish(flags[arr.astype(np.int64)])
    flat = arr.reshape(-1, order="F")
    out = np.array([_is_prime(int(v)) for v in flat.tolist()], dtype=bool)
    return finish(out.reshape(arr.shape, order="F"))


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0 or n % 3 == 0:
        return False
    if n >= 1 << 20:
        return _miller_rabin(n)
    i = 5
    while i * i <= n:
        if n % i == 0 or n % (i + 2) == 0:
            return False
        i += 6
    return True


# Deterministic Miller-Rabin witnesses for every n < 3.3e24 (covers uint64).
_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _miller_rabin(n: int) -> bool:
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _WITNESSES:
        if a % n == 0:
            continue
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@builtin("perms", category="elementwise", nargin=(1, 1))
def perms(v: Any) -> Any:
    """All permutations of a vector's elements, one per row, in reverse
    lexicographic order of positions (MATLAB's order)."""
    if isinstance(v, CellArray):
        items = v.data.reshape(-1, order="F")
    else:
        items = v if type(v) is np.ndarray else numeric_array(v, "perms")
        if items.ndim != 2 or min(items.shape) > 1:
            raise MatlabError("MATLAB:perms:invalidInput", "Input must be a vector.")
        items = items.reshape(-1, order="F")
    n = items.size
    if n > 11:
        check_allocation((math.factorial(n), n), 8)
    if n == 0:
        index = np.zeros((1, 0), dtype=np.int64)
    else:
        index = np.array(list(itertools.permutations(range(n))), dtype=np.int64)[::-1]
    if isinstance(v, CellArray):
        return CellArray(items[index] if n else np.empty((1, 0), dtype=object))
    return finish(items[index] if n else np.zeros((1, 0), dtype=items.dtype))
