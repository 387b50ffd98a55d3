"""The elementwise op table: complete for every graph op in every dialect,
and what it renders compiles (CUDA through the host compiler, the tests'
``cuda_host`` prelude standing in for the CUDA built-ins)."""

from __future__ import annotations

import math
import subprocess

import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.dialect import CUDA, WGSL
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_cuda import CudaRenderer
from matfuse.accelerate.fusion.render_wgsl import WgslRenderer
from matfuse.accelerate.providers.wgpu.shaders import elementwise
from matfuse.accelerate_api.device_code import op_table, wgsl_library
from tests.accelerate import cuda_host
from tests.accelerate.fusion.test_render_cuda import _validity_plans


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("dialect", ["wgsl", "cuda"])
def test_every_graph_op_has_a_form_in_every_dialect(dialect, t):
    for name in sorted((g.UNARY_OPS | g.BINARY_OPS) - {"cast"}):
        entry = op_table.OPS[name]
        args = ["x", "y"][:entry.arity]
        text = op_table.expression(entry, dialect, t, args, t, "INF", "NAN")
        assert "{" not in text and "x" in text, (name, text)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_wgsl_helpers_of_every_op_are_in_the_library(t):
    names: set[str] = set()
    for entry in op_table.OPS.values():
        names.update(entry.helper_names("wgsl", t))
    source = wgsl_library.library(names)
    for name in names - {"f32math", "f64math", "f32special", "f64special"}:
        assert source.count(f"fn {name}(") == 1, name


def test_eager_and_fused_wgsl_use_one_definition():
    """The eager kernels' expression of an op is the table's, in both types."""
    for t in ("f32", "f64"):
        assert "mf_rem_" + t in elementwise.binary_expr("rem", t)
        assert "mf_max_" + t in elementwise.binary_expr("max", t)
        assert "mf_sign_" + t in elementwise.unary_expr("sign", t)
        assert elementwise.binary_expr("plus", t) == "(a + b)"
    x = g.random_node("rand", (4, 4), "f32", (1, 2), 0)
    fused = WgslRenderer().render(KernelPlan("elementwise", x.shape, [g.binary_node("rem", x, x)])).source
    assert "fn mf_rem_f32(" in fused


def test_matlab_names_map_to_table_ops():
    assert op_table.lookup("plus").name == "add"
    assert op_table.lookup("ldivide").name == "ldiv"
    assert op_table.lookup("power").domain
    assert op_table.lookup("cumsum") is None
    assert op_table.lookup("gamma").helper_names("wgsl", "f64") == ("f64special",)


@pytest.mark.parametrize("value", [0.0, 1.0, -2.0, 2147483648.0, -2147483648.0, 1e300, 5e-324,
                                   0.1, 4294967296.0, 3.4028234663852886e38])
def test_cuda_float_literals_are_floating_literals(value):
    for t in ("f32", "f64") if abs(value) < 3.4e38 else ("f64",):
        text = CUDA.literal(value, t)
        body = text.removesuffix("f").lstrip("-")
        assert "." in body or "e" in body, text
        assert float(body) == abs(value)


def test_non_finite_literals_are_bit_patterns():
    assert CUDA.literal(math.inf, "f32") == CUDA.inf("f32")
    assert "0x7ff8" in CUDA.literal(math.nan, "f64")
    assert WGSL.literal(-math.inf, "f32").startswith("(-")


def test_index_literals_fit_32_bits():
    assert CUDA.uint_literal(4294967295) == "4294967295u"
    with pytest.raises(ValueError):
        CUDA.uint_literal(1 << 32)


def _every_op_plans() -> list[KernelPlan]:
    plans = []
    for t in ("f32", "f64"):
        x = g.random_node("rand", (8, 8), t, (1, 2), 7)
        y = g.random_node("rand", (8, 8), t, (3, 4), 9)
        b = g.binary_node("gt", x, y)
        roots = [g.binary_node(op, x, y) for op in sorted(g.BINARY_OPS)]
        roots += [g.unary_node(op, x) for op in sorted(g.UNARY_OPS)]
        roots += [g.binary_node(op, b, x) for op in ("and", "or", "xor", "lt", "eq")]
        roots += [g.unary_node("not", b), g.cast_node(x, "f64" if t == "f32" else "f32")]
        for root in roots:
            plans.append(KernelPlan("elementwise", root.shape, [root]))
    return plans


@pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")
def test_rendered_cuda_is_valid_cxx(tmp_path):
    """Every op of the table, both types, and the renderer's other kernel
    shapes (partial passes, block folds, loops) pass g++'s syntax check."""
    plans = _every_op_plans() + _validity_plans()
    for k, plan in enumerate(plans):
        path = tmp_path / f"kernel{k}.cpp"
        path.write_text(cuda_host.PRELUDE + CudaRenderer().render(plan).source)
        done = subprocess.run(["g++", "-fsyntax-only", "-std=c++17", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (k, done.stderr[-3000:])


def test_single_literals_beyond_the_single_range_are_infinite():
    assert CUDA.literal(1e300, "f32") == CUDA.inf("f32")
    assert WGSL.literal(-1e39, "f32").startswith("(-")
    assert CUDA.literal(3.4028234663852886e38, "f32") == "3.4028234663852886e+38f"
