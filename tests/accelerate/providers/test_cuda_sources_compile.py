"""Every elementwise kernel the CUDA provider generates for an op and class
compiles with nvcc: the one-node kernels of the fusion IR (real and integer
classes) and the complex table's kernels. Compile-only (PTX for sm_90): no
GPU is needed; skipped only where nvcc is not installed. The kernels' values
are checked on the CPU by the fake-CuPy tests (g++)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_cuda import CudaRenderer
from matfuse.accelerate.providers.cuda import complex_kernels
from matfuse.accelerate_api import GpuTensorHandle
from matfuse.accelerate_api.device_code import complex_table

NVCC = shutil.which("nvcc")
pytestmark = pytest.mark.skipif(NVCC is None, reason="nvcc not installed")

REAL = ("float64", "float32", "bool")
INTEGERS = tuple(g.INTEGER_IR)
COMPLEX = ("complex128", "complex64")


def _handle(dtype: str, shape: tuple[int, ...] = (4, 3)) -> GpuTensorHandle:
    return GpuTensorHandle(shape, 0, 1, dtype)


def _one_node_sources() -> list[str]:
    """A kernel per binary op x operand classes and per unary op x class,
    with the result class MATLAB's rules give (integer results saturate)."""
    renderer = CudaRenderer()
    sources = []
    pairs = [(x, x) for x in REAL + INTEGERS] + [("float32", "float64"), ("int8", "float64"),
                                                ("uint32", "float32"), ("int16", "bool")]
    for op in sorted(g.BINARY_OPS):
        for da, db in pairs:
            integer = next((g.INTEGER_IR[d] for d in (da, db) if d in g.INTEGER_IR), None)
            a, b = g.input_node(_handle(da)), g.input_node(_handle(db, (1, 3)))
            node = g.binary_node(op, a, b, None if op in g.COMPARISONS else integer)
            sources.append(renderer.render(KernelPlan("elementwise", node.shape, [node])).source)
    for op in sorted(g.UNARY_OPS):
        for d in REAL + INTEGERS:
            integer = g.INTEGER_IR.get(d)
            node = g.unary_node(op, g.input_node(_handle(d)), None if op in g.COMPARISONS else integer)
            sources.append(renderer.render(KernelPlan("elementwise", node.shape, [node])).source)
    return sources


def _complex_sources() -> list[str]:
    """A kernel per complex table op x operand kinds x rank."""
    sources = []
    for op in complex_table.OPS.values():
        out = {"c": COMPLEX, "r": ("float64", "float32"), "b": ("bool",)}[op.kind]
        for out_dtype in out:
            single = out_dtype in ("complex64", "float32")
            cx, real = ("complex64", "float32") if single else ("complex128", "float64")
            if op.arity == 1:
                kinds = [(cx,), (real,)] if op.name != "complex" else []
            elif op.name == "complex":
                kinds = [(real, real), (real, None)]
            else:
                kinds = [(cx, cx), (cx, real), (None, cx), (cx, "int32")]
            for dtypes in kinds:
                t = complex_kernels.compute_type(out_dtype, dtypes)
                for rank in (0, 2):
                    sources.append(complex_kernels.render(op, dtypes, out_dtype, t, rank))
    return sources


def _translation_unit(sources: list[str]) -> str:
    """The kernels in one file: each in its own namespace (helpers repeat)
    with its own entry name (``extern "C"`` names are global)."""
    parts = []
    for k, source in enumerate(sources):
        renamed = re.sub(r"\b(mf_fused|mf_complex)\(", rf"\1_{k}(", source)
        parts.append(f"namespace k{k} {{\n{renamed}\n}}\n")
    return "".join(parts)


@pytest.mark.parametrize("family", ["one_node", "complex"])
def test_generated_elementwise_kernels_compile_with_nvcc(tmp_path, family):
    sources = _one_node_sources() if family == "one_node" else _complex_sources()
    assert len(sources) > 50
    unit = tmp_path / f"{family}.cu"
    unit.write_text(_translation_unit(sources))
    done = subprocess.run([NVCC, "-arch=sm_90", "--ptx", "-o", str(tmp_path / f"{family}.ptx"), str(unit)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    ptx = (tmp_path / f"{family}.ptx").read_text()
    assert ptx.count(".entry") == len(sources)
