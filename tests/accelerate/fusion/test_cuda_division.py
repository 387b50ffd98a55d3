"""Bit-exactness of the CUDA renderer's division by a uniform divisor
(``fusion/cuda_division.py``) against NumPy, on the CPU through g++.

For single precision the fast path is checked exhaustively for each divisor:
every significand of the dividend in one binade (the algorithm commutes with
scaling by powers of two while no intermediate under/overflows, so one binade
covers every quotient significand), plus random bit patterns over all
exponents and signs (subnormals, zeros, inf, NaN included). Double precision
gets random bit patterns and constructed hard cases: dividends whose quotient
lies within 2^-2p relative of a rounding midpoint.
"""

from __future__ import annotations

import ctypes
import hashlib
import subprocess

import numpy as np
import pytest

from matfuse.accelerate.fusion.cuda_division import division_source
from tests.accelerate import cuda_host

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")

DIVISORS = [10.0, 4.0, 3.0, 7.0, 0.1, 1 / 3, 1e-30, 3e38, 1e-40, np.inf, -np.inf, np.nan,
            0.0, -0.0, 2.0 ** -126, 2.0 ** 127, -10.0, 0.7, 1.5, 1e30, 2.0 ** 126, 2.0 ** -100]

_DRIVER = r"""
extern "C" unsigned int mf_test_div_f32(const float* a, float* out, unsigned int n, float d) {
  const mf_divisor_f32 s = mf_div_setup_f32(d);
  unsigned int fast = 0u;
  for (unsigned int i = 0u; i < n; ++i) {
    out[i] = mf_div_f32(a[i], s);
    const double q = (double)a[i] * s.r;   // fast: the quotient is not in the subnormal range
    fast += (s.p2 || !(fabs(q) < __longlong_as_double(0x3810000000000000LL) && q != 0.0)) ? 1u : 0u;
  }
  return fast;
}
extern "C" unsigned int mf_test_div_f64(const double* a, double* out, unsigned int n, double d) {
  const mf_divisor_f64 s = mf_div_setup_f64(d);
  unsigned int fast = 0u;
  for (unsigned int i = 0u; i < n; ++i) {
    out[i] = mf_div_f64(a[i], s);
    const double m = fabs(a[i]);
    fast += (m >= s.lo && m <= s.hi) ? 1u : 0u;
  }
  return fast;
}
"""


@pytest.fixture(scope="module")
def lib():
    source = cuda_host.PRELUDE + division_source({"f32", "f64"}) + _DRIVER
    key = hashlib.sha256(source.encode()).hexdigest()[:20]
    build = cuda_host.build_dir()
    src, so = build / f"div_{key}.cpp", build / f"div_{key}.so"
    if not so.exists():
        src.write_text(source)
        # -O2 (still IEEE: no fast-math, no contraction) for the exhaustive loops
        subprocess.run(["g++", "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-pthread",
                        "-o", str(so), str(src)], check=True, capture_output=True, text=True)
    handle = ctypes.CDLL(str(so))
    for name, ct in (("mf_test_div_f32", ctypes.c_float), ("mf_test_div_f64", ctypes.c_double)):
        fn = getattr(handle, name)
        fn.restype = ctypes.c_uint
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ct]
    return handle


def divide(lib, a: np.ndarray, d: float) -> tuple[np.ndarray, int]:
    out = np.empty_like(a)
    fn = lib.mf_test_div_f32 if a.dtype == np.float32 else lib.mf_test_div_f64
    fast = fn(a.ctypes.data, out.ctypes.data, a.size, float(a.dtype.type(d)))
    return out, fast


def assert_bit_exact(a: np.ndarray, got: np.ndarray, d: float) -> None:
    with np.errstate(all="ignore"):
        want = a / a.dtype.type(d)
    ints = np.uint32 if a.dtype == np.float32 else np.uint64
    same = (got.view(ints) == want.view(ints)) | (np.isnan(got) & np.isnan(want))
    if not same.all():
        k = int(np.flatnonzero(~same)[0])
        raise AssertionError(f"{(~same).sum()} differ for d={d!r}: a={a[k]!r} got {got[k]!r} want {want[k]!r}")


def random_bits(n: int, dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ints = np.uint32 if dtype == np.float32 else np.uint64
    bits = rng.integers(0, np.iinfo(ints).max, size=n, dtype=ints, endpoint=True)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0,
                         np.finfo(dtype).tiny, np.finfo(dtype).max, np.finfo(dtype).smallest_subnormal,
                         -np.finfo(dtype).max, 3.0, 10.0, 0.1], dtype=dtype)
    return np.concatenate([bits.view(dtype), specials])


