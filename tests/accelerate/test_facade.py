"""Provider selection and the idempotence of initialisation."""

from __future__ import annotations

import pytest

from matfuse.accelerate import facade
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import provider
from matfuse.errors import MatlabError


@pytest.fixture
def fresh(monkeypatch):
    facade.shutdown_acceleration()
    yield monkeypatch
    facade.shutdown_acceleration()


def _fake_backends(monkeypatch, available: dict[str, bool], calls: list):
    real = facade._load_backend

    def load(name, options, allow_cpu):
        calls.append((name, allow_cpu))
        if name == "inprocess":
            return real(name, options, allow_cpu)
        if not available.get(name):
            raise facade.ProviderUnavailable(f"{name} missing")
        p = InProcessProvider()
        p.name = name
        return p

    monkeypatch.setattr(facade, "_load_backend", load)


def test_inprocess_is_chosen_and_registered(fresh):
    p = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="inprocess"))
    assert p.name == "inprocess" and provider() is p
    assert "inprocess" in facade.acceleration_state().description


def test_initialisation_is_idempotent(fresh):
    first = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="inprocess"))
    again = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="wgpu"))
    assert again is first


@pytest.fixture
def gpu_nodes(monkeypatch):
    """Pretend the machine has GPU device nodes (so auto probes backends)."""
    monkeypatch.setattr(facade, "gpu_hardware_present", lambda: True)


def test_auto_without_gpu_hardware_does_not_probe(fresh, monkeypatch):
    monkeypatch.setattr(facade, "gpu_hardware_present", lambda: False)
    calls: list = []
    _fake_backends(fresh, {"wgpu": True}, calls)
    p = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="auto"))
    assert p.name == "inprocess"
    assert [c[0] for c in calls] == ["inprocess"]


def test_auto_order_prefers_cuda_then_wgpu(fresh, gpu_nodes):
    calls: list = []
    _fake_backends(fresh, {"wgpu": True}, calls)
    p = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="auto"))
    assert p.name == "wgpu"
    assert calls == [("cuda", False), ("wgpu", False)]  # auto never allows CPU adapters


def test_auto_falls_back_to_inprocess(fresh, gpu_nodes):
    calls: list = []
    _fake_backends(fresh, {}, calls)
    p = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="auto"))
    assert p.name == "inprocess"
    assert [c[0] for c in calls] == ["cuda", "wgpu", "inprocess"]


def test_explicit_wgpu_may_use_cpu_adapter(fresh):
    calls: list = []
    _fake_backends(fresh, {"wgpu": True}, calls)
    facade.initialize_acceleration_provider(AccelerateInitOptions(provider="wgpu"))
    assert calls == [("wgpu", True)]


def test_unavailable_provider_falls_back_with_a_note(fresh):
    calls: list = []
    _fake_backends(fresh, {}, calls)
    p = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="cuda"))
    assert p.name == "inprocess"
    assert any("cuda missing" in n for n in facade.acceleration_state().notes)


def test_unavailable_provider_with_fallback_error(fresh):
    _fake_backends(fresh, {}, [])
    with pytest.raises(MatlabError) as info:
        facade.initialize_acceleration_provider(
            AccelerateInitOptions(provider="cuda", fallback="error"))
    assert info.value.identifier == "matfuse:accelerate:providerUnavailable"


def test_ensure_provider_initialises_lazily(fresh):
    fresh.setenv("MATFUSE_PROVIDER", "inprocess")
    assert facade.acceleration_state() is None
    p = facade.ensure_provider()
    assert p.name == "inprocess" and facade.ensure_provider() is p


def test_report_and_stats(fresh):
    import io

    assert "not initialised" in facade.acceleration_report()
    p = facade.initialize_acceleration_provider(AccelerateInitOptions(provider="inprocess"))
    report = facade.acceleration_report()
    assert "provider: inprocess" in report and "fusion=1" in report
    from matfuse.accelerate.gpuarray import upload_value
    from matfuse.accelerate_api import count_fallback, reset_fallback_counts

    reset_fallback_counts()
    g = upload_value(1.0, p)
    count_fallback("sort")
    stream = io.StringIO()
    facade.print_stats(stream)
    text = stream.getvalue()
    assert "uploads: 1" in text and "host fallbacks: 1" in text and "sort=1" in text
    del g
