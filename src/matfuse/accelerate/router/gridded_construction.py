"""``griddedInterpolant`` built from gpuArrays: the values stay on the
device (``F.Values`` is a gpuArray and evaluations take the device path of
``_gridded_evaluate`` without uploading them again).

The grid vectors are read back: they are short, and MATLAB's checks on
them (strictly ascending, matching ``size(V)``, enough points for the
method, uniform spacing for ``cubic``) and the evaluation's interval search
need them on the host; for the NDGRID form ``(X1, ..., Xn, V)`` only the
vector along each array's own dimension is read. The checks run on the
host's ``check_grid`` with a stand-in of V's shape, so every error is the
host's. The 1-D form ``(x, v)`` with unsorted ``x`` reorders ``v`` on the
device, as the host sorts both.

Left to the host (None: the counted fallback, which raises MATLAB's
errors): complex values, values that are not real numbers, and anything
the forms below do not cover.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import COLON, call, index
from matfuse.runtime.values import CellArray, DeviceValue, is_char, shape_of

_NUMERIC = ("double", "single", "logical", "int8", "uint8", "int16", "uint16", "int32",
            "uint32", "int64", "uint64")


def _stand_in(shape: tuple[int, ...]) -> np.ndarray:
    """A free array of ``shape`` for checks that look only at the shape."""
    return np.broadcast_to(np.zeros((1,) * len(shape)), shape)


def _host_vector(v: Any) -> np.ndarray | None:
    """A grid vector as a float64 1-D host array (read back from the device)."""
    if isinstance(v, DeviceValue):
        if not isinstance(v, GpuArray) or v.is_complex():
            return None
        v = v.gather()
    if type(v) in (float, bool):
        return np.array([float(v)])
    if type(v) is not np.ndarray or v.dtype.kind not in "biuf":
        return None
    return v.astype(np.float64).reshape(-1, order="F")


def _device_values(v: Any) -> GpuArray | None:
    if not isinstance(v, GpuArray) or v.is_complex() or v.matlab_class not in _NUMERIC:
        return None
    return v if v.matlab_class == "double" else call("double", v)


def _grid_along(x: GpuArray, k: int) -> np.ndarray | None:
    """The grid vector of the NDGRID array ``x`` along its dimension ``k``."""
    subs: list[Any] = [1.0] * len(x.shape)
    subs[k] = COLON
    return _host_vector(index(x, *subs))


def gridded_interpolant_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``griddedInterpolant(V)``, ``(x, v)``, ``({x1,...,xn}, V)`` and
    ``(X1,...,Xn, V)`` with gpuArray values, each optionally followed by
    the interpolation and extrapolation methods."""
    from matfuse.runtime.builtins.gridded_interpolation import GriddedInterpolant, _split_methods
    from matfuse.runtime.gridded_interpolant import check_grid

    if nargout > 1:
        return None
    rest, method, extrap = _split_methods(list(args))
    extrap = extrap or method
    if not rest or any(is_char(a) for a in rest):
        return None
    v = _device_values(rest[-1])
    if v is None:
        return None
    shape = tuple(v.shape)
    vector = len(shape) == 2 and min(shape) == 1
    value_sets = False
    if len(rest) == 1:
        grids = [np.arange(1.0, n + 1) for n in ((max(shape),) if vector else shape)]
    elif len(rest) == 2 and type(rest[0]) is CellArray:
        grids = [_host_vector(g) for g in rest[0].data.reshape(-1, order="F")]
        vector = vector and len(grids) == 1
    elif len(rest) == 2:
        x = _host_vector(rest[0])
        if x is None:
            return None
        if vector and v.numel == x.size:
            pass
        elif shape[0] == x.size and v.numel > x.size and len(shape) == 2:
            value_sets = True
        else:
            return None
        order = np.argsort(x, kind="stable")
        if np.any(order != np.arange(x.size)):
            rows = (order + 1.0).reshape(-1, 1)
            v = index(v, rows) if vector else index(v, rows, COLON)
        grids = [x[order]]
    else:
        if any(shape_of(a) != shape or not isinstance(a, GpuArray)
               for a in rest[:-1]):
            return None
        grids = [_grid_along(a, k) for k, a in enumerate(rest[:-1])]
    if any(g is None for g in grids):
        return None
    if vector and not value_sets:
        v = call("reshape", v, float(v.numel), 1.0)
        check_shape: tuple[int, ...] = (v.numel,)
    else:
        check_shape = tuple(v.shape)
    stand_in = _stand_in(check_shape)
    check_grid(grids, stand_in[:, 0] if value_sets else stand_in, method)
    return [GriddedInterpolant(grids, v, method, extrap, value_sets)]


COMPOSED = {"griddedInterpolant": gridded_interpolant_on_device}
