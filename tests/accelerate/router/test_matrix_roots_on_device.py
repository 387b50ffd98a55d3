"""expm, sqrtm and logm of gpuArrays run on the device (``matrix_exponential``,
``matrix_roots``) and agree with the host's Schur-based results.

The tolerance: the device and the host use different algorithms (Pade
scaling and squaring and a Denman-Beavers iteration against SciPy's
Schur-based methods), so their results agree to rounding times the
condition of the problem, not bit for bit. Each comparison asserts

    norm(X_device - X_host, 1) / norm(X_host, 1) <= 1000 * n * u * kappa

with ``u`` the unit roundoff of the class and ``kappa`` a condition
estimate: ``cond(A, 1)`` for sqrtm and logm, and for expm the bound
``norm(A, 1) * exp(norm(A, 1)) / norm(expm(A), 1)`` of the exponential's
relative condition number. (Measured on 420 random matrices by
``tests/accelerate/matrix_function_survey.py``, the largest ratio of the
error to ``n * u * kappa`` was about 300 for expm, 71 for sqrtm and logm.)
A singular matrix has an infinite ``kappa``; its comparisons take
``kappa = 1`` (both Schur forms hold the same exact zeros).

A matrix the Denman-Beavers iteration cannot take (an eigenvalue on the
negative real axis, singular, real or complex) takes the Schur method on
the device (``schur_form``, ``schur_root``): MATLAB's result, branch,
warnings and realness, no host fallback. NaN/Inf raise the host's error;
only expm of NaN is still a declined form here.
"""

from __future__ import annotations

import io

import numpy as np
import scipy.linalg
import pytest

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, observe_fallbacks, reset_fallback_counts
from matfuse.runtime.registry import load_all

UNIT_ROUNDOFF = {"double": 2.0 ** -53, "single": 2.0 ** -24}
FUNCTIONS = ("expm", "sqrtm", "logm")


def _matrices(kind: str, count: int, seed: int) -> list[np.ndarray]:
    """Random test matrices whose principal root and logarithm exist:
    symmetric positive definite, real with eigenvalues in the right half
    plane (shifted by more than the norm), complex."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(2, 7))
        a = rng.standard_normal((n, n)) * rng.choice([0.1, 1.0, 3.0])
        if kind == "spd":
            a = a @ a.T + 0.05 * np.eye(n)
        elif kind == "shifted":
            a = a + (np.linalg.norm(a, 1) + 0.5) * np.eye(n)
        elif kind == "complex":
            a = a + 1j * rng.standard_normal((n, n))
        out.append(a)
    return out


def _condition(fn: str, a: np.ndarray, host: np.ndarray) -> float:
    norm = np.linalg.norm(a, 1)
    if fn == "expm":
        return max(1.0, norm * np.exp(norm) / np.linalg.norm(host, 1))
    return np.linalg.cond(a, 1)


def _run(fn: str, a: np.ndarray, cls: str = "double") -> tuple[np.ndarray, np.ndarray, dict, str]:
    s = Session(stdout=io.StringIO(), stderr=io.StringIO())
    s.set("A", a)
    s.eval(f"A = {cls}(A); H = {fn}(A); G = gpuArray(A);")
    reset_fallback_counts()
    s.eval(f"D = {fn}(G); c = classUnderlying(D); D = gather(D);")
    return np.asarray(s.get("D")), np.asarray(s.get("H")), fallback_counts(), s.get("c")


def _check(fn: str, a: np.ndarray, cls: str = "double") -> None:
    device, host, fallbacks, device_class = _run(fn, a, cls)
    assert fallbacks == {}, (fn, a, fallbacks)
    assert device_class == cls
    assert device.shape == host.shape
    n = a.shape[0]
    error = np.linalg.norm(device.astype(np.complex128) - host, 1) / np.linalg.norm(host, 1)
    bound = 1000 * n * UNIT_ROUNDOFF[cls] * _condition(fn, a, host.astype(np.complex128))
    assert error <= bound, (fn, a, error, bound)


KINDS = ("spd", "shifted", "complex")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fn", FUNCTIONS)
def test_device_agrees_with_host(device, fn, kind):
    load_all()
    for a in _matrices(kind, 4, seed=10 * FUNCTIONS.index(fn) + KINDS.index(kind)):
        _check(fn, a)


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_single_stays_single(device, fn):
    load_all()
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    _check(fn, a, "single")


def test_large_norm_takes_squarings(device):
    load_all()
    a = np.array([[1.0, 20.0, 0.0], [-3.0, 2.0, 4.0], [0.0, 1.0, -5.0]])
    _check("expm", a)
    _check("expm", -a)


def test_logm_of_symmetric_matrix_is_symmetric(device):
    load_all()
    s = Session(stdout=io.StringIO())
    s.eval("A = gallery('lehmer', 5) + eye(5); L = gather(logm(gpuArray(A)));")
    lmat = np.asarray(s.get("L"))
    np.testing.assert_array_equal(lmat, lmat.T)


def test_identity_and_zero(device):
    load_all()
    s = Session(stdout=io.StringIO())
    s.eval("E = gather(expm(gpuArray(zeros(3)))); R = gather(sqrtm(gpuArray(eye(3)))); "
           "L = gather(logm(gpuArray(eye(3))));")
    np.testing.assert_array_equal(np.asarray(s.get("E")), np.eye(3))
    np.testing.assert_allclose(np.asarray(s.get("R")), np.eye(3), atol=1e-15)
    np.testing.assert_allclose(np.asarray(s.get("L")), np.zeros((3, 3)), atol=1e-15)


DECLINED = [
    ("expm", np.array([[1.0, np.nan], [0.0, 1.0]]), "NaN", None),
]


@pytest.mark.parametrize("fn,a,reason,warning", DECLINED, ids=[f"{f}-{r}" for f, _, r, _ in DECLINED])
def test_declined_forms_give_host_results_and_warnings(device, fn, a, reason, warning):
    load_all()
    reasons: list[tuple[str, str]] = []
    s = Session(stdout=io.StringIO(), stderr=io.StringIO())
    s.set("A", a)
    s.eval(f"H = {fn}(A); lastwarn('');")
    observe_fallbacks(lambda what, why: reasons.append((what, why)))
    try:
        s.eval(f"D = gather({fn}(gpuArray(A))); [~, id] = lastwarn();")
    finally:
        observe_fallbacks(None)
    assert [what for what, _ in reasons] == [fn]
    assert reason in reasons[0][1] and reasons[0][1].startswith(f"{fn} on the host: ")
    np.testing.assert_array_equal(np.asarray(s.get("D")), np.asarray(s.get("H")))
    assert s.get("id") == (warning or "")


def _rotated(t: np.ndarray, seed: int) -> np.ndarray:
    """``Q*t*Q'`` with a random orthogonal Q (a full matrix similar to ``t``)."""
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal(t.shape))
    return q @ t @ q.T


