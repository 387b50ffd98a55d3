"""zscore, cov, histcounts, norm and filter on gpuArrays: the CPU's answer
(class, shape, values) computed on the device, with no counted host
fallback; the forms left to the host still fall back, counted.

Run on lavapipe with ``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``; the CUDA
provider's hooks run through the fake CuPy in ``test_device_stats_cuda_fake``.
"""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.dispatcher import call_builtin
from matfuse.runtime.registry import load_all, lookup
from matfuse.runtime.values import char_array
from tests.accelerate import test_device_routing as routing

S = char_array
RNG = np.random.default_rng(11)
A = RNG.standard_normal((40, 5))
COL = RNG.standard_normal((30, 1))
ROW = RNG.standard_normal((1, 25))
CONST = np.hstack([A[:, :2], np.full((40, 1), 3.0)])
NANS = A.copy()
NANS[3, 1] = np.nan
SPECIAL = np.array([[-np.inf, -3.0, -1.0, 0.0, 0.5, 1.0, 1.0, 2.0, np.nan, 7.5, np.inf, 2.0]])


@pytest.fixture(autouse=True)
def _builtins():
    load_all()


def _fn(name: str):
    return lambda *a: routing._call(name, *a)


ZSCORE = [[A], [A, 1.0], [A, 0.0, 2.0], [A, np.zeros((0, 0)), 2.0], [ROW], [COL],
          [CONST], [NANS], [A.astype(np.float32)], [A[:1, :]]]
COV = [([A], (0,)), ([A, 1.0], (0,)), ([COL, COL[::-1] * 2], (0,)), ([COL, COL * 3], (1,)),
       ([ROW], (0,)), ([A.astype(np.float32)], (0,)), ([COL, COL ** 2, 1.0], (0, 1)),
       ([A[:1, :]], (0,)), ([NANS], (0,))]
HIST = [([A, 8.0], (0,)), ([A, np.linspace(-2, 2, 9).reshape(1, -1)], (0,)),
        ([SPECIAL, np.array([[-1.0, 0.0, 1.0, 1.0, 2.0]])], (0,)), ([SPECIAL[:, 1:-2], 4.0], (0,)),
        ([SPECIAL, np.array([[-np.inf, 0.0, np.inf]])], (0,)),
        ([A.astype(np.float32), 16.0], (0,)), ([np.full((5, 1), 2.5), 3.0], (0,)),
        ([COL, 1.0], (0,)), ([np.full((4, 1), np.nan), 5.0], (0,)),
        ([A, np.linspace(-2, 2, 9).reshape(-1, 1)], (0, 1))]
NORM = [[COL], [ROW], [COL, 1.0], [COL, np.inf], [ROW, -np.inf], [COL, 3.0], [COL, 0.5],
        [COL, S("fro")], [COL, S("inf")], [COL * 1e200], [COL * 1e-200], [np.zeros((4, 1))],
        [np.array([[1.0, np.inf, 2.0]])], [np.array([[1.0, np.nan, np.inf]])],
        [np.array([[1.0, np.nan, 2.0]]), np.inf], [np.full((3, 1), np.nan)],
        [A, 1.0], [A, np.inf], [A, S("fro")], [NANS, 1.0], [COL.astype(np.float32)],
        [COL.astype(np.float32) * 1e30], [ROW.astype(np.float32), 1.0]]
FILTER = [[COL[:5], 1.0, A], [np.array([[1.0, 0.5]]), np.array([[1.0, -0.3, 0.1]]), A],
          [COL[:3], 1.0, ROW], [COL[:4].astype(np.float32), np.float32(1.0) * np.ones((1, 1), np.float32),
                                A.astype(np.float32)],
          [COL[:3], 2.0, A, np.zeros((0, 0)), 2.0], [COL[:3], 1.0, NANS],
          # long FIR lines: one thread per output (lavapipe cut off the old
          # one-thread-per-line loop after ~6e4 steps), a NaN reaching 80 outputs
          [RNG.random((80, 1)), 1.0, np.where(RNG.random((4000, 2)) < 1e-3, np.nan, 1.0)
           * RNG.standard_normal((4000, 2))]]


@pytest.mark.parametrize("args", ZSCORE, ids=[f"zscore-{i}" for i in range(len(ZSCORE))])
def test_zscore(device, args):
    routing._run_on_device(device, _fn("zscore"), args, (0,), None)


def test_zscore_three_outputs(device):
    want = call_builtin(lookup("zscore"), [A, 1.0], 3, None)
    reset_fallback_counts()
    got = call_builtin(lookup("zscore"), [routing._dev(A, device), 1.0], 3, None)
    assert fallback_counts() == {}
    for g, w in zip(got, want):
        routing._check_same(g, w, device)


