"""The implementations a benchmark can run, and what each needs.

Each implementation runs in its own worker process (``_worker.py``); this table
says which environment that process starts with, whether the script runs with
explicit ``gpuArray`` inputs (``gpu = 1``), which Python module must be
installed, and which lane of the scheduler runs it: ``gpu`` (one at a time,
so device timings are undisturbed) or ``cpu`` (host-only baselines, which may
run concurrently on cores of their own).
"""

from __future__ import annotations

import importlib.util
import shutil
from dataclasses import dataclass, field

NOT_APPLICABLE = "not applicable"   # an error that is a known gap, not a failure
NOT_INSTALLED = f"{NOT_APPLICABLE}: not installed"


@dataclass(frozen=True)
class Impl:
    """One implementation: how its worker process is configured."""

    name: str
    kind: str                       # "matfuse" | "xp" | "torch" | "octave"
    lane: str = "gpu"               # "gpu" (serial) | "cpu" (may run concurrently)
    gpu_script: bool = False        # matfuse: run the script with gpu = 1
    env: dict[str, str] = field(default_factory=dict)
    requires: str = ""              # Python module that must be importable
    program: str = ""               # executable that must be on PATH
    own_process: bool = False       # cannot run inline (configures matfuse at start-up)


IMPLS: dict[str, Impl] = {i.name: i for i in [
    # plain script, default configuration: automatic offload to the provider
    # that `auto` picks (cuda, then wgpu on a real GPU, then in-process)
    Impl("matfuse", "matfuse", env={"MATFUSE_PROVIDER": "auto"}),
    # explicit gpuArray script on a named provider; no silent fallback
    Impl("matfuse-cuda", "matfuse", gpu_script=True, requires="cupy", own_process=True,
         env={"MATFUSE_PROVIDER": "cuda", "MATFUSE_FALLBACK": "error"}),
    Impl("matfuse-wgpu", "matfuse", gpu_script=True, requires="wgpu", own_process=True,
         env={"MATFUSE_PROVIDER": "wgpu", "MATFUSE_FALLBACK": "error"}),
    # explicit gpuArray script on whatever MATFUSE_PROVIDER says (older runs)
    Impl("matfuse-gpu", "matfuse", gpu_script=True),
    # the host baseline: in-process provider, automatic offload off
    Impl("matfuse-host", "matfuse", lane="cpu", own_process=True,
         env={"MATFUSE_PROVIDER": "inprocess", "MATFUSE_AUTO_OFFLOAD": "0"}),
    Impl("numpy", "xp", lane="cpu", requires="numpy"),
    Impl("cupy", "xp", requires="cupy"),
    Impl("torch", "torch", requires="torch"),
    # one compile thread: the graphs are small and a compile-worker pool costs
    # seconds of start-up in every process
    Impl("torch-compile", "torch", requires="torch",
         env={"TORCHINDUCTOR_COMPILE_THREADS": "1"}),
    Impl("octave", "octave", lane="cpu", program="octave"),
]}

# The full GPU-machine suite, in the order the report shows them.
MATFUSE_IMPLS = ("matfuse-cuda", "matfuse-wgpu", "matfuse")
PEER_IMPLS = ("numpy", "torch", "torch-compile", "cupy")


def missing_reason(name: str) -> str | None:
    """Why ``name`` cannot run here (a "not applicable" error), or None."""
    impl = IMPLS.get(name)
    if impl is None:
        return f"unknown implementation {name}"
    if impl.requires and importlib.util.find_spec(impl.requires) is None:
        return f"{NOT_INSTALLED} (no {impl.requires} module)"
    if impl.program and shutil.which(impl.program) is None:
        return f"{NOT_INSTALLED} (no {impl.program} on PATH)"
    return None
