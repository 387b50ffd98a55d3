"""Jupyter tests: the kernel spec is installed into a temporary prefix and
found through JUPYTER_PATH, as a user's ``matfuse kernel install`` would be."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

if importlib.util.find_spec("ipykernel") is None or importlib.util.find_spec("jupyter_client") is None:
    # without the [jupyter] extra there is nothing to test here (CI installs it)
    collect_ignore_glob = ["test_*.py"]

SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture(scope="module")
def kernel_env(tmp_path_factory):
    from matfuse.jupyter.install import install_kernel_spec

    prefix = tmp_path_factory.mktemp("jupyter-prefix")
    install_kernel_spec(prefix=str(prefix))
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "PYTHONPATH")}
    os.environ["JUPYTER_PATH"] = str(prefix / "share" / "jupyter")
    # The kernel process imports this checkout's matfuse.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (SRC, saved["PYTHONPATH"]) if p)
    yield prefix
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
