"""Launch plans (``fusion/_launch_plan.py``): a replayed materialisation is
the uncached one (same results, dispatches, bytes, domain fallbacks, kept
outputs, freed buffers), and the graph signature separates exactly what
the plan depends on. Device tests run on wgpu (lavapipe in CI)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion._launch_plan import (
    PLAN_CACHE_LIMIT, FoldStep, FreeStep, LaunchPlanCache, graph_signature)
from matfuse.accelerate.fusion.executor import STATS, DomainFallback, FusionExecutor, executor_for
from tests.accelerate.fusion.scripts import run_script, workload


# ------------------------------------------------------------ helpers
def _reset_streams(monkeypatch) -> None:
    """Every run of a script draws the same random numbers."""
    from matfuse.runtime import gpu_rng
    from matfuse.runtime import _rng

    monkeypatch.setattr(_rng, "GENERATOR", _rng.RandomGenerator())
    monkeypatch.setattr(gpu_rng, "_counter", 0)
    monkeypatch.setattr(gpu_rng, "_key", gpu_rng._philox.key_from_seed(0))


def _second_run(provider, code: str, monkeypatch, cached: bool) -> tuple[str, dict, dict]:
    """Output, telemetry and fusion stats of the second of two runs of
    ``code`` (with the cache on, the first records and the second replays)."""
    plans = executor_for(provider).launch_plans
    monkeypatch.setattr(plans, "limit", PLAN_CACHE_LIMIT if cached else 0)
    plans.clear()
    for _ in range(2):
        _reset_streams(monkeypatch)
        result = run_script(provider, code)
    return result


def _compare_cached(provider, code: str, monkeypatch) -> dict:
    text, tel, stats = _second_run(provider, code, monkeypatch, cached=True)
    plain_text, plain_tel, plain_stats = _second_run(provider, code, monkeypatch, cached=False)
    assert text == plain_text
    assert tel["dispatches"] == plain_tel["dispatches"]
    assert tel.get("submits") == plain_tel.get("submits")
    for key in ("kernels", "bytes_read", "bytes_written", "domain_fallbacks", "fused_groups"):
        assert stats[key] == plain_stats[key], key
    assert plain_stats["launch_plan_hits"] == 0
    return stats


def _download(provider, handle) -> np.ndarray:
    return np.asarray(provider.download(handle).data)


def _chain(start: float, stop: float, c: float, n: int = 5000, op: str = "exp",
           keep: bool = False) -> tuple[g.FNode, g.FNode]:
    """``sum(op(linspace(start, stop, n)) .* c) + 1`` and its elementwise part."""
    x = g.linspace_node(start, stop, n, "f64")
    y = g.binary_node("mul", g.unary_node(op, x), g.scalar_node(c, "f64"))
    y.keep = keep
    return g.binary_node("add", g.reduce_node("sum", y, None), g.scalar_node(1.0, "f64")), y


# ------------------------------------------------------------ scripts
@pytest.mark.parametrize("name, params", [
    ("elementwise", {"n": 5000.0}),
    ("imagenorm", {"B": 2.0, "H": 16.0, "W": 24.0}),
])
def test_replayed_workloads_match_uncached(wgpu_provider, monkeypatch, name, params):
    stats = _compare_cached(wgpu_provider, workload(name, **params), monkeypatch)
    assert stats["launch_plan_hits"] == stats["fused_groups"] >= 1
    assert stats["launch_plan_misses"] == 0


def test_replayed_loop_script_matches_uncached(wgpu_provider, monkeypatch):
    # Loop nodes write siblings outside the root's walk: such graphs may stay
    # uncached, but every graph must give what the uncached path gives.
    stats = _compare_cached(wgpu_provider, workload("montecarlo", M=512.0, T=40.0), monkeypatch)
    assert stats["launch_plan_hits"] >= 1
    two_carried = ("a = gpuArray(ones(300, 1)); b = gpuArray(zeros(300, 1)); "
                   "for k = 1:40, a = a .* 1.01 + b; b = b + 0.1; end; "
                   "fprintf('%.12g\\n', gather(sum(b))); fprintf('%.12g\\n', gather(sum(a)));")
    # sum(b) forces the loop; its kernel also writes a (outside sum(b)'s walk).
    stats = _compare_cached(wgpu_provider, two_carried, monkeypatch)
    assert stats["launch_plan_misses"] >= 1
    # ... and that structure is remembered as one not to record again.
    _second_run(wgpu_provider, two_carried, monkeypatch, cached=True)
    assert any(not plan.replayable for plan in executor_for(wgpu_provider).launch_plans.plans())


def test_kept_outputs_are_written_on_a_replay(wgpu_provider, inprocess_provider, monkeypatch):
    code = ("x = gpuArray(linspace(0, 1, 3000)); y = exp(x) .* 2; s = sum(y); "
            "fprintf('%.12g\\n', gather(s)); fprintf('%.12g\\n', gather(y(5)), gather(y(end)));")
    stats = _compare_cached(wgpu_provider, code, monkeypatch)
    assert stats["launch_plan_hits"] >= 1
    reference, _, _ = run_script(inprocess_provider, code)
    assert [float(v) for v in _second_run(wgpu_provider, code, monkeypatch, True)[0].split()] == \
        pytest.approx([float(v) for v in reference.split()], rel=1e-12)


def test_folded_partials_replay(wgpu_provider, inprocess_provider, monkeypatch):
    from matfuse.accelerate.fusion import render_wgsl

    # One partial per output in a final pass and no workgroup-per-output
    # final pass: partial buffers are folded by extra passes (fold steps).
    monkeypatch.setattr(render_wgsl, "THREAD_FINAL_MAX", 1)
    monkeypatch.setattr(render_wgsl, "BLOCK_FINAL_MAX_OUTPUTS", 0)
    code = ("x = reshape(linspace(gpuArray(0), 1, 60000), 20, 3000); "
            "fprintf('%.12e\\n', gather(sum(mean(x, 2)) + sum(x(:))));")
    stats = _compare_cached(wgpu_provider, code, monkeypatch)
    assert stats["launch_plan_hits"] >= 1
    monkeypatch.setattr(executor_for(wgpu_provider).launch_plans, "limit", PLAN_CACHE_LIMIT)
    _second_run(wgpu_provider, code, monkeypatch, cached=True)
    steps = [step for plan in executor_for(wgpu_provider).launch_plans.plans() for step in plan.steps]
    assert any(isinstance(step, FoldStep) for step in steps)
    assert any(isinstance(step, FreeStep) for step in steps)


def test_domain_fallback_on_a_replay(wgpu_provider, inprocess_provider, monkeypatch):
    """A plan recorded on real square roots, replayed on negative inputs,
    still raises the flag and recomputes with MATLAB's complex results."""
    template = "a = {a}; x = gpuArray(linspace(a, 2, 5)); y = sqrt(x .* 3) + 1; disp(gather(y))"
    plans = executor_for(wgpu_provider).launch_plans
    plans.clear()
    run_script(wgpu_provider, template.format(a=0))
    text, _, stats = run_script(wgpu_provider, template.format(a=-2))
    reference, _, _ = run_script(inprocess_provider, template.format(a=-2))
    assert text == reference
    assert stats["launch_plan_hits"] == 1 and stats["domain_fallbacks"] == 1


