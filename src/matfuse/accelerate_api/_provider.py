"""The provider protocol.

A provider subclasses :class:`AccelProvider`. The memory hooks (``upload``,
``download``, ``free``) and the info hooks are required. Every other hook is
optional: the base implementation raises :class:`Unsupported`, the caller
counts a fallback and runs the host path. Conventions for all hooks:

* Tensors are :class:`GpuTensorHandle`; their ``dtype`` gives the element
  type. Scalars may be passed as Python ``float``/``complex`` (uniforms).
* Shapes are MATLAB shapes; data is column-major.
* Elementwise binary hooks apply MATLAB implicit expansion; shape errors are
  the caller's job (checked before the call).
* A hook returns new handles; it never frees its inputs.
* A hook that allocated buffers and then fails frees them before raising.
"""

from __future__ import annotations

from typing import Any, Sequence

from matfuse.accelerate_api._types import (
    DeviceInfo,
    GpuTensorHandle,
    HostTensor,
    ProviderCapabilities,
    Unsupported,
)

Scalar = float | complex
Operand = GpuTensorHandle | Scalar


class AccelProvider:
    """Base class of every acceleration provider."""

    #: short name used by options and ``matfuse info`` (``inprocess``, ``wgpu``, ``cuda``)
    name: str = "abstract"

    #: what this provider can do (the acceleration layer never branches on ``name``)
    capabilities: ProviderCapabilities = ProviderCapabilities()

    #: how many times ``reset()`` has freed every buffer: gpuArrays made in an
    #: earlier epoch are stale (MATLAB's "data no longer exists")
    epoch: int = 0

    @property
    def f32_division_via_f64(self) -> bool:
        """Whether generated kernels should compute f32 quotients as the f64
        quotient rounded once (IEEE-exact, as MATLAB's): for a language whose
        f32 division may be inexact (WGSL allows 2.5 ulp) on a device with
        f64 support."""
        return False

    # ------------------------------------------------------------ memory (required)
    def upload(self, host: HostTensor) -> GpuTensorHandle:
        """Copy host data to a new device buffer.

        Args:
            host: data in column-major order with its shape and class.
        Returns:
            A handle whose dtype matches ``host.data.dtype``.
        """
        raise NotImplementedError

    def download(self, handle: GpuTensorHandle) -> HostTensor:
        """Copy a device tensor to the host (synchronising pending work)."""
        raise NotImplementedError

    def free(self, handle: GpuTensorHandle) -> None:
        """Release the buffer behind ``handle``; freeing twice is a no-op."""
        raise NotImplementedError

    def device_info(self) -> str:
        """One line naming the device, e.g. ``"NVIDIA H200 via Vulkan"``."""
        raise NotImplementedError

    def device_info_struct(self) -> DeviceInfo:
        """Structured device information (for ``gpuDevice``)."""
        raise NotImplementedError

    def device_count(self) -> int:
        """Devices this provider can run on in this process (``gpuDeviceCount``;
        ``gpuDevice(k)`` restarts it on device k). One unless the provider
        can select among several devices."""
        return 1

    # ------------------------------------------------------------ lifecycle
    def synchronize(self) -> None:
        """Wait until all submitted work has finished (``wait(gpuDevice)``)."""

    def flush(self) -> None:
        """Start the device on work recorded so far without waiting for it.

        Providers that batch dispatches into one submit (wgpu) submit the
        batch; the others already run each launch as it is issued.
        """

    def live_buffers(self) -> int:
        """Number of buffers currently allocated (leak checks in tests)."""
        raise Unsupported("live_buffers")

    def reset(self) -> None:
        """Free every buffer (``reset(gpuDevice)``); old handles become invalid."""
        raise Unsupported("reset")

    # ------------------------------------------------------------ construction
    def fill(self, shape: tuple[int, ...], value: Scalar, dtype: str) -> GpuTensorHandle:
        """A tensor of ``shape`` with every element ``value`` (zeros/ones/nan/inf/true/false)."""
        raise Unsupported("fill")

    def eye(self, shape: tuple[int, ...], dtype: str) -> GpuTensorHandle:
        """Identity: ones on the main diagonal of every page."""
        raise Unsupported("eye")

    def linspace(self, start: float, stop: float, n: int, dtype: str) -> GpuTensorHandle:
        """1 x n row, MATLAB's ``linspace`` formula (endpoints exact)."""
        raise Unsupported("linspace")

    def colon(self, start: float, step: float, n: int, dtype: str) -> GpuTensorHandle:
        """1 x n row ``start + k*step``, k = 0..n-1."""
        raise Unsupported("colon")

    def random_uniform(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                       counter: int) -> GpuTensorHandle:
        """Uniform (0,1) from Philox4x32-10 with ``key``, starting at block
        ``counter``; elements in column-major order. The stream layout (2
        doubles or 4 singles per block) is ``matfuse.runtime._philox``'s."""
        raise Unsupported("random_uniform")

    def random_normal(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                      counter: int) -> GpuTensorHandle:
        """Standard normal from the same Philox stream (Box-Muller on pairs,
        ``matfuse.runtime._philox.philox_normal``)."""
        raise Unsupported("random_normal")

    def random_twister(self, kind: str, shape: tuple[int, ...], dtype: str,
                       state: GpuTensorHandle, pos: int,
                       limits: tuple[float, float] = (1.0, 1.0)) -> GpuTensorHandle:
        """Values continuing the host's MT19937 stream: ``kind`` is
        ``'uniform'``, ``'normal'`` or ``'randi'`` (integers in ``limits``),
        drawn from the state whose 624 words are the uint32 tensor ``state``
        at position ``pos``; ``state`` is advanced in place (the caller
        tracks the position). Values and word consumption are
        ``matfuse.runtime._mt19937``'s; elements in column-major order."""
        raise Unsupported("random_twister")

    # ------------------------------------------------------------ elementwise
    def elem_binary(self, op: str, a: Operand, b: Operand, out_dtype: str) -> GpuTensorHandle:
        """Elementwise binary op with implicit expansion.

        Args:
            op: ``plus minus times rdivide ldivide power eq ne lt le gt ge and
                or xor atan2 hypot max min mod rem``.
            a, b: handles or scalars (at least one handle).
            out_dtype: result dtype (class rules already applied by the caller;
                integer results saturate, ``power`` with a negative base and
                non-integer exponent is the caller's complex-promotion job).
        """
        raise Unsupported("elem_binary")

    def elem_unary(self, op: str, a: GpuTensorHandle, out_dtype: str) -> GpuTensorHandle:
        """Elementwise unary op: ``uminus not abs sign sqrt exp expm1 log log2
        log10 log1p sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh
        floor ceil round fix isnan isinf isfinite real imag conj gamma erf ...``.
        Domain-dependent complex results are the caller's job."""
        raise Unsupported("elem_unary")

    def cast(self, a: GpuTensorHandle, dtype: str) -> GpuTensorHandle:
        """Convert to ``dtype`` with MATLAB rules (round half away, saturate)."""
        raise Unsupported("cast")

    # ------------------------------------------------------------ reductions, scans
    def reduce(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
               omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        """Reduce over 0-based ``dims`` (None: all elements, result 1x1).

        ``op``: ``sum prod mean min max any all nnz``. Reduced dims keep
        length 1 (MATLAB), unless ``dims`` is None.
        """
        raise Unsupported("reduce")

    def reduce_with_index(self, op: str, a: GpuTensorHandle, dim: int,
                          omitnan: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """``[m, i] = max/min(a, [], dim+1)``; indices 1-based float64, first occurrence."""
        raise Unsupported("reduce_with_index")

    def moments(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
                weight: int, omitnan: bool) -> GpuTensorHandle:
        """``std``/``var`` with normalisation ``weight`` (0: N-1, 1: N)."""
        raise Unsupported("moments")

    def scan(self, op: str, a: GpuTensorHandle, dim: int, reverse: bool) -> GpuTensorHandle:
        """Cumulative ``cumsum cumprod cummax cummin`` along 0-based ``dim``.

        MATLAB defaults: ``cumsum``/``cumprod`` propagate NaN; ``cummax``/
        ``cummin`` skip NaN (a leading NaN stays NaN until the first number).
        ``reverse`` scans from the end (``'reverse'``)."""
        raise Unsupported("scan")

    # ------------------------------------------------------------ linear algebra
    def matmul(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        """Matrix product of 2-D tensors (inner dims already checked)."""
        raise Unsupported("matmul")

    def permute(self, a: GpuTensorHandle, order: Sequence[int]) -> GpuTensorHandle:
        """General permutation (0-based ``order``); transpose is ``(1, 0)``."""
        raise Unsupported("permute")

    def triangular(self, a: GpuTensorHandle, k: int, upper: bool) -> GpuTensorHandle:
        """``triu(a, k)`` when ``upper`` else ``tril(a, k)``."""
        raise Unsupported("triangular")

    def diag(self, a: GpuTensorHandle, k: int) -> GpuTensorHandle:
        """MATLAB ``diag``: vector -> matrix, matrix -> column of the k-th diagonal."""
        raise Unsupported("diag")

    def solve(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        """``a \\ b``."""
        raise Unsupported("solve")

    def lu_solve(self, a: GpuTensorHandle,
                 b: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """``a \\ b`` for square ``a`` by LU with partial pivoting (LAPACK's
        ``getrf``/``getrs`` order of pivots), and a 1x1 float64 tensor that is
        1 when some pivot is exactly zero (singular to working precision; the
        solution then holds Inf/NaN) and 0 otherwise. ``a`` and ``b`` are real
        float tensors of one dtype; the caller checks shapes and finiteness
        and decides MATLAB's warnings."""
        raise Unsupported("lu_solve")

    def svd(self, a: GpuTensorHandle, vectors: str) -> tuple[GpuTensorHandle, ...]:
        """Singular value decomposition of a finite 2-D float matrix (real or
        complex; the caller checks finiteness and shape), ``k = min(m, n)``.

        Args:
            vectors: ``'none'`` -> ``(s,)``; ``'econ'`` -> ``(U, s, V)`` with
                U m x k, V n x k; ``'full'`` -> ``(U, s, V)`` with U m x m,
                V n x n (orthonormal completions).
        ``s`` is a k x 1 real column of ``a``'s precision, non-negative and
        descending; ``A = U(:, 1:k) * diag(s) * V(:, 1:k)'``. The signs of
        singular vector pairs are free."""
        raise Unsupported("svd")

    def qr(self, a: GpuTensorHandle, econ: bool, want_q: bool,
           pivot: bool) -> tuple[GpuTensorHandle, ...]:
        """Householder QR (LAPACK's ``geqrf``/``orgqr``; ``geqp3`` column
        pivoting when ``pivot``) of a 2-D float matrix, ``k = min(m, n)``.

        Returns ``(Q, R)``, or ``(R,)`` without ``want_q``, then the pivot
        order (a 1 x n float64 row of 1-based columns, ``A(:, e) = Q*R``)
        when ``pivot``. ``econ``: Q m x k and R k x n; else Q m x m and R
        m x n. R is upper triangular with LAPACK's signs (its diagonal may
        be negative)."""
        raise Unsupported("qr")

    def lu_factor(self, a: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """LU with partial pivoting of a 2-D float matrix (LAPACK's ``getrf``:
        the pivot is the first row of largest magnitude; a zero column skips
        the division). Returns the packed factors (m x n: U on and above the
        diagonal, L's multipliers below it, L's unit diagonal implied) and
        the row order (a 1 x m float64 row of 1-based rows: ``A(p, :) =
        L*U``)."""
        raise Unsupported("lu_factor")

    # ------------------------------------------------------------ indexing, scatter
    def range_positions(self, axes: Sequence[tuple[int, int, int, int]], base: int,
                        shape: tuple[int, ...]) -> GpuTensorHandle:
        """int32 positions of an N-D range selection, one kernel, nothing
        uploaded: element ``k`` of a tensor of ``shape`` (column-major) is
        ``base + sum_d v_d(k_d)``, where ``k_d`` is k's subscript along
        dimension d and, for ``axes[d] = (first, step, modulus, scale)``,
        ``v_d(j) = first + j*step``, or ``((first + j*step) mod modulus) *
        scale`` when ``modulus > 0`` (circshift, repmat). ``len(axes) ==
        len(shape)``; the caller guarantees every position fits int32."""
        raise Unsupported("range_positions")

    def index_gather(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                     out_shape: tuple[int, ...]) -> GpuTensorHandle:
        """``out[k] = a[linear_index[k]]`` (0-based int index, validated by the caller)."""
        raise Unsupported("index_gather")

    def index_scatter(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                      values: Operand) -> GpuTensorHandle:
        """A copy of ``a`` with ``a[linear_index[k]] = values[k]`` (or a scalar)."""
        raise Unsupported("index_scatter")

    def index_scatter_inplace(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                              values: Operand) -> None:
        """Like ``index_scatter`` but writes into ``a`` itself. Called only
        when the caller knows no other value shares ``a`` (loop updates)."""
        raise Unsupported("index_scatter_inplace")

    def accumulate(self, op: str, index: GpuTensorHandle, values: GpuTensorHandle,
                   shape: tuple[int, ...], fill: float) -> GpuTensorHandle:
        """``accumarray``'s combine step: a tensor of ``shape`` whose element
        ``k`` combines every ``values[i]`` with ``index[i] == k``.

        Args:
            op: ``sum``, ``max`` or ``min`` (max/min ignore NaN, as ``fmax``).
            index: 0-based column-major positions (float64 holding whole
                numbers in ``[0, prod(shape))``, validated by the caller).
            values: float64, one per index element.
            fill: the value of positions no index names.
        ``sum`` adds each position's values to 0 in index order where the
        provider can (in-process, wgpu: bitwise the host result); a provider
        using atomics adds them in any order, within ``(n_k - 1) * eps *
        sum(|v|)`` of it for a position of ``n_k`` values.
        """
        raise Unsupported("accumulate")

    def find(self, a: GpuTensorHandle) -> GpuTensorHandle:
        """1-based linear indices of nonzeros, as a column (prefix-scan compaction)."""
        raise Unsupported("find")

    def reshape(self, a: GpuTensorHandle, shape: tuple[int, ...]) -> GpuTensorHandle:
        """A copy of ``a`` holding the same column-major elements in ``shape``
        (same number of elements, checked by the caller): ``x(:)``,
        ``reshape`` without an index upload."""
        raise Unsupported("reshape")

    def concat(self, parts: Sequence[GpuTensorHandle], dim: int) -> GpuTensorHandle:
        """Concatenate along 0-based ``dim`` (shapes checked by the caller)."""
        raise Unsupported("concat")

    # ------------------------------------------------------------ signal, polynomial, sort
    def conv1d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        """``conv(a, b, mode)`` for vectors; mode ``full same valid``."""
        raise Unsupported("conv1d")

    def conv2d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        raise Unsupported("conv2d")

    def filter(self, b: GpuTensorHandle, a: GpuTensorHandle, x: GpuTensorHandle,
               dim: int) -> GpuTensorHandle:
        raise Unsupported("filter")

    def fft(self, a: GpuTensorHandle, n: int | None, dim: int, inverse: bool) -> GpuTensorHandle:
        raise Unsupported("fft")

    def histogram(self, x: GpuTensorHandle, edges: GpuTensorHandle) -> GpuTensorHandle:
        """``histcounts(x, edges)``: counts of the real float ``x`` in the bins
        ``[e(k), e(k+1))`` of the nondecreasing float64 ``edges`` (the last
        bin closed; NaN and values outside ignored), a 1 x (numel(edges)-1)
        float64 row."""
        raise Unsupported("histogram")

    def polyval(self, p: GpuTensorHandle, x: GpuTensorHandle) -> GpuTensorHandle:
        raise Unsupported("polyval")

    def sort(self, a: GpuTensorHandle, dim: int,
             descending: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """Stable sort along 0-based ``dim``; returns values and 1-based indices."""
        raise Unsupported("sort")

    # ------------------------------------------------------------ fused kernels
    def fused_elementwise(self, kernel: Any, inputs: Sequence[GpuTensorHandle],
                          scalars: Sequence[Scalar],
                          outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        """Run a generated elementwise kernel.

        Args:
            kernel: a backend-rendered kernel object from the fusion engine
                (carries its source and a cache key).
            inputs: tensors bound in order.
            scalars: uniform values in order.
            outputs: (shape, dtype) of each output, written in one dispatch.
        """
        raise Unsupported("fused_elementwise")

    def fused_reduction(self, kernel: Any, inputs: Sequence[GpuTensorHandle],
                        scalars: Sequence[Scalar],
                        outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        """Run a generated reduction kernel (prologue/epilogue fused)."""
        raise Unsupported("fused_reduction")

    # ------------------------------------------------------------ telemetry
    def telemetry(self) -> dict[str, Any]:
        """Counters: dispatches, submits, uploads/downloads (count, bytes),
        pipeline cache hits/misses, per-op counts and times."""
        return {}

    def reset_telemetry(self) -> None:
        """Zero the counters returned by ``telemetry``."""
