"""Complex elementwise kernels on interleaved (re, im) storage.

A complex tensor is ``array<vec2<T>>`` (T = f32 for single, f64 for double);
real operands are promoted to ``(x, 0)`` on load and complex scalars come
from the uniform as two fields. Arithmetic follows NumPy's complex ops
(the oracle and the host fallback): products are the textbook formula and
quotients Smith's algorithm with NumPy's divide-by-zero case. f64 uses only
+ - * / sqrt and our own ``mf_atan2`` (the drivers' f64 builtins are wrong,
GPU-FACTS.md). Broadcasting uses the elementwise module's collapsed
dims/strides, so implicit expansion costs the same as for real data.
"""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate.providers.wgpu.shaders.elementwise import ATAN2_F32, MAX_RANK, broadcast_offsets
from matfuse.accelerate_api.device_code.wgsl_f32math import F32_MATH
from matfuse.accelerate_api.device_code.wgsl_f64math import F64_MATH

#: op -> (WGSL expression in a, b of type C, result kind: c complex, r real, b bool)
BINARY = {
    "plus": ("a + b", "c"), "minus": ("a - b", "c"), "times": ("cx_mul(a, b)", "c"),
    "rdivide": ("cx_div(a, b)", "c"), "ldivide": ("cx_div(b, a)", "c"),
    "eq": ("all(a == b)", "b"), "ne": ("!all(a == b)", "b"),
    # complex(re, im) of two real operands
    "complex": ("C(a.x, b.x)", "c"),
}
UNARY = {
    "identity": ("a", "c"), "uplus": ("a", "c"), "uminus": ("-a", "c"),
    "conj": ("C(a.x, -a.y)", "c"), "real": ("a.x", "r"), "imag": ("a.y", "r"),
    "abs": ("cx_abs(a)", "r"), "angle": ("cx_angle(a)", "r"),
    "exp": ("cx_exp(a)", "c"), "log": ("cx_log(a)", "c"), "sqrt": ("cx_sqrt(a)", "c"),
    "isnan": ("cx_isnan(a.x) || cx_isnan(a.y)", "b"),
    "isinf": ("cx_isinf(a.x) || cx_isinf(a.y)", "b"),
    "isfinite": ("!(cx_isinf(a.x) || cx_isinf(a.y) || cx_isnan(a.x) || cx_isnan(a.y))", "b"),
}
COMPLEX_DTYPES = ("complex64", "complex128")


def _helpers(t: str) -> str:
    one = "1.0lf" if t == "f64" else "1.0f"
    zero = "0.0lf" if t == "f64" else "0.0f"
    maxf = "1.7976931348623157e308lf" if t == "f64" else "3.4028234663852886e38f"
    atan2 = "mf_atan2(a.y, a.x)" if t == "f64" else "mfx_atan2_32(a.y, a.x)"
    # the drivers' f64 builtins are wrong: matfuse's own f64 library
    exp, log, cos, sin = ("mf_exp", "mf_log", "mf_cos", "mf_sin") if t == "f64" else \
        ("exp", "log", "mf32_cos", "mf32_sin")
    # a quarter of the largest finite value, a product of representable literals
    big = "(T(1.0e150) * T(1.0e150))" if t == "f64" else "(T(1.0e18) * T(1.0e18))"
    return f"""
alias T = {t};
alias C = vec2<{t}>;
fn cx_isnan(x: T) -> bool {{ return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }}
fn cx_isinf(x: T) -> bool {{ return abs(x) > {maxf}; }}
fn cx_mul(a: C, b: C) -> C {{ return C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
fn cx_div(a: C, b: C) -> C {{
  let br = abs(b.x);
  let bi = abs(b.y);
  if (br >= bi) {{
    if (br == {zero} && bi == {zero}) {{ return C(a.x / br, a.y / br); }}
    let rat = b.y / b.x;
    let scl = {one} / (b.x + b.y * rat);
    return C((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl);
  }}
  let rat = b.x / b.y;
  let scl = {one} / (b.y + b.x * rat);
  return C((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl);
}}
// hypot without overflow; an infinite part wins over NaN (C99, NumPy)
fn cx_abs(a: C) -> T {{
  let x = abs(a.x);
  let y = abs(a.y);
  if (cx_isinf(x) || cx_isinf(y)) {{ return T(bitcast<f32>(0x7f800000u)); }}
  if (cx_isnan(x) || cx_isnan(y)) {{ return x + y; }}
  let m = max(x, y);
  if (m == {zero}) {{ return m; }}
  let r = min(x, y) / m;
  return m * sqrt({one} + r * r);
}}
fn cx_angle(a: C) -> T {{ return {atan2}; }}
// exp, log and the principal sqrt as C99 (NumPy): exp(x + 0i) keeps a zero
// imaginary part, sqrt's imaginary part takes the sign of y (-0 included)
fn cx_exp(a: C) -> C {{
  let m = {exp}(a.x);
  if (a.y == {zero}) {{ return C(m, a.y); }}
  return C(m * {cos}(a.y), m * {sin}(a.y));
}}
fn cx_log(a: C) -> C {{ return C({log}(cx_abs(a)), cx_angle(a)); }}
fn cx_sqrt(a: C) -> C {{
  if (a.x == {zero} && a.y == {zero}) {{ return C({zero}, a.y); }}
  if (cx_isinf(a.y)) {{ return C(abs(a.y), a.y); }}
  if (cx_isnan(a.x) || cx_isnan(a.y)) {{ return C(a.x + a.y, a.x + a.y); }}
  // near the largest values (|x| + |z|) / 2 overflows: there the root of
  // z / 16 (exact scaling) times 4
  let big = abs(a.x) > {big} || abs(a.y) > {big};
  let s = select(a, a * T(0.0625), big);
  let t = sqrt((abs(s.x) + cx_abs(s)) * T(0.5));
  let negative = s.y < {zero} || (s.y == {zero} && {one} / s.y < {zero});
  let r = select(C(abs(s.y) / (T(2) * t), select(t, -t, negative)), C(t, s.y / (T(2) * t)),
                 s.x >= {zero});
  return select(r, r * T(4), big);
}}
""" + (F32_MATH + ATAN2_F32 if t == "f32" else "")




@dataclass
class ComplexSpec:
    """One complex elementwise kernel: operands are buffers (their dtype) or
    uniform scalars (None); ``expr`` and ``kind`` from BINARY/UNARY."""

    expr: str
    kind: str
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
    prelude = (F64_MATH if spec.t == "f64" else "") + _helpers(spec.t) + u.wgsl()
    init_f64 = "mf_init(nwg.x);" if spec.t == "f64" else ""
    return (prelude + "\n".join(decls) + "\n"
            + f"fn op(a: C, b: C) -> {result_type} {{ return {spec.expr}; }}\n" + f"""
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  {init_f64}
  let stride = nwg.x * 256u;
  for (var i = gid.x; i < p.n; i = i + stride) {{
    {index_code}let r = op({", ".join(args)});
    out0[i] = {store};
  }}
}}
""")
