"""Host fallbacks (and time) of the gpu=1 benchmark scripts on one provider.

    PYTHONPATH=src:. python benchmarks/device/fallback_probe.py wgpu stats n=200 d=4
    PYTHONPATH=src:. python benchmarks/device/fallback_probe.py fake-cuda signal n=256 c=2 L=8
    PYTHONPATH=src python benchmarks/device/fallback_probe.py cuda stats n=4e6 d=16 --runs 5

Providers: ``wgpu``, ``cuda``, ``inprocess`` and ``fake-cuda`` (the CUDA
provider on the tests' NumPy-backed CuPy; needs ``g++``). Prints the
checksum line of the CPU run and of the device run, the fallback counts of
one device run and, with ``--runs``, the median wall time of that many
further device runs (each ending with the script's own ``gather``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
_TELEMETRY_KEYS = ("dispatches", "submits", "uploads", "upload_bytes", "downloads",
                   "download_bytes", "readbacks")


@contextlib.contextmanager
def _provider(name: str) -> Iterator[Any]:
    from matfuse.accelerate_api import override_provider

    if name == "fake-cuda":
        sys.path.insert(0, str(ROOT))
        from tests.accelerate.providers import fake_cupy

        with fake_cupy.installed():
            from matfuse.accelerate.providers.cuda.provider import CudaProvider

            p = CudaProvider(cache_dir="/tmp/matfuse_fake_cuda_probe")
            with override_provider(p):
                yield p
        return
    if name == "wgpu":
        from matfuse.accelerate.providers.wgpu import WgpuProvider

        p = WgpuProvider()
    elif name == "cuda":
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        p = CudaProvider()
    else:
        from matfuse.accelerate.providers.inprocess import InProcessProvider

        p = InProcessProvider()
    with override_provider(p):
        yield p


def _run(workload: str, params: dict[str, float], gpu: bool) -> str:
    from matfuse.vm.session import Session

    out = io.StringIO()
    session = Session(stdout=out)
    for key, value in params.items():
        session.set(key, value)
    session.set("gpu", 1.0 if gpu else 0.0)
    session.run_file(str(ROOT / "benchmarks" / workload / f"{workload}.m"))
    return out.getvalue().strip()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("provider", choices=("wgpu", "cuda", "inprocess", "fake-cuda"))
    ap.add_argument("workload")
    ap.add_argument("params", nargs="*", help="NAME=VALUE script variables")
    ap.add_argument("--runs", type=int, default=0)
    args = ap.parse_args(argv)
    params = {k: float(v) for k, v in (p.split("=", 1) for p in args.params)}
    from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
    from matfuse.runtime.registry import load_all

    load_all()
    start = time.perf_counter()
    print(f"cpu:    {_run(args.workload, params, False)}  "
          f"({(time.perf_counter() - start) * 1e3:.1f} ms)")
    with _provider(args.provider) as p:
        _run(args.workload, params, True)          # warm-up: kernels compile
        reset_fallback_counts()
        p.reset_telemetry()
        start = time.perf_counter()
        text = _run(args.workload, params, True)
        print(f"device: {text}  ({(time.perf_counter() - start) * 1e3:.1f} ms, {p.name})")
        counts = fallback_counts()
        print(f"fallbacks: {sum(counts.values())} {dict(sorted(counts.items()))}")
        tel = p.telemetry()
        print("telemetry: " + " ".join(f"{k}={tel[k]}" for k in _TELEMETRY_KEYS if k in tel))
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            _run(args.workload, params, True)
            times.append(time.perf_counter() - start)
        if times:
            print(f"median of {len(times)} runs: {statistics.median(times) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
