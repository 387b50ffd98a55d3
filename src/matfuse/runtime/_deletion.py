"""Deletion: ``x(idx) = []`` for arrays, cells, structs and strings.

Linear deletion keeps a column vector a column and makes anything else a
row; subscripted deletion needs every subscript but one to cover its whole
dimension (MATLAB:subsdeldimmismatch otherwise).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._containers import elements, kind_of, wrap
from matfuse.runtime._subscripts import folded_shape, is_colon, positions
from matfuse.runtime.values import normalize_shape


def _out_of_range() -> MatlabError:
    return MatlabError("MATLAB:badsubscript", "Matrix index is out of range for deletion.")


def delete_elements(v: Any, idx: list) -> Any:
    """The value of ``v`` after ``v(idx...) = []``."""
    kind = kind_of(v)
    data = elements(v, kind)
    if not idx:
        return v
    if len(idx) == 1:
        return wrap(kind, _delete_linear(data, idx[0]), v)
    return wrap(kind, _delete_subscripts(data, idx), v)


def _delete_linear(data: np.ndarray, sub: Any) -> np.ndarray:
    count = data.size
    if is_colon(sub):
        return data.reshape(-1)[:0].reshape((0, 0))
    pos, _ishape = positions(sub, count, 0, 1, False)
    if pos.size == 0:
        return data
    if int(pos.max()) >= count:
        raise _out_of_range()
    keep = np.ones(count, dtype=bool)
    keep[pos] = False
    remaining = data.reshape(-1, order="F")[keep]
    shape = data.shape
    if len(shape) == 2 and shape[1] == 1 and shape[0] != 1:
        return remaining.reshape((remaining.size, 1))
    return remaining.reshape((1, remaining.size))


def _covers(pos: np.ndarray, extent: int) -> bool:
    return pos.size >= extent and np.unique(pos).size == extent


def _delete_subscripts(data: np.ndarray, idx: list) -> np.ndarray:
    n = len(idx)
    shape = folded_shape(data.shape, n)
    targets: list[tuple[int, np.ndarray]] = []
    for k, sub in enumerate(idx):
        if is_colon(sub):
            continue
        pos, _ishape = positions(sub, shape[k], k, n, False)
        if pos.size and int(pos.max()) >= shape[k]:
            raise _out_of_range()
        if _covers(pos, shape[k]):
            continue
        targets.append((k, pos))
    if len(targets) > 1:
        raise MatlabError("MATLAB:subsdeldimmismatch",
                          "A null assignment can have only one non-colon index.")
    view = data.reshape(shape, order="F")
    if not targets:
        # Every subscript covers its dimension: everything goes.
        new_shape = (0,) + tuple(shape[1:])
        return np.empty(normalize_shape(new_shape), dtype=data.dtype)
    k, pos = targets[0]
    if pos.size == 0:
        return data
    out = np.delete(view, np.unique(pos), axis=k)
    if n < len(data.shape) and k < n - 1:
        # The folded trailing dims were untouched: restore them.
        return out.reshape(out.shape[:n - 1] + data.shape[n - 1:], order="F")
    return out.reshape(normalize_shape(out.shape), order="F")
