"""Array-math builtins keep gpuArray data on the device (issue 17's rule: a
host fallback is a bug to remove).

``FORMS`` (tests/accelerate/array_math_forms.py) must run without a host
fallback on every provider under test (CI: wgpu on lavapipe), except the
forms of ``KNOWN_HOST`` (and of ``KNOWN_HOST_ON`` for the provider named
there), each with its reason; those must still fall back (the lists only
shrink). The registry walk calls every one-argument
array-math builtin on a gpuArray: a builtin that falls back and is not in
``PROBE_HOST`` fails the test (a ratchet: remove names as they move)."""

from __future__ import annotations

import pytest

from tests.accelerate.array_math_forms import (
    FORMS,
    KNOWN_HOST,
    KNOWN_HOST_ON,
    host_fallbacks,
    probe_registry,
)

# One-argument array-math builtins that still fall back for a 5x6 double
# gpuArray on some provider (in-process or wgpu), each with its reason.
PROBE_HOST: frozenset[str] = frozenset({
    # char of numbers is text (no device char class); eps needs the binary
    # exponent of each element (no device frexp yet)
    "char", "eps",
    # wgpu stores no 64-bit integers (the CUDA and in-process providers do)
    "int64", "uint64",
})


@pytest.mark.parametrize("form", FORMS)
def test_form_runs_on_device(device, form):
    counts = host_fallbacks(form)
    if form in KNOWN_HOST or form in KNOWN_HOST_ON.get(device.name, {}):
        assert counts, f"{form} now runs on the device: remove it from KNOWN_HOST"
    else:
        assert counts == {}, counts


def test_registry_walk_finds_no_new_host_fallback(device):
    verdicts = probe_registry()
    on_host = {name for name, v in verdicts.items() if v.startswith("host")}
    unexpected = {name: verdicts[name] for name in on_host - PROBE_HOST}
    assert not unexpected, unexpected
    odd = {name: v for name, v in verdicts.items() if v not in ("device", "error")
           and not v.startswith("host")}
    assert not odd, odd
