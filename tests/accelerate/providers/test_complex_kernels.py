"""Complex gpuArrays (interleaved re/im buffers) against the in-process
reference: elementwise kernels of the device code's complex table on wgpu
(lavapipe) and on the CUDA provider (fake CuPy: the generated CUDA C runs on
the CPU through g++) -- arithmetic with implicit expansion, division by
zero, parts/abs/angle/sign, rounding of parts, complex(); and on wgpu
transfer, casts and sum/mean."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate_api import HostTensor, Unsupported
from matfuse.accelerate_api.device_code import complex_table
from tests.accelerate import cuda_host
from tests.accelerate.complex_grid import special_grid, ulp_errors
from tests.accelerate.oracle import (
    BROADCAST_PAIRS,
    REFERENCE,
    SHAPES,
    OracleCase,
    assert_matches,
    run_case,
    tolerance,
)

_CDTYPES = ("complex128", "complex64")
_REAL = {"complex128": "float64", "complex64": "float32"}
_ARITH = ("plus", "minus", "times", "rdivide", "ldivide", "power")


def _cdata(shape: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(shape) * 3 + 1j * rng.standard_normal(shape)
    return z.astype(dtype)


def _specials(dtype: str) -> np.ndarray:
    re = np.array([0.0, 1.0, -2.0, np.nan, np.inf, -np.inf, 0.0, 3.0, np.inf, 1e300])
    im = np.array([0.0, -1.0, np.nan, 0.0, 1.0, np.inf, -0.0, 4.0, np.nan, 1e300])
    z = np.empty(re.shape, dtype=np.complex128)
    z.real, z.imag = re, im   # not re + 1j*im: 1j * inf has a NaN real part
    with np.errstate(over="ignore"):
        return z.reshape(2, 5).astype(dtype)


@pytest.fixture(scope="module", params=["wgpu", "cuda"])
def provider(request, tmp_path_factory):
    """The wgpu provider, then the CUDA provider on the fake CuPy."""
    if request.param == "wgpu":
        yield request.getfixturevalue("wgpu_provider")
        return
    if not cuda_host.gxx_available():
        pytest.skip("g++ not on PATH")
    from tests.accelerate.providers import fake_cupy

    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("complex_cuda")))


def _check(prov, case: OracleCase) -> None:
    assert_matches(run_case(case, prov), run_case(case, REFERENCE), case)


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_upload_download_roundtrip(wgpu_provider, dtype, shape):
    z = _cdata(shape, dtype, 1)
    h = wgpu_provider.upload(HostTensor.from_array(z))
    try:
        back = wgpu_provider.download(h)
        assert back.matlab_class == ("single" if dtype == "complex64" else "double")
        np.testing.assert_array_equal(back.to_array(), z)
    finally:
        wgpu_provider.free(h)


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", _ARITH + ("eq", "ne"))
@pytest.mark.parametrize("shapes", BROADCAST_PAIRS, ids=str)
def test_binary_complex_complex(provider, dtype, op, shapes):
    a, b = _cdata(shapes[0], dtype, 3), _cdata(shapes[1], dtype, 4)
    out = "bool" if op in ("eq", "ne") else dtype
    _check(provider, OracleCase(f"{op}-{dtype}-{shapes}", "elem_binary", [a, b],
                                     call=lambda p, x, y: p.elem_binary(op, x, y, out)))


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", _ARITH)
def test_binary_with_real_and_scalar_operands(provider, dtype, op):
    z = _cdata((3, 4), dtype, 5)
    real = np.random.default_rng(6).standard_normal((1, 4)).astype(_REAL[dtype])
    for inputs, scalar in (([z, real], ()), ([real, z], ()),
                           ([z, np.array([[2.5 - 1.5j]])], (1,)),
                           ([np.array([[-0.5 + 2j]]), z], (0,)),
                           ([real, np.array([[1.0 + 1.0j]])], (1,))):
        case = OracleCase(f"{op}-{dtype}-mixed", "elem_binary", inputs, scalar_operands=scalar,
                          call=lambda p, x, y: p.elem_binary(op, x, y, dtype))
        _check(provider, case)


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", _ARITH)
def test_nan_inf_and_division_by_zero_match_numpy(provider, dtype, op):
    s = _specials(dtype)
    _check(provider, OracleCase(f"specials-{op}-{dtype}", "elem_binary", [s, s[:, ::-1]],
                                     call=lambda p, x, y: p.elem_binary(op, x, y, dtype)))


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", ("uminus", "uplus", "conj", "real", "imag", "abs", "angle", "isnan",
                                "isinf", "isfinite", "exp", "log", "sqrt"))
@pytest.mark.parametrize("shape", SHAPES + ((2, 5),), ids=str)
def test_unary(provider, dtype, op, shape):
    z = _specials(dtype) if shape == (2, 5) else _cdata(shape, dtype, 7)
    out = "bool" if op.startswith("is") else (
        _REAL[dtype] if op in ("real", "imag", "abs", "angle") else dtype)
    _check(provider, OracleCase(f"{op}-{dtype}-{shape}", "elem_unary", [z],
                                     call=lambda p, x: p.elem_unary(op, x, out)))


def test_angle_of_real_input(provider):
    x = np.array([[1.0, -2.0, 0.0, np.nan, -np.inf]])
    _check(provider, OracleCase("angle-real", "elem_unary", [x],
                                     call=lambda p, h: p.elem_unary("angle", h, "float64")))


@pytest.mark.parametrize("dtype", ("float64", "float32"))
@pytest.mark.parametrize("shapes", (((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (1, 1))),
                         ids=str)
def test_complex_from_parts(provider, dtype, shapes):
    rng = np.random.default_rng(9)
    re = rng.standard_normal(shapes[0]).astype(dtype)
    im = rng.standard_normal(shapes[1]).astype(dtype)
    cdt = "complex64" if dtype == "float32" else "complex128"
    ha = provider.upload(HostTensor.from_array(re))
    hb = provider.upload(HostTensor.from_array(im))
    try:
        h = provider.elem_binary("complex", ha, hb, cdt)
        got = provider.download(h).to_array()
        provider.free(h)
    finally:
        provider.free(ha)
        provider.free(hb)
    want = (re + 1j * im).astype(cdt)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("src, dst", [("float64", "complex128"), ("float32", "complex64"),
                                      ("complex128", "complex64"), ("complex64", "complex128"),
                                      ("complex128", "float64"), ("complex64", "float32"),
                                      ("bool", "complex128")])
def test_casts(wgpu_provider, src, dst):
    x = _cdata((3, 4), "complex128", 2)
    x = x.real > 0 if src == "bool" else (x if src.startswith("complex") else x.real).astype(src)
    _check(wgpu_provider, OracleCase(f"cast-{src}-{dst}", "cast", [x], args=(dst,)))


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", ("sum", "mean"))
@pytest.mark.parametrize("shape, dims", [((3, 4), (0,)), ((3, 4), (1,)), ((3, 4), None),
                                         ((2, 3, 4), (1,)), ((2, 3, 4), (0, 2)),
                                         ((2, 3, 4), (2,)), ((1, 5), (1,)), ((0, 3), (0,)),
                                         ((200, 70), (0,))], ids=str)
def test_sum_mean(wgpu_provider, dtype, op, shape, dims):
    z = _cdata(shape, dtype, 11)
    _check(wgpu_provider, OracleCase(f"{op}-{dtype}-{shape}-{dims}", "reduce", [z], lead=(op,),
                                     args=(dims, False, dtype)))


_FUNCTIONS = ("sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh",
              "acosh", "atanh", "expm1", "log1p", "log2", "log10")


def _unary_on_device(prov, op: str, x: np.ndarray, out_dtype: str) -> np.ndarray:
    """``op`` of ``x`` on ``prov``; Unsupported (a host fallback) propagates."""
    h = prov.upload(HostTensor.from_array(x))
    try:
        r = prov.elem_unary(op, h, out_dtype)
        try:
            return prov.download(r).to_array()
        finally:
            prov.free(r)
    finally:
        prov.free(h)


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", _FUNCTIONS)
def test_complex_functions_stay_on_the_device(provider, dtype, op):
    """Every complex function runs on the device: the complex table's
    kernels, or on CUDA CuPy's complex ufuncs for those the table lacks;
    only wgpu leaves the table's gaps to the host."""
    z = _cdata((3, 4), dtype, 13)
    case = OracleCase(f"{op}-{dtype}", "elem_unary", [z], call=lambda p, x: p.elem_unary(op, x, dtype))
    if provider.name == "wgpu" and complex_table.lookup(op, 1) is None:
        with pytest.raises(Unsupported):
            _unary_on_device(provider, op, z, dtype)
        return
    assert_matches([_unary_on_device(provider, op, z, dtype)], run_case(case, REFERENCE), case)


