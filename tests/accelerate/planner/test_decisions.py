"""Decision rules, thresholds and the decision log, with device costs set by
the test (a fake device: a CostModel whose numbers the test chooses)."""

from __future__ import annotations

import pytest

from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.decisions import DecisionLog, Planner, describe
from matfuse.accelerate.planner.thresholds import (
    DEFAULT_THRESHOLDS,
    ThresholdConfig,
    resolve_thresholds,
)


def fake_device(launch_s: float = 10e-6, upload_s_per_byte: float = 1e-10,
                device_per_element: float = 0.01e-9, cpu_per_element: float = 1e-9) -> CostModel:
    return CostModel(upload_s_per_byte=upload_s_per_byte, download_s_per_byte=upload_s_per_byte,
                     launch_s=launch_s,
                     cpu_s_per_unit={c: cpu_per_element for c in DEFAULT_THRESHOLDS},
                     device_s_per_unit={c: device_per_element for c in DEFAULT_THRESHOLDS})


def planner(threshold: int = 1000, **costs: float) -> Planner:
    config = ThresholdConfig()
    for category in DEFAULT_THRESHOLDS:
        config.set(category, threshold, "test")
    return Planner(config, fake_device(**costs))


def test_sink_and_host_only_run_on_the_cpu_whatever_the_size():
    p = planner()
    assert p.decide("fprintf", "elementwise", 10**9, resident=True, sink=True).reason == "sink"
    d = p.decide("regexprep", None, 10**9, resident=True)
    assert (d.target, d.reason) == ("cpu", "host-only")


def test_resident_operand_keeps_work_on_the_device_even_when_small():
    d = planner().decide("plus", "elementwise", 3, resident=True)
    assert (d.target, d.reason) == ("gpu", "resident")


def test_below_threshold_stays_on_cpu():
    d = planner(threshold=1000).decide("exp", "elementwise", 999)
    assert (d.target, d.reason) == ("cpu", "below-threshold")


def test_cost_model_decides_above_threshold():
    cheap = planner(threshold=10).decide("exp", "elementwise", 10**6, upload_bytes=8 * 10**6)
    assert (cheap.target, cheap.reason) == ("gpu", "cost-model")
    # A device behind a slow link: uploading costs more than computing on the CPU.
    slow = planner(threshold=10, upload_s_per_byte=1e-6).decide(
        "exp", "elementwise", 10**6, upload_bytes=8 * 10**6)
    assert (slow.target, slow.reason) == ("cpu", "cost-model")
    # A device slower per element than the CPU never wins.
    slower = planner(threshold=10, device_per_element=2e-9).decide("exp", "elementwise", 10**6)
    assert slower.target == "cpu"


def test_launch_overhead_matters_for_mid_sized_work():
    p = planner(threshold=1, launch_s=1e-3)
    assert p.decide("exp", "elementwise", 10_000).target == "cpu"      # 10 us of CPU work
    assert p.decide("exp", "elementwise", 10_000_000).target == "gpu"  # 10 ms of CPU work


def test_fusion_context_shares_fixed_costs_with_the_group():
    p = planner(threshold=1000, launch_s=50e-6)
    assert p.decide("times", "elementwise", 400).reason == "below-threshold"
    p.set_fusion_context(lambda name, operands: 5)
    d = p.decide("times", "elementwise", 400 * 100)
    assert (d.target, d.reason) == ("gpu", "fusion")
    # 400 elements alone: launch (50 us) >> CPU (0.4 us); shared by 5: still a loss.
    small = p.decide("times", "elementwise", 400)   # 5 x 400 passes the threshold
    assert (small.target, small.reason) == ("cpu", "cost-model")
    p.set_fusion_context(lambda name, operands: 1)
    assert p.decide("times", "elementwise", 400).reason == "below-threshold"


def test_fusion_group_with_free_device_offloads_small_members():
    p = planner(threshold=1000, launch_s=0.0, upload_s_per_byte=0.0)
    p.set_fusion_context(lambda name, operands: 4)
    d = p.decide("plus", "elementwise", 300)
    assert (d.target, d.reason) == ("gpu", "fusion")
    # A group whose combined work stays under the threshold is not worth it.
    assert p.decide("plus", "elementwise", 200).reason == "below-threshold"


def test_fusion_context_sees_the_operation_and_its_operands():
    seen = []
    p = planner(threshold=10)
    p.set_fusion_context(lambda name, operands: seen.append((name, tuple(operands))) or 1)
    p.decide("exp", "elementwise", 100, operands=("x",))
    assert seen == [("exp", ("x",))]
    assert p.group_size("exp", ()) == 1


