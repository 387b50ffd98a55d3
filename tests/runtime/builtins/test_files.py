"""fopen fclose fgetl fgets fread fwrite feof frewind ftell fseek fileread write_fid."""

from __future__ import annotations

import numpy as np
import pytest

from builtins_b_support import call, close, col, raises, row, text
from matfuse.errors import MatlabError
from matfuse.runtime.builtins import files
from matfuse.runtime.values import to_str


@pytest.fixture(autouse=True)
def close_all():
    yield
    call("fclose", text("all"))


def test_text_round_trip(tmp_path) -> None:
    path = str(tmp_path / "a.txt")
    fid = call("fopen", text(path), text("w"))
    assert fid >= 3
    files.write_fid(int(fid), "first\nsecond\n")
    assert call("fclose", fid) == 0.0
    fid = call("fopen", text(path), text("r"))
    lines = []
    while not call("feof", fid):
        lines.append(to_str(call("fgetl", fid)))
    assert lines == ["first", "second"]
    assert call("fgetl", fid) == -1.0
    call("frewind", fid, nargout=0)
    assert to_str(call("fgets", fid)) == "first\n"
    assert call("ftell", fid) == 6.0
    assert call("fseek", fid, -3.0, text("eof")) == 0.0
    assert to_str(call("fgetl", fid)) == "nd"
    assert to_str(call("fileread", text(path))) == "first\nsecond\n"


def test_binary_round_trip(tmp_path) -> None:
    path = str(tmp_path / "b.bin")
    fid = call("fopen", text(path), text("w+"))
    assert call("fwrite", fid, row(1, 2, 300), text("int16")) == 3.0
    assert call("fwrite", fid, row(1.5, -2.25), text("double")) == 2.0
    call("frewind", fid, nargout=0)
    a, count = call("fread", fid, 3.0, text("int16"), nargout=2)
    close(a, col(1, 2, 300))
    assert count == 3.0
    b = call("fread", fid, row(1, 2), text("double=>single"))
    assert b.dtype == np.float32 and b.shape == (1, 2)
    call("frewind", fid, nargout=0)
    raw = call("fread", fid)
    assert raw.shape == (22, 1)
    assert call("feof", fid) is True
    chars = call("fread", call("fopen", text(path)), 2.0, text("*char"))
    assert chars.dtype.kind == "U"


def test_fopen_failures_and_bad_fids(tmp_path) -> None:
    fid, msg = call("fopen", text(str(tmp_path / "missing" / "x.txt")), nargout=2)
    assert fid == -1.0 and to_str(msg)
    assert call("fopen", text(str(tmp_path / "missing.txt"))) == -1.0
    raises("MATLAB:badfid_mx", "fclose", 99.0)
    raises("MATLAB:badfid_mx", "fgetl", 99.0)
    raises("MATLAB:fopen:InvalidPermission", "fopen", text("x"), text("q"))
    raises("MATLAB:fileread:cannotOpenFile", "fileread", text(str(tmp_path / "none.txt")))
    with pytest.raises(MatlabError):
        files.write_fid(99, "x")


def test_fopen_all_and_query(tmp_path) -> None:
    path = str(tmp_path / "q.txt")
    fid = call("fopen", text(path), text("w"))
    assert fid in np.asarray(call("fopen", text("all"))).reshape(-1)
    name, perm = call("fopen", fid, nargout=2)
    assert to_str(name) == path and to_str(perm) == "w"


def test_wrong_direction_is_quiet(tmp_path) -> None:
    path = str(tmp_path / "w.txt")
    fid = call("fopen", text(path), text("w"))
    assert call("fgetl", fid) == -1.0
    assert call("fread", fid).size == 0
    call("fclose", fid)
    fid = call("fopen", text(path), text("r"))
    assert call("fwrite", fid, row(1, 2)) == 0.0
    files.write_fid(int(fid), "ignored")


def test_disk_full_is_a_matlab_error_not_python(tmp_path) -> None:
    import errno

    from matfuse.errors import MatlabError
    from matfuse.runtime.builtins import files

    class FullDisk:
        def writable(self) -> bool:
            return True

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    files.OPEN_FILES[77] = files.OpenFile("full.txt", "w", FullDisk())
    try:
        with pytest.raises(MatlabError) as info:
            files.write_fid(77, "x")
        assert info.value.identifier == "MATLAB:fprintf:writeFailed"
        assert "No space left on device" in info.value.message
    finally:
        entry = files.OPEN_FILES.pop(77)
    files.OPEN_FILES[78] = entry
    from builtins_b_support import call

    assert call("fclose", 78.0) == -1.0
    assert 78 not in files.OPEN_FILES


def test_fileread_encoding(tmp_path) -> None:
    f = tmp_path / "latin.txt"
    f.write_bytes(b"caf\xe9\n")
    assert to_str(call("fileread", text(str(f)), text("Encoding"), text("ISO-8859-1"))) == "café\n"
    assert to_str(call("fileread", text(str(f)))) == "caf\ufffd\n"
    raises("MATLAB:fileread:UnsupportedEncoding", "fileread", text(str(f)), text("Encoding"), text("nope"))
