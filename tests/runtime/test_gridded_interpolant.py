"""The gridded interpolation engine and griddedInterpolant objects: exactness
on polynomials each method reproduces, agreement with interp1/interp2 and
SciPy, query forms, extrapolation, property updates, errors."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.interpolate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vm"))
from vmutil import run  # noqa: E402

from matfuse.runtime.gridded_interpolant import evaluate, evaluate_grid  # noqa: E402


def lines(code: str) -> list[str]:
    return [line.strip() for line in run(code).strip().splitlines() if line.strip()]


def error_of(code: str) -> str:
    return lines(f"try\n{code}\ncatch e\ndisp(e.identifier)\nend")[-1]


GRIDS = [np.array([0.0, 1.0, 2.5, 4.0]), np.array([-1.0, 0.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0, 5.0, 6.0])]


def _values(fn) -> np.ndarray:
    mesh = np.meshgrid(*GRIDS, indexing="ij")
    return fn(*mesh)


def _points(m: int = 40) -> np.ndarray:
    rng = np.random.default_rng(5)
    return np.stack([rng.uniform(g[0], g[-1], m) for g in GRIDS], axis=1)


def test_linear_is_exact_for_multilinear_data() -> None:
    v = _values(lambda x, y, z: 1 + 2 * x - y + 0.5 * z + x * y * z)
    p = _points()
    expected = 1 + 2 * p[:, 0] - p[:, 1] + 0.5 * p[:, 2] + p[:, 0] * p[:, 1] * p[:, 2]
    assert np.allclose(evaluate(GRIDS, v, p, "linear", "linear"), expected)


@pytest.mark.parametrize("method", ["linear", "nearest", "pchip"])
def test_agrees_with_scipy_regular_grid(method: str) -> None:
    v = _values(lambda x, y, z: np.sin(x) * np.cos(y) + z ** 2)
    p = _points()
    ours = evaluate(GRIDS, v, p, method, method)
    theirs = scipy.interpolate.RegularGridInterpolator(GRIDS, v, method=method)(p)
    if method == "nearest":   # ties aside, the same neighbour
        assert np.mean(np.isclose(ours, theirs)) > 0.95
    else:
        assert np.allclose(ours, theirs)


def test_spline_matches_tensor_product_of_not_a_knot_splines() -> None:
    v = _values(lambda x, y, z: np.exp(0.3 * x) + y * z ** 2)
    queries = [np.array([0.5, 3.0]), np.array([-0.5, 1.0, 2.9]), np.array([2.5, 5.5])]
    ours = evaluate_grid(GRIDS, v, queries, "spline", "spline")
    along = v
    for axis, q in enumerate(queries):
        along = scipy.interpolate.CubicSpline(GRIDS[axis], along, axis=axis,
                                              bc_type="not-a-knot")(q)
    assert ours.shape == (2, 3, 2)
    assert np.allclose(ours, along)


def test_cubic_is_exact_for_quadratics_on_uniform_grids() -> None:
    grids = [np.arange(0.0, 6.0), np.arange(0.0, 5.0)]
    mesh = np.meshgrid(*grids, indexing="ij")
    v = mesh[0] ** 2 + 3 * mesh[1] ** 2
    p = np.array([[0.3, 0.7], [2.5, 3.5], [4.9, 0.1]])
    assert np.allclose(evaluate(grids, v, p, "cubic", "cubic"), p[:, 0] ** 2 + 3 * p[:, 1] ** 2)


def test_extrapolation_methods() -> None:
    grids = [np.array([1.0, 2.0, 3.0])]
    v = np.array([1.0, 4.0, 9.0])
    p = np.array([[0.0], [4.0], [2.0]])
    assert np.allclose(evaluate(grids, v, p, "linear", "linear"), [-2.0, 14.0, 4.0])
    out = evaluate(grids, v, p, "linear", "none")
    assert np.isnan(out[0]) and np.isnan(out[1]) and out[2] == 4.0
    assert np.allclose(evaluate(grids, v, p, "linear", "nearest"), [1.0, 9.0, 4.0])


def test_object_query_forms_agree() -> None:
    out = lines("[X, Y] = ndgrid(0:3, 0:2); V = X + 10*Y; F = griddedInterpolant(X, Y, V);"
                "a = F(1.5, 0.5); b = F([1.5 0.5]); c = F({1.5, 0.5});"
                "disp([a b c]); q = F([0 1; 2 3], [0 0; 1 2]); disp(q)")
    assert out == ["6.5000    6.5000    6.5000", "0     1", "12    23"]


def test_object_matches_interp2_on_meshgrid_data() -> None:
    out = lines("[X, Y] = meshgrid(1:4, 1:3); V = sin(X) + Y.^2;"
                "F = griddedInterpolant(X', Y', V', 'spline');"
                "d = F(2.2, 1.7) - interp2(X, Y, V, 2.2, 1.7, 'spline'); disp(abs(d) < 1e-12)")
    assert out == ["1"]


def test_value_sets_and_property_updates() -> None:
    out = lines("F = griddedInterpolant([1 2 3], [1 10; 2 20; 3 30]); disp(F(2.5));"
                "G = griddedInterpolant([1 2 3], [1 4 9]); G.Values = [2 4 6]; disp(G(1.5));"
                "G.Method = 'nearest'; disp(G.ExtrapolationMethod); disp(class(G));"
                "H = griddedInterpolant([3 1 2], [9 1 4]); disp(H(1.5))")
    assert out == ["2.5000   25.0000", "3", "nearest", "griddedInterpolant", "2.5000"]


def test_errors() -> None:
    assert error_of("griddedInterpolant([1 1 2], [1 2 3])") == \
        "MATLAB:griddedInterpolant:NonMonotonicCompVecsErrId"
    assert error_of("griddedInterpolant([1 2 3], [1 2])") == \
        "MATLAB:griddedInterpolant:CompVecValueMismatchErrId"
    assert error_of("griddedInterpolant([1 2 3], [1 2 3], 'bogus')") == \
        "MATLAB:griddedInterpolant:BadInterpTypeErrId"
    assert error_of("griddedInterpolant([1 2 4], [1 2 3], 'cubic')") == \
        "MATLAB:griddedInterpolant:BadCubicInterpErrId"
    assert error_of("F = griddedInterpolant(magic(3)); F([1 2 3])") == \
        "MATLAB:griddedInterpolant:BadQueryDimsErrId"


def test_interpn_forms() -> None:
    out = lines("V = reshape(1:24, 2, 3, 4); disp(interpn(V, 1.5, 2, 3));"
                "disp(interpn(1:2, 1:3, 1:4, V, 2, 3, 4)); disp(interpn(V, 3, 1, 1, 'linear', -1))")
    assert out == ["15.5000", "24", "-1"]


def test_gpuarray_queries_give_gpuarray_results() -> None:
    out = lines("x = gpuArray(1:5); F = griddedInterpolant(x, x.^2); v = F(gpuArray(2.5));"
                "disp(class(v)); disp(gather(v)); w = F({gpuArray([1.5 2.5])}); disp(class(w))")
    assert out == ["gpuArray", "6.5000", "gpuArray"]


def test_empty_interpolant() -> None:
    out = lines("F = griddedInterpolant; disp(isempty(F.Values)); disp(numel(F.GridVectors))")
    assert out == ["1", "0"]
    assert error_of("F = griddedInterpolant; F(1)") == \
        "MATLAB:griddedInterpolant:EmptyInterpolantErrId"


def test_interp2_scattered_queries_use_the_gridded_engine() -> None:
    """Many scattered points: interp2 no longer builds the table of all
    unique x by all unique y query values."""
    out = lines("[X, Y] = meshgrid(0:0.01:1, 0:0.02:1); V = 2*X + 3*Y;"
                "xq = rand(1, 50000); yq = rand(1, 50000);"
                "d = interp2(X, Y, V, xq, yq) - (2*xq + 3*yq); disp(max(abs(d)) < 1e-12);"
                "s = interp2(X, Y, V, xq(1:5000), yq(1:5000), 'spline') - (2*xq(1:5000) + 3*yq(1:5000));"
                "disp(max(abs(s)) < 1e-9)")
    assert out == ["1", "1"]
