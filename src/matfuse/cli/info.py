"""``matfuse info [--json]``: the device, its backend and precision policy,
limits, pipeline-cache statistics, start-up and warm-up time, the planner's
thresholds (and where each came from) and the decisions of the last run."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, TextIO

from matfuse.accelerate_api import AccelProvider, Unsupported

_CACHE_KEYS = ("pipeline_cache_hits", "pipeline_cache_misses", "pipelines", "cache_hits",
               "cache_misses", "disk_cache_hits")


def collect_info(options: Any = None) -> dict[str, Any]:
    """Everything ``matfuse info`` shows, as plain data."""
    from matfuse.accelerate.facade import acceleration_state, initialize_acceleration_provider
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate.planner.calibrate import calibration_for, calibration_path, \
        device_identity
    from matfuse.accelerate.planner.offload import is_real_gpu
    from matfuse.accelerate.planner.thresholds import resolve_thresholds
    from matfuse.accelerate.planner.last_run import load_last_decisions

    options = options or AccelerateInitOptions.from_env()
    start = time.perf_counter()
    p = initialize_acceleration_provider(options)
    startup_s = time.perf_counter() - start
    state = acceleration_state()
    info: dict[str, Any] = {"provider": p.name, "description": state.description if state else p.name,
                            "notes": list(state.notes) if state else [],
                            "startup_s": round(startup_s, 4)}
    info.update(_device_fields(p))
    info["warm_up_s"] = _warm_up_time(p)
    telemetry = _telemetry(p)
    info["pipeline_cache"] = {k: telemetry[k] for k in _CACHE_KEYS if k in telemetry}
    calibration = calibration_for(p)
    thresholds = resolve_thresholds(options, calibration.thresholds if calibration else None)
    setting = options.auto_offload
    enabled = setting == "force" or (setting is True and is_real_gpu(p))
    info["auto_offload"] = {"setting": str(setting).lower(), "enabled": enabled,
                            "thresholds": thresholds.as_dict(),
                            "calibration_file": str(calibration.path) if calibration else None,
                            "calibration_expected_at": str(calibration_path(device_identity(p)))}
    info["last_decisions"] = load_last_decisions()
    return info


def _device_fields(p: AccelProvider) -> dict[str, Any]:
    try:
        d = p.device_info_struct()
    except (NotImplementedError, Unsupported):
        return {"device": p.name}
    return {"device": d.name, "vendor": d.vendor, "backend": d.backend,
            "precision_policy": d.precision_policy, "supports_double": d.supports_double,
            "total_memory": d.total_memory, "limits": dict(d.limits)}


def _warm_up_time(p: AccelProvider) -> float | None:
    warm_up = getattr(p, "warm_up", None)
    if warm_up is None:
        return None
    start = time.perf_counter()
    warm_up()
    return round(time.perf_counter() - start, 4)


def _telemetry(p: AccelProvider) -> dict[str, Any]:
    try:
        return dict(p.telemetry())
    except (NotImplementedError, Unsupported):
        return {}


def format_info(info: dict[str, Any]) -> str:
    """The human-readable form."""
    lines = [f"provider:         {info['description']}"]
    for key in ("vendor", "backend", "precision_policy", "total_memory"):
        if info.get(key) not in (None, ""):
            lines.append(f"{key + ':':<18}{info[key]}")
    lines.append(f"start-up:         {info['startup_s']:.3f} s"
                 + (f", warm-up {info['warm_up_s']:.3f} s" if info.get("warm_up_s") is not None else ""))
    for note in info.get("notes", []):
        lines.append(f"note:             {note}")
    if info.get("limits"):
        lines.append("limits:           " + ", ".join(f"{k}={v}" for k, v in sorted(info["limits"].items())))
    if info.get("pipeline_cache"):
        lines.append("pipeline cache:   " + ", ".join(f"{k}={v}" for k, v in info["pipeline_cache"].items()))
    auto = info["auto_offload"]
    lines.append(f"auto-offload:     {'on' if auto['enabled'] else 'off'} (setting {auto['setting']})")
    for category, entry in auto["thresholds"].items():
        lines.append(f"  threshold {category + ':':<14}{entry['value']} ({entry['source']})")
    lines.append(f"  calibration:    {auto['calibration_file'] or 'none (run matfuse calibrate)'}")
    last = info.get("last_decisions") or {}
    if last.get("counts"):
        lines.append("last run decisions: " + ", ".join(f"{k}={v}" for k, v in last["counts"].items()))
        for text in last.get("recent", [])[-10:]:
            lines.append(f"  {text}")
    return "\n".join(lines) + "\n"


def run_info(args: list[str], options: Any = None, out: TextIO | None = None) -> int:
    """``matfuse info [--json]``; returns the exit status."""
    out = out or sys.stdout
    unknown = [a for a in args if a != "--json"]
    if unknown:
        sys.stderr.write(f"matfuse info: unknown argument '{unknown[0]}'\n")
        return 2
    info = collect_info(options)
    out.write(json.dumps(info, indent=2, default=str) + "\n" if "--json" in args else format_info(info))
    return 0
