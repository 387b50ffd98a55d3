"""MATLAB's elementwise operations on devices, written once per dialect.

Each :class:`ElementwiseOp` gives an expression template per kernel dialect
and the library helpers the expression calls (``wgsl_library`` /
``cuda_library`` names). The fused kernels (both renderers of
``accelerate/fusion``) and the wgpu provider's eager elementwise kernels
render from this table, so a MATLAB rule (NaN handling of ``max``, ``sign``
of NaN, ``rem``/``mod`` near multiples, round half away from zero) has one
device definition per dialect.

Template fields (``str.format``):

* ``{a}``, ``{b}``: the operands, already in the compute type (logical ops:
  already truth values, see :data:`TRUTH`);
* ``{T}``: the dialect's name of the compute type (``f32``/``f64``,
  ``float``/``double``); ``{t}``: the short name (``f32``/``f64``) used in
  helper names; ``{f}``: CUDA's math-function suffix (``f`` for float);
* ``{max}``: the largest finite value of the type, a decimal literal;
* ``{inf}``, ``{nan}``: the kernel's spelling of those values (WGSL rejects
  non-finite constant expressions, so the caller chooses a run-time form).

Dialect keys: ``wgsl_f32``/``wgsl_f64`` fall back to ``wgsl``; ``cuda``
covers both types.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matfuse.accelerate_api.device_code.wgsl_special_values import MAX_FINITE


@dataclass(frozen=True)
class ElementwiseOp:
    """One operation: templates by dialect key, helpers by dialect key.

    Attributes:
        name: the fused graph's op name (``add``, ``sqrt``...).
        arity: 1 or 2.
        templates: expression per dialect key.
        helpers: helper names per dialect key (templates with ``{t}``).
        logical: the result is a truth value (comparisons, predicates,
            logical ops); ``truth_args``: the operands are truth values.
        domain: real operands may need MATLAB's complex result
            (``sqrt(-1)``, ``(-8)^(1/3)``): the fused kernels raise their
            domain flag there and the host computes the graph.
    """

    name: str
    arity: int
    templates: dict[str, str]
    helpers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    logical: bool = False
    truth_args: bool = False
    domain: bool = False

    def template(self, dialect: str, t: str) -> str:
        for key in (f"{dialect}_{t}", dialect):
            if key in self.templates:
                return self.templates[key]
        raise KeyError(f"{self.name} has no {dialect} form for {t}")

    def helper_names(self, dialect: str, t: str) -> tuple[str, ...]:
        for key in (f"{dialect}_{t}", dialect):
            if key in self.helpers:
                return tuple(h.format(t=t) for h in self.helpers[key])
        return ()


#: a value's truth (MATLAB: nonzero; NaN is true): WGSL as "not equal to
#: zero" (drivers may compile != as an ordered comparison, false for NaN)
TRUTH = {"wgsl": "(!({x} == {T}(0.0)))", "cuda": "({x} != ({T})0)"}

#: integer class -> (min, max): MATLAB rounds half away from zero,
#: saturates, and maps NaN to 0
INTEGER_RANGES = {
    "int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767), "uint16": (0, 65535),
    "int32": (-2147483648, 2147483647), "uint32": (0, 4294967295),
}

#: a value ``{x}`` of the compute type as a value of an integer class, still
#: in the compute type (the store converts it exactly): round half away from
#: zero, clamp to ``{lo}``..``{hi}``, NaN -> 0. Integer operations compute in
#: double (every value of the classes up to 32 bits is exact there).
TO_INTEGER = {
    "wgsl": "select(clamp(mf_round_{t}({x}), {T}({lo}), {T}({hi})), {T}(0.0), mf_isnan_{t}({x}))",
    "cuda": "(({x}) != ({x}) ? ({T})0 : fmin{f}(fmax{f}(round{f}({x}), {lo}), {hi}))",
}
TO_INTEGER_HELPERS = {"wgsl": ("mf_round_{t}", "mf_isnan_{t}"), "cuda": ()}

_OPS: list[ElementwiseOp] = []


def _op(name: str, arity: int, wgsl: str | None = None, cuda: str | None = None, *,
        wgsl_f32: str | None = None, wgsl_f64: str | None = None,
        helpers: dict[str, tuple[str, ...]] | None = None, **flags: bool) -> None:
    templates = {k: v for k, v in (("wgsl", wgsl), ("wgsl_f32", wgsl_f32), ("wgsl_f64", wgsl_f64),
                                   ("cuda", cuda)) if v is not None}
    _OPS.append(ElementwiseOp(name, arity, templates, helpers or {}, **flags))


def _math(name: str, wgsl_f32: str, f32_helpers: tuple[str, ...] = (), **flags: bool) -> None:
    """A transcendental: the f32 WGSL form given, f64 WGSL from matfuse's
    f64 library (``mf_<name>``), CUDA's libm (``<name>f``/``<name>``)."""
    helpers = {"wgsl_f64": ("f64math",)}
    if f32_helpers:
        helpers["wgsl_f32"] = f32_helpers
    _op(name, 1, wgsl_f32=wgsl_f32, wgsl_f64=f"mf_{name}({{a}})", cuda=f"{name}{{f}}({{a}})",
        helpers=helpers, **flags)