#: ulps the device results may differ from NumPy's on the special grid:
#: f64 (matfuse's own f64 functions on wgpu, the host's libm under the fake
#: CuPy) a few roundings of products of the parts' functions and Kahan's
#: tanh; f32 on wgpu the driver's exp/cosh builtins, about 30 ulps on
#: lavapipe near exp(30); log1p's NumPy formula magnifies one ulp of the
#: hypot near 1 (see test_complex_table)
_ULP_BOUND = {("wgpu", "complex128"): 8, ("wgpu", "complex64"): 48,
              ("cuda", "complex128"): 8, ("cuda", "complex64"): 8}


@pytest.mark.parametrize("dtype", _CDTYPES)
@pytest.mark.parametrize("op", ("sin", "cos", "tan", "sinh", "cosh", "tanh", "log2", "log10", "expm1",
                                "log1p", "exp", "log"))
def test_complex_functions_on_special_values_match_numpy(provider, dtype, op):
    """Zeros, infinities, NaN, tiny, huge and near-pi parts (no subnormal
    parts: lavapipe flushes subnormal singles, and rounds subnormal doubles
    in products) against NumPy, within ``_ULP_BOUND``."""
    z = special_grid(dtype, subnormal=False).reshape(1, -1)
    got = _unary_on_device(provider, op, z, dtype).ravel()
    with np.errstate(all="ignore"):
        want = getattr(np, op)(z.ravel())
    errors = ulp_errors(got, want)
    worst = int(np.argmax(errors))
    bound = _ULP_BOUND[(provider.name, dtype)]
    assert errors[worst] <= bound, (op, z.ravel()[worst], got[worst], want[worst], errors[worst])


