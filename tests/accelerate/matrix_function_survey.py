"""How often ``expm``, ``sqrtm`` and ``logm`` of a gpuArray take the device
path, and how far the device results are from the host's, on seeded random
matrices (``n`` from 2 to 8) of these kinds: real Gaussian (``randn(n)``),
symmetric positive definite, real shifted (``randn(n) + (sqrt(n)+1)*I``),
complex Gaussian, negative definite (``-B'*B``), singular (upper
triangular with one zero on the diagonal, rotated by a permutation so that
the Schur form holds the exact zero) and complex with a negative real
eigenvalue (``Q*diag(d)*Q'`` with one ``d`` negative, Q unitary). Run as a
script::

    PYTHONPATH=src python3 -m tests.accelerate.matrix_function_survey [inprocess|wgpu] [count]

Each line: the kind and function, how many matrices ran on the device, the
largest relative 1-norm error of those against the host divided by ``n * u
* kappa`` (``kappa`` as in tests/accelerate/router/test_matrix_roots_on_device.py;
for singular matrices, whose ``kappa`` is infinite, the largest relative
error itself), how many results differ in their NaN/Inf positions, and how
many warnings differ.
"""

from __future__ import annotations

import io
import sys

import numpy as np

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts

KINDS = ("gauss", "spd", "shifted", "complex", "negdef", "singular", "complex-cut")
FUNCTIONS = ("expm", "sqrtm", "logm")
UNIT_ROUNDOFF = 2.0 ** -53


def random_matrix(kind: str, rng: np.random.Generator) -> np.ndarray:
    n = int(rng.integers(2, 9))
    a = rng.standard_normal((n, n))
    if kind == "spd":
        return a @ a.T + 0.01 * np.eye(n)
    if kind == "shifted":
        return a + (np.sqrt(n) + 1) * np.eye(n)
    if kind == "complex":
        return a + 1j * rng.standard_normal((n, n))
    if kind == "negdef":
        return -(a.T @ a) - 0.01 * np.eye(n)
    if kind == "singular":
        t = np.triu(a)
        t[int(rng.integers(0, n)), int(rng.integers(0, n))] = 0.0
        k = int(rng.integers(0, n))
        t[k, k] = 0.0
        order = rng.permutation(n)
        return t[np.ix_(order, order)]
    if kind == "complex-cut":
        q, _ = np.linalg.qr(a + 1j * rng.standard_normal((n, n)))
        d = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        d[0] = -abs(d[0].real) - 0.5
        return q @ np.diag(d) @ q.conj().T
    return a


def survey(count: int, seed: int = 7) -> list[str]:
    rng = np.random.default_rng(seed)
    lines = []
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    for kind in KINDS:
        results: dict[str, list[tuple[bool, float, bool, bool]]] = {f: [] for f in FUNCTIONS}
        for _ in range(count):
            a = random_matrix(kind, rng)
            n = a.shape[0]
            for fn in FUNCTIONS:
                session.set("A", a)
                reset_fallback_counts()
                session.eval(f"lastwarn(''); X = gather({fn}(gpuArray(A))); [~, wd] = lastwarn(); "
                             f"lastwarn(''); H = {fn}(A); [~, wh] = lastwarn();")
                on_device = not fallback_counts()
                x, h = np.asarray(session.get("X")), np.asarray(session.get("H"))
                norm = np.linalg.norm(a, 1)
                kappa = (max(1.0, norm * np.exp(norm) / np.linalg.norm(h, 1)) if fn == "expm"
                         else np.linalg.cond(a, 1))
                finite = np.isfinite(h)
                same_pattern = np.array_equal(np.isfinite(x), finite) and \
                    np.array_equal(np.isnan(x), np.isnan(h))
                scale = max(np.linalg.norm(np.where(finite, h, 0), 1), 1e-300)
                error = np.linalg.norm(np.where(finite & np.isfinite(x), x - h, 0), 1) / scale
                relative_only = kind == "singular" and fn != "expm"    # kappa is infinite
                ratio = error if relative_only else error / (n * UNIT_ROUNDOFF * kappa)
                results[fn].append((on_device, ratio, not same_pattern,
                                    session.get("wd") != session.get("wh")))
        for fn, rows in results.items():
            device = [ratio for on, ratio, _, _ in rows if on]
            patterns = sum(1 for on, _, differs, _ in rows if on and differs)
            warnings = sum(1 for on, _, _, differs in rows if on and differs)
            worst = f"{max(device):.3g}" if device else "-"
            measure = ("max rel. error" if kind == "singular" and fn != "expm"
                       else "max error/(n u kappa)")
            lines.append(f"{kind:11} {fn:6} device {len(device)}/{len(rows)}  {measure} {worst}  "
                         f"NaN/Inf patterns differ {patterns}  warnings differ {warnings}")
    return lines


def main(argv: list[str]) -> None:
    from matfuse.accelerate.facade import _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate_api import override_provider

    name = argv[0] if argv else "inprocess"
    count = int(argv[1]) if len(argv) > 1 else 60
    provider = _load_backend(name, AccelerateInitOptions(provider=name), True)
    with override_provider(provider):
        print("\n".join(survey(count)))


if __name__ == "__main__":
    main(sys.argv[1:])
