"""Host fast paths (single/double arrays with scalars, small max/min/norm)
must give what the general paths give: class, shape and values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from matfuse.runtime._elementwise import arithmetic
from matfuse.runtime.builtins.minmax import _reduce
from matfuse.runtime.builtins.norms import norm
from matfuse.runtime.ops import binary
from matfuse.runtime.values import class_of

SINGLE = np.array([[-1.5, 0.0, 2.25, 3.0]], dtype=np.float32)
DOUBLE = SINGLE.astype(np.float64)


@pytest.mark.parametrize("op", ["+", "-", ".*", "./", ".^"])
@pytest.mark.parametrize("arr", [SINGLE, DOUBLE])
def test_array_scalar_matches_general_path(op: str, arr: np.ndarray) -> None:
    for a, b in ((arr, 2.0), (0.5, arr)):
        fast = binary(op, a, b)
        general = arithmetic(op, a, b)
        assert class_of(fast) == class_of(general) == class_of(arr)
        np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("arr", [SINGLE, DOUBLE])
def test_scalar_mtimes_and_mrdivide_are_elementwise(arr: np.ndarray) -> None:
    np.testing.assert_array_equal(binary("*", 0.25, arr), arithmetic(".*", 0.25, arr))
    np.testing.assert_array_equal(binary("*", arr, 0.25), arithmetic(".*", arr, 0.25))
    np.testing.assert_array_equal(binary("/", arr, 10.0), arithmetic("./", arr, 10.0))
    assert binary("/", arr, 10.0).dtype == arr.dtype


def test_power_non_integer_exponent_of_negative_base_stays_complex() -> None:
    out = binary(".^", SINGLE, 0.5)
    assert out.dtype == np.complex64
    assert binary(".^", DOUBLE, 3.0)[0, 0] == -3.375


def test_single_with_huge_double_scalar_overflows_to_inf() -> None:
    out = binary("+", SINGLE, 1e300)
    assert out.dtype == np.float32 and np.all(np.isinf(out))


def test_max_min_vector_fast_path_and_nan_rules() -> None:
    assert _reduce(np.array([[1.0, 5.0, 3.0]]), "max", True, (), True, False, 1) == 5.0
    assert _reduce(np.array([[1.0], [-5.0]]), "min", False, (), True, False, 1) == -5.0
    assert _reduce(np.array([[1.0, math.nan, 3.0]]), "max", True, (), True, False, 1) == 3.0
    assert math.isnan(_reduce(np.array([[math.nan, math.nan]]), "min", False, (), True, False, 1))
    single = _reduce(SINGLE, "max", True, (), True, False, 1)
    assert single.dtype == np.float32 and single.shape == (1, 1)


def test_small_vector_norm() -> None:
    assert norm(np.array([[3.0, 4.0]])) == 5.0
    assert norm(np.array([[0.0], [0.0]])) == 0.0
    assert math.isnan(norm(np.array([[math.inf, math.nan]])))
    assert math.isinf(norm(np.array([[math.inf, 1.0]])))
    assert norm(np.array([[1e200, 1e200]])) == pytest.approx(math.sqrt(2) * 1e200)
    assert norm(SINGLE).dtype == np.float32