# ------------------------------------------------------------ executor level
def test_uniform_values_hit_and_give_uncached_results(wgpu_provider):
    cached = FusionExecutor(wgpu_provider)
    plain = FusionExecutor(wgpu_provider)
    plain.launch_plans.limit = 0
    for k, (start, stop, c) in enumerate([(0.0, 1.0, 2.0), (-1.0, 3.0, 0.5), (2.0, 2.5, 7.0)]):
        hits = STATS.launch_plan_hits
        kernels = STATS.kernels
        root = _chain(start, stop, c)[0]  # (the root owns the result buffer)
        got = _download(wgpu_provider, cached.materialize(root))
        cached_kernels = STATS.kernels - kernels
        assert STATS.launch_plan_hits - hits == (1 if k else 0)
        kernels = STATS.kernels
        again = _chain(start, stop, c)[0]
        want = _download(wgpu_provider, plain.materialize(again))
        assert STATS.kernels - kernels == cached_kernels
        np.testing.assert_array_equal(got, want)
        x = np.linspace(start, stop, 5000)
        assert got.ravel()[0] == pytest.approx(np.sum(np.exp(x) * c) + 1, rel=1e-9)
    assert len(cached.launch_plans) == 1


def test_random_counters_hit(wgpu_provider):
    cached = FusionExecutor(wgpu_provider)
    plain = FusionExecutor(wgpu_provider)
    plain.launch_plans.limit = 0

    def graph(counter: int) -> g.FNode:
        r = g.random_node("randn", (64, 40), "f32", (11, 22), counter)
        return g.binary_node("mul", g.unary_node("abs", r), g.scalar_node(3.0, "f32"))

    results = []
    for counter in (0, 1000, 77):
        hits = STATS.launch_plan_hits
        root, again = graph(counter), graph(counter)
        got = _download(wgpu_provider, cached.materialize(root))
        np.testing.assert_array_equal(got, _download(wgpu_provider, plain.materialize(again)))
        results.append(got)
        assert STATS.launch_plan_hits - hits == (0 if counter == 0 else 1)
    assert not np.array_equal(results[0], results[1])


