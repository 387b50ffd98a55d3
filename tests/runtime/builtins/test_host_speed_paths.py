"""The host speed paths of the statistics and signal builtins must give what
the general paths give (values bit for bit where the path promises it,
classes, shapes, NaN rules)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from matfuse.runtime._elementwise import _complex_power, arithmetic
from matfuse.runtime import _elementwise as elementwise_module
from matfuse.runtime import _host_threads
from matfuse.runtime import ops as ops_module
from matfuse.runtime.builtins._reduction_args import ReductionArgs
from matfuse.runtime.builtins.fourier import _fft_along, fft
from matfuse.runtime.builtins.histograms import count_in_bins, counts_only, histcounts
from matfuse.runtime.builtins.moving_normalize import zscore
from matfuse.runtime.builtins.signal import _conv2_full, _cut2, conv2_small_kernel, filter_
from matfuse.runtime.builtins.statistics import moments, variance
from matfuse.runtime.ops import binary
from matfuse.runtime.registry import load_all, lookup

def call_builtin(name: str, *args: object) -> object:
    load_all()
    entry = lookup(name)
    assert entry is not None
    return entry.impl(*args)


SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0, -1.0, 2.0, 0.5, -2.5]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("axes, dim_given", [((0,), False), ((1,), True), ((0, 1), True),
                                             (None, True), ((0, 2), True)])
@pytest.mark.parametrize("weight", [0.0, 1.0])
def test_plain_moments_match_weighted_path(dtype: type, order: str, axes: tuple | None,
                                           dim_given: bool, weight: float) -> None:
    rng = np.random.default_rng(7)
    for shape in [(40, 3), (1, 5), (5, 1), (1, 1), (3, 4, 2)]:
        a = np.asarray(rng.standard_normal(shape) * 3 + 1, dtype=dtype, order=order)
        if a.size > 3:
            a.flat[2] = np.nan
        ra = ReductionArgs(axes, False, "default", dim_given)
        v0, m0 = variance(a, weight, ra, "var")
        v1, m1, _ = moments(a, weight, ra, "var")
        assert (v0.dtype, m0.dtype, v0.shape, m0.shape) == (v1.dtype, m1.dtype, v1.shape, m1.shape)
        rtol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(v1, v0, rtol=rtol, atol=1e-12)
        np.testing.assert_allclose(m1, m0, rtol=rtol, atol=1e-12)


def test_zscore_fast_path_matches_formula() -> None:
    x = np.asfortranarray(np.random.default_rng(3).standard_normal((50, 4)))
    x[:, 2] = 5.0                      # constant column: sigma 0, z 0
    x[7, 3] = np.nan
    z, mu, sigma = zscore(x, nargout=3)
    ref_mu = x.mean(axis=0, keepdims=True)
    ref_sigma = x.std(axis=0, ddof=1, keepdims=True)
    np.testing.assert_allclose(mu, ref_mu, rtol=1e-12)
    np.testing.assert_allclose(sigma, ref_sigma, rtol=1e-12, atol=1e-15)
    assert np.all(z[:, 2] == 0) and np.all(np.isnan(z[:, 3]))
    np.testing.assert_allclose(z[:, :2], (x[:, :2] - ref_mu[:, :2]) / ref_sigma[:, :2], rtol=1e-12)
    single = zscore(x[:, :2].astype(np.float32))
    assert single.dtype == np.float32


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, st.integers(0, 40), elements=st.sampled_from(SPECIALS + [1.5, -3.0, 4.0])),
       hnp.arrays(np.float64, st.integers(2, 6), elements=st.sampled_from([-np.inf, -3.0, -1.0, 0.0,
                                                                          1.0, 2.0, 4.0, np.inf])))
def test_counts_only_matches_count_in_bins(x: np.ndarray, edges: np.ndarray) -> None:
    edges = np.sort(edges)
    np.testing.assert_array_equal(counts_only(x, edges), count_in_bins(x, edges)[0])


def test_histcounts_given_edges_chunks() -> None:
    x = np.random.default_rng(1).standard_normal((300_000, 1))
    x[::97] = 4.0                      # the closed last edge
    x[::101] = np.nan
    edges = np.linspace(-4, 4, 17).reshape(1, -1)
    counts, out_edges = histcounts(x, edges, nargout=2)
    np.testing.assert_array_equal(counts, count_in_bins(x.reshape(-1), edges.reshape(-1))[0].reshape(1, -1))
    np.testing.assert_array_equal(out_edges, edges)
    _, _, bins = histcounts(x, edges, nargout=3)   # the index path still answers
    assert bins.shape == x.shape


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("order", ["C", "F"])
def test_conv2_small_kernel_is_bit_identical(dtype: type, order: str) -> None:
    rng = np.random.default_rng(5)
    for _ in range(40):
        a = np.asarray(rng.standard_normal((rng.integers(1, 20), rng.integers(1, 6))), dtype=dtype, order=order)
        b = rng.standard_normal((rng.integers(1, 4), rng.integers(1, 3))).astype(dtype)
        a.flat[0] = np.inf
        for mode in ("full", "same", "valid"):
            got = conv2_small_kernel(a, b, mode)
            ref = _cut2(_conv2_full(a, b), a.shape, b.shape, mode)
            assert got is not None and got.dtype == ref.dtype and got.shape == ref.shape
            np.testing.assert_array_equal(got, ref)


def test_conv2_small_kernel_declines_other_cases() -> None:
    a = np.ones((4, 4))
    assert conv2_small_kernel(a, np.array([[np.inf]]), "same") is None
    assert conv2_small_kernel(a, np.ones((3, 3)), "same") is None        # 9 > SMALL_KERNEL
    assert conv2_small_kernel(a, np.ones((2, 1), dtype=np.float32), "same") is None


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
def test_fft_real_input_and_column_blocks(dtype: type, monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.asarray(np.random.default_rng(2).standard_normal((256, 5)), dtype=dtype)
    ref = np.fft.fft(x.astype(np.result_type(dtype, np.complex64)), axis=0)
    got = fft(x)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
    monkeypatch.setattr(_host_threads, "MIN_PARALLEL_ELEMENTS", 1)
    monkeypatch.setattr(_host_threads, "host_threads", lambda: 3)
    np.testing.assert_array_equal(_fft_along(x, 0), ref)


def test_fft_of_empty_real_is_complex() -> None:
    assert fft(np.zeros((0, 3))).dtype == np.complex128


def test_column_times_row_is_column_major() -> None:
    col = np.arange(1.0, 5.0).reshape(-1, 1)
    row = np.arange(1.0, 4.0).reshape(1, -1)
    for op in ("+", "-", ".*", "./", ".^"):
        out = arithmetic(op, col, row)
        assert out.flags.f_contiguous
        np.testing.assert_array_equal(out, binary(op, col, row))
    c_input = np.ones((4, 3))                      # C-ordered operands keep their order
    assert arithmetic("+", c_input, row).flags.c_contiguous


def test_complex_power_check_matches_elementwise_rule() -> None:
    rng = np.random.default_rng(4)
    for _ in range(500):
        x = rng.choice(SPECIALS, size=(rng.integers(0, 4), 2))
        y = rng.choice(SPECIALS, size=(1, 1))
        for dtype in (np.float32, np.float64):
            xd, yd = x.astype(dtype), y.astype(dtype)
            assert _complex_power(xd, yd) == bool(np.any((xd < 0) & (yd != np.round(yd))))


def test_gram_product_of_a_transpose() -> None:
    x = np.asfortranarray(np.random.default_rng(6).standard_normal((30, 4)))
    np.testing.assert_allclose(binary("*", x.T, x), x.T @ x.copy(), rtol=1e-13)


@pytest.mark.parametrize("order", ["C", "F"])
def test_filter_column_blocks_are_bit_identical(order: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(8)
    x = np.asarray(rng.standard_normal((500, 7)), order=order)
    b, a = rng.random((1, 12)), np.array([[1.0, -0.4]])
    serial = filter_(b, a, x)
    monkeypatch.setattr(_host_threads, "MIN_PARALLEL_ELEMENTS", 1)
    monkeypatch.setattr(_host_threads, "host_threads", lambda: 3)
    parallel = filter_(b, a, x)
    assert parallel.dtype == serial.dtype
    np.testing.assert_array_equal(parallel, serial)
    y, zf = filter_(b, a, x, nargout=2)              # final conditions: the serial path
    np.testing.assert_array_equal(y, serial)
    assert zf.shape == (11, 7)



@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["C", "F"])
def test_elementwise_blocks_are_bit_identical(dtype: type, order: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.asarray(np.random.default_rng(10).standard_normal((301, 77)) * 20, dtype=dtype, order=order)
    base = np.abs(x)
    serial = {"sin": call_builtin("sin", x), "exp": call_builtin("exp", x),
              "pow3": binary(".^", x, 3.0), "pow08": binary(".^", base, 0.8)}
    monkeypatch.setattr(_host_threads, "MIN_ELEMENTWISE", 1)
    monkeypatch.setattr(_host_threads, "_ELEMENTWISE_BLOCK", 64)
    monkeypatch.setattr(_host_threads, "host_threads", lambda: 5)
    monkeypatch.setattr(ops_module, "MIN_ELEMENTWISE", 1)
    monkeypatch.setattr(elementwise_module, "MIN_ELEMENTWISE", 1)
    parallel = {"sin": call_builtin("sin", x), "exp": call_builtin("exp", x),
                "pow3": binary(".^", x, 3.0), "pow08": binary(".^", base, 0.8)}
    for name, want in serial.items():
        got = parallel[name]
        assert got.dtype == want.dtype == dtype and got.shape == want.shape, name
        np.testing.assert_array_equal(got, want)
    assert _host_threads.map_elementwise(np.sin, x) is not None   # the parallel path ran
    negative = binary(".^", -base, 0.5)                            # still complex
    assert negative.dtype.kind == "c"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["C", "F"])
def test_arithmetic_blocks_are_bit_identical(dtype: type, order: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    x = np.asarray(rng.standard_normal((203, 51)), dtype=dtype, order=order)
    y = np.asarray(rng.standard_normal((203, 51)), dtype=dtype, order=order)
    cases = [("+", x, y), ("-", x, y), (".*", x, 2.5), ("./", 2.5, x), ("*", 0.5, x),
             ("/", x, 3.0), ("-", x, 1e300), ("<", x, y)]
    serial = [binary(op, a, b) for op, a, b in cases]
    monkeypatch.setattr(_host_threads, "MIN_PARALLEL_ELEMENTS", 1)
    monkeypatch.setattr(_host_threads, "_ELEMENTWISE_BLOCK", 64)
    monkeypatch.setattr(_host_threads, "host_threads", lambda: 4)
    monkeypatch.setattr(ops_module, "MIN_PARALLEL_ELEMENTS", 1)
    assert _host_threads.map_arithmetic(np.add, x, y) is not None
    assert _host_threads.map_arithmetic(np.add, x, np.asarray(y, order="F" if order == "C" else "C")) is None
    for (op, _a, _b), want in zip(cases, serial):
        got = binary(op, _a, _b)
        assert got.dtype == want.dtype and got.shape == want.shape, op
        np.testing.assert_array_equal(got, want)
