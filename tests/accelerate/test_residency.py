"""Unchanged host arrays re-read by device code keep one device copy; a
write to the host array makes a new array, uploaded anew."""

from __future__ import annotations

import io

import numpy as np

from matfuse import Session
from matfuse.accelerate.residency import HostArrayResidency, is_shared
from matfuse.runtime.indexing import paren_set


def _uploads(p) -> int:
    return int(p.telemetry().get("uploads", 0))


def test_same_array_is_uploaded_once(device):
    cache = HostArrayResidency()
    w = np.arange(12.0).reshape(3, 4) ** 2
    before = _uploads(device)
    first = cache.device_copy(w, device)
    assert cache.device_copy(w, device) is first
    assert _uploads(device) == before + 1 and is_shared(first)
    np.testing.assert_array_equal(first.gather(), w)


def test_a_write_copies_and_the_new_array_is_uploaded_with_its_values(device):
    cache = HostArrayResidency()
    w = np.arange(6.0).reshape(1, 6) ** 2
    old = cache.device_copy(w, device)
    changed = paren_set(w, [3.0], 100.0, inplace=True)
    assert changed is not w and w[0, 2] == 4.0
    new = cache.device_copy(changed, device)
    assert new is not old
    np.testing.assert_array_equal(new.gather(), changed)
    np.testing.assert_array_equal(old.gather(), w)


def test_views_and_scalars_are_not_kept(device):
    cache = HostArrayResidency()
    base = np.arange(10.0) ** 2
    view = base.reshape(2, 5)
    cache.device_copy(view, device)
    assert len(cache) == 0 and base.flags.writeable


def test_offloaded_loop_over_a_changing_host_array_matches_the_host():
    from matfuse.accelerate.planner import offload
    from matfuse.accelerate.planner.cost_model import CostModel
    from matfuse.accelerate.planner.decisions import Planner
    from matfuse.accelerate.planner.thresholds import CATEGORIES, ThresholdConfig
    from matfuse.accelerate.providers.inprocess import InProcessProvider
    from matfuse.accelerate_api import override_provider

    code = ("w = reshape(sin(1:300), [], 1) .^ 2; acc = zeros(300, 1);"
            "for t = 1:6, acc = acc + w .* t; if t == 3, w(7) = 50; end, end, r = sum(acc);")
    host = Session(stdout=io.StringIO())
    host.eval(code)
    config = ThresholdConfig()
    for category in CATEGORIES:
        config.set(category, 0, "test")
    # uploads cost much: only re-read host arrays go to the device
    costly_uploads = CostModel(upload_s_per_byte=1.0, download_s_per_byte=0.0, launch_s=0.0,
                               device_s_per_unit={c: 0.0 for c in CATEGORIES})
    p = InProcessProvider()
    with override_provider(p):
        planner = offload.activate(p, Planner(config, costly_uploads))
        planner.log.keep_all(True)
        try:
            dev = Session(stdout=io.StringIO())
            dev.eval(code)
            got = dev.get("r")
        finally:
            offload.reset()
    assert "re-read" in {d.reason for d in planner.log.all}
    assert abs(float(np.asarray(got)) - float(np.asarray(host.get("r")))) < 1e-9
