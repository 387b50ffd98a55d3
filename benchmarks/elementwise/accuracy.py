"""Accuracy of the elementwise chain per implementation (GPU machine).

The elementwise workload is compute-bound (sin, exp, cos, tanh per element),
so its speed depends on how each implementation evaluates single-precision
transcendentals. This prints, for the chain's y2 and for sin alone, the
largest error of each implementation against a float64 evaluation of the
same float32 inputs, in float32 ulps of the reference:

    PYTHONPATH=src python benchmarks/elementwise/accuracy.py [--n 1000000]

Implementations: numpy (CPU, float32), torch eager and torch.compile (CUDA),
cupy, matfuse (gpuArray script on the active provider).
"""

from __future__ import annotations

import argparse
import io
import math

import numpy as np


def chain(xp, x):
    y0 = xp.sin(x) * xp.exp(-x / 10)
    y1 = y0 * xp.cos(x / 4) + 0.25 * y0 ** 2
    return xp.tanh(y1) + 0.1 * y1


def ulp_error(got: np.ndarray, ref: np.ndarray) -> float:
    """Largest |got - ref| in float32 ulps of ref (ulp of at least 2^-126)."""
    got = np.asarray(got, dtype=np.float64).ravel()
    ulp = np.spacing(np.abs(ref.astype(np.float32))).astype(np.float64)
    return float(np.max(np.abs(got - ref) / np.maximum(ulp, 2.0 ** -149)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    n = ap.parse_args().n
    x32 = np.linspace(0, 4 * math.pi, n).astype(np.float32)
    x64 = x32.astype(np.float64)
    refs = {"y2": chain(np, x64), "sin": np.sin(x64)}
    results: dict[str, dict[str, float]] = {}
    results["numpy"] = {"y2": ulp_error(chain(np, x32), refs["y2"]),
                        "sin": ulp_error(np.sin(x32), refs["sin"])}
    try:
        import torch

        xt = torch.from_numpy(x32).cuda()
        compiled = torch.compile(lambda v: chain(torch, v))
        compiled_sin = torch.compile(torch.sin)
        results["torch"] = {"y2": ulp_error(chain(torch, xt).cpu().numpy(), refs["y2"]),
                            "sin": ulp_error(torch.sin(xt).cpu().numpy(), refs["sin"])}
        results["torch-compile"] = {"y2": ulp_error(compiled(xt).cpu().numpy(), refs["y2"]),
                                    "sin": ulp_error(compiled_sin(xt).cpu().numpy(), refs["sin"])}
    except ImportError:
        pass
    try:
        import cupy

        xc = cupy.asarray(x32)
        results["cupy"] = {"y2": ulp_error(chain(cupy, xc).get(), refs["y2"]),
                           "sin": ulp_error(cupy.sin(xc).get(), refs["sin"])}
    except ImportError:
        pass
    from matfuse import Session

    session = Session(stdout=io.StringIO())
    session.eval(f"x = single(linspace(gpuArray(0), 4*pi, {n})); "
                 "y0 = sin(x) .* exp(-x / 10); y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2; "
                 "y2 = gather(tanh(y1) + 0.1 * y1); s = gather(sin(x)); xh = gather(x);")
    xh = np.asarray(session.get("xh"), dtype=np.float32).ravel()
    same_x = bool(np.array_equal(xh, x32))
    results["matfuse"] = {"y2": ulp_error(session.get("y2"), refs["y2"]),
                          "sin": ulp_error(session.get("s"), refs["sin"])}
    print(f"n={n}; matfuse x identical to numpy's float32 linspace: {same_x}")
    print("| implementation | max error y2 (f32 ulps) | max error sin (f32 ulps) |")
    print("|---|---:|---:|")
    for name, errs in results.items():
        print(f"| {name} | {errs['y2']:.3g} | {errs['sin']:.3g} |")


if __name__ == "__main__":
    main()
