"""The global random generator behind rand/randn/randi/randperm/rng.

Two generator types, as MATLAB's ``rng`` names them:

* ``twister`` (the default): MT19937. ``rng(s)`` seeds it with
  ``init_genrand(s)``; MATLAB's seed 0 (``rng default``) maps to MT seed 5489.
  ``rand`` draws are MT ``genrand_res53`` (two 32-bit words ``a, b`` ->
  ``((a>>5)*67108864 + (b>>6)) / 2**53``), which is exactly NumPy's legacy
  ``RandomState.random_sample``; so ``rng(0); rand(1,4)`` gives MATLAB's
  0.8147 0.9058 0.1270 0.9134.  ``randn`` is NOT bit-compatible with MATLAB
  (MATLAB uses a ziggurat we cannot reproduce): we use Box-Muller on two
  ``res53`` draws per value, ``sqrt(-2 log(1-u1)) * cos(2 pi u2)``.
* ``philox``: Philox4x32-10 keyed by the seed, counter-based (see
  ``_philox``); the GPU providers reproduce this stream.  Not bit-compatible
  with MATLAB's own philox stream.

When auto-offload draws twister values on the device
(``accelerate/twister_stream.py``), the MT state moves there and stays
until the host needs it: a :class:`DeviceTwisterState` is parked here and
every host use of the stream first takes the state back (624 words, one
small download), so host and device draws interleave as one stream.
"""

from __future__ import annotations

import time
from typing import Protocol

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime import _mt19937, _philox

MATLAB_DEFAULT_MT_SEED = 5489
GENERATOR_TYPES = ("twister", "philox")


class DeviceTwisterState(Protocol):
    """The MT state while it lives on a device."""

    pos: int

    def fetch(self) -> np.ndarray:
        """The 624 state words (uint32), downloaded."""

    def drop(self) -> None:
        """Free the device copy."""

    def held_by(self, owner: object) -> bool:
        """Whether the copy lives on device ``owner``."""


class RandomGenerator:
    """The process-wide generator: a type, a seed and the stream position."""

    def __init__(self) -> None:
        self.type = "twister"
        self.seed = 0
        self._host_mt = np.random.RandomState(MATLAB_DEFAULT_MT_SEED)
        self._device: DeviceTwisterState | None = None
        self.counter = 0   # philox block counter

    # ------------------------------------------------- where the MT state is
    @property
    def _mt(self) -> np.random.RandomState:
        """The host MT generator, with the state taken back from the device
        first when a device draw moved it there."""
        if self._device is not None:
            device, self._device = self._device, None
            words = device.fetch()
            self._host_mt.set_state(("MT19937", words.astype(np.uint32), int(device.pos), 0, 0.0))
            device.drop()
        return self._host_mt

    @_mt.setter
    def _mt(self, value: np.random.RandomState) -> None:
        self._forget_device()
        self._host_mt = value

    def _forget_device(self) -> None:
        if self._device is not None:
            device, self._device = self._device, None
            device.drop()

    @property
    def device_twister(self) -> DeviceTwisterState | None:
        """The device copy of the MT state, if a device draw holds it."""
        return self._device

    def twister_words(self) -> tuple[np.ndarray, int]:
        """(624 state words, position) of the twister stream on the host
        (taking it back from the device if needed)."""
        _, key, pos, _, _ = self._mt.get_state(legacy=True)
        return key.astype(np.uint32), int(pos)

    def recall_from(self, owner: object) -> None:
        """Take the state back to the host if it lives on device ``owner``
        (before that device is reset)."""
        if self._device is not None and self._device.held_by(owner):
            self.twister_words()

    def keep_on_device(self, state: DeviceTwisterState) -> None:
        """A device draw advanced the stream: ``state`` is now its only copy."""
        if self._device is not state:
            self._forget_device()
        self._device = state

    # -------------------------------------------------------------- seeding
    def reseed(self, seed: int, gen_type: str | None = None) -> None:
        """``rng(seed, type)``: restart the stream of ``gen_type`` at ``seed``."""
        self.type = gen_type or self.type
        self.seed = int(seed)
        self._forget_device()
        if self.type == "twister":
            self._mt = np.random.RandomState(self.seed if self.seed else MATLAB_DEFAULT_MT_SEED)
        self.counter = 0

    def shuffle_seed(self) -> int:
        """A seed from the clock, as ``rng('shuffle')`` uses."""
        return int(time.time() * 1e6) % (2 ** 32)

    # ---------------------------------------------------------------- state
    def get_state(self) -> np.ndarray:
        """The raw state as a uint32 column (MT: 624 words + position;
        philox: counter low, counter high, key low, key high)."""
        if self.type == "twister":
            _, key, pos, _, _ = self._mt.get_state(legacy=True)
            return np.concatenate([key.astype(np.uint32), np.array([pos], dtype=np.uint32)]).reshape(-1, 1)
        k0, k1 = _philox.key_from_seed(self.seed)
        c = self.counter
        return np.array([[c & 0xFFFFFFFF], [(c >> 32) & 0xFFFFFFFF], [k0], [k1]], dtype=np.uint32)

    def set_state(self, gen_type: str, seed: int, state: np.ndarray) -> None:
        """Restore a state captured by ``get_state``."""
        words = np.asarray(state).reshape(-1).astype(np.uint64)
        self._forget_device()
        self.type = gen_type
        self.seed = int(seed)
        if gen_type == "twister":
            if words.size != 625:
                raise MatlabError("MATLAB:rng:badSettings", "Invalid state for the twister generator.")
            self._mt = np.random.RandomState()
            self._mt.set_state(("MT19937", words[:624].astype(np.uint32), int(words[624]), 0, 0.0))
        else:
            if words.size != 4:
                raise MatlabError("MATLAB:rng:badSettings", "Invalid state for the philox generator.")
            self.counter = int(words[0]) | (int(words[1]) << 32)

    # ---------------------------------------------------------------- draws
    def uniform(self, n: int, dtype: str = "double") -> np.ndarray:
        """``n`` uniform values in (0, 1), 1-D, column-major order."""
        if self.type == "philox":
            out = _philox.philox_uniform(n, _philox.key_from_seed(self.seed), self.counter, dtype)
            self.counter += _philox.blocks_needed(n, dtype)
            return out
        return _mt19937.uniform(self._mt, n, dtype)

    def normal(self, n: int, dtype: str = "double") -> np.ndarray:
        """``n`` standard normal values, 1-D, column-major order."""
        if self.type == "philox":
            out = _philox.philox_normal(n, _philox.key_from_seed(self.seed), self.counter, dtype)
            self.counter += _philox.blocks_needed(n, dtype)
            return out
        return _mt19937.normal(self._mt, n, dtype)

    def philox_position(self) -> tuple[tuple[int, int], int]:
        """(key, counter) for a device kernel that continues the philox stream."""
        return _philox.key_from_seed(self.seed), self.counter

    def advance(self, blocks: int) -> None:
        """Skip ``blocks`` philox blocks (after a device kernel consumed them)."""
        self.counter += int(blocks)


GENERATOR = RandomGenerator()
