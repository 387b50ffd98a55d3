"""gpuArray builtins: gpuArray, gather, isgpuarray, existsOnGPU,
classUnderlying/underlyingType/isUnderlyingType, canUseGPU, gputimeit,
pagefun. (gpuDevice, reset, wait live in gpu_device.py.)

These builtins receive gpuArrays untouched (``GpuSpec(kind="device_native")``
tells the dispatcher not to gather their arguments).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import CLASS_NAMES, is_text, text_arg
from matfuse.runtime.device_router import device_router
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CellArray,
    DeviceValue,
    FunctionHandle,
    INTEGER_CLASSES,
    char_array,
    class_of,
    element_class,
)

NATIVE = GpuSpec(kind="device_native", returns_gpu=False)
NATIVE_GPU = GpuSpec(kind="device_native", returns_gpu=True)


def _provider() -> Any:
    return device_router().provider()


def _undefined_for(fn: str, v: Any) -> MatlabError:
    return MatlabError("MATLAB:UndefinedFunction",
                       f"Undefined function '{fn}' for input arguments of type '{class_of(v)}'.")


@builtin("gpuArray", category="gpu", nargin=(1, 2), gpu=NATIVE_GPU)
def gpu_array(x: Any, cls: Any = None) -> Any:
    """Copy an array to the GPU: ``G = gpuArray(X)`` keeps X's class;
    ``gpuArray(X, 'single')`` also converts it."""
    from matfuse.runtime.registry import lookup

    router = device_router()
    g = router.upload(x, lazy_scalar=True)
    if cls is None:
        return g
    name = text_arg(cls, "gpuArray", "class name")
    if name not in CLASS_NAMES:
        raise MatlabError("parallel:gpu:array:InvalidClass",
                          f"Unsupported class '{name}' for gpuArray.")
    conversion = lookup(name)
    if conversion is None or name == g.underlying_class():
        return g
    return router.call_builtin(conversion, [g], 1, None)[0]


@builtin("gather", category="gpu", nargin=(1, None), nargout=(0, None),
         wants_nargout=True, gpu=NATIVE)
def gather(*args: Any, nargout: int = 1) -> Any:
    """Copy gpuArrays to host memory; other values pass through unchanged.
    ``[a, b] = gather(A, B)`` gathers several at once."""
    if nargout > len(args):
        raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
    out = tuple(a.gather() if isinstance(a, DeviceValue) else a for a in args)
    return out[0] if len(out) == 1 else out


@builtin("isgpuarray", category="gpu", nargin=(1, 1), gpu=NATIVE)
def isgpuarray(x: Any) -> bool:
    """True for a gpuArray (values the planner offloaded on its own are not)."""
    return isinstance(x, DeviceValue) and x.user_visible


@builtin("existsOnGPU", category="gpu", nargin=(1, 1), gpu=NATIVE)
def exists_on_gpu(x: Any) -> bool:
    """True while a gpuArray's data is on the device (false after reset)."""
    if not isinstance(x, DeviceValue) or not x.user_visible:
        raise _undefined_for("existsOnGPU", x)
    return bool(getattr(x, "is_valid", True))


@builtin("classUnderlying", category="gpu", nargin=(1, 1), gpu=NATIVE)
def class_underlying(x: Any) -> Any:
    """Class of the elements of a gpuArray (``class`` of a host value)."""
    return char_array(element_class(x))


@builtin("underlyingType", category="gpu", nargin=(1, 1), gpu=NATIVE)
def underlying_type(x: Any) -> Any:
    """Type of the data inside a container such as gpuArray."""
    return char_array(element_class(x))


_TYPE_GROUPS = {
    "numeric": frozenset(("double", "single") + INTEGER_CLASSES),
    "float": frozenset(("double", "single")),
    "integer": frozenset(INTEGER_CLASSES),
}


@builtin("isUnderlyingType", category="gpu", nargin=(2, 2), gpu=NATIVE)
def is_underlying_type(x: Any, type_name: Any) -> bool:
    """``isUnderlyingType(X, 'double')``; also ``'numeric'``, ``'float'``, ``'integer'``."""
    name = text_arg(type_name, "isUnderlyingType", "type name")
    cls = element_class(x)
    group = _TYPE_GROUPS.get(name)
    return cls in group if group is not None else cls == name


@builtin("canUseGPU", category="gpu", nargin=(0, 0))
def can_use_gpu() -> bool:
    """True: an acceleration provider (at least the in-process one) is available."""
    return _provider() is not None


