"""The benchmark workloads and suites: one place that says what runs where.

A workload is a folder ``benchmarks/NAME/`` holding ``NAME.m`` (the program
every implementation computes; it prints ``checksum <value>``) and
``peers.py`` (``run_xp(xp, **params) -> float`` for NumPy/CuPy and
``make_torch(torch, device, **params) -> fn`` for PyTorch; optionally
``tolerance(**params) -> float`` for random workloads,
``make_torch_compiled(torch, device, **params) -> fn`` where ``torch.compile``
of the whole ``make_torch`` function is not the right thing (with
``TORCH_COMPILE_NOTE`` saying what is compiled), and ``ideal_bytes(**params)``:
the device-memory traffic of an ideal fused GPU implementation, against
which matfuse's measured bytes are reported). The interpreter
benchmarks (``benchmarks/interp/*.m``) have no parameters and no peers: their
whole printed output must match between matfuse and Octave.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
INTERP_DIR = HERE / "interp"
OCTAVE_SHIMS = HERE / "_octave_shims"

Params = dict[str, float]


@dataclass(frozen=True)
class Workload:
    """One benchmark program and the sizes it is swept over."""

    name: str
    script: Path
    sizes: dict[str, list[Params]] = field(default_factory=dict)  # size set -> params
    tol: float = 1e-8                 # relative checksum tolerance (deterministic inputs)
    parity: str = "checksum"          # "checksum" or "text" (whole output identical)
    has_peers: bool = True
    torch_compile: bool = True        # False: the peer is a Python loop; compile is moot
    octave_gap: str = ""              # why Octave cannot run the script ("" when it can)
    # (impl, baseline impl, factor): impl's median must be <= factor * baseline's
    guard: tuple[str, str, float] | None = None

    def tolerance(self, params: Params) -> float:
        peers = self.peers()
        custom = getattr(peers, "tolerance", None) if peers is not None else None
        return float(custom(**params)) if custom is not None else self.tol

    def ideal_bytes(self, params: Params) -> float | None:
        """Bytes an ideal fused GPU run moves (None: no clear bound)."""
        peers = self.peers()
        ideal = getattr(peers, "ideal_bytes", None) if peers is not None else None
        return float(ideal(**params)) if ideal is not None else None

    def peers(self) -> ModuleType | None:
        if not self.has_peers:
            return None
        return importlib.import_module(f"benchmarks.{self.name}.peers")


def _folder(name: str, **kw: Any) -> Workload:
    return Workload(name=name, script=HERE / name / f"{name}.m", **kw)


# GPU sizes are chosen so the whole GPU suite fits one ~8-minute device call:
# montecarlo drops M=1e5 (launch-bound, like 1e6 in earlier runs) and runs
# M=1e7 at T=128 (the host baselines take ~10-40 s a call at T=256); stats uses
# d=16 (the host histogram dominates); smallmixed's gpuArray variants read a
# scalar back every iteration, so 500/2000 iterations.
WORKLOADS: dict[str, Workload] = {w.name: w for w in [
    _folder("elementwise", tol=2e-3, sizes={
        "tiny": [{"n": 1e4}],
        "cpu": [{"n": 1e5}, {"n": 1e6}],
        "gpu": [{"n": 1e6}, {"n": 1e7}, {"n": 1e8}]}),
    _folder("montecarlo", sizes={
        "tiny": [{"M": 2e3, "T": 8}],
        "cpu": [{"M": 1e4, "T": 32}, {"M": 1e5, "T": 32}],
        "gpu": [{"M": 1e6, "T": 256}, {"M": 1e7, "T": 128}]}),
    _folder("imagenorm", octave_gap="Octave 7's mean has no vecdim form mean(X, [2 3])", sizes={
        "tiny": [{"B": 2, "H": 32, "W": 32}],
        "cpu": [{"B": 2, "H": 128, "W": 128}, {"B": 4, "H": 256, "W": 256}],
        "gpu": [{"B": 4, "H": 1024, "W": 1024}, {"B": 16, "H": 2160, "W": 3840}]}),
    _folder("pca", tol=1e-8, sizes={
        "tiny": [{"n": 300, "d": 32, "k": 4, "iters": 5}],
        "cpu": [{"n": 2000, "d": 128, "k": 8, "iters": 20},
                {"n": 8000, "d": 256, "k": 8, "iters": 20}],
        "gpu": [{"n": 20000, "d": 512, "k": 16, "iters": 30},
                {"n": 50000, "d": 2048, "k": 32, "iters": 30}]}),
    _folder("signal", tol=1e-8, sizes={
        "tiny": [{"n": 1024, "c": 2, "L": 16}],
        "cpu": [{"n": 2 ** 14, "c": 4, "L": 32}, {"n": 2 ** 16, "c": 8, "L": 64}],
        "gpu": [{"n": 2 ** 18, "c": 16, "L": 64}, {"n": 2 ** 20, "c": 32, "L": 128}]}),
    _folder("stats", tol=1e-8, sizes={
        "tiny": [{"n": 1000, "d": 4, "nbins": 16}],
        "cpu": [{"n": 1e4, "d": 8, "nbins": 32}, {"n": 1e5, "d": 16, "nbins": 64}],
        "gpu": [{"n": 1e6, "d": 16, "nbins": 64}, {"n": 4e6, "d": 16, "nbins": 128}]}),
    _folder("smallmixed", tol=1e-9, torch_compile=False,
            guard=("matfuse", "matfuse-host", 1.25), sizes={
                "tiny": [{"iters": 50}],
                "cpu": [{"iters": 500}],
                "gpu": [{"iters": 500}, {"iters": 2000}]}),
]}


def interp_workloads() -> dict[str, Workload]:
    """benchmarks/interp/*.m scripts (function files there are their helpers)."""
    found = {}
    for path in sorted(INTERP_DIR.glob("*.m")):
        if _is_function_file(path):
            continue
        name = f"interp/{path.stem}"
        found[name] = Workload(name=name, script=path, sizes={"interp": [{}]},
                               parity="text", has_peers=False)
    return found


def _is_function_file(path: Path) -> bool:
    for line in path.read_text().splitlines():
        text = line.strip()
        if text and not text.startswith("%"):
            return text.startswith("function")
    return False


@dataclass(frozen=True)
class Suite:
    """Which workloads, which size set and which implementations, and the
    limits that make the run fit its time (see scheduler.py)."""

    name: str
    size_set: str
    impls: tuple[str, ...]
    iters: int = 3
    warmup: int = 1
    interp: bool = False
    timeout: float = 900.0              # seconds per implementation process
    max_seconds: float | None = None    # timed phase bound (fewer iterations when slow)
    budget: float | None = None         # seconds for the whole run
    parallel_cpu: bool = False          # host-only impls concurrently (on >= 8 cores)
    largest_first: bool = False         # a budget cut loses the smallest sizes
    prefork: bool = False               # start the next process during a timing

    def cpu_workers(self) -> int:
        return 2 if self.parallel_cpu and (os.cpu_count() or 1) >= 8 else 0


SUITES: dict[str, Suite] = {
    # CI-friendly: small sizes, host peers only (the whole suite < 3 min on 2 cores)
    "cpu": Suite("cpu", "cpu", ("numpy", "matfuse", "octave")),
    # The GPU machine, one device call (~8 min on an H100, 16 cores): matfuse
    # with explicit gpuArray on each provider and with automatic offload,
    # against the host baseline and every peer. Slow implementations run
    # fewer timed iterations (max_seconds); host-only ones run concurrently.
    "gpu": Suite("gpu", "gpu", ("matfuse-cuda", "matfuse-wgpu", "matfuse", "matfuse-host",
                                "numpy", "torch", "torch-compile", "cupy"),
                 iters=5, warmup=1, timeout=150.0, max_seconds=8.0, budget=450.0,
                 parallel_cpu=True, largest_first=True, prefork=True),
    "interp": Suite("interp", "interp", ("matfuse", "octave"), iters=2, interp=True),
}


def suite_workloads(suite: Suite) -> dict[str, Workload]:
    return interp_workloads() if suite.interp else dict(WORKLOADS)


def workload_by_name(name: str) -> Workload:
    if name in WORKLOADS:
        return WORKLOADS[name]
    interp = interp_workloads()
    if name in interp:
        return interp[name]
    raise KeyError(f"unknown workload {name!r}")
