"""Calibration: micro-benchmarks of NumPy against the active provider.

Measures transfers (upload/download per byte), the fixed cost of one device
operation, and per-unit costs of elementwise, reduction, matmul and
construction work on both sides; derives the break-even thresholds. The
result is a versioned JSON file per device (vendor, name, backend, driver)
in the platformdirs cache dir, loaded automatically when the planner starts
and ignored (with a warning) when stale, corrupt or from another device.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.thresholds import CATEGORIES
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, HostTensor, Unsupported
from matfuse.runtime.atomic_files import load_json_safe, write_text_atomic

FORMAT_VERSION = 1
MAX_AGE_S = 90 * 24 * 3600      # older files are stale: drivers and code change
MIN_THRESHOLD = 4096            # never offload less than this, whatever was measured


@dataclass(slots=True)
class Calibration:
    """A device's measured cost model and the thresholds derived from it."""

    device: dict[str, str]
    cost_model: CostModel
    thresholds: dict[str, int]
    created: float
    path: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "device": self.device, "created": self.created,
                "cost_model": self.cost_model.as_dict(), "thresholds": self.thresholds}


def device_identity(p: AccelProvider) -> dict[str, str]:
    """vendor, name, backend, driver of ``p``'s device."""
    try:
        info = p.device_info_struct()
    except (NotImplementedError, Unsupported):
        return {"vendor": "", "name": p.name, "backend": p.name, "driver": ""}
    driver = info.extra.get("driver") or info.extra.get("driver_version") or ""
    return {"vendor": str(info.vendor), "name": str(info.name),
            "backend": str(info.backend or p.name), "driver": str(driver)}


