"""Philox4x32-10: the counter-based random stream shared by host and devices.

This module is the *reference* for every provider (wgpu WGSL, CUDA): a device
kernel must produce bit-identical uint32 words and the same doubles/singles
(up to the last-bit rounding of ``log``/``cos`` in normals).

Bit layout (the contract the GPU kernels reproduce)
---------------------------------------------------
* Generator: Philox4x32-10 of Salmon et al. (Random123), multipliers
  ``M0 = 0xD2511F53``, ``M1 = 0xCD9E8D57``, Weyl key bumps
  ``W0 = 0x9E3779B9``, ``W1 = 0xBB67AE85``; 10 rounds, the key is bumped
  between rounds (9 bumps).  One round maps counter ``(c0, c1, c2, c3)`` with
  key ``(k0, k1)`` to ``(hi(M1*c2) ^ c1 ^ k0, lo(M1*c2), hi(M0*c0) ^ c3 ^ k1,
  lo(M0*c0))``.
* Key: ``(k0, k1) = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)``.
* Counter of block ``b`` (a 64-bit block index): ``(c0, c1, c2, c3) =
  (b & 0xFFFFFFFF, b >> 32, 0, 0)``.  A stream position ``counter0`` is a
  block index; a request for ``n`` values reads blocks ``counter0,
  counter0 + 1, ...`` and the generator state then advances by the number
  of blocks read (``blocks_needed(n, dtype)``).
* Element order: values are produced in MATLAB's column-major element order
  (linear index ``i`` of the result array).
* Uniform ``double`` (2 per block): element ``i`` uses block
  ``counter0 + i // 2``; words ``(x0, x1)`` when ``i`` is even, ``(x2, x3)``
  when odd; ``u = ((a >> 5) * 2**26 + (b >> 6) + 0.5) * 2**-53`` with ``a`` the
  first word, ``b`` the second.  Strictly inside (0, 1).
* Uniform ``single`` (4 per block): element ``i`` uses word ``i % 4`` of block
  ``counter0 + i // 4``; ``u = ((x >> 9) + 0.5) * 2**-23`` computed exactly
  then rounded to float32 (exactly representable; strictly inside (0, 1)).
* Normal (Box-Muller): uniforms are taken in pairs ``(u1, u2)`` of the same
  block (double: the block's two uniforms; single: words 0,1 and words 2,3).
  ``r = sqrt(-2 log u1)``, ``z_even = r cos(2 pi u2)``, ``z_odd = r sin(2 pi u2)``.
  Element ``i`` takes ``z_even`` when ``i`` is even, ``z_odd`` when odd.
  Normals use the same block count as uniforms of the same dtype. Singles are
  computed in float64 from the float32 uniforms, then rounded to float32.
"""

from __future__ import annotations

import numpy as np

PHILOX_M0 = np.uint64(0xD2511F53)
PHILOX_M1 = np.uint64(0xCD9E8D57)
PHILOX_W0 = 0x9E3779B9
PHILOX_W1 = 0xBB67AE85
_MASK32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)

PER_BLOCK = {"double": 2, "single": 4}


def philox4x32_10(counters: np.ndarray, key: tuple[int, int]) -> np.ndarray:
    """Philox4x32-10 of each row of ``counters`` (uint32, shape (n, 4)).

    Returns a uint32 array of shape (n, 4).
    """
    ctr = np.asarray(counters, dtype=np.uint32).reshape(-1, 4).astype(np.uint64)
    c0, c1, c2, c3 = ctr[:, 0], ctr[:, 1], ctr[:, 2], ctr[:, 3]
    k0 = int(key[0]) & 0xFFFFFFFF
    k1 = int(key[1]) & 0xFFFFFFFF
    for rnd in range(10):
        if rnd:
            k0 = (k0 + PHILOX_W0) & 0xFFFFFFFF
            k1 = (k1 + PHILOX_W1) & 0xFFFFFFFF
        p0 = PHILOX_M0 * c0   # exact: both factors < 2**32
        p1 = PHILOX_M1 * c2
        hi0, lo0 = p0 >> _SHIFT32, p0 & _MASK32
        hi1, lo1 = p1 >> _SHIFT32, p1 & _MASK32
        c0 = hi1 ^ c1 ^ np.uint64(k0)
        c1 = lo1
        c2 = hi0 ^ c3 ^ np.uint64(k1)
        c3 = lo0
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def key_from_seed(seed: int) -> tuple[int, int]:
    """The Philox key for an integer seed (low word, high word)."""
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    return seed & 0xFFFFFFFF, seed >> 32


def blocks_needed(n: int, dtype: str = "double") -> int:
    """Counter blocks consumed by ``n`` values of ``dtype`` (double/single)."""
    per = PER_BLOCK["single" if dtype in ("single", "float32") else "double"]
    return -(-int(n) // per)


def _blocks(n_blocks: int, key: tuple[int, int], counter0: int) -> np.ndarray:
    idx = np.arange(n_blocks, dtype=np.uint64) + np.uint64(int(counter0) & 0xFFFFFFFFFFFFFFFF)
    counters = np.zeros((n_blocks, 4), dtype=np.uint32)
    counters[:, 0] = (idx & _MASK32).astype(np.uint32)
    counters[:, 1] = (idx >> _SHIFT32).astype(np.uint32)
    return philox4x32_10(counters, key)


def philox_uniform(n: int, key: tuple[int, int], counter0: int,
                   dtype: str = "double") -> np.ndarray:
    """``n`` uniform values in (0, 1), 1-D, in column-major element order."""
    single = dtype in ("single", "float32")
    words = _blocks(blocks_needed(n, dtype), key, counter0)
    if single:
        x = words.reshape(-1)[:n].astype(np.float64)
        u = (np.floor(x / 512.0) + 0.5) * 2.0 ** -23
        return u.astype(np.float32)
    pairs = words.reshape(-1, 2)[:n].astype(np.uint64)
    a = (pairs[:, 0] >> np.uint64(5)).astype(np.float64)
    b = (pairs[:, 1] >> np.uint64(6)).astype(np.float64)
    return (a * 67108864.0 + b + 0.5) * 2.0 ** -53


def philox_normal(n: int, key: tuple[int, int], counter0: int,
                  dtype: str = "double") -> np.ndarray:
    """``n`` standard normal values (Box-Muller on the uniform stream)."""
    single = dtype in ("single", "float32")
    m = n + (n & 1)   # whole pairs
    u = philox_uniform(m, key, counter0, dtype).astype(np.float64).reshape(-1, 2)
    r = np.sqrt(-2.0 * np.log(u[:, 0]))
    theta = 2.0 * np.pi * u[:, 1]
    z = np.empty((u.shape[0], 2))
    z[:, 0] = r * np.cos(theta)
    z[:, 1] = r * np.sin(theta)
    z = z.reshape(-1)[:n]
    return z.astype(np.float32) if single else z
