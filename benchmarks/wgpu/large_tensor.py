"""Tensors larger than one storage binding on a real GPU (issue #5).

Creates a single-precision tensor of 3 GiB (over the 2 GiB binding limit of
the H100/H200 on Vulkan; override with --elements), then checks and times
the split-dispatch paths: rand (bit-exact against the host Philox stream at
range boundaries), elementwise, full reductions, gather, download in pieces,
and a MATLAB script through the fusion engine with no host fallback.
Prints one line per step; exits 1 when a check fails.

    PYTHONPATH=src python3 benchmarks/wgpu/large_tensor.py [--elements N]
"""

from __future__ import annotations

import argparse
import io
import sys
import time

import numpy as np

KEY = (0x2545F491, 0x9E3779B9)
FAILED: list[str] = []


def check(name: str, ok: bool, detail: str) -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
    if not ok:
        FAILED.append(name)


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--elements", type=int, default=3 << 28)
    n = parser.parse_args().elements

    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate.providers.wgpu import create_provider
    from matfuse.accelerate_api import (HostTensor, fallback_counts, override_provider,
                                        reset_fallback_counts)
    from matfuse.runtime import _philox

    p = create_provider(AccelerateInitOptions.from_env(provider="wgpu"), allow_cpu_adapter=True)
    lim = p.ctx.limits
    print(f"device {p.device_info()}; max-buffer-size {lim.get('max-buffer-size')}, "
          f"max-storage-buffer-binding-size {lim.get('max-storage-buffer-binding-size')}, "
          f"storage buffers/stage {lim.get('max-storage-buffers-per-shader-stage')}, "
          f"offset alignment {lim.get('min-storage-buffer-offset-alignment')}; "
          f"binding limit used {p.binding_limit}", flush=True)
    print(f"tensor: {n} singles = {n * 4 / 2**30:.2f} GiB", flush=True)

    h, t = timed(lambda: (p.random_uniform((n, 1), "float32", KEY, 0), p.synchronize())[0])
    check("large", p.is_large(h), f"rand {t:.2f} s; ranges "
          f"{len(p.element_ranges(n, ['float32']))}")
    edge = p.element_ranges(n, ["float32"])[0][1]       # first element of range 2
    for start in (0, edge - 512, n - 1024):
        idx = p.upload_index(np.arange(start, start + 1024))
        got = p.download(p.index_gather(h, idx, (1024, 1))).data.reshape(-1)
        want = _philox.philox_uniform(1024, KEY, start // 4, "single").astype(np.float32)
        check(f"rand bits @{start}", np.array_equal(got, want), "gather of 1024 vs host Philox")
        p.free(idx)

    s, t = timed(lambda: float(p.download(p.reduce("sum", h, None, False, "float32")).data[0]))
    check("sum", abs(s / n - 0.5) < 1e-3, f"mean {s / n:.6f} in {t:.2f} s "
          f"({n * 4 / t / 1e9:.1f} GB/s incl. readback)")
    y, t = timed(lambda: (p.elem_binary("times", h, 2.0, "float32"), p.synchronize())[0])
    check("elementwise", True, f"y = 2*x in {t:.3f} s ({n * 8 / t / 1e9:.1f} GB/s)")
    mx = float(p.download(p.reduce("max", y, None, False, "float32")).data[0])
    mn = float(p.download(p.reduce("min", y, None, False, "float32")).data[0])
    check("max/min", 1.99 < mx < 2.0 and 0.0 < mn < 0.01, f"max {mx:.7f} min {mn:.3g}")
    p.free(y)
    host, t = timed(lambda: p.download(h).data)
    check("download", host.size == n and abs(float(host[:4096].mean()) - 0.5) < 0.05,
          f"{n * 4 / t / 1e9:.2f} GB/s ({t:.2f} s, in pieces)")
    p.free(h)
    ones = np.ones(n, dtype=np.float32)
    h, t = timed(lambda: (p.upload(HostTensor(ones, (n, 1), "single")), p.synchronize())[0])
    total = float(p.download(p.reduce("sum", h, None, False, "float32")).data[0])
    check("upload", total == n,
          f"{n * 4 / t / 1e9:.2f} GB/s ({t:.2f} s, in pieces); sum {total:.0f}")
    p.free(h)
    del host, ones

    from matfuse.vm.session import Session

    code = (f"x = rand({n}, 1, 'single', 'gpuArray'); y = exp(-x) .* 2 - 1;"
            " s = sum(y); m = mean(x); q = max(y); r = gather([s / numel(y), m, q]);"
            " fprintf('%.6f %.6f %.6f\\n', r);")
    reset_fallback_counts()
    out = io.StringIO()
    with override_provider(p):
        _, t = timed(lambda: Session(stdout=out).eval(code))
    vals = [float(v) for v in out.getvalue().split()]
    want_mean = 2 * (1 - np.exp(-1.0)) - 1
    check("script", abs(vals[0] - want_mean) < 1e-3 and abs(vals[1] - 0.5) < 1e-3
          and not fallback_counts(), f"{out.getvalue().strip()} in {t:.2f} s; "
          f"fallbacks {fallback_counts()}")
    print("FAILED: " + ", ".join(FAILED) if FAILED else "all large-tensor checks passed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
