"""Throughput of the wgpu kernels added for issue #5: conv2d, complex
elementwise/reductions, widened 8/16-bit integer arithmetic.

Each line prints the time per call (median of repeats, the GPU synchronised
around each batch), the rate (GFLOP/s or GB/s of device bytes read +
written) and the max error against NumPy/SciPy on the same data, with a
reference where one is importable (torch conv2d on the same GPU, else
SciPy on the host).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/wgpu/bench_new_kernels.py [--quick]

``--quick``: small sizes (a smoke run on lavapipe in a few seconds).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

from matfuse.accelerate.providers.wgpu import WgpuProvider
from matfuse.accelerate_api import GpuTensorHandle, HostTensor


def _timed(p: WgpuProvider, call: Callable[[], GpuTensorHandle], batch: int,
           repeats: int = 5) -> float:
    """Median seconds per call over ``repeats`` batches of ``batch`` calls."""
    p.free(call())
    p.synchronize()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(batch):
            p.free(call())
        p.synchronize()
        times.append((time.perf_counter() - t0) / batch)
    return statistics.median(times)


def _up(p: WgpuProvider, x: np.ndarray) -> GpuTensorHandle:
    return p.upload(HostTensor.from_array(x))


def _err(got: np.ndarray, want: np.ndarray) -> float:
    scale = max(float(np.max(np.abs(want))), 1e-30)
    return float(np.max(np.abs(got.astype(want.dtype) - want))) / scale


def bench_conv2d(p: WgpuProvider, n: int, k: int, dtype: str, batch: int) -> None:
    from scipy import signal

    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((k, k)).astype(dtype)
    ha, hb = _up(p, a), _up(p, b)
    sec = _timed(p, lambda: p.conv2d(ha, hb, "same"), batch)
    out = p.conv2d(ha, hb, "same")
    got = p.download(out).to_array()
    p.free(out)
    full = signal.convolve2d(a.astype(np.float64), b.astype(np.float64))
    want = full[k // 2:k // 2 + n, k // 2:k // 2 + n]
    flops = 2.0 * n * n * k * k
    ref = _torch_conv2d(a, b, batch) or _host_conv2d(a, b)
    print(f"conv2d same {n}x{n} * {k}x{k} {dtype}: {sec * 1e3:8.3f} ms  "
          f"{flops / sec / 1e9:8.1f} GFLOP/s  max rel err {_err(got, want):.2e}  | {ref}")
    p.free(ha)
    p.free(hb)


def _torch_conv2d(a: np.ndarray, b: np.ndarray, batch: int) -> str | None:
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    x = torch.from_numpy(np.ascontiguousarray(a))[None, None].cuda()
    w = torch.from_numpy(np.ascontiguousarray(b[::-1, ::-1]))[None, None].cuda()
    k = b.shape[0]
    conv = torch.nn.functional.conv2d
    conv(x, w, padding=k // 2)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(batch):
        conv(x, w, padding=k // 2)
    torch.cuda.synchronize()
    sec = (time.perf_counter() - t0) / batch
    return f"torch conv2d (cuDNN) {sec * 1e3:.3f} ms"


def _host_conv2d(a: np.ndarray, b: np.ndarray) -> str:
    from scipy import signal

    t0 = time.perf_counter()
    signal.convolve2d(a, b, mode="same")
    return f"scipy host {1e3 * (time.perf_counter() - t0):.1f} ms"


def bench_complex(p: WgpuProvider, n: int, dtype: str, batch: int) -> None:
    rng = np.random.default_rng(1)
    z = (rng.standard_normal((n, 1)) + 1j * rng.standard_normal((n, 1))).astype(dtype)
    w = (rng.standard_normal((n, 1)) + 1j * rng.standard_normal((n, 1))).astype(dtype)
    hz, hw = _up(p, z), _up(p, w)
    item = z.itemsize
    for op, fn in (("times", np.multiply), ("rdivide", np.divide)):
        sec = _timed(p, lambda: p.elem_binary(op, hz, hw, dtype), batch)
        out = p.elem_binary(op, hz, hw, dtype)
        got = p.download(out).to_array()
        p.free(out)
        print(f"complex {op} {n} {dtype}: {sec * 1e3:8.3f} ms  "
              f"{3 * n * item / sec / 1e9:8.1f} GB/s  max rel err {_err(got, fn(z, w)):.2e}")
    real = "float32" if dtype == "complex64" else "float64"
    sec = _timed(p, lambda: p.elem_unary("abs", hz, real), batch)
    print(f"complex abs {n} {dtype}: {sec * 1e3:8.3f} ms  "
          f"{n * (item + item // 2) / sec / 1e9:8.1f} GB/s")
    sec = _timed(p, lambda: p.reduce("sum", hz, None, False, dtype), batch)
    out = p.reduce("sum", hz, None, False, dtype)
    got = p.download(out).to_array()
    p.free(out)
    print(f"complex sum(all) {n} {dtype}: {sec * 1e3:8.3f} ms  "
          f"{n * item / sec / 1e9:8.1f} GB/s  max rel err "
          f"{_err(got, np.sum(z.astype(np.complex128)).reshape(1, 1)):.2e}")
    p.free(hz)
    p.free(hw)


def bench_small_ints(p: WgpuProvider, n: int, dtype: str, batch: int) -> None:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(2)
    a = rng.integers(info.min, int(info.max) + 1, size=(n, 1)).astype(dtype)
    b = rng.integers(info.min, int(info.max) + 1, size=(n, 1)).astype(dtype)
    ha, hb = _up(p, a), _up(p, b)
    sec = _timed(p, lambda: p.elem_binary("plus", ha, hb, dtype), batch)
    out = p.elem_binary("plus", ha, hb, dtype)
    got = p.download(out).to_array()
    p.free(out)
    want = np.clip(a.astype(np.int64) + b, info.min, info.max).astype(dtype)
    print(f"{dtype} saturating plus {n}: {sec * 1e3:8.3f} ms  "
          f"{3 * n * 4 / sec / 1e9:8.1f} GB/s (device, widened to 32 bits)  "
          f"exact {bool(np.array_equal(got, want))}")
    x = rng.standard_normal((n, 1)) * 1000
    hx = _up(p, x)
    sec = _timed(p, lambda: p.cast(hx, dtype), batch)
    print(f"double -> {dtype} cast {n}: {sec * 1e3:8.3f} ms  "
          f"{n * 12 / sec / 1e9:8.1f} GB/s")
    for h in (ha, hb, hx):
        p.free(h)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    args = parser.parse_args()
    p = WgpuProvider()
    print(p.device_info())
    img, elems, batch = (256, 1 << 16, 3) if args.quick else (4096, 1 << 24, 20)
    for dtype in ("float32", "float64"):
        for k in (3, 7):
            bench_conv2d(p, img, k, dtype, batch)
    for dtype in ("complex64", "complex128"):
        bench_complex(p, elems, dtype, batch)
    for dtype in ("int8", "uint16"):
        bench_small_ints(p, elems * 2, dtype, batch)


if __name__ == "__main__":
    main()
