"""AccelerateInitOptions: defaults, environment parsing, CLI precedence."""

from __future__ import annotations

import pytest

from matfuse.accelerate.options import ENV_VARIABLES, AccelerateInitOptions
from matfuse.errors import MatlabError


def test_defaults_without_environment():
    o = AccelerateInitOptions.from_env({})
    assert (o.provider, o.power, o.fallback, o.fusion, o.auto_offload) == \
        ("auto", "high-performance", "inprocess", True, True)
    assert o.dump_kernels is None and o.stats is False and o.device_index == 0


def test_environment_values():
    env = {"MATFUSE_PROVIDER": "WGPU", "MATFUSE_POWER": "low", "MATFUSE_FALLBACK": "error",
           "MATFUSE_FUSION": "0", "MATFUSE_AUTO_OFFLOAD": "off", "MATFUSE_DUMP_KERNELS": "/tmp/k",
           "MATFUSE_STATS": "yes", "MATFUSE_DEVICE": "1", "MATFUSE_ALLOW_CPU_ADAPTER": "true"}
    o = AccelerateInitOptions.from_env(env)
    assert o.provider == "wgpu" and o.power == "low-power" and o.fallback == "error"
    assert o.fusion is False and o.auto_offload is False and o.stats is True
    assert o.dump_kernels == "/tmp/k" and o.device_index == 1 and o.allow_cpu_adapter is True


def test_cli_overrides_win_and_none_is_ignored():
    o = AccelerateInitOptions.from_env({"MATFUSE_PROVIDER": "wgpu"}, provider="inprocess",
                                       fusion=None)
    assert o.provider == "inprocess" and o.fusion is True


@pytest.mark.parametrize("var,value", [("MATFUSE_PROVIDER", "opencl"), ("MATFUSE_FUSION", "maybe"),
                                       ("MATFUSE_POWER", "turbo"), ("MATFUSE_DEVICE", "-1"),
                                       ("MATFUSE_FALLBACK", "cpu")])
def test_invalid_values_are_errors(var, value):
    with pytest.raises(MatlabError) as info:
        AccelerateInitOptions.from_env({var: value})
    assert info.value.identifier == "matfuse:accelerate:badOption"
    assert var in info.value.message


def test_unknown_cli_option_is_a_programming_error():
    with pytest.raises(TypeError):
        AccelerateInitOptions.from_env({}, turbo=True)


def test_readme_documents_every_variable():
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme.split("## Environment overrides", 1)[1]
    for var in ENV_VARIABLES:
        assert f"`{var}`" in section, var
