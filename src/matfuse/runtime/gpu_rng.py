"""The device random stream (MATLAB's ``gpurng``): Philox4x32-10.

When the host generator is ``rng(seed, 'philox')``, device and host share
one stream, so ``rand(n, 'gpuArray')`` equals ``rand(n)`` drawn at the same
point. Otherwise the device keeps its own Philox stream (seed 0 by default,
as MATLAB's GPU default generator).
"""

from __future__ import annotations

from matfuse.runtime import _philox, _rng

_key: tuple[int, int] = _philox.key_from_seed(0)
_counter: int = 0
_seed: int = 0


def seed(value: int) -> None:
    """Restart the device stream at ``value`` (``gpurng(value)``)."""
    global _key, _counter, _seed
    _seed = int(value)
    _key = _philox.key_from_seed(value)
    _counter = 0


def own_state() -> tuple[int, int]:
    """(seed, next block) of the device's own stream (``s = gpurng``)."""
    return _seed, _counter


def restore(seed_value: int, counter: int) -> None:
    """Put the device's own stream back to a state from :func:`own_state`."""
    global _counter
    seed(seed_value)
    _counter = int(counter)


def take(n: int, matlab_class: str) -> tuple[tuple[int, int], int]:
    """Reserve the blocks for ``n`` values; returns (key, first block)."""
    global _counter
    blocks = _philox.blocks_needed(n, matlab_class)
    generator = _rng.GENERATOR
    if generator.type == "philox":
        key, counter = generator.philox_position()
        generator.advance(blocks)
        return key, counter
    start = _counter
    _counter += blocks
    return _key, start


def position() -> tuple[tuple[int, int], int]:
    """(key, next block) of the active stream, without reserving anything."""
    generator = _rng.GENERATOR
    if generator.type == "philox":
        return generator.philox_position()
    return _key, _counter


def advance(blocks: int) -> None:
    """Skip ``blocks`` blocks of the active stream (a replayed loop consumed them)."""
    global _counter
    generator = _rng.GENERATOR
    if generator.type == "philox":
        generator.advance(blocks)
        return
    _counter += int(blocks)
