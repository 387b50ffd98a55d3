"""ispc / ismac / isunix describe the machine running matfuse."""

from __future__ import annotations

import sys

from builtins_a_support import call, raises

from matfuse.runtime.registry import load_all

load_all()


def test_exactly_one_family_answers() -> None:
    windows = sys.platform.startswith("win")
    assert call("ispc") is windows
    assert call("ismac") is (sys.platform == "darwin")
    assert call("isunix") is (not windows)


def test_no_arguments() -> None:
    raises("MATLAB:TooManyInputs", "ismac", 1.0)
