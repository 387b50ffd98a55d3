"""What machine and software a benchmark run used (recorded in results.json).

Versions come from package metadata, so recording them imports nothing heavy.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

PACKAGES = ("matfuse", "numpy", "scipy", "torch", "cupy-cuda12x", "cupy", "wgpu", "matplotlib")


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpu_names() -> list[str]:
    """NVIDIA GPUs by nvidia-smi (empty where there is none)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    try:
        done = subprocess.run([smi, "--query-gpu=name,memory.total,driver_version",
                               "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def octave_version() -> str | None:
    octave = shutil.which("octave")
    if octave is None:
        return None
    env = dict(os.environ, XDG_RUNTIME_DIR=tempfile.gettempdir())
    try:
        done = subprocess.run([octave, "--no-gui", "-q", "--eval", "disp(version())"],
                              capture_output=True, text=True, timeout=60, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def describe_environment() -> dict[str, Any]:
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        versions[name] = package_version(name)
    if versions.get("cupy") is None:
        versions["cupy"] = versions.get("cupy-cuda12x")
    versions.pop("cupy-cuda12x", None)
    versions["octave"] = octave_version()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "os": f"{platform.system()} {platform.release()}",
        "gpus": gpu_names(),
        "versions": versions,
    }
