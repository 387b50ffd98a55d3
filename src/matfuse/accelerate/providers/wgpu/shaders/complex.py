"""Complex elementwise kernels on interleaved (re, im) storage.

A complex tensor is ``array<vec2<T>>`` (T = f32 for single, f64 for double);
real operands are promoted to ``(x, 0)`` on load and complex scalars come
from the uniform as two fields. The operations' expressions and helper
functions are the device code's complex table (``complex_table``,
``wgsl_complex``), shared with the CUDA provider. Broadcasting uses the
elementwise module's collapsed dims/strides, so implicit expansion costs the
same as for real data.
"""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate.providers.wgpu.shaders.elementwise import MAX_RANK, broadcast_offsets
from matfuse.accelerate_api.device_code import complex_table
from matfuse.accelerate_api.device_code.wgsl_complex import complex_library
from matfuse.accelerate_api.device_code.wgsl_library import library

COMPLEX_DTYPES = ("complex64", "complex128")


def expression(op: complex_table.ComplexOp, t: str) -> tuple[str, str]:
    """(WGSL expression of ``a``/``b``, helper source) of ``op`` on ``vec2<t>`` values."""
    expr, helpers = complex_table.expression(op, "wgsl", t, t, f"{t}(bitcast<f32>(0x7f800000u))",
                                             f"{t}(bitcast<f32>(0x7fc00000u))")
    source, deps = complex_library(t)
    return expr, library(set(deps) | set(helpers)) + source


@dataclass
class ComplexSpec:
    """One complex elementwise kernel: operands are buffers (their dtype) or
    uniform scalars (None); ``expr``, ``kind`` and ``helpers`` (source) from
    :func:`expression` of a ``complex_table`` op."""

    expr: str
    kind: str
    helpers: str
    operand_dtypes: list[str | None]
    out_dtype: str
    t: str
    broadcast: bool


def uniform(spec: ComplexSpec, n: int, dims: list[int], strides: list[list[int]],
            scalars: dict[int, complex]) -> UniformStruct:
    """Sizes, broadcast dims/strides and scalar operands as (re, im) pairs."""
    u = UniformStruct().add("n", "u32", n).add("rank", "u32", len(dims))
    u.add("pad0", "u32", 0).add("pad1", "u32", 0)
    if spec.broadcast:
        u.add_u32_array("dims", dims, MAX_RANK)
        it = iter(strides)
        for k, d in enumerate(spec.operand_dtypes):
            if d is not None:
                u.add_u32_array(f"st{k}", next(it), MAX_RANK)
    for k, value in sorted(scalars.items()):
        u.add(f"s{k}r", spec.t, float(value.real)).add(f"s{k}i", spec.t, float(value.imag))
    return u


def _load(k: int, dtype: str | None, index: str) -> str:
    if dtype is None:
        return f"C(p.s{k}r, p.s{k}i)"
    if dtype in COMPLEX_DTYPES:
        return f"C(in{k}[{index}])"
    return f"C(T(in{k}[{index}]), T(0))"


def _store(kind: str, out_dtype: str) -> str:
    if kind == "b":
        if out_dtype != "bool":
            raise Unsupported(f"wgpu: complex predicate into {out_dtype}")
        return "select(0u, 1u, r)"
    if kind == "c":
        if out_dtype not in COMPLEX_DTYPES:
            raise Unsupported(f"wgpu: complex result into {out_dtype}")
        return f"vec2<{STORAGE_TYPE[out_dtype][5:-1]}>(r)"
    if out_dtype not in ("float32", "float64"):
        raise Unsupported(f"wgpu: real part of a complex into {out_dtype}")
    return f"{STORAGE_TYPE[out_dtype]}(r)"


def render(spec: ComplexSpec, u: UniformStruct) -> str:
    """WGSL for one complex elementwise kernel (grid-stride, 256 threads)."""
    store = _store(spec.kind, spec.out_dtype)
    result_type = {"c": "C", "r": "T", "b": "bool"}[spec.kind]
    decls, binding = [], 0
    for k, dt in enumerate(spec.operand_dtypes):
        if dt is not None:
            decls.append(f"@group(0) @binding({binding}) var<storage, read> in{k}: "
                         f"array<{STORAGE_TYPE[dt]}>;")
            binding += 1
    decls.append(f"@group(0) @binding({binding}) var<storage, read_write> out0: "
                 f"array<{STORAGE_TYPE[spec.out_dtype]}>;")
    decls.append(f"@group(0) @binding({binding + 1}) var<uniform> p: Params;")
    index_code = ""
    offsets = {k: "i" for k in range(len(spec.operand_dtypes))}
    if spec.broadcast:
        live = [k for k, dt in enumerate(spec.operand_dtypes) if dt is not None]
        index_code = broadcast_offsets(live)
        offsets = {k: f"o{k}" for k in live}
    args = [_load(k, dt, offsets.get(k, "i")) for k, dt in enumerate(spec.operand_dtypes)]
    args += ["C(T(0), T(0))"] * (2 - len(args))
    prelude = f"alias T = {spec.t};\nalias C = vec2<{spec.t}>;\n" + spec.helpers + u.wgsl()
    init = "cx_init(nwg.x);"   # the complex library's run-time constants
    return (prelude + "\n".join(decls) + "\n"
            + f"fn op(a: C, b: C) -> {result_type} {{ return {spec.expr}; }}\n" + f"""
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  {init}
  let stride = nwg.x * 256u;
  for (var i = gid.x; i < p.n; i = i + stride) {{
    {index_code}let r = op({", ".join(args)});
    out0[i] = {store};
  }}
}}
""")
