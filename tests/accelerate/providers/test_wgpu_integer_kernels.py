"""Integer classes (int8..uint32) and casts on wgpu run one-node kernels of
the fusion IR (loads into double, the op table's expressions, rounding and
saturating stores), checked against the in-process provider element for
element: every op of the table that takes integers, saturation at both ends,
NaN -> 0, round half away from zero, integer division, double operands,
int32 values beyond single's 24 bits, and casts between every pair of
classes. Each hook must run exactly one generated kernel (no host fallback,
no shader skeleton). Runs on lavapipe in CI."""

from __future__ import annotations

import numpy as np
import pytest

import matfuse.accelerate.fusion.lazy  # noqa: F401  (registers the kernel source)
from matfuse.accelerate_api import HostTensor, elementwise_kernel
from tests.accelerate.oracle import REFERENCE
from tests.wgpu_required import no_adapter

INTEGERS = ("int8", "uint8", "int16", "uint16", "int32", "uint32")
CLASSES = INTEGERS + ("float32", "float64", "bool")
ARITHMETIC = ("plus", "minus", "times", "rdivide", "ldivide", "max", "min", "mod", "rem")
COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor")
UNARY = ("uminus", "abs", "sign", "round", "fix", "floor", "ceil")
PREDICATES = ("not", "isnan", "isinf", "isfinite")
#: doubles exercising rounding (halves both ways), saturation and NaN
DOUBLES = (0.5, -0.5, 2.5, -2.5, 1.5, -1.49, np.nan, np.inf, -np.inf, 1e10, -1e10, 0.0)


