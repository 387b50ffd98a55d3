"""Builtins with a device path give the CPU answer (value, class, shape,
errors) and run without a host fallback."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate_api import fallback_counts
from matfuse.errors import MatlabError
from matfuse.runtime.dispatcher import call_builtin
from matfuse.runtime.registry import load_all, lookup
from matfuse.runtime.values import char_array, class_of, element_class, to_array

M = np.arange(1.0, 13.0).reshape(3, 4, order="F")
CUBE = np.arange(1.0, 25.0).reshape(2, 3, 4, order="F")
ROW = np.array([[3.0, -1.0, np.nan, 2.0, 0.0, 2.0]])
S = char_array

# (builtin, args; the first arg goes to the device). ``device`` marks calls
# that must not fall back to the host.
CASES = [
    ("reshape", [M, 2.0, 6.0], True), ("reshape", [M, np.zeros((0, 0)), 2.0], True),
    ("reshape", [M, 5.0, 5.0], True), ("repmat", [M, 2.0, 1.0], True),
    ("repmat", [ROW, np.array([[2.0, 2.0]])], True), ("permute", [CUBE, np.array([[3.0, 1.0, 2.0]])], True),
    ("permute", [CUBE, np.array([[1.0, 1.0, 2.0]])], True), ("squeeze", [CUBE[:, :1, :]], True),
    ("flip", [M], True), ("flip", [M, 2.0], True), ("fliplr", [M], True), ("flipud", [M], True),
    ("circshift", [M, 1.0], True), ("circshift", [M, np.array([[1.0, -1.0]])], True),
    ("rot90", [M], True), ("rot90", [M, 3.0], True),
    ("sort", [ROW], True), ("sort", [ROW, S("descend")], True), ("sort", [M, 2.0], True),
    ("sort", [M, 2.0, S("descend")], True),
    ("find", [ROW], True), ("find", [M > 6], True), ("find", [np.zeros((1, 3))], True),
    ("find", [M.reshape(-1, 1, order="F") > 20], True),
    ("horzcat", [M, M], True), ("vertcat", [M, M], True), ("cat", [M, M], False),
    ("polyval", [np.array([[1.0, 2.0, 3.0]]), M], False),
    ("fft", [ROW[:, [0, 1, 3]]], True), ("fft", [M, 8.0], True), ("fft", [M, np.zeros((0, 0)), 2.0], True),
    ("sum", [M], True), ("sum", [M, 2.0], True), ("mean", [CUBE, 3.0], True),
    ("max", [ROW], True), ("min", [M, np.zeros((0, 0)), 2.0], True), ("cumsum", [M, 2.0], True),
    ("var", [M], True), ("std", [M], True), ("any", [ROW], True), ("all", [M > 0], True),
    ("exp", [M], True), ("sqrt", [-M], True), ("abs", [-M], True), ("single", [M], True),
    ("int32", [M * 1.5], True), ("double", [M.astype(np.float32)], True),
    ("median", [M], False), ("norm", [M], False),
]


@pytest.fixture(autouse=True)
def _builtins():
    load_all()


def _run(name, args, nargout=1):
    b = lookup(name)
    if b is None:
        pytest.skip(f"builtin {name} not available")
    return call_builtin(b, list(args), nargout, None)


def _expected(name, args, nargout=1):
    try:
        return _run(name, args, nargout), None
    except MatlabError as err:
        return None, err.identifier


@pytest.mark.parametrize("name,args,on_device", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_device_builtin_matches_cpu(device, name, args, on_device):
    want, error = _expected(name, args)
    dev_args = [upload_value(args[0], device)] + list(args[1:])
    if name == "cat":
        dev_args = [1.0, upload_value(args[0], device), args[1]]
        want, error = _expected(name, [1.0] + list(args))
    if name == "polyval":
        dev_args = [args[0], upload_value(args[1], device)]
    if error is not None:
        with pytest.raises(MatlabError) as info:
            _run(name, dev_args)
        assert info.value.identifier == error
        return
    got = _run(name, dev_args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, GpuArray), name
        assert element_class(g) == class_of(w)
        host = to_array(g.gather())
        assert host.shape == to_array(w).shape
        np.testing.assert_allclose(host, to_array(w), rtol=1e-6, atol=1e-12, equal_nan=True)
    if on_device and device.name == "inprocess":
        assert fallback_counts() == {}, fallback_counts()


@pytest.mark.parametrize("args", [[ROW], [M, 2.0, S("descend")]])
def test_sort_two_outputs(device, args):
    want = _run("sort", args, 2)
    got = _run("sort", [upload_value(args[0], device)] + args[1:], 2)
    for g, w in zip(got, want):
        np.testing.assert_allclose(to_array(g.gather()), to_array(w), equal_nan=True)
        assert element_class(g) == class_of(w)
