"""Random numbers in parfor: with rng(seed) in each iteration, host and
device (gpuArray) draws equal the serial run's whatever the worker count;
without it each worker has its own streams."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from parutil import run

SEEDED = """
v = zeros(3, 8); h = zeros(1, 8); n = zeros(2, 8);
parfor i = 1:8
    rng(i);
    g = rand(3, 1, 'gpuArray');
    v(:, i) = gather(g);
    n(:, i) = gather(randn(2, 1, 'gpuArray'));
    h(i) = rand();
end
fprintf('%.17g\\n', v, n, h);
"""


@pytest.fixture
def client_provider(accel_provider_name):
    """The client runs ``accel_provider_name`` (workers follow it)."""
    from matfuse.accelerate import facade
    from matfuse.accelerate.options import AccelerateInitOptions

    facade.shutdown_acceleration()
    try:
        facade.initialize_acceleration_provider(
            AccelerateInitOptions(provider=accel_provider_name, fallback="error"))
    except MatlabError as why:
        facade.shutdown_acceleration()
        pytest.skip(f"provider {accel_provider_name} unavailable: {why.message}")
    yield accel_provider_name
    facade.shutdown_acceleration()


def test_rng_in_iteration_seeds_the_device_stream_too(no_pool):
    serial, _ = run("a = zeros(1, 3); parfor i = 1:1, rng(5); a(i, :) = gather(rand(1, 3, 'gpuArray')); end, disp(a)")
    direct, _ = run("gpurng(5); disp(gather(rand(1, 3, 'gpuArray')))")
    assert serial == direct


def test_rng_outside_parfor_leaves_the_device_stream_alone(no_pool):
    out, _ = run("gpurng(3); rng(9); s = gpurng; disp(s.Seed)")
    assert out.split() == ["3"]


def test_seeded_iterations_equal_serial_run_on_the_pool(client_provider, shared_pool, no_pool):
    serial, _ = run(SEEDED)
    for_loop, _ = run(SEEDED.replace("parfor", "for").replace("rng(i);", "rng(i); gpurng(i);"))
    assert serial == for_loop
    from matfuse.parallel import pool as _pool

    _pool._CURRENT = shared_pool
    try:
        pooled, _ = run(SEEDED)
        one_worker, _ = run(SEEDED.replace("parfor i = 1:8", "parfor (i = 1:8, 1)"))
        workers = shared_pool.client.run(_provider_name)
    finally:
        _pool._CURRENT = None
    assert pooled == serial
    assert one_worker == serial
    assert set(workers.values()) == {client_provider}


def _provider_name():
    from matfuse.accelerate import facade

    return facade.acceleration_state().provider.name


def _fresh_streams():
    """The host and device seeds a worker's interpreter starts with."""
    from matfuse.runtime import gpu_rng
    from matfuse.parallel.worker import _WorkerState
    from matfuse.runtime import _rng

    _WorkerState()
    return _rng.GENERATOR.seed, gpu_rng.own_state()[0]


def test_each_worker_has_its_own_streams(shared_pool):
    streams = list(shared_pool.client.run(_fresh_streams).values())
    assert len(streams) == len(set(streams)) == len(shared_pool.worker_addresses())
    assert all(host == device for host, device in streams)