# ---------------------------------------------------------------- arithmetic
_op("add", 2, "({a} + {b})", "({a} + {b})")
_op("sub", 2, "({a} - {b})", "({a} - {b})")
_op("mul", 2, "({a} * {b})", "({a} * {b})")
# single division by a divisor above 2^125 (its reciprocal is subnormal)
# divides quarters: some drivers divide by a flushed reciprocal
_op("div", 2, cuda="({a} / {b})", wgsl_f32="mf_div_f32({a}, {b})", wgsl_f64="({a} / {b})",
    helpers={"wgsl_f32": ("mf_div_f32",)})
_op("ldiv", 2, cuda="({b} / {a})", wgsl_f32="mf_div_f32({b}, {a})", wgsl_f64="({b} / {a})",
    helpers={"wgsl_f32": ("mf_div_f32",)})
_op("neg", 1, "(-{a})", "(-{a})")
_op("identity", 1, "{a}", "{a}")
# MATLAB power: negative bases with integer exponents keep their sign; other
# negative bases give NaN on the device (MATLAB's result is complex: domain)
_op("pow", 2, "mf_pow_{t}({a}, {b})", "mf_pow_{t}({a}, {b})",
    helpers={"wgsl": ("mf_pow_{t}",), "cuda": ("pow_{t}",)}, domain=True)
# max/min ignore a NaN operand (MATLAB's default 'omitnan')
_op("max", 2, "mf_max_{t}({a}, {b})", "fmax{f}({a}, {b})", helpers={"wgsl": ("mf_max_{t}",)})
_op("min", 2, "mf_min_{t}({a}, {b})", "fmin{f}({a}, {b})", helpers={"wgsl": ("mf_min_{t}",)})
_op("atan2", 2, wgsl_f32="mfx_atan2_32({a}, {b})", wgsl_f64="mf_atan2({a}, {b})",
    cuda="atan2{f}({a}, {b})", helpers={"wgsl_f32": ("mfx_atan2_32",), "wgsl_f64": ("f64math",)})
# hypot: Inf when either argument is infinite (even with a NaN), scaled
_op("hypot", 2, "mf_hypot_{t}({a}, {b})", "mf_hypot_{t}({a}, {b})",
    helpers={"wgsl": ("mf_hypot_{t}",), "cuda": ("hypot_{t}",)})
# rem/mod: a - b.*fix(a./b) / a - b.*floor(a./b), 0 near nonzero multiples,
# rem(a, 0) NaN, mod(a, 0) a
for _name in ("rem", "mod"):
    _op(_name, 2, f"mf_{_name}_{{t}}({{a}}, {{b}})", f"mf_{_name}_{{t}}({{a}}, {{b}})",
        helpers={"wgsl": (f"mf_{_name}_{{t}}",), "cuda": (f"{_name}_{{t}}",)})