@pytest.mark.parametrize("d", DIVISORS)
def test_single_exhaustive_binade_and_random(lib, d):
    # every significand, dividends in [1, 2) and [-2^40, -2^39) (and ~1M random bit patterns)
    mant = np.arange(1 << 23, dtype=np.uint32)
    for top in (np.uint32(127 << 23), np.uint32((1 << 31) | ((127 + 39) << 23))):
        a = (mant | top).view(np.float32)
        got, fast = divide(lib, a, d)
        assert_bit_exact(a, got, d)
        if np.isfinite(np.float32(d)) and 2.0 ** -60 < abs(np.float32(d)) < 2.0 ** 39:
            assert fast == a.size          # the fast path was the one checked
    a = random_bits(1 << 20, np.float32, seed=hash(d) & 0xFFFF)
    got, fast = divide(lib, a, d)
    assert_bit_exact(a, got, d)


def test_single_random_divisors_exhaustive(lib):
    rng = np.random.default_rng(7)
    mant = np.arange(1 << 23, dtype=np.uint32)
    a = (mant | np.uint32(127 << 23)).view(np.float32)
    for bits in rng.integers(0, 1 << 23, size=6, dtype=np.uint32):
        d = float((bits | np.uint32(130 << 23)).view(np.float32))
        got, fast = divide(lib, a, d)
        assert fast == a.size
        assert_bit_exact(a, got, d)


def midpoint_dividends(d: float, p: int, count: int, seed: int) -> list[float]:
    """Dividends ``a`` (p-bit floats) with ``a/d`` within ~2^-2p relative of
    a midpoint between two p-bit floats: the hardest cases to round."""
    m, e = np.frexp(d)
    mant = int(np.ldexp(m, p))                  # d = mant * 2^(e - p)
    odd = mant
    while odd % 2 == 0:
        odd //= 2
    inv = pow(odd, -1, 1 << (p + 1))
    rng = np.random.default_rng(seed)
    out = []
    for t in range(1, 2 * count, 2):
        for sign_t in (t, -t):
            big = (-sign_t * inv) % (1 << (p + 1))   # midpoint significand M: odd, p+1 bits
            if big < (1 << p):
                continue
            n = big * odd + sign_t                   # = A * 2^s with A of p bits
            s = n.bit_length() - p
            if n % (1 << s):
                continue
            # a / d = (n / odd) * 2^shift = (M + t/odd) * 2^shift: quotients
            # near 2^(-e/2) keep a and a/d inside the fast path's range
            shift = int(rng.integers(-20, 20)) - p - e // 2
            scale = (d / odd)                       # exact: a power of two times sign
            out.append(float(np.ldexp(float(n >> s), s + shift)) * scale)
    return out


@pytest.mark.parametrize("d", [10.0, 3.0, 7.0, 0.1, 1 / 3, 0.7, 1e300, 1e-300, 1.2345678901234567])
def test_double_random_and_midpoints(lib, d):
    a = random_bits(1 << 20, np.float64, seed=int(abs(np.log2(d)) * 1000) & 0xFFFF)
    got, _ = divide(lib, a, d)
    assert_bit_exact(a, got, d)
    hard = np.array(midpoint_dividends(d, 53, 20000, seed=1), dtype=np.float64)
    assert hard.size > 1000
    got, fast = divide(lib, np.concatenate([hard, -hard]), d)
    assert fast == 2 * hard.size
    assert_bit_exact(np.concatenate([hard, -hard]), got, d)


@pytest.mark.parametrize("d", [10.0, 3.0, 7.0, 0.1, 1 / 3, 0.7])
def test_single_midpoints(lib, d):
    hard = np.array(midpoint_dividends(float(np.float32(d)), 24, 20000, seed=2), dtype=np.float32)
    got, fast = divide(lib, hard, d)
    assert fast == hard.size
    assert_bit_exact(hard, got, d)


@pytest.mark.parametrize("d", [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-310, 2.0 ** -1022, 2.0 ** 1023,
                               1.7e308, 4.0])
def test_double_special_divisors(lib, d):
    a = random_bits(1 << 18, np.float64, seed=3)
    got, _ = divide(lib, a, d)
    assert_bit_exact(a, got, d)


