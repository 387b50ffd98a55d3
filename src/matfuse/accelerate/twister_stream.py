"""The host's MT19937 stream continued on the device.

A program that seeds the twister (``rng(42)``) must print the same numbers
whether auto-offload moves its ``rand``/``randn``/``randi`` to the device
or not. Instead of drawing on the host and uploading the values, the 624
state words are uploaded once and the provider's ``random_twister`` hook
generates the next words on the device (a block-sequential MT19937 kernel)
and converts them exactly as ``runtime/_mt19937.py`` does.

After a device draw the state lives on the device
(:class:`DeviceTwister`, parked in ``runtime._rng.GENERATOR``): the next
device draw continues from it without any transfer, and the host takes it
back (a 2.5 KB download) only when it draws, queries ``rng`` or restores a
state. The position within the 624-word block is tracked on the host, as
the word count of every draw is known in advance.

Explicit gpuArray draws (``rand(n,'gpuArray')``, ``'like'`` a gpuArray)
keep MATLAB's separate device stream (``gpurng``, Philox); only host-class
calls placed on the device by auto-offload take this path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import wrap_handle
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, HostTensor, Unsupported
from matfuse.errors import MatlabError
from matfuse.runtime import _mt19937, _rng

# Words replayed per host step when the device copy was lost (bounds memory).
_REPLAY_WORDS = 1 << 22
#: builtin -> the provider hook's draw kind
DRAW_KINDS = {"rand": "uniform", "randn": "normal", "randi": "randi"}


class DeviceTwister:
    """The 624 MT state words as a uint32 device tensor, and the position.

    It also keeps the host state it started from and the words drawn since,
    so that the stream survives the loss of the device copy (the device was
    reset, or its buffers freed behind the generator's back): the host then
    replays the draws' words instead of downloading the state."""

    def __init__(self, provider: AccelProvider, handle: GpuTensorHandle,
                 words: np.ndarray, pos: int):
        self.provider = provider
        self.handle: GpuTensorHandle | None = handle
        self.pos = int(pos)
        self.epoch = provider.epoch
        self._origin = (words.copy(), int(pos))
        self.words_drawn = 0

    def advance(self, words: int) -> None:
        """A draw consumed ``words`` words on the device."""
        self.pos = _mt19937.position_after(self.pos, words)
        self.words_drawn += int(words)

    def fetch(self) -> np.ndarray:
        """The state words, downloaded (the host takes the stream back)."""
        if self.handle is not None and self.provider.epoch == self.epoch:
            try:
                return np.asarray(self.provider.download(self.handle).data,
                                  dtype=np.uint32).reshape(-1)
            except (Unsupported, MatlabError):
                pass   # the buffer is gone: replay below
        return self._replayed()

    def _replayed(self) -> np.ndarray:
        rs = np.random.RandomState()
        rs.set_state(("MT19937", self._origin[0], self._origin[1], 0, 0.0))
        left = self.words_drawn
        while left:
            step = min(left, _REPLAY_WORDS)
            rs.bytes(4 * step)
            left -= step
        return rs.get_state(legacy=True)[1].astype(np.uint32)

    def drop(self) -> None:
        if self.handle is not None:
            handle, self.handle = self.handle, None
            if self.provider.epoch == self.epoch:   # a reset already freed it
                self.provider.free(handle)

    def held_by(self, owner: object) -> bool:
        return owner is self.provider


def _state_on(p: AccelProvider) -> tuple[DeviceTwister, bool]:
    """The device state on ``p`` (uploaded from the host when it is not
    there yet) and whether it was uploaded by this call."""
    gen = _rng.GENERATOR
    held = gen.device_twister
    if isinstance(held, DeviceTwister) and held.provider is p and held.handle is not None \
            and held.epoch == p.epoch:
        return held, False
    words, pos = gen.twister_words()
    handle = p.upload(HostTensor(np.ascontiguousarray(words, dtype=np.uint32),
                                 (_mt19937.STATE_WORDS, 1), "uint32"))
    return DeviceTwister(p, handle, words, pos), True


def draw(p: AccelProvider, name: str, shape: tuple[int, ...], cls: str,
         limits: tuple[float, float] = (1.0, 1.0)) -> Any:
    """``rand``/``randn``/``randi`` values of class ``cls`` drawn on ``p``
    from the host's twister stream, as a device value; None when the
    generator is not the twister or the provider cannot (the host draws)."""
    gen = _rng.GENERATOR
    if gen.type != "twister":
        return None
    n = 1
    for d in shape:
        n *= int(d)
    if n == 0:
        return None
    kind = DRAW_KINDS[name]
    dtype = {"double": "float64", "single": "float32"}.get(cls, cls)
    state, fresh = _state_on(p)
    try:
        handle = p.random_twister(kind, tuple(shape), dtype, state.handle, state.pos, limits)
    except Unsupported:
        # hooks refuse before they dispatch: the state is unchanged
        if fresh:
            state.drop()
        return None
    state.advance(n * _mt19937.WORDS_PER_VALUE[kind])
    gen.keep_on_device(state)
    return wrap_handle(handle, cls, p)
