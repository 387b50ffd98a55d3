"""The planner's decision rules and the log of what it decided.

Rules, in order (the first that applies decides):

1. ``sink``      - a host sink builtin (fprintf, if-conditions...): CPU;
                   device operands are gathered.
2. ``host-only`` - the builtin has no device-friendly GPU spec: CPU.
3. ``resident``  - an operand is already on the device: stay there (an
                   upload is saved and the result stays resident).
4. ``fusion``    - the operation joins a fused group whose combined work
                   passes the threshold and the cost model (fixed costs are
                   shared by the group).
5. ``below-threshold`` - less work than the category's threshold: CPU.
6. ``cost-model`` - the cost model compares both sides (uploads included).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Any, Callable

from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.thresholds import ThresholdConfig

DEVICE = "gpu"
HOST = "cpu"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: where ``builtin`` ran, why, on how much work, and the
    statement line (0 when unknown)."""

    target: str
    reason: str
    builtin: str
    category: str | None
    work: int
    line: int = 0

    @property
    def on_device(self) -> bool:
        return self.target == DEVICE


class DecisionLog:
    """Counts of decisions by (target, reason) and the last ``keep`` ones."""

    def __init__(self, keep: int = 64):
        self.counts: Counter[tuple[str, str]] = Counter()
        self.recent: deque[Decision] = deque(maxlen=keep)
        self.all: list[Decision] | None = None   # every decision (explain mode)

    def record(self, decision: Decision) -> None:
        self.counts[(decision.target, decision.reason)] += 1
        self.recent.append(decision)
        if self.all is not None:
            self.all.append(decision)

    def keep_all(self, enabled: bool = True) -> None:
        self.all = [] if enabled else None

    def clear(self) -> None:
        self.counts.clear()
        self.recent.clear()
        if self.all is not None:
            self.all = []

    def summary(self) -> dict[str, int]:
        """``{"gpu:resident": 12, "cpu:below-threshold": 3, ...}``."""
        return {f"{t}:{r}": n for (t, r), n in sorted(self.counts.items())}


# The fusion-context hook: given the builtin/operator name, the number of
# operations in the fused group it would join (1 = none). The fusion engine
# sets it with ``set_fusion_context``.
FusionContext = Callable[[str], int]


class Planner:
    """Applies the rules of the module doc with a threshold set and a cost model."""

    def __init__(self, thresholds: ThresholdConfig | None = None,
                 cost_model: CostModel | None = None, log: DecisionLog | None = None):
        self.thresholds = thresholds or ThresholdConfig()
        self.cost_model = cost_model or CostModel()
        self.log = log or DecisionLog()
        self.fusion_context: FusionContext | None = None
        # Statement line of the current decision (explain mode sets it).
        self.line_source: Callable[[], int] | None = None

    def set_fusion_context(self, context: FusionContext | None) -> None:
        self.fusion_context = context

    def decide(self, name: str, category: str | None, work: int, *,
               upload_bytes: int = 0, resident: bool = False,
               sink: bool = False) -> Decision:
        """Where operation ``name`` (cost ``category``, ``work`` units) runs.

        Args:
            upload_bytes: bytes of host operands a device run must upload.
            resident: an operand is already on the device.
            sink: the builtin is a host sink.
        """
        target, reason = self._rule(name, category, work, upload_bytes, resident, sink)
        line = self.line_source() if self.line_source is not None else 0
        decision = Decision(target, reason, name, category, int(work), line)
        self.log.record(decision)
        return decision

    def _rule(self, name: str, category: str | None, work: int, upload_bytes: int,
              resident: bool, sink: bool) -> tuple[str, str]:
        if sink:
            return HOST, "sink"
        if category is None:
            return HOST, "host-only"
        if resident:
            return DEVICE, "resident"
        threshold = self.thresholds.get(category)
        group = self.fusion_context(name) if self.fusion_context is not None else 1
        if group > 1 and work < threshold <= work * group:
            estimate = self.cost_model.estimate(category, work, upload_bytes, group_size=group)
            return (DEVICE, "fusion") if estimate.device_wins else (HOST, "cost-model")
        if work < threshold:
            return HOST, "below-threshold"
        estimate = self.cost_model.estimate(category, work, upload_bytes, group_size=group)
        return (DEVICE if estimate.device_wins else HOST), "cost-model"

    def construction_target(self, name: str, numel: int, element_bytes: int = 8) -> Decision:
        """Where ``zeros/ones/rand/randn`` should create a ``numel``-element
        result: on the device when it is large enough and its elementwise
        consumers (same size) would run there too."""
        if numel < self.thresholds.get("construction") or \
                numel < self.thresholds.get("elementwise"):
            target, reason = HOST, "below-threshold"
        else:
            creation = self.cost_model.estimate("construction", numel,
                                                upload_bytes=0)
            consumer = self.cost_model.estimate("elementwise", numel,
                                                upload_bytes=numel * element_bytes)
            # Creating on the device saves the consumer's upload.
            wins = creation.device_s < creation.cpu_s + consumer.transfer_s
            target, reason = (DEVICE, "consumers-on-device") if wins else (HOST, "cost-model")
        line = self.line_source() if self.line_source is not None else 0
        decision = Decision(target, reason, name, "construction", int(numel), line)
        self.log.record(decision)
        return decision


def describe(decision: Decision) -> str:
    """``plus -> gpu (resident, 1048576 elements)``."""
    unit = "FLOPs" if decision.category == "matmul" else "elements"
    return f"{decision.builtin} -> {decision.target} ({decision.reason}, {decision.work} {unit})"
