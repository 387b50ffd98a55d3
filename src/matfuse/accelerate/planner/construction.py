"""Construction builtins under auto-offload: ``zeros/ones/rand/randn/linspace``
with plain sizes create their result on the device when the planner says
its consumers will run there.

On a provider with fusion the result is a lazy generator (no buffer, no
kernel, no transfer): the fill, the linspace formula or the Philox draw is
computed inside the kernel of its first consumer, exactly as
``ones(M, 1, 'single', 'gpuArray')`` is. Without fusion the provider's fill
hook (or an upload) makes the buffer.

Random numbers: a program that seeds the host generator (any ``rng`` call)
gets the CPU's numbers exactly: the twister stream continues on the device
(``accelerate/twister_stream.py``; drawn on the host and uploaded only when
the provider has no twister kernel); otherwise, or when the host generator
is Philox (device and host then share one stream), the device stream draws
them inside the consumer kernel, as the gpuArray path does.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.registry import Builtin
from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE,
    INTEGER_CLASSES,
    class_of,
    dtype_for_class,
    hide_device_value,
)

# Builtin -> constant it fills with (None: not a constant fill).
CONSTRUCTORS: dict[str, float | None] = {"zeros": 0.0, "ones": 1.0, "rand": None,
                                         "randn": None, "randi": None, "linspace": None}
RANDOM = frozenset({"rand", "randn", "randi"})


class RandomSeeding:
    """Whether the program has called ``rng`` (then its numbers must be the
    CPU's). The offload hooks tell it about every ``rng`` call they see."""

    seeded: bool = False


SEEDING = RandomSeeding()


def note_builtin(name: str) -> None:
    """Called by the hooks for watched builtins that they do not run."""
    if name == "rng":
        SEEDING.seeded = True


def construction_request(name: str, args: list[Any],
                         min_numel: int = 0) -> tuple[int, tuple[int, ...], str]:
    """(numel, shape, class) of ``zeros(m,n,'single')``-style calls and of
    ``linspace(a, b[, n])`` with real double endpoints; numel -1 when the
    call has other arguments (``'like'``, size vectors...) or, checked
    first (the common case costs little), fewer than ``min_numel`` elements.
    The random builtins also take ``'like'`` a real host array, and
    ``randi`` its limits first and an integer class."""
    if name == "linspace":
        return _linspace_request(args, min_numel)
    cls = "double"
    dims = list(args)
    classes: tuple[str, ...] = ("double", "single")
    if name == "randi":
        if not dims or _randi_limits(dims[0]) is None:
            return -1, (), cls
        dims = dims[1:]
        classes = classes + INTEGER_CLASSES
    if name in RANDOM and len(dims) >= 2 and _is_text(dims[-2], "like"):
        proto = dims[-1]
        if type(proto) is float:
            cls = "double"
        elif type(proto) is np.ndarray and proto.dtype.kind in "fiu":
            cls = class_of(proto)
        else:
            return -1, (), cls
        dims = dims[:-2]
    elif dims and type(dims[-1]) is np.ndarray and dims[-1].dtype == CHAR_DTYPE:
        cls = "".join(dims[-1].reshape(-1).tolist())
        dims = dims[:-1]
    if cls not in classes:
        return -1, (), cls
    if not dims or any(type(d) is not float or not (0 <= d < 2 ** 31) or d != int(d) for d in dims):
        return -1, (), cls
    shape = tuple(int(d) for d in dims)
    if len(shape) == 1:
        shape = (shape[0], shape[0])
    numel = int(math.prod(shape))
    return (numel if numel >= min_numel else -1), shape, cls


def _is_text(value: Any, word: str) -> bool:
    return type(value) is np.ndarray and value.dtype == CHAR_DTYPE and \
        "".join(value.reshape(-1).tolist()).lower() == word


def _randi_limits(value: Any) -> tuple[float, float] | None:
    """randi's (lo, hi), or None when the host builtin should see (and
    reject) the argument."""
    from matfuse.runtime.builtins.random import randi_limits

    if type(value) is not float and type(value) is not np.ndarray:
        return None
    try:
        return randi_limits(value)
    except MatlabError:
        return None


def _linspace_request(args: list[Any], min_numel: int) -> tuple[int, tuple[int, ...], str]:
    count = len(args)
    n = args[2] if count == 3 else 100.0
    if count < 2 or type(n) is not float or not (max(2, min_numel) <= n < 2 ** 31) \
            or n != int(n):
        return -1, (), "double"
    a, b = args[0], args[1]
    if type(a) is not float or type(b) is not float or not (math.isfinite(a) and math.isfinite(b)):
        return -1, (), "double"
    return int(n), (1, int(n)), "double"


def create_on_device(b: Builtin, args: list[Any], shape: tuple[int, ...], cls: str,
                     p: AccelProvider, host_call: Callable[[], list[Any]]) -> list[Any]:
    """The hidden device result of construction builtin ``b``.

    Args:
        shape / cls: what ``construction_request`` returned.
        host_call: runs the CPU builtin (the fallback, and seeded random draws).
    """
    from matfuse.accelerate.fusion.executor import fusion_enabled
    from matfuse.accelerate.gpuarray import upload_value
    from matfuse.accelerate.router import fused, placement

    name = b.name
    # a lazy generator allocates nothing until it is read: check the size as
    # the host builtin would, before the first download tries to hold it
    check_allocation(shape, 4 if cls == "single" else 8)
    value: Any = None
    fuses = fusion_enabled(p)
    if name == "linspace":
        start, stop = float(args[0]), float(args[1])
        value = fused.linspace(p, start, stop, shape[1], cls) if fuses else None
    elif name == "randi":
        value = _device_randi(p, args[0], shape, cls)
    elif name in RANDOM:
        if not SEEDING.seeded or _host_stream_is_philox():
            value = placement.device_random(name, shape, cls)
        else:
            from matfuse.accelerate import twister_stream

            value = twister_stream.draw(p, name, shape, cls)
    else:
        fill = CONSTRUCTORS[name]
        value = fused.fill(p, shape, fill, cls) if fuses else None
        if value is None:
            try:
                value = placement.device_fill(shape, fill, cls, p)
            except (NotImplementedError, Unsupported):
                value = None
    if value is not None:
        return [hide_device_value(value)]
    host = host_call()
    return [hide_device_value(upload_value(v, p)) if _is_numeric_array(v) else v for v in host]


def _device_randi(p: AccelProvider, limits_arg: Any, shape: tuple[int, ...], cls: str) -> Any:
    """``randi`` drawn on the device from the host's twister stream (seeded
    or not: there is no device stream of integers), or None (the host draws
    it: the philox generator, limits outside the class, no kernel)."""
    from matfuse.accelerate import twister_stream

    limits = _randi_limits(limits_arg)
    if limits is None or _host_stream_is_philox():
        return None
    if cls in INTEGER_CLASSES:
        info = np.iinfo(dtype_for_class(cls))
        if limits[0] < info.min or limits[1] > info.max:
            return None
    return twister_stream.draw(p, "randi", shape, cls, limits)


def _host_stream_is_philox() -> bool:
    from matfuse.runtime import _rng

    return _rng.GENERATOR.type == "philox"


def _is_numeric_array(v: Any) -> bool:
    return type(v) is np.ndarray and v.dtype != CHAR_DTYPE and v.dtype.kind in "biufc" \
        and v.size > 0
