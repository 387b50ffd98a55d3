"""``matfuse kernel install [--user] [--prefix DIR] [--name NAME]``: write
the kernel spec (kernel.json running ``python -m matfuse.jupyter``) where
Jupyter finds it, through jupyter_client's KernelSpecManager."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

from matfuse.errors import MatlabError

KERNEL_NAME = "matfuse"
DISPLAY_NAME = "MATLAB (matfuse)"


def kernel_spec() -> dict:
    return {
        "argv": [sys.executable, "-m", "matfuse.jupyter", "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "matlab",
        "interrupt_mode": "signal",
        "metadata": {"debugger": False},
    }


def install_kernel_spec(user: bool = False, prefix: str | None = None,
                        name: str = KERNEL_NAME) -> str:
    """Install the spec; returns the folder it went to."""
    from matfuse.jupyter import require_jupyter

    require_jupyter()
    from jupyter_client.kernelspec import KernelSpecManager

    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        with open(os.path.join(folder, "kernel.json"), "w", encoding="utf-8") as fh:
            json.dump(kernel_spec(), fh, indent=1)
        return KernelSpecManager().install_kernel_spec(folder, name, user=user, prefix=prefix)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="matfuse kernel",
                                     description="The matfuse Jupyter kernel.")
    sub = parser.add_subparsers(dest="action", required=True)
    install = sub.add_parser("install", help="install the kernel spec for Jupyter")
    install.add_argument("--user", action="store_true",
                         help="install for the current user (default: system-wide)")
    install.add_argument("--prefix", metavar="DIR",
                         help="install under DIR (e.g. sys.prefix of an environment)")
    install.add_argument("--name", default=KERNEL_NAME, help="kernel name (default: matfuse)")
    return parser


def kernel_main(argv: list[str]) -> int:
    """The ``matfuse kernel`` subcommand."""
    ns = build_parser().parse_args(argv)
    try:
        where = install_kernel_spec(user=ns.user, prefix=ns.prefix, name=ns.name)
    except MatlabError as err:
        sys.stderr.write(f"matfuse kernel: {err.message}\n")
        return 2
    except OSError as err:
        sys.stderr.write(f"matfuse kernel: cannot install the kernel spec: {err}\n"
                         "(use --user to install for yourself)\n")
        return 1
    print(f"Installed kernel spec '{ns.name}' in {where}")
    return 0
