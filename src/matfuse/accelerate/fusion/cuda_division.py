"""Exact division by a kernel-uniform divisor for generated CUDA C.

MATLAB's ``a / d`` is the IEEE correctly rounded quotient (bit-exact with
NumPy). CUDA's ``/`` computes it with a reciprocal approximation, refinement
and a range check per element: with ``d`` the same for every element (a
scalar, a fill, a 1x1 buffer or an expression of those) most of that work can
be done once per thread.

Single precision: ``mf_div_setup_f32(d)`` (before the grid-stride loop)
keeps ``r = RN64(1/d)``; per element ``q = RN64(a * r)`` rounded to single
is the IEEE quotient, except that quotients in the subnormal range
(``0 < |q| < 2^-126``) take ``a / d`` in an out-of-line call, and that a
power-of-two ``d`` (``s.p2``, below) is one single multiply. Why it is
exact: ``q`` is within ``2^-52`` (relative) of ``a/d`` (two double
roundings). For a quotient in the normal range, ``a/d`` is never a single
precision rounding midpoint and is at least ``2^-50`` (relative) away from
every one: with ``a = A 2^ea``, ``d = D 2^ed`` (A, D < 2^24) and a midpoint
``M 2^(e-24)`` (M odd) near ``a/d ~ 2^e``, ``a - d M 2^(e-24)`` is a nonzero
multiple of ``2^(ed+e-25)`` while ``|a| < 2^(ed+e+25)``. So ``a/d`` and ``q``
round to the same single, overflow to inf included (its threshold is such a
midpoint). In the subnormal range ``a/d`` can be a midpoint exactly
(``a = 15 * 2^-150``, ``d = 3``), which ``q`` misses: hence the guard. Zeros,
infinities and NaN of either operand come out of the product as IEEE
division gives them (``0 * inf`` is NaN for ``0/0`` and ``inf/inf``). One
conversion, one double multiply and one conversion per element: 0.400 ms
against 0.413 ms for a Markstein quotient with a range guard on the
elementwise benchmark's partial pass (H100, session 5). Checked on the H100
against the GPU's IEEE ``a / d`` for all 2^32 single dividends and 628
divisors (zeros, subnormals, inf and NaN among them): 0 mismatches
(``docs/benchmarks/fusion.md``, session 5).

Double precision: ``mf_div_setup_f64(d)`` keeps ``d``, ``r = RN(1/d)``,
``rl ~ 1/d - r`` and the range of ``|a|`` where the fast path is proven;
``mf_div_f64(a, setup)`` per element is one multiply and three FMAs, or
``a / d`` outside that range (an out-of-line call: inlined, the IEEE
division's code slowed a partial pass by 4% in single precision, device run
s5-2).

Why the double path is exact (p = 53, u = 2^-p; no underflow or overflow,
which the range guarantees):

* ``1 - r*d`` is a double (``r`` is the correctly rounded reciprocal of a
  normal ``d``), so ``fma(-r, d, 1)`` is exact and ``rl = RN(RN(1 - r*d)*r)``
  is ``(1/d - r)`` within ``2u`` relative: ``r + rl`` is ``1/d`` within
  ``2u^2``.
* ``q = RN(a*r + RN(a*rl))`` rounds ``(a/d)(1 + e)`` with ``|e| <= 3u^2``
  (plus, for the smallest quotients in range, a subnormal ``a*rl`` off by at
  most a quarter of the quotient's ulp): less than half an ulp of ``a/d``
  away, so ``q`` is one of the two doubles around ``a/d`` (faithful).
* For a faithful ``q`` the remainder ``a - q*d`` is a double, so the FMA
  computes it exactly; with ``r`` within half an ulp of ``1/d``,
  ``RN(q + (a - q*d)*r)`` is ``RN(a/d)``: Markstein's theorem (P. Markstein,
  "Computation of elementary functions on the IBM RISC System/6000
  processor", IBM J. Res. Dev. 34(1), 1990; restated with proof in Cornea,
  Harrison & Tang, "Scientific Computing on Itanium-based Systems", 2002,
  and in Muller et al., "Handbook of Floating-Point Arithmetic", ch. on
  division by FMA). A quotient of two p-bit floats is never exactly a
  midpoint, so ties cannot occur.

(Session 4's form started from ``RN(a*r)``, which is not always faithful,
and so needed a second correction. The same Markstein form served single
precision until the double product replaced it: all 2^32 single dividends
for 626 divisors checked on the H100 with 0 mismatches either way.)

A power-of-two ``d`` with a normal reciprocal (either precision) has an
exact reciprocal, so ``a*r`` is the exact real ``a/d`` and one rounded
multiply is the IEEE quotient for every ``a`` (subnormal results, zeros,
inf and NaN included): ``s.p2``.

Range (conservative by factors of 4 or more): ``d`` and ``1/d`` normal,
``|a| >= 2^-960`` so that every remainder is a multiple of at least the
smallest subnormal, and ``2^-1020 |d| <= |a| <= 2^1021 |d|`` so that the
quotient and all intermediates are normal and finite. Zero, subnormal,
infinite and NaN operands fail the range test and take ``a / d`` (so signed
zeros, inf and NaN follow IEEE exactly). Tested bit-exact against NumPy over
millions of dividends per divisor (tests/accelerate/fusion/test_cuda_division.py).
"""

