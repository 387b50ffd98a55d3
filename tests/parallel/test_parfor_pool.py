"""parfor and parfeval on a local 2-worker Dask pool."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from matfuse.errors import MatlabError
from matfuse.parallel.stats import STATS
from programs import PROGRAMS
from parutil import run

pytest.importorskip("distributed")


def _wait_for_two_workers(pool, seconds: float = 240.0) -> None:
    """Until the scheduler lists both workers again (a killed or cancelled
    worker's nanny starts a new process)."""
    deadline = time.monotonic() + seconds
    while len(pool.client.nthreads()) < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert len(pool.client.nthreads()) == 2, "the pool lost a worker"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_as_for_loop(name, shared_pool, tmp_path, monkeypatch):
    # Run from a file so local functions travel with the job.
    monkeypatch.chdir(tmp_path)
    code = PROGRAMS[name]
    (tmp_path / "serial_version.m").write_text(code.replace("parfor", "for"))
    (tmp_path / "parallel_version.m").write_text(code)
    expected, _ = run("serial_version")
    chunks = STATS.chunks
    got, _ = run("parallel_version")
    assert got == expected
    assert STATS.chunks > chunks


def test_work_is_spread_over_both_workers(shared_pool):
    _wait_for_two_workers(shared_pool)
    infos = shared_pool.client.run(os.getpid)
    assert len(infos) == 2
    before = dict(STATS.worker_tasks)
    run("s = 0; parfor i = 1:16, pause(0.05); s = s + i; end")
    used = [w for w, n in STATS.worker_tasks.items() if n > before.get(w, 0)]
    assert len(used) == 2


def test_error_names_the_iteration(shared_pool):
    with pytest.raises(MatlabError) as info:
        run("parfor i = 1:12\n if i == 7, error('my:bad', 'broke at %d', i); end\nend")
    assert info.value.identifier == "my:bad"
    assert "broke at 7" in info.value.message
    assert "parfor iteration 7" in info.value.message


def test_function_files_on_the_path_travel(shared_pool, tmp_path, monkeypatch):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "triple_it.m").write_text("function y = triple_it(x)\n y = 3 * x;\nend\n")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    out, _ = run(f"addpath('{lib}'); r = zeros(1, 4);\n"
                 "parfor i = 1:4, r(i) = triple_it(i); end\ndisp(r)")
    assert out.split() == ["3", "6", "9", "12"]


def test_max_workers_zero_runs_on_the_client(shared_pool):
    chunks = STATS.chunks
    out, _ = run("s = 0; parfor (i = 1:5, 0), s = s + i; end; disp(s)")
    assert out.split() == ["15"] and STATS.chunks == chunks


def test_pool_object(shared_pool):
    out, _ = run("p = gcp; disp(p.NumWorkers); disp(class(p)); q = gcp('nocreate');"
                 "disp(p.Connected)")
    assert out.split() == ["2", "parallel.ProcessPool", "1"]
    with pytest.raises(MatlabError) as info:
        run("parpool(2)")
    assert info.value.identifier == "parallel:convenience:ConnectionOpen"


def test_parfeval_fetch_next_wait_cancel(shared_pool, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "slow_square.m").write_text(
        "function [y, z] = slow_square(x, t)\n pause(t); y = x^2; z = -x;\nend\n")
    out, _ = run("""
for k = 1:4
    F(k) = parfeval(@slow_square, 2, k, 0.05 * (5 - k));
end
got = zeros(1, 4);
for k = 1:4
    [idx, y, z] = fetchNext(F);
    got(idx) = y + z;
end
disp(got)
[a, b] = fetchOutputs(F);
disp([a, b])
ok = wait(F, 'finished', 5); disp(ok)
g = parfeval(@(v) v + 1, 1, 41); disp(fetchOutputs(g)); disp(g.State)
h = parfeval(@slow_square, 1, 3, 3);
cancel(h);
disp(h.State)
""")
    lines = out.split("\n")
    assert lines[0].split() == ["0", "2", "6", "12"]
    assert [line.split() for line in lines[1:5]] == [["1", "-1"], ["4", "-2"], ["9", "-3"],
                                                     ["16", "-4"]]
    rest = out.split()
    assert rest[-4:] == ["1", "42", "finished", "finished"]
    with pytest.raises(MatlabError) as info:
        run("h = parfeval(@slow_square, 1, 3, 3); cancel(h); fetchOutputs(h)")
    assert info.value.identifier == "parallel:fevalqueue:ExecutionFailed"
    _wait_for_two_workers(shared_pool, 60)   # cancelling restarted a worker: it is back


def test_parfeval_error_and_after_each(shared_pool):
    with pytest.raises(MatlabError) as info:
        run("f = parfeval(@(x) error('w:e', 'no %d', x), 0, 5); wait(f); fetchOutputs(f)")
    assert info.value.cause[0].identifier == "w:e"
    out, _ = run("F(1) = parfeval(@(x) x * 2, 1, 1); F(2) = parfeval(@(x) x * 2, 1, 2);"
                 "G = afterEach(F, @(y) y + 100, 1); disp(sort(fetchOutputs(G))')")
    assert out.split() == ["102", "104"]


