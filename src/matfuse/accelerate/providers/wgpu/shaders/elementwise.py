"""The provider's own elementwise shader skeleton, and the prelude and
stores its other kernels (reductions, scans) share.

Elementwise work runs as one-node kernels of the fusion IR
(``hooks_compute._one_node``: the op table through the fused-kernel
emitter), integer classes and casts included. This skeleton stays for real
single/double/logical work that IR does not express: op table functions
outside the IR's op set (the special functions, the inverse hyperbolic
functions), ``imag`` of real data, the f64 self-test's expression
(``device.run_f64_selftest``, which checks the adapter's double arithmetic
before any generated kernel relies on it), and their split runs over
tensors larger than one storage binding (``hooks_large.elementwise_ranges``).
It computes the op table's expressions, so its semantics are the table's.
Values are computed in a compute type T (f32 for single, f64 otherwise) and
converted on store (``store_expr``). Broadcast operands are addressed
through per-dim strides in the uniform (stride 0 on expanded dims) after
merging adjacent dims (``collapse_broadcast``), so the index loop is short.
"""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate_api.device_code import op_table
from matfuse.accelerate_api.device_code.broadcast import MAX_RANK, broadcast_shape, collapse_broadcast
from matfuse.accelerate_api.device_code.wgsl_library import library
from matfuse.accelerate_api.device_code.wgsl_special_values import MAX_FINITE, SPECIAL_OPS
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct

__all__ = ["MAX_RANK", "PREDICATES", "STORED_DTYPES", "broadcast_shape", "collapse_broadcast"]

#: predicates computed in the operand's own precision
PREDICATES = {"isnan", "isinf", "isfinite", "not"}
#: operand and result dtypes of the skeleton (integer work is the IR's)
STORED_DTYPES = ("float32", "float64", "bool")
#: integer classes a reduction or scan stores (rounded and saturated)
_INTEGER_STORAGE = {"int8": "i32", "uint8": "u32", "int16": "i32", "uint16": "u32",
                    "int32": "i32", "uint32": "u32"}

#: the eager expressions run in ``fn op(a: T, b: T) -> T``; non-finite
#: values come from bit patterns (``mfx_inf``/``mfx_nan``)
_INF, _NAN = "mfx_inf()", "mfx_nan()"


def _all_helpers(t: str) -> set[str]:
    """Every table helper of compute type ``t`` (one eager source serves any op)."""
    names = {f"mf_{op}_{t}" for op in SPECIAL_OPS} | {f"mf_isnan_{t}"}
    for entry in op_table.OPS.values():
        names.update(entry.helper_names("wgsl", t))
    return names


def _helpers(t: str, math: bool = False) -> str:
    """The alias ``T = t`` and the ``mfx_*`` names the provider's kernels
    call (reductions, scans, elementwise), each forwarding to the shared
    library's definition (``wgsl_library``); ``math``: every op table
    helper (transcendentals, power, atan2), which the elementwise kernels
    need. f32 sources always get them (no f64 math is pulled in)."""
    names = {f"mf_{op}_{t}" for op in SPECIAL_OPS} | {f"mf_isnan_{t}", f"mf_max_{t}", f"mf_min_{t}"}
    if math or t == "f32":
        names |= _all_helpers(t)
    forwards = "".join(
        f"fn mfx_{op}(a: T, b: T) -> T {{ return mf_{op}_{t}(a, b); }}\n"
        for op in ("rem", "mod", "hypot", "max", "min"))
    forwards += "".join(f"fn mfx_{op}(a: T) -> T {{ return mf_{op}_{t}(a); }}\n"
                        for op in ("fix", "round", "sign"))
    return f"""
alias T = {t};
const MFX_MAXF: T = {t}({MAX_FINITE[t]});
fn mfx_isnan(x: T) -> bool {{ return mf_isnan_{t}(x); }}
// from bit patterns: 0/0 is folded to 1 by some drivers' fast-math rules
fn mfx_nan() -> T {{ return T(bitcast<f32>(0x7fc00000u)); }}
fn mfx_inf() -> T {{ return T(bitcast<f32>(0x7f800000u)); }}
""" + library(names) + forwards


def broadcast_offsets(operands: list[int]) -> str:
    """WGSL computing ``o<k>``, the element of buffer operand k read for
    output element ``i`` under implicit expansion (strides ``p.st<k>``,
    collapsed dims ``p.dims``, ``p.rank`` of them)."""
    init = " ".join(f"var o{k} = 0u;" for k in operands)
    acc = " ".join(f"o{k} = o{k} + c * p.st{k}[d >> 2u][d & 3u];" for k in operands)
    return (f"var rem = i; {init}\n"
            f"    for (var d = 0u; d < p.rank; d = d + 1u) {{\n"
            f"      let nd = p.dims[d >> 2u][d & 3u]; let c = rem % nd; rem = rem / nd;\n"
            f"      {acc}\n    }}\n    ")