def _ints(dtype: str, shape: tuple[int, ...], seed: int, zeros: bool = True) -> np.ndarray:
    """Values spanning the class, its extremes included (saturation)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    x = rng.integers(info.min, int(info.max) + 1, size=shape, dtype=np.int64).astype(dtype)
    flat = x.reshape(-1, order="F")
    specials = (info.min, info.max, 0 if zeros else 1, 1, 2, info.max - 1)
    for k, v in enumerate(specials[:flat.size]):
        flat[(5 * k) % flat.size] = v
    return flat.reshape(shape, order="F")


def _values(cls: str, seed: int) -> np.ndarray:
    """Data of any class: integers over their range, floats with halves,
    NaN, infinities and values beyond every integer range."""
    if cls in INTEGERS:
        return _ints(cls, (3, 4), seed)
    if cls == "bool":
        return np.random.default_rng(seed).random((3, 4)) > 0.5
    return np.array(DOUBLES).reshape(3, 4, order="F").astype(cls)


def _on(p, hook: str, op: str | None, operands: list, out_dtype: str) -> np.ndarray:
    handles = [p.upload(HostTensor.from_array(x)) if isinstance(x, np.ndarray) else x
               for x in operands]
    try:
        if hook == "cast":
            out = p.cast(handles[0], out_dtype)
        else:
            out = getattr(p, hook)(op, *handles, out_dtype)
        try:
            return p.download(out).to_array()
        finally:
            p.free(out)
    finally:
        for h in handles:
            if not isinstance(h, float):
                p.free(h)


def _saturated(op: str, x: np.ndarray) -> np.ndarray:
    """MATLAB's ``-x``/``abs(x)`` of integers: the minimum's negation
    saturates (NumPy's, and so the in-process provider's hook, wraps)."""
    info = np.iinfo(x.dtype)
    value = -x.astype(np.float64) if op == "uminus" else np.abs(x.astype(np.float64))
    return np.clip(value, info.min, info.max).astype(x.dtype)


def _check(p, hook: str, op: str | None, operands: list, out_dtype: str) -> None:
    """The hook on wgpu equals the reference, through one generated kernel."""
    p.reset_telemetry()
    got = _on(p, hook, op, operands, out_dtype)
    ops = p.telemetry()["ops"]
    if op in ("uminus", "abs") and out_dtype in INTEGERS:
        want = _saturated(op, operands[0])
    else:
        want = _on(REFERENCE, hook, op, operands, out_dtype)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want, err_msg=f"{hook} {op} -> {out_dtype}")
    assert ops.get("fused_elementwise") == 1, ops
    hook_scope = {"cast"} if hook == "cast" else set()      # the cast hook names its call
    assert set(ops) <= {"fused_elementwise", "upload", "download"} | hook_scope, ops


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("op", ARITHMETIC + COMPARISONS)
def test_same_class_binary_ops(wgpu_provider, dtype, op):
    a, b = _ints(dtype, (3, 4), 1), _ints(dtype, (3, 4), 2)
    out = "bool" if op in COMPARISONS else dtype
    _check(wgpu_provider, "elem_binary", op, [a, b], out)
    # implicit expansion, both ways
    _check(wgpu_provider, "elem_binary", op, [a[:, :1], b[:1, :]], out)


@pytest.mark.parametrize("dtype", INTEGERS)
def test_power_of_small_bases_and_saturating_powers(wgpu_provider, dtype):
    info = np.iinfo(dtype)
    lo = max(int(info.min), -9)
    base = np.arange(lo, lo + 12).reshape(3, 4).astype(dtype)
    exponent = np.array([[0, 1, 2, 3], [5, 7, 9, 11], [13, 19, 23, 31]]).astype(dtype)
    _check(wgpu_provider, "elem_binary", "power", [base, exponent], dtype)
    _check(wgpu_provider, "elem_binary", "power", [base, 2.0], dtype)
    _check(wgpu_provider, "elem_binary", "power", [base, 0.5 if info.min == 0 else 3.0], dtype)


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("op", UNARY + PREDICATES)
def test_unary_ops(wgpu_provider, dtype, op):
    out = "bool" if op in PREDICATES else dtype
    _check(wgpu_provider, "elem_unary", op, [_ints(dtype, (3, 4), 3)], out)


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("op", ("plus", "minus", "times", "rdivide", "ldivide", "max", "min",
                                "mod", "rem", "lt", "eq"))
def test_double_operands_round_half_away_and_saturate(wgpu_provider, dtype, op):
    x = _ints(dtype, (3, 4), 4)
    d = np.array(DOUBLES).reshape(3, 4, order="F")
    out = "bool" if op in ("lt", "eq") else dtype
    _check(wgpu_provider, "elem_binary", op, [x, d], out)
    _check(wgpu_provider, "elem_binary", op, [d, x], out)
    for s in (2.5, -0.5, 0.0, float("nan"), float("inf"), -3.0):
        _check(wgpu_provider, "elem_binary", op, [x, s], out)
        _check(wgpu_provider, "elem_binary", op, [s, x], out)


@pytest.mark.parametrize("dtype", INTEGERS)
def test_single_operands(wgpu_provider, dtype):
    x = _ints(dtype, (3, 4), 5)
    s = np.array([[2.5]], np.float32)
    for op in ("plus", "times", "rdivide", "lt"):
        _check(wgpu_provider, "elem_binary", op, [x, s], "bool" if op == "lt" else dtype)


@pytest.mark.parametrize("dtype", INTEGERS)
def test_integer_division_rounds_half_away_and_divides_by_zero(wgpu_provider, dtype):
    info = np.iinfo(dtype)
    a = np.array([[7, 5, 3, 1], [0, 0, 9, 11], [int(info.max), int(info.min), int(info.max), 1]])
    b = np.array([[2, 2, 2, 2], [0, 3, 0, 4], [0, 0, 2, int(info.max)]])
    if info.min < 0:
        a[0, 1], b[1, 3] = -5, -4
    a, b = a.astype(dtype), b.astype(dtype)
    _check(wgpu_provider, "elem_binary", "rdivide", [a, b], dtype)
    _check(wgpu_provider, "elem_binary", "ldivide", [b, a], dtype)
    _check(wgpu_provider, "elem_binary", "rdivide", [a, a], dtype)     # x ./ x: 0 ./ 0 is 0
    _check(wgpu_provider, "elem_binary", "rdivide", [a, 0.0], dtype)


@pytest.mark.parametrize("dtype", ("int32", "uint32"))
def test_values_beyond_single_precision_are_exact(wgpu_provider, dtype):
    big = np.array([[2**24 + 1, 2**24 + 3, 2**31 - 2, 2**30 + 7],
                    [2**25 + 1, 123456789, 2**31 - 1, 16777217]]).astype(dtype)
    one = np.ones((2, 4), dtype)
    _check(wgpu_provider, "elem_binary", "plus", [big, one], dtype)
    _check(wgpu_provider, "elem_binary", "minus", [big, 1.0], dtype)
    _check(wgpu_provider, "elem_binary", "times", [big, one], dtype)
    _check(wgpu_provider, "elem_binary", "rdivide", [big, 2.0], dtype)
    _check(wgpu_provider, "elem_binary", "eq", [big, float(2**24)], "bool")
    _check(wgpu_provider, "elem_binary", "gt", [big, float(2**24 + 2)], "bool")
    _check(wgpu_provider, "cast", None, [big], "float64")
    _check(wgpu_provider, "cast", None, [big], "float32")        # rounds to nearest single
    if dtype == "uint32":
        top = np.array([[4294967295, 4294967294, 2**31, 2**32 - 3]], np.uint32)
        _check(wgpu_provider, "elem_binary", "minus", [top, 1.0], dtype)
        _check(wgpu_provider, "elem_binary", "plus", [top, 1.0], dtype)   # saturates


@pytest.mark.parametrize("src", CLASSES)
@pytest.mark.parametrize("dst", CLASSES)
def test_casts_between_every_pair_of_classes(wgpu_provider, src, dst):
    if src == dst:
        pytest.skip("a cast to the own class is a copy")
    _check(wgpu_provider, "cast", None, [_values(src, 6)], dst)


def test_integer_hooks_render_one_node_kernels(wgpu_provider):
    p = wgpu_provider
    a = p.upload(HostTensor.from_array(np.array([[1, 2, 3]], np.int16)))
    try:
        kernel = elementwise_kernel(p, "plus", [a, 1.5], "int16")
        assert kernel is not None
        assert "var<storage, read> in0: array<i32>" in kernel.source
        assert "var<storage, read_write> out0: array<i32>" in kernel.source
        assert "mf_round_f64" in kernel.source          # the op table's to_integer
        cast = elementwise_kernel(p, "cast", [a], "uint8")
        assert cast is not None and "out0: array<u32>" in cast.source
        single = elementwise_kernel(p, "cast", [a], "float32")
        assert single is not None and single.float_type == "f32" and "f64" not in single.source
    finally:
        p.free(a)


@pytest.fixture(scope="module")
def without_f64():
    """A wgpu provider told not to use shader-f64 (as on adapters without it)."""
    from matfuse.accelerate.providers.wgpu import WgpuProvider
    from matfuse.accelerate_api import Unsupported

    try:
        p = WgpuProvider(use_f64=False, disk_cache=False)
    except Unsupported as why:
        no_adapter(str(why))
    assert not p.ctx.has_f64
    return p


def test_without_f64_integer_arithmetic_is_the_hosts_and_casts_to_single_run(without_f64):
    """Integer arithmetic is exact only in double (int32 values need 32
    bits): without shader-f64 the hooks raise Unsupported (the host computes
    it) and leave nothing allocated. Casts to single (and between single
    and logical) need no double and run as one-node kernels."""
    from matfuse.accelerate_api import Unsupported

    p = without_f64
    big = np.array([[2**24 + 1, -5, 7, 2**31 - 1]], np.int32)
    a = p.upload(HostTensor.from_array(big))
    live = p.live_buffers()
    try:
        for call in (lambda: p.elem_binary("plus", a, 1.0, "int32"),
                     lambda: p.elem_binary("lt", a, 2.0, "bool"),
                     lambda: p.cast(a, "uint8"), lambda: p.cast(a, "bool")):
            with pytest.raises(Unsupported):
                call()
            assert p.live_buffers() == live
    finally:
        p.free(a)
    _check(p, "cast", None, [big], "float32")
    _check(p, "cast", None, [_ints("uint16", (3, 4), 7)], "float32")
    _check(p, "cast", None, [_values("bool", 8)], "float32")
    _check(p, "cast", None, [_values("float32", 9)], "bool")


PROGRAM = """
    a = gpuArray(int8([-100 50 127; 3 4 5])); b = gpuArray(uint32([4294967295 7 0]));
    c = a + int8(100), d = a .* 2.5, e = a ./ int8(0), f = -a, g = abs(int8(-128) + a)
    h = b - 1, k = b ./ 2, m = b > 3, n = ~b, q = int32(gpuArray(16777217)) + 1
    r = uint16(gpuArray([1.5 70000 -3 NaN])), s = single(a), t = double(b), u = logical(a)
    w = int16(a) .^ 2, x = max(a, int8(4)), y = mod(a, int8(7)), z = idivide(int32(q), int32(3))
