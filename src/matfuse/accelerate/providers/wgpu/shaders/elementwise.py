"""Elementwise kernels: binary ops with implicit expansion, unary ops, casts.

Values are computed in a compute type T (f32 for single, f64 otherwise) and
converted on store: integers round half away from zero and saturate (NaN ->
0), logical stores ``x != 0``. Broadcast operands are addressed through
per-dim strides in the uniform (stride 0 on expanded dims) after merging
adjacent dims (``collapse_broadcast``), so the index loop is short.
"""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.providers.wgpu.shaders.special_values import eager_definitions
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate.providers.wgpu.shaders.f32math import F32_MATH
from matfuse.accelerate.providers.wgpu.shaders.f64math import F64_MATH, F64_UNARY_FUNCS
from matfuse.errors import MatlabError

MAX_RANK = 8

COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
LOGICAL_BINARY = {"and", "or", "xor"}
PREDICATES = {"isnan", "isinf", "isfinite", "not"}

_BINARY = {
    "plus": "a + b", "minus": "a - b", "times": "a * b", "rdivide": "a / b",
    "ldivide": "b / a", "power": "mfx_pow(a, b)", "atan2": "mfx_atan2(a, b)",
    "hypot": "mfx_hypot(a, b)", "max": "mfx_max(a, b)", "min": "mfx_min(a, b)",
    "mod": "mfx_mod(a, b)", "rem": "mfx_rem(a, b)",
}
_UNARY_COMMON = {
    "uminus": "-a", "abs": "abs(a)", "sign": "mfx_sign(a)", "sqrt": "sqrt(a)",
    "floor": "floor(a)", "ceil": "ceil(a)", "round": "mfx_round(a)", "fix": "mfx_fix(a)",
    "real": "a", "conj": "a", "imag": "a * T(0.0)", "identity": "a",
}
_F32_FUNCS = {
    "exp": "exp(a)", "log": "log(a)", "log2": "log2(a)", "log10": "log(a) * 0.4342944819032518f",
    "sin": "mf32_sin(a)", "cos": "mf32_cos(a)", "tan": "mf32_tan(a)", "asin": "asin(a)", "acos": "acos(a)",
    "atan": "mf32_atan(a)", "sinh": "mf32_sinh(a)", "cosh": "cosh(a)", "tanh": "mf32_tanh(a)",
    "asinh": "mf32_asinh(a)", "acosh": "acosh(a)", "atanh": "atanh(a)",
    "expm1": "mf32_expm1(a)", "log1p": "mfx_log1p(a)",
}

#: integer class -> (min, max, storage type): MATLAB rounds half away from
#: zero, saturates and maps NaN to 0; 8/16-bit classes are stored widened
INTEGER_RANGES = {
    "int8": ("-128.0", "127.0", "i32"), "uint8": ("0.0", "255.0", "u32"),
    "int16": ("-32768.0", "32767.0", "i32"), "uint16": ("0.0", "65535.0", "u32"),
    "int32": ("-2147483648.0", "2147483647.0", "i32"), "uint32": ("0.0", "4294967295.0", "u32"),
}

UNARY_OPS = set(_UNARY_COMMON) | set(_F32_FUNCS) | PREDICATES
BINARY_OPS = set(_BINARY) | set(COMPARISONS) | LOGICAL_BINARY


# lavapipe's f32 atan2 returns 0 for NaN and 3*pi/4 for (0, 0): handle the
# special cases as mf_atan2 does; finite non-zeros use mf32_atan (F32_MATH,
# which every user of this text must include)
ATAN2_F32 = """
fn mfx_atan2_32(y: f32, x: f32) -> f32 {
  if (((bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>(f32(y)) & 0x7fffffffu) > 0x7f800000u)) { return x + y; }
  let pi = 3.1415927f;
  if (y == 0.0f) {
    if (x > 0.0f || (x == 0.0f && 1.0f / x > 0.0f)) { return y; }
    if (1.0f / y > 0.0f) { return pi; }
    return -pi;
  }
  if (x == 0.0f) { if (y > 0.0f) { return 1.5707964f; } return -1.5707964f; }
  var r = 0.0f;
  if (abs(x) > 3.4028234663852886e38f && abs(y) > 3.4028234663852886e38f) {
    r = 0.7853982f;
    if (x < 0.0f) { r = 2.3561945f; }
  } else {
    r = mf32_atan(abs(y / x));
    if (x < 0.0f) { r = pi - r; }
  }
  if (y < 0.0f) { return -r; }
  return r;
}
"""


