"""WGSL partial passes with lanes (``render_wgsl._Emitter.partial_body_lanes``):
a thread iteration takes 4 consecutive floats (2 doubles) sharing one
Philox block. Rendered source checks, and runs on the wgpu device (lavapipe
in CI) against the same kernels without lanes (bit-identical where the
summation order is kept, exact for max/min) and the in-process oracle."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from matfuse.accelerate.fusion import executor as fusion_executor
from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion import render_wgsl
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_wgsl import WgslRenderer


def _main(source: str) -> str:
    return source[source.index("fn main("):]


def _philox_calls(source: str) -> int:
    return len(re.findall(r"philox4x32_10\(", _main(source)))


@pytest.mark.parametrize("dtype,width", [("f32", 4), ("f64", 2)])
@pytest.mark.parametrize("dims,shape", [((1, 2), (16, 64, 64)), (None, (16, 64, 64)),
                                        ((0,), (1024, 3, 5)), ((1, 2), (12, 30, 50))])
def test_rand_fed_partial_pass_calls_philox_once_per_lane_group(dtype, width, dims, shape):
    x = g.random_node("rand", shape, dtype, (7, 3), 0)
    y = g.binary_node("mul", x, g.scalar_node(2.0, dtype))
    red = g.reduce_node("mean", y, dims)
    chunks = fusion_executor.chunk_count(red)
    assert chunks > 1
    kernel = WgslRenderer().render(KernelPlan("partial", y.shape, [], reduce_node=red, chunks=chunks))
    body = _main(kernel.source)
    assert _philox_calls(kernel.source) == 1
    assert body.count("acc") > 0 and f"/ {width}u;" in body
    # the partials keep the layout the executor and final pass expect
    a_ext, _, c_ext = red.attrs
    per_output = WgslRenderer.partials_per_output(a_ext, chunks)
    assert kernel.outputs[0][0] == (a_ext * per_output * c_ext, 1)


@pytest.mark.parametrize("dims,shape", [((1, 2), (5, 33, 31)), ((0,), (1001, 3)), (None, (63, 65, 3))])
def test_layouts_without_lanes_keep_one_element_per_iteration(dims, shape):
    x = g.random_node("rand", shape, "f32", (7, 3), 0)
    red = g.reduce_node("sum", x, dims)
    chunks = fusion_executor.chunk_count(red)
    kernel = WgslRenderer().render(KernelPlan("partial", x.shape, [], reduce_node=red, chunks=chunks))
    assert "v1 & 3u" in _main(kernel.source)      # per-element word choice: no lanes
    assert _philox_calls(kernel.source) == 1


SCRIPT = """
x = rand({size}, '{cls}', 'gpuArray'); z = randn({size}, '{cls}', 'gpuArray');
s1 = gather(sum(x .* 2 + z, 1)); m1 = gather(mean(x - z.^2, 1)); x1 = gather(max(z - x, [], 1));
s2 = gather(sum(x + z, [2 3])); m2 = gather(mean(x - z, [2 3])); q2 = gather(sum(x + 0.5 .* z, [2 3]));
x2 = gather(max(x .* z, [], [2 3])); n2 = gather(min(z + 1, [], [2 3]));
s3 = gather(sum(z .* 3 - x, 'all')); m3 = gather(mean(x .* x, 'all')); x3 = gather(max(z, [], 'all'));
"""
NAMES = ("s1", "m1", "x1", "s2", "m2", "q2", "x2", "n2", "s3", "m3", "x3")


def _run(provider, size: str, cls: str) -> dict[str, np.ndarray]:
    from matfuse.runtime import gpu_rng
    from matfuse.accelerate_api import override_provider
    from matfuse.runtime import _rng
    from matfuse.vm.session import Session

    _rng.GENERATOR = _rng.RandomGenerator()
    gpu_rng._counter = 0
    gpu_rng._key = gpu_rng._philox.key_from_seed(0)
    with override_provider(provider):
        session = Session(stdout=io.StringIO())
        session.eval(SCRIPT.format(size=size, cls=cls))
        out = {name: np.asarray(session.get(name), dtype=np.float64) for name in NAMES}
        session.eval("clear")
    return out


@pytest.mark.parametrize("cls", ["single", "double"])
@pytest.mark.parametrize("size", ["16, 64, 64", "12, 30, 52", "1000, 3, 2", "63, 65, 3", "5, 33, 31"])
def test_lanes_match_the_single_element_path_and_the_oracle(wgpu_provider, inprocess_provider,
                                                            monkeypatch, size, cls):
    from matfuse.runtime import gpu_rng
    from matfuse.runtime import _rng

    for mod, name in ((_rng, "GENERATOR"), (gpu_rng, "_counter"), (gpu_rng, "_key")):
        monkeypatch.setattr(mod, name, getattr(mod, name))
    lane_bodies = []
    real = render_wgsl._Emitter.partial_body_lanes

    def spy(self, width):
        lane_bodies.append((self.plan.reduce_node.attrs, width))
        return real(self, width)

    # fresh executors: no kernel or launch plan rendered by another test
    monkeypatch.setattr(fusion_executor, "_executors", {})
    monkeypatch.setattr(render_wgsl._Emitter, "partial_body_lanes", spy)
    lanes = _run(wgpu_provider, size, cls)
    monkeypatch.setattr(fusion_executor, "_executors", {})
    monkeypatch.setattr(render_wgsl._Emitter, "partial_lanes", lambda self: 1)
    spied = len(lane_bodies)
    single = _run(wgpu_provider, size, cls)
    assert len(lane_bodies) == spied                    # the reference ran without lanes
    oracle = _run(inprocess_provider, size, cls)
    dims = [int(d) for d in size.split(",")]
    if dims[0] % 4 == 0 or dims[1] * dims[2] % 4 == 0:
        assert lane_bodies, "no partial pass took the lane path"
    rtol = 1e-5 if cls == "single" else 1e-12
    for name in NAMES:
        got, ref, want = lanes[name], single[name], oracle[name]
        if name[0] in "xn":
            np.testing.assert_array_equal(got, ref, err_msg=name)
        elif name in ("s2", "m2") and dims[0] % (4 if cls == "single" else 2) == 0:
            # same elements in the same order per output (no multiply-add:
            # the shader compiler may contract x + 0.5*z differently per kernel)
            np.testing.assert_array_equal(got, ref, err_msg=name)
        else:
            np.testing.assert_allclose(got, ref, rtol=rtol, atol=rtol, err_msg=name)
        np.testing.assert_allclose(got, want, rtol=10 * rtol, atol=10 * rtol, err_msg=name)