def test_complex_function_of_a_real_operand_on_cuda(provider):
    """A real operand whose result MATLAB makes complex (asin of 2)."""
    if provider.name == "wgpu":
        pytest.skip("CUDA path")
    x = np.array([[2.0, -3.0, 0.5]])
    case = OracleCase("asin-real", "elem_unary", [x], call=lambda p, h: p.elem_unary("asin", h, "complex128"))
    assert_matches([_unary_on_device(provider, "asin", x, "complex128")], run_case(case, REFERENCE), case)


@pytest.mark.parametrize("call", [
    lambda p, h: p.elem_unary("asin", h, "complex128"),
    lambda p, h: p.reduce("prod", h, (0,), False, "complex128"),
    lambda p, h: p.reduce("sum", h, (0,), True, "complex128"),
    lambda p, h: p.cast(h, "int32"),
])
def test_other_complex_ops_fall_back_without_leaks(wgpu_provider, call):
    h = wgpu_provider.upload(HostTensor.from_array(_cdata((3, 4), "complex128", 1)))
    before = wgpu_provider.live_buffers()
    try:
        with pytest.raises(Unsupported):
            call(wgpu_provider, h)
        assert wgpu_provider.live_buffers() == before
    finally:
        wgpu_provider.free(h)


def _check_past_overflow(prov, case: OracleCase) -> None:
    """Finite parts as ``_check``; a part NumPy overflows to Inf or NaN need
    only be non-finite too (which of Inf/NaN an overflowed product gives
    depends on whether the driver contracts it into an FMA)."""
    (got,), (want,) = run_case(case, prov), run_case(case, REFERENCE)
    assert got.dtype == want.dtype and got.shape == want.shape, case.id
    rtol, atol = tolerance(want.dtype)
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        np.testing.assert_array_equal(np.isfinite(g), np.isfinite(w), err_msg=case.id)
        finite = np.isfinite(w)
        np.testing.assert_allclose(g[finite], w[finite], rtol=rtol, atol=atol, err_msg=case.id)


