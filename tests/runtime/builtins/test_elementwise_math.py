"""Elementwise math: exp/log/roots/trig/special functions, classes, domains."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.special as sp
from builtins_a_support import call, ints, raises, row, same, text
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
small_arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, max_side=4), elements=finite)
positive_arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=4),
                             elements=st.floats(1e-3, 1e3))

UNARY_REFERENCE = {
    "exp": np.exp, "expm1": np.expm1, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "abs": np.abs, "sign": np.sign, "floor": np.floor,
    "ceil": np.ceil, "fix": np.trunc, "erf": sp.erf, "erfc": sp.erfc,
    "deg2rad": np.deg2rad, "rad2deg": np.rad2deg,
}


@pytest.mark.parametrize("name", sorted(UNARY_REFERENCE))
@settings(max_examples=15, deadline=None)
@given(arr=small_arrays)
def test_unary_matches_numpy(name: str, arr: np.ndarray) -> None:
    expected = UNARY_REFERENCE[name](arr)
    got = call(name, arr)
    np.testing.assert_allclose(np.asarray(got).reshape(expected.shape), expected, rtol=1e-12)


@pytest.mark.parametrize("name,ref", [("log", np.log), ("log2", np.log2), ("log10", np.log10),
                                      ("sqrt", np.sqrt), ("log1p", np.log1p), ("gammaln", sp.gammaln)])
@settings(max_examples=15, deadline=None)
@given(arr=positive_arrays)
def test_positive_domain_matches_numpy(name: str, ref, arr: np.ndarray) -> None:
    got = call(name, arr)
    np.testing.assert_allclose(np.asarray(got).reshape(arr.shape), ref(arr), rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(x=finite)
def test_scalar_fast_path_agrees_with_array_path(x: float) -> None:
    for name in ("exp", "sin", "cos", "abs", "floor", "round", "sqrt", "atan", "tanh"):
        fast = call(name, x)
        slow = call(name, np.array([[x, x]]))
        if isinstance(fast, float):
            assert type(fast) is float
            np.testing.assert_allclose(fast, slow[0, 0], rtol=1e-15)
        else:
            np.testing.assert_allclose(fast.reshape(-1)[0], slow[0, 0], rtol=1e-15)


def test_complex_domain_promotion() -> None:
    same(call("sqrt", -4.0), np.array([[2j]]))
    np.testing.assert_allclose(call("log", -1.0), [[math.pi * 1j]])
    np.testing.assert_allclose(call("asin", 2.0), [[math.pi / 2 - 1.3169578969248166j]])
    np.testing.assert_allclose(call("asin", -2.0), [[-math.pi / 2 + 1.3169578969248166j]])
    np.testing.assert_allclose(call("acos", 2.0), [[1.3169578969248166j]])
    np.testing.assert_allclose(call("acos", -2.0), [[math.pi - 1.3169578969248166j]])
    np.testing.assert_allclose(call("acosh", 0.5), [[1.0471975511965976j]])
    np.testing.assert_allclose(call("atanh", 2.0), [[0.5493061443340549 + math.pi / 2 * 1j]])
    np.testing.assert_allclose(call("log10", -10.0), [[1 + 1.3643763538418414j]])
    np.testing.assert_allclose(call("log2", -8.0), [[3 + 4.532360141827194j]])
    # Only the out-of-domain elements carry imaginary parts.
    got = call("sqrt", row(4, -9))
    np.testing.assert_allclose(got, [[2, 3j]])


def test_real_results_stay_real_and_scalars_are_floats() -> None:
    same(call("sqrt", 4.0), 2.0)
    same(call("exp", 0.0), 1.0)
    same(call("log", 0.0), -math.inf)
    same(call("exp", 1000.0), math.inf)
    same(call("sqrt", math.inf), math.inf)
    same(call("sin", math.inf), math.nan)
    same(call("abs", -3.0), 3.0)
    same(call("sign", -0.0), 0.0)
    # Complex input whose result has zero imaginary parts comes back real.
    same(call("abs", np.array([[3 + 4j]])), 5.0)


def test_class_rules() -> None:
    single = np.array([[1, 4]], dtype=np.float32)
    assert call("sqrt", single).dtype == np.float32
    assert call("exp", single).dtype == np.float32
    same(call("sqrt", True), 1.0)
    same(call("sqrt", text("d")), 10.0)
    same(call("abs", ints("int8", -128, 5)), ints("int8", 127, 5))
    same(call("sign", ints("int16", -7, 0, 3)), ints("int16", -1, 0, 1))
    same(call("abs", text("a")), 97.0)


@pytest.mark.parametrize("name", ["sqrt", "exp", "sin", "log", "atan", "gamma", "erf"])
def test_integer_inputs_are_rejected(name: str) -> None:
    raises("MATLAB:UndefinedFunction", name, ints("int32", 4),
           message=f"Check for incorrect argument data type or missing argument in call to function '{name}'.")


def test_cell_input_is_rejected() -> None:
    from matfuse.runtime.values import CellArray

    err = raises("MATLAB:UndefinedFunction", "exp", CellArray.from_list([1.0]))
    assert "cell" in err.message


def test_wrong_argument_count() -> None:
    raises("MATLAB:minrhs", "exp", named=False)
    raises("MATLAB:TooManyInputs", "sin", 1.0, 2.0, named=False)


def test_log2_two_outputs() -> None:
    f, e = call("log2", row(8, 0.3, 0, -3), nargout=2)
    np.testing.assert_array_equal(f, [[0.5, 0.6, 0, -0.75]])
    np.testing.assert_array_equal(e, [[4, -1, 0, 2]])


def test_pow2_nthroot_hypot_realsqrt() -> None:
    same(call("pow2", 3.0), 8.0)
    same(call("pow2", 0.75, 2.0), 3.0)
    same(call("nthroot", -27.0, 3.0), -3.0)
    same(call("nthroot", 81.0, 4.0), 3.0)
    raises("MATLAB:nthroot:NegXNotOddIntegerN", "nthroot", -16.0, 4.0)
    same(call("hypot", 3.0, 4.0), 5.0)
    same(call("hypot", row(3, 5), 4.0), row(5, math.hypot(5, 4)))
    same(call("realsqrt", 9.0), 3.0)
    raises("MATLAB:realsqrt:complexResult", "realsqrt", -1.0)


def test_degree_functions_are_exact() -> None:
    same(call("sind", row(0, 90, 180, 270, 360, -180, 720)), row(0, 1, 0, -1, 0, 0, 0))
    same(call("cosd", row(0, 90, 180, 270, -90)), row(1, 0, -1, 0, 0))
    np.testing.assert_allclose(call("sind", row(30, 45)), [[0.5, math.sqrt(0.5)]], rtol=1e-15)
    got = call("tand", row(0, 45, 90, -90))
    assert got[0, 0] == 0 and got[0, 1] == 1 and got[0, 2] == math.inf and got[0, 3] == -math.inf
    np.testing.assert_allclose(call("asind", 0.5), 30.0)
    np.testing.assert_allclose(call("acosd", 0.5), 60.0)
    same(call("atand", 1.0), 45.0)


def test_atan2_and_errors() -> None:
    same(call("atan2", 1.0, -1.0), 3 * math.pi / 4)
    np.testing.assert_allclose(call("atan2", row(1, -1), row(0, 0)), [[math.pi / 2, -math.pi / 2]])
    raises("MATLAB:sizeDimensionsMustMatch", "atan2", row(1, 2), row(1, 2, 3))


def test_special_functions() -> None:
    same(call("gamma", 5.0), 24.0)
    same(call("gamma", row(0, -1, 0.5)), row(math.inf, math.inf, math.sqrt(math.pi)))
    np.testing.assert_allclose(call("gammaln", 10.0), math.lgamma(10.0))
    same(call("erfinv", row(0, 1, -1, 2)), row(0, math.inf, -math.inf, math.nan))
    np.testing.assert_allclose(call("erfcinv", 1.0), 0.0)
    np.testing.assert_allclose(call("beta", 2.0, 3.0), 1 / 12)


def test_complex_parts() -> None:
    z = np.array([[3 + 4j, -1 - 1j]])
    same(call("real", z), row(3, -1))
    same(call("imag", z), row(4, -1))
    same(call("conj", z), np.array([[3 - 4j, -1 + 1j]]))
    np.testing.assert_allclose(call("angle", z), [[math.atan2(4, 3), -3 * math.pi / 4]])
    same(call("angle", -2.0), math.pi)
    c = call("complex", 1.0, 0.0)
    assert c.dtype == np.complex128 and c.shape == (1, 1)
    same(call("complex", row(1, 2), 3.0), np.array([[1 + 3j, 2 + 3j]]))
    same(call("imag", 5.0), 0.0)


def test_isnan_isinf_isfinite() -> None:
    x = row(1, math.nan, math.inf, -math.inf)
    same(call("isnan", x), np.array([[False, True, False, False]]))
    same(call("isinf", x), np.array([[False, False, True, True]]))
    same(call("isfinite", x), np.array([[True, False, False, False]]))
    same(call("isnan", math.nan), True)
    same(call("isfinite", ints("int8", 1, 2)), np.array([[True, True]]))
    same(call("isnan", text("ab")), np.array([[False, False]]))
