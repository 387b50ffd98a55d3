"""``.m`` files that are not UTF-8 (older MATLAB saved Latin-1) still run."""

from __future__ import annotations

import io
import os

from matfuse.vm.session import Session


def test_latin1_function_file_runs(tmp_path):
    (tmp_path / "legacy.m").write_bytes(b"function y = legacy()\n% caf\xe9\ny = 5;\nend\n")
    (tmp_path / "bom.m").write_bytes(b"\xef\xbb\xbfdisp('bom ok')\n")
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        session = Session(stdout=out)
        session.eval("disp(legacy())")
        session.run_file(str(tmp_path / "bom.m"))
    finally:
        os.chdir(cwd)
    assert out.getvalue() == "     5\nbom ok\n"
