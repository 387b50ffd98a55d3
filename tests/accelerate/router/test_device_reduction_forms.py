"""Reductions and moments with dim, vecdim, ``'all'``, outtype and nanflag on
the device: the CPU answer (class, shape, values), no counted host fallback,
and on a fusing provider one fused reduction with no eager reduce, permute or
read-back for a vecdim that is one block in memory (the 4K image
normalisation's ``mean(imgs, [2 3], 'native')``).

Run on lavapipe with ``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``; the CUDA
provider's half is ``test_device_reduction_forms_cuda_fake.py``.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from matfuse.accelerate.fusion.executor import STATS, fusion_enabled
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner import offload
from matfuse.accelerate.router.reductions import ReductionForm, read_form, reduced_block
from matfuse.accelerate_api import fallback_counts, override_provider, reset_fallback_counts
from matfuse.runtime.values import char_array
from matfuse.vm.session import Session
from tests.accelerate import test_device_routing as routing

S = char_array
RNG = np.random.default_rng(11)
X3 = RNG.standard_normal((4, 5, 6))
X3[1, 2, 3] = np.nan
X3[0, 0, 0] = np.nan
X3S = X3.astype(np.float32)
ALLNAN = np.full((3, 2), np.nan)
ALLNAN[0, 1] = 2.0
MASK = X3 > 0
V23 = np.array([[2.0, 3.0]])
V13 = np.array([[1.0, 3.0]])
E = np.zeros((0, 0))

# (builtin, arguments): each runs on the CPU and with the data on the device
FORMS = [
    ("sum", [X3]), ("sum", [X3, 2.0]), ("sum", [X3, V23]), ("sum", [X3, V13]),
    ("sum", [X3, S("all")]), ("sum", [X3, V23, S("omitnan")]),
    ("sum", [X3S, V23, S("double")]), ("sum", [X3S, V23, S("native")]),
    ("sum", [X3S, S("all"), S("double"), S("omitnan")]), ("sum", [X3, 4.0]),
    ("sum", [MASK, V23]), ("sum", [MASK, S("all"), S("double")]),
    ("mean", [X3S, V23, S("native")]), ("mean", [X3S, V23, S("default")]),
    ("mean", [X3, V23, S("omitnan")]), ("mean", [ALLNAN, 1.0, S("omitnan")]),
    ("mean", [X3S, np.array([[3.0, 2.0]]), S("native"), S("includenan")]),
    ("mean", [X3, V13, S("omitnan")]), ("mean", [MASK, S("all")]),
    ("mean", [X3, np.array([[1.0, 2.0, 3.0]])]),
    ("prod", [X3, V23, S("omitnan")]), ("prod", [X3S, 1.0, S("native")]),
    ("max", [X3, E, V23]), ("max", [X3, E, V23, S("includenan")]),
    ("max", [X3S, E, S("all")]), ("min", [X3, E, V13]), ("min", [X3, E, S("omitnan")]),
    ("var", [X3, 0.0, V23]), ("var", [X3S, 1.0, S("all")]), ("std", [X3, E, V13]),
    ("std", [X3, 0.0, V23, S("omitnan")]), ("var", [X3[:, :1, :], 0.0, 2.0]),
]


def _id(form: tuple[str, list[Any]]) -> str:
    name, args = form
    return f"{name}-" + "-".join(_word(a) for a in args)


def _word(a: Any) -> str:
    if type(a) is float:
        return f"{a:g}"
    if a.dtype.kind == "U":
        return "".join(a.reshape(-1))
    if a.size <= 3:
        return "[" + " ".join(f"{v:g}" for v in a.reshape(-1)) + "]"
    return f"{a.dtype}{'x'.join(map(str, a.shape))}"


@pytest.mark.parametrize("name,args", FORMS, ids=[_id(f) for f in FORMS])
def test_reduction_forms_match_cpu_on_device(device, name, args):
    routing._run_on_device(device, lambda *a: routing._call(name, *a), args, (0,), None)


def test_read_form_reads_words_and_dims():
    x = X3
    assert read_form("mean", [x, V23, S("native")]) == ReductionForm("mean", (1, 2), False, "native")
    assert read_form("sum", [x, S("all"), S("omitnan"), S("double")]) == \
        ReductionForm("sum", None, True, "double")
    assert read_form("max", [x, E, V13]) == ReductionForm("max", (0, 2), True, "default")
    assert read_form("max", [x, E, S("includenan")]) == ReductionForm("max", (0,), False, "default")
    assert read_form("sum", [x]) == ReductionForm("sum", (0,), False, "default")
    # left to the host, which raises MATLAB's errors
    assert read_form("max", [x, S("native")]) is None
    assert read_form("max", [x, 2.0]) is None
    assert read_form("sum", [x, S("native"), S("double")]) is None
    assert read_form("sum", [x, np.array([[2.0, 2.0]])]) is None
    assert read_form("sum", [x, 0.0]) is None


def test_reduced_block_skips_singleton_dims():
    assert reduced_block((16, 2160, 3840), (1, 2)) == (1, 2)
    assert reduced_block((16, 2160, 3840), (0, 2)) is None
    assert reduced_block((4, 1, 6), (0, 2)) == (0, 1, 2)
    assert reduced_block((4, 5), (2, 3)) == ()
    assert reduced_block((4, 5), None) is None


# ------------------------------------------------------------------ dispatches
NATIVE = ("gpurng(5); p = gpuArray(single(0)); imgs = rand(4, 32, 48, 'like', p);"
          "mu = mean(imgs, [2 3]{flags}); fprintf('%.6f\\n', gather(sum(mu)));")


def _run(p: Any, code: str) -> tuple[str, dict[str, Any], int]:
    out = io.StringIO()
    with override_provider(p):
        session = Session(stdout=out)
        p.synchronize()
        p.reset_telemetry()
        kernels = STATS.kernels
        reset_fallback_counts()
        session.eval(code)
        p.synchronize()
        return out.getvalue(), p.telemetry(), STATS.kernels - kernels


@pytest.mark.parametrize("flags", [", 'native'", ", 'default'", ", 'native', 'includenan'"])
def test_vecdim_native_is_the_fused_reduction(device, flags):
    """``mean(imgs, [2 3], 'native')`` runs exactly as ``mean(imgs, [2 3])``:
    the same fused kernels, dispatches and one read-back (the printed sum);
    no eager reduction, permute or host fallback."""
    if not fusion_enabled(device):
        pytest.skip(f"{device.name} does not fuse")
    plain_text, plain, plain_kernels = _run(device, NATIVE.format(flags=""))
    text, tel, kernels = _run(device, NATIVE.format(flags=flags))
    assert fallback_counts() == {}
    assert text == plain_text
    assert kernels == plain_kernels
    assert tel["dispatches"] == plain["dispatches"]
    assert tel["downloads"] == plain["downloads"] == 1
    assert tel["uploads"] == plain["uploads"] <= 1  # the prototype gpuArray(single(0))
    eager = {n for n in routing._op_names(device) if n.startswith(("reduce", "permute"))}
    assert not eager, eager


@pytest.mark.parametrize("call", ["var(imgs, 0, [2 3])", "std(imgs, 1, 'all')",
                                  "max(imgs, [], [2 3])", "sum(imgs, [2 3], 'double')",
                                  "mean(imgs, [2 3], 'omitnan')"])
def test_vecdim_forms_stay_fused(device, call):
    """Moments, extremes, outtype and nanflag forms over a block vecdim are
    fused kernels: no eager reduction, no read-back before the result's."""
    if not fusion_enabled(device):
        pytest.skip(f"{device.name} does not fuse")
    text, tel, kernels = _run(device, "imgs = rand(4, 32, 48, 'single', 'gpuArray');"
                                      f"r = {call}; fprintf('%.4f\\n', gather(sum(r(:))));")
    assert fallback_counts() == {}
    assert tel["downloads"] == 1
    assert kernels >= 1
    eager = {n for n in routing._op_names(device) if n.startswith(("reduce", "permute"))}
    assert not eager, eager


