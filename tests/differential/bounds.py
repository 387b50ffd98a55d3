"""The documented accuracy bounds of device results, per operation: the ONE
place where the differential tests' tolerances are defined.

A device result must have the reference's class, size and complexity
(except that a complex result whose imaginary parts are all zero may stand
for a real one: MATLAB drops such imaginary parts on the host, the device
keeps them), and for every element:

* integer, logical and char results: equal;
* NaN where the reference is NaN (and nowhere else), the same infinity
  where it is infinite;
* otherwise ``|got - want| <= ulps * eps(class) * scale + ulps * tiny(class)``
  (``eps`` of single when a double result was cast from single work) where
  ``ulps`` is the sum of the bounds below over the operations of the
  expression (plus the reduced length for sums/products, whose order of
  accumulation is the provider's), ``scale`` is ``|want|``, or, when the
  expression cancels (``+ - sum mean cumsum mod rem``...), the largest
  finite magnitude among its inputs and constants (absolute error of a
  cancellation), and the ``tiny`` term lets a device flush subnormal
  results to zero (WGSL permits it for f32).

The bounds are the providers' documented accuracy: IEEE-exact arithmetic
(``+ - .* ./ sqrt`` are correctly rounded in f64; WGSL f32 division is 2.5
ulp and the renderers divide in f64 to keep it at 0.5), our own f64
transcendentals (``device_code/wgsl_f64math.py``, a few ulp, with the trigonometric
argument reduction exact over the whole range), the f32 functions of
``device_code/wgsl_f32math.py``, CUDA's libdevice (at most 4 ulp for the functions
used here) and NumPy on the host. A fused kernel may contract ``a*b + c``
into an FMA (CUDA): one extra ulp per multiply-add, counted in ``times``.
"""

from __future__ import annotations

#: exact operations: the same IEEE operation on both sides
EXACT = 0.0

#: op -> bound in ulps of the result class (round-to-nearest is 0.5 ulp;
#: the value counts both the device's and the reference's rounding)
ULPS: dict[str, float] = {
    # arithmetic
    "plus": 1.0, "minus": 1.0, "times": 2.0, "rdivide": 1.0, "ldivide": 1.0,
    "uminus": EXACT, "abs": EXACT, "power": 8.0,
    # rounding and sign: exact
    "floor": EXACT, "ceil": EXACT, "round": EXACT, "fix": EXACT, "sign": EXACT,
    "real": EXACT, "imag": EXACT, "conj": EXACT,
    "max": EXACT, "min": EXACT,
    # remainders: exact in the quotient's exact range; near-integer
    # quotients may differ by one rounding of a / b
    "mod": 2.0, "rem": 2.0,
    # transcendentals
    "sqrt": 1.0, "exp": 4.0, "log": 4.0, "expm1": 4.0, "log1p": 4.0,
    "sin": 4.0, "cos": 4.0, "tan": 6.0, "atan": 4.0, "tanh": 4.0,
    "atan2": 4.0, "hypot": 2.0,
    # reductions: plus the reduced length (``ACCUMULATING``)
    "sum": 1.0, "mean": 2.0, "prod": 2.0, "cumsum": 1.0, "cumprod": 2.0,
    "cummax": EXACT, "cummin": EXACT,
    # convolution: a sum per output (CUDA may use an FFT for long ones)
    "conv": 1.0,
    # class conversions round once
    "double": EXACT, "single": 1.0,
}

#: reductions whose rounding error grows with the number of terms
ACCUMULATING = frozenset({"sum", "mean", "prod", "cumsum", "cumprod", "conv"})

#: operations whose absolute error is relative to their operands, not result
CANCELLING = frozenset({"plus", "minus", "sum", "mean", "cumsum", "mod", "rem"})

#: periodic functions: an error in a computed argument passes to the result
#: as an absolute error of the argument's size (``sin(expm1(3))`` turns
#: expm1's last-bit error at 19.09 into 80 ulps of the result 0.234), so
#: when another operation computed their argument they cancel like ``mod``
PERIODIC = frozenset({"sin", "cos", "tan"})


def cancels(ops: list[str]) -> bool:
    """Whether the bound scales with the inputs' magnitude (see CANCELLING,
    PERIODIC): a cancelling op, or a periodic one next to an operation that
    may not be exact (which may have computed its argument; the casts round
    the same way on both sides)."""
    if any(op in CANCELLING for op in ops):
        return True
    return any(op in PERIODIC for op in ops) and any(
        op not in PERIODIC and op not in ("single", "double") and ULPS.get(op, 1.0) > 0.5
        for op in ops)

#: single-precision results computed by f32 device code carry this many
#: extra ulps per transcendental (f32math is 2-4 ulp; NumPy's float32 ~1)
F32_EXTRA = 4.0


#: single ``x.^y`` with a non-integer exponent is the driver's
#: ``exp2(y * log2(x))``: its error grows with the result's binary exponent
#: (about 0.35 ulp per octave of the result, taken as 2)
SINGLE_POWER_ULPS_PER_OCTAVE = 2.0


#: ops whose bound differs when an input is complex: ``abs`` is then a
#: hypot (NumPy, CuPy and the WGSL library are each within one ulp)
COMPLEX_ULPS: dict[str, float] = {"abs": 2.0}


def ulps_of(ops: list[str], reduced_length: int, single: bool,
            complex_inputs: bool = False) -> float:
    """Total bound (ulps) of an expression using ``ops`` (with repeats)."""
    table = {**ULPS, **COMPLEX_ULPS} if complex_inputs else ULPS
    total = sum(table.get(op, 4.0) for op in ops)
    if any(op in ACCUMULATING for op in ops):
        total += max(reduced_length, 1)
    if single:
        total += F32_EXTRA * sum(1 for op in ops if ULPS.get(op, 0.0) >= 4.0)
    return max(total, 0.0)