def test_gpu_values_cross_workers(shared_pool):
    out, _ = run("g = gpuArray([1 2 3]); r = zeros(1, 3);\n"
                 "parfor i = 1:3, r(i) = gather(sum(g * i)); end\ndisp(r)")
    assert out.split() == ["6", "12", "18"]


def test_worker_killed_mid_loop_reruns_its_iterations(shared_pool):
    client = shared_pool.client
    _wait_for_two_workers(shared_pool, 60)
    pids = sorted(client.run(os.getpid).values())
    victim = pids[0]

    def kill_soon() -> None:
        time.sleep(1.0)
        os.kill(victim, signal.SIGKILL)

    killer = threading.Thread(target=kill_soon)
    killer.start()
    code = ("a = zeros(1, 24); s = 0;\n"
            "parfor i = 1:24\n pause(0.2); a(i) = i^2; s = s + i;\nend\n"
            "disp(sum(a)); disp(s)")
    out, _ = run(code)
    killer.join()
    assert out.split() == [str(sum(i * i for i in range(1, 25))), "300"]
    _wait_for_two_workers(shared_pool, 60)
    assert victim not in client.run(os.getpid).values()


def test_stats_report(shared_pool):
    run("s = 0; parfor i = 1:6, s = s + i; end")
    text = STATS.text()
    assert "tasks:" in text and "bytes moved:" in text and "worker" in text


def test_join_a_running_scheduler(no_pool, monkeypatch):
    from distributed import LocalCluster

    from matfuse.parallel import pool as _pool

    with LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                      dashboard_address=":0") as cluster:
        out, _ = run(f"p = parpool('{cluster.scheduler_address}'); disp(p.NumWorkers);"
                     "s = 0; parfor i = 1:5, s = s + i; end; disp(s); delete(p)")
        assert out.split()[-2:] == ["1", "15"]
        monkeypatch.setenv("MATFUSE_DASK_SCHEDULER", cluster.scheduler_address)
        run("p = parpool;")
        assert _pool.current().cluster is None
        assert _pool.current().kind == cluster.scheduler_address
        run("delete(gcp)")
        assert _pool.current() is None


def test_parfor_inside_a_function_file(shared_pool, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "squares_plus.m").write_text(
        "function r = squares_plus(n, c)\n r = zeros(1, n);\n"
        " parfor i = 1:n\n  r(i) = sub_square(i) + c;\n end\nend\n"
        "function y = sub_square(x)\n y = x^2;\nend\n")
    out, _ = run("disp(squares_plus(5, 0.5))")
    assert out.split() == ["1.5000", "4.5000", "9.5000", "16.5000", "25.5000"]


def test_ctrl_c_cancels_outstanding_chunks(shared_pool, monkeypatch):
    import matfuse.parallel.distributed as dist

    cancelled = []
    real_cancel = dist.cancel_tasks

    def interrupting(futures, loop=None):
        raise KeyboardInterrupt

    def recording(client, futures):
        cancelled.extend(futures)
        real_cancel(client, futures)

    monkeypatch.setattr("distributed.as_completed", interrupting)
    monkeypatch.setattr(dist, "cancel_tasks", recording)
    with pytest.raises(MatlabError) as info:
        run("s = 0; parfor i = 1:8, pause(0.1); s = s + i; end")
    assert info.value.identifier == "MATLAB:interrupted"
    assert len(cancelled) >= 1 and all(f.cancelled() or f.done() for f in cancelled)
    _wait_for_two_workers(shared_pool, 60)   # the restarted workers are back


def test_gpu_pool_gives_each_worker_one_device(no_pool, monkeypatch):
    from matfuse.parallel import pool as _pool
    from matfuse.parallel.worker import worker_info

    monkeypatch.setattr(_pool, "worker_devices", lambda: ("CUDA_VISIBLE_DEVICES", ["0", "1"]))
    out, _ = run("p = parpool; disp(p.NumWorkers)")
    try:
        assert out.split()[-1] == "2"
        seen = sorted(info["gpu"] for info in _pool.current().client.run(worker_info).values())
        assert seen == ["0", "1"]
    finally:
        run("delete(gcp)")


def test_worker_warnings_reach_the_client(shared_pool):
    import io

    from matfuse.vm.session import Session

    err = io.StringIO()
    session = Session(stdout=io.StringIO(), stderr=err)
    session.eval("parfor i = 1:2, warning('demo:w', 'careful %d', i); end")
    assert "careful 1" in err.getvalue() and "careful 2" in err.getvalue()


def test_max_workers_limits_the_workers_used(shared_pool):
    before = dict(STATS.worker_tasks)
    out, _ = run("s = 0; parfor (i = 1:8, 1), s = s + i; end; disp(s)")
    assert out.split() == ["36"]
    used = [w for w, n in STATS.worker_tasks.items() if n > before.get(w, 0)]
    assert len(used) == 1
