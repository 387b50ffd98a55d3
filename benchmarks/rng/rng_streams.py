"""Seeded random numbers on the device: the twister stream vs Philox vs
host draws plus upload, with NumPy and (when installed) PyTorch as peers.

    PYTHONPATH=src:. python benchmarks/rng/rng_streams.py wgpu --sizes 1e6 1e7
    PYTHONPATH=src:. python benchmarks/rng/rng_streams.py cuda --sizes 1e6 1e7 1e8 --json out.json

For each size, kind (``rand``/``randn``) and class, the median of
``--runs`` timed draws (after one warm-up) of:

* ``twister``: ``random_twister`` (the host's MT19937 stream continued on
  the device: what ``rng(seed)`` programs get under auto-offload);
* ``philox``: ``random_uniform``/``random_normal`` (``rng(seed,'philox')``
  and unseeded programs);
* ``host+up``: the host's draw (NumPy RandomState + our Box-Muller) and the
  upload of the values (what seeded programs did before);
* ``numpy``: the host draw alone;
* ``torch``: ``torch.rand``/``torch.randn`` on the GPU with a seeded
  generator (CPU when torch has no CUDA; ``-`` when torch is missing).

Every device time ends with ``synchronize()``; the values are freed after
each draw. Ratios are printed against NumPy and torch (time / peer time:
below 1 is faster than the peer).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
_KEEP: list[Any] = []


def _provider(name: str) -> Any:
    if name == "wgpu":
        from matfuse.accelerate.providers.wgpu import WgpuProvider

        return WgpuProvider()
    if name == "cuda":
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        return CudaProvider()
    if name == "fake-cuda":
        sys.path.insert(0, str(ROOT))
        from tests.accelerate.providers import fake_cupy

        _KEEP.append(fake_cupy.installed())   # kept: its exit uninstalls the fake
        _KEEP[-1].__enter__()
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        return CudaProvider(cache_dir="/tmp/matfuse_fake_cuda_rng")
    from matfuse.accelerate.providers.inprocess import InProcessProvider

    return InProcessProvider()


def _median_ms(fn: Callable[[], Any], runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def _torch_timer(kind: str, n: int, single: bool) -> Callable[[], Any] | None:
    try:
        import torch
    except ImportError:
        return None
    device = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=device)
    gen.manual_seed(42)
    dtype = torch.float32 if single else torch.float64
    draw = torch.rand if kind == "rand" else torch.randn

    def run() -> Any:
        out = draw(n, generator=gen, device=device, dtype=dtype)
        if device == "cuda":
            torch.cuda.synchronize()
        return out
    return run


def measure(p: Any, n: int, kind: str, cls: str, runs: int) -> dict[str, Any]:
    from matfuse.accelerate_api import HostTensor
    from matfuse.runtime import _mt19937

    dtype = "float64" if cls == "double" else "float32"
    twister_kind = "uniform" if kind == "rand" else "normal"
    rs = np.random.RandomState(42)
    words = rs.get_state()[1].astype(np.uint32)
    state = p.upload(HostTensor(words, (624, 1), "uint32"))
    position = [624]

    def twister() -> None:
        h = p.random_twister(twister_kind, (n, 1), dtype, state, position[0])
        position[0] = _mt19937.position_after(position[0], n * _mt19937.WORDS_PER_VALUE[twister_kind])
        p.synchronize()
        p.free(h)

    counter = [0]

    def philox() -> None:
        hook = p.random_uniform if kind == "rand" else p.random_normal
        h = hook((n, 1), dtype, (42, 0), counter[0])
        counter[0] += n
        p.synchronize()
        p.free(h)

    def host_draw() -> np.ndarray:
        draw = _mt19937.uniform if kind == "rand" else _mt19937.normal
        return draw(rs, n, cls)

    def host_upload() -> None:
        values = host_draw()
        h = p.upload(HostTensor(values, (n, 1), cls))
        p.synchronize()
        p.free(h)

    row: dict[str, Any] = {"n": n, "kind": kind, "class": cls}
    row["twister_ms"] = _median_ms(twister, runs)
    row["philox_ms"] = _median_ms(philox, runs)
    row["host_upload_ms"] = _median_ms(host_upload, runs)
    row["numpy_ms"] = _median_ms(host_draw, runs)
    torch_run = _torch_timer(kind, n, cls == "single")
    row["torch_ms"] = _median_ms(torch_run, runs) if torch_run is not None else None
    p.free(state)
    return row


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


def _ratio(a: float, b: float | None) -> str:
    return "-" if not b else f"{a / b:.2f}x"


def print_table(rows: list[dict[str, Any]], device: str) -> None:
    print(f"# device: {device}")
    head = ("n", "kind", "class", "twister ms", "philox ms", "host+up ms", "numpy ms", "torch ms",
            "twister/philox", "twister/numpy", "twister/torch", "philox/torch")
    print(" | ".join(head))
    for r in rows:
        print(" | ".join([f"{r['n']:.0e}", r["kind"], r["class"], _fmt(r["twister_ms"]),
                          _fmt(r["philox_ms"]), _fmt(r["host_upload_ms"]), _fmt(r["numpy_ms"]),
                          _fmt(r["torch_ms"]), _ratio(r["twister_ms"], r["philox_ms"]),
                          _ratio(r["twister_ms"], r["numpy_ms"]),
                          _ratio(r["twister_ms"], r["torch_ms"]),
                          _ratio(r["philox_ms"], r["torch_ms"])]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("provider", choices=("wgpu", "cuda", "fake-cuda", "inprocess"))
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7, 1e8])
    ap.add_argument("--kinds", nargs="+", default=["rand", "randn"])
    ap.add_argument("--classes", nargs="+", default=["double", "single"])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args(argv)
    p = _provider(args.provider)
    rows = [measure(p, int(n), kind, cls, args.runs)
            for n in args.sizes for kind in args.kinds for cls in args.classes]
    device = p.device_info()
    print_table(rows, device)
    if args.json:
        Path(args.json).write_text(json.dumps({"device": device, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
