"""The routing of ``test_device_routing`` against the CUDA provider's own
hook semantics, on the NumPy-backed fake CuPy (no GPU needed): integer
negation/abs saturate, conv/complex forms give the CPU answer."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.runtime import ops
from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate import test_device_routing as routing

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("cls", routing.INT_CLASSES)
@pytest.mark.parametrize("name", ["uminus", "abs", "sign", "round"])
def test_small_int_unary(cuda_device, cls, name):
    fn = (lambda a: ops.unary("-", a)) if name == "uminus" else (lambda a: routing._call(name, a))
    routing._run_on_device(cuda_device, fn, [routing._ints(cls)], (0,), None)


@pytest.mark.parametrize("sym,kind",
                         [("+", "d3.7"), ("./", "d2"), (".*", "single"), ("<", "int16")])
def test_small_int_binary(cuda_device, sym, kind):
    x = routing._ints("int8")
    routing._run_on_device(cuda_device, lambda a, b: ops.binary(sym, a, b),
                           [x, routing._other(kind, x)], (0,), None)


@pytest.mark.parametrize("args", [routing.CONV2_CASES[1][0], routing.CONV2_CASES[11][0]])
def test_conv2(cuda_device, args):
    routing._run_on_device(cuda_device, lambda *a: routing._call("conv2", *a), args, (0,), "conv2d")


@pytest.mark.parametrize("args", routing.CONV_CASES[:7])
def test_conv(cuda_device, args):
    routing._run_on_device(cuda_device, lambda *a: routing._call("conv", *a), args, (0,), "conv1d")


def test_complex_parts_and_sum(cuda_device):
    for name in ("real", "abs", "angle", "conj", "sum"):
        routing._run_on_device(cuda_device, lambda a: routing._call(name, a), [routing.Z], (0,),
                               None)
    got = routing._call("complex", routing._dev(routing.RE, cuda_device), np.inf)
    assert np.isinf(got.gather().imag).all() and not np.isnan(got.gather().real).any()