def _unitary_rotated(t: np.ndarray, seed: int) -> np.ndarray:
    """``Q*t*Q'`` with a random unitary Q."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal(t.shape) + 1j * rng.standard_normal(t.shape))
    return q @ t.astype(np.complex128) @ q.conj().T


_GRAM = np.random.default_rng(5).standard_normal((4, 4))
#: matrices the Denman-Beavers iteration leaves to the Schur method: the
#: host's (MATLAB's) result, warning and class all come from the device
SCHUR_CASES = {
    "negative-triangular": np.array([[-1.0, 2.0], [0.0, 3.0]]),
    "minus-identity": -np.eye(3),
    "negative-definite": -_GRAM.T @ _GRAM,
    "defective-negative": np.array([[-1.0, 1.0], [0.0, -1.0]]),
    "defective-rotated": _rotated(np.array([[-2.0, 1.0, 0.0], [0.0, -2.0, 1.0],
                                            [0.0, 0.0, 3.0]]), 1),
    "conjugate-and-negative": _rotated(np.array([[1.0, 2.0, 0.5, 0.0], [-3.0, 1.0, 0.2, 0.1],
                                                 [0.0, 0.0, -4.0, 1.0], [0.0, 0.0, 0.0, 0.5]]), 2),
    "singular-rank-one": np.array([[1.0, 2.0], [2.0, 4.0]]),
    "zeros": np.zeros((3, 3)),
    "triangular-zero-pivot": np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 4.0], [0.0, 0.0, 5.0]]),
    "jordan-zero": np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]),
    "jordan-zero-2": np.array([[0.0, 1.0], [0.0, 0.0]]),
    "singular-permuted-triangular": np.array([[1.0, 2.0, 3.0, 1.0], [0.0, 0.0, 4.0, 2.0],
                                              [0.0, 0.0, 5.0, 3.0], [0.0, 0.0, 0.0, -2.0]]
                                             )[np.ix_([2, 0, 3, 1], [2, 0, 3, 1])],
    "complex-negative-triangular": np.array([[-1.0, 1j], [0.0, 2.0]]),
    "complex-minus-identity": -np.eye(3) + 0j,
    "complex-negative-rotated": _unitary_rotated(np.diag([-4.0, 1j, 2.0]), 1),
    "complex-singular-triangular": np.array([[1j, 2.0, 3.0], [0.0, 0.0, 4.0], [0.0, 0.0, 5.0]]),
    "complex-jordan-zero": np.array([[0.0, 1j], [0.0, 0.0]]),
}


def _assert_close(device_result: np.ndarray, host: np.ndarray, a: np.ndarray, cls: str) -> None:
    """Equal NaN and Inf patterns; elsewhere within 1000 n u kappa (relative, 1-norm),
    where for a singular matrix kappa is taken as 1 (the Schur forms of both
    hold the same exact zeros)."""
    assert np.array_equal(np.isnan(device_result), np.isnan(host))
    assert np.array_equal(np.isinf(device_result), np.isinf(host))
    finite = np.isfinite(host)
    n = a.shape[0]
    kappa = np.linalg.cond(a, 1)
    kappa = kappa if np.isfinite(kappa) and kappa < 1e15 else 1.0
    scale = max(np.linalg.norm(np.where(finite, host, 0), 1), np.linalg.norm(a, 1) ** 0.5, 1e-300)
    error = np.linalg.norm(np.where(finite, device_result.astype(np.complex128) - host, 0), 1)
    assert error / scale <= 1000 * n * UNIT_ROUNDOFF[cls] * kappa, (error / scale, kappa)


def _device_and_host(fn: str, a: np.ndarray, cls: str = "double", nargout: int = 1) -> dict:
    s = Session(stdout=io.StringIO(), stderr=io.StringIO())
    s.set("A", a)
    outs = "[H, h2]" if nargout == 2 else "H"
    douts = "[D, d2]" if nargout == 2 else "D"
    s.eval(f"A = {cls}(A); lastwarn(''); {outs} = {fn}(A); [~, hw] = lastwarn(); lastwarn('');")
    reset_fallback_counts()
    s.eval(f"{douts} = {fn}(gpuArray(A)); [~, dw] = lastwarn(); c = classUnderlying(D); "
           "r = isreal(D); hr = isreal(H); D = gather(D);"
           + (" d2 = gather(d2);" if nargout == 2 else ""))
    out = {k: s.get(k) for k in ("D", "H", "hw", "dw", "c", "r", "hr")}
    if nargout == 2:
        out["d2"], out["h2"] = s.get("d2"), s.get("h2")
    out["fallbacks"] = fallback_counts()
    return out


#: a rotated Jordan block at a negative eigenvalue: rounding splits the
#: double eigenvalue into two real ones (a complex root) or a conjugate pair
#: (a real root), in MATLAB's Schur form as in ours, so which of MATLAB's
#: answers comes out depends on the LAPACK and the device's QR (seen on the
#: H200: host and device disagreed there, agreed here). Only the function's
#: defining equation is checked.
ROUNDING_DECIDES = {"defective-rotated"}


@pytest.mark.parametrize("name", list(SCHUR_CASES))
@pytest.mark.parametrize("fn", ("sqrtm", "logm"))
def test_schur_cases_run_on_the_device(device, fn, name):
    """Negative real eigenvalues, singular, defective, real and complex:
    MATLAB's result (the +i*sqrt branch, log|lambda| + i*pi; for a singular
    matrix the host's logarithm with each exact zero of the Schur form taken
    as 1e-20), warning and realness, no host fallback."""
    load_all()
    a = SCHUR_CASES[name]
    got = _device_and_host(fn, a)
    assert got["fallbacks"] == {}, got["fallbacks"]
    if name in ROUNDING_DECIDES:
        d = np.asarray(got["D"])
        back = d @ d if fn == "sqrtm" else scipy.linalg.expm(d)
        assert np.linalg.norm(back - a, 1) <= 1e-6 * np.linalg.norm(a, 1)
        return
    assert got["dw"] == got["hw"]
    assert got["r"] == got["hr"] and got["c"] == "double"
    _assert_close(np.asarray(got["D"]), np.asarray(got["H"]), a, "double")


def test_negative_eigenvalue_branch_is_plus_i(device):
    """A real matrix's negative eigenvalue -4 has the root +2i (MATLAB's
    branch), whatever the rounding of the Schur form."""
    load_all()
    a = _rotated(np.diag([-4.0, 1.0, 9.0]), 3)
    got = _device_and_host("sqrtm", a)
    eigenvalues = np.sort_complex(np.linalg.eigvals(np.asarray(got["D"])))
    np.testing.assert_allclose(eigenvalues, [2j, 1.0, 3.0], atol=1e-12)
    _assert_close(np.asarray(got["D"]), np.asarray(got["H"]), a, "double")


def test_schur_second_output_and_single(device):
    """``[X, residual] = sqrtm(A)`` of a singular matrix: no warning, the
    residual on the device; single stays single on the Schur path."""
    load_all()
    got = _device_and_host("sqrtm", np.array([[1.0, 2.0], [2.0, 4.0]]), nargout=2)
    assert got["fallbacks"] == {} and got["dw"] == "" and got["hw"] == ""
    assert abs(float(got["d2"]) - float(got["h2"])) <= 1e-15
    a = _rotated(np.diag([-4.0, 1.0, 9.0]), 4)
    got = _device_and_host("sqrtm", a, "single")
    assert got["fallbacks"] == {} and got["c"] == "single" and not got["r"]
    _assert_close(np.asarray(got["D"]), np.asarray(got["H"]), a, "single")


def test_not_finite_raises_the_host_error(device):
    load_all()
    s = Session(stdout=io.StringIO())
    for fn in ("sqrtm", "logm"):
        reset_fallback_counts()
        with pytest.raises(Exception) as info:
            s.eval(f"{fn}(gpuArray([1 NaN; 0 1]));")
        assert getattr(info.value, "identifier", "") == "MATLAB:schur:matrixWithNaNInf"
        assert fallback_counts() == {}


def test_non_square_and_integer_raise_host_errors(device):
    load_all()
    s = Session(stdout=io.StringIO())
    for code, identifier in (("expm(gpuArray(ones(2, 3)))", "MATLAB:square"),
                             ("sqrtm(gpuArray(int8(eye(2))))", "MATLAB:sqrtm:integerNotSupported")):
        with pytest.raises(Exception) as info:
            s.eval(code + ";")
        assert getattr(info.value, "identifier", "") == identifier


def test_random_real_matrices_device_share(device):
    """Gaussian real matrices (most have a negative real eigenvalue): expm,
    sqrtm and logm all run on the device and agree with the host."""
    load_all()
    rng = np.random.default_rng(11)
    for _ in range(6):
        a = rng.standard_normal((4, 4))
        for fn in FUNCTIONS:
            device_result, host, fallbacks, _ = _run(fn, a)
            assert not fallbacks, (fn, a)
            error = np.linalg.norm(device_result - host, 1) / np.linalg.norm(host, 1)
            assert error <= 1000 * 4 * UNIT_ROUNDOFF["double"] * _condition(fn, a, host)


@pytest.fixture
def forced_offload(device):
    """Automatic offload of plain arrays with every threshold at 1 and a
    cost model in which the device costs nothing (the differential gate's
    ``offload`` mode): every call that can run on the device does."""
    from matfuse.accelerate import facade
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate.planner import offload
    from matfuse.accelerate.planner.cost_model import CostModel
    from matfuse.accelerate.planner.decisions import Planner
    from matfuse.accelerate.planner.thresholds import resolve_thresholds

    defaults = CostModel()
    free = CostModel(upload_s_per_byte=0.0, download_s_per_byte=0.0, launch_s=0.0,
                     device_s_per_unit={k: 0.0 for k in defaults.device_s_per_unit})
    options = AccelerateInitOptions(provider=device.name, auto_offload="force",
                                    **{f"threshold_{c}": 1 for c in
                                       ("elementwise", "reduction", "construction", "matmul")})
    saved = facade.use_acceleration_state(facade.AccelerationState(options, device, device.name))
    planner = offload.activate(device, planner=Planner(resolve_thresholds(options), free))
    try:
        yield planner
    finally:
        offload.reset()
        facade.use_acceleration_state(saved)


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_plain_arrays_run_on_the_device_when_offload_is_forced(forced_offload, fn):
    load_all()
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    s = Session(stdout=io.StringIO())
    s.set("A", a)
    reset_fallback_counts()
    forced_offload.log.clear()
    s.eval(f"X = {fn}(A); c = class(X);")
    assert fallback_counts() == {}
    assert any(d.builtin == fn and d.on_device for d in forced_offload.log.recent)
    assert s.get("c") == "double"
    from matfuse.runtime.dispatcher import auto_offload_suspended

    with auto_offload_suspended():
        s.eval(f"H = {fn}(A);")
    host = np.asarray(s.get("H"))
    error = np.linalg.norm(np.asarray(s.get("X")) - host, 1) / np.linalg.norm(host, 1)
    assert error <= 1000 * 3 * UNIT_ROUNDOFF["double"] * _condition(fn, a, host)


def test_second_outputs(device):
    """``[X, residual] = sqrtm(A)`` and ``[L, exitflag] = logm(A)`` on the
    device: gpuArrays, the residual of the device root, exitflag 0."""
    load_all()
    s = Session(stdout=io.StringIO())
    s.eval("A = gpuArray([4 1 0; 1 3 1; 0 1 5]); [X, r] = sqrtm(A); [L, e] = logm(A); "
           "k = {class(r), class(e)}; r = gather(r); e = gather(e); X = gather(X); "
           "A = gather(A);")
    assert fallback_counts() == {}
    assert s.get("k") == ["gpuArray", "gpuArray"]
    a, x = np.asarray(s.get("A")), np.asarray(s.get("X"))
    want = np.linalg.norm(a - x @ x, 1) / np.linalg.norm(a, 1)
    assert abs(float(s.get("r")) - want) <= 4 * UNIT_ROUNDOFF["double"]
    assert float(s.get("r")) <= 1e-14 and float(s.get("e")) == 0.0
