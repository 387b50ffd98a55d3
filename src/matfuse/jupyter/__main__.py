"""``python -m matfuse.jupyter -f CONNECTION_FILE``: start the kernel (what
the installed kernel spec runs)."""

from __future__ import annotations

from ipykernel.kernelapp import IPKernelApp

from matfuse.jupyter.kernel import MatfuseKernel

if __name__ == "__main__":
    IPKernelApp.launch_instance(kernel_class=MatfuseKernel)
