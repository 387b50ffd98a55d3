"""save/load: v7.3 (HDF5) files in MATLAB's layout, string arrays, save options."""

from __future__ import annotations

import h5py
import numpy as np

from builtins_b_support import FakeContext, call, raises, text
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array, char_rows
from test_matfiles import _workspace


def _same(a, b) -> None:
    """Same class, shape and values (string arrays, missing included)."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, StringArray):
        assert a.shape == b.shape and a.data.tolist() == b.data.tolist()
    elif isinstance(a, CellArray):
        assert a.shape == b.shape
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)):
            _same(x, y)
    elif isinstance(a, StructArray):
        assert a.fields == b.fields and a.shape == b.shape
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)):
            for k in a.fields:
                _same(x[k], y[k])
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)
    else:
        assert a == b


def _more_values() -> dict:
    strings = np.empty((2, 2), dtype=object)
    strings[:] = [["a", ""], [None, "déjà"]]
    people = np.empty((1, 2), dtype=object)
    people[0, 0] = {"name": char_array("ann"), "age": 31.0}
    people[0, 1] = {"name": char_array("bob"), "age": np.array([[1.0, 2.0]])}
    nested_cell = np.empty((2, 1), dtype=object)
    nested_cell[0, 0] = np.array([[True, False]])
    nested_cell[1, 0] = np.array([[1 + 1j]], dtype=np.complex64)
    return {
        "str": StringArray(strings), "one": StringArray.scalar("hi"),
        "people": StructArray(["name", "age"], people), "nc": CellArray(nested_cell),
        "nd": np.arange(24, dtype=np.float64).reshape((2, 3, 4), order="F"),
        "i8": np.array([[-128, 127]], dtype=np.int8), "u64": np.array([[2**64 - 1]], dtype=np.uint64),
        "ec": CellArray(np.empty((0, 3), dtype=object)), "e13": np.zeros((1, 0)),
        "es": StructArray(["p", "q"], np.empty((0, 0), dtype=object)),
        "col": np.array([[1.0], [2.0], [3.0]]),
    }


def _all_values() -> FakeContext:
    ctx = _workspace()
    ctx.vars.update(_more_values())
    return ctx


def test_v7_round_trip_strings_struct_arrays_nested_logicals(tmp_path) -> None:
    ctx = _all_values()
    path = str(tmp_path / "w7.mat")
    call("save", text(path), nargout=0, ctx=ctx)
    loaded = FakeContext()
    call("load", text(path), nargout=0, ctx=loaded)
    assert set(loaded.vars) == set(ctx.vars)
    for name, value in ctx.vars.items():
        _same(loaded.vars[name], value)


def test_v73_round_trip_every_class(tmp_path) -> None:
    ctx = _all_values()
    path = str(tmp_path / "w73.mat")
    call("save", text(path), text("-v7.3"), nargout=0, ctx=ctx)
    loaded = FakeContext()
    call("load", text(path), nargout=0, ctx=loaded)
    assert set(loaded.vars) == set(ctx.vars)
    for name, value in ctx.vars.items():
        _same(loaded.vars[name], value)


def test_v73_layout_is_matlabs(tmp_path) -> None:
    ctx = FakeContext()
    ctx.vars = {"m": np.array([[1.0, 2, 3], [4, 5, 6]]), "s": char_array("hey"),
                "L": np.array([[True, False]]), "z": np.array([[1 + 2j]]),
                "c": CellArray.from_list([1.0, char_array("x")]),
                "S": StructArray.scalar({"b": 1.0, "a": 2.0}), "e": np.zeros((0, 3))}
    path = tmp_path / "lay.mat"
    call("save", text(str(path)), text("-v7.3"), nargout=0, ctx=ctx)
    head = path.read_bytes()[:128]
    assert head.startswith(b"MATLAB 7.3 MAT-file") and head[124:128] == b"\x00\x02IM"
    with h5py.File(path, "r") as h5:
        assert h5.userblock_size == 512
        m = h5["m"]
        assert m.attrs["MATLAB_class"] == b"double" and m.shape == (3, 2)
        assert m[()][:, 0].tolist() == [1.0, 2.0, 3.0]      # column-major order kept
        assert h5["s"].dtype == np.uint16 and h5["s"].attrs["MATLAB_int_decode"] == 2
        assert h5["L"].dtype == np.uint8 and h5["L"].attrs["MATLAB_class"] == b"logical"
        assert h5["z"].dtype.names == ("real", "imag")
        assert h5["c"].dtype == h5py.ref_dtype and h5["c"].attrs["MATLAB_class"] == b"cell"
        assert h5[h5["c"][0, 0]].attrs["MATLAB_class"] == b"double"
        assert isinstance(h5["S"], h5py.Group) and h5["S"].attrs["MATLAB_class"] == b"struct"
        order = [b"".join(f.tolist()) for f in h5["S"].attrs["MATLAB_fields"]]
        assert order == [b"b", b"a"]
        assert h5["e"].attrs["MATLAB_empty"] == 1 and h5["e"][()].tolist() == [0, 3]


def test_v73_append_keeps_version(tmp_path) -> None:
    ctx = _workspace()
    path = str(tmp_path / "ap.mat")
    call("save", text(path), text("d"), text("-v7.3"), nargout=0, ctx=ctx)
    call("save", text(path), text("m"), text("-append"), nargout=0, ctx=ctx)
    with open(path, "rb") as fh:
        assert fh.read(19) == b"MATLAB 7.3 MAT-file"
    assert sorted(call("load", text(path), ctx=ctx).fields) == ["d", "m"]


def test_v6_and_v4(tmp_path) -> None:
    ctx = _workspace()
    path = str(tmp_path / "v6.mat")
    call("save", text(path), text("-v6"), nargout=0, ctx=ctx)
    _same(call("load", text(path), ctx=ctx).data[0, 0]["C"], ctx.vars["C"])
    path4 = str(tmp_path / "v4.mat")
    call("save", text(path4), text("m"), text("-v4"), nargout=0, ctx=ctx)
    _same(call("load", text(path4), ctx=ctx).data[0, 0]["m"], ctx.vars["m"])
    raises("MATLAB:save:v4UnsupportedClass", "save", text(path4), text("C"), text("-v4"),
           nargout=0, ctx=ctx)


def test_unknown_and_conflicting_options(tmp_path) -> None:
    ctx = _workspace()
    path = str(tmp_path / "o.mat")
    raises("MATLAB:save:unknownOption", "save", text(path), text("-v8"), nargout=0, ctx=ctx)
    raises("MATLAB:save:multipleVersions", "save", text(path), text("-v6"), text("-v7.3"),
           nargout=0, ctx=ctx)
    assert not (tmp_path / "o.mat").exists()


def test_unsaveable_values_are_rejected_before_writing(tmp_path) -> None:
    from matfuse.runtime.values import FunctionHandle

    ctx = _workspace()
    path = tmp_path / "keep.mat"
    call("save", text(str(path)), nargout=0, ctx=ctx)
    before = path.read_bytes()
    bad = FakeContext()
    bad.vars = {"f": FunctionHandle(name="sin")}
    raises("MATLAB:save:unsupportedClass", "save", text(str(path)), nargout=0, ctx=bad)
    bad.vars = {"s": StructArray.scalar({"é": 1.0})}
    raises("MATLAB:save:invalidFieldName", "save", text(str(path)), nargout=0, ctx=bad)
    bad.vars = {"s": StructArray.scalar({"a" * 64: 1.0})}
    raises("MATLAB:save:invalidFieldName", "save", text(str(path)), text("-v7.3"), nargout=0, ctx=bad)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.mat"]


def test_char_matrix_and_non_bmp(tmp_path) -> None:
    ctx = FakeContext()
    ctx.vars = {"cm": char_rows(["ab", "cd"])}
    path = str(tmp_path / "cm.mat")
    call("save", text(path), text("-v7.3"), nargout=0, ctx=ctx)
    _same(call("load", text(path), ctx=ctx).data[0, 0]["cm"], ctx.vars["cm"])
    ctx.vars = {"emoji": char_array("\U0001F600")}
    raises("MATLAB:save:unsupportedCharacter", "save", text(path), text("-v7.3"), nargout=0, ctx=ctx)


# ------------------------------------------------------------- atomic saves
def _saved(tmp_path) -> tuple[FakeContext, str, bytes]:
    ctx = _workspace()
    path = str(tmp_path / "old.mat")
    call("save", text(path), nargout=0, ctx=ctx)
    with open(path, "rb") as fh:
        return ctx, path, fh.read()


def _disk_full(*_args, **_kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device")


def test_disk_full_keeps_old_file(tmp_path, monkeypatch) -> None:
    import scipy.io

    ctx, path, before = _saved(tmp_path)
    real_savemat = scipy.io.savemat

    def half_then_full(fh, mdict, **kw):
        fh.write(b"MATLAB 5.0 partial")
        _disk_full()

    monkeypatch.setattr(scipy.io, "savemat", half_then_full)
    err = raises("MATLAB:save:couldNotWriteFile", "save", text(path), nargout=0, ctx=ctx)
    assert "No space left on device" in str(err.message if hasattr(err, "message") else err)
    monkeypatch.setattr(scipy.io, "savemat", real_savemat)
    with open(path, "rb") as fh:
        assert fh.read() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.mat"]


def test_disk_full_v73_and_fsync_failure_keep_old_file(tmp_path, monkeypatch) -> None:
    import os

    from matfuse.runtime.builtins import _mat_v73

    ctx, path, before = _saved(tmp_path)
    monkeypatch.setattr(_mat_v73, "header_bytes", _disk_full)
    raises("MATLAB:save:couldNotWriteFile", "save", text(path), text("-v7.3"), nargout=0, ctx=ctx)
    monkeypatch.undo()
    monkeypatch.setattr(os, "fsync", _disk_full)
    raises("MATLAB:save:couldNotWriteFile", "save", text(path), nargout=0, ctx=ctx)
    monkeypatch.undo()
    with open(path, "rb") as fh:
        assert fh.read() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.mat"]


def test_unwritable_folder_keeps_old_file(tmp_path, monkeypatch) -> None:
    import errno
    import os

    ctx, path, before = _saved(tmp_path)
    real_open = os.open

    def read_only_folder(name, flags, *args):
        if flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", read_only_folder)
    raises("MATLAB:save:couldNotWriteFile", "save", text(path), nargout=0, ctx=ctx)
    monkeypatch.undo()
    with open(path, "rb") as fh:
        assert fh.read() == before
    raises("MATLAB:save:couldNotWriteFile", "save", text(str(tmp_path / "no" / "x.mat")),
           nargout=0, ctx=ctx)


def test_save_keeps_permissions_and_replaces_symlink_target_name(tmp_path) -> None:
    import os

    ctx, path, _ = _saved(tmp_path)
    os.chmod(path, 0o640)
    call("save", text(path), text("d"), nargout=0, ctx=ctx)
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert call("load", text(path), ctx=ctx).fields == ["d"]


def test_missing_h5py_names_the_extra(tmp_path, monkeypatch) -> None:
    import sys

    ctx = _workspace()
    monkeypatch.setitem(sys.modules, "h5py", None)
    err = raises("matfuse:missingExtra", "save", text(str(tmp_path / "x.mat")), text("-v7.3"),
                 nargout=0, ctx=ctx)
    assert "matfuse[hdf5]" in err.message
    assert list(tmp_path.iterdir()) == []


def test_gpu_values_are_saved_gathered(tmp_path) -> None:
    from matfuse.vm.session import Session
    import io

    s = Session(stdout=io.StringIO(), stderr=io.StringIO())
    path = tmp_path / "g.mat"
    s.eval(f"g = gpuArray([1 2 3]); save('{path}', 'g', '-v7.3'); clear g; load('{path}'); "
           "c = class(g); v = g;")
    assert s.get("c") == "double" and s.get("v").tolist() == [[1.0, 2.0, 3.0]]


def _matlab_style_file(path) -> None:
    """A v7.3 file as MATLAB writes one with a string object (MCOS) beside
    plain variables."""
    from matfuse.runtime.builtins._mat_v73 import header_bytes

    with h5py.File(path, "w", userblock_size=512) as h5:
        a = h5.create_dataset("a", data=np.array([[1.0], [2.0]]))      # MATLAB 1x2
        a.attrs["MATLAB_class"] = np.bytes_("double")
        s = h5.create_dataset("s", data=np.array([[3707764736, 2, 1, 1, 1, 1]], dtype=np.uint32))
        s.attrs["MATLAB_class"] = np.bytes_("string")
        s.attrs["MATLAB_object_decode"] = np.int32(3)
        h5.create_group("#subsystem#")
    with open(path, "r+b") as fh:
        fh.write(header_bytes())


def test_unreadable_v73_variable_is_skipped_with_a_warning(tmp_path) -> None:
    path = tmp_path / "m.mat"
    _matlab_style_file(path)
    ctx = FakeContext()
    call("load", text(str(path)), nargout=0, ctx=ctx)
    assert ctx.vars["a"].tolist() == [[1.0, 2.0]] and "s" not in ctx.vars
    assert any("Variable 's' was not loaded" in line for line in ctx.output)
    before = path.read_bytes()
    ctx.vars = {"b": 1.0}
    raises("MATLAB:load:unsupportedClass", "save", text(str(path)), text("b"), text("-append"),
           nargout=0, ctx=ctx)
    assert path.read_bytes() == before


def test_unreadable_v7_variable_is_skipped_with_a_warning(tmp_path, monkeypatch) -> None:
    from scipy.io.matlab import MatlabFunction

    from matfuse.runtime.builtins import _mat_v5

    path = tmp_path / "f.mat"
    ctx = FakeContext()
    ctx.vars = {"a": 1.0, "b": 2.0}
    call("save", text(str(path)), nargout=0, ctx=ctx)
    real = _mat_v5._read_raw

    def with_handle(fh, mat_dtype):
        values = real(fh, mat_dtype)
        values["b"] = MatlabFunction(np.zeros((1, 1)))     # as SciPy reads a function handle
        return values

    monkeypatch.setattr(_mat_v5, "_read_raw", with_handle)
    loaded = FakeContext()
    call("load", text(str(path)), nargout=0, ctx=loaded)
    assert loaded.vars == {"a": 1.0}
    assert any("Variable 'b' was not loaded" in line for line in loaded.output)
    raises("MATLAB:load:unsupportedClass", "save", text(str(path)), text("a"), text("-append"),
           nargout=0, ctx=ctx)


def test_regexp_selection_and_unknown_load_option(tmp_path) -> None:
    ctx = FakeContext()
    ctx.vars = {"alpha": 1.0, "beta": 2.0, "alps": 3.0}
    path = str(tmp_path / "r.mat")
    call("save", text(path), text("-regexp"), text("^al"), nargout=0, ctx=ctx)
    assert sorted(call("load", text(path), ctx=ctx).fields) == ["alpha", "alps"]
    assert call("load", text(path), text("-regexp"), text("ha$"), ctx=ctx).fields == ["alpha"]
    raises("MATLAB:load:unknownOption", "load", text(path), text("-v7"), ctx=ctx)
    raises("MATLAB:save:invalidRegexp", "save", text(path), text("-regexp"), text("("), nargout=0, ctx=ctx)
