"""Run a snippet on host data and on gpuArrays: the results must agree in
class, size and values, and the device run must make no host fallback."""

from __future__ import annotations

import io

import numpy as np

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.registry import load_all

SETUP = ("M = reshape(sin(1:30), 5, 6); v = cos(1:10); c = (1:8)' / 3; "
         "I = int32(reshape(mod((1:12) * 37, 101) - 50, 3, 4)); "
         "U = uint8(reshape(mod((1:12) * 11, 256), 3, 4)); X = reshape(cos(1:24), 2, 3, 4); "
         "x = 1:10; y = (1:10) .^ 2; [XX, YY] = meshgrid(1:5, 1:4); Z = XX .^ 2 + YY; "
         "xq = [1.5 2.5 7.25]; N = M; N(2, 3) = NaN; N(4, 5) = NaN; ")
DEVICE = ["M", "v", "c", "I", "U", "X", "x", "y", "XX", "YY", "Z", "xq", "N"]


def run(code: str, on_device: bool) -> tuple[str, tuple, np.ndarray]:
    s = Session(stdout=io.StringIO())
    s.eval(SETUP + ("".join(f"{v} = gpuArray({v});" for v in DEVICE) if on_device
                    else "gather = @(v) v;"))
    reset_fallback_counts()
    s.eval(code + " cls = class(gather(r)); r = gather(r);")
    r = np.asarray(s.get("r"))
    if r.ndim == 0:
        r = r.reshape(1, 1)     # a scalar: float or 1x1 array, the same MATLAB value
    return s.get("cls"), r.shape, r


def check_snippet(code: str, exact: bool = False, rtol: float | None = None,
                  host_code: str | None = None) -> None:
    """Host and device runs of ``code`` (which sets ``r``) agree; no fallback.
    ``host_code``: the host run's form of ``code`` (without its ``gpuArray`` calls)."""
    load_all()
    want_cls, want_shape, want = run(code if host_code is None else host_code, False)
    got_cls, got_shape, got = run(code, True)
    assert fallback_counts() == {}, fallback_counts()
    assert (got_cls, got_shape) == (want_cls, want_shape)
    if exact:
        np.testing.assert_array_equal(got, want)
        return
    if rtol is None:
        rtol = 1e-5 if want_cls == "single" else 1e-12
    assert np.iscomplexobj(got) == np.iscomplexobj(want)
    as_type = np.complex128 if np.iscomplexobj(want) else np.float64
    np.testing.assert_allclose(got.astype(as_type), want.astype(as_type),
                               rtol=rtol, atol=1e-12 if want_cls != "single" else 1e-6,
                               equal_nan=True)