def _table_expr(op: str, t: str, args: list[str]) -> str:
    entry = op_table.lookup(op)
    if entry is None or entry.arity != len(args):
        raise Unsupported(f"wgpu: elementwise op {op}")
    if op == "not":
        return f"select(T(0), T(1), !{op_table.truth('a', 'wgsl', t)})"
    if entry.truth_args:
        args = [op_table.truth(x, "wgsl", t) for x in args]
    expr = op_table.expression(entry, "wgsl", t, args, t, _INF, _NAN)
    return f"select(T(0), T(1), {expr})" if entry.logical else expr


def unary_expr(op: str, t: str) -> str:
    """WGSL expression of ``a`` for unary ``op`` in compute type ``t`` (the op table's)."""
    if op == "imag":
        return "T(0.0)"   # of a real value, even NaN or Inf
    return _table_expr(op, t, ["a"])


def binary_expr(op: str, t: str) -> str:
    """WGSL expression of ``a``, ``b`` for binary ``op`` in compute type ``t``."""
    return _table_expr(op, t, ["a", "b"])


def store_expr(r: str, t: str, out_dtype: str) -> str:
    """Convert compute value ``r`` to the storage type of ``out_dtype``:
    integers round half away from zero, saturate, and take 0 for NaN."""
    if out_dtype == "bool":
        return f"select(0u, 1u, !({r} == T(0)))"
    if out_dtype == "float32":
        return f"f32({r})"
    if out_dtype == "float64":
        return f"f64({r})"
    if out_dtype in _INTEGER_STORAGE:
        # reductions and scans of integer data; the helpers it calls are in
        # every source with the prelude (``_helpers``)
        value, _ = op_table.to_integer(r, out_dtype, "wgsl", t, "T")
        return f"{_INTEGER_STORAGE[out_dtype]}({value})"
    raise Unsupported(f"wgpu: store to {out_dtype}")


def compute_type(out_dtype: str, in_dtypes: list[str]) -> str:
    """f32 for single work (and logical results of single or logical data), f64 otherwise."""
    if out_dtype == "float32":
        return "f32"
    if out_dtype == "bool" and all(d in ("float32", "bool") for d in in_dtypes):
        return "f32"
    return "f64"


@dataclass
class ElementwiseSpec:
    """What the renderer needs; operands are buffers or uniform scalars."""

    expr: str                       # in terms of a (and b)
    operand_dtypes: list[str | None]  # None: scalar from the uniform
    out_dtype: str
    t: str
    broadcast: bool
    vec4: bool = False


def render(spec: ElementwiseSpec, uniform: UniformStruct) -> str:
    """WGSL for one elementwise kernel (grid-stride, 256 threads)."""
    decls, binding = [], 0
    for k, dt in enumerate(spec.operand_dtypes):
        if dt is None:
            continue
        st = STORAGE_TYPE[dt]
        if spec.vec4:
            st = f"vec4<{st}>"
        decls.append(f"@group(0) @binding({binding}) var<storage, read> in{k}: array<{st}>;")
        binding += 1
    ot = STORAGE_TYPE[spec.out_dtype]
    decls.append(f"@group(0) @binding({binding}) var<storage, read_write> out0: "
                 f"array<{'vec4<' + ot + '>' if spec.vec4 else ot}>;")
    decls.append(f"@group(0) @binding({binding + 1}) var<uniform> p: Params;")
    prelude = _helpers(spec.t, True) + uniform.wgsl()
    body_fn = f"fn op(a: T, b: T) -> T {{ return {spec.expr}; }}\n"
    if spec.vec4:
        loads = []
        for k, dt in enumerate(spec.operand_dtypes):
            loads.append(f"let v{k} = in{k}[i];" if dt is not None else "")
        comps = []
        for c in "xyzw":
            args = [f"T(v{k}.{c})" if dt is not None else f"p.s{k}"
                    for k, dt in enumerate(spec.operand_dtypes)]
            args += ["T(0)"] * (2 - len(args))
            r = f"op({', '.join(args)})"
            comps.append(store_expr(r, spec.t, spec.out_dtype))
        body = "\n    ".join(loads) + f"\n    out0[i] = vec4<{ot}>({', '.join(comps)});"
        n_expr = "p.n / 4u"
    else:
        index_code = ""
        if spec.broadcast:
            index_code = broadcast_offsets([k for k, dt in enumerate(spec.operand_dtypes)
                                            if dt is not None])
        args = []
        for k, dt in enumerate(spec.operand_dtypes):
            if dt is None:
                args.append(f"p.s{k}")
            else:
                args.append(f"T(in{k}[{'o' + str(k) if spec.broadcast else 'i'}])")
        args += ["T(0)"] * (2 - len(args))
        r = f"op({', '.join(args)})"
        body = index_code + f"out0[i] = {store_expr(r, spec.t, spec.out_dtype)};"
        n_expr = "p.n"
    init_f64 = "mf_init(nwg.x);" if spec.t == "f64" else ""
    return (prelude + "\n".join(decls) + "\n" + body_fn + f"""
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  {init_f64}
  let stride = nwg.x * 256u;
  let n = {n_expr};
  for (var i = gid.x; i < n; i = i + stride) {{
    {body}
  }}
}}
""")
