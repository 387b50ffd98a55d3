"""The complex op table and the integer conversion rule: one definition per
operation, every helper an expression calls defined in both dialects' helper
sources, and the CUDA helpers' values on special inputs equal NumPy's (the
in-process provider's), checked by compiling them for the host with g++."""

from __future__ import annotations

import ctypes
import operator
import re

import numpy as np
import pytest

from matfuse.accelerate.providers.wgpu.shaders import complex as wgsl_kernels
from matfuse.accelerate.providers.wgpu.shaders.elementwise import store_expr
from matfuse.accelerate_api.device_code import complex_table, op_table
from matfuse.accelerate_api.device_code.cuda_complex import complex_library as cuda_library
from matfuse.accelerate_api.device_code.wgsl_complex import complex_library as wgsl_library
from tests.accelerate import cuda_host
from tests.accelerate.complex_grid import special_grid, ulp_errors

_CALL = re.compile(r"\b(cx_\w+)\(")


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_every_helper_an_expression_calls_is_defined_in_both_dialects(t):
    wgsl_source, _ = wgsl_library(t)
    cuda_source = cuda_library(t)
    for op in complex_table.OPS.values():
        for dialect, source in (("wgsl", wgsl_source), ("cuda", cuda_source)):
            expr, _ = complex_table.expression(op, dialect, t, t, "INF", "NAN")
            for name in _CALL.findall(expr):
                definition = f"fn {name}(" if dialect == "wgsl" else f" {name}("
                assert definition in source, (op.name, dialect, name)


def test_rounding_of_parts_is_the_real_tables_rule():
    for dialect, t in (("wgsl", "f64"), ("cuda", "f32")):
        expr, helpers = complex_table.expression(complex_table.lookup("round", 1), dialect, t, t, "I", "N")
        real = op_table.expression(op_table.OPS["round"], dialect, t, ["a.x"], t, "I", "N")
        assert real in expr
        assert helpers == op_table.OPS["round"].helper_names(dialect, t)


def test_the_wgsl_kernels_take_the_tables_expression():
    expr, helpers = wgsl_kernels.expression(complex_table.lookup("rdivide", 2), "f64")
    assert expr == "cx_div(a, b)" and "fn cx_div(" in helpers and "fn mf_exp(" in helpers


def test_inverse_functions_are_not_in_the_table():
    for name in ("asin", "acos", "atan", "asinh", "acosh", "atanh"):
        assert complex_table.lookup(name, 1) is None
    assert complex_table.lookup("sin", 1).expr == "cx_sin(a)"


def test_integer_store_of_the_eager_wgsl_kernels_is_the_tables_rule():
    value, _ = op_table.to_integer("r", "int16", "wgsl", "f64", "T")
    assert store_expr("r", "f64", "int16") == f"i32({value})"


# ------------------------------------------------------------------ CUDA helpers on the CPU
_WRAPPERS = """
extern "C" void mf_test_binary(int op, const double* a, const double* b, double* out, int n) {
  for (int i = 0; i < n; ++i) {
    const double2 x = cx_make(a[2 * i], a[2 * i + 1]), y = cx_make(b[2 * i], b[2 * i + 1]);
    const double2 r = op == 0 ? cx_mul(x, y) : cx_div(x, y);
    out[2 * i] = r.x; out[2 * i + 1] = r.y;
  }
}
extern "C" void mf_test_unary(int op, const double* a, double* out, int n) {
  for (int i = 0; i < n; ++i) {
    const double2 x = cx_make(a[2 * i], a[2 * i + 1]);
    double2 r = cx_make(0.0, 0.0);
    if (op == 0) r = cx_make(cx_abs(x), 0.0);
    if (op == 1) r = cx_sign(x);
    if (op == 2) r = cx_sqrt(x);
    if (op == 3) r = cx_exp(x);
    if (op == 4) r = cx_log(x);
    out[2 * i] = r.x; out[2 * i + 1] = r.y;
  }
}
extern "C" void mf_test_to_int8(const double* a, double* out, int n) {
  for (int i = 0; i < n; ++i) { const double x = a[i]; out[i] = TO_INT8; }
}
"""

_PARTS = [0.0, -0.0, 1.0, -2.5, 3.0, np.nan, np.inf, -np.inf, 1e300, -1e-310, 1.5e308]


def _specials() -> np.ndarray:
    re, im = np.meshgrid(_PARTS, _PARTS)
    z = np.empty(re.size, np.complex128)
    z.real, z.imag = re.ravel(), im.ravel()
    return z


@pytest.fixture(scope="module")
def helpers():
    if not cuda_host.gxx_available():
        pytest.skip("g++ not on PATH")
    to_int8, _ = op_table.to_integer("x", "int8", "cuda", "f64", "double")
    return cuda_host.load(cuda_library("f64") + _WRAPPERS.replace("TO_INT8", to_int8))


