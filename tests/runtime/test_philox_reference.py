"""Philox4x32-10 reference: Random123 known-answer vectors and the documented layout."""

from __future__ import annotations

import numpy as np

from matfuse.runtime import _philox


def _words(counter: list[int], key: tuple[int, int]) -> list[int]:
    return _philox.philox4x32_10(np.array([counter], dtype=np.uint32), key)[0].tolist()


def test_known_answer_vectors() -> None:
    assert _words([0, 0, 0, 0], (0, 0)) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert _words([0xFFFFFFFF] * 4, (0xFFFFFFFF, 0xFFFFFFFF)) == \
        [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert _words([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], (0xA4093822, 0x299F31D0)) == \
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


def test_uniform_double_layout() -> None:
    key = _philox.key_from_seed(7)
    u = _philox.philox_uniform(5, key, 3)
    w = _philox.philox4x32_10(np.array([[3, 0, 0, 0], [4, 0, 0, 0], [5, 0, 0, 0]], dtype=np.uint32), key)
    expect = []
    for block in w:
        for a, b in ((block[0], block[1]), (block[2], block[3])):
            expect.append(((int(a) >> 5) * 67108864 + (int(b) >> 6) + 0.5) * 2.0 ** -53)
    np.testing.assert_array_equal(u, np.array(expect[:5]))
    assert _philox.blocks_needed(5, "double") == 3
    assert np.all((u > 0) & (u < 1))


def test_uniform_single_layout() -> None:
    key = (1, 2)
    u = _philox.philox_uniform(6, key, 0, "single")
    w = _philox.philox4x32_10(np.array([[0, 0, 0, 0], [1, 0, 0, 0]], dtype=np.uint32), key).reshape(-1)
    expect = ((w[:6] >> 9).astype(np.float64) + 0.5) * 2.0 ** -23
    assert u.dtype == np.float32
    np.testing.assert_array_equal(u, expect.astype(np.float32))
    assert _philox.blocks_needed(6, "single") == 2


def test_normal_is_box_muller_of_pairs() -> None:
    key = (5, 0)
    z = _philox.philox_normal(3, key, 0)
    u = _philox.philox_uniform(4, key, 0)
    r = np.sqrt(-2 * np.log(u[0]))
    np.testing.assert_allclose(z[:2], [r * np.cos(2 * np.pi * u[1]), r * np.sin(2 * np.pi * u[1])])
    r2 = np.sqrt(-2 * np.log(u[2]))
    np.testing.assert_allclose(z[2], r2 * np.cos(2 * np.pi * u[3]))


def test_counter_high_word_and_statistics() -> None:
    key = (9, 9)
    big = (1 << 32) - 1
    u = _philox.philox_uniform(4, key, big)
    w = _philox.philox4x32_10(np.array([[0xFFFFFFFF, 0, 0, 0], [0, 1, 0, 0]], dtype=np.uint32), key)
    assert u[2] == ((int(w[1][0]) >> 5) * 67108864 + (int(w[1][1]) >> 6) + 0.5) * 2.0 ** -53
    many = _philox.philox_uniform(200000, (123, 0), 0)
    assert abs(many.mean() - 0.5) < 0.005
    normals = _philox.philox_normal(200000, (123, 0), 0)
    assert abs(normals.mean()) < 0.01 and abs(normals.std() - 1) < 0.01
