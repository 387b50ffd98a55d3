"""Rounding, mod/rem, idivide, gcd/lcm, bit functions, number theory."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builtins_a_support import call, ints, raises, row, same, text
from hypothesis import given, settings
from hypothesis import strategies as st

values = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False).filter(
    lambda v: v == 0 or abs(v) > 1e-300)  # denormal quotients underflow to -0
divisors = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False).filter(lambda v: abs(v) >= 1e-3)


@settings(max_examples=60, deadline=None)
@given(x=values, y=divisors)
def test_mod_rem_sign_rules(x: float, y: float) -> None:
    m = call("mod", x, y)
    r = call("rem", x, y)
    assert m == 0 or math.copysign(1, m) == math.copysign(1, y)
    assert r == 0 or math.copysign(1, r) == math.copysign(1, x)
    assert abs(m) <= abs(y) and abs(r) <= abs(y)
    arr_m = call("mod", row(x, x), y)
    assert arr_m[0, 0] == m


def test_mod_rem_matlab_examples() -> None:
    same(call("mod", -1.0, 3.0), 2.0)
    same(call("rem", -1.0, 3.0), -1.0)
    same(call("mod", 5.0, 0.0), 5.0)
    same(call("rem", 5.0, 0.0), math.nan)
    same(call("mod", 5.5, 1.1), 0.0)
    same(call("mod", 5.0, -3.0), -1.0)
    same(call("mod", row(-7, 7, 0), 3.0), row(2, 1, 0))
    same(call("rem", row(-7, 7), 3.0), row(-1, 1))
    same(call("mod", ints("int8", -7, 7), ints("int8", 3)), ints("int8", 2, 1))
    same(call("rem", ints("int8", -7, 7), 3.0), ints("int8", -1, 1))
    same(call("mod", ints("int16", 5), 0.0), ints("int16", 5)[:, :1])
    same(call("rem", ints("uint8", 5), 0.0), ints("uint8", 0))
    same(call("mod", ints("int64", -(2 ** 62) - 1), ints("int64", 2 ** 62)), ints("int64", 2 ** 62 - 1))
    raises("MATLAB:mixedClasses", "mod", ints("int8", 1), ints("int16", 2))


def test_rounding() -> None:
    same(call("round", 2.5), 3.0)
    same(call("round", -2.5), -3.0)
    same(call("round", 0.49999999999999994), 0.0)
    same(call("round", row(-1.5, 1.5, 2.4)), row(-2, 2, 2))
    same(call("round", math.pi, 2.0), 3.14)
    same(call("round", 1234.5, -2.0), 1200.0)
    same(call("round", 123456.0, 2.0, text("significant")), 120000.0)
    same(call("round", 0.012345, 3.0, text("significant")), 0.0123)
    same(call("floor", -0.5), -1.0)
    same(call("ceil", row(-0.5, 0.2)), row(-0.0, 1))
    same(call("fix", row(-2.7, 2.7)), row(-2, 2))
    same(call("floor", ints("int8", 5)), ints("int8", 5))
    same(call("floor", True), 1.0)
    same(call("round", np.array([[2.5 - 1.5j]])), np.array([[3 - 2j]]))
    raises("MATLAB:round:InvalidType", "round", 1.0, 1.0, text("bogus"))


def test_idivide() -> None:
    a = ints("int32", 7, -7)
    same(call("idivide", a, ints("int32", 2)), ints("int32", 3, -3))
    same(call("idivide", a, ints("int32", 2), text("floor")), ints("int32", 3, -4))
    same(call("idivide", a, ints("int32", 2), text("ceil")), ints("int32", 4, -3))
    same(call("idivide", a, ints("int32", 2), text("round")), ints("int32", 4, -4))
    same(call("idivide", a, ints("int32", 0)), ints("int32", 2147483647, -2147483648))
    same(call("idivide", ints("int64", 7), 2.0), ints("int64", 3))
    raises("MATLAB:idivide:noIntegerInput", "idivide", 7.0, 2.0)


def test_gcd_lcm() -> None:
    same(call("gcd", 12.0, -18.0), 6.0)
    same(call("gcd", row(12, 7), 4.0), row(4, 1))
    same(call("lcm", 4.0, 6.0), 12.0)
    same(call("gcd", ints("int8", 4), 6.0), ints("int8", 2))
    raises("MATLAB:gcd:NonIntegerInput", "gcd", 1.5, 2.0)


def test_bit_functions() -> None:
    same(call("bitand", 12.0, 10.0), 8.0)
    same(call("bitor", 12.0, 10.0), 14.0)
    same(call("bitxor", 12.0, 10.0), 6.0)
    same(call("bitshift", 1.0, 3.0), 8.0)
    same(call("bitshift", 8.0, -2.0), 2.0)
    same(call("bitand", ints("uint8", 255, 15), ints("uint8", 15)), ints("uint8", 15, 15))
    same(call("bitcmp", ints("uint8", 0)), ints("uint8", 255))
    same(call("bitcmp", 0.0, text("uint8")), 255.0)
    same(call("bitshift", ints("uint8", 255), 1.0), ints("uint8", 254))
    raises("MATLAB:bitand:outOfRange", "bitand", -1.0, 1.0)


def test_bit_functions_with_an_assumed_type() -> None:
    same(call("bitshift", 255.0, 1.0, text("uint8")), 254.0)
    same(call("bitshift", -8.0, -1.0, text("int8")), -4.0)
    same(call("bitand", -1.0, 5.0, text("int8")), 5.0)
    same(call("bitor", 200.0, 100.0, text("uint8")), 236.0)
    same(call("bitget", -1.0, 8.0, text("int8")), 1.0)
    same(call("bitset", 0.0, 8.0, text("uint8")), 128.0)
    same(call("bitset", 0.0, 8.0, 1.0, text("int8")), -128.0)
    raises("MATLAB:bitshift:outOfRange", "bitshift", 300.0, 1.0, text("uint8"))
    raises("MATLAB:bitget:outOfRange", "bitget", 1.0, 9.0, text("uint8"))


def test_number_theory() -> None:
    same(call("factorial", row(0, 5, 171)), row(1, 120, math.inf))
    same(call("factorial", ints("uint8", 6)), ints("uint8", 255))
    raises("MATLAB:factorial:NNegativeInteger", "factorial", -1.0)
    same(call("nchoosek", 5.0, 2.0), 10.0)
    same(call("nchoosek", row(1, 2, 3, 4), 2.0),
         np.array([[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]], dtype=np.float64))
    same(call("nchoosek", text("abc"), 2.0), np.array([["a", "b"], ["a", "c"], ["b", "c"]]))
    raises("MATLAB:nchoosek:KOutOfRange", "nchoosek", 3.0, 4.0)
    same(call("primes", 20.0), row(2, 3, 5, 7, 11, 13, 17, 19))
    assert call("primes", 1.0).shape == (1, 0)
    assert call("primes", ints("int8", 10)).dtype == np.int8
    same(call("isprime", row(0, 1, 2, 9, 97)), np.array([[False, False, True, False, True]]))
    raises("MATLAB:isprime:InputNotPosInt", "isprime", -3.0)


@pytest.mark.parametrize("name", ["mod", "rem", "floor", "abs", "round"])
def test_hot_scalar_paths_return_floats(name: str) -> None:
    args = (7.0, 3.0) if name in ("mod", "rem") else (-7.5,)
    assert type(call(name, *args)) is float


@pytest.mark.parametrize("x,y", [(1e300, 17.0), (3.45584192064786e152, 89.0), (1e17 + 1, 7.0),
                                 (-1e300, 17.0), (2.0 ** 60, -3.0)])
def test_mod_rem_of_huge_whole_numbers_are_the_same_for_scalars_and_arrays(x: float, y: float) -> None:
    """Past 2^53 a scalar takes MATLAB's ``a - m*floor(a/m)`` as an array
    does (MATLAB Answers 9959: ``mod(1.3447e236, 345)`` is 0), not fmod's
    exact remainder."""
    for name in ("mod", "rem"):
        scalar = call(name, x, y)
        array = call(name, row(x, 5.0), y)
        assert scalar == array[0, 0], (name, x, y, scalar, array)
