"""Array-math builtins given gpuArray data: which call forms still run on
the host (a counted fallback).

``FORMS`` lists the call forms of the builtins whose device paths are
composed in ``accelerate/router`` (series, structured, quantiles,
distribution_shape, correlation, normalization, bits, interpolation,
histogram_bins, grid_interpolation, factorizations, singular_forms,
rational, gridded_construction, convolution_nd, matrix_exponential,
matrix_roots) and of
their neighbours; ``probe_registry``
walks the registry and calls every one-argument array-math builtin on a
gpuArray. Run as a script to print both surveys::

    PYTHONPATH=src python3 -m tests.accelerate.array_math_forms [inprocess|wgpu]
"""

from __future__ import annotations

import io
import sys
from typing import Any

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.registry import BUILTINS, load_all

SETUP = ("M = reshape(sin(1:30), 5, 6); v = cos(1:10); c = (1:8)' / 3; "
         "I = int32(reshape(mod((1:12) * 37, 101) - 50, 3, 4)); "
         "U = uint8(reshape(mod((1:12) * 11, 256), 3, 4)); X = reshape(cos(1:24), 2, 3, 4); "
         "x = 1:10; y = (1:10) .^ 2; [XX, YY] = meshgrid(1:5, 1:4); Z = XX .^ 2 + YY; "
         "xq = [1.5 2.5 7.25]; N = M; N(2, 3) = NaN; "
         "S = M(:, 1:5) * M(:, 1:5)' + eye(5); T = M(:, 1:5) + 2 * eye(5);")
DEVICE = ["M", "v", "c", "I", "U", "X", "x", "y", "XX", "YY", "Z", "xq", "N", "S", "T"]

# Factorisations of complex matrices (in-process, CUDA: on the device)
COMPLEX_FACTORS = ["[U, S, V] = svd(complex(M, 1)); r = U;", "pinv(complex(M, 1))",
                   "[Q, R] = qr(complex(M, 1)); r = R;", "lu(complex(M, 1))"]

FORMS = [
    "toeplitz(v)", "toeplitz(c, v)", "hankel(c)", "hankel(c, v)", "vander(c)", "kron(M, M(1:2, 1:2))",
    "trapz(y)", "trapz(x, y)", "trapz(M, 2)", "trapz(X, 3)", "cumtrapz(y)", "cumtrapz(x, y)",
    "cumtrapz(M, 2)", "skewness(M)", "skewness(N, 0)", "kurtosis(M)", "kurtosis(v, 0)",
    "iqr(v)", "iqr(M, 2)", "prctile(v, 50)", "prctile(M, [25 50 75])", "quantile(N, 0.3)",
    "quantile(M, [0.25 0.5], 2)", "normalize(M)", "normalize(M, 'range')", "normalize(M, 'center')",
    "normalize(M, 'scale')", "normalize(v, 'norm')", "normalize(M, 2)", "corr(M)",
    "corr(M(:, 1), M(:, 2))", "cov(M)", "cov(v, v .^ 2)", "corrcoef(M)", "corrcoef(v, v .^ 2)",
    "movmean(v, 3)", "movsum(v, 3)", "histcounts(v)", "histcounts(v, 5)",
    "histcounts(v, [-1 0 0.5 1])", "cummin(v)", "cummax(M, 2)", "diff(v)", "diff(M, 2)",
    "diff(M, 1, 2)", "diff(I)", "filter([1 1] / 2, 1, v)", "filter(1, [1 -0.5], M)",
    "conv(v, [1 2 1])", "conv(v, [1 2 1], 'same')", "conv2(M, [1 1; 1 1], 'valid')",
    "circshift(M, [1 2])", "flip(M, 2)", "rot90(M, 3)", "bitand(U, uint8(7))", "bitor(I, int32(7))",
    "bitxor(U, 12)", "bitshift(U, 2)", "bitshift(I, -1)", "bitget(U, 3)", "bitset(U, 3, 0)",
    "mod(I, int32(7))", "rem(U, uint8(7))", "mod(M, 0.3)", "idivide(I, int32(4), 'round')",
    "interp1(x, y, xq)", "interp1(x, y, xq, 'nearest')", "interp1(x, y, xq, 'previous')",
    "interp1(x, y, xq, 'next')", "interp1(x, y, xq, 'linear', 'extrap')", "interp1(y, xq)",
    "interp2(XX, YY, Z, 2.5, 3.5)", "interp2(Z, [1.5 2.5], [2.5 3], 'nearest')",
    "interpn(Z, [1.5 2.5], [2.5 3])", "F = griddedInterpolant(gather(Z)); r = F(xq, xq - 1);",
    "interp1(x, y, xq, 'pchip')", "interp1(x, y, xq, 'spline')", "interp2(Z, xq, xq, 'cubic')",
    "round(M * 100, 2)", "round(M * 1e5, 3, 'significant')", "movmax(M, 3)", "movstd(v, 4)",
    "movmedian(v, 3)", "unique(round(M * 3))", "ismember(round(M * 3), [0 1 2])", "diag(M)",
    "cat(3, M, M)", "cumsum(I, 2)", "find(M > 0, 2)",
    "svd(M)", "[U, S, V] = svd(M); r = U;", "[U, S, V] = svd(M', 'econ'); r = S;", "norm(M)",
    "cond(M)", "rank(M)", "pinv(M)", "null(M)", "orth(M)", "qr(M)", "[Q, R] = qr(M', 0); r = Q;",
    "[Q, R, P] = qr(M); r = P;", "lu(M)", "[L, U] = lu(M); r = L;",
    "[L, U, P] = lu(M', 'vector'); r = P;", "rat(M)", "[N, D] = rat(M); r = D;", "rats(M)",
    "F = griddedInterpolant(Z); r = F(xq, xq - 0.5);", "F = griddedInterpolant(x, y); r = F.Values;",
    "svd(complex(M, M .^ 2))", "norm(complex(M, 1))", *COMPLEX_FACTORS,
    "convn(X, X(:, :, 1:2))", "convn(X, ones(2, 2, 2), 'same')", "convn(X, X, 'valid')",
    "normalize(M, 'scale', 'iqr')", "normalize(M, 'medianiqr')",
    "normalize(M, 'center', 'median', 'scale', 'mad')", "[N2, C, S2] = normalize(M); r = S2;",
    "bitshift(double(I), -1, 'int8')", "bitshift(double(I), 2, 'int16')",
    "bitset(double(I), 8, 'int8')", "bitset(double(I), 2, 0, 'int8')",
    "expm(S)", "expm(T)", "expm(single(T))", "sqrtm(S)", "sqrtm(T)", "logm(S)", "logm(T)",
    "sqrtm(-S)", "logm(-S)", "expm(complex(T, 1))", "sqrtm(complex(T, 1))",
    "logm(complex(S, T - T'))", "[X2, R2] = sqrtm(T); r = R2;", "[L2, e2] = logm(S); r = e2;",
]