def _helpers(t: str, math: bool = False) -> str:
    """Type-generic helpers, rendered for T = f32 or f64; ``math``: the
    source also holds F64_MATH (needed by pow/atan2 in f64)."""
    z = "0.0lf" if t == "f64" else "0.0f"
    pw = ("mf_pow(a, b)" if t == "f64" else
          "mfx_pow32(a, b)")
    at2 = "mf_atan2(a, b)" if t == "f64" else "mfx_atan2_32(a, b)"
    maxf = "1.7976931348623157e308lf" if t == "f64" else "3.4028234663852886e38f"
    text = f"""
alias T = {t};
const MFX_MAXF: T = {maxf};
// NaN from the bits of the f32 value (an f64 NaN converts to an f32 NaN):
// NVIDIA's Vulkan compiler dropped `!(x == x)` in an integer store (H100).
fn mfx_isnan(x: T) -> bool {{ return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }}
// from bit patterns: 0/0 is folded to 1 by some drivers' fast-math rules
fn mfx_nan() -> T {{ return T(bitcast<f32>(0x7fc00000u)); }}
fn mfx_inf() -> T {{ return T(bitcast<f32>(0x7f800000u)); }}
fn mfx_idiv(a: T, b: T) -> T {{
  if (b == {z}) {{ if (a == {z}) {{ return {z}; }} return select(-MFX_MAXF, MFX_MAXF, a > {z}); }}
  return a / b;
}}
fn mfx_max(a: T, b: T) -> T {{ if (mfx_isnan(a)) {{ return b; }} if (mfx_isnan(b)) {{ return a; }} return max(a, b); }}
fn mfx_min(a: T, b: T) -> T {{ if (mfx_isnan(a)) {{ return b; }} if (mfx_isnan(b)) {{ return a; }} return min(a, b); }}
""" + eager_definitions(t)
    if math or t == "f32":
        text += f"""
fn mfx_pow(a: T, b: T) -> T {{ return {pw}; }}
fn mfx_atan2(a: T, b: T) -> T {{ return {at2}; }}
"""
    if t == "f32":
        text += F32_MATH + ATAN2_F32 + """
fn mfx_pow32(a: f32, b: f32) -> f32 {
  if (b == 0.0f) { return 1.0f; }
  // the driver's pow (exp2 of b * log2(a)) gives 0 for a NaN base on llvmpipe
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return mfx_nan(); }
  if (mf32_is_small_int(b)) { return mf32_ipow(a, b); }
  if (b == 2.0f) { return a * a; }
  if (a < 0.0f) {
    if (floor(b) != b) { return mfx_nan(); }
    let r = pow(-a, b);
    if (floor(b * 0.5f) * 2.0f != b) { return -r; }
    return r;
  }
  return pow(a, b);
}
fn mfx_log1p(x: f32) -> f32 {
  let u = 1.0f + x;
  if (u == 1.0f) { return x; }
  return log(u) * x / (u - 1.0f);
}
"""
    return text


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


def unary_expr(op: str, t: str) -> str:
    """WGSL expression of ``a`` for unary ``op`` in compute type ``t``."""
    if op in _UNARY_COMMON:
        return _UNARY_COMMON[op].replace("T(0.0)", "0.0lf" if t == "f64" else "0.0f")
    if op == "not":
        return "select(T(0), T(1), a == T(0))"
    if op == "isnan":
        return "select(T(0), T(1), mfx_isnan(a))"
    if op == "isinf":
        return "select(T(0), T(1), abs(a) > MFX_MAXF)"
    if op == "isfinite":
        return "select(T(0), T(1), abs(a) <= MFX_MAXF)"
    if t == "f64" and op in F64_UNARY_FUNCS:
        return f"{F64_UNARY_FUNCS[op]}(a)"
    if t == "f32" and op in _F32_FUNCS:
        return _F32_FUNCS[op]
    raise Unsupported(f"wgpu: elementwise op {op} on {t}")


def binary_expr(op: str) -> str:
    if op in _BINARY:
        return _BINARY[op]
    if op in COMPARISONS:
        if op == "ne":
            return "select(T(0), T(1), !(a == b))"
        return f"select(T(0), T(1), a {COMPARISONS[op]} b)"
    if op == "and":
        return "select(T(0), T(1), !(a == T(0)) && !(b == T(0)))"
    if op == "or":
        return "select(T(0), T(1), !(a == T(0)) || !(b == T(0)))"
    if op == "xor":
        return "select(T(0), T(1), (a == T(0)) != (b == T(0)))"
    raise Unsupported(f"wgpu: elementwise op {op}")


def store_expr(r: str, t: str, out_dtype: str) -> str:
    """Convert compute value ``r`` to the storage type of ``out_dtype``."""
    if out_dtype == "bool":
        return f"select(0u, 1u, !({r} == T(0)))"
    if out_dtype == "float32":
        return f"f32({r})"
    if out_dtype == "float64":
        return f"f64({r})"
    if out_dtype in INTEGER_RANGES:
        lo, hi, ty = INTEGER_RANGES[out_dtype]
        return (f"{ty}(select(clamp(mfx_round({r}), T({lo}), T({hi})), T(0), mfx_isnan({r})))")
    raise Unsupported(f"wgpu: store to {out_dtype}")


def load_expr(name: str, dtype: str, index: str) -> str:
    return f"T({name}[{index}])"


def compute_type(out_dtype: str, in_dtypes: list[str]) -> str:
    """f32 for single work, f64 for everything else (ints are computed in double)."""
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
    prelude = (F64_MATH if spec.t == "f64" else "") + _helpers(spec.t, True) + uniform.wgsl()
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
        raise Unsupported(f"wgpu: broadcast of rank {len(dims)} > {MAX_RANK}")
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
