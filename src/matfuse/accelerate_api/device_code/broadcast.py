"""Implicit expansion as kernels index it: MATLAB's result shape of
operands, and per-operand element strides over merged dimensions (the
providers' elementwise kernel skeletons take them as uniforms/arguments)."""

from __future__ import annotations

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate_api.support import MatlabError

#: most merged dimensions a skeleton indexes
MAX_RANK = 8


def collapse_broadcast(out_shape: tuple[int, ...],
                       shapes: list[tuple[int, ...]]) -> tuple[list[int], list[list[int]]]:
    """Merge adjacent dims with the same expand pattern; returns (dims, strides).

    ``shapes`` are operand shapes (shorter ones padded with 1s); strides are
    column-major element strides, 0 where the operand is expanded.
    """
    rank = len(out_shape)
    padded = [tuple(s) + (1,) * (rank - len(s)) for s in shapes]
    dims: list[int] = []
    pattern: list[tuple[bool, ...]] = []
    for d in range(rank):
        if out_shape[d] == 1:
            continue
        pat = tuple(s[d] == out_shape[d] for s in padded)
        if dims and pattern[-1] == pat:
            dims[-1] *= out_shape[d]
        else:
            dims.append(out_shape[d])
            pattern.append(pat)
    strides: list[list[int]] = [[] for _ in shapes]
    for k in range(len(shapes)):
        acc = 1
        for d, n in enumerate(dims):
            full = pattern[d][k]
            strides[k].append(acc if full else 0)
            if full:
                acc *= n
    if len(dims) > MAX_RANK:
        raise Unsupported(f"broadcast of rank {len(dims)} > {MAX_RANK}")
    return dims, strides


def broadcast_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """MATLAB implicit expansion of ``shapes`` (MATLAB shape of the result).

    Raises:
        MatlabError: MATLAB:sizeDimensionsMustMatch when sizes clash.
    """
    rank = max(len(s) for s in shapes)
    out = []
    for d in range(rank):
        sizes = {s[d] if d < len(s) else 1 for s in shapes}
        sizes.discard(1)
        if len(sizes) > 1:
            raise MatlabError("MATLAB:sizeDimensionsMustMatch",
                              "Arrays have incompatible sizes for this operation.")
        out.append(sizes.pop() if sizes else 1)
    while len(out) > 2 and out[-1] == 1:
        out.pop()
    while len(out) < 2:
        out.append(1)
    return tuple(out)
