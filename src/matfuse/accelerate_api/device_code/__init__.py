"""Device source text shared by the fused kernels' renderers and the
providers' own kernels: the elementwise op table (``op_table``), the WGSL
helper library with matfuse's f32/f64 math (``wgsl_library``,
``wgsl_f32math``, ``wgsl_f64math``, ``wgsl_trig_reduction``,
``wgsl_special_values``) and the CUDA C helper library
(``cuda_library``). Text and pure functions only: it imports nothing of
matfuse outside this package, so providers (which import only
``accelerate_api``) and the fusion layer can both use it.
"""
