"""Call forms of the reduction builtins (``sum mean prod max min any all``)
with a device operand, read once for the fused and the eager paths.

``read_form`` turns ``op(x, dim|vecdim|'all', outtype, nanflag)`` and
``max(x, [], dim|vecdim|'all', nanflag)`` into a :class:`ReductionForm`;
forms it does not take (extra arguments, device dims, a flag that does not
belong to ``op``, a repeated flag) give None, and the host path then decides,
raising MATLAB's errors.

``reduced_block`` says how a set of dims lies in memory: MATLAB arrays are
column-major, so dims that are adjacent once the singleton dims between
them are skipped (``[2 3]`` of a B x H x W batch) form one block of ``R``
elements for each output, at stride ``A``. Such a vecdim is one reduction
of the array seen as ``A x R x C`` (no copy); other vecdims move their
dims next to each other first (the provider's permute), then reduce once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from matfuse.runtime.values import DeviceValue, is_char, to_str

REDUCE_OPS = frozenset({"sum", "prod", "mean", "max", "min", "any", "all"})
OUTTYPES = ("default", "double", "native")
NANFLAGS = ("omitnan", "includenan")
# Ops whose outtype word is MATLAB's (``max``/``min`` keep the class).
_WITH_OUTTYPE = ("sum", "prod", "mean")


@dataclass(frozen=True, slots=True)
class ReductionForm:
    """One reduction call.

    Attributes:
        op: ``sum mean prod max min any all``.
        dims: sorted 0-based dims (possibly past ``ndims(x)``), or None for
            ``'all'``; the default dim is filled in.
        omitnan: NaN values are skipped (``max``/``min`` by default).
        outtype: ``default``, ``double`` or ``native``.
    """

    op: str
    dims: tuple[int, ...] | None
    omitnan: bool
    outtype: str


def read_form(op: str, args: list[Any]) -> ReductionForm | None:
    """The form of ``op(args...)`` (``args[0]`` is the data), or None."""
    if op not in REDUCE_OPS or not args:
        return None
    shape = tuple(args[0].shape) if hasattr(args[0], "shape") else (1, 1)
    rest = list(args[1:])
    if op in ("max", "min") and rest:
        # max(x, [], ...): the [] comes before a dim or a flag
        if not _is_empty_host(rest[0]):
            return None
        rest = rest[1:]
    omitnan = op in ("max", "min")  # MATLAB's max/min skip NaN by default
    outtype = "default"
    seen: set[str] = set()
    while rest and is_char(rest[-1]):
        word = to_str(rest[-1]).lower()
        if word in NANFLAGS and op not in ("any", "all") and "nan" not in seen:
            omitnan = word == "omitnan"
            seen.add("nan")
        elif word in OUTTYPES and op in _WITH_OUTTYPE and "out" not in seen:
            outtype = word
            seen.add("out")
        elif word in NANFLAGS or word in OUTTYPES:
            return None
        else:
            break
        rest.pop()
    if len(rest) > 1:
        return None
    if rest:
        dims = dims_argument(rest[0])
        if dims == "bad":
            return None
    elif op in ("any", "all") and len(shape) == 2 and 1 in shape:
        dims = (0 if shape[0] != 1 else 1,)
    else:
        dims = (first_nonsingleton(shape),)
    return ReductionForm(op, dims, omitnan, outtype)


def dims_argument(v: Any) -> tuple[int, ...] | None | str:
    """Sorted 0-based dims of a ``dim`` or ``vecdim`` argument, None for
    ``'all'``, ``"bad"`` for anything else (device dims included)."""
    if isinstance(v, DeviceValue):
        return "bad"
    if is_char(v):
        return None if to_str(v).lower() == "all" else "bad"
    if type(v) is float:
        values = [v]
    elif type(v) is np.ndarray and v.dtype.kind in "fiu" and v.size >= 1 and \
            v.ndim == 2 and 1 in v.shape:
        values = [float(d) for d in v.reshape(-1)]
    else:
        return "bad"
    if any(d < 1 or d != int(d) for d in values) or len(set(values)) != len(values):
        return "bad"
    return tuple(sorted(int(d) - 1 for d in values))


def reduced_block(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """``dims`` (None: all) as one contiguous run of dims of ``shape``, or
    None when they are not one block.

    Singleton dims never matter to the layout: they are dropped from
    ``dims`` and may be spanned (``[1 3]`` of an N x 1 x M array is the
    run 0..2). Dims past ``ndims`` are singletons. An empty result (every
    reduced dim a singleton) is returned as ``()``.
    """
    if dims is None:
        return None
    real = [d for d in dims if d < len(shape) and shape[d] != 1]
    if not real:
        return ()
    lo, hi = real[0], real[-1]
    if all(d in real or shape[d] == 1 for d in range(lo, hi + 1)):
        return tuple(range(lo, hi + 1))
    return None


def matlab_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` without trailing singleton dimensions past the second."""
    shape = tuple(shape) + (1,) * (2 - len(shape))
    while len(shape) > 2 and shape[-1] == 1:
        shape = shape[:-1]
    return shape


def first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def _is_empty_host(v: Any) -> bool:
    return type(v) is np.ndarray and v.size == 0
