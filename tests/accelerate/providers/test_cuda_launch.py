"""The CUDA provider's parameter blocks (``providers/cuda/launch.py``),
checked against a recording stand-in for ``cuLaunchKernel`` (the launches
themselves run in the CUDA provider tests on the GPU machine)."""

from __future__ import annotations

import ctypes
import struct
import types

import numpy as np
import pytest

from matfuse.accelerate.providers.cuda.launch import KernelLauncher, launcher_for


class RecordingDriver:
    def __init__(self, count: int):
        self.count = count
        self.calls: list[tuple] = []

    def launchKernel(self, f, gx, gy, gz, bx, by, bz, smem, stream, params, extra):  # noqa: N802
        slots = (ctypes.c_void_p * self.count).from_address(params)
        self.calls.append(((f, gx, gy, gz, bx, by, bz, smem, stream, extra),
                           [ctypes.string_at(p, 8) for p in slots]))


@pytest.mark.parametrize("f64", [True, False])
def test_slots_hold_pointers_words_and_uniforms(f64):
    driver = RecordingDriver(6)
    launcher = KernelLauncher(driver, 99, 2, 2, 2, f64)
    for scale in (1.0, -3.0):   # the block is reused: the second launch overwrites it
        launcher.launch(12, 256, 5, [0x10000, 0x20000], [7, 0xFFFFFFFF], [0.1 * scale, 2.5e300 * scale])
    head, slots = driver.calls[-1]
    assert head == (99, 12, 1, 1, 256, 1, 1, 0, 5, 0)
    assert [struct.unpack("<Q", s)[0] for s in slots[:2]] == [0x10000, 0x20000]
    assert [struct.unpack("<I", s[:4])[0] for s in slots[2:4]] == [7, 0xFFFFFFFF]
    if f64:
        assert [struct.unpack("<d", s)[0] for s in slots[4:]] == [-0.1 * 3.0, -2.5e300 * 3.0]
    else:
        got = [struct.unpack("<f", s[:4])[0] for s in slots[4:]]
        assert got[0] == float(np.float32(-0.1 * 3.0))
        assert got[1] == float("-inf")       # rounds like np.float32(-7.5e300)


def test_no_launcher_without_a_function_pointer():
    cupy = types.SimpleNamespace(cuda=types.SimpleNamespace(driver=RecordingDriver(1)))
    assert launcher_for(cupy, object(), 1, 0, 0, True) is None
    function = types.SimpleNamespace(ptr=1234)
    assert launcher_for(cupy, function, 1, 0, 0, True) is not None


def test_single_uniforms_round_like_numpy_at_the_range_end():
    # Python's struct refuses doubles just above FLT_MAX that IEEE rounds to it
    driver = RecordingDriver(4)
    launcher = KernelLauncher(driver, 7, 0, 0, 4, False)
    # just below the rounding midpoint (-> FLT_MAX), the midpoint (-> Inf), tiny
    values = [3.40282356e38, -3.4028235677973366e38, 1e-46, 0.1]
    launcher.launch(1, 32, 0, [], [], values)
    got = [s[:4] for s in driver.calls[-1][1]]
    with np.errstate(over="ignore"):
        want = [np.array(v).astype(np.float32).tobytes() for v in values]
    assert got == want
    assert want[0] == np.finfo(np.float32).max.tobytes()
