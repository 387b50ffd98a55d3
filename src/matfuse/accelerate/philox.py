"""Philox4x32-10 counter-based RNG in NumPy (the reference for device RNGs).

Stream layout shared by every provider (``random_uniform``/``random_normal``):

* element k (column-major) of a request starting at ``counter`` reads 32-bit
  word ``k % 4`` of the block whose 64-bit counter is ``counter + k // 4``
  (counter words: low 32 bits, high 32 bits, 0, 0; key words: ``key``);
* uniform: ``(u + 0.5) * 2**-32``, in the open interval (0, 1);
* normal: Box-Muller on word pairs (2m, 2m+1): ``r = sqrt(-2 log u1)``,
  element 2m is ``r cos(2 pi u2)``, element 2m+1 is ``r sin(2 pi u2)``.
"""

from __future__ import annotations

import numpy as np

_M0 = np.uint64(0xD2511F53)
_M1 = np.uint64(0xCD9E8D57)
_W0 = 0x9E3779B9
_W1 = 0xBB67AE85
_MASK = np.uint64(0xFFFFFFFF)


def philox4x32(counters: np.ndarray, key: tuple[int, int]) -> np.ndarray:
    """Blocks for ``counters`` (uint32 array shape (n, 4)) -> uint32 (n, 4)."""
    c = [counters[:, i].astype(np.uint64) for i in range(4)]
    k0, k1 = key[0] & 0xFFFFFFFF, key[1] & 0xFFFFFFFF
    for _ in range(10):
        p0 = _M0 * c[0]
        p1 = _M1 * c[2]
        hi0, lo0 = p0 >> np.uint64(32), p0 & _MASK
        hi1, lo1 = p1 >> np.uint64(32), p1 & _MASK
        c = [hi1 ^ c[1] ^ np.uint64(k0), lo1, hi0 ^ c[3] ^ np.uint64(k1), lo0]
        k0 = (k0 + _W0) & 0xFFFFFFFF
        k1 = (k1 + _W1) & 0xFFFFFFFF
    return np.stack(c, axis=1).astype(np.uint32)


def philox_words(n: int, key: tuple[int, int], counter: int) -> np.ndarray:
    """The first ``n`` 32-bit words of the stream starting at block ``counter``."""
    blocks = (n + 3) // 4
    idx = np.arange(blocks, dtype=np.uint64) + np.uint64(counter)
    ctr = np.zeros((blocks, 4), dtype=np.uint32)
    ctr[:, 0] = (idx & _MASK).astype(np.uint32)
    ctr[:, 1] = (idx >> np.uint64(32)).astype(np.uint32)
    return philox4x32(ctr, key).reshape(-1)[:n]


def uniform(n: int, key: tuple[int, int], counter: int) -> np.ndarray:
    """``n`` float64 uniforms in (0, 1)."""
    return (philox_words(n, key, counter).astype(np.float64) + 0.5) * 2.0**-32


def normal(n: int, key: tuple[int, int], counter: int) -> np.ndarray:
    """``n`` float64 standard normals (Box-Muller on word pairs)."""
    m = (n + 1) // 2
    u = uniform(2 * m, key, counter)
    r = np.sqrt(-2.0 * np.log(u[0::2]))
    theta = 2.0 * np.pi * u[1::2]
    out = np.empty(2 * m)
    out[0::2] = r * np.cos(theta)
    out[1::2] = r * np.sin(theta)
    return out[:n]


def blocks_used(n: int, normal_: bool = False) -> int:
    """How far a request of ``n`` elements advances the counter."""
    words = 2 * ((n + 1) // 2) if normal_ else n
    return (words + 3) // 4
