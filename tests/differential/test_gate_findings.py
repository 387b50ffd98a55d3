"""Programs the differential gate found (seeds 20261128-20261130), kept as named
examples: each runs in every execution mode of the provider under test and
must agree with the host."""

from __future__ import annotations

import numpy as np
import pytest

from tests.differential.programs import Expr, Program, ops_in
from tests.differential.test_differential_gate import check_program
from tests.differential.runner import REFERENCE, run


def _program(inputs: dict[str, np.ndarray], *sources: str) -> Program:
    return Program(inputs, [Expr(src, ops_in(src)) for src in sources])


EXAMPLES: dict[str, Program] = {
    # a periodic function of a computed argument: the argument's last-bit
    # error becomes an absolute error of its size (the bound cancels)
    "sin_of_expm1_single": _program({"x1": np.array([[0.37719066]])}, "sin(expm1(single(3)))"),
    # the product of one complex element is that element (NumPy's 1+0i
    # times it made the NaN real part spill into the imaginary one)
    "prod_of_one_complex_with_nan": _program(
        {"x1": np.array([[0.3771906632801799 - 0.2642097265826038j]])}, "prod((NaN) + (x1))"),
    # a double result cast from single work is bounded in single's ulps
    "double_of_complex_single_sqrt": _program(
        {"x1": np.array([[-3.796264410018921 - 1.4869985580444336j]], dtype=np.complex64)},
        "double(sqrt(x1))"),
    # a logical operator converts its operands left to right: the complex
    # left operand's error comes before the NaN of the right one
    "and_of_complex_then_nan": _program(
        {"x1": np.array([[complex(np.nan, np.nan)]]),
         "x2": np.array([[0.3771906632801799 - 0.2642097265826038j]])}, "(x2) & (x1)"),
    # a divisor near the largest single: its reciprocal is subnormal, which
    # NVIDIA's Vulkan flushes to 0 (mod(x, x) gave x there)
    "mod_by_a_divisor_near_realmax_single": _program(
        {"x1": np.array([[-3e38, 3.4e38, -2e38]], dtype=np.float32)},
        "mod(x1, x1)", "rem(x1, x1)", "mod(single(1e30), x1)", "rem(x1, single(-1.5e38))"),
    # the same flushed reciprocal in single atan2 (gave -pi for atan2(x, x))
    "atan2_near_realmax_single": _program(
        {"x1": np.array([[-3e38, 3.4e38, -2e38]], dtype=np.float32)},
        "atan2(x1, x1)", "atan2(x1, single(1))", "atan2(single(Inf), x1)", "atan2(x1, -x1)"),
    # and in single division, hypot and complex abs by huge values
    "division_by_values_near_realmax_single": _program(
        {"x1": np.array([[-3e38, 3.4e38, -2e38]], dtype=np.float32)},
        "x1 ./ x1", "x1 .\\ (x1 * 0.5)", "hypot(x1, x1 * 0.5)", "abs(complex(x1, x1 * 0.5))"),
    # seed 20261129: subnormal singles are true (NVIDIA's Vulkan flushed them
    # in the comparison with zero)
    "logical_of_subnormal_singles": _program(
        {"x1": np.array([[1.0, 1e7, 1e20, 1.401298464324817e-45, 9.99994610111476e-41]], dtype=np.float32)},
        "(x1) & (x1)", "xor(x1, single(0))", "~x1"),
    # seed 20261130: an integer divided by -0 saturates at the opposite sign
    # (x/-0 is -Inf), read from the zero's bits on wgpu
    "integer_division_by_negative_zero": _program(
        {"x1": np.array([[0.3771906632801799, -0.39631458987390566, 1.9212679513298463,
                          0.3147003514591191, -1.607008119483333]])},
        "(int8(x1)) ./ (-0)", "(int8(x1)) ./ (0)", "(-0) .\\ (int16(x1))"),
    # seed 20261130: max/min of an integer and a double convert the double
    # to the integer class first (a NaN becomes 0; max(1000, uint8(1)) is 255)
    "integer_max_min_with_a_double": _program(
        {"x1": np.array([[0.3771906632801799, -0.39631458987390566, 1.9212679513298463,
                          0.3147003514591191, -1.607008119483333]])},
        "max(NaN, int8(x1))", "min(int8(x1), NaN)", "max(uint8(x1), 1000)",
        "min(int16(x1 * 3), x1 * 3)"),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_gate_finding_agrees_with_the_host(name, accel_provider):
    check_program(EXAMPLES[name], accel_provider, f"{name}: ")


def test_product_of_one_complex_element_is_the_element():
    got = run("r1 = prod(x1);", {"x1": np.array([[complex(np.nan, 2.0)]])}, ["r1"], REFERENCE, "host")
    value = complex(np.asarray(got.results["r1"].data).reshape(-1)[0])
    assert np.isnan(value.real) and value.imag == 2.0
