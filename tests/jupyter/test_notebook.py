"""A notebook executed by nbclient against the installed kernel spec:
outputs, MATLAB-style errors and inline figures."""

from __future__ import annotations

import base64
import struct

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("matplotlib")


def _png_size(data: str) -> tuple[int, int]:
    raw = base64.b64decode(data)
    assert raw.startswith(b"\x89PNG")
    width, height = struct.unpack(">II", raw[16:24])
    return width, height


def test_notebook_runs_with_outputs_errors_and_figures(kernel_env):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("x = magic(3)"),
        nbformat.v4.new_code_cell("plot(1:10, (1:10).^2, 'r-o'); title('squares');"),
        nbformat.v4.new_code_cell("error('demo:bad', 'Value %d is bad.', 7)"),
        nbformat.v4.new_code_cell("y = x(2, 2) + 1"),
        nbformat.v4.new_code_cell("disp(class(gcf))"),
    ]
    client = nbclient.NotebookClient(nb, kernel_name="matfuse", timeout=120, allow_errors=True)
    client.execute()
    first, figure, failing, later, quiet = (cell.outputs for cell in nb.cells)

    assert first[0]["output_type"] == "stream"
    assert first[0]["text"] == ("x =\n\n     8     1     6\n     3     5     7\n"
                                "     4     9     2\n\n")

    images = [o for o in figure if o["output_type"] == "display_data"]
    assert len(images) == 1
    assert _png_size(images[0]["data"]["image/png"]) == (560, 420)

    assert failing[0]["output_type"] == "error"
    assert failing[0]["ename"] == "demo:bad"
    assert failing[0]["evalue"] == "Value 7 is bad."

    assert later[0]["text"] == "y =\n\n     6\n\n"      # the workspace survived the error
    assert quiet[0]["text"] == "matlab.ui.Figure\n"
    assert not [o for o in quiet if o["output_type"] == "display_data"]   # unchanged figure


def test_completion_inspection_and_help_pager(kernel_env):
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="matfuse", startup_timeout=120)
    try:
        client.execute_interactive("myVariable = 3;", timeout=60)
        reply = client.complete("myV", 3, reply=True, timeout=60)["content"]
        assert reply["matches"] == ["myVariable"]
        reply = client.complete("x = lins", 8, reply=True, timeout=60)["content"]
        assert "linspace" in reply["matches"] and reply["cursor_start"] == 4
        reply = client.inspect("plot(1:3)", 2, reply=True, timeout=60)["content"]
        assert reply["found"] and "plot" in reply["data"]["text/plain"]
        reply = client.execute_interactive("help plot", timeout=60)["content"]
        pages = [p for p in reply["payload"] if p["source"] == "page"]
        assert pages and "plot" in pages[0]["data"]["text/plain"]
        msg_id = client.is_complete("for k = 1:3")
        reply = client.get_shell_msg(timeout=60)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "incomplete"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
