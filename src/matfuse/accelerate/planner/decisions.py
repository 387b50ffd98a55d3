"""The planner's decision rules and the log of what it decided.

Rules, in order (the first that applies decides):

1. ``sink``      - a host sink builtin (fprintf, if-conditions...): CPU;
                   device operands are gathered.
2. ``host-only`` - the builtin has no device-friendly GPU spec: CPU.
3. ``resident``  - an operand is already materialised on the device: stay
                   there (an upload is saved and the result stays resident).
4. ``fusion``    - the operation would join a lazy fused group of ``g > 1``
                   operations (the fusion context: its lazy device operands'
                   pending nodes, plus itself). The group shares one launch
                   and one upload; running on the CPU instead would force the
                   group (a kernel and a download). The device wins when the
                   cost model says so and the group's combined work passes the
                   threshold (or the group is already on the device).
5. ``below-threshold`` - less work than the category's threshold: CPU.
6. ``cost-model`` - the cost model compares both sides (uploads included).

Construction builtins (``construction_target``) go to the device when
their consumers will: their size passes the construction and elementwise
thresholds and the cost model prefers creating them there (a fused
generator costs no launch: it is computed inside its consumer's kernel).
Small indexed writes into such a still-pending generator
(``A = zeros(n); A(i) = s``) take it to the host instead (``indexed-write``,
``preallocation.py``).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.thresholds import ThresholdConfig

DEVICE = "gpu"
HOST = "cpu"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: where ``builtin`` ran, why, on how much work, and the
    statement line (0 when unknown) and its source text (explain mode)."""

    target: str
    reason: str
    builtin: str
    category: str | None
    work: int
    line: int = 0
    text: str = ""

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


# The fusion-context hook: given the builtin/operator name and its operands,
# the number of operations in the lazy fused group it would join, itself
# included (1 = none). offload.py installs ``fusion_context.lazy_group_size``.
FusionContext = Callable[[str, Sequence[Any]], int]


class Planner:
    """Applies the rules of the module doc with a threshold set and a cost model."""

    def __init__(self, thresholds: ThresholdConfig | None = None,
                 cost_model: CostModel | None = None, log: DecisionLog | None = None):
        self.thresholds = thresholds or ThresholdConfig()
        self.cost_model = cost_model or CostModel()
        self.log = log or DecisionLog()
        self.fusion_context: FusionContext | None = None
        # Statement line of the current decision, or (line, source text)
        # (explain mode sets it).
        self.line_source: Callable[[], int | tuple[int, str]] | None = None

    def set_fusion_context(self, context: FusionContext | None) -> None:
        """Install the hook giving the size of the lazy group an operation
        would join (None: every operation is a group of one)."""
        self.fusion_context = context

    def group_size(self, name: str, operands: Sequence[Any]) -> int:
        """Operations in the lazy fused group ``name(operands)`` would join."""
        if self.fusion_context is None:
            return 1
        return max(1, int(self.fusion_context(name, operands)))

    def decide(self, name: str, category: str | None, work: int, *,
               upload_bytes: int = 0, resident: bool = False,
               sink: bool = False, operands: Sequence[Any] = (),
               pending_bytes: int = 0, reread: bool = False) -> Decision:
        """Where operation ``name`` (cost ``category``, ``work`` units) runs.

        Args:
            upload_bytes: bytes of host operands a device run must upload.
            resident: an operand is already materialised on the device.
            sink: the builtin is a host sink.
            operands: the operation's arguments (for the fusion context).
            pending_bytes: bytes of lazy device operands a CPU run would
                have to compute and download.
            reread: a host operand is read again by device work (it is
                uploaded once and kept: ``accelerate.residency``).
        """
        target, reason = self._rule(name, category, work, upload_bytes, resident, sink,
                                    operands, pending_bytes)
        if reread and target == HOST and reason == "cost-model":
            target, reason = DEVICE, "re-read"
        decision = Decision(target, reason, name, category, int(work), *self._where())
        self.log.record(decision)
        return decision

    def _where(self) -> tuple[int, str]:
        if self.line_source is None:
            return 0, ""
        where = self.line_source()
        return where if isinstance(where, tuple) else (where, "")

    def _rule(self, name: str, category: str | None, work: int, upload_bytes: int,
              resident: bool, sink: bool, operands: Sequence[Any],
              pending_bytes: int) -> tuple[str, str]:
        if sink:
            return HOST, "sink"
        if category is None:
            return HOST, "host-only"
        if resident:
            return DEVICE, "resident"
        threshold = self.thresholds.get(category)
        group = self.group_size(name, operands)
        if group > 1 and (pending_bytes > 0 or work * group >= threshold):
            estimate = self.cost_model.estimate(category, work, upload_bytes, group_size=group)
            cpu_s = estimate.cpu_s + (self.cost_model.gather_s(pending_bytes) if pending_bytes else 0.0)
            return (DEVICE, "fusion") if estimate.device_s < cpu_s else (HOST, "cost-model")
        if work < threshold:
            return HOST, "below-threshold"
        estimate = self.cost_model.estimate(category, work, upload_bytes, group_size=group)
        return (DEVICE if estimate.device_wins else HOST), "cost-model"

    def record(self, target: str, reason: str, name: str, category: str | None,
               work: int) -> Decision:
        """Log a decision taken outside the rules (``indexed-write``...)."""
        decision = Decision(target, reason, name, category, int(work), *self._where())
        self.log.record(decision)
        return decision

    def construction_target(self, name: str, numel: int, element_bytes: int = 8,
                            fused: bool = False) -> Decision:
        """Where ``zeros/ones/rand/randn/linspace`` should create a
        ``numel``-element result: on the device when it is large enough and
        its elementwise consumers (same size) would run there too.

        Args:
            fused: the result would be a lazy generator computed inside its
                consumer's kernel (no launch of its own, no buffer).
        """
        if numel < self.thresholds.get("construction") or \
                numel < self.thresholds.get("elementwise"):
            target, reason = HOST, "below-threshold"
        else:
            model = self.cost_model
            device_s = numel * model.device_s_per_unit["construction"] + \
                (0.0 if fused else model.launch_s)
            consumer = model.estimate("elementwise", numel, upload_bytes=numel * element_bytes)
            # Creating on the device saves the consumer's upload.
            cpu_s = numel * model.cpu_s_per_unit["construction"] + consumer.transfer_s
            if device_s < cpu_s:
                target, reason = DEVICE, "fused-generator" if fused else "consumers-on-device"
            else:
                target, reason = HOST, "cost-model"
        decision = Decision(target, reason, name, "construction", int(numel), *self._where())
        self.log.record(decision)
        return decision


def describe(decision: Decision) -> str:
    """``plus -> gpu (resident, 1048576 elements)``."""
    unit = "FLOPs" if decision.category == "matmul" else "elements"
    return f"{decision.builtin} -> {decision.target} ({decision.reason}, {decision.work} {unit})"
