"""Oracle harness: run provider hooks on a provider under test and on the
InProcessProvider (the NumPy reference) and compare the results.

Reusable by any provider's tests::

    from tests.accelerate.oracle import ORACLE_CASES, run_case, assert_matches

    @pytest.mark.parametrize("case", ORACLE_CASES, ids=lambda c: c.id)
    def test_hook(accel_provider, case):
        assert_matches(run_case(case, accel_provider), run_case(case, REFERENCE), case)

A case is a hook call on host inputs (uploaded first) with fixed other
arguments; it covers classes (double, single, int32, logical, complex) and
shapes (scalar, 0x0, 0x3, vectors, matrices, 2x3x4, broadcasting pairs).
A provider raising ``Unsupported`` skips the case (it will fall back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, HostTensor, Unsupported

REFERENCE = InProcessProvider()

CLASSES = ("double", "single", "int32", "logical", "complex")
SHAPES = ((1, 1), (0, 0), (0, 3), (1, 5), (5, 1), (3, 4), (2, 3, 4))
BROADCAST_PAIRS = (((1, 1), (1, 1)), ((0, 0), (0, 0)), ((0, 3), (1, 3)), ((1, 5), (1, 5)),
                   ((5, 1), (1, 4)), ((3, 4), (3, 4)), ((3, 4), (1, 1)), ((1, 1), (3, 4)),
                   ((2, 3, 4), (2, 3, 4)), ((2, 3, 4), (1, 3, 1)))
_DTYPES = {"double": "float64", "single": "float32", "int32": "int32",
           "logical": "bool", "complex": "complex128"}


def make_array(cls: str, shape: tuple[int, ...], seed: int, domain: str = "any") -> np.ndarray:
    """Deterministic test data of MATLAB class ``cls`` (``complex`` = complex double)."""
    rng = np.random.default_rng(seed)
    if cls == "logical":
        return rng.random(shape) > 0.5
    if cls == "int32":
        return rng.integers(-50, 50, size=shape).astype(np.int32)
    base = rng.standard_normal(shape) * 3
    if domain == "positive":
        base = np.abs(base) + 0.25
    elif domain == "unit":
        base = np.tanh(base) * 0.95
    elif domain == "ge1":
        base = np.abs(base) + 1.0
    elif domain == "zero_two":
        base = np.tanh(base) * 0.95 + 1.0
    if cls == "complex":
        return base + 1j * rng.standard_normal(shape)
    return base.astype(_DTYPES[cls])


@dataclass
class OracleCase:
    """One hook invocation.

    Attributes:
        id: pytest id.
        hook: provider method name.
        inputs: host arrays uploaded and passed first, in order.
        args: further positional arguments (scalars, shapes, dims...).
        scalar_operands: positions in ``inputs`` passed as Python scalars.
        lead: arguments passed before the inputs (the ``op`` of reduce/scan...).
    """

    id: str
    hook: str
    inputs: list[np.ndarray]
    args: tuple[Any, ...] = ()
    scalar_operands: tuple[int, ...] = ()
    lead: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    call: Callable[..., Any] | None = None


def _upload(p: AccelProvider, arr: np.ndarray) -> GpuTensorHandle:
    return p.upload(HostTensor.from_array(np.asarray(arr)))


def run_case(case: OracleCase, p: AccelProvider) -> list[np.ndarray]:
    """Run ``case`` on ``p``; returns downloaded outputs. Frees every buffer."""
    handles: list[GpuTensorHandle] = []
    operands: list[Any] = []
    for i, arr in enumerate(case.inputs):
        if i in case.scalar_operands:
            value = np.asarray(arr).reshape(-1)[0].item()
            operands.append(complex(value) if isinstance(value, complex) else float(value))
        else:
            h = _upload(p, arr)
            handles.append(h)
            operands.append(h)
    try:
        if case.call is not None:
            result = case.call(p, *operands)
        else:
            result = getattr(p, case.hook)(*case.lead, *operands, *case.args, **case.kwargs)
    except Unsupported:
        for h in handles:
            p.free(h)
        pytest.skip(f"{p.name} does not implement {case.hook} for {case.id}")
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    try:
        return [p.download(h).to_array() for h in outs]
    finally:
        for h in handles + outs:
            p.free(h)


def tolerance(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for results of ``dtype``: f32 math is compared loosely."""
    if dtype in (np.float32, np.complex64):
        return 2e-5, 1e-5
    if dtype.kind in "fc":
        return 1e-10, 1e-12
    return 0.0, 0.0


