"""The fusion engine: lazy device graphs rendered into generated kernels.

* ``graph``     - the IR (FNode) and its builders;
* ``lazy``      - building lazy gpuArrays from operators and builtins;
* ``kernel``    - kernel plans and rendered kernels (binding contract);
* ``_emitter``   - what the WGSL and CUDA emitters share;
* ``render_wgsl`` / ``wgsl_lib`` - the WGSL backend; ``render_cuda`` / ``cuda_lib`` - CUDA C;
* ``executor``  - scheduling plans and running them on a provider;
* ``host_eval`` - evaluating a graph with the CPU runtime (fallback, oracle).
"""
