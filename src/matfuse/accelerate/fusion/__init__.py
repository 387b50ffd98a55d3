"""The fusion engine: lazy device graphs rendered into generated kernels.

* ``graph``     - the IR (FNode) and its builders;
* ``lazy``      - building lazy gpuArrays from operators and builtins;
* ``kernel``    - kernel plans and rendered kernels (binding contract);
* ``_emitter``   - what the WGSL and CUDA emitters share, written through
  a ``dialect`` (spelling of one language; elementwise ops come from
  ``accelerate_api.device_code.op_table``);
* ``render_wgsl`` - the WGSL backend; ``render_cuda`` - CUDA C;
  ``renderers.renderer_for`` - the one a provider's declared language needs;
* ``executor``  - scheduling plans and running them on a provider;
* ``host_eval`` - evaluating a graph with the CPU runtime (fallback, oracle).
"""
