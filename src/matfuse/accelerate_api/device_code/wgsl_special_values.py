"""One WGSL definition of the elementwise functions whose MATLAB results at
special values (0, NaN, Inf, huge magnitudes) need care: ``rem``, ``mod``,
``sign``, ``hypot`` and ``round``/``fix``.

They are the library functions ``mf_<op>_f32`` / ``mf_<op>_f64``
(``wgsl_library``) that the op table's WGSL forms call, for the fused
kernels and the wgpu provider's eager kernels alike. The semantics are the host's (``runtime/builtins/integer_math``):

* ``rem(a, b) = a - b.*fix(a./b)``, ``mod(a, b) = a - b.*floor(a./b)``; a
  quotient within one eps of a nonzero integer (``b`` not an integer) gives
  exactly 0; ``rem(a, 0)`` is NaN, ``mod(a, 0)`` is ``a``. An exact multiple
  gives 0 even where the driver's division is not correctly rounded, and a
  divisor near the largest value is divided by quarters (its reciprocal
  would be subnormal, which some drivers flush to 0).
* ``sign(NaN)`` is NaN; ``sign(-0)`` is 0; ``sign`` of a subnormal single is
  +-1 even where the driver flushes subnormals.
* ``hypot`` is Inf when either argument is infinite (even with a NaN), NaN
  when either is NaN, and scaled so that ``hypot(1e308, 0)`` is 1e308.

Only floor/abs/compare/select are used on f64: NVIDIA's Vulkan driver gets
``trunc`` and ``sign`` of f64 wrong (GPU-FACTS.md).
"""

from __future__ import annotations

#: ops defined here, in the order they are rendered
SPECIAL_OPS = ("fix", "round", "rem", "mod", "sign", "hypot")

_EPS = {"f32": "1.1920928955078125e-7", "f64": "2.220446049250313e-16"}
MAX_FINITE = {"f32": "3.4028234663852886e38", "f64": "1.7976931348623157e308"}
#: 2^(emax-2): above it, 1/b is subnormal
_HUGE = {"f32": "4.253529586511731e37", "f64": "2.247116418577895e307"}

# rem (WHOLE = fix(q), ZERO = NaN) and mod (floor(q), a) share one body.
_REMAINDER = """
fn NAME(a: {T}, b: {T}) -> {T} {{
  // NaN first, as a constant: compilers fold a + -a to 0 even for NaN
  if (((bitcast<u32>({bits}(a)) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>({bits}(b)) & 0x7fffffffu) > 0x7f800000u)) {{ return {T}(bitcast<f32>(0x7fc00000u)); }}
  if (b == {T}(0.0)) {{ return ZERO; }}
  // 1/b is subnormal for |b| near the largest value; drivers that divide by
  // a reciprocal and flush subnormals (NVIDIA's Vulkan) then give q = 0:
  // divide quarters there (exact, and 4/b is normal)
  let q = select(a / b, (a * {T}(0.25)) / (b * {T}(0.25)), abs(b) > {T}({huge}));
  let r = a - b * WHOLE;
  let k = {round}(q);
  if (floor(b) != b && k != {T}(0.0) && abs((q - k) / k) < {T}({eps})) {{ return {T}(0.0); }}
  // Vulkan's division may be off by ulps (NVIDIA: -7/7 < -1): an exact
  // multiple then leaves r = +-b instead of 0
  if (abs(r) == abs(b) && a == b * k) {{ return {T}(0.0); }}
  return r;
}}"""

_BODIES = {
    "fix": """
fn {fix}(x: {T}) -> {T} {{
  let f = floor(abs(x));
  return select(f, -f, x < {T}(0.0));
}}""",
    "round": """
fn {round}(x: {T}) -> {T} {{
  let a = abs(x);
  let f = floor(a);
  let r = select(f, f + {T}(1.0), a - f >= {T}(0.5));
  return select(r, -r, x < {T}(0.0));
}}""",
    "rem": _REMAINDER.replace("NAME", "{rem}").replace("ZERO", "{T}(bitcast<f32>(0x7fc00000u))")
                     .replace("WHOLE", "{fix}(q)"),
    "mod": _REMAINDER.replace("NAME", "{mod}").replace("ZERO", "a").replace("WHOLE", "floor(q)"),
    "sign": """
fn {sign}(x: {T}) -> {T} {{
  if (x > {T}(0.0)) {{ return {T}(1.0); }}
  if (x < {T}(0.0)) {{ return {T}(-1.0); }}
  if (x == {T}(0.0)) {{ return {T}(0.0); }}
  return x;
}}""",
    "sign_f32": """
fn {sign}(x: {T}) -> {T} {{
  let u = bitcast<u32>(x);
  let m = u & 0x7fffffffu;
  if (m == 0u) {{ return {T}(0.0); }}
  if (m > 0x7f800000u) {{ return x; }}
  return select({T}(1.0), {T}(-1.0), (u >> 31u) == 1u);
}}""",
    "hypot": """
fn {hypot}(a: {T}, b: {T}) -> {T} {{
  let x = abs(a); let y = abs(b);
  if (x > {T}({max}) || y > {T}({max})) {{ return {T}(bitcast<f32>(0x7f800000u)); }}
  if (((bitcast<u32>({bits}(x)) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>({bits}(y)) & 0x7fffffffu) > 0x7f800000u)) {{ return x + y; }}
  let m = max(x, y);
  if (m == {T}(0.0)) {{ return m; }}
  // quarters above 2^(emax-2), where 1/m is subnormal (flushed by some drivers)
  let r = select(min(x, y) / m, (min(x, y) * {T}(0.25)) / (m * {T}(0.25)), m > {T}({huge}));
  return m * sqrt({T}(1.0) + r * r);
}}""",
}


def fused_name(op: str, t: str) -> str:
    """The library name of ``op`` on WGSL type ``t``."""
    return f"mf_{op}_{t}"


def _body(op: str, t: str) -> str:
    """f32 ``sign`` reads the bits: drivers that flush subnormals to zero
    (NVIDIA's Vulkan) compare ``1e-45 > 0`` as false."""
    return _BODIES.get(f"{op}_{t}", _BODIES[op])


def _render(t: str, type_name: str, names: dict[str, str], ops: tuple[str, ...]) -> str:
    # NaN tests read the bits of the value as a single (drivers fold x == x)
    fields = dict(names, T=type_name, eps=_EPS[t], max=MAX_FINITE[t], huge=_HUGE[t], bits="f32" if t == "f64" else "")
    return "".join(_body(op, t).format(**fields) for op in ops) + "\n"


def fused_definition(op: str, t: str) -> tuple[str, tuple[str, ...]]:
    """(source of ``mf_<op>_<t>``, the helper names it calls)."""
    deps = {"rem": ("fix", "round"), "mod": ("round",)}.get(op, ())
    names = {o: fused_name(o, t) for o in SPECIAL_OPS}
    return _render(t, t, names, (op,)), tuple(fused_name(d, t) for d in deps)
