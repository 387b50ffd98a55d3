"""wgpu provider sync points: downloads through reused staging buffers in
the pending submit, small uploads as in-stream copies, free synchronize,
bind-group invalidation, and one submit + one read-back per benchmark script
(counted at the wgpu queue)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.accelerate.providers.transfer import down, up


def test_download_rides_on_the_pending_submit(wgpu_provider):
    """Kernels and the staging copy share one submit; no buffer is created
    per download (small ones share one staging buffer, large ones are pooled)."""
    p = wgpu_provider
    x = up(p, np.arange(6.0).reshape(2, 3))
    big = p.fill((40_000, 1), 2.0, "float32")          # 160 KB: a pooled staging buffer
    p.synchronize()
    down(p, p.elem_binary("plus", big, 1.0, "float32"))   # warm the large size class
    created = p.telemetry()["staging_buffers_created"]
    p.reset_telemetry()
    for _ in range(3):
        np.testing.assert_array_equal(down(p, p.elem_binary("plus", x, 1.0, "float64")),
                                      np.arange(6.0).reshape(2, 3) + 1)
        got = down(p, p.elem_binary("plus", big, 1.0, "float32"))
        assert got.shape == (40_000, 1) and (got == 3.0).all()
    t = p.telemetry()
    assert t["submits"] == 6 and t["readbacks"] == 6 and t["downloads"] == 6
    assert t["staging_buffers_created"] == created
    p.free(x)
    p.free(big)


def test_small_uploads_keep_program_order(wgpu_provider):
    """Small uploads are copies in the command stream: one may take a buffer
    that a recorded kernel still reads, and many overflow the arena safely."""
    p = wgpu_provider
    p.synchronize()
    x = up(p, np.array([[1.0, 2.0, 3.0]]))
    y = p.elem_binary("plus", x, 1.0, "float64")        # recorded, reads x
    p.free(x)
    z = up(p, np.array([[7.0, 8.0, 9.0]]))              # may reuse x's buffer
    np.testing.assert_array_equal(down(p, y), [[2.0, 3.0, 4.0]])
    np.testing.assert_array_equal(down(p, z), [[7.0, 8.0, 9.0]])
    p.reset_telemetry()
    hs = [up(p, np.full((1, 1), float(k))) for k in range(300)]   # > one arena
    assert p.telemetry()["submits"] >= 1
    assert [float(down(p, h)[0, 0]) for h in hs] == [float(k) for k in range(300)]


def test_synchronize_without_work_in_flight_is_free(wgpu_provider):
    p = wgpu_provider
    x = up(p, np.ones((3, 1)))
    p.synchronize()
    p.reset_telemetry()
    p.synchronize()
    assert p.telemetry()["readbacks"] == 0 and p.telemetry()["submits"] == 0
    h = p.elem_unary("sqrt", x, "float64")
    p.synchronize()
    p.synchronize()
    t = p.telemetry()
    assert t["submits"] == 1 and t["readbacks"] == 1 and t["syncs"] == 1
    np.testing.assert_array_equal(down(p, h), np.ones((3, 1)))
    big = up(p, np.ones((1000, 1)))        # a queue write: synchronize waits for it
    p.reset_telemetry()
    p.synchronize()
    assert p.telemetry()["syncs"] == 1
    p.free(big)
    p.free(x)


def test_read_range_copies_only_the_asked_elements(wgpu_provider):
    p = wgpu_provider
    x = up(p, np.arange(10, dtype=np.int32).reshape(-1, 1))
    p.reset_telemetry()
    np.testing.assert_array_equal(p.read(x, count=3, start=5), [5, 6, 7])
    assert p.read_at(x, 9) == 9
    assert p.telemetry()["download_bytes"] == 16
    p.free(x)


def test_bind_groups_are_dropped_with_their_buffers(wgpu_provider):
    p = wgpu_provider
    x = p.fill((64, 1), 1.0, "float32")
    down(p, p.elem_binary("plus", x, 1.0, "float32"))
    before = p.telemetry()["cached_bind_groups"]
    serial = p.bind(x)[0].serial
    assert any(serial in key[1] for key in p.batcher._bind_groups)
    p.free(x)
    p.synchronize()
    p.buffers.trim_pool()
    assert not any(serial in key[1] for key in p.batcher._bind_groups)
    assert p.telemetry()["cached_bind_groups"] < before


WORKLOADS = {
    "elementwise": {"n": 20000.0},
    "imagenorm": {"B": 2.0, "H": 16.0, "W": 24.0},
    "montecarlo": {"M": 2048.0, "T": 16.0},
}


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_benchmark_script_is_one_submit_one_readback(wgpu_provider, name):
    """The gpu=1 benchmark scripts: one submit and one blocking read-back
    (the final gather); counted at the wgpu queue too, not just telemetry."""
    import io
    from pathlib import Path

    from matfuse.accelerate_api import override_provider
    from matfuse.vm.session import Session

    p = wgpu_provider
    bench = Path(__file__).resolve().parents[3] / "benchmarks" / name / f"{name}.m"
    setup = " ".join(f"{k} = {v!r};" for k, v in WORKLOADS[name].items())
    code = f"gpu = 1; {setup}\n" + bench.read_text()
    queue_submits = []
    real_submit = p.ctx.queue.submit
    with override_provider(p):
        session = Session(stdout=io.StringIO())
        session.eval(code)                 # compiles kernels, fills pools
        p.synchronize()
        p.reset_telemetry()
        p.ctx.queue.submit = lambda bufs: (queue_submits.append(1), real_submit(bufs))[1]
        try:
            session.eval(code)
        finally:
            del p.ctx.queue.submit
    t = p.telemetry()
    assert t["readbacks"] == 1 and t["downloads"] == 1 and t["syncs"] == 0
    assert t["submits"] == 1 and len(queue_submits) == 1


def test_bench_provider_measures_run(wgpu_provider):
    """Smoke test of benchmarks/wgpu/bench_provider.py's measures at tiny sizes
    (the GPU machine runs the full script)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "wgpu" / "bench_provider.py"
    spec = importlib.util.spec_from_file_location("bench_provider", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    p = wgpu_provider
    live = p.live_buffers()
    fixed = bench.bench_fixed_costs(p, 3, 3)
    assert fixed["16B_readback_only_us_caller_poll"] > 0
    red = bench.bench_reductions(p, 4096, 64, 1)
    assert red["sum_all_rel_err_vs_f64"] < 1e-5 and red["sum_columns_GB_per_s"] > 0
    assert p.live_buffers() <= live   # others may be finalized meanwhile