def _pointer(a: np.ndarray) -> ctypes.c_void_p:
    return ctypes.c_void_p(a.ctypes.data)


@pytest.mark.parametrize("op, numpy_op", [(0, operator.mul), (1, operator.truediv)], ids=["times", "rdivide"])
def test_cuda_products_and_quotients_equal_numpys(helpers, op, numpy_op):
    """Exactly NumPy's formulas (NaN payloads aside), division by a complex
    zero included. The reference is NumPy's scalar arithmetic: its array
    loop contracts the product into fused multiply-adds on CPUs that have
    them (``-2.5 * 1.5e308 + Inf`` is then Inf instead of NaN)."""
    z = _specials()
    a = np.repeat(z, z.size)
    b = np.tile(z, z.size)
    out = np.empty_like(a)
    helpers.mf_test_binary(op, _pointer(a), _pointer(b), _pointer(out), ctypes.c_int(a.size))
    with np.errstate(all="ignore"):
        want = np.array([numpy_op(x, y) for x, y in zip(a, b)])
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("op, name", [(0, "abs"), (1, "sign"), (2, "sqrt"), (3, "exp"), (4, "log")])
def test_cuda_functions_match_numpy(helpers, op, name):
    z = _specials()
    out = np.empty_like(z)
    helpers.mf_test_unary(op, _pointer(z), _pointer(out), ctypes.c_int(z.size))
    with np.errstate(all="ignore"):
        if name == "abs":
            want = np.abs(z) + 0j
        elif name == "sign":
            mag = np.abs(z)
            want = np.where(mag == 0, 0, z / np.where(mag == 0, 1, mag))
        else:
            want = getattr(np, name)(z)
    # the scaled formulas lose a few ulps on subnormal parts
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=0, equal_nan=True)


def test_cuda_integer_conversion_rounds_half_away_and_saturates(helpers):
    x = np.array([0.5, -0.5, 1.5, -2.5, 126.5, 127.4, 200.0, -128.5, -1e300, np.nan, np.inf, -np.inf, -0.0])
    out = np.empty_like(x)
    helpers.mf_test_to_int8(_pointer(x), _pointer(out), ctypes.c_int(x.size))
    from matfuse.accelerate.providers.numpy_kernels import to_integer

    np.testing.assert_array_equal(out, to_integer(x, "int8").astype(np.float64))


# ------------------------------------------------------------------ trigonometry on the CPU
_FUNCTIONS = ("sin", "cos", "tan", "sinh", "cosh", "tanh", "log2", "log10", "expm1", "log1p", "exp", "log")
#: ulps the CUDA helpers may differ from NumPy by (with the host's libm):
#: Kahan's tanh and the products of the parts' functions round a few times;
#: log1p's real part is log(hypot(x + 1, y)) as NumPy writes it, which
#: magnifies one ulp of the hypot (ours scaled, NumPy's libm's) near 1
ULP_BOUND = {"log1p": 8}
DEFAULT_ULP_BOUND = 4


def _function_wrapper(real: str, cx: str) -> str:
    calls = "".join(f"    if (op == {k}) r = cx_{name}(x);\n" for k, name in enumerate(_FUNCTIONS))
    return (f'extern "C" void mf_test_function(int op, const {real}* a, {real}* out, int n) {{\n'
            f"  for (int i = 0; i < n; ++i) {{\n"
            f"    const {cx} x = cx_make(a[2 * i], a[2 * i + 1]);\n    {cx} r = x;\n{calls}"
            f"    out[2 * i] = r.x; out[2 * i + 1] = r.y;\n  }}\n}}\n")


@pytest.fixture(scope="module")
def function_helpers():
    if not cuda_host.gxx_available():
        pytest.skip("g++ not on PATH")
    return {"complex128": cuda_host.load(cuda_library("f64") + _function_wrapper("double", "double2")),
            "complex64": cuda_host.load(cuda_library("f32") + _function_wrapper("float", "float2"))}


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
@pytest.mark.parametrize("name", _FUNCTIONS)
def test_cuda_trigonometry_matches_numpy_within_ulps(function_helpers, dtype, name):
    z = special_grid(dtype)
    out = np.empty_like(z)
    function_helpers[dtype].mf_test_function(_FUNCTIONS.index(name), _pointer(z), _pointer(out),
                                             ctypes.c_int(z.size))
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
    errors = ulp_errors(out, want)
    worst = int(np.argmax(errors))
    assert errors[worst] <= ULP_BOUND.get(name, DEFAULT_ULP_BOUND), (name, z[worst], out[worst], want[worst], errors[worst])
