"""The path of ``a + b`` on gpuArray operands: which matfuse modules run.

A trace (``sys.setprofile``) of ``runtime.ops.binary('+', a, b)`` after a
warm-up call lists the modules whose functions run, in two ways:

* the path (``docs/architecture.md``): a provider method is one step, the
  provider's module, whatever it calls inside; methods of the value types
  (``GpuArray``, ``FNode``, ``GpuTensorHandle``: constructors, properties,
  accessors) are data, not steps, except ``GpuArray.materialize``, which
  runs the fusion executor. At most five modules on every provider:
  ``runtime.ops -> runtime.device_router -> accelerate.router.route ->``
  the launch step (``router.launch``, or the graph node of the fused form:
  ``fusion.lazy`` and ``fusion.graph``) ``->`` the provider;
* every module whose code runs (a ratchet: the bounds may only go down).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from matfuse.accelerate.fusion.graph import FNode
from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner import offload
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, override_provider
from matfuse.accelerate import facade
from matfuse.runtime import ops
from matfuse.runtime.device_router import device_router

# every provider: the design's bound on the path
MAX_PATH_MODULES = 5
# provider -> most matfuse modules whose code runs (fused path on wgpu/cuda)
MAX_MODULES = {"inprocess": 11, "wgpu": 6, "cuda": 6}

_VALUE_TYPES = (GpuArray, FNode, GpuTensorHandle)
_RUNS_KERNELS = {"materialize"}


def _value_codes() -> set[Any]:
    codes = set()
    for cls in _VALUE_TYPES:
        for attr_name, attr in vars(cls).items():
            if attr_name in _RUNS_KERNELS:
                continue
            for fn in (attr, getattr(attr, "__func__", None), getattr(attr, "fget", None)):
                code = getattr(fn, "__code__", None)
                if code is not None:
                    codes.add(code)
    return codes


def trace_modules(call: Any) -> tuple[list[str], list[str]]:
    """(path modules, every module) of the matfuse code ``call()`` runs."""
    value_codes = _value_codes()
    path: list[str] = []
    every: list[str] = []
    opaque = [0]   # depth inside a provider method or a value type's method

    def profile(frame, event, arg):
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if name.startswith("matfuse") and name not in every:
                every.append(name)
            if opaque[0]:
                opaque[0] += 1
            elif frame.f_code in value_codes:
                opaque[0] = 1
            elif isinstance(frame.f_locals.get("self"), AccelProvider):
                if name not in path:
                    path.append(name)
                opaque[0] = 1
            elif name.startswith("matfuse") and name not in path:
                path.append(name)
        elif event == "return" and opaque[0]:
            opaque[0] -= 1

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return path, every


def _plus_path(provider: AccelProvider, fusion: bool) -> tuple[list[str], list[str], Any]:
    # auto-offload off, as in a process without a hardware GPU (an earlier
    # test may have left it waiting to install); the fresh state afterwards
    offload.deactivate()
    saved = facade.use_acceleration_state(facade.AccelerationState(
        AccelerateInitOptions(provider=provider.name, fusion=fusion, auto_offload=False),
        provider, provider.name))
    try:
        with override_provider(provider):
            router = device_router()
            a = router.upload(np.ones((4, 4)))
            b = router.upload(np.ones((4, 4)))
            ops.binary("+", a, b)   # warm-up: imports, session and caches
            result: list[Any] = []
            path, every = trace_modules(lambda: result.append(ops.binary("+", a, b)))
            gathered = result[0].gather()
    finally:
        facade.use_acceleration_state(saved)
        offload.reset()
    return path, every, gathered


def test_device_plus_visits_five_modules(accel_provider):
    path, every, value = _plus_path(accel_provider, fusion=True)
    np.testing.assert_array_equal(value, np.full((4, 4), 2.0))
    assert path[:3] == ["matfuse.runtime.ops", "matfuse.runtime.device_router",
                        "matfuse.accelerate.router.route"]
    assert len(path) <= MAX_PATH_MODULES, " -> ".join(path)
    if accel_provider.capabilities.fuses:
        assert path[3:] == ["matfuse.accelerate.fusion.lazy", "matfuse.accelerate.fusion.graph"]
    else:
        assert path[3] == "matfuse.accelerate.router.launch"
        assert path[4].startswith("matfuse.accelerate.providers.")
    bound = MAX_MODULES.get(accel_provider.name)
    if bound is not None:
        assert len(every) <= bound, " -> ".join(every)


def test_unfused_plus_is_one_launch_step(accel_provider):
    """With fusion off, ``a + b`` is launched now: on a provider that renders
    kernels, as a one-node kernel of the fusion IR (``fusion.lazy.one_node``
    through the executor), else through the provider's hook."""
    if not accel_provider.capabilities.fuses:
        pytest.skip("the provider runs no generated kernels")
    from matfuse.accelerate.fusion.counters import STATS

    before = STATS.kernels
    path, _, value = _plus_path(accel_provider, fusion=False)
    np.testing.assert_array_equal(value, np.full((4, 4), 2.0))
    assert STATS.kernels > before
    assert path[:4] == ["matfuse.runtime.ops", "matfuse.runtime.device_router",
                        "matfuse.accelerate.router.route", "matfuse.accelerate.router.launch"]
    assert "matfuse.accelerate.fusion.executor" in path


# ------------------------------------------------------------------ CUDA
# The CUDA provider's path on a NumPy-backed fake CuPy whose NVRTC kernels
# run on the CPU through g++ (tests/accelerate/cuda_host.py); the real CuPy
# run is test_device_plus_visits_five_modules with --provider=cuda.
@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    from tests.accelerate import cuda_host
    from tests.accelerate.providers import fake_cupy

    if not cuda_host.gxx_available():
        pytest.skip("g++ not on PATH")
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("path_cuda_cache")))


def test_cuda_plus_takes_the_fused_path(fake_cuda):
    path, every, value = _plus_path(fake_cuda, fusion=True)
    np.testing.assert_array_equal(value, np.full((4, 4), 2.0))
    assert path == ["matfuse.runtime.ops", "matfuse.runtime.device_router",
                    "matfuse.accelerate.router.route", "matfuse.accelerate.fusion.lazy",
                    "matfuse.accelerate.fusion.graph"]
    assert len(every) <= MAX_MODULES["cuda"], " -> ".join(every)


def test_cuda_unfused_plus_is_a_one_node_kernel(fake_cuda):
    """With fusion off, a CUDA elementwise op is a one-node kernel rendered
    by the CUDA renderer from the op table and launched through NVRTC (the
    provider's ``fused_elementwise``), not a CuPy ufunc."""
    calls: list[str] = []
    original = type(fake_cuda).fused_elementwise

    def spy(self, kernel, inputs, scalars, outputs):
        calls.append(kernel.source)
        return original(self, kernel, inputs, scalars, outputs)

    type(fake_cuda).fused_elementwise = spy
    try:
        path, _, value = _plus_path(fake_cuda, fusion=False)
    finally:
        type(fake_cuda).fused_elementwise = original
    np.testing.assert_array_equal(value, np.full((4, 4), 2.0))
    assert path[:4] == ["matfuse.runtime.ops", "matfuse.runtime.device_router",
                        "matfuse.accelerate.router.route", "matfuse.accelerate.router.launch"]
    assert calls and all("__global__" in src for src in calls)
    assert " + " in calls[-1]
