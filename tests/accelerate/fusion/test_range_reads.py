"""Fused reads of ranges: slices (``U(2:end-1, 2:end-1)``), ``circshift``,
``flip`` and ``repmat`` of gpuArrays become ``range_gather`` nodes that fuse
into their consumer's kernel. Each program's result has the in-process
provider's class and size, and its values within a few ulps (the reads
copy; the arithmetic around them may contract to FMAs on CUDA), and
stencils take one kernel per step on wgpu (lavapipe in CI)."""

from __future__ import annotations

import pytest

import numpy as np

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import fake_cuda  # noqa: F401 (fixture)
from tests.accelerate.fusion.scripts import run_script

SETUP = ("U = gpuArray(reshape(sin(1:42), 6, 7)); X = gpuArray(reshape(cos(1:60), 3, 4, 5)); "
         "S = gpuArray(single(reshape(1:20, 4, 5) / 3)); L = gpuArray(reshape(mod(1:12, 3) == 0, 3, 4)); "
         "v = gpuArray((1:9) / 4); ")

PROGRAMS = [
    "r = U(2:end-1, 2:end-1) + 0.2 * (U(1:end-2, 2:end-1) + U(3:end, 2:end-1) - 2 * U(2:end-1, 2:end-1));",
    "r = circshift(U, 1, 1) + circshift(U, -1, 2) - 2 * circshift(U, [2 3]);",
    "r = circshift(U, 4) .* flip(U, 2) + fliplr(U) - flipud(U);",
    "r = repmat(U, 2, 3) * 2 + 1;",
    "r = repmat(v, 3, 1) - v(end:-1:1);",
    "r = v(2:2:end) + v(1:2:end-1);",
    "r = X(:, 2, :) + X(:, end, :) .* X(2, :, :);",
    "r = squeeze(sum(X(2:3, 1:3, 2:4), 3));",
    "r = S(2:3, :) * 3 - circshift(S(1:2, :), 1, 2);",
    "r = L(:, 2:3) & ~flip(L(:, 1:2), 2);",
    "r = sum(U(:, 2:end) - U(:, 1:end-1), 'all');",
    "r = U(2:end, :); r = r(1:2:end, :) + 1;",
    "r = max(U(1:3, :), [], 2) + min(circshift(U(1:3, :), 2, 2), [], 2);",
    "r = U(4, 2:5) + U(2:5, 4)';",
]


def _assert_same_result(text: str, reference: str) -> None:
    """Class and size lines equal; values within 8 ulps of the class, or
    of the inputs' magnitude (up to 20) where a difference cancels."""
    got, want = text.splitlines(), reference.splitlines()
    assert got[:2] == want[:2]
    eps = 2.0 ** -23 if want[0].strip() == "single" else 2.0 ** -52
    np.testing.assert_allclose(np.array(got[2].split(), dtype=float),
                               np.array(want[2].split(), dtype=float), rtol=8 * eps, atol=8 * 32 * eps)


def _assert_close(text: str, reference: str) -> None:
    np.testing.assert_allclose(np.array(text.split(), dtype=float),
                               np.array(reference.split(), dtype=float), rtol=1e-13)


@pytest.mark.parametrize("program", PROGRAMS)
def test_fused_range_read_matches_host(accel_provider, inprocess_provider, program):
    """Every provider under test (CUDA too on a GPU machine) against the
    in-process oracle."""
    code = SETUP + program + " disp(classUnderlying(r)); disp(size(r)); fprintf('%.17g ', gather(r)); fprintf('\\n');"
    text, _, _ = run_script(accel_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    _assert_same_result(text, reference)


def test_circshift_stencil_is_one_kernel_per_step(wgpu_provider, inprocess_provider):
    code = ("n = 32; U = zeros(n, 'gpuArray'); U(n/2, n/2) = 100; "
            "for t = 1:6, U = U + 0.1 * (circshift(U, 1, 1) + circshift(U, -1, 1) "
            "+ circshift(U, 1, 2) + circshift(U, -1, 2) - 4*U); end; "
            "fprintf('%.15g\\n', gather(sum(U(:))), gather(max(U(:))));")
    text, tel, stats = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    _assert_close(text, reference)
    # zeros and the scatter of U(n/2, n/2) (4 dispatches), one kernel per
    # step (6), and sum and max (up to two passes each, reshapes of U(:))
    assert tel["dispatches"] <= 4 + 6 + 6
    assert tel["uploads"] == 0


def test_slice_stencil_reads_fuse(wgpu_provider, inprocess_provider):
    code = ("n = 24; U = zeros(n, 'gpuArray'); U(10:14, 10:14) = 1; "
            "for t = 1:4, U(2:end-1, 2:end-1) = U(2:end-1, 2:end-1) + 0.2 * (U(1:end-2, 2:end-1) "
            "+ U(3:end, 2:end-1) + U(2:end-1, 1:end-2) + U(2:end-1, 3:end) - 4*U(2:end-1, 2:end-1)); end; "
            "fprintf('%.15g\\n', gather(sum(U(:))));")
    text, tel, stats = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    _assert_close(text, reference)
    # per step: one fused kernel for the right-hand side and the scatter's
    # passes; the six shifted reads add no kernel of their own
    assert stats.get("kernels", 0) >= 4
    assert tel["ops"].get("index_gather", 0) == 0


@pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")
@pytest.mark.parametrize("program", PROGRAMS)
def test_fused_range_read_matches_host_cuda_fake(fake_cuda, inprocess_provider, program):
    """The same programs through the CUDA renderer, compiled for the CPU
    over the NumPy-backed fake CuPy."""
    code = SETUP + program + " disp(classUnderlying(r)); disp(size(r)); fprintf('%.17g ', gather(r)); fprintf('\\n');"
    text, _, _ = run_script(fake_cuda, code)
    reference, _, _ = run_script(inprocess_provider, code)
    _assert_same_result(text, reference)


def test_column_read_in_a_loop_keeps_one_kernel(wgpu_provider, inprocess_provider):
    """``A(:, k)`` for k = 1..n differ only in their base offset, a kernel
    uniform: the loop renders its kernels once, not once per column."""
    code = ("A = gpuArray(reshape(sin(1:400), 8, 50)); s = zeros(8, 1, 'gpuArray'); "
            "for k = 1:50, s = s + A(:, k) .* k; t = gather(s(1)); end; "
            "fprintf('%.17g ', gather(s)); fprintf('\\n');")
    text, _, stats = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    _assert_close(text, reference)
    assert stats["render_cache_misses"] <= 4
