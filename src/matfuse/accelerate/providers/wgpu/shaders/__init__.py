"""WGSL renderers of the wgpu provider, one module per op category."""