def test_kept_node_is_written_on_a_hit(wgpu_provider):
    executor = FusionExecutor(wgpu_provider)
    for c in (2.0, 3.0):
        root, y = _chain(0.0, 1.0, c, keep=True)
        executor.materialize(root)
        assert y.handle is not None
        np.testing.assert_allclose(_download(wgpu_provider, y.handle).ravel(),
                                   np.exp(np.linspace(0, 1, 5000)) * c, rtol=1e-12)
    assert STATS.launch_plan_hits >= 1 and len(executor.launch_plans) == 1


def test_structural_differences_miss(wgpu_provider):
    executor = FusionExecutor(wgpu_provider)
    variants = [
        dict(), dict(n=6000), dict(op="sin"), dict(keep=True),
        dict(c=-2.0),  # a sign nonnegative() could read: part of the key
    ]
    for kwargs in variants:
        executor.materialize(_chain(0.0, 1.0, kwargs.pop("c", 2.0), **kwargs)[0])
    assert len(executor.launch_plans) == len(variants)
    # Hints off: ``keep`` is not read, so the keep variant's plan is not reused.
    executor.materialize(_chain(0.0, 1.0, 2.0, keep=True)[0], use_hints=False)
    assert len(executor.launch_plans) == len(variants) + 1
    # Another renderer: its own kernels, so an empty cache.
    from matfuse.accelerate.fusion.render_wgsl import WgslRenderer

    executor.renderer = WgslRenderer()
    hits = STATS.launch_plan_hits
    executor.materialize(_chain(0.0, 1.0, 2.0)[0])
    assert STATS.launch_plan_hits == hits and len(executor.launch_plans) == 1


def test_domain_flag_on_a_hit_raises_and_frees(wgpu_provider):
    executor = FusionExecutor(wgpu_provider)
    root = g.unary_node("sqrt", g.linspace_node(0.0, 4.0, 3000, "f64"))
    np.testing.assert_allclose(_download(wgpu_provider, executor.materialize(root)).ravel(),
                               np.sqrt(np.linspace(0, 4, 3000)), rtol=1e-12)
    del root
    gc.collect()
    before = wgpu_provider.live_buffers()
    fallbacks = STATS.domain_fallbacks
    hits = STATS.launch_plan_hits
    with pytest.raises(DomainFallback):
        executor.materialize(g.unary_node("sqrt", g.linspace_node(-1.0, 4.0, 3000, "f64")))
    assert STATS.domain_fallbacks == fallbacks + 1 and STATS.launch_plan_hits == hits + 1
    gc.collect()
    assert wgpu_provider.live_buffers() == before