def calibration_dir() -> Path:
    """``<user cache dir>/matfuse/planner`` (platformdirs, a dependency)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("matfuse")) / "planner"


def calibration_path(identity: dict[str, str], folder: Path | None = None) -> Path:
    key = json.dumps(identity, sort_keys=True).encode()
    digest = hashlib.sha256(key).hexdigest()[:16]
    safe_backend = "".join(c for c in identity.get("backend", "") if c.isalnum()) or "device"
    return (folder or calibration_dir()) / f"calibration-{safe_backend}-{digest}.json"


# ------------------------------------------------------------------ loading
def load_calibration(p: AccelProvider, folder: Path | None = None,
                     warn: Callable[[str], None] | None = None) -> Calibration | None:
    """The saved calibration of ``p``'s device, or None (missing, or
    ignored with a warning when stale, corrupt or from another device)."""
    warn = warn or _warn
    identity = device_identity(p)
    path = calibration_path(identity, folder)
    if not path.exists():
        return None
    # Safe read: a FIFO or folder in its place, bad bytes or JSON nested too
    # deeply to parse are warned about and ignored, never fatal.
    data = load_json_safe(path, warn)
    if data is None:
        return None
    if not isinstance(data, dict):
        warn(f"ignoring corrupt planner calibration {path}: not a JSON object")
        return None
    if data.get("format") != FORMAT_VERSION:
        warn(f"ignoring stale planner calibration {path} (format {data.get('format')}); "
             "run 'matfuse calibrate --refresh'")
        return None
    if data.get("device") != identity:
        warn(f"ignoring planner calibration {path}: it is from another device")
        return None
    created = data.get("created")
    if not isinstance(created, (int, float)) or not -1e18 < created < 1e18 \
            or time.time() - created > MAX_AGE_S:
        warn(f"ignoring stale planner calibration {path}; run 'matfuse calibrate --refresh'")
        return None
    thresholds = data.get("thresholds")
    model = data.get("cost_model")
    if not isinstance(thresholds, dict) or not isinstance(model, dict):
        warn(f"ignoring corrupt planner calibration {path}: missing fields")
        return None
    clean = {c: int(v) for c, v in thresholds.items()
             if c in CATEGORIES and isinstance(v, int) and v >= 0}
    return Calibration(identity, CostModel.from_dict(model), clean, float(created), path)


def _warn(text: str) -> None:
    sys.stderr.write(f"Warning: {text}\n")


_loaded: dict[int, Calibration | None] = {}


def calibration_for(p: AccelProvider, run_if_missing: bool = False) -> Calibration | None:
    """Calibration of ``p`` (loaded once per process; measured and saved
    first when ``run_if_missing`` and there is none)."""
    key = id(p)
    if key not in _loaded:
        found = load_calibration(p)
        if found is None and run_if_missing:
            found = calibrate(p)
            try:
                save_calibration(found)
            except OSError as why:
                _warn(f"could not save the planner calibration: {why.strerror or why}")
        _loaded[key] = found
    return _loaded[key]


def save_calibration(calibration: Calibration, folder: Path | None = None) -> Path:
    """Write ``calibration`` atomically to its device's file; OSError when
    the cache folder cannot be created or written."""
    path = calibration_path(calibration.device, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(calibration.to_json(), indent=2, sort_keys=True))
    calibration.path = path
    return path


# ------------------------------------------------------------------ measuring
def _median_time(fn: Callable[[], Any], repeats: int = 5) -> float:
    fn()  # warm-up: pipeline compilation, allocator
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(statistics.median(times))


def _device_time(p: AccelProvider, hook: Callable[[], GpuTensorHandle], repeats: int = 5) -> float:
    def run() -> None:
        out = hook()
        p.synchronize()
        p.free(out)
    return _median_time(run, repeats)


def calibrate(p: AccelProvider, n: int = 1 << 20, matmul_n: int = 256) -> Calibration:
    """Run the micro-benchmarks (about a second on a GPU) and derive thresholds."""
    model = CostModel(source="calibration")
    rng = np.random.default_rng(0)
    x = rng.random(n)
    y = rng.random(n)
    host_x = HostTensor.from_array(x.reshape(n, 1), "double")
    handles: list[GpuTensorHandle] = []
    try:
        model.upload_s_per_byte = _median_time(lambda: p.free(p.upload(host_x)), 3) / x.nbytes
        hx = p.upload(host_x)
        hy = p.upload(HostTensor.from_array(y.reshape(n, 1), "double"))
        handles += [hx, hy]
        model.download_s_per_byte = _median_time(lambda: p.download(hx), 3) / x.nbytes
        tiny = p.upload(HostTensor.from_array(np.ones((1, 1)), "double"))
        handles.append(tiny)
        _measure(model, "launch", lambda: _device_time(
            p, lambda: p.elem_binary("plus", tiny, tiny, "float64"), 11))
        cpu = {
            "elementwise": (_median_time(lambda: np.add(x, y)), n),
            "reduction": (_median_time(lambda: np.sum(x)), n),
            "construction": (_median_time(lambda: rng.standard_normal(n)), n),
        }
        a = rng.random((matmul_n, matmul_n))
        cpu["matmul"] = (_median_time(lambda: a @ a), matmul_n ** 3)
        for category, (seconds, work) in cpu.items():
            model.cpu_s_per_unit[category] = seconds / work
        ha = p.upload(HostTensor.from_array(a, "double"))
        handles.append(ha)
        device_hooks = {
            "elementwise": (lambda: p.elem_binary("plus", hx, hy, "float64"), n),
            "reduction": (lambda: p.reduce("sum", hx, None, False, "float64"), n),
            "construction": (lambda: p.fill((n, 1), 0.0, "float64"), n),
            "matmul": (lambda: p.matmul(ha, ha), matmul_n ** 3),
        }
        for category, (hook, work) in device_hooks.items():
            _measure(model, category, lambda h=hook, w=work: max(
                _device_time(p, h) - model.launch_s, 0.0) / w)
    finally:
        for h in handles:
            p.free(h)
    thresholds = derive_thresholds(model, matmul_n)
    return Calibration(device_identity(p), model, thresholds, time.time())


def _measure(model: CostModel, category: str, measure: Callable[[], float]) -> None:
    """Store one device measurement; a hook the provider lacks keeps the default."""
    try:
        value = measure()
    except (NotImplementedError, Unsupported):
        return
    if category == "launch":
        model.launch_s = value
    else:
        model.device_s_per_unit[category] = value


def derive_thresholds(model: CostModel, matmul_n: int = 256) -> dict[str, int]:
    """Break-even work per category (inputs uploaded, their upload shared
    as the cost model says), at least MIN_THRESHOLD."""
    bytes_per_unit = {"elementwise": 16.0, "reduction": 8.0, "construction": 0.0,
                      "matmul": 16.0 / matmul_n}
    return {c: max(MIN_THRESHOLD, min(model.break_even(c, bytes_per_unit[c]), 1 << 62))
            for c in CATEGORIES}
