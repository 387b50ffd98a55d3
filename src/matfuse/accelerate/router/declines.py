"""A device path's refusal with its reason, for ``--explain``.

A device implementation (``fn(args, nargout, ctx)``) returns None for a call
form it does not take; the dispatcher's counted host fallback then names the
call form. Where the form alone does not say why (the device looked at the
data: a singular matrix, eigenvalues on the negative real axis), the path
returns ``Declined(reason)`` instead, and the fallback records that reason.
"""

from __future__ import annotations


class Declined:
    """The device path did not compute this call; ``reason`` says why."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def __repr__(self) -> str:
        return f"Declined({self.reason!r})"