def test_pending_group_on_the_device_keeps_small_consumers_there():
    # A lazy device operand (pending group of 3): the CPU would have to run
    # its kernel and download it, so even a tiny consumer joins the group.
    p = planner(threshold=10**6, launch_s=20e-6)
    p.set_fusion_context(lambda name, operands: 3)
    d = p.decide("plus", "elementwise", 100, pending_bytes=800)
    assert (d.target, d.reason) == ("gpu", "fusion")
    # ...unless the device is so slow per element that forcing the group wins.
    slow = planner(threshold=10**6, launch_s=1e-6, device_per_element=1e-6)
    slow.set_fusion_context(lambda name, operands: 3)
    d = slow.decide("plus", "elementwise", 10**5, pending_bytes=8 * 10**5)
    assert (d.target, d.reason) == ("cpu", "cost-model")


def test_rule_order_sink_host_only_resident_before_fusion():
    p = planner(threshold=10**9, device_per_element=1.0)   # fusion would say CPU
    p.set_fusion_context(lambda name, operands: 50)
    assert p.decide("fprintf", "elementwise", 5, sink=True, pending_bytes=8).reason == "sink"
    assert p.decide("strrep", None, 5, pending_bytes=8).reason == "host-only"
    assert p.decide("plus", "elementwise", 5, resident=True, pending_bytes=8).reason == "resident"


def test_rule_order_residency_before_threshold_and_sink_before_residency():
    p = planner(threshold=10**9)
    assert p.decide("sum", "reduction", 5, resident=True).target == "gpu"
    assert p.decide("disp", "elementwise", 5, resident=True, sink=True).target == "cpu"


def test_construction_target_needs_device_consumers():
    p = planner(threshold=1000)
    assert p.construction_target("randn", 999).target == "cpu"
    d = p.construction_target("randn", 10**6)
    assert (d.target, d.reason) == ("gpu", "consumers-on-device")
    p.thresholds.set("elementwise", 10**7, "test")   # consumers would stay on the CPU
    assert p.construction_target("randn", 10**6).target == "cpu"


def test_fused_generator_needs_no_launch_of_its_own():
    # Launch 1 ms: an eager fill of 10^5 elements loses to the CPU (0.1 ms);
    # a lazy generator computed inside its consumer's kernel does not launch.
    p = planner(threshold=1000, launch_s=1e-3)
    assert p.construction_target("ones", 10**5, 4).target == "cpu"
    d = p.construction_target("ones", 10**5, 4, fused=True)
    assert (d.target, d.reason) == ("gpu", "fused-generator")


def test_decision_log_counts_and_keeps_the_last_n():
    log = DecisionLog(keep=3)
    p = Planner(ThresholdConfig(), fake_device(), log)
    p.line_source = lambda: 7
    for _ in range(5):
        p.decide("plus", "elementwise", 1)
    p.decide("plus", "elementwise", 1, resident=True)
    assert log.summary() == {"cpu:below-threshold": 5, "gpu:resident": 1}
    assert len(log.recent) == 3 and log.recent[-1].line == 7
    assert describe(log.recent[-1]) == "plus -> gpu (resident, 1 elements)"
    log.clear()
    assert log.summary() == {} and not log.recent


def test_threshold_sources_defaults_calibration_env():
    config = resolve_thresholds()
    assert config.get("elementwise") == DEFAULT_THRESHOLDS["elementwise"]
    assert set(config.sources.values()) == {"defaults"}
    options = AccelerateInitOptions.from_env({"MATFUSE_THRESHOLD_REDUCTION": "77"})
    config = resolve_thresholds(options, {"elementwise": 5000, "reduction": 6000, "bogus": 1})
    assert config.as_dict()["elementwise"] == {"value": 5000, "source": "calibration"}
    assert config.as_dict()["reduction"] == {"value": 77, "source": "env"}
    assert config.as_dict()["matmul"]["source"] == "defaults"
    assert config.smallest_array() == 77


def test_options_parse_force_and_thresholds():
    o = AccelerateInitOptions.from_env({"MATFUSE_AUTO_OFFLOAD": "force",
                                        "MATFUSE_THRESHOLD_MATMUL": "123",
                                        "MATFUSE_CALIBRATE": "1"})
    assert o.auto_offload == "force" and o.threshold_matmul == 123 and o.calibrate is True
    assert AccelerateInitOptions.from_env({}).auto_offload is True


@pytest.mark.parametrize("value", ["-1", "lots"])
def test_bad_threshold_is_a_matlab_error(value):
    from matfuse.errors import MatlabError

    with pytest.raises(MatlabError) as info:
        AccelerateInitOptions.from_env({"MATFUSE_THRESHOLD_ELEMENTWISE": value})
    assert info.value.identifier == "matfuse:accelerate:badOption"


def test_cost_model_round_trip_and_break_even():
    model = fake_device(launch_s=1e-5, upload_s_per_byte=0.0)
    again = CostModel.from_dict(model.as_dict())
    assert again.as_dict() | {"source": "defaults"} == model.as_dict() | {"source": "defaults"}
    n = model.break_even("elementwise", 0.0)
    assert model.estimate("elementwise", n).device_wins
    assert not model.estimate("elementwise", n // 2).device_wins
    assert fake_device(device_per_element=5e-9).break_even("elementwise", 0.0) >= 1 << 62