def assert_matches(got: list[np.ndarray], want: list[np.ndarray], case: OracleCase) -> None:
    """Same count, shapes, dtypes; values within the precision's tolerance
    (NaN where NaN, equal infinities)."""
    assert len(got) == len(want), case.id
    for g, w in zip(got, want):
        assert tuple(g.shape) == tuple(w.shape), f"{case.id}: shape {g.shape} != {w.shape}"
        assert g.dtype == w.dtype, f"{case.id}: dtype {g.dtype} != {w.dtype}"
        rtol, atol = tolerance(w.dtype)
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=case.id)
        else:
            np.testing.assert_array_equal(g, w, err_msg=case.id)


# ------------------------------------------------------------------ case tables
BINARY_BY_CLASS = {
    "double": ("plus", "minus", "times", "rdivide", "ldivide", "power", "eq", "ne", "lt", "le",
               "gt", "ge", "and", "or", "xor", "atan2", "hypot", "max", "min", "mod", "rem"),
    "single": ("plus", "minus", "times", "rdivide", "power", "lt", "eq", "max", "min", "mod",
               "atan2", "hypot"),
    "int32": ("plus", "minus", "times", "rdivide", "eq", "lt", "max", "min"),
    "logical": ("and", "or", "xor", "eq", "ne", "plus"),
    "complex": ("plus", "minus", "times", "rdivide", "eq", "ne", "power"),
}
_COMPARE = {"eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor"}

UNARY_BY_CLASS = {
    "double": ("uminus", "abs", "sign", "sqrt", "exp", "expm1", "log", "log2", "log10",
               "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
               "asinh", "acosh", "atanh", "floor", "ceil", "round", "fix", "gamma", "erf",
               "erfc", "gammaln", "erfinv", "erfcinv", "isnan", "isinf", "isfinite"),
    "single": ("uminus", "abs", "sqrt", "exp", "log", "sin", "cos", "tanh", "round", "floor"),
    "complex": ("uminus", "abs", "real", "imag", "conj", "exp", "sqrt", "isnan"),
    "logical": ("not",),
}
_DOMAIN = {"sqrt": "positive", "log": "positive", "log2": "positive", "log10": "positive",
           "log1p": "positive", "asin": "unit", "acos": "unit", "atanh": "unit",
           "acosh": "ge1", "gamma": "positive", "erfinv": "unit", "erfcinv": "zero_two"}


def _binary_out(op: str, cls: str) -> str:
    if op in _COMPARE:
        return "bool"
    if cls == "logical":
        return "float64"
    return _DTYPES[cls]


def _unary_out(op: str, cls: str) -> str:
    if op in ("isnan", "isinf", "isfinite", "not"):
        return "bool"
    if cls == "complex" and op in ("abs", "real", "imag"):
        return "float64"
    return _DTYPES[cls]


