"""Device paths of ``find``'s forms: ``find(x, n)``, ``find(x, n, 'last')``
and ``[r, c] = find(x)``, ``[r, c, v] = find(x)``.

Each starts from the provider's ``find`` (the linear indices of the
nonzeros, one count read back) and stays on the device: the first or last
``n`` indices are a range of that column; subscripts are
``r = mod(k-1, m) + 1`` and ``c = floor((k-1) / m) + 1`` for ``m`` rows (MATLAB's
``c`` runs over all trailing dimensions); the values are ``x(k)``. A row
vector ``x`` gives rows. Complex, integer, empty and invalid forms return
None: the dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import call, index, op
from matfuse.accelerate.router.indexing import gather_at
from matfuse.accelerate.router.layout import try_find
from matfuse.runtime.values import is_char, to_str

_CLASSES = ("double", "single", "logical")


def _limit(args: list[Any]) -> tuple[int | None, bool] | None:
    """(n or None, from the end) of ``find(x, n, direction)``; None: invalid."""
    if len(args) == 1:
        return None, False
    n = args[1]
    if type(n) is not float or n < 1 or n != int(n):
        return None
    if len(args) == 2:
        return int(n), False
    if len(args) != 3 or not is_char(args[2]):
        return None
    word = to_str(args[2]).lower()
    if word not in ("first", "last"):
        return None
    return int(n), word == "last"


def find_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``find`` of a real double, single or logical gpuArray (module doc)."""
    x = args[0]
    if not isinstance(x, GpuArray) or x.is_complex() or x.matlab_class not in _CLASSES \
            or 0 in x.shape or not 1 <= len(args) <= 3 or nargout > 3:
        return None
    limit = _limit(args)
    if limit is None:
        return None
    p = x.provider
    k = try_find(p, x)
    if k is None:
        return None
    count = k.numel
    if count == 0 and nargout > 1:
        return None
    n, from_end = limit
    if n is not None and n < count:
        first = count - n + 1 if from_end else 1
        k = index(k, np.arange(float(first), float(first + n)).reshape(1, -1)
                  if k.shape[0] == 1 else np.arange(float(first), float(first + n)).reshape(-1, 1))
    if nargout <= 1:
        return [k]
    rows = float(x.shape[0])
    zero_based = op("-", k, 1.0)
    r = op("+", call("mod", zero_based, rows), 1.0)
    c = op("+", call("floor", op("./", zero_based, rows)), 1.0)
    if nargout == 2:
        return [r, c]
    shape = tuple(k.shape)
    v = gather_at(x, call("int32", zero_based), shape)
    return [r, c, v]


COMPOSED = {"find": find_on_device}
