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
"""

from __future__ import annotations

import time

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime import _philox

MATLAB_DEFAULT_MT_SEED = 5489
GENERATOR_TYPES = ("twister", "philox")


class RandomGenerator:
    """The process-wide generator: a type, a seed and the stream position."""

    def __init__(self) -> None:
        self.type = "twister"
        self.seed = 0
        self._mt = np.random.RandomState(MATLAB_DEFAULT_MT_SEED)
        self.counter = 0   # philox block counter

    # -------------------------------------------------------------- seeding
    def reseed(self, seed: int, gen_type: str | None = None) -> None:
        """``rng(seed, type)``: restart the stream of ``gen_type`` at ``seed``."""
        self.type = gen_type or self.type
        self.seed = int(seed)
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
        u = self._mt.random_sample(n)
        return u.astype(np.float32) if dtype == "single" else u

    def normal(self, n: int, dtype: str = "double") -> np.ndarray:
        """``n`` standard normal values, 1-D, column-major order."""
        if self.type == "philox":
            out = _philox.philox_normal(n, _philox.key_from_seed(self.seed), self.counter, dtype)
            self.counter += _philox.blocks_needed(n, dtype)
            return out
        # Draw pairs element by element so the stream is consumed in element order.
        u = self._mt.random_sample(2 * n).reshape(n, 2)
        z = np.sqrt(-2.0 * np.log1p(-u[:, 0])) * np.cos(2.0 * np.pi * u[:, 1])
        return z.astype(np.float32) if dtype == "single" else z

    def philox_position(self) -> tuple[tuple[int, int], int]:
        """(key, counter) for a device kernel that continues the philox stream."""
        return _philox.key_from_seed(self.seed), self.counter

    def advance(self, blocks: int) -> None:
        """Skip ``blocks`` philox blocks (after a device kernel consumed them)."""
        self.counter += int(blocks)


GENERATOR = RandomGenerator()
