"""8/16-bit integer gpuArrays on wgpu (stored widened to 32 bits) against the
in-process reference: transfer, saturating arithmetic with round half away,
comparisons, casts, data movement; int64/uint64 stay on the host (lavapipe)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate_api import HostTensor, Unsupported
from tests.accelerate.oracle import BROADCAST_PAIRS, REFERENCE, SHAPES, OracleCase, assert_matches, run_case

SMALL_INTS = ("int8", "uint8", "int16", "uint16")
_ARITH = ("plus", "minus", "times", "rdivide", "ldivide", "max", "min", "mod", "rem")
_COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")
# empty, both-sides expansion, same shape, scalar expansion, N-D expansion
_PAIRS = tuple(BROADCAST_PAIRS[k] for k in (2, 4, 5, 6, 9))


def _ints(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Values spanning the class, the extremes included (saturation)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    x = rng.integers(info.min, int(info.max) + 1, size=shape).astype(dtype)
    flat = x.reshape(-1, order="F")
    for k, v in enumerate((info.min, info.max, 0, 1)[:flat.size]):
        flat[(7 * k) % flat.size] = v
    return x


def _check(prov, case: OracleCase) -> None:
    assert_matches(run_case(case, prov), run_case(case, REFERENCE), case)


@pytest.mark.parametrize("dtype", SMALL_INTS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_upload_download_roundtrip(wgpu_provider, dtype, shape):
    x = _ints(dtype, shape, 1)
    h = wgpu_provider.upload(HostTensor.from_array(x))
    try:
        assert h.dtype == dtype
        back = wgpu_provider.download(h)
        assert back.matlab_class == dtype
        got = back.to_array()
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(got, x)
    finally:
        wgpu_provider.free(h)


@pytest.mark.parametrize("dtype", SMALL_INTS)
@pytest.mark.parametrize("op", _ARITH + _COMPARE)
@pytest.mark.parametrize("shapes", _PAIRS, ids=str)
def test_same_class_binary_saturates(wgpu_provider, dtype, op, shapes):
    a, b = _ints(dtype, shapes[0], 2), _ints(dtype, shapes[1], 3)
    out = "bool" if op in _COMPARE else dtype
    _check(wgpu_provider, OracleCase(f"{op}-{dtype}-{shapes}", "elem_binary", [a, b],
                                     call=lambda p, x, y: p.elem_binary(op, x, y, out)))


@pytest.mark.parametrize("dtype", SMALL_INTS)
@pytest.mark.parametrize("op", ("plus", "minus", "times", "rdivide", "lt"))
def test_with_double_operands_rounds_half_away(wgpu_provider, dtype, op):
    x = _ints(dtype, (3, 4), 4)
    d = np.array([[0.5, -0.5, 2.5, -2.49, np.nan, np.inf, -np.inf, 1e6, 0.0, 3.0, -7.5, 1.5]])
    d = d.reshape(3, 4, order="F")
    out = "bool" if op == "lt" else dtype
    for inputs, scalar in (([x, d], ()), ([d, x], ()), ([x, np.array([[2.5]])], (1,)),
                           ([np.array([[-0.5]]), x], (0,))):
        case = OracleCase(f"{op}-{dtype}-double", "elem_binary", inputs, scalar_operands=scalar,
                          call=lambda p, u, v: p.elem_binary(op, u, v, out))
        _check(wgpu_provider, case)


@pytest.mark.parametrize("dtype", SMALL_INTS)
def test_cast_from_double_rounds_and_saturates(wgpu_provider, dtype):
    x = np.array([[0.5, -0.5, 2.5, -3.5, 1e10, -1e10, np.nan, np.inf, -np.inf, 7.49, 255.5,
                   -128.5, 32767.5, 65535.4]])
    _check(wgpu_provider, OracleCase(f"cast-double-{dtype}", "cast", [x], args=(dtype,)))
    _check(wgpu_provider, OracleCase(f"cast-single-{dtype}", "cast", [x.astype(np.float32)],
                                     args=(dtype,)))


@pytest.mark.parametrize("src", SMALL_INTS + ("int32",))
@pytest.mark.parametrize("dst", SMALL_INTS + ("int32", "uint32", "float64", "float32", "bool"))
def test_casts_between_classes(wgpu_provider, src, dst):
    _check(wgpu_provider, OracleCase(f"cast-{src}-{dst}", "cast", [_ints(src, (2, 3, 4), 5)],
                                     args=(dst,)))


@pytest.mark.parametrize("dtype", SMALL_INTS)
def test_data_movement_keeps_the_class(wgpu_provider, dtype):
    x = _ints(dtype, (2, 3, 4), 6)
    idx = np.array([[0, 5, 2], [11, 3, 3]], dtype=np.int32)
    cases = [
        OracleCase(f"permute-{dtype}", "permute", [x], args=((2, 0, 1),)),
        OracleCase(f"gather-{dtype}", "index_gather", [x, idx], args=((2, 3),)),
        OracleCase(f"concat-{dtype}", "concat", [x, x], call=lambda p, u, v: p.concat([u, v], 1)),
        OracleCase(f"fill-{dtype}", "fill", [], call=lambda p: p.fill((3, 2), 300.5, dtype)),
        OracleCase(f"fill-nan-{dtype}", "fill", [],
                   call=lambda p: p.fill((2, 2), float("nan"), dtype)),
        OracleCase(f"eye-{dtype}", "eye", [], call=lambda p: p.eye((3, 4), dtype)),
    ]
    for case in cases:
        _check(wgpu_provider, case)


@pytest.mark.parametrize("dtype", ("int64", "uint64"))
def test_64_bit_integers_stay_on_the_host(wgpu_provider, dtype):
    # WGSL has no 64-bit integer type: upload refuses, the caller keeps the
    # array on the host shadow provider and counts the fallback
    with pytest.raises(Unsupported):
        wgpu_provider.upload(HostTensor.from_array(np.arange(6, dtype=dtype).reshape(2, 3)))