def _binary_cases() -> list[OracleCase]:
    cases = []
    for cls, ops in BINARY_BY_CLASS.items():
        for op in ops:
            for k, (sa, sb) in enumerate(BROADCAST_PAIRS):
                a = make_array(cls, sa, 11 + k)
                b = make_array(cls, sb, 97 + k, "positive" if op == "power" and cls != "complex" else "any")
                if op == "power" and cls in ("double", "single"):
                    a = np.abs(a)  # negative bases with fractional powers are the caller's job
                cases.append(OracleCase(f"binary-{op}-{cls}-{sa}x{sb}", "elem_binary", [a, b],
                                        call=_binary_call(op, _binary_out(op, cls))))
            a = make_array(cls, (3, 4), 5)
            s = make_array(cls, (1, 1), 6, "positive")
            if op == "power" and cls in ("double", "single"):
                a = np.abs(a)
            cases.append(OracleCase(f"binary-{op}-{cls}-scalar-operand", "elem_binary", [a, s],
                                    scalar_operands=(1,) if cls in ("double", "complex") else (),
                                    call=_binary_call(op, _binary_out(op, cls))))
    return cases


MIXED_BINARY = (("int32", "double", "int32"), ("double", "int32", "int32"),
                ("single", "double", "float32"), ("logical", "double", "float64"),
                ("double", "complex", "complex128"))


def _mixed_cases() -> list[OracleCase]:
    """Operands of different dtypes (the caller has applied the class rules)."""
    cases = []
    for ca, cb, out in MIXED_BINARY:
        for op in ("plus", "minus", "times", "rdivide", "lt", "eq"):
            if out.startswith("complex") and op == "lt":
                continue
            a, b = make_array(ca, (3, 4), 31), make_array(cb, (1, 4), 32)
            cases.append(OracleCase(f"mixed-{op}-{ca}-{cb}", "elem_binary", [a, b],
                                    call=_binary_call(op, "bool" if op in _COMPARE else out)))
    return cases


def _binary_call(op: str, out: str) -> Callable[..., Any]:
    return lambda p, a, b: p.elem_binary(op, a, b, out)


def _unary_cases() -> list[OracleCase]:
    cases = []
    for cls, ops in UNARY_BY_CLASS.items():
        for op in ops:
            for k, shape in enumerate(SHAPES):
                x = make_array(cls, shape, 200 + k, _DOMAIN.get(op, "any"))
                out = _unary_out(op, cls)
                cases.append(OracleCase(f"unary-{op}-{cls}-{shape}", "elem_unary", [x],
                                        call=lambda p, h, op=op, out=out: p.elem_unary(op, h, out)))
    special = np.array([[0.5, -0.5, 1.5, -2.5, np.nan, np.inf, -np.inf, 0.0]])
    for op in ("round", "fix", "floor", "ceil", "isnan", "isinf", "abs", "sign"):
        out = "bool" if op.startswith("is") else "float64"
        cases.append(OracleCase(f"unary-{op}-specials", "elem_unary", [special],
                                call=lambda p, h, op=op, out=out: p.elem_unary(op, h, out)))
    return cases


def _cast_cases() -> list[OracleCase]:
    x = np.array([[0.5, -0.5, 2.5, -3.5, 1e10, -1e10, np.nan, np.inf, 7.49]])
    cases = [OracleCase(f"cast-double-to-{t}", "cast", [x], args=(t,))
             for t in ("float32", "int32", "uint8", "int8", "int64", "bool", "complex128")]
    cases += [OracleCase(f"cast-{c}-to-double", "cast", [make_array(c, (3, 4), 3)], args=("float64",))
              for c in ("single", "int32", "logical")]
    return cases


