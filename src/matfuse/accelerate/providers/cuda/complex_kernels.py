"""Complex elementwise kernels of the CUDA provider.

A grid-stride skeleton around one expression of the device code's complex
table (``complex_table``, helpers from ``cuda_complex``: the formulas the
wgpu provider's complex kernels use). Complex buffers are CuPy's
interleaved ``complex128``/``complex64`` (``double2``/``float2``); real
operands (any real class) are promoted to ``(x, 0)`` on load and Python
scalars are two arguments (re, im). Implicit expansion indexes each buffer
through per-operand strides over merged dimensions (``broadcast``), passed
as arguments: one compiled kernel per (op, classes, rank).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Sequence

import numpy as np

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate_api.device_code import complex_table
from matfuse.accelerate_api.device_code.broadcast import broadcast_shape, collapse_broadcast
from matfuse.accelerate_api.device_code.cuda_complex import complex_library
from matfuse.accelerate_api.device_code.cuda_library import library

COMPLEX_DTYPES = ("complex64", "complex128")
ENTRY_POINT = "mf_complex"
BLOCK = 256
#: kernels index with 32-bit unsigned ints
MAX_ELEMENTS = 2**31
_STORAGE = {"complex128": "double2", "complex64": "float2", "float64": "double", "float32": "float",
            "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
            "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int"}
_RESULT_DTYPES = {"c": COMPLEX_DTYPES, "r": ("float32", "float64"), "b": ("bool",)}


def is_complex_call(op: str, operands: Sequence[Any], out_dtype: str) -> bool:
    """Whether an elementwise hook call works on complex values: a complex
    operand or result, ``complex(re, im)``, or ``angle`` (of a real value
    too: ``atan2(0, x)``)."""
    if op in ("complex", "angle") or str(out_dtype).startswith("complex"):
        return True
    for o in operands:
        if isinstance(o, complex):
            return True
        if isinstance(o, GpuTensorHandle) and o.dtype in COMPLEX_DTYPES:
            return True
    return False


def compute_type(out_dtype: str, dtypes: Sequence[str | None]) -> str:
    """Single work for single results, and for comparisons of single
    operands only; double otherwise (the wgpu provider's rule)."""
    if out_dtype in ("complex64", "float32"):
        return "f32"
    if out_dtype == "bool" and all(d in ("complex64", "float32", "bool") for d in dtypes if d is not None):
        return "f32"
    return "f64"


@functools.lru_cache(maxsize=256)
def render(op: complex_table.ComplexOp, dtypes: tuple[str | None, ...], out_dtype: str, t: str,
           rank: int) -> str:
    """CUDA C of one complex kernel (memoised): operand ``k`` a buffer of
    ``dtypes[k]`` or (None) a scalar; ``rank`` merged dimensions of implicit
    expansion (0: every buffer has the result's element count)."""
    real, cx = ("double", "double2") if t == "f64" else ("float", "float2")
    inf = "__longlong_as_double(0x7ff0000000000000LL)" if t == "f64" else "__int_as_float(0x7f800000)"
    nan = "__longlong_as_double(0x7ff8000000000000LL)" if t == "f64" else "__int_as_float(0x7fc00000)"
    expr, helpers = complex_table.expression(op, "cuda", t, real, inf, nan)
    params, loads = [], []
    buffers = [k for k, d in enumerate(dtypes) if d is not None]
    for k, dtype in enumerate(dtypes):
        name = "ab"[k]
        if dtype is None:
            params += [f"const {real} s{k}r", f"const {real} s{k}i"]
            loads.append(f"const {cx} {name} = cx_make(s{k}r, s{k}i);")
            continue
        params.append(f"const {_STORAGE[dtype]}* __restrict__ in{k}")
        at = f"in{k}[o{k}]" if rank else f"in{k}[i]"
        if dtype in COMPLEX_DTYPES:
            loads.append(f"const {cx} {name} = cx_make(({real}){at}.x, ({real}){at}.y);")
        else:
            loads.append(f"const {cx} {name} = cx_make(({real}){at}, ({real})0);")
    if len(dtypes) == 1:
        loads.append(f"const {cx} b = cx_make(({real})0, ({real})0);")
    params += [f"{_STORAGE[out_dtype]}* __restrict__ out0", "const unsigned int n"]
    index = []
    if rank:
        params += [f"const unsigned int d{j}" for j in range(rank)]
        params += [f"const unsigned int st{k}_{j}" for k in buffers for j in range(rank)]
        index.append("unsigned int rest = i;")
        index.append(" ".join(f"unsigned int o{k} = 0u;" for k in buffers))
        for j in range(rank):
            steps = " ".join(f"o{k} += c * st{k}_{j};" for k in buffers)
            index.append(f"{{ const unsigned int c = rest % d{j}; rest /= d{j}; {steps} }}")
    result = {"c": cx, "r": real, "b": "bool"}[op.kind]
    store = "out0[i].x = r.x; out0[i].y = r.y;" if op.kind == "c" else "out0[i] = r;"
    body = "\n    ".join(index + loads + [f"const {result} r = {expr};", store])
    signature = ",\n    ".join(params)
    return ("// matfuse complex elementwise kernel (CUDA C, generated)\n"
            + library(set(helpers)) + complex_library(t)
            + f"\nextern \"C\" __global__ void __launch_bounds__({BLOCK}) {ENTRY_POINT}(\n    {signature}) {{\n"
            + "  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
            + "i += blockDim.x * gridDim.x) {\n    " + body + "\n  }\n}\n")


def elementwise(p: Any, op: str, operands: Sequence[Any], out_dtype: str) -> tuple[Any, tuple[int, ...]]:
    """Run complex ``op`` on ``operands`` (handles or Python scalars) on
    provider ``p``; returns (flat column-major result, MATLAB shape).

    Raises:
        Unsupported: an op outside the complex table, a result class it
            does not give, ``complex()`` of complex parts, no device operand,
            or more elements than 32-bit indices reach (the host computes).
    """
    entry = complex_table.lookup(op, len(operands))
    if entry is None:
        raise Unsupported(f"cuda: complex {op} runs on the host")
    if out_dtype not in _RESULT_DTYPES[entry.kind]:
        raise Unsupported(f"cuda: complex {op} into {out_dtype}")
    handles = [o for o in operands if isinstance(o, GpuTensorHandle)]
    if not handles:
        raise Unsupported("cuda: elementwise op without a device operand")
    dtypes = tuple(o.dtype if isinstance(o, GpuTensorHandle) else None for o in operands)
    if any(d is not None and d not in _STORAGE for d in dtypes):
        raise Unsupported(f"cuda: complex {op} of {dtypes}")
    if op == "complex" and any(d in COMPLEX_DTYPES for d in dtypes):
        raise Unsupported("cuda: complex() of complex parts")
    out_shape = broadcast_shape([tuple(h.shape) for h in handles])
    n = math.prod(out_shape)
    if n >= MAX_ELEMENTS:
        raise Unsupported("cuda: complex elementwise of 2**31 elements or more")
    cp = p.cp
    out = cp.empty(n, dtype=out_dtype)
    if n == 0:
        return out, out_shape
    dims: list[int] = []
    strides: list[list[int]] = []
    if any(math.prod(h.shape) != n for h in handles):
        dims, strides = collapse_broadcast(out_shape, [tuple(h.shape) for h in handles])
    t = compute_type(out_dtype, dtypes)
    source = render(entry, dtypes, out_dtype, t, len(dims))
    fn = p.cache.function(source, ENTRY_POINT)
    real = np.float64 if t == "f64" else np.float32
    args: list[Any] = []
    for o in operands:
        if isinstance(o, GpuTensorHandle):
            args.append(p._flat(o))
        else:
            value = complex(o)
            args += [real(value.real), real(value.imag)]
    args += [out, np.uint32(n), *(np.uint32(d) for d in dims)]
    args += [np.uint32(s) for per_operand in strides for s in per_operand]
    grid = max(1, min(-(-n // BLOCK), p.max_blocks))
    fn((grid,), (BLOCK,), tuple(args))
    return out, out_shape