from __future__ import annotations

from matfuse.accelerate.fusion._emitter import numel
from matfuse.accelerate.fusion.graph import GENERATORS, IR_OF_INTEGER, REDUCTIONS, FNode

# Constants as bit patterns: exact powers of two without hex-float literals.
_SOURCE = {
    "f32": """
struct mf_divisor_f32 { float d, r1; double r; bool p2; };
__device__ __noinline__ float mf_div_slow_f32(float a, float d) { return a / d; }
__device__ __forceinline__ mf_divisor_f32 mf_div_setup_f32(float d) {
  const float m = fabsf(d);
  mf_divisor_f32 s;
  s.d = d;
  s.r1 = __frcp_rn(d);
  s.r = __drcp_rn((double)d);
  s.p2 = m >= __int_as_float(0x00800000) && m <= __int_as_float(0x7e800000)
         && (__float_as_uint(d) & 0x007fffffu) == 0u;
  return s;
}
__device__ __forceinline__ float mf_div_f32(float a, mf_divisor_f32 s) {
  if (s.p2) return __fmul_rn(a, s.r1);
  const double q = (double)a * s.r;
  // A quotient in the subnormal range can be exactly a midpoint there:
  // the IEEE division decides it (0 < |q| < 2^-126).
  if (fabs(q) < __longlong_as_double(0x3810000000000000LL) && q != 0.0) {
    return mf_div_slow_f32(a, s.d);
  }
  return (float)q;
}
""",
    "f64": """
struct mf_divisor_f64 { double d, r, rl, lo, hi; bool p2; };
__device__ __noinline__ double mf_div_slow_f64(double a, double d) { return a / d; }
__device__ __forceinline__ mf_divisor_f64 mf_div_setup_f64(double d) {
  const double m = fabs(d);
  const bool ok = m >= __longlong_as_double(0x0010000000000000LL)
               && m <= __longlong_as_double(0x7fd0000000000000LL);
  mf_divisor_f64 s;
  s.d = d;
  s.r = __drcp_rn(d);
  s.rl = __dmul_rn(fma(-s.r, d, 1.0), s.r);
  s.lo = ok ? fmax(__longlong_as_double(0x03f0000000000000LL),
                   __longlong_as_double(0x0030000000000000LL) * m)
            : __longlong_as_double(0x7ff0000000000000LL);
  s.hi = ok ? fmin(__longlong_as_double(0x7fefffffffffffffLL),
                   __longlong_as_double(0x7fc0000000000000LL) * m) : 0.0;
  s.p2 = ok && (__double_as_longlong(d) & 0x000fffffffffffffLL) == 0;
  return s;
}
__device__ __forceinline__ double mf_div_f64(double a, mf_divisor_f64 s) {
  if (s.p2) return __dmul_rn(a, s.r);
  const double m = fabs(a);
  if (m >= s.lo && m <= s.hi) {
    const double q = fma(a, s.r, __dmul_rn(a, s.rl));
    return fma(fma(-q, s.d, a), s.r, q);
  }
  return mf_div_slow_f64(a, s.d);
}
""",
}


