"""The MT19937 ("twister") stream: how its words become MATLAB values.

One definition shared by the host generator (``_rng``), the in-process
provider and the device kernels' tests, so that a value drawn on the device
is the value the host would have drawn at the same stream position:

* the stream is NumPy's legacy ``RandomState`` (state: 624 words and a
  position ``pos``; the next word is ``temper(key[pos])``, a twist of the
  whole block when ``pos == 624``);
* ``uniform``: two words ``a, b`` per value, ``((a>>5)*2^26 + (b>>6)) / 2^53``
  (``random_sample``); singles are that double rounded to single;
* ``normal``: two uniforms ``u1, u2`` (four words) per value,
  ``sqrt(-2 log1p(-u1)) * cos(2 pi u2)``;
* ``randi``: one uniform per value, ``lo + floor(u * (hi - lo + 1))``.

Imports nothing of matfuse: providers reach it through
``accelerate_api.support``.
"""

from __future__ import annotations

import numpy as np

STATE_WORDS = 624
#: 32-bit words one value consumes, by draw kind
WORDS_PER_VALUE = {"uniform": 2, "randi": 2, "normal": 4}


def position_after(pos: int, words: int) -> int:
    """The state position after drawing ``words`` words from position ``pos``
    (a twist happens whenever a word is needed at position 624)."""
    if words <= 0:
        return pos
    left = STATE_WORDS - pos
    if words <= left:
        return pos + words
    return (words - left - 1) % STATE_WORDS + 1


def uniform(rs: np.random.RandomState, n: int, dtype: str = "double") -> np.ndarray:
    """``n`` uniform (0, 1) values from ``rs``, 1-D."""
    u = rs.random_sample(n)
    return u.astype(np.float32) if dtype in ("single", "float32") else u


def normal(rs: np.random.RandomState, n: int, dtype: str = "double") -> np.ndarray:
    """``n`` standard normal values from ``rs``: Box-Muller (cosine branch)
    on consecutive uniform pairs, so the stream is consumed in element order."""
    u = rs.random_sample(2 * n).reshape(n, 2)
    z = np.sqrt(-2.0 * np.log1p(-u[:, 0])) * np.cos(2.0 * np.pi * u[:, 1])
    return z.astype(np.float32) if dtype in ("single", "float32") else z


def randi(rs: np.random.RandomState, n: int, lo: float, hi: float) -> np.ndarray:
    """``n`` integer-valued doubles in ``[lo, hi]`` from ``rs``, 1-D."""
    return lo + np.floor(rs.random_sample(n) * (hi - lo + 1.0))


def draw(words: np.ndarray, pos: int, kind: str, n: int, dtype: str,
         limits: tuple[float, float] = (1.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """The reference of a device draw: ``n`` values of ``kind`` from the
    state (``words``, ``pos``); returns (values as ``dtype``, new 624 words)."""
    rs = np.random.RandomState()
    rs.set_state(("MT19937", np.asarray(words, dtype=np.uint32).reshape(-1), int(pos), 0, 0.0))
    if kind == "uniform":
        values = uniform(rs, n, dtype)
    elif kind == "normal":
        values = normal(rs, n, dtype)
    elif kind == "randi":
        values = randi(rs, n, limits[0], limits[1])
    else:
        raise ValueError(f"unknown twister draw kind {kind!r}")
    _, key, _, _, _ = rs.get_state(legacy=True)
    return values.astype(np.dtype(dtype)), key.astype(np.uint32)


def raw_words(words: np.ndarray, pos: int, count: int) -> np.ndarray:
    """The next ``count`` tempered 32-bit words of the stream (test oracle)."""
    rs = np.random.RandomState()
    rs.set_state(("MT19937", np.asarray(words, dtype=np.uint32).reshape(-1), int(pos), 0, 0.0))
    # full-range uint32 randint returns the tempered words themselves, in order
    return rs.randint(0, 2 ** 32, size=count, dtype=np.uint32)
