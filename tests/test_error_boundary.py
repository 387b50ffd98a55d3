"""The error boundary: Python exceptions as MATLAB errors."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError, from_python_exception


class FakeCupyOOM(MemoryError):
    """Stands in for cupy.cuda.memory.OutOfMemoryError (a MemoryError)."""


FakeCupyOOM.__module__ = "cupy.cuda.memory"


@pytest.mark.parametrize("exc,identifier", [
    (RecursionError("maximum recursion depth exceeded"), "MATLAB:recursionLimit"),
    (MemoryError("Unable to allocate 7.28 TiB"), "MATLAB:nomem"),
    (FakeCupyOOM("out of memory allocating 8 bytes"), "parallel:gpu:array:OOM"),
    (ValueError("Maximum allowed dimension exceeded"), "MATLAB:pmaxsize"),
    (ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."),
     "MATLAB:pmaxsize"),
    (ValueError("maximum supported dimension for an ndarray is currently 64, found 70"),
     "matfuse:tooManyDimensions"),
    (OSError(28, "No space left on device"), "MATLAB:FileIO:OperationFailed"),
    (np.exceptions.ComplexWarning("Casting complex values to real"), "MATLAB:expectedReal"),
    (KeyError("bug"), "matfuse:internalError"),
])
def test_python_exceptions_map_to_matlab_errors(exc, identifier):
    err = from_python_exception(exc)
    assert err.identifier == identifier
    if identifier != "matfuse:internalError":
        for name in ("Error:", "MemoryError", "ValueError", "OSError", "RecursionError",
                     "ComplexWarning", "Errno"):
            assert name not in err.message


def test_matlab_errors_pass_through():
    err = MatlabError("a:b", "text")
    assert from_python_exception(err) is err


def test_gpu_oom_message_is_matlabs():
    err = from_python_exception(FakeCupyOOM("x"))
    assert err.message.startswith("Out of memory on device.")


def test_deep_programs_are_a_recursion_limit_error_not_a_crash():
    import io

    from matfuse.vm.session import Session

    depth = 20000
    code = "f = " + "@() " * depth + "1;"
    try:
        Session(stdout=io.StringIO()).eval(code)
    except MatlabError as err:
        assert err.identifier in ("MATLAB:recursionLimit", "MATLAB:parse"), err.identifier
