"""A MATLAB program using conv2/conv, complex arithmetic and 8/16-bit
integers gives the CPU's variables (class, isreal, size, values) on
gpuArrays, with no counted host fallback: the interpreter's operator and
builtin paths, end to end."""

from __future__ import annotations

import io

import numpy as np

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.registry import load_all
from matfuse.runtime.values import DeviceValue, class_of, to_array

BODY = """
B = [1 -2; 3 0.5; -1 2] / 3;
C = conv2(A, B); Cs = conv2(single(A), single(B), 'same'); Cv = conv2(A, B, 'valid');
v = conv(A(:, 2), B(:, 1)); vs = conv(A(:, 2), B(:, 1), 'same');
z = complex(A, A(:, end:-1:1) - 1); w = z .* (2 - 1i) - z ./ (A + 1);
m = abs(w) + angle(z) - real(z) .* imag(conj(w));
s = sum(w); mz = mean(z, 2);
k = int8(A * 40 - 60); u = uint16(A * 900);
r = k + 3.7; q = k ./ 2; t = -k; a = abs(k); e = k .* single(2.5);
c = (k > 5) & (u < 400); d = double(u) / 3; n = uint8(u); h = int16(k) - 1000;
"""
NAMES = "C Cs Cv v vs z w m s mz k u r q t a e c d n h".split()


def _run(prefix: str) -> dict:
    session = Session(stdout=io.StringIO())
    session.eval(prefix + BODY)
    return {name: session.interp.base[name] for name in NAMES}


def test_script_matches_the_cpu(device):
    load_all()
    want = _run("A = reshape(1:30, 5, 6) / 7;")
    reset_fallback_counts()
    got = _run("A = gpuArray(reshape(1:30, 5, 6) / 7);")
    assert fallback_counts() == {}, fallback_counts()
    for name in NAMES:
        g = got[name]
        assert isinstance(g, DeviceValue), name
        host, ref = to_array(g.gather()), to_array(want[name])
        assert class_of(host) == class_of(ref), name
        assert np.iscomplexobj(host) == np.iscomplexobj(ref), name
        assert host.shape == ref.shape, name
        tol = 2e-6 if ref.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(host, ref, rtol=tol, atol=tol, err_msg=name)
