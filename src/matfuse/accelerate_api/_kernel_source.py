"""Generated kernels for a provider's eager elementwise hooks.

A provider that runs generated kernels (``capabilities.fuses``) computes
its ``elem_binary``/``elem_unary`` hooks as one-node kernels of the fusion
IR, so an eager operation and a fused one share one definition of MATLAB's
semantics (the op table) and one emitter. The renderer lives in the layer
above the providers, which registers it here when it is imported
(``accelerate/fusion/lazy.py``); a provider asks :func:`elementwise_kernel`
and runs the kernel it gets (or its own code when it gets None).
"""

from __future__ import annotations

from typing import Any, Sequence


class ElementwiseKernelSource:
    """What a provider may ask of the kernel renderer (none registered:
    every request answers None)."""

    def render(self, provider: Any, op: str, operands: Sequence[Any], out_dtype: str) -> Any:
        """A rendered kernel computing hook op ``op`` (``plus``, ``sqrt``
        ..., or ``cast`` of one handle) of ``operands`` (handles of
        ``provider`` and Python floats) into one output of dtype
        ``out_dtype``; None when the IR does not express it (complex data,
        integer data where the provider's renderer stores no integers, an
        op outside the table).

        The kernel's ``inputs`` are nodes whose ``handle`` is the buffer to
        bind, ``scalars`` its uniforms and ``outputs`` the buffers to make
        (the last one a domain flag when ``has_flag``)."""
        return None


_source = ElementwiseKernelSource()


def register_elementwise_kernel_source(source: ElementwiseKernelSource) -> None:
    global _source
    _source = source


def elementwise_kernel(provider: Any, op: str, operands: Sequence[Any], out_dtype: str) -> Any:
    """The registered source's kernel for this operation, or None."""
    return _source.render(provider, op, operands, out_dtype)
