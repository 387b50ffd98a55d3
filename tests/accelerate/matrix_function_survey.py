"""How often ``expm``, ``sqrtm`` and ``logm`` of a gpuArray take the device
path, and how far the device results are from the host's, on seeded random
matrices (``n`` from 2 to 8) of four kinds: real Gaussian (``randn(n)``),
symmetric positive definite, real shifted (``randn(n) + (sqrt(n)+1)*I``)
and complex Gaussian. Run as a script::

    PYTHONPATH=src python3 -m tests.accelerate.matrix_function_survey [inprocess|wgpu] [count]

Each line: the kind and function, how many matrices ran on the device, the
largest relative 1-norm error of those against the host divided by ``n * u
* kappa`` (``kappa`` as in tests/accelerate/router/test_matrix_roots_on_device.py),
and for sqrtm/logm how many declined matrices had no eigenvalue on the
negative real axis (a decline the method did not need).
"""

from __future__ import annotations

import io
import sys

import numpy as np

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts

KINDS = ("gauss", "spd", "shifted", "complex")
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
    return a


def survey(count: int, seed: int = 7) -> list[str]:
    rng = np.random.default_rng(seed)
    lines = []
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    for kind in KINDS:
        results: dict[str, list[tuple[bool, float, bool]]] = {f: [] for f in FUNCTIONS}
        for _ in range(count):
            a = random_matrix(kind, rng)
            n = a.shape[0]
            eigenvalues = np.linalg.eigvals(a)
            negative = bool(np.any((eigenvalues.imag == 0) & (eigenvalues.real <= 0)))
            for fn in FUNCTIONS:
                session.set("A", a)
                reset_fallback_counts()
                session.eval(f"X = gather({fn}(gpuArray(A))); H = {fn}(A);")
                on_device = not fallback_counts()
                x, h = np.asarray(session.get("X")), np.asarray(session.get("H"))
                norm = np.linalg.norm(a, 1)
                kappa = (max(1.0, norm * np.exp(norm) / np.linalg.norm(h, 1)) if fn == "expm"
                         else np.linalg.cond(a, 1))
                error = np.linalg.norm(x - h, 1) / np.linalg.norm(h, 1)
                results[fn].append((on_device, error / (n * UNIT_ROUNDOFF * kappa), negative))
        for fn, rows in results.items():
            device = [ratio for on, ratio, _ in rows if on]
            needless = sum(1 for on, _, neg in rows if not on and not neg)
            worst = f"{max(device):.3g}" if device else "-"
            lines.append(f"{kind:8} {fn:6} device {len(device)}/{len(rows)}  "
                         f"max error/(n u kappa) {worst}  needless declines {needless}")
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
