"""Adapter selection, device creation, limits and the f64 self-test.

The precision policy (GPU-FACTS.md): f64 arithmetic runs on the device when
the adapter offers ``shader-f64``; f64 transcendentals never use the driver's
built-ins (wrong on NVIDIA Vulkan and lavapipe) but our own code in
``accelerate_api/device_code/wgsl_f64math.py``. The self-test checks f64 arithmetic and our
transcendentals against NumPy once at start-up; if it fails, double work is
refused (Unsupported -> host fallback), never silently done in f32.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from matfuse.accelerate_api import Unsupported

#: limits we ask for: the adapter's own maxima (defaults are much lower)
_WANTED_LIMITS = (
    "max-storage-buffer-binding-size",
    "max-buffer-size",
    "max-storage-buffers-per-shader-stage",
    "max-compute-workgroup-storage-size",
    "max-compute-invocations-per-workgroup",
    "max-compute-workgroup-size-x",
    "max-compute-workgroups-per-dimension",
)

#: iterations per invocation kernels plan for on llvmpipe: its limit is
#: 65,535 counted across all loops; the rest is left for fixed inner loops
#: (grid-stride steps, f64 helpers)
LLVMPIPE_LOOP_BUDGET = 16384

POLICY_F64 = "f64-own-transcendentals"
POLICY_F32_ONLY = "f32-only-double-on-host"


@dataclass
class DeviceContext:
    """The opened device and what it can do."""

    adapter: object
    device: object
    queue: object
    name: str
    vendor: str
    backend: str
    adapter_type: str
    has_f64: bool
    limits: dict[str, int] = field(default_factory=dict)
    precision_policy: str = POLICY_F32_ONLY
    selftest: dict[str, float] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        return f"{self.name} ({self.adapter_type}) via {self.backend}"

    @property
    def max_binding_bytes(self) -> int:
        return int(self.limits.get("max-storage-buffer-binding-size", 1 << 27))

    @property
    def max_buffer_bytes(self) -> int:
        return int(self.limits.get("max-buffer-size", 1 << 28))

    @property
    def storage_offset_alignment(self) -> int:
        return int(self.limits.get("min-storage-buffer-offset-alignment", 256))

    @property
    def max_storage_buffers(self) -> int:
        """Storage buffers one kernel may bind (outputs included; the
        uniform takes one more binding of the group)."""
        return min(int(self.limits.get("max-storage-buffers-per-shader-stage", 8)),
                   int(self.limits.get("max-bindings-per-bind-group", 1000)) - 1)

    @property
    def max_groups_per_dim(self) -> int:
        return int(self.limits.get("max-compute-workgroups-per-dimension", 65535))

    @property
    def max_loop_iterations(self) -> int:
        """Loop iterations one shader invocation may run in total, over all
        its loops. Mesa's llvmpipe (lavapipe) silently ends every loop after
        65,535 iterations (gallivm's loop limiter), counted across nested and
        consecutive loops; kernels whose per-invocation trip count grows
        with the data split their work into dispatches below this bound.
        Other adapters have no such limit."""
        if "llvmpipe" in self.name.lower():
            return LLVMPIPE_LOOP_BUDGET
        return 1 << 31

    @property
    def uniform_alignment(self) -> int:
        return int(self.limits.get("min-uniform-buffer-offset-alignment", 256))


def open_device(power_preference: str | None = None, allow_f64: bool = True) -> DeviceContext:
    """Pick an adapter (high performance unless told) and open a device
    (with ``shader-f64`` when the adapter has it and ``allow_f64``).

    Raises:
        Unsupported: no wgpu adapter is available on this machine.
    """
    try:
        import wgpu  # imported lazily: importing the package must not need a GPU
    except ImportError as exc:
        raise Unsupported(f"wgpu is not installed: {exc}") from exc

    pref = power_preference or "high-performance"
    try:
        adapter = wgpu.gpu.request_adapter_sync(power_preference=pref)
    except (RuntimeError, wgpu.GPUError) as exc:
        raise Unsupported(f"no wgpu adapter: {exc}") from exc
    if adapter is None:
        raise Unsupported("no wgpu adapter")
    features = set(adapter.features)
    has_f64 = "shader-f64" in features and allow_f64
    alimits = dict(adapter.limits)
    wanted = {k: alimits[k] for k in _WANTED_LIMITS if k in alimits}
    device = adapter.request_device_sync(
        required_features=["shader-f64"] if has_f64 else [],
        required_limits=wanted,
    )
    info = adapter.info
    return DeviceContext(
        adapter=adapter,
        device=device,
        queue=device.queue,
        name=str(info.get("device", "unknown")),
        vendor=str(info.get("vendor", "")),
        backend=str(info.get("backend_type", "")),
        adapter_type=str(info.get("adapter_type", "")),
        has_f64=has_f64,
        limits={k: int(v) for k, v in dict(device.limits).items()},
    )


#: functions the self-test checks, with inputs that exercise range reduction
SELFTEST_INPUTS: dict[str, np.ndarray] = {
    "exp": np.array([-700.0, -3.3, -1e-3, 0.0, 0.5, 1.0, 20.5, 700.0]),
    "log": np.array([1e-300, 0.1, 0.999, 1.0, 1.5, 2.0, 1e5, 1e300]),
    "sin": np.array([-1e5, -3.0, -0.5, 0.0, 1e-8, 1.0, 2.5, 1234.5, 1e22, -6.9e9]),
    "cos": np.array([-1e5, -3.0, -0.5, 0.0, 1e-8, 1.0, 2.5, 1234.5, 1e300, 1e15]),
    "atan": np.array([-1e10, -2.0, -0.3, 0.0, 0.2, 0.9, 3.0, 1e300]),
}
SELFTEST_TOLERANCE = 4e-15


def run_f64_selftest(ctx: DeviceContext,
                     run_unary: Callable[[str, np.ndarray], np.ndarray]) -> None:
    """Validate f64 on the device; sets ``ctx.precision_policy``.

    Args:
        run_unary: computes ``op`` elementwise on the device for an f64 array
            (the provider's own ``elem_unary`` path).
    """
    if not ctx.has_f64:
        ctx.precision_policy = POLICY_F32_ONLY
        return
    worst: dict[str, float] = {}
    arith = np.array([1.0 / 3.0, 1e-300, 1e308, -7.25])
    got = run_unary("__selftest_arith", arith)
    want = np.sqrt(np.abs(arith)) * 3.0 + arith / 7.0
    worst["arith"] = float(np.max(_rel_err(got, want)))
    for op, x in SELFTEST_INPUTS.items():
        worst[op] = float(np.max(_rel_err(run_unary(op, x), getattr(np, op if op != "atan" else "arctan")(x))))
    ctx.selftest = worst
    ok = all(v <= SELFTEST_TOLERANCE for v in worst.values())
    ctx.precision_policy = POLICY_F64 if ok else POLICY_F32_ONLY
    if not ok:
        ctx.has_f64 = False


def _rel_err(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    scale = np.maximum(np.abs(want), np.finfo(np.float64).tiny)
    err = np.abs(got - want) / scale
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    return np.where(same, 0.0, err)
