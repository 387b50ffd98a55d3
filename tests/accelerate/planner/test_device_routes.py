"""The cost model's routes for operations on device operands
(``planner/device_routes.py``): fused, device now or host, from per-op cost
data; the router's session reads them (the planner's model when one is in
charge)."""

from __future__ import annotations

import pytest

from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.device_routes import (
    DEVICE,
    FUSED,
    HOST,
    OP_COSTS,
    OpCost,
    RouteTable,
    choose,
    estimate,
)
from matfuse.accelerate.planner.thresholds import CATEGORIES


def slow_device() -> CostModel:
    """A device slower than the CPU at everything (a software rasteriser)."""
    return CostModel(launch_s=1e-3, device_s_per_unit={c: 1e-6 for c in CATEGORIES})


def test_operations_on_device_operands_fuse_when_the_session_fuses():
    table = RouteTable(CostModel(), fuses=True)
    for op in ("plus", "times", "exp", "power", "sum", "mean", "max", "var", "mtimes", "single"):
        assert table.fused(op), op
    # an op the table does not list costs as an elementwise op: it fuses
    assert table.fused("some_new_elementwise_op")
    for op in ("any", "all", "cumsum", "isequal", "num2str", "sprintf"):
        assert not table.fused(op), op


def test_nothing_fuses_when_the_session_does_not():
    table = RouteTable(CostModel(), fuses=False)
    assert not any(table.fused(op) for op in OP_COSTS)
    assert table.unfused == frozenset(OP_COSTS)


def test_a_result_staying_on_the_device_never_goes_to_the_host():
    """Even on a device slower than the CPU, resident work stays resident:
    a host run would read the operands back and upload the result."""
    for fuses in (True, False):
        table = RouteTable(slow_device(), fuses=fuses)
        for op, cost in OP_COSTS.items():
            choice = choose(table.model, cost, fuses=fuses, numel=1 << 20, operand_bytes=8 << 20,
                            result_bytes=8 << 20, result_on_host=False)
            assert choice.route != HOST or not cost.on_device, op


def test_fused_costs_one_launch_less_than_device():
    model = CostModel()
    seconds = estimate(model, OP_COSTS["plus"], 1000, 8000, 8000, False)
    assert seconds[DEVICE] - seconds[FUSED] == pytest.approx(model.launch_s)
    assert choose(model, OP_COSTS["plus"], fuses=True, numel=1000, operand_bytes=8000,
                  result_bytes=8000, result_on_host=False).route == FUSED
    assert choose(model, OpCost("elementwise", fusable=False), fuses=True, numel=1000,
                  operand_bytes=8000, result_bytes=8000, result_on_host=False).route == DEVICE


@pytest.mark.parametrize("numel", [1 << 10, 1 << 24])
def test_a_host_result_reads_back_only_when_that_is_cheaper(numel):
    """``isequal(g, h)``: comparing on the device and reading one answer back
    beats downloading both operands on a fast device; on a slow one the
    read-back wins."""
    fast = RouteTable(CostModel(), fuses=True)
    slow = RouteTable(slow_device(), fuses=True)
    operands = 2 * 8 * numel
    assert fast.for_host_result("isequal", numel, operands, 1).route == DEVICE
    assert slow.for_host_result("isequal", numel, operands, 1).route == HOST
    choice = slow.for_host_result("isequal", numel, operands, 1)
    assert choice.seconds[HOST] < choice.seconds[DEVICE]
    assert "cheaper" in choice.reason


def test_formatting_is_host_work_by_nature():
    table = RouteTable(CostModel(), fuses=True)
    for op in ("num2str", "sprintf", "mat2str", "disp"):
        assert table.host_only(op)
        choice = table.for_host_result(op, 100, 800)
        assert choice.route == HOST and "no device form" in choice.reason
    assert not table.host_only("plus") and not table.host_only("unlisted")


def test_the_router_session_takes_the_planners_cost_model(inproc_device):
    from matfuse.accelerate.planner import offload
    from matfuse.accelerate.planner.decisions import Planner
    from matfuse.accelerate.router import route

    model = slow_device()
    offload.activate(inproc_device, Planner(cost_model=model))
    try:
        assert route.session().routes.model is model
    finally:
        offload.reset()
    assert route.session().routes.model is not model


@pytest.fixture
def inproc_device():
    from matfuse.accelerate.providers.inprocess import InProcessProvider
    from matfuse.accelerate_api import override_provider

    p = InProcessProvider()
    with override_provider(p):
        yield p
