"""Forms of builtins that real scripts use stay on the device: each snippet
runs on host data and on gpuArrays; the results must agree in class, size
and values, and the device run must make no host fallback."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.registry import load_all

SETUP = ("X = reshape(cos(1:24), 2, 3, 4); X(1, 2, 3) = NaN; "
         "M = reshape(sin(1:30), 5, 6); I = int32(reshape(1:12, 3, 4)); p = single(1);")
SNIPPETS = [
    "r = sum(X, [1 3]);", "r = mean(X, [2 3], 'omitnan');", "r = max(M, [], 'all');",
    "r = min(M, [], [1 2]);", "r = sum(single(M), 'all', 'double');", "r = mean(X, 'all');",
    "r = sum(I);", "r = mean(I, 'native');", "r = prod(M, 2);", "r = any(M > 0.5, 'all');",
    "r = zeros([2 3], 'like', G(p));", "r = eye(3, 'like', G(p));", "r = nan(1, 2, 'like', G(p));",
    "r = cast([1.5 2.5], 'like', G(p));", "r = ones(size(M), 'like', G(M));",
    "[r, k] = max(M, [], 2); r = [r k];", "[r, k] = min(M); r = [r; k];",
    "r = nnz(M > 0);", "r = trace(M(1:5, 1:5));", "r = kron(M(1:2, 1:2), M(1:2, 1:3));",
    "[r, k] = maxk(M(:), 4); r = [r k];", "r = mink(M, 2, 2);", "r = median(M);",
    "r = median(M, 2);", "r = normalize(M);", "r = normalize(M, 'range');",
    "r = idivide(I, int32(4)); r = [r idivide(I, int32(4), 'floor')];",
    "r = var(X, 0, [1 2], 'omitnan');", "r = std(M, 1, 2);", "r = std(X, 0, 'all', 'omitnan');",
    "r = M * p + single(2);", "r = p .* M - 0.5;",
    "r = M; r(end+1, :) = 1:6;", "r = M; r(:, 2) = [];", "r = M; r(7, 8) = 3;",
    "r = M; r([1 3], :) = [];",
    "r = median(X, 3, 'omitnan');", "r = median(X, 1, 'omitnan');",
    "r = median([M; NaN(1, 6)], 'omitnan');", "r = median(X, 2, 'includenan');",
    "r = bsxfun(@minus, M, mean(M, 1));", "r = bsxfun(@rdivide, X, max(X, [], 3));",
    "r = bsxfun(@(a, b) a .* b + 1, M, (1:5)');", "r = bsxfun(@gt, M, M(1, :));",
    "r = X(2, :, end:-1:1);", "r = M(2:end-1, [6 1 3]);", "r = M; r(2:4, 1:2:end) = 0;",
    "r = M; r(end, :) = M(1, :);", "r = M(:, end)';",
    "[a, b] = meshgrid(M(1, :), M(2:4, 1)); r = [a; b];", "[a, b, c] = meshgrid(M(1, 1:2)); r = [a(:) b(:) c(:)];",
    "[a, b] = ndgrid(M(1:3, 1), M(1, 1:2)); r = [a b];", "r = ndgrid(M(1, :));",
    "r = circshift(X, [1 -2 5]);", "r = repmat(M(1:2, :), 2, 1, 2);", "r = fliplr(M) + flipud(M);",
    "r = M; r(r > 0.5) = 0;", "r = M(M > 0);", "r = X; r(isnan(r)) = -1;",
    # concatenation of mixed classes: MATLAB's result class, parts cast on the device
    "r = [single(M(1, :)), 1];", "r = [M(1, :), true, 2];", "r = [I; M(1:3, 1:4)];",
    "r = [single(M(1:3, 1:4)); I; uint8(7) * ones(1, 4)];", "r = [int8(M(1, :) * 200), 1000.6];",
    # scans: direction and nanflag
    "r = cumsum(M, 2, 'reverse');", "r = cumprod(X, 3, 'reverse');", "r = cummax(X, 2, 'reverse');",
    "r = cumsum(X, 'omitnan');", "r = cumprod(X, 3, 'reverse', 'omitnan');",
    "r = cummin(X, 3, 'includenan');", "r = cummax(single(X), 'reverse', 'includenan');",
    # [m, i] = max/min over 'all' or a vecdim of every non-singleton dimension
    "[r, k] = max(X, [], 'all'); r = [r k];", "[r, k] = min(M, [], [1 2]); r = [r k];",
    "[r, k] = max(X, [], 'all', 'includenan'); r = [r k];", "[r, k] = min(I, [], 'all'); r = [double(r) k];",
    "[r, k] = max(M(2, :), [], [2 3]); r = [r k];",
    # metadata, casts and diagonals
    "r = uplus(M) + uplus(M > 0);", "r = iscomplex(M) + iscomplex(M + 1i);", "r = logical(M);",
    "r = logical(single(M > 0.5));", "r = diag(M);", "r = diag(M, 2) + 1;", "r = diag(M', -3);",
    "r = diag(M(:, 1));", "r = diag(M(1, :), -2);", "r = diag(I(1, :), 1);", "r = diag(M, 9);",
    "r = blkdiag(M, M(1:2, 1:3), 5);", "r = blkdiag(I, 2.5, -300);", "r = blkdiag(M > 0, true, []);",
    # set membership and unique values (NaNs stay distinct)
    "r = unique(round(M * 3));", "r = unique(round(M(1, :) * 3));", "r = unique([X(:); NaN; 0; -0]);",
    "[u, ia, ic] = unique(round(M * 3)); r = [ia; ic];",
    "[u, ia, ic] = unique(round(M(:)' * 2), 'stable'); r = [u ia' ic'];",
    "[u, ia, ic] = unique(I - mod(I, 3)); r = [double(u); ia; ic];", "r = unique(M > 0);",
    "r = ismember(round(M * 3), [0 1 2]);", "[t, k] = ismember(round(M * 3), round(M(:, 2) * 3)); r = [t k];",
    "[t, k] = ismember(X, [X(:); 0]); r = [t(:) k(:)];", "[t, k] = ismember(I, int32([5 -3 7 5])); r = [t k];",
    "[t, k] = ismember(single(round(M)), round(M)); r = [t k];",
    # complex exp, log and sqrt (C99's special cases: a zero imaginary part, its sign)
    "r = exp(1i * M) + exp(M + 2i * M);", "r = log(M - 1i * M);", "r = sqrt(M - 2i * M);",
    "r = sqrt(complex(-M, -0 * M)) + sqrt(complex(-M, 0 * M));", "r = exp(complex(M * 1000, 0 * M));",
    "r = exp(single(M) * 1i);", "r = log(single(M) + 2i);",
    # numeric subscripts computed on the device stay there (one validity check read back)
    "[s, k] = sort(M(:)); r = M(k);", "[s, k] = sort(M(1, :)); r = M(1, k);",
    "k = round(M * 2) + 3; r = M(k);", "r = M; r(find(M(:) > 0.5)) = 0;",
    "r = M; [s, k] = sort(M(:)); r(k) = 1:30;", "r = I; r(int32([3 1 3])) = int32([7 8 9]);",
    "r = M(single([2 2 5]));", "r = M(1, :); k = M(1, 1:3) * 0 + 9; r(k) = 1;",
    # find's forms
    "r = find(M > 0, 3);", "r = find(M(1, :) > 0, 2, 'last');", "[i, j] = find(M > 0.5); r = [i j];",
    "[i, j, r] = find(M .* (M > 0)); r = [i j r];", "[i, j] = find(X > 0); r = [i j];",
    "[i, j, r] = find(M(1, :) > 0.3); r = [i; j; double(r)];", "r = find(M > 0, 100);",
    # N-D concatenation
    "r = cat(3, M, M * 2);", "r = cat(2, X, X(:, 1, :));", "r = cat(4, M, M, []);",
    "r = cat(3, single(M), 1 + 0 * M);", "r = [X, X; X, X];", "r = [X; 2 * X];",
    # scans of integers (no step saturates) and of logicals (double results)
    "r = cumsum(I, 2);", "r = cumprod(int8(I(1:2, 1:2)));", "r = cummax(I, 2, 'reverse');",
    "r = cumsum(M > 0);",
    # round to decimals (the overflow of the scaled value keeps x)
    "r = round(M * 100, 2);", "r = round(M * 1000, -1);", "r = round(single(M) * 7, 3);",
    "r = round([M(:); 1.7e308; -Inf; NaN], 5);", "r = round(I, -1);", "r = round(M, 2, 'decimals');",
    # histcounts normalizations
    "r = histcounts(M, 10, 'Normalization', 'probability');",
    "r = histcounts(M, [-1 0 0.5 1], 'Normalization', 'pdf');", "r = histcounts(X, 'Normalization', 'cdf');",
    "r = histcounts(M, 4, 'Normalization', 'countdensity');", "r = histcounts(M, 4, 'normalization', 'cumcount');",
    # layout without host-made positions: squeeze, permute, rot90, triu/tril, diag
    "r = squeeze(sum(X, 1));", "r = squeeze(X(1, 1, :));", "r = permute(X, [3 1 2]);",
    "r = ipermute(X, [3 1 2]);", "r = rot90(M) + rot90(M, -1);", "r = rot90(M, 2);",
    "r = triu(M, 1) + tril(M, -1);", "r = triu(I);",
    # moving windows: range reads of the padded data folded in one kernel
    "r = movmax(X, 3);", "r = movmax(X, 3, 'includenan');", "r = movmin(M, [2 0], 2);",
    "r = movmax(M(1, :), 4, 'Endpoints', 'discard');", "r = movmin(X, 3, 'Endpoints', 'fill');",
    "r = movmax(M, 3, 'Endpoints', 0.5);", "r = movprod(M, 3);", "r = movprod(X, 3, 'omitnan');",
    "r = movstd(M, 3);", "r = movstd(X, 4, 1, 2);", "r = movvar(X, 3, 0, 'omitnan');",
    "r = movvar(M(:, 1), [1 2], 'Endpoints', 'discard');", "r = movstd(M, 3, 'Endpoints', 2);",
    "r = movmax(single(M), 3);", "r = movstd(X, 3, 0, 3);",
    # colon with device endpoints, integer sorts, dot/cross/nthroot/repelem
    "n = sum(M(1, 1:2) * 0) + 5; r = 1:n;", "n = G(5); r = n:-2:1;", "r = colon(G(2), 2, 11);",
    "r = sort(I);", "[s, r] = sort(int8(I), 2, 'descend'); r = [double(s) r];", "r = sort(M > 0.3);",
    "r = dot(M(1, :), M(2, :)');", "r = dot(M, M, 2);", "r = cross(M(1:3, :), M(2:4, :));",
    "r = cross(M(1, 1:3), M(2, 1:3));", "r = nthroot(M, 3) + nthroot(-27 + M * 0, 3);",
    "r = nthroot(single(M) + 2, 4);", "r = repelem(M(1, :), 3);", "r = repelem(M, 2, 3);",
    # complex products, integer powers, running sums and products
    "z = M + 1i * M(:, end:-1:1); r = z * z';", "r = M' * (M + 2i);", "z = M + 1i * M; r = z .^ 2;",
    "z = M + 1i * M; r = z .^ -3 + z .^ 7;", "z = M + 1i * M; r = cumsum(z, 2, 'reverse');",
    "z = M + 1i * M; r = prod(z) + sum(prod(z, 2));",
    # empties (results from the sizes), sortrows on trusted positions, filter2
    "r = any(M(:, []), 1);", "r = all(M(:, []));", "r = sum(M([], :)) + prod(M([], :));",
    "r = cumsum(M([], :));", "r = sortrows(round(M * 3), [2 -1]);", "[s, r] = sortrows(X(:, :, 1));",
    "r = filter2([1 2; 3 4], M);", "r = filter2([1 2 1] / 4, M, 'valid');",
    # native integer sums and products that saturate at no step
    "r = sum(I, 'native');", "r = sum(I, 2, 'native');", "r = sum(int8(I), 'all', 'native');",
    "r = prod(int16(I(1:2, 1:2)), 'native');",
]


def _run(code: str, on_device: bool) -> tuple[str, tuple, np.ndarray]:
    s = Session(stdout=io.StringIO())
    wrap = "G = @(v) gpuArray(v);" if on_device else "G = @(v) v;"
    prep = "X = G(X); M = G(M); I = G(I);" if on_device else ""
    s.eval(SETUP + wrap + prep)
    reset_fallback_counts()
    s.eval(code + " cls = class(gather(r)); r = gather(r);")
    r = np.asarray(s.get("r"))
    return s.get("cls"), r.shape, r


@pytest.mark.parametrize("code", SNIPPETS)
def test_form_stays_on_device(device, code):
    load_all()
    want_cls, want_shape, want = _run(code, False)
    got_cls, got_shape, got = _run(code, True)
    assert fallback_counts() == {}, fallback_counts()
    assert (got_cls, got_shape) == (want_cls, want_shape)
    rtol = 1e-5 if want_cls == "single" else 1e-12
    as_number = np.complex128 if np.iscomplexobj(want) or np.iscomplexobj(got) else np.float64
    np.testing.assert_allclose(got.astype(as_number), want.astype(as_number),
                               rtol=rtol, atol=1e-12, equal_nan=True)
