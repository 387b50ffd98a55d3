"""The renderer of a provider's fused kernels, chosen from what the provider
declares (``capabilities.kernel_language``, ``f32_division_via_f64``),
never from its name."""

from __future__ import annotations

from matfuse.accelerate.fusion._render_cache import CachingRenderer
from matfuse.accelerate_api import AccelProvider


def renderer_for(provider: AccelProvider) -> CachingRenderer:
    """A renderer of ``provider``'s kernel language.

    Raises:
        ValueError: the provider declares a language no renderer writes.
    """
    language = provider.capabilities.kernel_language
    # each language's renderer loads with the first provider that needs it
    if language == "cuda":
        from matfuse.accelerate.fusion.render_cuda import CudaRenderer

        return CudaRenderer()
    if language == "wgsl":
        from matfuse.accelerate.fusion.render_wgsl import WgslRenderer

        return WgslRenderer(f64_division=provider.f32_division_via_f64)
    raise ValueError(f"no fused-kernel renderer for language {language!r}")