def test_plain_script_offloaded_keeps_the_fused_reduction(device):
    """With auto-offload forced, the host version of the script (no gpuArray)
    takes the same fused reduction on the device."""
    if not fusion_enabled(device):
        pytest.skip(f"{device.name} does not fuse")
    low = {f"threshold_{c}": 1000 for c in ("elementwise", "reduction", "construction", "matmul")}
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **low)
    offload.activate(device, options=options)
    try:
        text, tel, kernels = _run(device, "imgs = rand(4, 32, 48, 'single');"
                                          "mu = mean(imgs, [2 3], 'native');"
                                          "fprintf('%s %.4f\\n', class(mu), sum(mu));")
    finally:
        offload.reset()
    assert text.startswith("single ")
    assert fallback_counts() == {}
    assert kernels >= 1
    eager = {n for n in routing._op_names(device) if n.startswith(("reduce", "permute"))}
    assert not eager, eager


@pytest.mark.parametrize("call", ["sum(imgs, [1 3])", "mean(imgs, [1 3], 'omitnan')",
                                  "max(imgs, [], [3 1])", "std(imgs, 0, [1 3])"])
def test_split_vecdim_is_one_permute_and_a_fused_reduction(device, call):
    """Reduced dims that are not one block are moved after the kept ones by
    the provider's permute, then reduced by a fused reduction: no eager
    reduce hook. The result has MATLAB's shape (1 x 32 here)."""
    if not fusion_enabled(device):
        pytest.skip(f"{device.name} does not fuse")
    code = ("imgs = rand(4, 32, 48, 'single', 'gpuArray');"
            f"r = {call}; fprintf('%d %d %.4f\\n', size(r, 1), size(r, 2), gather(sum(r(:))));")
    text, tel, kernels = _run(device, code)
    assert fallback_counts() == {}
    assert text.startswith("1 32 ")
    names = routing._op_names(device)
    assert "permute" in names
    assert not {n for n in names if n.startswith("reduce")}, names
