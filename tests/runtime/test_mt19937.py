"""The twister stream's shared pieces (runtime/_mt19937.py) against NumPy's
RandomState, and the host generator handing its state to a device and
taking it back."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.runtime import _mt19937, _rng


def _state_after(seed: int, words: int) -> tuple[np.ndarray, int]:
    rs = np.random.RandomState(seed)
    if words:
        rs.bytes(4 * words)
    _, key, pos, _, _ = rs.get_state(legacy=True)
    return key.astype(np.uint32), int(pos)


@pytest.mark.parametrize("skip", [0, 1, 300, 623])
@pytest.mark.parametrize("count", [0, 1, 323, 324, 624, 625, 5000])
def test_position_after_is_numpys(skip, count):
    words, pos = _state_after(7, skip)
    rs = np.random.RandomState()
    rs.set_state(("MT19937", words, pos, 0, 0.0))
    if count:
        rs.bytes(4 * count)
    assert _mt19937.position_after(pos, count) == rs.get_state(legacy=True)[2]


def test_raw_words_are_what_random_sample_consumes():
    words, pos = _state_after(42, 5)
    w = _mt19937.raw_words(words, pos, 200).astype(np.uint64)
    rs = np.random.RandomState()
    rs.set_state(("MT19937", words, pos, 0, 0.0))
    expected = ((w[0::2] >> 5) * 67108864 + (w[1::2] >> 6)) / 9007199254740992.0
    np.testing.assert_array_equal(rs.random_sample(100), expected)


def test_draw_matches_the_host_generator():
    gen = _rng.RandomGenerator()
    gen.reseed(11)
    words, pos = gen.twister_words()
    values, after = _mt19937.draw(words, pos, "normal", 101, "float32")
    np.testing.assert_array_equal(values, gen.normal(101, "single"))
    np.testing.assert_array_equal(after, gen.twister_words()[0])
    values, _ = _mt19937.draw(after, gen.twister_words()[1], "randi", 50, "float64", (3.0, 9.0))
    np.testing.assert_array_equal(values, 3.0 + np.floor(gen.uniform(50) * 7.0))


class _HeldState:
    """A stand-in for a device copy: the words advanced elsewhere."""

    def __init__(self, words: np.ndarray, pos: int):
        self.words, self.pos, self.fetched, self.dropped = words, pos, 0, 0

    def fetch(self) -> np.ndarray:
        self.fetched += 1
        return self.words

    def drop(self) -> None:
        self.dropped += 1

    def held_by(self, owner: object) -> bool:
        return owner == "device"


def test_host_takes_the_state_back_before_drawing():
    host = _rng.RandomGenerator()
    host.reseed(5)
    reference = _rng.RandomGenerator()
    reference.reseed(5)
    words, pos = host.twister_words()
    # a "device" draws 1000 uniforms: the state moves there
    _, after = _mt19937.draw(words, pos, "uniform", 1000, "float64")
    held = _HeldState(after, _mt19937.position_after(pos, 2000))
    host.keep_on_device(held)
    assert host.device_twister is held
    reference.uniform(1000)
    np.testing.assert_array_equal(host.uniform(7), reference.uniform(7))
    assert (held.fetched, held.dropped) == (1, 1) and host.device_twister is None


@pytest.mark.parametrize("action", ["reseed", "set_state"])
def test_reseeding_drops_the_device_copy_unread(action):
    gen = _rng.RandomGenerator()
    words, pos = gen.twister_words()
    held = _HeldState(words, pos)
    gen.keep_on_device(held)
    if action == "reseed":
        gen.reseed(3)
    else:
        gen.set_state("twister", 0, np.concatenate([words, [pos]]))
    assert (held.fetched, held.dropped) == (0, 1) and gen.device_twister is None


def test_state_query_sees_the_device_draws():
    gen = _rng.RandomGenerator()
    gen.reseed(9)
    words, pos = gen.twister_words()
    _, after = _mt19937.draw(words, pos, "normal", 10, "float64")
    gen.keep_on_device(_HeldState(after, _mt19937.position_after(pos, 40)))
    state = gen.get_state().reshape(-1)
    np.testing.assert_array_equal(state[:624], after)
    assert state[624] == _mt19937.position_after(pos, 40)


def test_recall_takes_the_state_back_from_its_device_only():
    gen = _rng.RandomGenerator()
    words, pos = gen.twister_words()
    held = _HeldState(words, pos)
    gen.keep_on_device(held)
    gen.recall_from("another device")
    assert gen.device_twister is held
    gen.recall_from("device")
    assert gen.device_twister is None and (held.fetched, held.dropped) == (1, 1)
