"""Planner thresholds: the smallest work worth sending to the device.

One threshold per cost category (elements, or FLOPs for matmul). Each value
remembers where it came from, because ``matfuse info`` shows it: built-in
``defaults`` (conservative: a discrete GPU wins well below them), a
``calibration`` file for this device, or the ``env``/options override.
Precedence: env/options > calibration > defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from matfuse.accelerate.options import AccelerateInitOptions

CATEGORIES = ("elementwise", "reduction", "matmul", "construction")

# Conservative defaults: below these, upload + launch + download cost more
# than NumPy on any device we have measured (PCIe ~10 GB/s, ~20 us per launch).
DEFAULT_THRESHOLDS: dict[str, int] = {
    "elementwise": 1 << 18,      # 262144 elements (2 MiB of doubles)
    "reduction": 1 << 18,
    "matmul": 1 << 24,           # m*k*n FLOPs, e.g. 256^3
    "construction": 1 << 18,
}

# GpuSpec.kind -> cost category (kinds not listed are not offloaded by the planner).
CATEGORY_OF_KIND: dict[str, str] = {
    "elementwise": "elementwise",
    "reduction": "reduction",
    "scan": "reduction",
    "matmul": "matmul",
    "construction": "construction",
    # conv/conv2/filter stream their data like elementwise kernels (with
    # more arithmetic per element): the elementwise threshold and costs.
    # fft/ifft (kind "fft") stay on the host under automatic offload: the
    # host ifft returns real results for conjugate-symmetric input (as
    # MATLAB's does) and the device one does not check.
    "signal": "elementwise",
    # Rearrangements (reshape, permute, circshift, flip, repmat...) move each
    # element once: the elementwise threshold; resident data stays resident.
    "indexing": "elementwise",
}


@dataclass(slots=True)
class ThresholdConfig:
    """Per-category thresholds and the source of each (``defaults``,
    ``calibration`` or ``env``)."""

    values: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    sources: dict[str, str] = field(default_factory=lambda: {c: "defaults" for c in CATEGORIES})

    def get(self, category: str) -> int:
        return self.values[category]

    def set(self, category: str, value: int, source: str) -> None:
        if category not in CATEGORIES:
            raise KeyError(category)
        self.values[category] = int(value)
        self.sources[category] = source

    def smallest_array(self) -> int:
        """The fewest elements an array must have for any category to offload
        it (matmul FLOPs are at least the element count of its output)."""
        return min(self.values["elementwise"], self.values["reduction"],
                   self.values["construction"])

    def apply_calibration(self, thresholds: Mapping[str, Any]) -> None:
        for category in CATEGORIES:
            value = thresholds.get(category)
            if isinstance(value, int) and value >= 0:
                self.set(category, value, "calibration")

    def apply_options(self, options: AccelerateInitOptions) -> None:
        """Overrides from the options (``threshold_<category>``)."""
        for category, value in options.threshold_overrides().items():
            if category in CATEGORIES:
                self.set(category, value, "env")

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {c: {"value": self.values[c], "source": self.sources[c]} for c in CATEGORIES}


def resolve_thresholds(options: AccelerateInitOptions | None = None,
                       calibration: Mapping[str, Any] | None = None) -> ThresholdConfig:
    """Defaults, then the calibration's thresholds, then option overrides."""
    config = ThresholdConfig()
    if calibration:
        config.apply_calibration(calibration)
    if options is not None:
        config.apply_options(options)
    return config