"""


def test_integer_programs_run_generated_kernels_and_print_as_the_reference(wgpu_provider):
    """A program on integer gpuArrays prints what the in-process provider
    prints, with no host fallback and no skeleton launch: every
    elementwise operation and cast is a generated kernel."""
    import io

    from matfuse.accelerate.providers.inprocess import InProcessProvider
    from matfuse.accelerate_api import fallback_counts, override_provider, reset_fallback_counts
    from matfuse.vm.session import Session

    def run(provider) -> tuple[str, dict[str, int]]:
        out = io.StringIO()
        with override_provider(provider):
            reset_fallback_counts()
            Session(stdout=out).eval(PROGRAM)
            return out.getvalue(), dict(fallback_counts())

    want, _ = run(InProcessProvider())
    wgpu_provider.reset_telemetry()
    got, fallbacks = run(wgpu_provider)
    ops = wgpu_provider.telemetry()["ops"]
    assert got == want
    assert fallbacks == {}
    skeleton = {"plus", "minus", "times", "rdivide", "uminus", "abs", "gt", "not", "power",
                "max", "mod"}
    assert not skeleton & set(ops), ops
    # every cast a generated kernel too, besides the 15 elementwise operations
    assert ops.get("cast", 0) >= 6 and ops["fused_elementwise"] >= ops["cast"] + 15, ops


@pytest.mark.parametrize("skew", ("+", "-"))
def test_integer_quotients_stay_exact_under_an_inexact_division(wgpu_provider, skew):
    """WGSL allows 2.5 ulp for f64 division. With every quotient moved 4 ulp
    up (or down) in the kernel's source, halfway quotients (7/2, -9/2) and
    the rest still round as MATLAB's: the remainder corrects them. Without
    the correction the same skew rounds some of them the other way."""
    import dataclasses

    p = wgpu_provider
    a = np.array([[7, -9, 5, 2**31 - 1, -2**31, 99, 15, -15, 1, 3, 1000001, -7]], np.int32)
    b = np.array([[2, 2, -2, 2, 2, 6, 10, 6, -2, 6, 2, -14]], np.int32)
    want = _on(REFERENCE, "elem_binary", "rdivide", [a, b], "int32")
    ha, hb = (p.upload(HostTensor.from_array(x)) for x in (a, b))
    try:
        kernel = elementwise_kernel(p, "rdivide", [ha, hb], "int32")
        assert "let q = a / b;" in kernel.source
        skewed = kernel.source.replace("let q = a / b;", f"let q = (a / b) {skew} abs(a / b) * f64(8.9e-16);")
        uncorrected = skewed.replace("if (!whole) { return q; }", "return q;")
        for source, exact in ((skewed, True), (uncorrected, False)):
            k = dataclasses.replace(kernel, source=source, cache_key="")
            out = p.fused_elementwise(k, [n.handle for n in k.inputs], k.scalars, k.outputs)[0]
            got = p.download(out).to_array()
            p.free(out)
            assert np.array_equal(got, want) == exact, (got, want)
    finally:
        p.free(ha)
        p.free(hb)