def division_source(types: set[str]) -> str:
    """The helpers for the float types in ``types`` ("f32", "f64")."""
    return "".join(_SOURCE[t] for t in sorted(types))


class UniformDivisionMixin:
    """CUDA emitter part: ``a / d`` and ``d .\\ a`` with a uniform ``d``.

    The emitter provides ``prologue`` (lines before the grid-stride loop),
    ``divisors``, ``division_types`` and ``uniform`` (empty dict, set, dict),
    the usual ``value``/``convert``/``let``/``emit``/``fresh``/
    ``compute_type``/``type_name`` and memo scopes, and adds
    ``division_source(division_types)`` to the kernel's helpers.
    """

    def is_uniform(self, node: FNode) -> bool:
        """Whether ``node`` has one value for the whole kernel (computable
        before the grid-stride loop from kernel arguments)."""
        found = self.uniform.get(node.uid)
        if found is None:
            if node.handle is not None:
                found = numel(node.shape) == 1
            elif node.op in ("scalar", "fill"):
                found = True
            elif (node.op in GENERATORS or node.op in REDUCTIONS or node.op in ("loop", "loopvar")
                  or not node.args):
                found = False
            else:
                found = all(self.is_uniform(a) for a in node.args)
            self.uniform[node.uid] = found
        return found

    def uniform_division(self, node: FNode, idx: str, space: tuple[int, ...]) -> str | None:
        """``a / d`` (``d .\\ a``) with a uniform divisor ``d``: the exact
        multiply-and-correct quotient of ``cuda_division`` with ``1/d``
        computed once per thread; None when ``d`` varies (or ``a`` does not)."""
        num_pos = 0 if node.op == "div" else 1
        num, den = node.args[num_pos], node.args[1 - num_pos]
        if not self.is_uniform(den) or self.is_uniform(num):
            return None
        t = self.compute_type(node)
        # operands rendered in argument order: the same bindings and scalars
        if num_pos == 0:
            a = self.convert(self.value(num, idx, space), num.dtype, t)
            setup = self.divisor_setup(den, t)
        else:
            setup = self.divisor_setup(den, t)
            a = self.convert(self.value(num, idx, space), num.dtype, t)
        quotient = f"mf_div_{t}({a}, {setup})"
        if node.dtype in IR_OF_INTEGER:
            # rounded and saturated from a temporary (the conversion reads it thrice)
            quotient = self.let(quotient, self.type_name(t))
        return self.let(self.convert(quotient, t, node.dtype), self.type_name(node.dtype))

    def divisor_setup(self, den: FNode, t: str) -> str:
        """The ``mf_divisor_<t>`` of uniform ``den``, computed in the prologue."""
        key = (den.uid, t)
        if key in self.divisors:
            return self.divisors[key]
        # Scalar arguments rendered so far are valid anywhere; other
        # temporaries of the loop body are not visible in the prologue.
        params = {k: v for scope in self.memo for k, v in scope.items() if len(k) == 2 and k[1] == ""}
        saved = (self.lines, self.indent, self.memo)
        self.lines, self.indent, self.memo = self.prologue, 1, [params]
        try:
            d = self.convert(self.value(den, "0u", tuple(den.shape)), den.dtype, t)
            name = self.fresh("dz")
            self.emit(f"const mf_divisor_{t} {name} = mf_div_setup_{t}({d});")
            params = {k: v for k, v in self.memo[0].items() if len(k) == 2 and k[1] == ""}
        finally:
            self.lines, self.indent, self.memo = saved
        self.memo[0].update(params)
        self.division_types.add(t)
        self.divisors[key] = name
        return name
