"""erf, erfc, gamma, gammaln, erfinv and erfcinv in WGSL
(accelerate_api/device_code/wgsl_special_functions.py): the wgpu provider's
kernels agree with SciPy within the documented accuracy, and give MATLAB's
special values exactly (poles, infinities, NaN, exact factorials)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp

from matfuse.accelerate_api import HostTensor

_rng = np.random.default_rng(7)


def _gamma(x: np.ndarray) -> np.ndarray:
    return np.where((x < 0) & (x == np.floor(x)) & np.isfinite(x), np.inf, sp.gamma(x))


# op -> (arguments, reference, f64 bound, f32 bound): relative error where
# the argument and the reference are normal numbers (gammaln: relative to
# max(|gammaln|, 1), an absolute error near its zeros). SciPy's own erfc loses ~x^2 ulps for large x,
# so erfc is checked where that stays small; the f32 bounds are the drivers'
# f32 exp/pow (their error grows with the argument).
CASES = {
    "erf": (np.concatenate([_rng.uniform(-7, 7, 3000), 10.0 ** _rng.uniform(-300, 0, 200)]),
            sp.erf, 1e-15, 4e-7),
    "erfc": (_rng.uniform(-6, 6, 3000), sp.erfc, 4e-15, 2e-5),
    "gamma": (np.concatenate([_rng.uniform(-30, 171, 3000), _rng.uniform(0, 3, 500)]),
              _gamma, 1e-14, 3e-5),
    "gammaln": (np.concatenate([_rng.uniform(-30, 300, 3000), 10.0 ** _rng.uniform(0, 300, 200)]),
                sp.gammaln, 1e-14, 5e-6),
    "erfinv": (np.concatenate([_rng.uniform(-1, 1, 3000), 1 - 10.0 ** _rng.uniform(-15, 0, 300)]),
               sp.erfinv, 2e-15, 4e-7),
    "erfcinv": (np.concatenate([_rng.uniform(0, 2, 3000), 10.0 ** _rng.uniform(-300, 0, 300)]),
                sp.erfcinv, 2e-15, 4e-7),
}
SPECIAL = {
    "erf": ([0, -0.0, np.inf, -np.inf, np.nan, 30], [0, -0.0, 1, -1, np.nan, 1]),
    "erfc": ([0, np.inf, -np.inf, np.nan, 30, -30], [1, 0, 2, np.nan, 0, 2]),
    "gamma": ([0, -0.0, np.inf, -np.inf, np.nan, -1, -2, 1, 2, 5, 11, 171.7],
              [np.inf, -np.inf, np.inf, np.nan, np.nan, np.inf, np.inf, 1, 1, 24, 3628800, np.inf]),
    "gammaln": ([0, -0.0, np.inf, -np.inf, np.nan, -1, 1, 2],
                [np.inf, np.inf, np.inf, -np.inf, np.nan, np.inf, 0, 0]),
    "erfinv": ([0, -0.0, 1, -1, 1.5, -2, np.nan], [0, -0.0, np.inf, -np.inf, np.nan, np.nan, np.nan]),
    "erfcinv": ([0, 2, 1, -1, 3, np.nan], [np.inf, -np.inf, 0, np.nan, np.nan, np.nan]),
}


def _run(p, x: np.ndarray, op: str) -> np.ndarray:
    a = p.upload(HostTensor.from_array(x.reshape(-1, 1)))
    try:
        r = p.elem_unary(op, a, x.dtype.name)
        try:
            return p.download(r).data.ravel()
        finally:
            p.free(r)
    finally:
        p.free(a)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(CASES))
def test_special_function_accuracy(wgpu_provider, op, dtype):
    x, ref, bound64, bound32 = CASES[op]
    x = x.astype(dtype)
    with np.errstate(all="ignore"):
        want = ref(x.astype(np.float64)).astype(dtype).astype(np.float64)
    got = _run(wgpu_provider, x, op).astype(np.float64)
    tiny = np.finfo(dtype).tiny
    normal = np.isfinite(want) & (np.abs(want) >= tiny) & ~((x != 0) & (np.abs(x) < tiny))
    bound = bound64 if dtype == "float64" else bound32
    scale = np.abs(want[normal])
    if op == "gammaln":
        scale = np.maximum(scale, 1.0)   # absolute error near its zeros
    rel = np.abs(got - want)[normal] / scale
    worst = int(np.argmax(rel))
    assert rel[worst] <= bound, f"{op} {dtype}: {rel[worst]:.3g} at x={x[normal][worst]!r}"


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(SPECIAL))
def test_special_values(wgpu_provider, op, dtype):
    x, want = (np.array(v, dtype=dtype) for v in SPECIAL[op])
    got = _run(wgpu_provider, x, op)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got[~np.isnan(got)]), np.signbit(want[~np.isnan(want)]))
