"""Snapshot and validity tests of the generated WGSL."""

from pathlib import Path

import numpy as np
import pytest

from tests.wgpu_required import no_adapter

from matfuse.accelerate.fusion.renderers import renderer_for
from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_wgsl import WgslRenderer
from matfuse.accelerate_api import SplitPlan

SNAPSHOTS = Path(__file__).parent / "snapshots"


def elementwise_chain(n: int = 1000):
    """The issue's elementwise chain up to the sum's prologue."""
    x = g.cast_node(g.linspace_node(0.0, 4 * np.pi, n, "f64"), "f32")
    ten = g.scalar_node(10.0, "f32")
    y0 = g.binary_node("mul", g.unary_node("sin", x),
                       g.unary_node("exp", g.binary_node("div", g.unary_node("neg", x), ten)))
    quarter = g.scalar_node(0.25, "f32")
    y1 = g.binary_node("add", g.binary_node("mul", y0, g.unary_node("cos", g.binary_node("div", x, g.scalar_node(4.0, "f32")))),
                       g.binary_node("mul", quarter, g.binary_node("pow", y0, g.scalar_node(2.0, "f32"))))
    y2 = g.binary_node("add", g.unary_node("tanh", y1), g.binary_node("mul", g.scalar_node(0.1, "f32"), y1))
    return y2


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"generated WGSL changed; delete {path} to accept"


def test_elementwise_chain_snapshot():
    y2 = elementwise_chain()
    kernel = WgslRenderer().render(KernelPlan("elementwise", y2.shape, [y2]))
    check_snapshot("elementwise_chain.wgsl", kernel.source)
    assert kernel.inputs == []          # x, y0, y1 are computed in registers
    assert len(kernel.outputs) == 1     # y2 only: y0.^2 cannot go complex, no domain flag
    assert not kernel.has_flag
    assert kernel.split == SplitPlan("elementwise")


def test_partial_reduction_snapshot():
    y2 = elementwise_chain()
    s = g.reduce_node("sum", y2, None)
    kernel = WgslRenderer().render(KernelPlan("partial", y2.shape, [], reduce_node=s, chunks=8))
    check_snapshot("sum_partial.wgsl", kernel.source)
    assert kernel.threads == 8
    assert kernel.split == SplitPlan("partial", 1000, 8)


def test_random_normal_snapshot():
    z = g.random_node("randn", (1000, 1), "f32", (7, 0), 0)
    s = g.fill_node((1000, 1), 100.0, "f32")
    out = g.binary_node("mul", s, g.unary_node("exp", g.binary_node("add", g.scalar_node(0.1, "f32"), z)))
    kernel = WgslRenderer().render(KernelPlan("elementwise", out.shape, [out]))
    check_snapshot("gbm_step.wgsl", kernel.source)
    assert "philox4x32_10" in kernel.source


def test_kernel_reading_partials_declares_no_split():
    """A kernel that reads another reduction's partials needs them whole."""
    y2 = elementwise_chain()
    s = g.reduce_node("sum", y2, None)
    out = g.binary_node("div", y2, s)
    kernel = WgslRenderer().render(KernelPlan("elementwise", out.shape, [out], partial_of={s.uid: 8}))
    assert kernel.split is None


def test_params_packing_layout():
    y2 = elementwise_chain(64)
    kernel = WgslRenderer().render(KernelPlan("elementwise", y2.shape, [y2]))
    kernel.header[0] = 64
    raw = kernel.pack_params()
    header = np.frombuffer(raw[:32], dtype=np.uint32)
    assert header[0] == 64 and header[1] == 0
    scalars = np.frombuffer(raw[32:], dtype=np.float32)
    assert len(raw) % 16 == 0
    assert np.isclose(scalars[0], 0.0)


@pytest.fixture(scope="module")
def wgpu_device():
    wgpu = pytest.importorskip("wgpu")
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    if adapter is None:
        no_adapter("install mesa-vulkan-drivers for lavapipe")
    features = ["shader-f64"] if "shader-f64" in adapter.features else []
    return adapter.request_device_sync(required_features=features)