# Forms still left to the host, each with the reason (a ratchet: the test
# fails when one of them starts to run on the device, so the list shrinks).
KNOWN_HOST: dict[str, str] = {
    "round(M * 1e5, 3, 'significant')": "each element's decimal exponent must equal the host's "
                                        "floor(log10(|x|)), whose rounding at powers of ten a "
                                        "device log10 does not reproduce",
    "movmedian(v, 3)": "a median per window (a sort of each window) has no device path yet",
}
# The same, for one provider only (by its name): forms it leaves to the host
# where the others compute them.
KNOWN_HOST_ON: dict[str, dict[str, str]] = {
    "wgpu": {f: "complex factors: the WGSL kernels are real (complex singular values "
                "take the real form [X -Y; Y X]; its vectors do not give the complex "
                "ones where singular values repeat)" for f in COMPLEX_FACTORS},
    "cuda": {"lu(complex(M, 1))": "cuSOLVER pivots complex columns otherwise than LAPACK "
                                  "(|re| + |im|), so its factors would differ from MATLAB's"},
}

ARRAY_MATH = ("elementwise", "statistics", "reductions", "special matrices", "signal",
              "interpolation", "linear_algebra", "polynomials", "number theory", "sort",
              "shape", "matrix predicates", "integration", "sets", "search", "indexing",
              "construction", "types")


def _session(on_device: bool) -> Session:
    s = Session(stdout=io.StringIO())
    s.eval(SETUP + ("".join(f"{n} = gpuArray({n});" for n in DEVICE) if on_device else ""))
    return s


def host_fallbacks(form: str) -> dict[str, int]:
    """Fallbacks counted while ``r = form;`` (or the statements ``form``,
    which set ``r``) runs on gpuArray data."""
    load_all()
    s = _session(True)
    reset_fallback_counts()
    s.eval(form if "r = " in form else f"r = {form};")
    return fallback_counts()


def probe_registry() -> dict[str, str]:
    """``name(G)`` for every one-argument array-math builtin, G a 5x6
    gpuArray in (0.1, 1.1): builtin name -> 'device', 'host: <what>' or
    'error' (the form is not valid for that builtin)."""
    load_all()
    names = sorted(n for n, b in BUILTINS.items()
                   if n == b.name and b.category in ARRAY_MATH and b.min_args <= 1
                   and not n.startswith("_"))
    verdicts: dict[str, str] = {}
    for name in names:
        s = Session(stdout=io.StringIO())
        s.eval("G = gpuArray(reshape(abs(sin(1:30)) + 0.1, 5, 6));")
        reset_fallback_counts()
        try:
            s.eval(f"r = {name}(G);")
        except Exception as why:     # noqa: BLE001 - a MATLAB error: the form does not apply
            verdicts[name] = "error" if getattr(why, "identifier", None) is not None else repr(why)
            continue
        counts = fallback_counts()
        verdicts[name] = "device" if not counts else "host: " + ",".join(sorted(counts))
    return verdicts


def main(argv: list[str]) -> None:
    from matfuse.accelerate.facade import _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate_api import override_provider

    name = argv[0] if argv else "inprocess"
    provider = _load_backend(name, AccelerateInitOptions(provider=name), True)
    with override_provider(provider):
        for form in FORMS:
            counts = host_fallbacks(form)
            print(f"{'host  ' if counts else 'device'} {form} {counts or ''}")
        print()
        for builtin, verdict in probe_registry().items():
            if verdict.startswith("host"):
                print(f"{BUILTINS[builtin].category:18} {builtin:20} {verdict}")


if __name__ == "__main__":
    main(sys.argv[1:])
