"""Builtins routed to the device hooks (conv2/conv, complex, 8/16-bit ints):
device time vs the CPU builtin, agreement with the CPU result, and whether
the provider hook ran without a counted host fallback.

    PYTHONPATH=src python benchmarks/routing/routing_check.py [--providers wgpu,cuda] [--scale 1]

Each case runs the MATLAB builtin/operator through the runtime dispatcher
(as a program would) on uploaded gpuArrays: one warm-up, then the best of
``--reps`` timed runs, each ended by ``provider.synchronize()``; uploads are
not timed. Prints one line per (provider, case); under a minute on an H100.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from matfuse.accelerate.gpuarray import GpuArray, upload_value  # noqa: E402
from matfuse.accelerate_api import (  # noqa: E402
    fallback_counts,
    override_provider,
    reset_fallback_counts,
)
from matfuse.runtime import ops  # noqa: E402
from matfuse.runtime.dispatcher import call_builtin  # noqa: E402
from matfuse.runtime.registry import load_all, lookup  # noqa: E402
from matfuse.runtime.values import char_array, to_array  # noqa: E402


def _call(name: str) -> Callable[..., Any]:
    return lambda *args: call_builtin(lookup(name), list(args), 1, None)[0]


def _op(sym: str) -> Callable[[Any, Any], Any]:
    return lambda a, b: ops.binary(sym, a, b)


def cases(scale: float) -> list[tuple[str, Callable[..., Any], list[Any], tuple[int, ...]]]:
    """(label, function, host args, indices of args uploaded)."""
    rng = np.random.default_rng(1)
    side = int(2048 * scale ** 0.5)
    n = int(10_000_000 * scale)
    img = rng.standard_normal((side, side))
    ker = rng.standard_normal((7, 7))
    sig = rng.standard_normal((n // 10, 1))
    taps = rng.standard_normal((129, 1))
    x, y = rng.standard_normal((n, 1)), rng.standard_normal((n, 1))
    z, w = x + 1j * y, y - 0.5j * x
    from matfuse.runtime._classrules import convert

    i8 = convert(x * 60, "int8")
    u8 = convert(np.abs(x) * 60, "uint8")
    i16 = convert(x * 3000, "int16")
    same = char_array("same")
    return [
        (f"conv2 double {side}^2 * 7x7 same", _call("conv2"), [img, ker, same], (0, 1)),
        (f"conv2 single {side}^2 * 7x7 full", _call("conv2"),
         [img.astype(np.float32), ker.astype(np.float32)], (0, 1)),
        (f"conv double {n // 10} * 129", _call("conv"), [sig, taps], (0, 1)),
        (f"complex(x, y) n={n}", _call("complex"), [x, y], (0, 1)),
        (f"z .* w complex n={n}", _op(".*"), [z, w], (0, 1)),
        (f"z ./ w complex n={n}", _op("./"), [z, w], (0, 1)),
        (f"abs(z) n={n}", _call("abs"), [z], (0,)),
        (f"angle(z) n={n}", _call("angle"), [z], (0,)),
        (f"sum(z) n={n}", _call("sum"), [z], (0,)),
        (f"int8 + 3.7 n={n}", _op("+"), [i8, 3.7], (0,)),
        (f"uint8 .* 2 n={n}", _op(".*"), [u8, 2.0], (0,)),
        (f"int16 > 5 n={n}", _op(">"), [i16, 5.0], (0,)),
        (f"int8(x*60) n={n}", _call("int8"), [x * 60], (0,)),
        (f"-int8 n={n}", lambda a: ops.unary("-", a), [i8], (0,)),
    ]


def _best(fn: Callable[[], Any], reps: int, sync: Callable[[], None]) -> tuple[float, Any]:
    out = fn()
    sync()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _max_rel_err(got: np.ndarray, want: np.ndarray) -> float:
    if got.shape != want.shape:
        return float("inf")
    if want.dtype.kind in "iub":
        return float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)), initial=0.0))
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1e-300)
    return float(np.max(np.abs(got - want), initial=0.0)) / scale


def run(provider_name: str, scale: float, reps: int) -> None:
    from matfuse.accelerate.facade import ProviderUnavailable, _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions

    try:
        p = _load_backend(provider_name, AccelerateInitOptions(provider=provider_name), True)
    except ProviderUnavailable as why:
        print(f"{provider_name}: unavailable ({why})")
        return
    print(f"{provider_name}: {p.device_info()}")
    with override_provider(p):
        for label, fn, args, on in cases(scale):
            host_s, want = _best(lambda: fn(*args), reps, lambda: None)
            dev_args = [upload_value(a, p) if i in on else a for i, a in enumerate(args)]
            p.synchronize()
            reset_fallback_counts()
            p.reset_telemetry()
            dev_s, got = _best(lambda: fn(*dev_args), reps, p.synchronize)
            tel = p.telemetry()
            ops_ran = sorted(tel.get("ops") or tel.get("per_op") or {})
            fallbacks = fallback_counts()
            on_device = isinstance(got, GpuArray) and got.provider is p
            err = _max_rel_err(to_array(got.gather() if isinstance(got, GpuArray) else got),
                               to_array(want))
            hooks = ",".join(o for o in ops_ran if o != "download")
            print(f"  {label:34s} host {host_s * 1e3:9.2f} ms  device {dev_s * 1e3:9.2f} ms  "
                  f"x{host_s / dev_s:6.1f}  err {err:.1e}  on_device={on_device}  "
                  f"fallbacks={fallbacks or 0}  ops={hooks}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--providers", default="wgpu,cuda")
    ap.add_argument("--scale", type=float, default=1.0, help="problem size factor")
    ap.add_argument("--reps", type=int, default=3)
    opts = ap.parse_args()
    load_all()
    for name in opts.providers.split(","):
        run(name.strip(), opts.scale, opts.reps)


if __name__ == "__main__":
    main()
