"""The path of ``a + b`` on gpuArray operands: which matfuse modules run.

A trace (``sys.setprofile``) of ``runtime.ops.binary('+', a, b)`` after a
warm-up call lists the modules whose functions run. The design aims at five
(``docs/architecture.md``); the bounds below are what the code does today
and may only go down.
"""

from __future__ import annotations

import sys

import numpy as np

from matfuse.accelerate.planner import offload
from matfuse.accelerate_api import override_provider
from matfuse.runtime import ops
from matfuse.runtime.device_router import device_router

# provider -> most matfuse modules the path may visit (a ratchet toward 5)
MAX_MODULES = {"inprocess": 14, "wgpu": 11}


def _modules_on_path(a, b) -> list[str]:
    seen: list[str] = []

    def profile(frame, event, arg):
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if name.startswith("matfuse") and name not in seen:
                seen.append(name)

    sys.setprofile(profile)
    try:
        ops.binary("+", a, b)
    finally:
        sys.setprofile(None)
    return seen


def test_device_plus_visits_few_modules(accel_provider):
    if accel_provider.name not in MAX_MODULES:
        return
    # auto-offload off, as in a process without a hardware GPU (an earlier
    # test may have left it waiting to install); the fresh state afterwards
    offload.deactivate()
    try:
        with override_provider(accel_provider):
            router = device_router()
            a = router.upload(np.ones((4, 4)))
            b = router.upload(np.ones((4, 4)))
            ops.binary("+", a, b)   # warm-up: imports and caches
            path = _modules_on_path(a, b)
    finally:
        offload.reset()
    assert path[:3] == ["matfuse.runtime.ops", "matfuse.runtime.device_router",
                        "matfuse.accelerate.router.route"]
    assert len(path) <= MAX_MODULES[accel_provider.name], " -> ".join(path)
