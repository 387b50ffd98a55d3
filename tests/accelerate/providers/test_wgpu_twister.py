"""The wgpu MT19937 kernels against NumPy's RandomState (lavapipe in CI):
the generated words bit for bit, the values as the host draws them."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.providers.wgpu import hooks_twister
from matfuse.accelerate.providers.wgpu.hooks_twister import TwisterHooks
from matfuse.accelerate_api import HostTensor, Unsupported
from matfuse.runtime import _mt19937


def _state(p, seed: int, skip: int = 0):
    rs = np.random.RandomState(seed)
    if skip:
        rs.bytes(4 * skip)
    _, words, pos, _, _ = rs.get_state(legacy=True)
    words = words.astype(np.uint32)
    return words, int(pos), p.upload(HostTensor(words.copy(), (624, 1), "uint32"))


def _device_words(p, handle, count: int, pos: int) -> tuple[np.ndarray, int]:
    with p.op("test_twister_words"):
        out = p.alloc((count, 1), "uint32")
        after = p._twister_words(handle, out, count, pos)
    words = p.download(out).data.reshape(-1).astype(np.uint32)
    p.free(out)
    return words, after


@pytest.mark.parametrize("seed,skip,count", [
    (5489, 0, 624), (42, 0, 1), (42, 0, 625), (7, 17, 1000), (2 ** 32 - 1, 623, 4999),
    (123, 300, 2 * 624 + 5)])
def test_words_are_numpy_words(wgpu_provider, seed, skip, count):
    p = wgpu_provider
    words, pos, handle = _state(p, seed, skip)
    got, after = _device_words(p, handle, count, pos)
    np.testing.assert_array_equal(got, _mt19937.raw_words(words, pos, count))
    assert after == _mt19937.position_after(pos, count)
    # the state on the device is the host's state after the same words
    rs = np.random.RandomState()
    rs.set_state(("MT19937", words, pos, 0, 0.0))
    rs.bytes(4 * count)
    _, host_after, host_pos, _, _ = rs.get_state(legacy=True)
    np.testing.assert_array_equal(p.download(handle).data.reshape(-1), host_after)
    assert after == host_pos
    p.free(handle)


def test_words_over_several_dispatches(wgpu_provider, monkeypatch):
    """Streams longer than one dispatch's loop budget continue across dispatches."""
    p = wgpu_provider
    monkeypatch.setattr(TwisterHooks, "_twister_dispatch_blocks", lambda self: 2)
    words, pos, handle = _state(p, 99, 100)
    got, _ = _device_words(p, handle, 7 * 624 + 11, pos)
    np.testing.assert_array_equal(got, _mt19937.raw_words(words, pos, 7 * 624 + 11))
    p.free(handle)


@pytest.mark.parametrize("kind,dtype", [
    ("uniform", "float64"), ("uniform", "float32"), ("normal", "float64"), ("normal", "float32"),
    ("randi", "float64"), ("randi", "float32"), ("randi", "int32"), ("randi", "uint8")])
def test_values_are_the_host_values(wgpu_provider, kind, dtype):
    p = wgpu_provider
    limits = (-3.0, 12.0) if dtype != "uint8" else (0.0, 255.0)
    words, pos, handle = _state(p, 2024, 5)
    n = 3001
    h = p.random_twister(kind, (n, 1), dtype, handle, pos, limits)
    got = p.download(h).data.reshape(-1)
    want, after = _mt19937.draw(words, pos, kind, n, dtype, limits)
    if kind == "normal" and dtype == "float64":
        # Box-Muller through log1p/cos: a few ulps from NumPy's
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(np.float64).eps, atol=0)
    else:
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(p.download(handle).data.reshape(-1), after)
    p.free(h)
    p.free(handle)


def test_chunked_draw_continues_the_stream(wgpu_provider, monkeypatch):
    """Draws larger than one chunk convert range by range into one output."""
    p = wgpu_provider
    monkeypatch.setattr(hooks_twister, "_CHUNK_VALUES", 128)
    words, pos, handle = _state(p, 31, 0)
    h = p.random_twister("uniform", (1000, 3), "float32", handle, pos)
    want, after = _mt19937.draw(words, pos, "uniform", 3000, "float32")
    np.testing.assert_array_equal(p.download(h).data.reshape(-1), want)
    np.testing.assert_array_equal(p.download(handle).data.reshape(-1), after)
    p.free(h)
    p.free(handle)


def test_refuses_before_touching_the_state(wgpu_provider):
    p = wgpu_provider
    words, pos, handle = _state(p, 1)
    with pytest.raises(Unsupported):
        p.random_twister("normal", (10, 1), "int32", handle, pos)
    np.testing.assert_array_equal(p.download(handle).data.reshape(-1), words)
    p.free(handle)
