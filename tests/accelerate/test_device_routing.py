"""Builtins and operators on gpuArrays reach the provider's conv, complex
and small-integer hooks: the answer (value, class, isreal, shape) is the
CPU one, the hook ran (provider telemetry) and nothing was counted as a
host fallback. Forms the device does not take still fall back, counted.

Run on lavapipe with ``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.errors import MatlabError
from matfuse.runtime import ops
from matfuse.runtime.dispatcher import call_builtin
from matfuse.runtime.registry import load_all, lookup
from matfuse.runtime.values import char_array, class_of, element_class, to_array

RNG = np.random.default_rng(7)
A = RNG.standard_normal((5, 6))
K = RNG.standard_normal((3, 2))
BIG = RNG.standard_normal((7, 8))
U = RNG.standard_normal((1, 4))
V = RNG.standard_normal((3, 1))
Z = RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))
W = RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))
ZROW = RNG.standard_normal((1, 4)) + 1j * RNG.standard_normal((1, 4))
RE = RNG.standard_normal((3, 4))
S = char_array


@pytest.fixture(autouse=True)
def _builtins():
    load_all()


def _call(name: str, *args: Any) -> Any:
    return call_builtin(lookup(name), list(args), 1, None)[0]


def _op_names(p: Any) -> set[str]:
    tel = p.telemetry()
    return set(tel.get("ops") or tel.get("per_op") or {})


def _dev(v: Any, p: Any) -> Any:
    return upload_value(v, p) if isinstance(v, np.ndarray) else v


def _check_same(got: Any, want: Any, p: Any, rtol: float = 1e-9) -> None:
    """Device result ``got`` equals the CPU result ``want``: class, isreal,
    shape and values (single compared at single precision)."""
    assert isinstance(got, GpuArray)
    assert got.provider is p, "result left the device (shadow provider)"
    host = got.gather()
    assert element_class(got) == class_of(want)
    assert class_of(host) == class_of(want)
    assert np.iscomplexobj(to_array(host)) == np.iscomplexobj(to_array(want)), "isreal differs"
    h, w = to_array(host), to_array(want)
    assert h.shape == w.shape
    if w.dtype in (np.float32, np.complex64):
        rtol = max(rtol, 2e-5)
    if w.dtype.kind in "iub":
        np.testing.assert_array_equal(h, w)
    else:
        np.testing.assert_allclose(h, w, rtol=rtol, atol=rtol, equal_nan=True)


def _run_on_device(p: Any, fn: Callable[..., Any], args: list[Any], on: tuple[int, ...],
                   hook: str | None) -> None:
    """``fn(*args)`` on the host and with ``args[i]`` (i in ``on``) uploaded."""
    want = fn(*args)
    dev_args = [_dev(a, p) if i in on else a for i, a in enumerate(args)]
    reset_fallback_counts()
    p.reset_telemetry()
    got = fn(*dev_args)
    _check_same(got, want, p)
    assert fallback_counts() == {}, fallback_counts()
    if hook is not None:
        # op names: wgpu "conv2d"/"complex_plus", in-process "plus"; CUDA counts
        # hook methods ("elem_binary"), so its check is the absent fallback
        names = _op_names(p)
        assert p.name == "cuda" or any(n == hook or n.endswith("_" + hook) for n in names), \
            (hook, names)


# ---------------------------------------------------------------- conv2, conv
CONV2_CASES = [
    ([A, K], (0,)), ([A, K, S("same")], (0,)), ([A, K, S("valid")], (0, 1)),
    ([K, A, S("valid")], (0,)), ([BIG, A, S("same")], (1,)), ([A, K[:1, :1]], (0,)),
    ([A, 2.0], (0,)), ([A.astype(np.float32), K.astype(np.float32)], (0, 1)),
    ([A.astype(np.float32), K.astype(np.float32), S("same")], (0,)),
    ([A.astype(np.float32), K.astype(np.float32), S("valid")], (0, 1)),
    ([U, V, BIG], (2,)), ([U, V, BIG, S("same")], (0, 2)), ([V, U, BIG, S("valid")], (2,)),
]


@pytest.mark.parametrize("args,on", CONV2_CASES,
                         ids=[f"conv2-{i}" for i in range(len(CONV2_CASES))])
def test_conv2_runs_conv2d(device, args, on):
    _run_on_device(device, lambda *a: _call("conv2", *a), args, on, "conv2d")


COL = RNG.standard_normal((6, 1))
ROW = RNG.standard_normal((1, 3))
CONV_CASES = [
    [COL, ROW], [ROW, COL], [COL, COL[:2]], [ROW[:, :2], COL], [COL, ROW, S("same")],
    [ROW, COL, S("same")], [COL, ROW, S("valid")], [ROW, COL, S("valid")],
    [COL.astype(np.float32), ROW.astype(np.float32)], [COL, 3.0],
]


@pytest.mark.parametrize("args", CONV_CASES, ids=[f"conv-{i}" for i in range(len(CONV_CASES))])
def test_conv_runs_conv1d(device, args):
    _run_on_device(device, lambda *a: _call("conv", *a), args, (0,), "conv1d")


FALLBACK_CONV = [
    ("conv2", [A.astype(np.float32), K]), ("conv2", [A, np.zeros((0, 3))]),
    ("conv2", [A.astype(np.int16), K]), ("conv2", [Z, K]), ("conv", [A, COL]),
]


@pytest.mark.parametrize("name,args", FALLBACK_CONV,
                         ids=[f"fb-{c[0]}-{i}" for i, c in enumerate(FALLBACK_CONV)])
def test_other_conv_forms_fall_back_counted(device, name, args):
    try:
        want, error = _call(name, *args), None
    except MatlabError as err:
        want, error = None, err.identifier
    reset_fallback_counts()
    dev_args = [upload_value(args[0], device)] + args[1:]
    if error is not None:
        with pytest.raises(MatlabError) as info:
            _call(name, *dev_args)
        assert info.value.identifier == error
    else:
        got = _call(name, *dev_args)
        np.testing.assert_allclose(to_array(got.gather()), to_array(want), rtol=1e-6)
        assert element_class(got) == class_of(want)
    assert fallback_counts().get(name) == 1, fallback_counts()


def test_conv2_bad_shape_word_is_the_host_error(device):
    with pytest.raises(MatlabError) as info:
        _call("conv2", upload_value(A, device), K, S("middle"))
    assert info.value.identifier == "MATLAB:conv2:unknownShapeParameter"


# ---------------------------------------------------------------- complex
COMPLEX_BUILTINS = [
    ("complex", [RE, RE[::-1]], (0,), "complex"), ("complex", [RE, 2.0], (0,), "complex"),
    ("complex", [RE, RE[:1]], (0, 1), "complex"),
    ("complex", [RE.astype(np.float32), RE], (0, 1), "complex"),
    ("complex", [RE], (0,), None), ("complex", [Z], (0,), None),
    ("real", [Z], (0,), "real"), ("imag", [Z], (0,), "imag"), ("conj", [Z], (0,), "conj"),
    ("abs", [Z], (0,), "abs"), ("angle", [Z], (0,), "angle"), ("angle", [RE], (0,), None),
    ("abs", [Z.astype(np.complex64)], (0,), "abs"),
    ("sum", [Z], (0,), "sum"), ("sum", [Z, 2.0], (0,), "sum"), ("sum", [Z, S("all")], (0,), "sum"),
    ("mean", [Z], (0,), "mean"), ("mean", [Z, 2.0], (0,), "mean"),
    ("mean", [Z.astype(np.complex64)], (0,), "mean"),
]


@pytest.mark.parametrize("name,args,on,hook", COMPLEX_BUILTINS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(COMPLEX_BUILTINS)])
def test_complex_builtins_on_device(device, name, args, on, hook):
    _run_on_device(device, lambda *a: _call(name, *a), args, on, hook)


COMPLEX_OPERATORS = [
    ("+", Z, W), ("-", Z, W), (".*", Z, W), ("./", Z, W), ("+", Z, RE), (".*", RE, Z),
    ("./", Z, 2.0), ("-", 1.5 + 2j, Z), (".*", Z, ZROW), ("./", ZROW, Z),
    ("+", Z.astype(np.complex64), W.astype(np.complex64)),
    (".*", Z.astype(np.complex64), 0.5 - 1j),
]
_OP_NAMES = {"+": "plus", "-": "minus", ".*": "times", "./": "rdivide"}


@pytest.mark.parametrize("sym,a,b", COMPLEX_OPERATORS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(COMPLEX_OPERATORS)])
def test_complex_operators_on_device(device, sym, a, b):
    on = tuple(i for i, v in enumerate((a, b)) if isinstance(v, np.ndarray) and v.dtype.kind == "c")
    _run_on_device(device, lambda x, y: ops.binary(sym, x, y), [a, b], on, _OP_NAMES[sym])


@pytest.mark.parametrize("name,args", [("exp", [Z]), ("prod", [Z]), ("cumsum", [Z])])
def test_other_complex_ops_run_on_device(device, name, args):
    """Native on CUDA and in-process; composed on wgpu (router/complex_forms.py)."""
    want = _call(name, *args)
    reset_fallback_counts()
    got = _call(name, upload_value(args[0], device), *args[1:])
    _check_same(got, want, device)
    assert fallback_counts() == {}, fallback_counts()


# ---------------------------------------------------------------- small integers
INT_CLASSES = ("int8", "uint8", "int16", "uint16")
INT_DATA = np.array([[-200.0, -129.0, -7.0, -2.5, 0.0, 2.5, 7.0, 100.0, 300.0, 70000.0]])


def _ints(cls: str) -> np.ndarray:
    from matfuse.runtime._classrules import convert

    return convert(INT_DATA, cls)


INT_BINARY = [
    ("+", "d3.7"), ("-", "d3.7"), (".*", "d2"), ("./", "d2"), (".\\", "d3"), (".^", "d2"),
    ("+", "same"), ("-", "same"), (".*", "same"), ("./", "same"), ("+", "darray"),
    (".*", "single"), ("+", "logical"), ("-", "rdouble"),
    ("==", "d7"), ("~=", "same"), ("<", "darray"), (">=", "int16"), ("<=", "single"),
]


def _other(kind: str, x: np.ndarray) -> Any:
    if kind.startswith("d") and kind[1:].replace(".", "").isdigit():
        return float(kind[1:])
    return {"same": x[:, ::-1].copy(), "darray": INT_DATA[:, ::-1] / 3.0,
            "single": (INT_DATA[:, ::-1] / 3.0).astype(np.float32),
            "logical": INT_DATA > 0, "rdouble": 5.0,
            "int16": _ints("int16")[:, ::-1].copy()}[kind]


@pytest.mark.parametrize("cls", INT_CLASSES)
@pytest.mark.parametrize("sym,kind", INT_BINARY, ids=[f"{s}{k}" for s, k in INT_BINARY])
def test_small_int_operators_on_device(device, cls, sym, kind):
    x = _ints(cls)
    other = _other(kind, x)
    args = [other, x] if kind == "rdouble" else [x, other]
    on = (1,) if kind == "rdouble" else (0,)
    if kind == "same":
        on = (0, 1)
    _run_on_device(device, lambda a, b: ops.binary(sym, a, b), args, on, None)


@pytest.mark.parametrize("cls", INT_CLASSES)
@pytest.mark.parametrize("name", ["uminus", "abs", "sign", "round", "isnan", "isfinite"])
def test_small_int_unary_on_device(device, cls, name):
    fn = (lambda a: ops.unary("-", a)) if name == "uminus" else (lambda a: _call(name, a))
    _run_on_device(device, fn, [_ints(cls)], (0,), None)


CASTS = [("double", "int8", "d"), ("double", "uint8", "d"), ("double", "int16", "d"),
         ("double", "uint16", "d"), ("int8", "double", "i"), ("uint16", "single", "i"),
         ("int8", "int16", "i"), ("int16", "uint8", "i"), ("uint16", "int8", "i"),
         ("single", "int16", "d")]


@pytest.mark.parametrize("src,dst,_k", CASTS, ids=[f"{s}-{d}" for s, d, _ in CASTS])
def test_small_int_casts_on_device(device, src, dst, _k):
    data = np.concatenate([INT_DATA, [[np.nan, np.inf, -np.inf, 0.5, -0.5]]], axis=1)
    if src in ("double", "single"):
        x = data.astype(np.float32 if src == "single" else np.float64)
    else:
        x = _ints(src)
    _run_on_device(device, lambda a: _call(dst, a), [x], (0,), "cast")


def test_int_results_stay_on_the_device_provider(device):
    g = upload_value(_ints("int8"), device)
    assert g.provider is device and fallback_counts() == {}
    r = ops.binary("+", ops.binary(".*", g, 2.0), g)
    assert r.provider is device and element_class(r) == "int8"
    assert to_array(r.gather()).tolist() == [[-128, -128, -21, -9, 0, 9, 21, 127, 127, 127]]
    assert fallback_counts() == {}


def test_mixed_integer_classes_raise_the_host_error(device):
    g = upload_value(_ints("int8"), device)
    with pytest.raises(MatlabError) as info:
        ops.binary("+", g, _ints("int16"))
    assert info.value.identifier == "MATLAB:mixedClasses"


INT_LOGIC = [("&", "same"), ("|", "logical"), ("&", "d7")]


@pytest.mark.parametrize("cls", ("int8", "uint16"))
@pytest.mark.parametrize("sym,kind", INT_LOGIC, ids=[f"{s}{k}" for s, k in INT_LOGIC])
def test_small_int_logical_operators(device, cls, sym, kind):
    x = _ints(cls)
    other = _other(kind, x)
    if kind == "d7":  # a double operand may hold NaN: MATLAB's check runs on the host
        reset_fallback_counts()
        got = ops.binary(sym, upload_value(x, device), other)
        assert fallback_counts() == {f"binary:{'and' if sym == '&' else 'or'}": 1}
        _check_same(got, ops.binary(sym, x, other), device)
        return
    _run_on_device(device, lambda a, b: ops.binary(sym, a, b), [x, other], (0,), None)


@pytest.mark.parametrize("form", ["logical", "not", "xor", "cast", "like"])
def test_small_int_logical_builtins_and_cast(device, form):
    x = _ints("int16")
    fns = {
        "logical": (lambda a: _call("logical", a)),
        "not": (lambda a: ops.unary("~", a)),
        "xor": (lambda a: _call("xor", a, INT_DATA > 0)),
        "cast": (lambda a: _call("cast", a, S("uint8"))),
        "like": (lambda a: _call("cast", a, S("like"), np.float32(1.0).reshape(1, 1))),
    }
    _run_on_device(device, fns[form], [x], (0,), None)


def test_logical_of_double_keeps_the_nan_check_on_the_host(device):
    g = upload_value(np.array([[1.0, np.nan]]), device)
    with pytest.raises(MatlabError) as info:
        _call("logical", g)
    assert info.value.identifier == "MATLAB:nologicalnan"
