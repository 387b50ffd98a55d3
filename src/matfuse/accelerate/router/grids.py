"""``meshgrid`` and ``ndgrid`` with gpuArray vectors, built on the device.

Each output is one input vector laid along its dimension and repeated along
the others: ``reshape`` to that orientation, then ``repmat`` (whose positions
are generated on the device, ``rearrange_positions``). Nothing is read back
or uploaded but host vectors given next to device ones (MATLAB returns
gpuArrays for every output then). Empty vectors take the host path.
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.runtime.values import DeviceValue, shape_of


def _call(name: str, *args: Any) -> Any:
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    return call_builtin(lookup(name), list(args), 1, None)[0]


def _numel(v: Any) -> int:
    n = 1
    for d in shape_of(v):
        n *= d
    return n


def _on_device(vectors: list[Any]) -> list[GpuArray] | None:
    p = ensure_provider()
    out = []
    for v in vectors:
        if isinstance(v, DeviceValue) and not isinstance(v, GpuArray):
            return None
        g = upload_value(v, p)
        if g.is_complex() or _numel(g) == 0:
            return None
        out.append(g)
    return out


def _laid(v: GpuArray, dim: int, shape: tuple[int, ...]) -> Any:
    """``v(:)`` along ``dim`` of ``shape``, repeated over the other dims."""
    along = [1.0] * len(shape)
    along[dim] = float(shape[dim])
    reps = [float(n) for n in shape]
    reps[dim] = 1.0
    return _call("repmat", _call("reshape", v, *along), *reps)


def meshgrid_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[X, Y] = meshgrid(x, y)`` / ``[X, Y, Z] = meshgrid(x, y, z)``."""
    if not 1 <= len(args) <= 3:
        return None
    count = max(nargout, 1)
    vectors = _on_device(list(args))
    if vectors is None:
        return None
    x = vectors[0]
    y = vectors[1] if len(vectors) > 1 else x
    if len(args) == 3 or count == 3:
        z = vectors[2] if len(vectors) > 2 else x
        shape = (_numel(y), _numel(x), _numel(z))
        grids = [(x, 1), (y, 0), (z, 2)]
    else:
        shape = (_numel(y), _numel(x))
        grids = [(x, 1), (y, 0)]
    return [_laid(v, d, shape) for v, d in grids[:count]]


def ndgrid_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[X1, ..., Xn] = ndgrid(x1, ..., xn)`` (one vector: used n times)."""
    count = max(nargout, 1)
    if not args or (len(args) != 1 and len(args) < count):
        return None
    vectors = _on_device(list(args))
    if vectors is None:
        return None
    if len(vectors) == 1:
        vectors = vectors * count
    shape = tuple(_numel(v) for v in vectors)
    if len(shape) == 1:
        shape = shape + (1,)
    return [_laid(v, d, shape) for d, v in enumerate(vectors[:count])]


COMPOSED: dict[str, Callable[[list[Any], int, Any], list[Any] | None]] = {
    "meshgrid": meshgrid_on_device,
    "ndgrid": ndgrid_on_device,
}
