"""MATLAB's elementwise operations on complex values, written once for both
kernel dialects.

An expression is in terms of ``a`` (and ``b``), complex values of the
dialect's complex type (WGSL ``vec2<T>``, CUDA ``double2``/``float2``; real
operands are promoted to ``(x, 0)`` on load), and calls the helper functions
of ``wgsl_complex``/``cuda_complex``, which have the same names and
formulas in both dialects. The result is complex (``c``), real (``r``: the
parts, abs, angle) or logical (``b``). Operations on each part separately
(``round``, ``floor``, ``ceil``, ``fix``) take the real op table's
expression per part, so MATLAB's rounding rules have one definition.

The forward trigonometric and hyperbolic functions, ``log2``/``log10``,
``expm1`` and ``log1p`` are NumPy's (the in-process provider's) formulas
with C99 Annex G's special values as NumPy gives them: products of the real
functions of the parts (scaled where they would overflow), Kahan's tanh,
the complex log times 1/ln 2 or 1/ln 10, NumPy's ``nc_expm1``/``nc_log1p``.

The wgpu provider's complex kernels and the CUDA provider's complex hooks
render from this table. Operations missing here (the inverse trigonometric
and hyperbolic functions) run CuPy's complex ufuncs on CUDA and the host on
wgpu.
"""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.accelerate_api.device_code import op_table


@dataclass(frozen=True)
class ComplexOp:
    """One operation on complex values.

    Attributes:
        name: the provider hooks' op name (``plus``, ``abs``...).
        arity: 1 or 2.
        expr: the expression of ``a`` (and ``b``), or for a per-part op the
            real op table's name of the op applied to each part.
        kind: ``c`` complex, ``r`` real, ``b`` logical result.
        per_part: ``expr`` names a real op applied to the real and imaginary parts.
    """

    name: str
    arity: int
    expr: str
    kind: str
    per_part: bool = False


_OPS = [
    ComplexOp("plus", 2, "cx_add(a, b)", "c"),
    ComplexOp("minus", 2, "cx_sub(a, b)", "c"),
    ComplexOp("times", 2, "cx_mul(a, b)", "c"),
    ComplexOp("rdivide", 2, "cx_div(a, b)", "c"),
    ComplexOp("ldivide", 2, "cx_div(b, a)", "c"),
    ComplexOp("power", 2, "cx_pow(a, b)", "c"),
    ComplexOp("eq", 2, "cx_eq(a, b)", "b"),
    ComplexOp("ne", 2, "(!cx_eq(a, b))", "b"),
    # MATLAB orders complex values by their real parts
    ComplexOp("lt", 2, "(a.x < b.x)", "b"),
    ComplexOp("le", 2, "(a.x <= b.x)", "b"),
    ComplexOp("gt", 2, "(a.x > b.x)", "b"),
    ComplexOp("ge", 2, "(a.x >= b.x)", "b"),
    # complex(re, im) of two real operands: parts set, not re + i*im (an
    # infinite imaginary part would make the real part NaN)
    ComplexOp("complex", 2, "cx_make(a.x, b.x)", "c"),
    ComplexOp("identity", 1, "a", "c"),
    ComplexOp("uplus", 1, "a", "c"),
    ComplexOp("uminus", 1, "cx_neg(a)", "c"),
    ComplexOp("conj", 1, "cx_make(a.x, -a.y)", "c"),
    ComplexOp("real", 1, "a.x", "r"),
    ComplexOp("imag", 1, "a.y", "r"),
    ComplexOp("abs", 1, "cx_abs(a)", "r"),
    ComplexOp("angle", 1, "cx_angle(a)", "r"),
    ComplexOp("sign", 1, "cx_sign(a)", "c"),
    ComplexOp("exp", 1, "cx_exp(a)", "c"),
    ComplexOp("log", 1, "cx_log(a)", "c"),
    ComplexOp("sqrt", 1, "cx_sqrt(a)", "c"),
    *(ComplexOp(name, 1, f"cx_{name}(a)", "c")
      for name in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "log2", "log10", "expm1", "log1p")),
    ComplexOp("isnan", 1, "(cx_isnan(a.x) || cx_isnan(a.y))", "b"),
    ComplexOp("isinf", 1, "(cx_isinf(a.x) || cx_isinf(a.y))", "b"),
    ComplexOp("isfinite", 1, "(!(cx_isinf(a.x) || cx_isinf(a.y) || cx_isnan(a.x) || cx_isnan(a.y)))", "b"),
    *(ComplexOp(name, 1, name, "c", per_part=True) for name in ("round", "floor", "ceil", "fix")),
]

OPS: dict[tuple[str, int], ComplexOp] = {(op.name, op.arity): op for op in _OPS}


def lookup(name: str, arity: int) -> ComplexOp | None:
    """The complex form of hook op ``name`` with ``arity`` operands (None: host)."""
    return OPS.get((name, arity))


def expression(op: ComplexOp, dialect: str, t: str, type_name: str, inf: str,
               nan: str) -> tuple[str, tuple[str, ...]]:
    """(expression of ``a``/``b``, real op table helper names) of ``op`` in
    ``dialect`` (``wgsl``/``cuda``) for element type ``t``; ``type_name``,
    ``inf`` and ``nan`` spell the element type and its non-finite values
    (for the per-part ops' real expressions)."""
    if not op.per_part:
        return op.expr, ()
    real = op_table.OPS[op.expr]
    parts = [op_table.expression(real, dialect, t, [part], type_name, inf, nan)
             for part in ("a.x", "a.y")]
    return f"cx_make({parts[0]}, {parts[1]})", real.helper_names(dialect, t)
