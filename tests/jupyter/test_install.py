"""``matfuse kernel install``: the spec lands where jupyter_client finds it."""

from __future__ import annotations

import json

from matfuse.cli.main import main


def test_kernel_install_into_prefix(tmp_path, monkeypatch, capsys):
    assert main(["kernel", "install", "--prefix", str(tmp_path)]) == 0
    assert "Installed kernel spec 'matfuse'" in capsys.readouterr().out
    spec_file = tmp_path / "share" / "jupyter" / "kernels" / "matfuse" / "kernel.json"
    spec = json.loads(spec_file.read_text())
    assert spec["language"] == "matlab"
    assert spec["argv"][1:3] == ["-m", "matfuse.jupyter"]

    from jupyter_client.kernelspec import KernelSpecManager

    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share" / "jupyter"))
    assert "matfuse" in KernelSpecManager().find_kernel_specs()


def test_kernel_help_lists_install(capsys):
    try:
        main(["kernel", "--help"])
    except SystemExit as done:
        assert done.code == 0
    assert "install" in capsys.readouterr().out
