"""tic toc pause clock now date datestr etime getenv setenv pwd cd."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from builtins_b_support import FakeContext, call, raises, row, text
from matfuse.runtime.values import to_str


def test_tic_toc() -> None:
    ctx = FakeContext()
    call("tic", nargout=0)
    call("toc", nargout=0, ctx=ctx)
    assert re.fullmatch(r"Elapsed time is \d+\.\d{6} seconds\.\n", ctx.output[0])
    t = call("tic")
    assert t.dtype == np.uint64
    elapsed = call("toc", t, ctx=ctx)
    assert isinstance(elapsed, float) and 0 <= elapsed < 5
    raises("MATLAB:toc:invalidInput", "toc", 3.0, ctx=ctx)


def test_pause_and_clock() -> None:
    assert call("pause", 0.0, nargout=0) is None
    raises("MATLAB:pause:InvalidInput", "pause", -1.0, nargout=0)
    c = call("clock")
    assert c.shape == (1, 6) and c[0, 0] >= 2024
    assert call("now") > 738000
    assert re.fullmatch(r"\d\d-[A-Z][a-z]{2}-\d{4}", to_str(call("date")))


def test_datestr_formats() -> None:
    assert to_str(call("datestr", 738000.5)) == "28-Jul-2020 12:00:00"
    assert to_str(call("datestr", 738000.0)) == "28-Jul-2020"
    assert to_str(call("datestr", 738000.25, text("yyyy-mm-dd HH:MM:SS.FFF"))) == "2020-07-28 06:00:00.000"
    assert to_str(call("datestr", 738000.75, text("HH:MM PM"))) == " 6:00 PM"
    assert to_str(call("datestr", 738000.0, 29.0)) == "2020-07-28"
    assert to_str(call("datestr", row(2020, 7, 28, 13, 5, 9))) == "28-Jul-2020 13:05:09"
    assert to_str(call("datestr", 738000.0, text("dddd mmmm dd"))) == "Tuesday July 28"
    assert call("etime", row(2020, 1, 1, 0, 1, 0), row(2020, 1, 1, 0, 0, 0)) == pytest.approx(60.0)


def test_env_and_folders(tmp_path) -> None:
    call("setenv", text("MATFUSE_TEST_VAR"), text("abc"), nargout=0)
    assert to_str(call("getenv", text("MATFUSE_TEST_VAR"))) == "abc"
    assert call("getenv", text("MATFUSE_SURELY_UNSET_VAR")).size == 0
    ctx = FakeContext()
    old = os.getcwd()
    try:
        previous = call("cd", text(str(tmp_path)), ctx=ctx)
        assert to_str(previous) == old
        assert to_str(call("pwd")) == os.getcwd() == str(tmp_path)
        raises("MATLAB:cd:NonExistentFolder", "cd", text(str(tmp_path / "nope")), nargout=0, ctx=ctx)
    finally:
        os.chdir(old)


def test_datenum_datevec() -> None:
    assert call("datenum", 2020.0, 7.0, 28.0) == 738000.0
    assert call("datenum", 2020.0, 13.0, 1.0) == call("datenum", 2021.0, 1.0, 1.0)
    assert call("datenum", row(2020, 7, 28, 12, 0, 0)) == 738000.5
    assert call("datenum", text("28-Jul-2020 12:00:00")) == 738000.5
    assert call("datenum", text("2020-07-28")) == 738000.0
    np.testing.assert_array_equal(call("datevec", 738000.75), row(2020, 7, 28, 18, 0, 0))
    raises("MATLAB:datenum:ConvertDateString", "datenum", text("not a date"))
