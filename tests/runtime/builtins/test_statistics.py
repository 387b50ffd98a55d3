"""std var cov corrcoef quantile prctile histcounts histc movmean movsum zscore rescale normalize."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from builtins_b_support import call, close, raises, row, text

A = np.arange(1.0, 7.0).reshape(2, 3, order="F")


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(2, 6), st.integers(1, 4)),
                  elements=st.floats(-50, 50, allow_nan=False)))
def test_var_std_match_numpy(x: np.ndarray) -> None:
    close(call("var", x), np.var(x, axis=0, ddof=1, keepdims=True), rtol=1e-9, atol=1e-9)
    close(call("std", x, 1.0), np.std(x, axis=0, keepdims=True), rtol=1e-9, atol=1e-9)
    close(call("var", x, 0.0, 2.0), np.var(x, axis=1, ddof=1 if x.shape[1] > 1 else 0, keepdims=True),
          rtol=1e-9, atol=1e-9)


def test_var_special_cases() -> None:
    assert call("var", 5.0) == 0.0
    assert np.isnan(call("var", np.zeros((0, 0))))
    assert call("var", row(1, 2, 3), row(1, 1, 2)) == 0.6875
    assert call("std", A, 0.0, text("all")) == np.std(A, ddof=1)
    assert call("var", row(1, np.nan, 3), text("omitnan")) == 2.0
    s, m = call("std", row(2, 4, 6), nargout=2)
    assert (s, m) == (2.0, 4.0)
    raises("MATLAB:var:invalidWgts", "var", row(1, 2), 2.0)


def test_cov_corrcoef() -> None:
    close(call("cov", A), np.full((3, 3), 0.5))
    assert call("cov", row(1, 2, 3, 4)) == np.var([1, 2, 3, 4], ddof=1)
    close(call("cov", row(1, 2, 3), row(1, 2, 4)), np.cov([1, 2, 3], [1, 2, 4]))
    r = call("corrcoef", row(1, 2, 3, 5), row(2, 4, 5, 9))
    close(r, np.corrcoef([1, 2, 3, 5], [2, 4, 5, 9]))
    r, p = call("corrcoef", row(1, 2, 3, 5), row(2, 4, 5, 9), nargout=2)
    assert 0 < p[0, 1] < 0.05 and p[0, 0] == 1.0


def test_quantile_matlab_method() -> None:
    assert call("quantile", row(1, 2, 3, 4, 5), 0.3) == 2.0
    close(call("prctile", row(1, 2, 3, 4), row(25, 50, 75)), row(1.5, 2.5, 3.5))
    assert call("prctile", row(1, 2, 3, 4), 0.0) == 1.0
    assert call("prctile", row(1, 2, 3, 4), 100.0) == 4.0
    close(call("quantile", A.T, 0.5), row(1.5, 3.5, 5.5)[:, :2] if False else np.array([[3.0, 4.0]]))
    raises("MATLAB:prctile:BadPercents", "prctile", row(1, 2), 120.0)


def test_histcounts_auto_and_edges() -> None:
    n, e = call("histcounts", row(1, 2, 2, 3, 5), nargout=2)
    close(n, row(1, 2, 1, 0, 1))
    close(e, row(0.5, 1.5, 2.5, 3.5, 4.5, 5.5))
    n, e = call("histcounts", row(0.1, 0.5, 1.7, 2.2, 3.9), nargout=2)
    close(e, row(0, 3, 6))
    close(n, row(4, 1))
    n = call("histcounts", row(1, 2, 3, 4), row(0, 2, 4))
    close(n, row(1, 3))   # last bin includes its right edge
    n, e = call("histcounts", np.arange(1.0, 11.0).reshape(1, -1), 3.0, nargout=2)
    assert e.size == 4 and n.sum() == 10
    n, e = call("histcounts", 5.0, nargout=2)
    close(e, row(4.5, 5.5))
    p = call("histcounts", row(1, 2, 2, 3), text("Normalization"), text("probability"))
    close(p, row(0.25, 0.5, 0.25))


def test_histc() -> None:
    close(call("histc", row(1, 2, 2, 3, 5), row(0, 2, 4, 5)), row(1, 3, 0, 1))
    n, b = call("histc", row(1, 6), row(0, 2), nargout=2)
    close(n, row(1, 0))
    close(b, row(1, 0))


def test_moving_windows() -> None:
    x = row(1, 2, 3, 4, 5)
    close(call("movmean", x, 3.0), row(1.5, 2, 3, 4, 4.5))
    close(call("movmean", x, 2.0), row(1, 1.5, 2.5, 3.5, 4.5))
    close(call("movsum", x, row(2, 0)), row(1, 3, 6, 9, 12))
    close(call("movmean", x, 3.0, text("Endpoints"), text("discard")), row(2, 3, 4))
    close(call("movsum", row(1, np.nan, 3), 3.0), row(np.nan, np.nan, np.nan))
    close(call("movsum", row(1, np.nan, 3), 3.0, text("omitnan")), row(1, 4, 3))


def test_zscore_rescale_normalize() -> None:
    close(call("zscore", row(1, 2, 3)), row(-1, 0, 1))
    z, mu, sigma = call("zscore", row(2, 2), nargout=3)
    close(z, row(0, 0))
    assert (mu, sigma) == (2.0, 0.0)
    close(call("rescale", row(1, 2, 3)), row(0, 0.5, 1))
    close(call("rescale", row(1, 2, 3), -1.0, 1.0), row(-1, 0, 1))
    close(call("normalize", row(1, 2, 3)), row(-1, 0, 1))
    close(call("normalize", row(1, 2, 3), text("range")), row(0, 0.5, 1))
    close(call("normalize", row(1, 2, 3), text("center")), row(-1, 0, 1))
    close(call("normalize", row(3, 4), text("norm")), row(0.6, 0.8))


def test_normalize_methods_and_outputs() -> None:
    x = row(1, 2, 4, 7)
    # MATLAB's iqr of x is 4 (quartiles 1.5 and 5.5), its median 3
    close(call("normalize", x, text("scale"), text("iqr")), row(0.25, 0.5, 1, 1.75))
    close(call("normalize", x, text("medianiqr")), row(-0.5, -0.25, 0.25, 1))
    close(call("normalize", x, text("center"), text("median"), text("scale"), text("mad")),
          row(-4 / 3, -2 / 3, 2 / 3, 8 / 3))
    close(call("normalize", x, text("range"), row(-1, 1)), row(-1, -2 / 3, 0, 1))
    n, c, s = call("normalize", x, text("range"), row(-1, 1), nargout=3)
    close((x - c) / s, n)
    n, c, s = call("normalize", x, nargout=3)
    assert c == 3.5 and abs(s - np.sqrt(7.0)) < 1e-12
    raises("MATLAB:normalize:InvalidMethodCombination", "normalize", x, text("zscore"),
           text("range"))
    raises("MATLAB:normalize:InvalidScaleOption", "normalize", x, text("scale"), text("nope"))


def test_histcounts_nbins_and_methods() -> None:
    primes = row(2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73,
                 79, 83, 89, 97)
    n, e = call("histcounts", primes, 6.0, nargout=2)
    close(e, row(0, 17, 34, 51, 68, 85, 102))
    assert n.sum() == 25
    _, e = call("histcounts", row(1, 2, 3, 100), text("BinMethod"), text("integers"), nargout=2)
    assert e[0, 0] == 0.5 and e[0, -1] == 100.5
    _, e = call("histcounts", np.arange(1.0, 17.0).reshape(1, -1) + 0.5, text("BinMethod"),
                text("sturges"), nargout=2)
    assert e.size >= 5
    raises("MATLAB:histcounts:InvalidBinMethod", "histcounts", row(1.5, 2), text("BinMethod"), text("x"))


def test_dims_past_ndims_are_singletons() -> None:
    close(call("movmean", row(1, 2, 3), 3.0, 4.0), row(1, 2, 3))
    close(call("movsum", row(1, 2, 3), 3.0, 4.0), row(1, 2, 3))
    close(call("prctile", row(1, 2, 3), 50.0, 4.0), row(1, 2, 3))
    close(call("quantile", row(1, 2, 3), 0.5, 5.0), row(1, 2, 3))
    assert call("quantile", row(1, 2, 3), row(0.25, 0.5), 5.0).shape == (1, 3, 1, 1, 2)


def test_unknown_option_names_are_errors_not_skipped() -> None:
    raises("MATLAB:histcounts:InvalidParameterName", "histcounts",
           np.arange(1.0, 11.0).reshape(1, -1), text("Foo"), 3.0)
    raises("MATLAB:rescale:InvalidParameterName", "rescale", row(1, 2, 3), text("5"), 1.0)
    data = np.arange(1.0, 11.0).reshape(1, -1)
    close(call("histcounts", data, text("NumBins"), 2.0), call("histcounts", data, 2.0))
    close(call("histcounts", data, text("BinEdges"), row(0, 5, 10)), row(4, 6))