def test_generated_wgsl_compiles(wgpu_device):
    shapes = []
    y2 = elementwise_chain()
    shapes.append(KernelPlan("elementwise", y2.shape, [y2]))
    shapes.append(KernelPlan("partial", y2.shape, [], reduce_node=g.reduce_node("max", y2, None), chunks=4))
    z = g.random_node("randn", (33, 2), "f64", (1, 2), 5)
    shapes.append(KernelPlan("elementwise", z.shape, [g.unary_node("isnan", z)]))
    for plan in shapes:
        kernel = WgslRenderer().render(plan)
        module = wgpu_device.create_shader_module(code=kernel.source)
        wgpu_device.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": "main"})


def test_f32_division_through_f64_when_asked():
    """WGSL allows 2.5 ulp for f32 division (NVIDIA's Vulkan driver uses it):
    with ``f64_division`` the quotient is computed in f64 and rounded once."""
    y2 = elementwise_chain()
    plain = WgslRenderer().render(KernelPlan("elementwise", y2.shape, [y2])).source
    exact = WgslRenderer(f64_division=True).render(KernelPlan("elementwise", y2.shape, [y2])).source
    assert "f32(f64(" not in plain
    # -x/10 and x/4 divide by uniforms: a double product (reciprocal once),
    # the double division only for subnormal-range quotients
    assert exact.count("* (f64(1.0) / f64(") == 2
    assert exact.count("f32(f64(") == 2
    assert "enable f64" in exact or "f64" in exact


def test_wgpu_uniform_f32_division_is_ieee_exact(wgpu_provider):
    """``x ./ d`` in single precision for uniform ``d`` (the double-product
    form): bit for bit NumPy's quotient for random bit patterns (zeros,
    subnormals, inf, NaN) and quotients that are exact midpoints in the
    subnormal range (ties to even)."""
    from matfuse.accelerate.fusion import render_wgsl

    import io

    from matfuse.accelerate_api import override_provider
    from matfuse.vm.session import Session

    if not renderer_for(wgpu_provider).f64_division:
        pytest.skip("adapter without shader-f64: WGSL's own f32 division")
    rng = np.random.default_rng(11)
    bits = rng.integers(0, 2**32, size=200_000, dtype=np.uint64).astype(np.uint32)
    tiny = (np.arange(1, 4001, dtype=np.uint32) * np.uint32(15))   # 15k * 2^-149: subnormal
    a = np.concatenate([bits.view(np.float32), tiny.view(np.float32),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 3.0, 1e-45], np.float32)])
    with override_provider(wgpu_provider):
        session = Session(stdout=io.StringIO())
        session.set("a", a.reshape(-1, 1).astype(np.float64))
        session.eval("x = gpuArray(single(a));")
        rendered = []
        original = render_wgsl._Emitter.uniform_quotient

        def counted(self, num, den):
            rendered.append(den)
            return original(self, num, den)
        render_wgsl._Emitter.uniform_quotient = counted
        # WGSL lets an implementation flush f32 subnormals (NVIDIA's Vulkan
        # driver does; lavapipe does not): there, only quotients with
        # normal operands and results are MATLAB's (docs/architecture.md)
        session.set("t", 1e-40)
        session.eval("ftz = gather(-gpuArray(single(t)) * 2) == 0;")
        flushes = bool(np.asarray(session.get("ftz")).reshape(-1)[0])
        tiny = np.finfo(np.float32).tiny
        for d in (10.0, 3.0, 0.1, 7.0, 6.0, 1e-30, 3e38, 1e-40, 0.0, -0.0, np.inf, np.nan, 2.0 ** -126, 4.0):
            session.set("d", d)
            # (-x: a fused kernel; a lone division runs the unfused hook)
            session.eval("y = gather(-x ./ d); z = gather(d .\\ -x);")
            for name in ("y", "z"):
                got = np.asarray(session.get(name), dtype=np.float32).reshape(-1)
                with np.errstate(all="ignore"):
                    want = -a / np.float32(d)
                same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
                if flushes:
                    with np.errstate(all="ignore"):
                        subnormal = ((np.abs(a) < tiny) & (a != 0)) | ((np.abs(want) < tiny) & (want != 0))
                        subnormal |= (abs(np.float32(d)) < tiny) & (d != 0)
                    same |= subnormal
                assert same.all(), f"{name} d={d!r}: {int((~same).sum())} differ, first a={a[~same][0]!r}"
        render_wgsl._Emitter.uniform_quotient = original
        assert rendered   # the double-product form was the one checked


def test_wgpu_provider_renders_exact_f32_division(wgpu_provider):
    renderer = renderer_for(wgpu_provider)
    assert renderer.f64_division == bool(wgpu_provider.ctx.has_f64)
