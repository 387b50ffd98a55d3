"""Where an operation whose operands are already on the device runs: fused
into the pending graph, launched on the device now, or computed on the host.

The choice is the cost model's (``cost_model.CostModel``), from per-operation
cost data (``OP_COSTS``: cost category, work per element relative to an add,
whether the fusion IR expresses it, whether any device path exists):

* ``fused``  - joins a lazy graph: the device work, no launch of its own
  (the group shares one);
* ``device`` - its own launch plus the device work;
* ``host``   - read the operands back (one launch's wait and the download),
  the CPU work, and the re-upload of a result that stays on the device.

The host is a candidate only when the result is needed on the host anyway
(text, cells, logical answers of ``isequal``...) or when no device path
exists; a result that stays on the device never goes to the host to save a
launch. The router (``router/route.py``) builds a :class:`RouteTable` once
per session, so per operation it reads a set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from matfuse.accelerate.planner.cost_model import CostModel

FUSED = "fused"
DEVICE = "device"
HOST = "host"


@dataclass(frozen=True, slots=True)
class OpCost:
    """Cost data of one operation.

    Attributes:
        category: cost-model category (``elementwise``, ``reduction``,
            ``matmul``, ``construction``).
        weight: device and CPU work per element relative to an add
            (transcendental functions and powers cost several).
        fusable: the fusion IR expresses it (a lazy node can take it).
        on_device: some device path computes it (False: formatting and
            other builtins whose work is host work by nature).
    """

    category: str
    weight: float = 1.0
    fusable: bool = True
    on_device: bool = True


_ARITHMETIC = OpCost("elementwise")
_DIVISION = OpCost("elementwise", 2.0)
_TRANSCENDENTAL = OpCost("elementwise", 8.0)
_REDUCTION = OpCost("reduction")
_EAGER_REDUCTION = OpCost("reduction", fusable=False)
_EAGER_ELEMENTWISE = OpCost("elementwise", fusable=False)
_HOST_WORK = OpCost("elementwise", fusable=False, on_device=False)

#: per-operation cost data; operations not listed cost as ``DEFAULT_COST``
OP_COSTS: Mapping[str, OpCost] = {
    **{op: _ARITHMETIC for op in (
        "plus", "minus", "times", "uminus", "uplus", "not", "abs", "sign", "floor", "ceil",
        "round", "fix", "max", "min", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor",
        "isnan", "isinf", "isfinite", "single", "double")},
    **{op: _DIVISION for op in ("rdivide", "ldivide", "mod", "rem", "sqrt", "hypot")},
    **{op: _TRANSCENDENTAL for op in (
        "power", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
        "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh")},
    **{op: _REDUCTION for op in ("sum", "mean", "prod", "var", "std")},
    **{op: _EAGER_REDUCTION for op in ("any", "all", "cumsum", "cumprod", "cummax", "cummin")},
    # matrix operators fuse in their elementwise forms (a scalar operand)
    **{op: OpCost("matmul") for op in ("mtimes", "mldivide", "mrdivide", "mpower")},
    **{op: _EAGER_ELEMENTWISE for op in ("isequal", "isequaln")},
    **{op: _HOST_WORK for op in (
        "num2str", "mat2str", "int2str", "sprintf", "fprintf", "disp", "display", "func2str")},
}
DEFAULT_COST = OpCost("elementwise")


@dataclass(frozen=True, slots=True)
class RouteChoice:
    """The route, why, and the estimated seconds of each candidate."""

    route: str
    reason: str
    seconds: Mapping[str, float]


def estimate(model: CostModel, cost: OpCost, numel: int, operand_bytes: int,
             result_bytes: int, result_on_host: bool) -> dict[str, float]:
    """Seconds of each route for ``numel`` elements (FLOPs for matmul)."""
    work = numel * cost.weight
    device_work = work * model.device_s_per_unit[cost.category]
    to_host = result_bytes * model.download_s_per_byte if result_on_host else 0.0
    back_up = 0.0 if result_on_host else result_bytes * model.upload_s_per_byte
    return {
        FUSED: device_work + to_host,
        DEVICE: model.launch_s + device_work + to_host,
        HOST: model.gather_s(operand_bytes) + work * model.cpu_s_per_unit[cost.category] + back_up,
    }


def choose(model: CostModel, cost: OpCost, *, fuses: bool, numel: int, operand_bytes: int,
           result_bytes: int, result_on_host: bool) -> RouteChoice:
    """The cheapest allowed route (ties: fused, then device, then host)."""
    seconds = estimate(model, cost, numel, operand_bytes, result_bytes, result_on_host)
    if not cost.on_device:
        return RouteChoice(HOST, "no device form: host work by nature", seconds)
    allowed = [DEVICE]
    if fuses and cost.fusable:
        allowed.insert(0, FUSED)
    if result_on_host:
        allowed.append(HOST)
    route = min(allowed, key=lambda r: seconds[r])
    if route == HOST:
        reason = "result needed on the host; reading the operands back is cheaper"
    elif route == FUSED:
        reason = "joins the pending fused graph (no launch of its own)"
    else:
        reason = "launched now" + ("" if cost.fusable else ": the fusion IR does not express it")
    return RouteChoice(route, reason, seconds)


class RouteTable:
    """The routes of one router session (a provider and its options).

    ``unfused`` names the operations the session never fuses; an operation
    whose result stays on the device fuses unless listed (the fused route is
    its device route less a launch, whatever the size), so the router's
    per-operation question is one set lookup. Host-result operations are
    chosen per call (``for_host_result``).
    """

    __slots__ = ("model", "fuses", "unfused")

    def __init__(self, model: CostModel, fuses: bool, costs: Mapping[str, OpCost] = OP_COSTS):
        self.model = model
        self.fuses = fuses
        unfused = set()
        for op, cost in costs.items():
            choice = choose(model, cost, fuses=fuses, numel=1 << 20, operand_bytes=8 << 20,
                            result_bytes=8 << 20, result_on_host=False)
            if choice.route != FUSED:
                unfused.add(op)
        self.unfused = frozenset(unfused)

    def fused(self, op: str) -> bool:
        """Whether ``op`` on device operands joins the pending fused graph."""
        return self.fuses and op not in self.unfused

    def for_host_result(self, op: str, numel: int, operand_bytes: int,
                        result_bytes: int = 8) -> RouteChoice:
        """Route of ``op`` whose result is needed on the host."""
        return choose(self.model, OP_COSTS.get(op, DEFAULT_COST), fuses=self.fuses,
                      numel=numel, operand_bytes=operand_bytes, result_bytes=result_bytes,
                      result_on_host=True)

    def host_only(self, op: str) -> bool:
        """No device path computes ``op`` (its work is host work by nature)."""
        cost = OP_COSTS.get(op)
        return cost is not None and not cost.on_device