# ------------------------------------------------------------ through the renderer
@pytest.fixture
def host_cuda():
    return cuda_host.HostCudaProvider()


def _materialize(p, root):
    from matfuse.accelerate.fusion.executor import FusionExecutor
    from matfuse.accelerate.fusion.host_eval import evaluate
    from matfuse.accelerate.fusion.render_cuda import CudaRenderer
    from matfuse.runtime.values import to_array

    want = to_array(evaluate(root, lambda h: p.download(h).to_array()))
    got = p.download(FusionExecutor(p, CudaRenderer()).materialize(root)).to_array()
    return got, want


def assert_same_bits(got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Bit for bit, signed zeros included; any NaN matches any NaN (which
    operand's payload a product propagates is the compiler's choice, and
    the GPU gives one canonical NaN)."""
    got, want = np.ascontiguousarray(got), np.ascontiguousarray(want)
    nan = np.isnan(got) & np.isnan(want)
    got, want = np.where(nan, 0, got), np.where(nan, 0, want)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=what)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_kernels_divide_by_uniforms_exactly(host_cuda, dtype):
    """Division by scalars, fills, 1x1 buffers and expressions of them (also
    ``d .\\ a``): the kernel takes the exact uniform path and matches the
    host evaluator bit for bit, specials included."""
    from matfuse.accelerate.fusion import graph as g
    from matfuse.accelerate.fusion.kernel import KernelPlan
    from matfuse.accelerate.fusion.render_cuda import CudaRenderer
    from matfuse.accelerate_api import HostTensor

    np_dtype = np.float32 if dtype == "f32" else np.float64
    a = random_bits(4086, np_dtype, seed=9).reshape(2, -1)
    x = g.input_node(host_cuda.upload(HostTensor.from_array(a)))
    one_by_one = g.input_node(host_cuda.upload(HostTensor.from_array(np.array([[7.0]], dtype=np_dtype))))
    for d in (10.0, 0.1, 3.0, 0.0, -0.0, np.inf, np.nan, 1e-40, 3e38):
        s = g.scalar_node(d, dtype)
        roots = [g.binary_node("div", x, s), g.binary_node("ldiv", s, x),
                 g.binary_node("div", x, g.binary_node("mul", s, g.scalar_node(2.0, dtype))),
                 g.binary_node("div", x, g.fill_node(x.shape, d, dtype))]
        for root in roots:
            got, want = _materialize(host_cuda, root)
            assert got.dtype == want.dtype
            assert_same_bits(got, want, f"{root.op} {d!r}")
    got, want = _materialize(host_cuda, g.binary_node("div", x, one_by_one))
    assert_same_bits(got, want, "1x1 divisor")
    source = CudaRenderer().render(KernelPlan("elementwise", x.shape, [g.binary_node("div", x, one_by_one)])).source
    assert f"mf_div_setup_{dtype}(" in source
    # a varying divisor keeps IEEE `/`
    varying = CudaRenderer().render(KernelPlan("elementwise", x.shape, [g.binary_node("div", one_by_one, x)])).source
    assert "mf_div_" not in varying


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_loop_body_divides_by_uniform_exactly(host_cuda, dtype):
    """S = S / d + 1 in a fused loop: the divisor setup sits before the
    grid-stride loop, the carried value stays bit-exact."""
    from matfuse.accelerate.fusion import graph as g
    from matfuse.accelerate.fusion import loops
    from matfuse.accelerate.fusion.kernel import KernelPlan
    from matfuse.accelerate.fusion.render_cuda import CudaRenderer
    from matfuse.accelerate_api import HostTensor

    np_dtype = np.float32 if dtype == "f32" else np.float64
    start = np.random.default_rng(4).standard_normal((1, 1000)).astype(np_dtype)
    s_var = loops.placeholder(0, (1, 1000), dtype)
    s_new = g.binary_node("add", g.binary_node("div", s_var, g.scalar_node(1.01, dtype)), g.scalar_node(1.0, dtype))
    spec = loops.LoopSpec((s_var,), (s_new,), 23, 0, False)
    init = g.input_node(host_cuda.upload(HostTensor.from_array(start)))
    (out,) = loops.loop_nodes([init], spec)
    source = CudaRenderer().render(KernelPlan("elementwise", out.shape, [out])).source
    assert source.index("mf_div_setup_") < source.index("for (unsigned int i")
    got, want = _materialize(host_cuda, out)
    assert_same_bits(got, want, "loop")
