"""Cost model: estimated seconds of one operation on the CPU and on the device.

Costs per category are linear in the work (elements, FLOPs for matmul) plus,
on the device, a launch overhead and the transfers of host operands. The
fusion-context hook: an operation that joins a fused group of ``group_size``
operations shares one launch and one upload of its inputs with the group,
so those fixed costs are divided among the group's members.

Defaults describe a mid-range discrete GPU behind PCIe and a NumPy core;
``calibrate.py`` replaces them with measurements of this machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

_DEFAULT_CPU = {            # seconds per element (per FLOP for matmul)
    "elementwise": 1.5e-9,
    "reduction": 0.6e-9,
    "matmul": 1.0 / 40e9,
    "construction": 4e-9,   # randn dominates
}
_DEFAULT_DEVICE = {
    "elementwise": 0.05e-9,
    "reduction": 0.05e-9,
    "matmul": 1.0 / 4e12,
    "construction": 0.05e-9,
}


@dataclass(frozen=True, slots=True)
class Estimate:
    """Seconds on each side, and the part of the device time that is transfers."""

    cpu_s: float
    device_s: float
    transfer_s: float

    @property
    def device_wins(self) -> bool:
        return self.device_s < self.cpu_s


@dataclass(slots=True)
class CostModel:
    """Linear costs; see the module doc.

    Attributes:
        upload_s_per_byte / download_s_per_byte: host<->device transfer cost.
        upload_reuse: operations an uploaded operand is expected to serve.
        launch_s: fixed cost of one device operation (dispatch + sync share).
        cpu_s_per_unit / device_s_per_unit: per element (per FLOP for matmul).
        source: ``defaults`` or ``calibration``.
    """

    upload_s_per_byte: float = 1.0 / 10e9
    download_s_per_byte: float = 1.0 / 10e9
    launch_s: float = 20e-6
    cpu_s_per_unit: dict[str, float] = field(default_factory=lambda: dict(_DEFAULT_CPU))
    device_s_per_unit: dict[str, float] = field(default_factory=lambda: dict(_DEFAULT_DEVICE))
    source: str = "defaults"
    # A host operand, once uploaded for an operation, usually feeds a few
    # more device operations (its results stay resident): its upload is
    # charged over this many operations. 1 would charge it in full.
    upload_reuse: float = 4.0

    def estimate(self, category: str, work: int, upload_bytes: int = 0,
                 download_bytes: int = 0, group_size: int = 1) -> Estimate:
        """Costs of ``work`` units of ``category``.

        Args:
            upload_bytes: bytes of host operands that must be copied over.
            download_bytes: bytes expected to come back (0 when the result
                stays resident for device consumers).
            group_size: members of the fused group this operation joins (>= 1).
        """
        group = max(1, int(group_size))
        transfer = upload_bytes * self.upload_s_per_byte / max(group, self.upload_reuse) \
            + download_bytes * self.download_s_per_byte
        device = self.launch_s / group + transfer + work * self.device_s_per_unit[category]
        cpu = work * self.cpu_s_per_unit[category]
        return Estimate(cpu, device, transfer)

    def gather_s(self, nbytes: int) -> float:
        """Cost of forcing a lazy device value to the host: its kernel's
        launch and the download of ``nbytes``."""
        return self.launch_s + nbytes * self.download_s_per_byte

    def break_even(self, category: str, bytes_per_unit: float) -> int:
        """Smallest work for which the device wins when every input unit
        must be uploaded (``bytes_per_unit`` bytes each); a huge value when
        it never does."""
        per_unit_gain = self.cpu_s_per_unit[category] - self.device_s_per_unit[category] \
            - bytes_per_unit * self.upload_s_per_byte / self.upload_reuse
        if per_unit_gain <= 0:
            return 1 << 62
        return int(self.launch_s / per_unit_gain) + 1

    def as_dict(self) -> dict[str, Any]:
        return {"upload_s_per_byte": self.upload_s_per_byte,
                "download_s_per_byte": self.download_s_per_byte,
                "launch_s": self.launch_s,
                "upload_reuse": self.upload_reuse,
                "cpu_s_per_unit": dict(self.cpu_s_per_unit),
                "device_s_per_unit": dict(self.device_s_per_unit),
                "source": self.source}

    @staticmethod
    def from_dict(data: Mapping[str, Any], source: str = "calibration") -> "CostModel":
        """A model from ``as_dict`` output; missing entries keep the defaults."""
        model = CostModel(source=source)
        for key in ("upload_s_per_byte", "download_s_per_byte", "launch_s", "upload_reuse"):
            if isinstance(data.get(key), (int, float)):
                setattr(model, key, float(data[key]))
        for key in ("cpu_s_per_unit", "device_s_per_unit"):
            table = data.get(key)
            if isinstance(table, Mapping):
                target = getattr(model, key)
                for category, value in table.items():
                    if category in target and isinstance(value, (int, float)):
                        target[category] = float(value)
        return model
