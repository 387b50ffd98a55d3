"""The fusion engine runs under the options the router's entry passes it
(``executor.configure``), following the facade's options in effect: one
provider object runs under several option sets."""

from __future__ import annotations

from matfuse.accelerate import facade
from matfuse.accelerate.fusion import executor
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.router import entry
from matfuse.accelerate_api import AccelProvider, ProviderCapabilities


class _FusingProvider(AccelProvider):
    name = "fusing-test"
    capabilities = ProviderCapabilities(fuses=True)


def _state(p: AccelProvider, **options: object) -> facade.AccelerationState:
    return facade.AccelerationState(AccelerateInitOptions(**options), p, p.name)


def test_the_fusion_flag_follows_the_options_in_effect():
    entry.install()
    p = _FusingProvider()
    saved = facade.use_acceleration_state(_state(p, fusion=False))
    try:
        assert not executor.fusion_enabled(p)
        facade.use_acceleration_state(_state(p, fusion=True))
        assert executor.fusion_enabled(p)
    finally:
        facade.use_acceleration_state(saved)


def test_one_executor_per_provider_takes_the_dump_folder_of_the_options(tmp_path):
    entry.install()
    p = _FusingProvider()
    saved = facade.use_acceleration_state(_state(p, dump_kernels=str(tmp_path)))
    try:
        first = executor.executor_for(p)
        assert first.dump_dir == str(tmp_path)
        facade.use_acceleration_state(_state(p))
        assert executor.executor_for(p) is first and first.dump_dir is None
    finally:
        facade.use_acceleration_state(saved)


def test_configure_passes_the_options_without_the_facade():
    p = _FusingProvider()
    try:
        executor.configure(AccelerateInitOptions(fusion=False))
        assert not executor.fusion_enabled(p)
    finally:
        executor.configure(facade.current_options())
    assert executor.fusion_enabled(p) == facade.current_options().fusion


def test_a_listener_gets_the_options_now_and_on_each_change():
    seen: list[AccelerateInitOptions] = []
    facade.add_options_listener(seen.append)
    try:
        assert seen == [facade.current_options()]
        p = _FusingProvider()
        state = _state(p, fusion=False)
        saved = facade.use_acceleration_state(state)
        facade.use_acceleration_state(saved)
        assert seen[1] is state.options and seen[2] == facade.current_options()
    finally:
        facade._options_listeners.remove(seen.append)
