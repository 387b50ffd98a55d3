"""Bridge from generated kernels to the wgpu provider's f64 math library.

Generated WGSL calls ``f64_exp``, ``f64_log``, ``f64_sin`` ...; their source
comes from ``matfuse.accelerate.providers.wgpu.shaders.f64math`` (own range
reduction + polynomials, since the drivers' f64 transcendentals are wrong).
"""

from __future__ import annotations


def source(name: str) -> str:
    """WGSL source of the f64 function ``name`` (without its dependencies)."""
    raise NotImplementedError(f"f64 math function {name} not available yet")


def dependencies(name: str) -> tuple[str, ...]:
    return ()
