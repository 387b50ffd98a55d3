"""Kernel dialects: what differs between WGSL and CUDA C source of one plan.

The fusion emitters (``_emitter.EmitterBase`` and its two subclasses) write
every value, conversion, loop, reduction step and elementwise operation
through a :class:`Dialect`: type names, literal syntax, ``let``/``var``
spellings, selects, loops, carries and the op table's templates
(``accelerate_api.device_code.op_table``). A renderer is chosen from the
provider's declared kernel language (``renderer_for``), never its name.
"""

from __future__ import annotations

import math

from matfuse.accelerate_api.device_code import op_table
from matfuse.accelerate_api.device_code.op_table import ElementwiseOp

_SHORT = ("f32", "f64", "bool")


_F32_OVERFLOW = 3.4028235677973366e38   # halfway past the largest single: rounds to inf


def _non_finite_in(value: float, t: str) -> bool:
    """Whether ``value`` is NaN or infinite once rounded to type ``t``."""
    if not math.isfinite(value):
        return True
    return t == "f32" and abs(value) >= _F32_OVERFLOW


class Dialect:
    """The spelling of kernel source in one language (see subclasses)."""

    #: op-table key
    key = ""
    #: the index type
    u32_type = ""
    #: WGSL cannot order bools: comparisons of two logicals compare 0/1 values
    orders_bools = True
    #: the driver may fold ``x - x``/``x / x`` of one value (wrong for NaN/Inf)
    folds_self_ops = False

    def type_name(self, dtype: str) -> str:
        raise NotImplementedError

    def literal(self, value: float, t: str) -> str:
        """A float literal of type ``t`` (finite: always with a ``.``/exponent)."""
        raise NotImplementedError

    def uint_literal(self, n: int) -> str:
        """An unsigned 32-bit literal."""
        if not 0 <= n <= 0xFFFFFFFF:
            raise ValueError(f"index constant {n} does not fit 32 bits")
        return f"{n}u"

    def inf(self, t: str) -> str:
        raise NotImplementedError

    def nan(self, t: str) -> str:
        raise NotImplementedError

    def non_finite(self, value: float, t: str) -> str:
        """NaN or a signed infinity (``value`` rounded to ``t``)."""
        if math.isnan(value):
            return self.nan(t)
        return self.inf(t) if value > 0 else f"(-{self.inf(t)})"

    def zero(self, t: str) -> str:
        return self.literal(0.0, t)

    def one(self, t: str) -> str:
        return self.literal(1.0, t)

    def select(self, cond: str, if_true: str, if_false: str) -> str:
        raise NotImplementedError

    def is_nan(self, x: str) -> str:
        raise NotImplementedError

    def math_name(self, name: str, t: str) -> str:
        """Name of a basic math builtin (``abs``, ``floor``) on ``t``."""
        raise NotImplementedError

    def let_line(self, name: str, type_name: str, expr: str) -> str:
        raise NotImplementedError

    def var_line(self, name: str, type_name: str, init: str) -> str:
        raise NotImplementedError

    def loop_header(self, var: str, count: str) -> str:
        raise NotImplementedError

    def cast(self, x: str, dst: str) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------ shared forms
    def carry(self, a: str, b: str) -> str:
        """1 when ``a < b`` (u32): the carry of a 32-bit add ``a = b + x``."""
        return self.select(f"{a} < {b}", "1u", "0u")

    def truth(self, x: str, t: str) -> str:
        return x if t == "bool" else op_table.truth(x, self.key, self.type_name(t))

    def convert(self, x: str, src: str, dst: str) -> str:
        if src == dst:
            return x
        if src == "bool":
            return self.select(x, self.one(dst), self.zero(dst))
        if dst == "bool":
            return self.truth(x, src)
        return self.cast(x, dst)

    def op(self, op: ElementwiseOp, t: str, args: list[str]) -> tuple[str, tuple[str, ...]]:
        """(expression, helper names) of table op ``op`` on ``args`` in type ``t``."""
        if op.name == "not" and t != "bool":
            return f"(!{self.truth(args[0], t)})", ()
        if op.truth_args:
            args = [self.truth(a, t) for a in args]
            t = "f32" if t == "bool" else t
        expr = op_table.expression(op, self.key, t, args, self.type_name(t), self.inf(t), self.nan(t))
        return expr, op.helper_names(self.key, t)

    def combine(self, op: str, acc: str, value: str, t: str) -> str:
        """One step of reduction ``op``: NaN values are skipped by max/min
        and an all-NaN slice keeps the NaN initial value (MATLAB's omitnan)."""
        op = op.removeprefix("reduce_")
        if op in ("sum", "mean"):
            return f"{acc} + {value}"
        if op == "prod":
            return f"{acc} * {value}"
        cmp = ">" if op == "max" else "<"
        return self.select(f"({value} {cmp} {acc}) || {self.is_nan(acc)}", value, acc)

    def reduce_init(self, op: str, t: str) -> str:
        op = op.removeprefix("reduce_")
        if op in ("sum", "mean"):
            return self.zero(t)
        if op == "prod":
            return self.one(t)
        return self.nan(t)