@pytest.mark.parametrize("args,on", COV, ids=[f"cov-{i}" for i in range(len(COV))])
def test_cov(device, args, on):
    routing._run_on_device(device, _fn("cov"), args, on, None)


@pytest.mark.parametrize("args,on", HIST, ids=[f"hist-{i}" for i in range(len(HIST))])
def test_histcounts(device, args, on):
    routing._run_on_device(device, _fn("histcounts"), args, on, "histogram")


def test_histcounts_edges_output(device):
    want = call_builtin(lookup("histcounts"), [A, 7.0], 2, None)
    reset_fallback_counts()
    got = call_builtin(lookup("histcounts"), [routing._dev(A, device), 7.0], 2, None)
    assert fallback_counts() == {}
    for g, w in zip(got, want):
        routing._check_same(g, w, device)


def test_histcounts_large_bin_count(device):
    x = RNG.standard_normal((3000, 1))
    routing._run_on_device(device, _fn("histcounts"), [x, 3000.0], (0,), "histogram")


@pytest.mark.parametrize("args", NORM, ids=[f"norm-{i}" for i in range(len(NORM))])
def test_norm(device, args):
    routing._run_on_device(device, _fn("norm"), args, (0,), None)


@pytest.mark.parametrize("args", FILTER, ids=[f"filter-{i}" for i in range(len(FILTER))])
def test_filter(device, args):
    routing._run_on_device(device, _fn("filter"), args, (2,), "filter")


@pytest.mark.parametrize("name,args", [
    ("norm", [NANS]), ("histcounts", [A, S("BinMethod"), S("fd")]), ("zscore", [A, 0.5]),
    ("cov", [A, S("omitrows")]),
    ("filter", [COL[:3], 1.0, A, np.zeros((2, 5))]), ("histcounts", [SPECIAL, 4.0]),
])
def test_host_forms_fall_back_counted(device, name, args):
    want = routing._call(name, *args)
    reset_fallback_counts()
    got = routing._call(name, routing._dev(args[0], device), *args[1:]) if name != "filter" \
        else routing._call(name, *args[:2], routing._dev(args[2], device), *args[3:])
    assert fallback_counts().get(name) == 1
    host = got.gather() if isinstance(got, GpuArray) else got
    np.testing.assert_allclose(np.asarray(host), np.asarray(want), rtol=1e-9)


def test_complex_indexing_stays_on_device(device):
    """``abs(F(1:n/2, :))`` of signal.m: complex gather (wgpu copies the
    interleaved (re, im) pairs whole)."""
    from matfuse.runtime import indexing

    z = routing.Z
    want = indexing.paren_get(z, [np.arange(1.0, 3.0).reshape(1, -1), S(":")])
    reset_fallback_counts()
    got = indexing.paren_get(routing._dev(z, device), [np.arange(1.0, 3.0).reshape(1, -1), S(":")])
    assert fallback_counts() == {}, fallback_counts()
    routing._check_same(got, want, device)


@pytest.mark.parametrize("rows", [2048, 5000, 40000])
def test_tall_gram_product(device, rows):
    """``X' * X`` with a long inner dimension (cov's product; split-k on wgpu)."""
    from matfuse.runtime import ops

    x = RNG.standard_normal((rows, 17))
    routing._run_on_device(device, lambda a: ops.binary("*", ops.transpose(a), a), [x], (0,),
                           None)
    routing._run_on_device(device, _fn("cov"), [x.astype(np.float32)], (0,), None)


RESHAPES = [[A, 20.0, 10.0], [A, np.array([[10.0, 20.0]])], [A, 5.0, 2.0, 20.0, 1.0],
            [A.astype(np.float32), 200.0, 1.0], [routing.Z, 2.0, 6.0]]


@pytest.mark.parametrize("args", RESHAPES, ids=[f"reshape-{i}" for i in range(len(RESHAPES))])
def test_reshape_copies_without_index(device, args):
    routing._run_on_device(device, _fn("reshape"), args, (0,), "reshape")


@pytest.mark.parametrize("x", [A, routing.Z, A.astype(np.float32) > 0], ids=["real", "cx", "bool"])
def test_colon_all_is_a_reshape(device, x):
    from matfuse.runtime import indexing

    from matfuse.runtime._subscripts import COLON

    for colon in (S(":"), COLON):
        routing._run_on_device(device, lambda a: indexing.paren_get(a, [colon]), [x], (0,),
                               "reshape")