def _reduction_cases() -> list[OracleCase]:
    cases = []
    data = {"double": make_array("double", (3, 4, 2), 7), "single": make_array("single", (3, 4, 2), 8)}
    nan_data = make_array("double", (4, 3), 9)
    nan_data[1, :] = np.nan
    nan_data[0, 0] = np.nan
    data["nan"] = nan_data
    for name, x in data.items():
        out = "float32" if x.dtype == np.float32 else "float64"
        for op in ("sum", "prod", "mean", "max", "min"):
            for dims in ((0,), (1,), (0, 1), None):
                if name != "nan" or dims != (0, 1):
                    cases.append(OracleCase(f"reduce-{op}-{name}-{dims}", "reduce", [x], lead=(op,),
                                            args=(dims, name == "nan", out)))
        for op in ("any", "all"):
            cases.append(OracleCase(f"reduce-{op}-{name}", "reduce", [x], lead=(op,),
                                    args=((0,), False, "bool")))
        for op in ("max", "min"):
            for dim in (0, 1):
                for omit in (True, False):
                    cases.append(OracleCase(f"reduce_with_index-{op}-{name}-{dim}-{omit}",
                                            "reduce_with_index", [x], lead=(op,), args=(dim, omit)))
        for op in ("var", "std"):
            for weight in (0, 1):
                cases.append(OracleCase(f"moments-{op}-{name}-{weight}", "moments", [x], lead=(op,),
                                        args=((0,), weight, False)))
        for op in ("cumsum", "cumprod", "cummax", "cummin"):
            for dim in (0, 1):
                for rev in (False, True):
                    cases.append(OracleCase(f"scan-{op}-{name}-{dim}-{rev}", "scan", [x], lead=(op,),
                                            args=(dim, rev)))
    cases.append(OracleCase("reduce-sum-logical", "reduce", [make_array("logical", (3, 4), 1)],
                            lead=("sum",), args=((0,), False, "float64")))
    cases.append(OracleCase("reduce-sum-complex", "reduce", [make_array("complex", (3, 4), 1)],
                            lead=("sum",), args=((1,), False, "complex128")))
    return cases


def _array_cases() -> list[OracleCase]:
    a, b = make_array("double", (3, 4), 1), make_array("double", (4, 5), 2)
    sq = make_array("double", (4, 4), 3) + 4 * np.eye(4)
    cube = make_array("double", (2, 3, 4), 4)
    col, row = make_array("double", (6, 1), 5), make_array("double", (1, 3), 6)
    idx = np.array([[0, 5, 2], [11, 3, 3]], dtype=np.int32)
    cases = [
        OracleCase("matmul-double", "matmul", [a, b]),
        OracleCase("matmul-single", "matmul", [a.astype(np.float32), b.astype(np.float32)]),
        OracleCase("matmul-complex", "matmul", [make_array("complex", (3, 4), 1),
                                                make_array("complex", (4, 2), 2)]),
        OracleCase("matmul-empty", "matmul", [np.zeros((3, 0)), np.zeros((0, 2))]),
        OracleCase("permute-2d", "permute", [a], args=((1, 0),)),
        OracleCase("permute-3d", "permute", [cube], args=((2, 0, 1),)),
        OracleCase("permute-int32", "permute", [make_array("int32", (2, 3, 4), 4)], args=((1, 0, 2),)),
        OracleCase("triu", "triangular", [sq], args=(0, True)),
        OracleCase("tril-k", "triangular", [a], args=(-1, False)),
        OracleCase("diag-vector", "diag", [row], args=(1,)),
        OracleCase("diag-matrix", "diag", [a], args=(0,)),
        OracleCase("solve", "solve", [sq, make_array("double", (4, 2), 9)]),
        OracleCase("index_gather", "index_gather", [a, idx], args=((2, 3),)),
        OracleCase("index_gather-logical", "index_gather",
                   [make_array("logical", (3, 4), 2), idx], args=((2, 3),)),
        OracleCase("index_scatter-values", "index_scatter",
                   [a, np.array([[1, 7, 4]], dtype=np.int32), np.array([[10.0, 20.0, 30.0]])]),
        OracleCase("index_scatter-scalar", "index_scatter",
                   [a, np.array([[1, 7, 4]], dtype=np.int32), np.array([[5.0]])], scalar_operands=(2,)),
        OracleCase("find", "find", [np.array([[0.0, 1.0, 0.0], [2.0, 0.0, np.nan]])]),
        OracleCase("find-empty", "find", [np.zeros((0, 3))]),
        OracleCase("concat-rows", "concat", [], call=None),
        OracleCase("conv1d-full", "conv1d", [row, col], args=("full",)),
        OracleCase("conv1d-same", "conv1d", [make_array("double", (1, 7), 1), row], args=("same",)),
        OracleCase("conv1d-valid", "conv1d", [make_array("double", (1, 7), 1), row], args=("valid",)),
        OracleCase("conv2d-full", "conv2d", [sq, make_array("double", (2, 3), 4)], args=("full",)),
        OracleCase("conv2d-same", "conv2d", [sq, make_array("double", (2, 3), 4)], args=("same",)),
        OracleCase("conv2d-valid", "conv2d", [sq, make_array("double", (2, 3), 4)], args=("valid",)),
        OracleCase("filter", "filter", [np.array([[1.0, 0.5]]), np.array([[2.0, -0.4]]), col],
                   args=(0,)),
        OracleCase("fft", "fft", [col], args=(None, 0, False)),
        OracleCase("fft-n", "fft", [a], args=(8, 0, False)),
        OracleCase("ifft", "fft", [make_array("complex", (4, 3), 1)], args=(None, 1, True)),
        OracleCase("polyval", "polyval", [np.array([[1.0, -2.0, 3.0]]), a]),
        OracleCase("sort-asc", "sort", [np.array([[3.0, np.nan, 1.0, 3.0, -1.0]])], args=(1, False)),
        OracleCase("sort-desc", "sort", [np.array([[3.0, np.nan, 1.0, 3.0, -1.0]])], args=(1, True)),
        OracleCase("sort-cols", "sort", [a], args=(0, False)),
        OracleCase("sort-int32", "sort", [make_array("int32", (3, 4), 1)], args=(1, True)),
    ]
    cases = [c for c in cases if c.id != "concat-rows"]
    cases.append(OracleCase("concat-dim0", "concat", [a, make_array("double", (2, 4), 3)],
                            call=lambda p, x, y: p.concat([x, y], 0)))
    cases.append(OracleCase("concat-dim2", "concat", [a, a],
                            call=lambda p, x, y: p.concat([x, y], 2)))
    return cases


