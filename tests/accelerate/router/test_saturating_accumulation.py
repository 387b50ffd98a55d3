"""Integer ``sum``/``prod`` with ``'native'`` and integer ``cumsum``/``cumprod``
of device values saturate at each step on the device
(``accelerate/router/saturating_accumulation.py``): the results equal the
host's (class, size, every value) for data that does and does not
saturate, at both ends of each class, along every dimension, ``'all'``,
vecdims and ``'reverse'``, with explicit gpuArrays (fused and unfused) and
with automatic offload forced (every planner threshold at 1), and no host
fallback is counted and no data comes back to the host.

Run on lavapipe with ``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``; the CUDA
provider's half is ``test_saturating_accumulation_cuda_fake.py``.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from matfuse.accelerate.router.saturating_accumulation import Accumulation, Steps, _accumulation
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.vm.session import Session
from tests.differential import runner

CLASSES = ("int8", "uint8", "int16", "uint16", "int32", "uint32")

# Every form on one array x (N-D); r1 ... rK are compared.
FORMS = (
    "sum(x, 'native')", "sum(x, 1, 'native')", "sum(x, 2, 'native')", "sum(x, 3, 'native')",
    "sum(x, 5, 'native')", "sum(x, [1 3], 'native')", "sum(x, [3 2], 'native')",
    "sum(x, 'all', 'native')", "sum(x, 2, 'native', 'omitnan')",
    "prod(x, 'native')", "prod(x, 2, 'native')", "prod(x, 3, 'native')", "prod(x, [1 2], 'native')",
    "prod(x, 'all', 'native')",
    "cumsum(x)", "cumsum(x, 2)", "cumsum(x, 3)", "cumsum(x, 4)", "cumsum(x, 'reverse')",
    "cumsum(x, 3, 'reverse')", "cumsum(x, 2, 'omitnan', 'reverse')",
    "cumprod(x)", "cumprod(x, 2)", "cumprod(x, 3, 'reverse')", "cumprod(x, 1, 'forward')",
    "sum(x)", "sum(x, 2, 'double')", "sum(x, 'all', 'default')", "prod(x, 3, 'double')",
    "sum(x > 0, 'native')", "prod(x > 0, [1 2], 'native')", "sum(x ~= 0, 4, 'native')",
    "prod(x > 0, 'all', 'native')", "cumsum(x > 0, 2)", "cumprod(x ~= 0, 'reverse')",
    "sum(x(:, []), 'native')", "cumsum(x([], :), 2)",
)
VECTOR_FORMS = ("sum(x, 'native')", "prod(x, 'native')", "cumsum(x)", "cumprod(x, 'reverse')",
                "sum(x, 'all', 'native')", "sum(x, 1, 'native')", "cumsum(x, 1)")


def _program(forms: tuple[str, ...]) -> tuple[str, list[str]]:
    names = [f"r{i}" for i in range(len(forms))]
    return " ".join(f"{n} = {f};" for n, f in zip(names, forms)), names


def _data(cls: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Small values (lines that never saturate), values at both ends of the
    class (lines that saturate up and down, mixed signs) and values from
    the whole range, mixed in bands so some lines are of each kind."""
    info = np.iinfo(cls)
    small = rng.integers(max(info.min, -3), 4, size=shape)
    ends = np.where(rng.random(shape) < 0.5, info.min, info.max)
    ends = np.where(rng.random(shape) < 0.3, rng.integers(info.min, info.max, size=shape,
                                                          endpoint=True), ends)
    band = np.arange(shape[0]).reshape((-1,) + (1,) * (len(shape) - 1)) % 3
    values = np.where(band == 0, small, np.where(band == 1, ends, small + ends // 7))
    return np.clip(values, info.min, info.max).astype(cls)


def _check(p: Any, x: np.ndarray, forms: tuple[str, ...]) -> None:
    source, names = _program(forms)
    want = runner.run(source, {"x": x}, names, runner.REFERENCE, "host")
    assert want.error is None, want.message
    for mode in runner.MODES:
        reset_fallback_counts()
        got = runner.run(source, {"x": x}, names, p, mode)
        assert got.error is None, (mode, got.message)
        assert fallback_counts() == {}, (mode, fallback_counts())
        for name, form in zip(names, forms):
            w, g = want.results[name], got.results[name]
            assert (g.cls, g.shape) == (w.cls, w.shape), (mode, form)
            if g.cls == "double" and form.startswith("prod"):
                # a double product of integers past 2^53 rounds: the
                # device's tree and the host's sequence round differently
                np.testing.assert_allclose(g.data, w.data, rtol=8 * x.size * np.finfo(float).eps,
                                           err_msg=f"{mode} {form} {x.dtype}")
                continue
            assert np.array_equal(g.data, w.data), (mode, form, x.dtype, g.data, w.data)


@pytest.mark.parametrize("cls", CLASSES)
def test_nd_forms_match_the_host(device, cls):
    """Arrays with saturating lines (the composed maps) and arrays of small
    values (most forms saturate at no step: the exact running sums)."""
    rng = np.random.default_rng(CLASSES.index(cls))
    _check(device, _data(cls, (6, 5, 4), rng), FORMS)
    info = np.iinfo(cls)
    _check(device, rng.integers(max(info.min, -3), 4, size=(6, 5, 4)).astype(cls), FORMS)


@pytest.mark.parametrize("cls,shape", [("int8", (1, 3001)), ("uint32", (2500, 1)),
                                       ("int16", (1, 777)), ("uint8", (1, 513))])
def test_long_vectors_match_the_host(device, cls, shape):
    """Long lines: the tree's passes (sizes that are and are not powers of
    two), partial sums that leave and re-enter the range many times."""
    rng = np.random.default_rng(shape[0] + shape[1])
    info = np.iinfo(cls)
    span = (int(info.max) - int(info.min)) // 16
    x = rng.integers(-span, span, size=shape) + (rng.integers(0, 2, size=shape) * 2 - 1) * span // 2
    _check(device, np.clip(x, info.min, info.max).astype(cls), VECTOR_FORMS)


def test_products_with_zeros_and_sign_changes_match_the_host(device):
    """A zero factor resets a running product; negative factors swap the
    bounds; a capped magnitude keeps its sign."""
    x = np.array([[3, -2, 0, 5, -128, 127, -1, -1, 2],
                  [-128, -1, 2, -3, 4, 0, -127, 3, 1],
                  [100, 100, -1, 100, -100, 2, 0, -1, 1]], dtype=np.int8)
    _check(device, x, ("prod(x, 2, 'native')", "cumprod(x, 2)", "cumprod(x, 2, 'reverse')",
                       "prod(x, 'native')", "prod(x, 'all', 'native')", "cumsum(x, 2)"))
    big = np.array([[65536, 65536, 2, -1, 3], [-2, 65536, 65536, 65536, -1]], dtype=np.int32)
    _check(device, big, ("prod(x, 2, 'native')", "cumprod(x, 2)", "cumprod(x, 2, 'reverse')"))
    # running products in double overflow to Inf (0 * Inf is NaN) before or after a zero
    huge = np.array([[2**31 - 1] * 40 + [0, 5], [0] + [-2**31] * 41], dtype=np.int32)
    _check(device, huge, ("prod(x, 2, 'native')", "cumprod(x, 2)", "cumprod(x, 2, 'reverse')"))
    top = np.array([[4294967295, 4294967295, 0, 7, 65536, 65536, 65536]], dtype=np.uint32)
    _check(device, top, ("prod(x, 'native')", "cumprod(x)", "cumsum(x)", "sum(x, 'native')"))


def test_results_stay_on_the_device(device):
    """No host fallback and no upload; the only reads are one flag per call
    (whether a step saturates): the data never leaves the device."""
    session = Session(stdout=io.StringIO())
    session.interp.base["x"] = _data("int16", (40, 30), np.random.default_rng(7))
    session.eval("x = gpuArray(x); c = cumsum(x(1)); s = sum(x(1), 'native');")
    device.synchronize()
    device.reset_telemetry()
    reset_fallback_counts()
    session.eval("a = sum(x, 'native'); b = prod(x, [1 2], 'native'); c = cumsum(x, 2);"
                 "d = cumprod(x, 'reverse'); e = sum(x, 'all', 'native');")
    telemetry = device.telemetry()
    assert fallback_counts() == {}
    assert telemetry["uploads"] == 0, telemetry
    assert telemetry["downloads"] <= 5 and telemetry["download_bytes"] <= 5 * 4, telemetry
    session.eval("r = strjoin({class(a), classUnderlying(a), classUnderlying(c), classUnderlying(e)});")
    assert session.get("r") == "gpuArray int16 int16 int16"


def test_64_bit_integers_are_left_to_the_host_counted(device):
    """int64/uint64 do not fit a double exactly: the host saturates them
    (a counted fallback) where the provider holds such arrays."""
    x = np.array([[2**62, 2**62, -5, 9]], dtype=np.int64)
    source, names = _program(("sum(x, 'native')", "cumsum(x)"))
    want = runner.run(source, {"x": x}, names, runner.REFERENCE, "host")
    reset_fallback_counts()
    got = runner.run(source, {"x": x}, names, device, "gpuarray")
    assert {"sum", "cumsum"} <= set(fallback_counts()), fallback_counts()
    for name in names:
        assert got.results[name].cls == "int64"
        assert np.array_equal(got.results[name].data, want.results[name].data)
    assert want.results["r0"].data.item() == 2**63 - 1


# ---------------------------------------------------------------- the algebra
def _one_by_one(values: list[int], acc: Accumulation) -> int:
    state = 0 if acc.is_sum else 1
    for v in values:
        state = state + v if acc.is_sum else state * v
        state = int(min(max(state, acc.lo), acc.hi))
    return state


def _tree(values: list[int], acc: Accumulation, cut: list[int]) -> Steps:
    """The maps of ``values`` composed with the bracketing ``cut`` picks."""
    if len(values) == 1:
        return Steps(np.array([[float(values[0])]]), np.array([[acc.lo]]), np.array([[acc.hi]]))
    k = 1 + cut[len(values) % len(cut)] % (len(values) - 1)
    return acc.compose(_tree(values[:k], acc, cut), _tree(values[k:], acc, cut))


@settings(max_examples=150, deadline=None)
@given(cls=st.sampled_from(CLASSES), is_sum=st.booleans(), data=st.data(),
       cut=st.lists(st.integers(0, 50), min_size=1, max_size=5))
def test_any_bracketing_of_the_maps_is_the_step_by_step_result(cls, is_sum, data, cut):
    """Composition is exact and associative in double, caps included: any
    tree over the elements gives the one-at-a-time saturated result."""
    acc = _accumulation(cls, is_sum)
    info = np.iinfo(cls)
    element = st.one_of(st.integers(int(info.min), int(info.max)),
                        st.sampled_from([int(info.min), int(info.max), 0, 1, -1 if info.min else 2]))
    values = data.draw(st.lists(element, min_size=1, max_size=24))
    steps = _tree(values, acc, cut)
    got = np.asarray(Accumulation.apply(steps)).item()
    assert got == _one_by_one(values, acc)
