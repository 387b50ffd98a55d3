"""Are gpuArray quotients on the wgpu provider IEEE-exact (bit-identical to NumPy)?

    PYTHONPATH=src python benchmarks/wgpu/division_check.py

WGSL allows 2.5 ulp for f32 division and NVIDIA's Vulkan driver uses it; the
provider computes f32 quotients through f64 where the adapter has shader-f64
(session 4, docs/benchmarks/wgpu.md). Prints mismatch counts for 1e6 random
dividends (20 decades of magnitude) per divisor, single and double.
"""
import os, io
os.environ["MATFUSE_PROVIDER"] = "wgpu"
import numpy as np
from matfuse import Session
from matfuse.accelerate.facade import ensure_provider
p = ensure_provider(); print(p.device_info())
rng = np.random.default_rng(0)
for cls, dt in (("single", np.float32), ("double", np.float64)):
    a = (rng.standard_normal(1_000_000) * 10.0 ** rng.integers(-20, 20, 1_000_000)).astype(dt)
    s = Session(stdout=io.StringIO())
    s.set("a", a.reshape(-1, 1))
    for d in (10.0, 3.0, 7.0, 0.1):
        s.set("d", d)
        s.eval(f"x = gpuArray({cls}(a)); y = gather(x ./ {cls}(d));")
        y = np.asarray(s.get("y")).reshape(-1)
        want = a / dt(d)
        bad = int(np.count_nonzero(y.view(np.uint32 if dt == np.float32 else np.uint64) != want.view(np.uint32 if dt == np.float32 else np.uint64)))
        print(f"{cls} / {d}: {bad} of {a.size} differ from NumPy (max rel {np.max(np.abs(y - want) / np.maximum(np.abs(want), 1e-300)):.2e})", flush=True)