def test_failed_replay_frees_partials(wgpu_provider, monkeypatch):
    from matfuse.accelerate_api import Unsupported

    executor = FusionExecutor(wgpu_provider)
    executor.materialize(_chain(0.0, 1.0, 2.0, n=100000)[0])  # records: partial pass + final
    gc.collect()
    real = wgpu_provider.fused_elementwise
    calls = {"n": 0}

    def fail_second(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise Unsupported("injected")
        return real(*args, **kwargs)

    before = wgpu_provider.live_buffers()
    monkeypatch.setattr(wgpu_provider, "fused_elementwise", fail_second)
    hits = STATS.launch_plan_hits
    root = _chain(0.0, 1.0, 2.0, n=100000)[0]
    with pytest.raises(Unsupported):
        executor.materialize(root)
    assert calls["n"] == 2 and STATS.launch_plan_hits == hits + 1
    assert wgpu_provider.live_buffers() == before
    monkeypatch.undo()
    # The plan survives the failure; the graph can still be computed.
    x = np.linspace(0, 1, 100000)
    got = _download(wgpu_provider, executor.materialize(root)).ravel()[0]
    assert got == pytest.approx(np.sum(np.exp(x) * 2) + 1, rel=1e-9)


def test_failed_recording_caches_nothing(wgpu_provider, monkeypatch):
    from matfuse.accelerate_api import Unsupported

    executor = FusionExecutor(wgpu_provider)

    def refuse(*args, **kwargs):
        raise Unsupported("injected")

    monkeypatch.setattr(wgpu_provider, "fused_elementwise", refuse)
    with pytest.raises(Unsupported):
        executor.materialize(_chain(0.0, 1.0, 2.0)[0])
    assert len(executor.launch_plans) == 0


# ------------------------------------------------------------ signatures (no device)
def test_signature_ignores_uniform_values_only():
    def sig(root: g.FNode, hints: bool = True) -> tuple:
        return graph_signature(g.walk(root), hints)[0]

    base = sig(_chain(0.0, 1.0, 2.0)[0])
    assert sig(_chain(-5.0, 9.0, 4.0)[0]) == base
    assert sig(_chain(0.0, 1.0, 2.5)[0]) == base
    assert sig(_chain(0.0, 1.0, -2.0)[0]) != base  # a sign: nonnegative() reads it
    # A constant exponent's integrality and parity are structure; its value is not.
    x = g.linspace_node(0.0, 1.0, 8, "f64")
    powers = [sig(g.binary_node("pow", x, g.scalar_node(e, "f64"))) for e in (2.0, 4.0, 3.0, 0.5)]
    # 2 (rendered x*x), even, odd and fractional exponents are four structures
    assert len(set(powers)) == 4
    assert sig(g.binary_node("pow", x, g.scalar_node(4.0, "f64"))) == powers[1]
    assert sig(_chain(0.0, 1.0, 2.0, n=10)[0]) != base
    assert sig(_chain(0.0, 1.0, 2.0, op="cos")[0]) != base
    assert sig(_chain(0.0, 1.0, 2.0, keep=True)[0]) != base
    assert sig(_chain(0.0, 1.0, 2.0, keep=True)[0], hints=False) == sig(_chain(0.0, 1.0, 2.0)[0], False)
    kept_root = _chain(0.0, 1.0, 2.0)[0]
    kept_root.keep = True  # the root is written anyway
    assert sig(kept_root) == base
    # Operand order and sharing are structure.
    x = g.linspace_node(0.0, 1.0, 8, "f64")
    w = g.linspace_node(0.0, 1.0, 8, "f64")
    assert sig(g.binary_node("mul", x, x)) != sig(g.binary_node("mul", x, w))


def test_cache_is_bounded():
    cache = LaunchPlanCache(limit=2)
    for k in range(5):
        cache.put((k,), object())
        assert len(cache) <= 2
    off = LaunchPlanCache(limit=0)
    off.put((1,), object())
    assert len(off) == 0 and not off.enabled
