"""``circshift``, ``flip``/``fliplr``/``flipud`` and ``repmat`` of gpuArrays
as selections whose positions are generated on the device.

Each of these picks, along every dimension independently, a wrapped or
reversed range of the source's subscripts: circshift by ``s`` along a
dimension of ``n`` reads ``(k - s) mod n``, flip reads ``n-1-k``, repmat by
``r`` reads ``k mod n`` for k < r*n. So the result is an
``index_positions.Selection`` of per-dimension axes, generated on the device
from uniforms (no O(numel) position array on the host, nothing uploaded).

Only plain integer forms are taken; anything else (non-integer shifts,
empty arrays, zero or negative repetitions, options) returns None and the
general rearrangement path runs, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.index_positions import (
    Axis,
    Selection,
    plain_axis,
    selection_of,
    strides_of,
    wrapped_axis,
)

_LIMIT = 2**31 - 1


def _integers(v: Any) -> list[int] | None:
    """A real integer scalar or row/column of them as ints; None otherwise."""
    if type(v) is float:
        values = [v]
    elif type(v) is np.ndarray and v.dtype.kind in "fiu" and v.ndim == 2 and 1 in v.shape \
            and v.size >= 1:
        values = [float(x) for x in v.reshape(-1)]
    else:
        return None
    if any(x != x or x != int(x) or abs(x) >= _LIMIT for x in values):
        return None
    return [int(x) for x in values]


def _first_nonsingleton(shape: tuple[int, ...]) -> int:
    return next((i for i, d in enumerate(shape) if d != 1), 0)


def _shifted(shape: tuple[int, ...], shifts: dict[int, int]) -> Selection:
    strides = strides_of(shape)
    axes = []
    for d, n in enumerate(shape):
        s = shifts.get(d, 0) % n if n else 0
        axes.append(wrapped_axis((n - s) % n, n, n, strides[d]) if s else plain_axis(n, strides[d]))
    return selection_of(axes)


def circshift_selection(shape: tuple[int, ...], args: list[Any]) -> Selection | None:
    """``circshift(x, K)`` / ``circshift(x, K, dim)``."""
    if not args or len(args) > 2:
        return None
    shifts = _integers(args[0])
    if shifts is None:
        return None
    if len(args) == 2:
        dim = _integers(args[1])
        if dim is None or len(dim) != 1 or dim[0] < 1 or len(shifts) != 1:
            return None
        targets = {dim[0] - 1: shifts[0]}
    elif len(shifts) == 1:
        targets = {_first_nonsingleton(shape): shifts[0]}
    else:
        targets = dict(enumerate(shifts))
    padded = tuple(shape) + (1,) * max(0, max(targets) + 1 - len(shape))
    return _shifted(padded, targets)


def flip_selection(name: str, shape: tuple[int, ...], args: list[Any]) -> Selection | None:
    """``flip(x)``, ``flip(x, dim)``, ``fliplr(x)``, ``flipud(x)``."""
    if name == "fliplr" and not args:
        dim = 1
    elif name == "flipud" and not args:
        dim = 0
    elif name == "flip" and not args:
        dim = _first_nonsingleton(shape)
    elif name == "flip" and len(args) == 1:
        given = _integers(args[0])
        if given is None or len(given) != 1 or given[0] < 1:
            return None
        dim = given[0] - 1
    else:
        return None
    padded = tuple(shape) + (1,) * max(0, dim + 1 - len(shape))
    strides = strides_of(padded)
    axes = [plain_axis(n, strides[d]) for d, n in enumerate(padded)]
    n = padded[dim]
    if n > 1:
        axes[dim] = Axis((n - 1) * strides[dim], -strides[dim], n)
    return selection_of(axes)


def repmat_selection(shape: tuple[int, ...], args: list[Any]) -> Selection | None:
    """``repmat(x, r)``, ``repmat(x, r1, r2, ...)``, ``repmat(x, [r1 r2 ...])``."""
    if not args:
        return None
    if len(args) == 1:
        reps = _integers(args[0])
        if reps is not None and len(reps) == 1:
            reps = reps * 2
    else:
        parts = [_integers(a) for a in args]
        if any(r is None or len(r) != 1 for r in parts):
            return None
        reps = [r[0] for r in parts if r is not None]
    if reps is None or any(r < 1 for r in reps):
        return None
    ndim = max(len(shape), len(reps))
    padded = tuple(shape) + (1,) * (ndim - len(shape))
    reps = list(reps) + [1] * (ndim - len(reps))
    total = 1
    for n, r in zip(padded, reps):
        total *= n * r
    if total == 0 or total > _LIMIT:
        return None
    strides = strides_of(padded)
    axes = []
    for d, (n, r) in enumerate(zip(padded, reps)):
        if r == 1:
            axes.append(plain_axis(n, strides[d]))
        elif n == 1:
            axes.append(Axis(0, 0, r))
        else:
            axes.append(wrapped_axis(0, n * r, n, strides[d]))
    return selection_of(axes)


def rearrangement_selection(name: str, shape: tuple[int, ...], args: list[Any]) -> Selection | None:
    """The selection that ``name(x, args...)`` makes of an ``x`` of ``shape``
    (None: not one of these forms)."""
    if 0 in shape:
        return None
    if name == "circshift":
        return circshift_selection(shape, args)
    if name in ("flip", "fliplr", "flipud"):
        return flip_selection(name, shape, args)
    if name == "repmat":
        return repmat_selection(shape, args)
    return None