class WgslDialect(Dialect):
    key = "wgsl"
    u32_type = "u32"
    orders_bools = False
    folds_self_ops = True

    def type_name(self, dtype: str) -> str:
        return dtype

    def literal(self, value: float, t: str) -> str:
        if _non_finite_in(value, t):
            return self.non_finite(value, t)
        return f"{t}({float(value)!r})"

    # Infinity is built at run time from the zero header word ``h[0].y``
    # (WGSL rejects non-finite constant expressions); NaN comes from a bit
    # pattern, because NVIDIA's Vulkan compiler folds ``z / z`` to 1.
    def inf(self, t: str) -> str:
        return f"({t}(1.0) / {t}(params.h[0].y))"

    def nan(self, t: str) -> str:
        return f"{t}(bitcast<f32>(0x7fc00000u))"

    def select(self, cond: str, if_true: str, if_false: str) -> str:
        return f"select({if_false}, {if_true}, {cond})"

    def is_nan(self, x: str) -> str:
        # by the bits: NVIDIA's Vulkan compiler folds x == x to true
        return f"((bitcast<u32>(f32({x})) & 0x7fffffffu) > 0x7f800000u)"

    def math_name(self, name: str, t: str) -> str:
        return name

    def let_line(self, name: str, type_name: str, expr: str) -> str:
        return f"let {name} = {expr};"

    def var_line(self, name: str, type_name: str, init: str) -> str:
        return f"var {name}: {type_name} = {init};"

    def loop_header(self, var: str, count: str) -> str:
        return f"for (var {var}: u32 = 0u; {var} < {count}; {var} = {var} + 1u) {{"

    def cast(self, x: str, dst: str) -> str:
        return f"{dst}({x})"


_CTYPE = {"f32": "float", "f64": "double", "bool": "bool"}


class CudaDialect(Dialect):
    key = "cuda"
    u32_type = "unsigned int"

    def type_name(self, dtype: str) -> str:
        return _CTYPE[dtype]

    def literal(self, value: float, t: str) -> str:
        if t == "bool":
            return "true" if value else "false"
        if _non_finite_in(value, t):
            return self.non_finite(value, t)
        text = repr(float(value))   # always has a '.' or an exponent
        return f"{text}f" if t == "f32" else text

    def inf(self, t: str) -> str:
        return "__int_as_float(0x7f800000)" if t == "f32" else "__longlong_as_double(0x7ff0000000000000LL)"

    def nan(self, t: str) -> str:
        return "__int_as_float(0x7fc00000)" if t == "f32" else "__longlong_as_double(0x7ff8000000000000LL)"

    def select(self, cond: str, if_true: str, if_false: str) -> str:
        return f"(({cond}) ? {if_true} : {if_false})"

    def is_nan(self, x: str) -> str:
        return f"({x} != {x})"

    def math_name(self, name: str, t: str) -> str:
        name = "fabs" if name == "abs" else name
        return name + "f" if t == "f32" else name

    def let_line(self, name: str, type_name: str, expr: str) -> str:
        return f"const {type_name} {name} = {expr};"

    def var_line(self, name: str, type_name: str, init: str) -> str:
        return f"{type_name} {name} = {init};"

    def loop_header(self, var: str, count: str) -> str:
        return f"for (unsigned int {var} = 0u; {var} < {count}; ++{var}) {{"

    def cast(self, x: str, dst: str) -> str:
        return f"(({_CTYPE[dst]}){x})"


WGSL = WgslDialect()
CUDA = CudaDialect()
