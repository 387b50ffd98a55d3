"""GPU-machine table for the corpus (``docs/benchmarks/corpus.md``): the
workloads of the tuned benchmark scripts written as other people write them,
at full size, each timed after start-up (a cold run, then the median of
five warm runs) on the host (NumPy through the
in-process provider), on CUDA and on wgpu, next to the tuned script and to
a peer measured in the same run: PyTorch eager computing the same workload,
the same loop on NumPy (row-block filling), or, for a plain script (no
``gpuArray``), its explicit-``gpuArray`` twin in ``twins/``. Plain scripts and
their twins are also timed with the default auto-offload decisions
(``cuda:auto``: calibrated thresholds, not forced), which is what a user gets.

    python -m benchmarks.corpus.gpu_table [--providers host,cuda,wgpu] [--cases SUBSTR,...] [--json out.json]
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

# (script, defines, peer, peer params). A peer is a torch peer module name,
# "numpy:FUNCTION" (a function of numpy_peers.py) or "twin:SCRIPT" (another
# .m script timed on the same providers).
CASES = [
    ("corpus/mc_gbm_seeded_single.m", ["M=1e6", "T=256"], "montecarlo", {"M": 1e6, "T": 256}),
    ("corpus/twins/mc_gbm_seeded_single_philox.m", ["M=1e6", "T=256"], "montecarlo",
     {"M": 1e6, "T": 256}),
    ("corpus/mc_gbm_unseeded_like.m", ["M=1e6", "T=256"], "montecarlo", {"M": 1e6, "T": 256}),
    ("montecarlo/montecarlo.m", ["M=1e6", "T=256", "gpu=1"], "montecarlo", {"M": 1e6, "T": 256}),
    ("corpus/imagenorm_like_vecdim.m", ["B=16", "H=2160", "W=3840"], "imagenorm",
     {"B": 16, "H": 2160, "W": 3840}),
    ("corpus/imagenorm_nested_mean.m", ["B=16", "H=2160", "W=3840"], "imagenorm",
     {"B": 16, "H": 2160, "W": 3840}),
    ("imagenorm/imagenorm.m", ["B=16", "H=2160", "W=3840", "gpu=1"], "imagenorm",
     {"B": 16, "H": 2160, "W": 3840}),
    ("corpus/imagenorm_rowblock_fill.m", ["B=16", "H=2160", "W=3840", "rb=270"],
     "numpy:rowblock_fill", {"B": 16, "H": 2160, "W": 3840, "rb": 270}),
    ("corpus/elementwise_plain.m", ["n=1e8"], "twin:corpus/twins/elementwise_gpuarray.m", {}),
    ("corpus/mc_pi_plain.m", ["n=1e7"], "twin:corpus/twins/mc_pi_gpuarray.m", {}),
    ("corpus/heat_circshift_plain.m", ["n=2048", "T=200"],
     "twin:corpus/twins/heat_circshift_gpuarray.m", {}),
    ("corpus/plain_loop_scalar_updates.m", ["n=1e7", "T=10"],
     "twin:corpus/twins/plain_loop_scalar_updates_gpuarray.m", {}),
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


def numpy_peer(function: str, params: dict) -> float:
    """Median seconds of a NumPy peer (3 runs)."""
    from benchmarks.corpus import numpy_peers

    fn = getattr(numpy_peers, function)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fn(**params)
        times.append(time.perf_counter() - start)
    return sorted(times)[1]


def _cell(result: dict) -> str:
    if "cold_s" in result:
        return f"{result['cold_s']:.4f} / {result['warm_s']:.4f}"
    return "error: " + (result.get("error") or "?").splitlines()[-1][:60] if result.get("error") \
        else "error"


def _peer(row: dict) -> str:
    """The peer column: torch eager, NumPy, or the default-offload run of a
    plain script next to its explicit-gpuArray twin."""
    if row.get("torch_eager_s") is not None:
        return f"torch eager {row['torch_eager_s']:.4f}"
    if "numpy_s" in row:
        return f"NumPy {row['numpy_s']:.4f}"
    if "twin" in row:
        parts = []
        for p, twin in row["twin"].items():
            parts.append(f"{p}: plain auto {_cell(row.get(p + ':auto', {}))}, "
                         f"gpuArray twin {_cell(twin)}")
        return "; ".join(parts)
    return "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--providers", default="host,cuda,wgpu")
    ap.add_argument("--cases", default="", help="comma-separated substrings of script names")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    providers = args.providers.split(",")
    wanted = [c for c in args.cases.split(",") if c]
    rows = []
    for script, defines, peer, params in CASES:
        if wanted and not any(w in script for w in wanted):
            continue
        row = {"script": script, "defines": " ".join(defines)}
        twin = peer.removeprefix("twin:") if peer and peer.startswith("twin:") else None
        # A plain script is also timed as a user runs it: default offload decisions.
        row_providers = providers + [f"{p}:auto" for p in providers if twin and p != "host"]
        for p in row_providers:
            row[p] = time_script(script, p, defines, args.timeout)
        if twin:
            row["twin"] = {p: time_script(twin, p, defines, args.timeout)
                           for p in providers if p != "host"}
        elif peer and peer.startswith("numpy:"):
            row["numpy_s"] = numpy_peer(peer.removeprefix("numpy:"), params)
        elif peer:
            try:
                row["torch_eager_s"] = torch_peer(peer, params)
            except (ImportError, RuntimeError) as why:
                row["torch_eager_s"] = None
                row["torch_error"] = str(why)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print("\n" + "| script | sizes | " + " | ".join(f"{p} cold / warm (s)" for p in providers)
          + " | peer |")
    print("|---|---|" + "---:|" * len(providers) + "---|")
    for row in rows:
        cells = [_cell(row[p]) for p in providers]
        print(f"| {row['script']} | {row['defines']} | " + " | ".join(cells) + f" | {_peer(row)} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
