"""Eager elementwise operations as one-node kernels of the fusion IR.

With fusion off, an operator on gpuArrays of a provider that renders
kernels runs now, as the graph of one node the fused path would have built
(``launch.binary`` -> ``fusion.lazy.one_node``): the same op-table
expression and emitter as a fused kernel. The rendered text of such
kernels is held by snapshots (CUDA and WGSL; no compiler needed), and on
wgpu the launched source is checked to be the renderer's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from matfuse.accelerate import facade
from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_cuda import CudaRenderer
from matfuse.accelerate.fusion.render_wgsl import WgslRenderer
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner import offload
from matfuse.accelerate_api import GpuTensorHandle, override_provider
from matfuse.runtime import ops
from matfuse.runtime.device_router import device_router

SNAPSHOTS = Path(__file__).parent / "snapshots"


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"generated kernel changed; delete {path} to accept"


def _input(shape: tuple[int, ...], dtype: str, buffer_id: int) -> g.FNode:
    return g.input_node(GpuTensorHandle(shape, 0, buffer_id, dtype))


def one_node_graphs() -> dict[str, g.FNode]:
    """The graphs ``launch`` builds for a few eager operations."""
    a64, b64 = _input((64, 8), "float64", 1), _input((64, 8), "float64", 2)
    col32 = _input((64, 1), "float32", 3)
    return {
        "plus_f64": g.binary_node("add", a64, b64),
        "times_scalar_f32": g.binary_node("mul", col32, g.scalar_node(2.0, "f32")),
        "lt_expanded": g.binary_node("lt", a64, _input((1, 8), "float64", 4)),
        "sqrt_f64": g.unary_node("sqrt", a64),
    }


def _render(renderer, node: g.FNode):
    return renderer.render(KernelPlan("elementwise", tuple(node.shape), [node]))


@pytest.mark.parametrize("name", sorted(one_node_graphs()))
def test_one_node_cuda_snapshot(name):
    kernel = _render(CudaRenderer(), one_node_graphs()[name])
    check_snapshot(f"{name}.cu", kernel.source)
    assert "__global__" in kernel.source and kernel.entry_point == "mf_fused"
    assert kernel.has_flag == (name == "sqrt_f64")   # sqrt(-1) is MATLAB's complex


@pytest.mark.parametrize("name", sorted(one_node_graphs()))
def test_one_node_wgsl_snapshot(name):
    kernel = _render(WgslRenderer(), one_node_graphs()[name])
    check_snapshot(f"{name}.wgsl", kernel.source)
    assert kernel.has_flag == (name == "sqrt_f64")


def test_plus_expression_comes_from_the_op_table():
    from matfuse.accelerate_api.device_code.op_table import OPS

    assert OPS["add"].template("cuda", "f64") == "({a} + {b})"
    source = _render(CudaRenderer(), one_node_graphs()["plus_f64"]).source
    assert " + " in source


def test_wgpu_eager_plus_launches_the_rendered_kernel(wgpu_provider):
    """Unfused ``a + b`` on wgpu launches exactly the renderer's kernel for
    the one-node graph (and computes MATLAB's result)."""
    launched: list[str] = []
    original = type(wgpu_provider).fused_elementwise

    def spy(self, kernel, inputs, scalars, outputs):
        launched.append(kernel.source)
        return original(self, kernel, inputs, scalars, outputs)

    offload.deactivate()
    saved = facade.use_acceleration_state(facade.AccelerationState(
        AccelerateInitOptions(provider="wgpu", fusion=False, auto_offload=False),
        wgpu_provider, "wgpu"))
    type(wgpu_provider).fused_elementwise = spy
    try:
        with override_provider(wgpu_provider):
            router = device_router()
            x = np.arange(12.0).reshape(3, 4)
            a, b = router.upload(x), router.upload(2 * x)
            c = ops.binary("+", a, b)
            np.testing.assert_array_equal(c.gather(), 3 * x)
            d = ops.binary("<", a, 5.0)
            np.testing.assert_array_equal(d.gather(), x < 5)
    finally:
        type(wgpu_provider).fused_elementwise = original
        facade.use_acceleration_state(saved)
        offload.reset()
    expected = _render(WgslRenderer(f64_division=wgpu_provider.f32_division_via_f64),
                       g.binary_node("add", g.input_node(a.handle), g.input_node(b.handle)))
    assert launched[0] == expected.source
    assert len(launched) == 2
