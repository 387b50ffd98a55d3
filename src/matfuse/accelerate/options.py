"""AccelerateInitOptions: every acceleration setting, and the ONE place where
environment overrides are read (documented in README "Environment overrides").

Precedence: explicit keyword overrides (CLI flags) > environment > defaults.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from matfuse.errors import MatlabError

PROVIDER_CHOICES = ("auto", "wgpu", "cuda", "inprocess")
POWER_CHOICES = ("high-performance", "low-power")
FALLBACK_CHOICES = ("inprocess", "error")

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


def _config_error(var: str, value: str, allowed: str) -> MatlabError:
    return MatlabError("matfuse:accelerate:badOption",
                       f"Invalid value '{value}' for {var}; expected {allowed}.")


def _parse_bool(var: str, value: str) -> bool:
    low = value.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise _config_error(var, value, "0 or 1")


def _parse_choice(var: str, value: str, choices: tuple[str, ...],
                  aliases: Mapping[str, str] | None = None) -> str:
    low = value.strip().lower()
    if aliases and low in aliases:
        low = aliases[low]
    if low not in choices:
        raise _config_error(var, value, " | ".join(choices))
    return low


def _parse_int(var: str, value: str) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise _config_error(var, value, "a non-negative integer") from None
    if n < 0:
        raise _config_error(var, value, "a non-negative integer")
    return n


@dataclass(frozen=True, slots=True)
class AccelerateInitOptions:
    """Configuration of the acceleration layer.

    Attributes:
        provider: ``auto`` (cuda -> wgpu on a real GPU -> inprocess),
            ``wgpu``, ``cuda`` or ``inprocess``.
        power: adapter power preference, ``high-performance`` or ``low-power``.
        fallback: when the requested provider cannot start: ``inprocess``
            (use the NumPy provider, with a note) or ``error``.
        fusion: build lazy graphs and fuse elementwise chains.
        auto_offload: move large plain arrays to the device automatically
            when the provider is a real GPU (True), never (False), or also on
            the in-process provider / a CPU adapter (``"force"``, for tests).
        threshold_elementwise, threshold_reduction, threshold_matmul,
        threshold_construction: planner thresholds (elements; FLOPs for
            matmul) overriding defaults and calibration; None = not set.
        calibrate: run the planner's micro-benchmarks on first use when no
            calibration file exists for the device.
        dump_kernels: directory where generated kernels are written, or None.
        stats: print acceleration statistics when the program ends.
        device_index: which adapter/device to use (0-based).
        allow_cpu_adapter: let ``auto`` pick a CPU adapter (lavapipe).
        dask_scheduler: address of a running Dask scheduler that ``parpool``
            joins (``tcp://host:8786``) instead of starting a local cluster.
        wgpu_max_binding_bytes: lower the wgpu provider's storage-binding
            limit below the adapter's (bytes; None = the adapter's). Tensors
            over it run their kernels as split dispatches over bound ranges;
            tests set it small to exercise that path on small arrays.
        wgpu_pool_bytes: most bytes of freed buffers the wgpu provider keeps
            pooled for re-use.
        wgpu_f64: let the wgpu provider use the adapter's ``shader-f64``
            feature (False: double arrays take the host path).
        kernel_cache_dir: folder of the on-disk kernel caches (None: the
            platform's user cache folder).
        disk_cache: persist compiled kernels' sources between runs.
    """

    provider: str = "auto"
    power: str = "high-performance"
    fallback: str = "inprocess"
    fusion: bool = True
    auto_offload: bool | str = True
    dump_kernels: str | None = None
    stats: bool = False
    device_index: int = 0
    allow_cpu_adapter: bool = False
    threshold_elementwise: int | None = None
    threshold_reduction: int | None = None
    threshold_matmul: int | None = None
    threshold_construction: int | None = None
    calibrate: bool = False
    wgpu_max_binding_bytes: int | None = None
    dask_scheduler: str | None = None
    wgpu_pool_bytes: int = 4 << 30
    wgpu_f64: bool = True
    kernel_cache_dir: str | None = None
    disk_cache: bool = True

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None, **cli_overrides: Any) -> "AccelerateInitOptions":
        """Defaults, then the ``MATFUSE_*`` environment, then ``cli_overrides``
        (keyword names are the attribute names; ``None`` values are ignored)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for var, (attr, parse) in ENV_VARIABLES.items():
            raw = env.get(var)
            if raw is not None:
                values[attr] = parse(var, raw)
        known = {f.name for f in fields(AccelerateInitOptions)}
        for key, value in cli_overrides.items():
            if key not in known:
                raise TypeError(f"unknown acceleration option {key!r}")
            if value is not None:
                values[key] = value
        options = AccelerateInitOptions(**values)
        options.validate()
        return options

    def validate(self) -> None:
        """Raise MATLAB-style errors for out-of-range settings."""
        if self.provider not in PROVIDER_CHOICES:
            raise _config_error("provider", self.provider, " | ".join(PROVIDER_CHOICES))
        if self.power not in POWER_CHOICES:
            raise _config_error("power", self.power, " | ".join(POWER_CHOICES))
        if self.fallback not in FALLBACK_CHOICES:
            raise _config_error("fallback", self.fallback, " | ".join(FALLBACK_CHOICES))

    def with_changes(self, **changes: Any) -> "AccelerateInitOptions":
        return replace(self, **changes)

    def threshold_overrides(self) -> dict[str, int]:
        """The planner thresholds these options set, by category."""
        given = {"elementwise": self.threshold_elementwise, "reduction": self.threshold_reduction,
                 "matmul": self.threshold_matmul, "construction": self.threshold_construction}
        return {category: value for category, value in given.items() if value is not None}


def _parse_dir(var: str, value: str) -> str | None:
    return value or None


def _parse_negated_bool(var: str, value: str) -> bool:
    return not _parse_bool(var, value)


def _parse_bool_or_force(var: str, value: str) -> bool | str:
    if value.strip().lower() == "force":
        return "force"
    return _parse_bool(var, value)


# Environment variable -> (attribute, parser). README's table mirrors this.
ENV_VARIABLES: dict[str, tuple[str, Any]] = {
    "MATFUSE_PROVIDER": ("provider", lambda v, s: _parse_choice(v, s, PROVIDER_CHOICES)),
    # MATFUSE_WGPU_POWER: the older name of MATFUSE_POWER (listed first: the newer wins)
    "MATFUSE_WGPU_POWER": ("power", lambda v, s: _parse_choice(
        v, s, POWER_CHOICES, {"high": "high-performance", "low": "low-power"})),
    "MATFUSE_POWER": ("power", lambda v, s: _parse_choice(
        v, s, POWER_CHOICES, {"high": "high-performance", "low": "low-power"})),
    "MATFUSE_FALLBACK": ("fallback", lambda v, s: _parse_choice(v, s, FALLBACK_CHOICES)),
    "MATFUSE_FUSION": ("fusion", _parse_bool),
    "MATFUSE_AUTO_OFFLOAD": ("auto_offload", _parse_bool_or_force),
    "MATFUSE_THRESHOLD_ELEMENTWISE": ("threshold_elementwise", _parse_int),
    "MATFUSE_THRESHOLD_REDUCTION": ("threshold_reduction", _parse_int),
    "MATFUSE_THRESHOLD_MATMUL": ("threshold_matmul", _parse_int),
    "MATFUSE_THRESHOLD_CONSTRUCTION": ("threshold_construction", _parse_int),
    "MATFUSE_CALIBRATE": ("calibrate", _parse_bool),
    "MATFUSE_DUMP_KERNELS": ("dump_kernels", _parse_dir),
    "MATFUSE_STATS": ("stats", _parse_bool),
    "MATFUSE_DEVICE": ("device_index", _parse_int),
    "MATFUSE_ALLOW_CPU_ADAPTER": ("allow_cpu_adapter", _parse_bool),
    "MATFUSE_WGPU_MAX_BINDING": ("wgpu_max_binding_bytes", _parse_int),
    "MATFUSE_DASK_SCHEDULER": ("dask_scheduler", _parse_dir),
    "MATFUSE_WGPU_POOL_BYTES": ("wgpu_pool_bytes", _parse_int),
    "MATFUSE_WGPU_NO_F64": ("wgpu_f64", _parse_negated_bool),
    "MATFUSE_CACHE_DIR": ("kernel_cache_dir", _parse_dir),
    "MATFUSE_NO_DISK_CACHE": ("disk_cache", _parse_negated_bool),
}


def visible_cuda_devices(env: Mapping[str, str] | None = None) -> str | None:
    """``CUDA_VISIBLE_DEVICES`` of this process (a parallel worker that owns
    one GPU sees it as device 0), or None when unset."""
    env = os.environ if env is None else env
    return env.get("CUDA_VISIBLE_DEVICES")
