"""Time of integer ``sum(x, 'native')``/``prod``/``cumsum``/``cumprod`` of
gpuArrays (each step saturating; ``saturating_accumulation``) on one
provider, with the host's time and the provider's telemetry of one call.

    PYTHONPATH=src:. python benchmarks/device/saturating_bench.py wgpu --n 1000000 --runs 5
    PYTHONPATH=src:. python benchmarks/device/saturating_bench.py cuda --n 10000000 --runs 10

Each timed run ends with ``gather`` of the (small or full) result. The data
is int32 in ``[-1000, 1000]`` (no step saturates) and int8 in ``[-128,
127]`` (many steps saturate): a vector (``'all'``) and a ``1000 x n/1000``
matrix along each dimension.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

import numpy as np

from benchmarks.device.fallback_probe import _TELEMETRY_KEYS, _provider

CALLS = ("sum(x, 'all', 'native')", "sum(x, 1, 'native')", "sum(x, 2, 'native')",
         "prod(x, 2, 'native')", "cumsum(x, 1)", "cumsum(x, 2)", "cumprod(x, 1, 'reverse')")


def _time(session, code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.eval(code)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("provider")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
    from matfuse.vm.session import Session

    rng = np.random.default_rng(0)
    cols = max(options.n // 1000, 1)
    data = {"int32": rng.integers(-1000, 1000, size=(1000, cols)).astype(np.int32),
            "int8": rng.integers(-128, 127, size=(1000, cols), endpoint=True).astype(np.int8)}
    with _provider(options.provider) as p:
        for cls, x in data.items():
            host = Session(stdout=io.StringIO())
            host.interp.base["x"] = x
            device = Session(stdout=io.StringIO())
            device.interp.base["x"] = x
            device.eval("x = gpuArray(x);")
            for call in CALLS:
                code = f"r = {call}; r = gather(r);"
                device.eval(code)                    # warm: kernels compiled
                reset_fallback_counts()
                p.synchronize()
                p.reset_telemetry()
                device.eval(code)
                tel = p.telemetry()
                fallbacks = dict(fallback_counts())
                assert np.array_equal(np.asarray(device.get("r")), np.asarray(host.eval(code) or host.get("r")))
                t_dev = _time(device, code, options.runs)
                t_host = _time(host, code, options.runs)
                counters = " ".join(f"{k}={tel[k]}" for k in _TELEMETRY_KEYS if k in tel)
                print(f"{cls} {x.shape[0]}x{x.shape[1]} {call:28s} device {t_dev * 1e3:9.2f} ms  "
                      f"host {t_host * 1e3:9.2f} ms  fallbacks={fallbacks}  {counters}")


if __name__ == "__main__":
    main()
