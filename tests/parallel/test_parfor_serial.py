"""parfor without a pool: the loop runs in this process with parfor
semantics, giving the plain for loop's results."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from matfuse.errors import MatlabError
from programs import PROGRAMS
from parutil import run


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_as_for_loop(name, no_pool):
    code = PROGRAMS[name]
    expected, _ = run(code.replace("parfor", "for"))
    got, _ = run(code)
    assert got == expected


def test_temporaries_are_not_returned(no_pool):
    out, _ = run("t = 7; parfor i = 1:3, t = i; end; disp(t); disp(exist('u'));"
                 "parfor i = 1:3, u = i; end; disp(exist('u'))")
    assert out.split() == ["7", "0", "0"]


def test_temporary_cleared_each_iteration(no_pool):
    with pytest.raises(MatlabError) as info:
        run("parfor i = 1:2\n if i == 1, t = 5; else, disp(t); end\nend")
    assert info.value.identifier == "MATLAB:UndefinedFunction"


def test_error_names_the_iteration(no_pool):
    with pytest.raises(MatlabError) as info:
        run("parfor i = 1:5\n if i == 4, error('my:id', 'bad %d', i); end\nend")
    assert info.value.identifier == "my:id"
    assert "bad 4" in info.value.message
    assert "parfor iteration 4" in info.value.message


def test_range_must_be_consecutive(no_pool):
    for rng in ("1:2:9", "0:0.5:2", "[3 1 2]"):
        with pytest.raises(MatlabError) as info:
            run(f"parfor i = {rng}, end")
        assert info.value.identifier == "MATLAB:parfor:range_not_consecutive"


def test_reduction_variable_must_exist(no_pool):
    with pytest.raises(MatlabError) as info:
        run("parfor i = 1:3, zz = zz + i; end")
    assert info.value.identifier == "MATLAB:parfor:reduction_variable_set"


def test_max_workers_form_and_empty_range(no_pool):
    out, _ = run("s = 0; parfor (i = 1:4, 2), s = s + i; end; disp(s);"
                 "parfor i = 1:0, s = s + 100; end; disp(s)")
    assert out.split() == ["10", "10"]


def test_classification_error_before_anything_runs(no_pool, tmp_path):
    script = tmp_path / "bad.m"
    script.write_text("disp('first');\na = zeros(1, 4);\nparfor i = 1:4\n a(i * 2) = i;\nend\n")
    out = None
    with pytest.raises(MatlabError) as info:
        out, _ = run(f"run('{script}')")
    assert out is None
    assert info.value.identifier == "MATLAB:parfor:variable_not_classified"


def test_serial_fallback_without_dask(tmp_path):
    """With Dask missing, parfor runs serially; parpool says what to install."""
    code = textwrap.dedent("""
        import sys
        sys.modules['distributed'] = None
        sys.modules['dask'] = None
        import io
        from matfuse.errors import MatlabError
        from matfuse.vm.session import Session
        out = io.StringIO()
        s = Session(stdout=out)
        s.eval("a = zeros(1, 5); t = 0; parfor i = 1:5, a(i) = i^2; t = t + i; end; disp(a); disp(t)")
        try:
            s.eval("parpool(2)")
        except MatlabError as err:
            print(err.identifier)
        print(out.getvalue())
    """)
    env = dict(os.environ)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.split()
    assert lines[0] == "matfuse:parallel:daskMissing"
    assert lines[1:] == ["1", "4", "9", "16", "25", "15"]


def test_large_contributions_are_combined_as_they_come(no_pool, monkeypatch):
    from matfuse.parallel import reduction

    monkeypatch.setattr(reduction, "KEEP_BYTES", 100)
    code = ("s = zeros(1, 20); d = 0; c = []; lo = inf(1, 20); p = 1;\n"
            "parfor i = 1:12\n s = s + (1:20) * i; d = d - i; c = [c, (1:3) + i];"
            " lo = min(lo, (20:-1:1) + i); p = p * 2;\nend\n"
            "disp(sum(s)); disp(d); disp(numel(c)); disp(sum(c)); disp(sum(lo)); disp(p)")
    expected, _ = run(code.replace("parfor", "for"))
    got, _ = run(code)
    assert got == expected


def test_sliced_output_fill_is_linear(no_pool):
    """Sliced arrays are updated in place: 8x the iterations take about 8x
    the time (a copy per iteration would make it 64x)."""
    import time

    def best(n: int) -> float:
        times = []
        for _ in range(5):
            _, session = run(f"b = zeros(1, {n});")
            start = time.perf_counter()
            session.eval(f"parfor i = 1:{n}, b(i) = i; end")
            times.append(time.perf_counter() - start)
        return min(times)

    small, large = best(2500), best(20000)
    assert large < 24 * small, (small, large)


def test_delete_gcp_nocreate_without_a_pool(no_pool):
    out, _ = run("delete(gcp('nocreate')); disp(isempty(gcp('nocreate')))")
    assert out.split() == ["1"]