def _construction_cases() -> list[OracleCase]:
    cases = []
    for dtype in ("float64", "float32", "bool", "int32"):
        cases.append(OracleCase(f"fill-{dtype}", "fill", [], call=lambda p, d=dtype: p.fill((3, 2), 1.0, d)))
    cases += [
        OracleCase("fill-nan", "fill", [], call=lambda p: p.fill((2, 2), float("nan"), "float64")),
        OracleCase("fill-empty", "fill", [], call=lambda p: p.fill((0, 3), 0.0, "float64")),
        OracleCase("eye", "eye", [], call=lambda p: p.eye((3, 4), "float64")),
        OracleCase("eye-3d", "eye", [], call=lambda p: p.eye((2, 2, 3), "float32")),
        OracleCase("linspace", "linspace", [], call=lambda p: p.linspace(0.0, 1.0, 11, "float64")),
        OracleCase("linspace-1", "linspace", [], call=lambda p: p.linspace(0.0, 1.0, 1, "float64")),
        OracleCase("colon", "colon", [], call=lambda p: p.colon(1.0, 0.5, 7, "float64")),
        OracleCase("colon-empty", "colon", [], call=lambda p: p.colon(1.0, 1.0, 0, "float64")),
    ]
    for dtype in ("float64", "float32"):
        for hook in ("random_uniform", "random_normal"):
            cases.append(OracleCase(f"{hook}-{dtype}", hook, [],
                                    call=lambda p, h=hook, d=dtype: getattr(p, h)((5, 3), d, (42, 7), 3)))
    return cases


ORACLE_CASES: list[OracleCase] = (_binary_cases() + _mixed_cases() + _unary_cases() + _cast_cases()
                                  + _reduction_cases() + _array_cases() + _construction_cases())
