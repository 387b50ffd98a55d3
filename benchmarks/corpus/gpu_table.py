"""GPU-machine table for the corpus (``docs/benchmarks/corpus.md``): the
workloads of the tuned benchmark scripts written as other people write them,
at full size, each timed once after start-up on the host (NumPy through the
in-process provider), on CUDA and on wgpu, next to the tuned script and to
PyTorch eager computing the same workload in the same run.

    python -m benchmarks.corpus.gpu_table [--providers host,cuda,wgpu] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
ROOT = CORPUS.parents[1]

# (script, defines, torch peer module or None, peer params)
CASES = [
    ("corpus/mc_gbm_seeded_single.m", ["M=1e6", "T=256"], "montecarlo", {"M": 1e6, "T": 256}),
    ("corpus/mc_gbm_unseeded_like.m", ["M=1e6", "T=256"], "montecarlo", {"M": 1e6, "T": 256}),
    ("montecarlo/montecarlo.m", ["M=1e6", "T=256", "gpu=1"], "montecarlo", {"M": 1e6, "T": 256}),
    ("corpus/imagenorm_like_vecdim.m", ["B=16", "H=2160", "W=3840"], "imagenorm",
     {"B": 16, "H": 2160, "W": 3840}),
    ("corpus/imagenorm_nested_mean.m", ["B=16", "H=2160", "W=3840"], "imagenorm",
     {"B": 16, "H": 2160, "W": 3840}),
    ("imagenorm/imagenorm.m", ["B=16", "H=2160", "W=3840", "gpu=1"], "imagenorm",
     {"B": 16, "H": 2160, "W": 3840}),
    ("corpus/imagenorm_rowblock_fill.m", ["B=16", "H=2160", "W=3840", "rb=270"], None, {}),
    ("corpus/elementwise_plain.m", ["n=1e8"], None, {}),
    ("corpus/heat_stencil.m", ["n=2048", "T=200"], None, {}),
    ("corpus/mc_lcg_integer_double.m", ["M=1e6", "T=64"], None, {}),
]


def time_script(script: str, provider: str, defines: list[str], timeout: float) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.corpus.time_one", str(ROOT / "benchmarks" / script),
           provider] + defines
    try:
        proc = subprocess.run(cmd, cwd=str(ROOT), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout {timeout:.0f} s"}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"error": proc.stderr.strip()[-300:]}
    return json.loads(lines[-1])


def torch_peer(module: str, params: dict) -> float | None:
    """Median seconds of PyTorch eager on CUDA (3 runs after a warm-up)."""
    import importlib

    import torch

    peers = importlib.import_module(f"benchmarks.{module}.peers")
    fn = peers.make_torch(torch, "cuda", **params)
    float(fn())
    times = []
    for _ in range(3):
        torch.cuda.synchronize()
        start = time.perf_counter()
        float(fn())
        times.append(time.perf_counter() - start)
    return sorted(times)[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--providers", default="host,cuda,wgpu")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    providers = args.providers.split(",")
    rows = []
    for script, defines, peer, params in CASES:
        row = {"script": script, "defines": " ".join(defines)}
        for p in providers:
            row[p] = time_script(script, p, defines, args.timeout)
        if peer:
            try:
                row["torch_eager_s"] = torch_peer(peer, params)
            except (ImportError, RuntimeError) as why:
                row["torch_eager_s"] = None
                row["torch_error"] = str(why)
        rows.append(row)
        print(json.dumps(row), flush=True)
    head = "| script | sizes | " + " | ".join(f"{p} cold / warm (s)" for p in providers) + \
        " | torch eager (s) |"
    print("\n" + head)
    print("|---|---|" + "---:|" * (len(providers) + 1))
    for row in rows:
        cells = []
        for p in providers:
            r = row[p]
            cells.append(f"{r['cold_s']:.4f} / {r['warm_s']:.4f}" if "cold_s" in r else
                         "error: " + r["error"].splitlines()[-1][:60] if r["error"] else "error")
        t = row.get("torch_eager_s")
        print(f"| {row['script']} | {row['defines']} | " + " | ".join(cells) +
              f" | {t:.4f} |" if t is not None else f"| {row['script']} | {row['defines']} | " +
              " | ".join(cells) + " | - |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
