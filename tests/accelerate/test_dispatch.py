"""Device routing: every device result must equal the CPU path (value and
class); device paths must not fall back; fallbacks are counted."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from matfuse.accelerate.router import placement, route
from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate_api import fallback_counts
from matfuse.errors import MatlabError
from matfuse.runtime import hints, indexing, ops
from matfuse.runtime.values import class_of, element_class, to_array

OPERANDS = {
    "double": np.array([[1.5, -2.0, 3.0], [0.0, 4.0, -0.5]]),
    "scalar": 2.0,
    "negscalar": -3.0,
    "single": np.array([[1.0, 2.5, -3.0]], dtype=np.float32),
    "logical": np.array([[True, False, True]]),
    "int16": np.array([[100, -200, 300]], dtype=np.int16),
    "complex": np.array([[1 + 2j, -1j, 3.0]]),
    "column": np.array([[1.0], [2.0]]),
}
SYMBOLS = ["+", "-", ".*", "./", ".\\", ".^", "==", "~=", "<", "<=", ">", ">=", "&", "|"]


def _same(got, want):
    assert isinstance(got, GpuArray), type(got)
    host = got.gather()
    assert element_class(got) == class_of(want), (element_class(got), class_of(want))
    np.testing.assert_allclose(to_array(host), to_array(want), rtol=1e-6, equal_nan=True)
    assert to_array(host).shape == to_array(want).shape


def _host_or_error(fn):
    try:
        return fn(), None
    except MatlabError as err:
        return None, err.identifier


@pytest.mark.parametrize("op", SYMBOLS)
@pytest.mark.parametrize("left", list(OPERANDS))
@pytest.mark.parametrize("right", ["double", "scalar", "single", "logical", "complex", "column",
                                   "int16"])
@pytest.mark.parametrize("device_side", ["left", "right", "both"])
def test_binary_matches_cpu(device, op, left, right, device_side):
    a, b = OPERANDS[left], OPERANDS[right]
    want, error = _host_or_error(lambda: ops.binary(op, a, b))
    da = upload_value(a, device) if device_side in ("left", "both") else a
    db = upload_value(b, device) if device_side in ("right", "both") else b
    if error is not None:
        with pytest.raises(MatlabError) as info:
            route.device_binary(op, da, db)
        assert info.value.identifier == error
        return
    _same(route.device_binary(op, da, db), want)


def test_float_arithmetic_stays_on_device(inproc):
    g = upload_value(OPERANDS["double"], inproc)
    route.device_binary("+", g, 1.0)
    route.device_binary(".*", g, OPERANDS["column"])
    route.device_binary("*", g, upload_value(np.ones((3, 2)), inproc))
    route.device_unary("-", g)
    route.device_unary("'", g)
    assert fallback_counts() == {}


def test_integer_arithmetic_on_device_and_mixed_integers_fall_back(inproc):
    g = upload_value(OPERANDS["int16"], inproc)
    r = route.device_binary("+", g, 1.0)
    assert element_class(r) == "int16"
    assert fallback_counts() == {}
    with pytest.raises(MatlabError):
        route.device_binary("+", g, upload_value(np.ones((1, 3), np.int8), inproc))
    assert fallback_counts() == {"binary:plus": 1}


@pytest.mark.parametrize("op", ["sqrt", "log", "log2", "log10", "log1p", "asin", "acos",
                                "acosh", "atanh", "exp", "abs", "round", "fix", "sign",
                                "isnan", "uminus", "not", "real", "imag", "conj"])
@pytest.mark.parametrize("kind", ["double", "negscalar", "single", "complex", "logical"])
def test_unary_matches_cpu(device, op, kind):
    from matfuse.runtime.registry import load_all, lookup
    from matfuse.runtime.dispatcher import invoke

    load_all()
    x = OPERANDS[kind]
    if op in ("uminus", "not"):
        symbol = {"uminus": "-", "not": "~"}[op]
        want, error = _host_or_error(lambda: ops.unary(symbol, x))
    else:
        b = lookup(op)
        assert b is not None, f"builtin {op} is missing"
        want, error = _host_or_error(lambda: invoke(b, [x], 1, None)[0])
    g = upload_value(x, device)
    if error is not None:
        with pytest.raises(MatlabError):
            route.device_unary(op, g)
        return
    _same(route.device_unary(op, g), want)


def test_sqrt_of_negative_is_complex_on_device(device):
    z = route.device_unary("sqrt", upload_value(-4.0, device))
    assert z.is_complex()
    np.testing.assert_allclose(to_array(z.gather()), [[2j]])
    if device.name == "inprocess":
        assert fallback_counts() == {}


def test_transpose_matches_cpu(device):
    x = OPERANDS["complex"]
    _same(route.device_unary("'", upload_value(x, device)), ops.ctranspose(x))
    _same(route.device_unary(".'", upload_value(x, device)), ops.transpose(x))


INDEX_CASES = [
    [5.0], [indexing.COLON], [np.array([[1.0, 3.0]]), indexing.COLON],
    [2.0, 3.0], [np.array([[True, False, True, False, True, False]])],
    [np.array([[6.0, 1.0, 1.0]])], [1.0, np.zeros((1, 0))],
]


@pytest.mark.parametrize("idx", INDEX_CASES, ids=range(len(INDEX_CASES)))
def test_index_matches_cpu(device, idx):
    x = np.arange(1.0, 13.0).reshape(3, 4, order="F")
    got = route.device_index(upload_value(x, device), list(idx))
    _same(got, indexing.paren_get(x, list(idx)))
    assert fallback_counts() == {}


def test_index_out_of_range_is_matlab_error(device):
    g = upload_value(np.ones((1, 3)), device)
    with pytest.raises(MatlabError) as info:
        route.device_index(g, [5.0])
    want, error = _host_or_error(lambda: indexing.paren_get(np.ones((1, 3)), [5.0]))
    assert info.value.identifier == error


def test_device_subscript_on_device_array(device):
    x = np.arange(1.0, 7.0).reshape(1, 6)
    idx = upload_value(np.array([[3.0, 1.0]]), device)
    _same(route.device_index(upload_value(x, device), [idx]), np.array([[3.0, 1.0]]))


ASSIGN_CASES = [
    ([2.0, 2.0], 50.0), ([indexing.COLON, 1.0], np.array([[7.0], [8.0], [9.0]])),
    ([np.array([[1.0, 5.0]])], np.array([[-1.0, -2.0]])), ([4.0, 5.0], 1.0),
    ([20.0], 3.0), ([1.0, 6.0], 3.0), ([np.array([[1.0, 2.0]])], "delete"),
    ([1.0], np.float32(2.0)), ([1.0], np.array([[1j]])),
]


@pytest.mark.parametrize("idx,rhs", ASSIGN_CASES, ids=range(len(ASSIGN_CASES)))
def test_assign_matches_cpu(device, idx, rhs):
    x = np.arange(1.0, 13.0).reshape(3, 4, order="F")
    if isinstance(rhs, str):
        rhs = getattr(indexing, "DELETE")
    elif isinstance(rhs, np.generic):
        rhs = np.asarray(rhs).reshape(1, 1)
    want, error = _host_or_error(lambda: indexing.paren_set(x.copy(), list(idx), rhs))
    if error is not None:
        with pytest.raises(MatlabError) as info:
            route.device_assign(upload_value(x, device), list(idx), rhs)
        assert info.value.identifier == error
        return
    _same(route.device_assign(upload_value(x, device), list(idx), rhs), want)


def test_in_range_same_class_assign_stays_on_device(inproc):
    g = upload_value(np.zeros((2, 3)), inproc)
    g = route.device_assign(g, [2.0, indexing.COLON], upload_value(np.ones((1, 3)), inproc))
    g = route.device_assign(g, [1.0], 5.0)
    np.testing.assert_array_equal(g.gather(), [[5, 0, 0], [1, 1, 1]])
    assert fallback_counts() == {}


def test_to_device_like(inproc):
    g = upload_value(np.ones((2, 2), np.float32), inproc)
    assert isinstance(placement.to_device_like(np.zeros((2, 2)), g), GpuArray)
    assert isinstance(placement.to_device_like(0.0, "gpuArray"), GpuArray)
    assert placement.to_device_like(1.0, 2.0) == 1.0
    z = placement.to_device_like(np.zeros((1, 2)), upload_value(np.array([[1j]]), inproc))
    assert z.is_complex()


def test_temporaries_are_freed(inproc):
    g = upload_value(np.arange(6.0).reshape(2, 3), inproc)
    for _ in range(5):
        route.device_binary("+", g, np.ones((2, 3)))
        route.device_unary("sqrt", route.device_unary("-", g))
        route.device_index(g, [2.0])
    # The uploaded index is kept for re-use until the top-level command ends.
    hints.command_finished()
    gc.collect()
    assert inproc.live_buffers() == 1


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (1, 6), (5, 1)])
def test_scalar_subscripts_select_the_position_of_general_indexing(shape):
    from matfuse.accelerate.router.index_positions import select

    positions = np.arange(float(np.prod(shape))).reshape(shape, order="F")
    rng = np.random.default_rng(0)
    for _ in range(40):
        n = int(rng.integers(1, len(shape) + 2))
        idx = [float(rng.integers(1, 5)) for _ in range(n)]
        try:
            want = indexing.paren_get(positions, idx)
        except MatlabError as error:
            with pytest.raises(MatlabError, match=str(error)):
                select(shape, idx)
            continue
        selection = select(shape, idx)
        assert selection.size == 1 and sum(a.first for a in selection.axes) == want


def test_scalar_reads_in_a_loop_are_cheap(inproc):
    import time

    g = upload_value(np.zeros((1000, 1000)), inproc)
    start = time.perf_counter()
    for i in range(1, 201):
        route.device_index(g, [float(i), 3.0])
        g = route.device_assign(g, [float(i)], 1.0) if i < 3 else g
    assert time.perf_counter() - start < 2.0


def test_inplace_assign_updates_the_buffer(inproc):
    g = upload_value(np.zeros((2, 3)), inproc)
    same = route.device_assign(g, [2.0, 3.0], 7.0, inplace=True)
    assert same is g
    copy = route.device_assign(g, [1.0], 1.0)
    assert copy is not g
    np.testing.assert_array_equal(g.gather(), [[0, 0, 0], [0, 0, 7]])
    np.testing.assert_array_equal(copy.gather(), [[1, 0, 0], [0, 0, 7]])
    assert fallback_counts() == {}


CONCAT_CASES = [
    [["g", 1.0]], [["g"], ["g"]], [["g", "g"], ["g", "g"]], [["g", np.zeros((0, 0))]],
    [["g", np.ones((2, 1))]], [["g", "g"], ["g"]], [["g", True]], [["g", np.int8(3)]],
    [["g", np.array([[1j], [2.0]])]], [["g", np.ones((3, 1))]],
]


@pytest.mark.parametrize("rows", CONCAT_CASES, ids=range(len(CONCAT_CASES)))
def test_concat_matches_cpu(device, rows):
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    host_rows = [[x if isinstance(v, str) else (np.asarray(v).reshape(1, 1) if isinstance(v, np.generic) else v)
                  for v in row] for row in rows]
    dev_rows = [[upload_value(x, device) if (isinstance(v0, str)) else v
                 for v0, v in zip(row0, row)] for row0, row in zip(rows, host_rows)]
    want, error = _host_or_error(lambda: ops.concat(host_rows))
    if error is not None:
        with pytest.raises(MatlabError) as info:
            route.device_concat(dev_rows)
        assert info.value.identifier == error
        return
    _same(route.device_concat(dev_rows), want)


def test_same_class_concat_stays_on_device(inproc):
    g = upload_value(np.ones((2, 2)), inproc)
    out = route.device_concat([[g, 1.0 * np.ones((2, 1))], [np.zeros((1, 3))]])
    assert out.shape == (3, 3)
    assert fallback_counts() == {}


@pytest.mark.parametrize("value", [np.zeros((100, 50)), np.ones((64, 64), np.float32),
                                   np.full((70, 70), np.nan), np.ones((80, 80), bool),
                                   np.full((90, 50), 3, np.int32), np.zeros((65, 65), np.complex128)])
def test_large_constant_like_arrays_are_filled_on_device(device, value):
    device.reset_telemetry()
    g = placement.to_device_like(value, "gpuArray")
    assert element_class(g) == class_of(value) and g.is_complex() == np.iscomplexobj(value)
    np.testing.assert_array_equal(to_array(g.gather()), value)
    if device.name == "inprocess":
        assert device.telemetry()["uploads"] == 0


def test_device_fill_shapes(inproc):
    g = placement.device_fill((2, 3, 4), 1.0, "single")
    assert g.shape == (2, 3, 4) and element_class(g) == "single"
    np.testing.assert_array_equal(g.gather(), np.ones((2, 3, 4), np.float32))