@pytest.mark.parametrize("dtype", _CDTYPES)
def test_power_by_integer_exponents_multiplies_as_numpy(provider, dtype):
    z = _cdata((3, 4), dtype, 12)
    for k in (1.0, 2.0, 3.0, -1.0, -2.0, 5.0, 7.0, -13.0, 99.0, 100.0, 0.0, 0.5, -2.5):
        case = OracleCase(f"power-{k}-{dtype}", "elem_binary", [z, np.array([[k]])], scalar_operands=(1,),
                          call=lambda p, x, y: p.elem_binary("power", x, y, dtype))
        _check_past_overflow(provider, case)
    zero = np.zeros((1, 3), dtype)
    exponents = np.array([[2.0 + 0j, -1.0 + 0j, 1j]], dtype)
    _check(provider, OracleCase(f"power-zero-base-{dtype}", "elem_binary", [zero, exponents],
                                call=lambda p, x, y: p.elem_binary("power", x, y, dtype)))


@pytest.mark.parametrize("op", ("lt", "le", "gt", "ge"))
def test_ordering_compares_real_parts(provider, op):
    # MATLAB (and the host runtime) order complex values by their real
    # parts; the in-process provider's NumPy comparison is lexicographic,
    # so the expected values are MATLAB's rule written out
    a = np.array([[1 + 5j, 2 - 1j, 1 + 2j, np.nan + 1j]])
    b = np.array([[1 + 2j, 1 + 9j, 1 + 2j, 0j]])
    h = [provider.upload(HostTensor.from_array(x)) for x in (a, b)]
    got = provider.download(provider.elem_binary(op, h[0], h[1], "bool")).to_array()
    compare = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}[op]
    np.testing.assert_array_equal(got, compare(a.real, b.real))


@pytest.mark.parametrize("op", ("sign", "round", "floor", "ceil", "fix"))
def test_sign_and_rounding_of_parts(provider, op):
    with np.errstate(invalid="ignore"):
        z = _specials("complex128") * 1.5
    _check(provider, OracleCase(f"{op}-complex", "elem_unary", [z], lead=(op,),
                                     args=("complex128",)))


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_real_atan2_specials(wgpu_provider, dtype):
    # angle() and real atan2 share the f32 helper (lavapipe's f32 atan2 maps
    # NaN to 0 and (0, 0) to 3*pi/4)
    y = np.array([[0.0, -0.0, 1.0, np.nan, 1.0, np.inf, -np.inf, 0.0, 2.0, -3.0]], dtype=dtype)
    x = np.array([[0.0, -0.0, np.nan, 1.0, 0.0, np.inf, 1.0, -1.0, -0.0, 5.0]], dtype=dtype)
    _check(wgpu_provider, OracleCase(f"atan2-specials-{dtype}", "elem_binary", [y, x],
                                     call=lambda p, a, b: p.elem_binary("atan2", a, b, dtype)))