# ---------------------------------------------------------------- comparisons
for _name, _sym in (("eq", "=="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")):
    _op(_name, 2, f"({{a}} {_sym} {{b}})", f"({{a}} {_sym} {{b}})", logical=True)
# not (a == b): drivers may compile != as an ordered comparison, false for a
# NaN operand (MATLAB: NaN ~= x is true)
_op("ne", 2, "(!({a} == {b}))", "({a} != {b})", logical=True)

# ---------------------------------------------------------------- logical
_op("and", 2, "({a} && {b})", "({a} && {b})", logical=True, truth_args=True)
_op("or", 2, "({a} || {b})", "({a} || {b})", logical=True, truth_args=True)
_op("xor", 2, "({a} != {b})", "({a} != {b})", logical=True, truth_args=True)
_op("not", 1, "(!{a})", "(!{a})", logical=True, truth_args=True)
_op("isnan", 1, "mf_isnan_{t}({a})", "({a} != {a})", helpers={"wgsl": ("mf_isnan_{t}",)}, logical=True)
_op("isinf", 1, "(abs({a}) > {T}({max}))", "(fabs{f}({a}) > {max})", logical=True)
_op("isfinite", 1, "(abs({a}) <= {T}({max}))", "(fabs{f}({a}) <= {max})", logical=True)

# ---------------------------------------------------------------- rounding, sign
_op("abs", 1, "abs({a})", "fabs{f}({a})")
_op("floor", 1, "floor({a})", "floor{f}({a})")
_op("ceil", 1, "ceil({a})", "ceil{f}({a})")
# WGSL fix/round/sign from floor/abs/select: NVIDIA's Vulkan driver gets f64
# trunc and sign wrong; C round() rounds halves away from zero (MATLAB's)
_op("fix", 1, "mf_fix_{t}({a})", "trunc{f}({a})", helpers={"wgsl": ("mf_fix_{t}",)})
_op("round", 1, "mf_round_{t}({a})", "round{f}({a})", helpers={"wgsl": ("mf_round_{t}",)})
# sign(NaN) is NaN, sign(-0) is 0
_op("sign", 1, "mf_sign_{t}({a})", "({a} > ({T})0 ? ({T})1 : ({a} < ({T})0 ? -({T})1 : {a}))",
    helpers={"wgsl": ("mf_sign_{t}",)})

# ---------------------------------------------------------------- transcendentals
_op("sqrt", 1, "sqrt({a})", "sqrt{f}({a})", domain=True)
_math("exp", "exp({a})")
_math("log", "log({a})", domain=True)
_math("log2", "log2({a})", domain=True)
_math("log10", "(log({a}) * 0.4342944819032518)", domain=True)
_math("log1p", "mf_log1p_f32({a})", ("mf_log1p_f32",), domain=True)
_math("expm1", "mf32_expm1({a})", ("f32math",))
for _name in ("sin", "cos", "tan", "atan", "sinh", "tanh", "asinh"):
    # driver f32 builtins lose accuracy near zero / for large arguments
    _math(_name, f"mf32_{_name}({{a}})", ("f32math",))
_math("cosh", "cosh({a})")
# lavapipe's f32 inverse functions lose up to 4e-4 relative (wgsl_f32_inverse)
for _name in ("acosh", "atanh"):
    _math(_name, f"mf32_{_name}({{a}})", (f"mf32_{_name}",))
for _name in ("asin", "acos"):
    _math(_name, f"mf32_{_name}({{a}})", (f"mf32_{_name}",), domain=True)

# ---------------------------------------------------------------- special functions
# WGSL: wgsl_special_functions (f32 and f64 from one source); CUDA: libdevice,
# with MATLAB's gamma at the poles (Inf at negative integers, NaN at -Inf)
for _name, _cuda in (("erf", "erf{f}({a})"), ("erfc", "erfc{f}({a})"),
                     ("gammaln", "lgamma{f}({a})"), ("erfinv", "erfinv{f}({a})"),
                     ("erfcinv", "erfcinv{f}({a})"),
                     ("gamma", "(({a} < ({T})0 && floor{f}({a}) == {a}) ? "
                               "({a} > -{max} ? {inf} : {nan}) : tgamma{f}({a}))")):
    _op(_name, 1, f"mf_{_name}_{{t}}({{a}})", _cuda, helpers={"wgsl": ("{t}special",)})

OPS: dict[str, ElementwiseOp] = {op.name: op for op in _OPS}

#: MATLAB function names of the eager hooks -> table names
MATLAB_NAMES = {
    "plus": "add", "minus": "sub", "times": "mul", "rdivide": "div", "ldivide": "ldiv",
    "power": "pow", "uminus": "neg", "uplus": "identity", "real": "identity",
    "conj": "identity",
}


def lookup(name: str) -> ElementwiseOp | None:
    """The table entry of a graph op or MATLAB function name (None: not elementwise here)."""
    return OPS.get(MATLAB_NAMES.get(name, name))


def expression(op: ElementwiseOp, dialect: str, t: str, args: list[str],
               type_name: str, inf: str, nan: str) -> str:
    """``op`` on ``args`` in ``dialect`` for compute type ``t``."""
    names = dict(zip("ab", args))
    # bool compute (comparisons of two logicals) has no largest finite value
    literal_max = MAX_FINITE.get(t, "") + ("f" if dialect == "cuda" and t == "f32" else "")
    return op.template(dialect, t).format(
        T=type_name, t=t, f="f" if (dialect == "cuda" and t == "f32") else "",
        max=literal_max, inf=inf, nan=nan, **names)


def to_integer(x: str, cls: str, dialect: str, t: str, type_name: str) -> tuple[str, tuple[str, ...]]:
    """(expression, helper names): ``x`` (compute type ``t``) rounded and
    saturated to integer class ``cls`` (:data:`TO_INTEGER`)."""
    lo, hi = INTEGER_RANGES[cls]
    expr = TO_INTEGER[dialect].format(x=x, T=type_name, t=t, lo=f"{float(lo)!r}", hi=f"{float(hi)!r}",
                                      f="f" if (dialect == "cuda" and t == "f32") else "")
    return expr, tuple(h.format(t=t) for h in TO_INTEGER_HELPERS[dialect])


#: a single's truth from its bits: drivers that flush subnormals (NVIDIA's
#: Vulkan) compare ``1e-45 == 0`` as true
TRUTH_WGSL_F32 = "((bitcast<u32>({x}) & 0x7fffffffu) != 0u)"


def truth(x: str, dialect: str, type_name: str) -> str:
    """``x`` (of a numeric type) as a truth value."""
    if dialect == "wgsl" and type_name == "f32":
        return TRUTH_WGSL_F32.format(x=x)
    return TRUTH[dialect].format(x=x, T=type_name)
