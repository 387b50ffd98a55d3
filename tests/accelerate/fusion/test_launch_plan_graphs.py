"""Launch plans replayed on graphs beyond the workloads: random graphs
(structure and uniforms drawn separately), loop nodes and their siblings,
and the CUDA renderer's templates (CUDA C run on the CPU by g++)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.executor import STATS, DomainFallback, FusionExecutor
from tests.accelerate.fusion.test_launch_plan import _download


# ------------------------------------------------------------ CUDA renderer (on the host)
def test_cuda_renderer_replays_match_host_eval():
    """The CUDA renderer's templates replayed (CUDA C run on the CPU with
    g++, ``tests/accelerate/cuda_host.py``): partial pass + final pass with
    new uniforms and a new random counter, same kernels, right values."""
    from matfuse.accelerate.fusion.host_eval import evaluate
    from matfuse.accelerate.fusion.render_cuda import CudaRenderer
    from matfuse.runtime.values import to_array
    from tests.accelerate import cuda_host

    if not cuda_host.gxx_available():
        pytest.skip("g++ not on PATH")
    provider = cuda_host.HostCudaProvider()
    executor = FusionExecutor(provider, CudaRenderer())
    for k, (start, c, counter) in enumerate([(0.0, 1.0, 0), (0.5, 1.5, 4096)]):
        x = g.linspace_node(start, 3.0, 2000, "f64")
        r = g.random_node("rand", (1, 2000), "f64", (5, 6), counter)
        prod = g.binary_node("mul", x, g.binary_node("add", r, g.scalar_node(c, "f64")))
        root = g.reduce_node("sum", g.unary_node("exp", prod), None)
        want = to_array(evaluate(root, lambda h: provider.download(h).to_array()))
        hits, kernels = STATS.launch_plan_hits, STATS.kernels
        got = provider.download(executor.materialize(root)).to_array()
        np.testing.assert_allclose(got, want, rtol=1e-12)
        assert STATS.launch_plan_hits - hits == k and STATS.kernels - kernels == 2


# ------------------------------------------------------------ random graphs
_UNARY = ("exp", "abs", "sin", "neg", "sqrt", "tanh")
_BINARY = ("add", "mul", "sub", "max", "div")


def _random_graph(rng: np.random.Generator, uniforms: np.random.Generator, provider,
                  inputs: list) -> tuple[g.FNode, list[g.FNode]]:
    """A random graph over broadcasting shapes (8x300, 8x1, 1x300), with
    reductions (prologues, epilogues, separate kernels) and kept nodes. The
    structure comes from ``rng``, uniform values from ``uniforms``."""
    shapes = [(8, 300), (8, 1), (1, 300)]

    def leaf() -> g.FNode:
        kind = rng.integers(4)
        if kind == 0:
            return g.linspace_node(uniforms.uniform(-1, 1), uniforms.uniform(1, 2), 300, "f64")
        if kind == 1:
            return g.random_node("rand", shapes[rng.integers(3)], "f64", (3, 4),
                                 int(uniforms.integers(1 << 20)))
        if kind == 2:
            return g.fill_node(shapes[rng.integers(3)], uniforms.uniform(0.5, 2), "f64")
        return inputs[rng.integers(len(inputs))]

    pool = [leaf() for _ in range(3)]
    kept = []
    for _ in range(int(rng.integers(4, 9))):
        choice = rng.integers(10)
        a = pool[rng.integers(len(pool))]
        if choice < 3:
            node = g.unary_node(_UNARY[rng.integers(len(_UNARY))], a)
        elif choice < 7:
            b = pool[rng.integers(len(pool))] if rng.integers(3) else g.scalar_node(
                uniforms.uniform(0.5, 3), "f64")
            try:
                node = g.binary_node(_BINARY[rng.integers(len(_BINARY))], a, b)
            except g.FusionShapeError:
                continue
        else:
            dims = [None, (0,), (1,)][rng.integers(3)]
            node = g.reduce_node(["sum", "mean", "max"][rng.integers(3)], a, dims)
        if rng.integers(4) == 0:
            node.keep = True
            kept.append(node)
        pool.append(node)
    return pool[-1], kept


def test_random_graphs_replay_like_uncached(wgpu_provider):
    from matfuse.accelerate_api import HostTensor

    data = np.random.default_rng(0).standard_normal((8, 300))
    inputs = [g.input_node(wgpu_provider.upload(HostTensor.from_array(data))),
              g.input_node(wgpu_provider.upload(HostTensor.from_array(data[:, :1].copy())))]
    cached = FusionExecutor(wgpu_provider)
    plain = FusionExecutor(wgpu_provider)
    plain.launch_plans.limit = 0

    def run(executor, seed: int, values: int):
        root, kept = _random_graph(np.random.default_rng(seed), np.random.default_rng(values),
                                   wgpu_provider, inputs)
        kernels = STATS.kernels
        try:
            handle = executor.materialize(root)
        except DomainFallback:
            return "domain", STATS.kernels - kernels
        outs = [_download(wgpu_provider, handle)]
        outs += [None if n.handle is None else _download(wgpu_provider, n.handle) for n in kept]
        return outs, STATS.kernels - kernels

    hits = STATS.launch_plan_hits
    for seed in range(30):
        for values in (1, 2):
            got, got_kernels = run(cached, seed, values)
            want, want_kernels = run(plain, seed, values)
            assert got_kernels == want_kernels, seed
            if isinstance(want, str):
                assert got == want, seed
                continue
            for a, b in zip(got, want):
                if b is None:
                    assert a is None
                else:
                    np.testing.assert_array_equal(a, b, err_msg=f"graph {seed}")
    assert STATS.launch_plan_hits - hits >= 20


def test_loop_siblings_replay_like_uncached(wgpu_provider):
    """Loop nodes: the count and counter are uniforms (a hit); a pending
    sibling outside the walk is written by the loop kernel (not cacheable);
    a dead sibling is a different structure from a live one."""
    from tests.accelerate.fusion.test_loop_render import gbm_loop

    cached = FusionExecutor(wgpu_provider)
    plain = FusionExecutor(wgpu_provider)
    plain.launch_plans.limit = 0

    def run(executor, count: int, counter: int, keep_sibling: bool):
        s_out, a_out = gbm_loop(n=512, count=count, counter=counter)
        root = g.reduce_node("sum", s_out, None)
        if not keep_sibling:
            del a_out
            gc.collect()
        kernels = STATS.kernels
        got = _download(wgpu_provider, executor.materialize(root))
        written = keep_sibling and a_out.handle is not None
        return got, written, STATS.kernels - kernels

    for keep_sibling in (False, True):
        for count, counter in ((20, 5), (30, 700)):
            hits = STATS.launch_plan_hits
            got = run(cached, count, counter, keep_sibling)
            want = run(plain, count, counter, keep_sibling)
            np.testing.assert_array_equal(got[0], want[0])
            assert got[1:] == want[1:] and got[1] == keep_sibling
            # Without a pending sibling the second run replays the first's plan.
            assert STATS.launch_plan_hits - hits == (1 if count == 30 and not keep_sibling else 0)


# ------------------------------------------------------------ golden programs, twice
def _gpu_programs():
    from tests.golden.test_golden import golden_programs

    return [p for p in golden_programs() if p.parent.name == "gpu"]


@pytest.mark.parametrize("path", _gpu_programs(), ids=lambda p: p.name)
def test_gpu_goldens_replayed(wgpu_provider, monkeypatch, path):
    """Each gpuArray golden program run twice on one executor: the second
    run replays the first run's launch plans and prints the same."""
    from matfuse.accelerate_api import override_provider
    from tests.accelerate.fusion.test_launch_plan import _reset_streams
    from tests.golden.test_golden import run_golden

    monkeypatch.setenv("MATFUSE_FUSION", "1")
    outputs = []
    with override_provider(wgpu_provider):
        for _ in range(2):
            _reset_streams(monkeypatch)
            STATS.__init__()
            outputs.append(run_golden(path)[:2])
    assert outputs[1] == outputs[0]
    assert outputs[1][0] == path.with_suffix(".out").read_text(encoding="utf-8")
    # Second run: every structure replays, but those whose first run fell
    # back to the host (domain flag) and so was never recorded.
    assert STATS.launch_plan_misses <= STATS.domain_fallbacks
