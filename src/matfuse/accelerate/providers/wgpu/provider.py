"""WgpuProvider: the accelerate provider on wgpu (WGSL over Vulkan/Metal/DX12).

Memory and lifecycle hooks live here; compute hooks in ``hooks_compute``,
data movement/generators/fused kernels in ``hooks_data``. Everything is
column-major; ``bool`` is stored as u32; double runs in f64 only when the
adapter has ``shader-f64`` and the start-up self-test passed (otherwise
double hooks raise Unsupported and the host runs them; never silent f32).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate_api import (
    AccelProvider,
    DeviceInfo,
    GpuTensorHandle,
    HostTensor,
    ProviderCapabilities,
    Unsupported,
)
from matfuse.accelerate.providers.wgpu.buffers import DEFAULT_POOL_BYTES, DEVICE_TYPES, host_bytes, host_view
from matfuse.accelerate.providers.wgpu.device import open_device, run_f64_selftest
from matfuse.accelerate.providers.wgpu.encoder import SMALL_UPLOAD_BYTES
from matfuse.accelerate.providers.wgpu.ranges import staging_piece_elements
from matfuse.accelerate.providers.wgpu.hooks_accumulate import AccumulateHooks
from matfuse.accelerate.providers.wgpu.hooks_compute import ComputeHooks
from matfuse.accelerate.providers.wgpu.hooks_data import DataHooks
from matfuse.accelerate.providers.wgpu.hooks_factor import FactorHooks
from matfuse.accelerate.providers.wgpu.hooks_signal import SignalHooks
from matfuse.accelerate.providers.wgpu.hooks_solve import SolveHooks
from matfuse.accelerate.providers.wgpu.hooks_sort_large import LargeSortHooks
from matfuse.accelerate.providers.wgpu.hooks_stats import StatsHooks
from matfuse.accelerate.providers.wgpu.hooks_twister import TwisterHooks
from matfuse.accelerate.providers.wgpu.telemetry import PhaseTimer

_CLASS_OF = {"float32": "single", "complex64": "single", "float64": "double",
             "complex128": "double", "bool": "logical", "int32": "int32", "uint32": "uint32",
             "int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16"}


#: adapter types that compute on a GPU (not lavapipe's "CPU")
_GPU_ADAPTER_TYPES = ("DISCRETEGPU", "INTEGRATEDGPU", "VIRTUALGPU")


class WgpuProvider(ComputeHooks, DataHooks, SignalHooks, StatsHooks, AccumulateHooks,
                   LargeSortHooks, SolveHooks, FactorHooks, TwisterHooks, AccelProvider):
    """The wgpu provider. Construct with :func:`create_wgpu_provider`."""

    name = "wgpu"

    def __init__(self, power_preference: str | None = None, device_id: int = 0,
                 self_test: bool = True, max_binding_bytes: int | None = None,
                 pool_bytes: int = DEFAULT_POOL_BYTES, use_f64: bool = True,
                 cache_base: str | None = None, disk_cache: bool = True):
        """Open the device. The settings come from ``AccelerateInitOptions``
        (``create_provider`` passes them).

        Args:
            max_binding_bytes: lower the storage-binding limit below the
                adapter's (``wgpu_max_binding_bytes``; tests use it to
                exercise split dispatch on small arrays).
            pool_bytes: most bytes of freed buffers kept for re-use.
            use_f64: use the adapter's ``shader-f64`` feature when it has it.
            cache_base: folder of the on-disk WGSL cache (None: user cache).
            disk_cache: persist compiled sources there.
        """
        ctx = open_device(power_preference, use_f64)
        super().__init__(ctx, device_id, max_binding_bytes, pool_bytes, cache_base, disk_cache)
        if self_test:
            run_f64_selftest(ctx, self._selftest_unary)
            # Destroy the self-test's small pooled buffers: on the H200 keeping
            # them made every later large kernel 2.6x slower (cause unknown,
            # measured in docs/benchmarks/wgpu.md).
            self.wait_idle()
            self.buffers.trim_pool()
        elif ctx.has_f64:
            ctx.precision_policy = "f64-own-transcendentals (self-test skipped)"
        self.capabilities = ProviderCapabilities(
            fuses=True, float64=ctx.has_f64,
            hardware_gpu=ctx.adapter_type.upper().replace("_", "") in _GPU_ADAPTER_TYPES,
            max_kernel_buffers=self.max_kernel_buffers, split_dispatch=True)

    def _selftest_unary(self, op: str, x: np.ndarray) -> np.ndarray:
        h = self.upload(HostTensor.from_array(x.reshape(-1, 1)))
        try:
            r = self.elem_unary(op, h, "float64")
            try:
                return self.download(r).data
            finally:
                self.free(r)
        finally:
            self.free(h)

    # ------------------------------------------------------------ memory
    def upload(self, host: HostTensor) -> GpuTensorHandle:
        data = np.asarray(host.data).reshape(-1)
        dtype = data.dtype.name
        if dtype not in DEVICE_TYPES or host.matlab_class == "char":
            raise Unsupported(f"wgpu: {dtype} arrays stay on the host")
        with self.op("upload"), PhaseTimer(self.tel, "upload"):
            item = DEVICE_TYPES[dtype][1]
            nbytes = data.size * item
            small = nbytes <= SMALL_UPLOAD_BYTES
            h = self.alloc(tuple(host.shape), dtype, for_upload=not small)
            buf = self.buffer_of(h)[0]
            if small and nbytes:
                self.batcher.upload_small(buf, host_bytes(data, dtype))
            elif nbytes:
                # in pieces: wgpu stages each write_buffer in a buffer of its size
                piece = staging_piece_elements(item, self.binding_limit)
                for s0 in range(0, data.size, piece):
                    self.ctx.queue.write_buffer(buf.buffer, s0 * item,
                                                host_view(data[s0:s0 + piece], dtype))
                self.batcher.mark_busy()   # synchronize must wait for the write
            self.tel.uploads += 1
            self.tel.upload_bytes += nbytes
            return h

    def download(self, handle: GpuTensorHandle) -> HostTensor:
        self.check(handle)
        with self.op("download"), PhaseTimer(self.tel, "download"):
            data = self.read(handle)
        return HostTensor(data, tuple(handle.shape), _CLASS_OF.get(handle.dtype, "double"))

    def free(self, handle: GpuTensorHandle) -> None:
        if handle.device_id == self.device_id:
            self.buffers.free(handle.buffer_id)

    def live_buffers(self) -> int:
        return self.buffers.live

    def reset(self) -> None:
        self.flush()
        self.buffers.reset()
        self.flush()
        self.buffers.release_quarantine()
        self.staging.trim()

    def synchronize(self) -> None:
        with PhaseTimer(self.tel, "synchronize"):
            self.wait_idle()

    @property
    def f32_division_via_f64(self) -> bool:
        """WGSL's f32 division may be 2.5 ulp off (MATLAB's is IEEE-exact):
        fused kernels divide through f64 where the adapter has shader-f64."""
        return bool(self.ctx.has_f64)

    # ------------------------------------------------------------ info
    def device_info(self) -> str:
        return self.ctx.summary

    def device_info_struct(self) -> DeviceInfo:
        c = self.ctx
        keep = ("max-buffer-size", "max-storage-buffer-binding-size",
                "max-storage-buffers-per-shader-stage", "min-storage-buffer-offset-alignment",
                "max-compute-workgroups-per-dimension", "max-compute-invocations-per-workgroup",
                "max-compute-workgroup-storage-size")
        return DeviceInfo(
            name=c.name, vendor=c.vendor, backend=c.backend, device_id=self.device_id,
            total_memory=0, available_memory=0, supports_double=c.has_f64,
            precision_policy=c.precision_policy,
            limits={k: c.limits[k] for k in keep if k in c.limits},
            extra={"adapter_type": c.adapter_type, "binding_limit": self.binding_limit, "f64_selftest_max_rel_err": dict(c.selftest),
                   "live_bytes": self.buffers.live_bytes()},
        )

    # ------------------------------------------------------------ telemetry
    def telemetry(self) -> dict[str, Any]:
        self.tel.pool_hits = self.buffers.pool_hits
        self.tel.pool_misses = self.buffers.pool_misses
        d = self.tel.as_dict(self.pipelines.stats())
        d["live_buffers"] = self.buffers.live
        d["pending_dispatches"] = self.batcher.pending
        d["cached_bind_groups"] = self.batcher.cached_bind_groups
        d["staging_buffers_created"] = self.staging.created
        return d

    def reset_telemetry(self) -> None:
        from matfuse.accelerate.providers.wgpu.telemetry import WgpuTelemetry

        fresh = WgpuTelemetry()
        self.tel.__dict__.update(fresh.__dict__)
        self.pipelines.hits = self.pipelines.misses = 0
        self.buffers.pool_hits = self.buffers.pool_misses = 0

    def warm_up(self) -> int:
        """Compile kernels persisted by earlier runs; returns how many."""
        return self.pipelines.warm_from_disk()


def create_wgpu_provider(power_preference: str | None = None) -> WgpuProvider:
    """Open the best adapter and build a provider.

    Raises:
        Unsupported: no wgpu adapter on this machine.
    """
    return WgpuProvider(power_preference)


__all__ = ["WgpuProvider", "create_wgpu_provider"]
