"""The auto-offload planner: thresholds, cost model, decision rules and log,
calibration, and the entry points the runtime calls (``offload``)."""

from matfuse.accelerate.planner.cost_model import CostModel, Estimate
from matfuse.accelerate.planner.decisions import Decision, DecisionLog, Planner
from matfuse.accelerate.planner.thresholds import (
    CATEGORIES,
    DEFAULT_THRESHOLDS,
    ThresholdConfig,
    resolve_thresholds,
)

__all__ = ["CATEGORIES", "DEFAULT_THRESHOLDS", "CostModel", "Decision", "DecisionLog",
           "Estimate", "Planner", "ThresholdConfig", "resolve_thresholds"]
