"""wgpu polyval and conv1d against the NumPy reference (runs on lavapipe)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.providers.numpy_kernels import conv1d as host_conv1d
from matfuse.accelerate_api import HostTensor, Unsupported

_TOL = {"float32": 2e-5, "float64": 1e-12}


def _roundtrip(prov, fn, *arrays):
    handles = [prov.upload(HostTensor.from_array(a)) for a in arrays]
    try:
        out = fn(*handles)
        try:
            return prov.download(out)
        finally:
            prov.free(out)
    finally:
        for h in handles:
            prov.free(h)


def _check(got, want, dtype):
    assert tuple(got.shape) == want.shape
    assert got.data.dtype == np.dtype(dtype)
    np.testing.assert_allclose(np.asarray(got.data).reshape(want.shape, order="F"), want,
                               rtol=_TOL[dtype], atol=_TOL[dtype], equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("xshape", [(0, 0), (1, 1), (1, 7), (5, 1), (4, 3), (2, 3, 4)])
@pytest.mark.parametrize("ncoef", [0, 1, 4])
def test_polyval_matches_numpy(wgpu_provider, dtype, xshape, ncoef):
    rng = np.random.default_rng(ncoef)
    p = rng.standard_normal((1, ncoef)).astype(dtype) if ncoef else np.zeros((1, 0), dtype)
    x = np.asfortranarray(rng.standard_normal(xshape).astype(dtype))
    if x.size > 2:
        x.reshape(-1, order="F")[1] = np.nan
    got = _roundtrip(wgpu_provider, wgpu_provider.polyval, p, x)
    want = np.polyval(p.reshape(-1), x) if ncoef else np.zeros(xshape, dtype)
    _check(got, want.astype(dtype), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("shapes", [((1, 7), (1, 3)), ((6, 1), (4, 1)), ((1, 3), (1, 5)),
                                    ((1, 1), (1, 1)), ((8, 1), (1, 4)), ((1, 300), (1, 17))])
def test_conv1d_matches_numpy(wgpu_provider, dtype, mode, shapes):
    rng = np.random.default_rng(len(mode))
    a = rng.standard_normal(shapes[0]).astype(dtype)
    b = rng.standard_normal(shapes[1]).astype(dtype)
    got = _roundtrip(wgpu_provider, lambda x, y: wgpu_provider.conv1d(x, y, mode), a, b)
    _check(got, host_conv1d(a.astype("float64"), b.astype("float64"), mode).astype(dtype), dtype)


def test_conv1d_nan_propagates(wgpu_provider):
    a = np.array([[1.0, np.nan, 3.0, 4.0]])
    b = np.array([[1.0, 2.0]])
    got = _roundtrip(wgpu_provider, lambda x, y: wgpu_provider.conv1d(x, y, "full"), a, b)
    _check(got, host_conv1d(a, b, "full"), "float64")


def test_mixed_dtypes_and_empty_fall_back_without_leaks(wgpu_provider):
    before = wgpu_provider.live_buffers()
    a = wgpu_provider.upload(HostTensor.from_array(np.ones((1, 3), "float32")))
    b = wgpu_provider.upload(HostTensor.from_array(np.ones((1, 3))))
    e = wgpu_provider.upload(HostTensor.from_array(np.ones((1, 0))))
    try:
        with pytest.raises(Unsupported):
            wgpu_provider.polyval(a, b)
        with pytest.raises(Unsupported):
            wgpu_provider.conv1d(a, b, "full")
        with pytest.raises(Unsupported):
            wgpu_provider.conv1d(b, e, "same")
    finally:
        for h in (a, b, e):
            wgpu_provider.free(h)
    assert wgpu_provider.live_buffers() == before


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("xshape,dim", [((0, 3), 0), ((1, 9), 1), ((9, 1), 0), ((6, 4), 0),
                                        ((6, 4), 1), ((3, 4, 5), 0), ((3, 4, 5), 1),
                                        ((3, 4, 5), 2), ((3, 4), 2)])
@pytest.mark.parametrize("nb,na", [(1, 1), (3, 1), (2, 3), (5, 2)])
def test_filter_matches_scipy(wgpu_provider, dtype, xshape, dim, nb, na):
    from scipy import signal

    rng = np.random.default_rng(nb * 10 + na)
    b = rng.standard_normal((1, nb)).astype(dtype)
    a = np.concatenate([[2.0], 0.2 * rng.standard_normal(na - 1)]).reshape(1, na).astype(dtype)
    x = np.asfortranarray(rng.standard_normal(xshape).astype(dtype))
    if x.size > 4:
        x.reshape(-1, order="F")[3] = np.nan
    got = _roundtrip(wgpu_provider, lambda *h: wgpu_provider.filter(*h, dim), b, a, x)
    bb, aa = b.reshape(-1).astype("float64"), a.reshape(-1).astype("float64")
    want = signal.lfilter(bb / aa[0], aa / aa[0], x.astype("float64"), axis=dim) \
        if x.size and dim < x.ndim else x.astype("float64") * (bb[0] / aa[0])
    _check(got, want.astype(dtype), dtype)


def _sort_roundtrip(prov, x, dim, descending):
    h = prov.upload(HostTensor.from_array(x))
    try:
        v, i = prov.sort(h, dim, descending)
        try:
            return prov.download(v), prov.download(i)
        finally:
            prov.free(v)
            prov.free(i)
    finally:
        prov.free(h)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("xshape,dim", [((0, 3), 0), ((1, 1), 0), ((1, 9), 1), ((9, 1), 0),
                                        ((7, 5), 0), ((7, 5), 1), ((3, 4, 5), 0),
                                        ((3, 4, 5), 1), ((3, 4, 5), 2), ((3, 4), 2),
                                        ((1, 2048), 1), ((300, 2), 0),
                                        # past one workgroup: the multi-pass network
                                        ((2049, 1), 0), ((3, 3000), 1), ((2, 2500, 2), 1)])
def test_sort_matches_reference(wgpu_provider, dtype, descending, xshape, dim):
    from matfuse.accelerate.providers.numpy_kernels import sort as host_sort

    rng = np.random.default_rng(xshape[0])
    # few distinct values so ties exercise stability; some NaN
    x = np.asfortranarray(rng.integers(-3, 4, xshape).astype(dtype))
    flat = x.reshape(-1, order="F")
    flat[::5] = np.nan
    x = flat.reshape(xshape, order="F")
    v, i = _sort_roundtrip(wgpu_provider, x, dim, descending)
    wv, wi = host_sort(x, dim, descending) if dim < x.ndim else (x, np.ones(xshape))
    _check(v, wv, dtype)
    _check(i, wi, "float64")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("inverse", [False, True])
@pytest.mark.parametrize("xshape,dim", [((0, 4), 1), ((1, 1), 0), ((1, 8), 1), ((16, 1), 0),
                                        ((8, 3), 0), ((3, 8), 1), ((2, 4, 8), 0),
                                        ((2, 4, 8), 1), ((2, 4, 8), 2), ((4, 2), 2),
                                        ((1024, 2), 0)])
def test_fft_matches_numpy(wgpu_provider, dtype, inverse, xshape, dim):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(xshape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(xshape)
    x = np.asfortranarray(x.astype(dtype))
    if x.size > 3:
        x.reshape(-1, order="F")[2] = np.nan
    h = wgpu_provider.upload(HostTensor.from_array(x))
    try:
        out = wgpu_provider.fft(h, None, dim, inverse)
        try:
            got = wgpu_provider.download(out)
        finally:
            wgpu_provider.free(out)
    finally:
        wgpu_provider.free(h)
    fn = np.fft.ifft if inverse else np.fft.fft
    want = fn(x.astype("complex128"), axis=dim) if dim < x.ndim else x.astype("complex128")
    cdtype = "complex64" if dtype in ("float32", "complex64") else "complex128"
    tol = 1e-4 if cdtype == "complex64" else 1e-11
    assert tuple(got.shape) == want.shape and got.data.dtype == np.dtype(cdtype)
    np.testing.assert_allclose(np.asarray(got.data).reshape(want.shape, order="F"), want,
                               rtol=tol, atol=tol * 10, equal_nan=True)


@pytest.mark.parametrize("n,length", [(None, 6), (8, 4)])
def test_fft_unsupported_lengths_fall_back(wgpu_provider, n, length):
    before = wgpu_provider.live_buffers()
    h = wgpu_provider.upload(HostTensor.from_array(np.ones((length, 2))))
    try:
        with pytest.raises(Unsupported):
            wgpu_provider.fft(h, n, 0, False)
    finally:
        wgpu_provider.free(h)
    assert wgpu_provider.live_buffers() == before


def test_signal_hooks_leave_no_buffers(wgpu_provider):
    before = wgpu_provider.live_buffers()
    x = np.arange(1.0, 17.0).reshape(4, 4)
    _roundtrip(wgpu_provider, wgpu_provider.polyval, np.array([[1.0, 2.0]]), x)
    _roundtrip(wgpu_provider, lambda a, b: wgpu_provider.conv1d(a, b, "same"),
               x.reshape(1, -1), np.array([[1.0, 2.0]]))
    _roundtrip(wgpu_provider, lambda *h: wgpu_provider.filter(*h, 1), np.array([[1.0]]),
               np.array([[1.0, 0.5]]), x)
    _sort_roundtrip(wgpu_provider, x, 0, True)
    _roundtrip(wgpu_provider, lambda h: wgpu_provider.fft(h, None, 0, False), x)
    assert wgpu_provider.live_buffers() == before