@builtin("gputimeit", category="gpu", nargin=(1, 2), needs_ctx=True, gpu=NATIVE)
def gputimeit(ctx: Any, fn: Any, num_outputs: Any = None) -> float:
    """Median run time (seconds) of ``fn()``, waiting for the device each run."""
    if not isinstance(fn, FunctionHandle):
        raise MatlabError("parallel:gpu:gputimeit:InvalidInput",
                          "The first argument must be a function handle.")
    nout = 0 if num_outputs is None else int(_host_scalar(num_outputs))
    p = _provider()

    def run_once() -> float:
        start = time.perf_counter()
        ctx.call(fn, [], nout)
        p.synchronize()
        return time.perf_counter() - start

    run_once()  # warm-up: pipeline compilation and caches are not measured
    times = [run_once()]
    while len(times) < 11 and sum(times) < 0.25:
        times.append(run_once())
    return float(np.median(times))


def _host_scalar(v: Any) -> float:
    if isinstance(v, DeviceValue):
        v = v.gather()
    return float(np.asarray(v).reshape(-1)[0])


# ------------------------------------------------------------------ pagefun
_PAGE_NUMPY = {
    "mtimes": lambda a, b: np.matmul(a, b),
    "transpose": lambda a: np.swapaxes(a, -1, -2),
    "ctranspose": lambda a: np.conj(np.swapaxes(a, -1, -2)),
    "plus": np.add, "minus": np.subtract, "times": np.multiply,
    "rdivide": np.divide, "inv": np.linalg.inv, "mldivide": np.linalg.solve,
}


def _batch(arr: np.ndarray) -> np.ndarray:
    """MATLAB (m, n, p1, p2...) -> NumPy (p..., m, n) batch layout."""
    arr = arr if arr.ndim >= 2 else arr.reshape(1, -1)
    return np.moveaxis(arr, (0, 1), (-2, -1))


def _unbatch(arr: np.ndarray) -> np.ndarray:
    return np.moveaxis(arr, (-2, -1), (0, 1))


@builtin("pagefun", category="gpu", nargin=(2, None), needs_ctx=True, gpu=NATIVE_GPU)
def pagefun(ctx: Any, fn: Any, *arrays: Any) -> Any:
    """Apply ``fn`` to each page (the 2-D slices along dims 3..N) of the
    arrays, with implicit expansion of singleton page dimensions.
    (Host computation: counted as a device fallback.)"""
    from matfuse.accelerate_api import count_fallback
    from matfuse.runtime.values import canonical, to_array

    if not isinstance(fn, FunctionHandle):
        raise MatlabError("parallel:gpu:pagefun:InvalidFunction",
                          "The first argument to PAGEFUN must be a function handle.")
    if any(isinstance(a, DeviceValue) for a in arrays):
        count_fallback("pagefun")
    hosts = [to_array(a.gather() if isinstance(a, DeviceValue) else a) for a in arrays]
    numpy_fn = _PAGE_NUMPY.get(fn.name or "")
    if numpy_fn is not None:
        try:
            with np.errstate(all="ignore"):
                result = _unbatch(numpy_fn(*[_batch(h) for h in hosts]))
        except (ValueError, np.linalg.LinAlgError) as err:
            raise MatlabError("parallel:gpu:pagefun:SizeMismatch",
                              f"PAGEFUN failed: {err}.") from None
    else:
        result = _generic_pages(ctx, fn, hosts)
    if not any(isinstance(a, DeviceValue) for a in arrays):
        return canonical(result)  # pagefun on host arrays computes on the host
    return device_router().reupload(canonical(result))


def _generic_pages(ctx: Any, fn: FunctionHandle, hosts: list[np.ndarray]) -> np.ndarray:
    from matfuse.runtime.values import to_array

    page_shapes = [h.shape[2:] for h in hosts]
    ndim = max(len(s) for s in page_shapes)
    padded = [s + (1,) * (ndim - len(s)) for s in page_shapes]
    try:
        pages = np.broadcast_shapes(*padded)
    except ValueError:
        raise MatlabError("parallel:gpu:pagefun:SizeMismatch",
                          "Page dimensions must agree or be 1.") from None
    outputs = []
    for page in np.ndindex(*pages) if pages else [()]:
        args = []
        for h, s in zip(hosts, padded):
            sub = tuple(0 if n == 1 else i for i, n in zip(page, s))
            args.append(h.reshape(h.shape[:2] + s, order="F")[(slice(None), slice(None)) + sub])
        outputs.append(to_array(ctx.call(fn, args, 1)[0]))
    first = outputs[0]
    out = np.empty(first.shape + tuple(pages), dtype=np.result_type(*outputs))
    for k, page in enumerate(np.ndindex(*pages) if pages else [()]):
        out[(slice(None), slice(None)) + page] = outputs[k]
    return out
