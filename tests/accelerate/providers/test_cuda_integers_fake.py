"""Integer classes on the CUDA provider's elementwise hooks: one-node kernels
of the fusion IR (loads into double, the op table's expression, MATLAB's
rounding and saturating store), against the in-process reference, exactly.
Run on the NumPy-backed fake CuPy, whose generated CUDA C runs on the CPU
through g++ (the GPU run is the GPU machine's)."""

from __future__ import annotations

import numpy as np
import pytest

import matfuse.accelerate.fusion.lazy  # noqa: F401  (registers the kernel source)
from matfuse.accelerate_api import HostTensor, Unsupported, elementwise_kernel
from tests.accelerate import cuda_host
from tests.accelerate.oracle import REFERENCE
from tests.accelerate.providers import fake_cupy

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")

CLASSES = ("int8", "uint8", "int16", "uint16", "int32", "uint32")
ARITHMETIC = ("plus", "minus", "times", "rdivide", "ldivide", "power", "max", "min", "mod", "rem")
LOGICAL_RESULT = ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor")


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("integer_cache")))


def _values(cls: str) -> np.ndarray:
    """A 2x4 array of ``cls`` with its extremes, zero, small values."""
    info = np.iinfo(cls)
    row = [info.min, info.max, 0, 1, 2, 3, info.max // 2 + 1, max(info.min, -7)]
    return np.array(row, dtype=cls).reshape(2, 4, order="F")


_DOUBLES = np.array([[0.5, -2.5, np.nan, np.inf, -np.inf, 1e10, 3.0, -0.0]]).reshape(2, 4, order="F")


def _run(p, hook: str, op: str, operands: list, out_dtype: str) -> np.ndarray:
    handles = [p.upload(HostTensor.from_array(x)) if isinstance(x, np.ndarray) else x for x in operands]
    out = getattr(p, hook)(op, *handles, out_dtype)
    try:
        return p.download(out).to_array()
    finally:
        for h in handles + [out]:
            if not isinstance(h, float):
                p.free(h)


def _check(p, hook: str, op: str, operands: list, out_dtype: str) -> None:
    got = _run(p, hook, op, operands, out_dtype)
    want = _run(REFERENCE, hook, op, operands, out_dtype)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want, err_msg=f"{op} {out_dtype}")


# Every op on the narrowest and the widest class, a few on the others: each
# class and operand layout is a kernel of its own (a g++ compile here).
_ALL_OPS_CLASSES = ("int8", "uint32")


def _arithmetic_cases() -> list[tuple[str, str]]:
    cases = [(cls, op) for cls in _ALL_OPS_CLASSES for op in ARITHMETIC]
    cases += [(cls, op) for cls in CLASSES if cls not in _ALL_OPS_CLASSES
              for op in ("plus", "times", "rdivide", "mod")]
    return cases


@pytest.mark.parametrize("cls, op", _arithmetic_cases())
def test_arithmetic_rounds_and_saturates(fake_cuda, cls, op):
    x = _values(cls)
    forms = [[x, np.flip(x)], [x, _DOUBLES], [x, 2.5]]
    if cls in _ALL_OPS_CLASSES:
        forms += [[-1.5, x], [_DOUBLES, x], [x[:1, :], x[:, :1]]]
    for operands in forms:
        _check(fake_cuda, "elem_binary", op, operands, cls)


def _logical_cases() -> list[tuple[str, str]]:
    cases = [(cls, op) for cls in _ALL_OPS_CLASSES for op in LOGICAL_RESULT]
    return cases + [(cls, op) for cls in CLASSES if cls not in _ALL_OPS_CLASSES for op in ("lt", "and")]


@pytest.mark.parametrize("cls, op", _logical_cases())
def test_comparisons_and_logic_into_logical(fake_cuda, cls, op):
    x = _values(cls)
    forms = [[x, np.flip(x)], [x, 2.0]]
    if op not in ("and", "or", "xor"):
        forms += [[x, _DOUBLES], [x, np.full((2, 4), 3.5, np.float32)]]
    for operands in forms:
        _check(fake_cuda, "elem_binary", op, operands, "bool")


def test_int32_compares_with_single_in_double(fake_cuda):
    # int32(2^24 + 1) is not single(2^24): the comparison is not made in single
    x = np.array([[16777217, -16777217]], np.int32)
    y = np.array([[16777216.0, -16777216.0]], np.float32)
    for op in ("eq", "lt", "gt"):
        _check(fake_cuda, "elem_binary", op, [x, y], "bool")


@pytest.mark.parametrize("cls", _ALL_OPS_CLASSES)
@pytest.mark.parametrize("op, out", [("sign", None), ("fix", None), ("isnan", "bool"),
                                     ("isinf", "bool"), ("isfinite", "bool"), ("not", "bool")])
def test_unary(fake_cuda, cls, op, out):
    _check(fake_cuda, "elem_unary", op, [_values(cls)], out or cls)


def test_conversion_between_classes_in_one_kernel(fake_cuda):
    # int16 operand, uint8 result: computed in double, stored saturated
    x = np.array([[-300, -1, 0, 200, 300, 255]], np.int16)
    _check(fake_cuda, "elem_binary", "plus", [x, 0.5], "uint8")


def test_kernel_loads_and_stores_the_integer_types(fake_cuda):
    a = fake_cuda.upload(HostTensor.from_array(np.array([[1, 2]], np.uint16)))
    kernel = elementwise_kernel(fake_cuda, "times", [a, 3.0], "uint16")
    assert "const unsigned short* __restrict__ in0" in kernel.source
    assert "unsigned short* __restrict__ out0" in kernel.source
    fake_cuda.free(a)


@pytest.mark.parametrize("dtype", ("int64", "uint64"))
def test_64_bit_integers_are_the_hosts(fake_cuda, dtype):
    # a double would round them: the device declines (the router never sends them)
    a = fake_cuda.upload(HostTensor.from_array(np.array([[2**53 + 1]], dtype)))
    try:
        with pytest.raises(Unsupported):
            fake_cuda.elem_binary("plus", a, 1.0, dtype)
    finally:
        fake_cuda.free(a)
