"""The issue's "Python showing through" reproducers: each gives MATLAB's
error (identifier and message without Python names) or MATLAB's answer."""

from __future__ import annotations

import io

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.session import Session

PYTHON_NAMES = ("ValueError", "MemoryError", "OverflowError", "RecursionError", "OSError",
                "TypeError", "KeyError", "IndexError", "ComplexWarning", "Traceback",
                "internalError")

SIZE_LIMIT = "MATLAB:array:SizeLimitExceeded"
MAX_SIZE = "MATLAB:pmaxsize"

ERRORS = [
    ("zeros(1e6,1e6)", SIZE_LIMIT),
    ("zeros(1e6,1e6,'gpuArray')", SIZE_LIMIT),
    ("ones(1e6,1e6)", SIZE_LIMIT),
    ("true(1e6,1e6)", SIZE_LIMIT),
    ("eye(1e6)", SIZE_LIMIT),
    ("nan(1e6,1e6)", SIZE_LIMIT),
    ("rand(1e6,1e6)", SIZE_LIMIT),   # 8 TB: over the memory of any machine
    ("rand(100,1e15)", MAX_SIZE),
    ("randn(100,1e15,'single')", MAX_SIZE),
    ("randi(5,100,1e15)", MAX_SIZE),
    ("zeros(1e20,0)", MAX_SIZE),
    ("cell(1e20,0)", MAX_SIZE),
    ("rand(1e308,2)", MAX_SIZE),
    ("rand(4294967296,1e15)", MAX_SIZE),
    ("magic(realmax)", MAX_SIZE),
    ("repmat(1, 1e10, 1e10)", MAX_SIZE),
    ("zeros(2*ones(1,70))", "matfuse:tooManyDimensions"),
    ("reshape(1:4, [2 ones(1,70) 2])", "matfuse:tooManyDimensions"),
    ("cat(realmax,1,1)", "matfuse:tooManyDimensions"),
    ("prctile([1+5i 3 2],50)", "MATLAB:prctile:complexData"),
    ("fid = fopen('/dev/full','w'); fprintf(fid,'%s',repmat('a',1,100000));",
     "MATLAB:fprintf:writeFailed"),
]

OUTPUTS = [
    ("x = 1" + "+1" * 10000 + "; disp(x)", "       10001\n"),
    ("x = true" + "&&true" * 5000 + "; disp(x)", "   1\n"),
    ("s" + ".a" * 5000 + " = 1; y = s" + ".a" * 5000 + "; disp(y)", "     1\n"),
    ("c = 1; for k = 1:5000, c = {c}; end; y = c" + "{1}" * 5000 + "; disp(y)", "     1\n"),
    ("f = @() 1e400; disp(f())", "   Inf\n"),
    ("disp(num2str(pi,1e15))", "3.141592653589793115997963468544185161590576171875\n"),
    ("disp(datestr(0))", "31-Dec--001\n"),
    ("disp(datestr(1e10))", "25-Jan-27379070\n"),
    ("disp(datestr(738000.5))", "28-Jul-2020 12:00:00\n"),
    ("fid = fopen('/dev/full','w'); fprintf(fid,'abc'); disp(fclose(fid))", "    -1\n"),
    ("x = zeros([2 ones(1,70)]); disp(size(x))", "     2     1\n"),
    ("disp(size(cat(70,[1 2])))", "     1     2\n"),
]


def _run(code: str) -> tuple[str, str, MatlabError | None]:
    out, err = io.StringIO(), io.StringIO()
    caught = None
    try:
        Session(stdout=out, stderr=err).eval(code)
    except MatlabError as exc:
        caught = exc
    return out.getvalue(), err.getvalue(), caught


def _no_python(text: str) -> None:
    for name in PYTHON_NAMES:
        assert name not in text, text


@pytest.mark.parametrize("code,identifier", ERRORS, ids=[c[:40] for c, _ in ERRORS])
def test_reproducer_gives_matlab_error(code: str, identifier: str) -> None:
    out, err, caught = _run(code)
    assert caught is not None, out
    assert caught.identifier == identifier, caught.message
    _no_python(caught.report() + out + err)


@pytest.mark.parametrize("code,expected", OUTPUTS, ids=[c[:40] for c, _ in OUTPUTS])
def test_reproducer_gives_matlab_answer(code: str, expected: str) -> None:
    out, err, caught = _run(code)
    assert caught is None, caught.report()
    assert out == expected
    _no_python(err)


def test_size_limit_message_is_matlabs() -> None:
    _, _, caught = _run("zeros(1e6,1e6)")
    assert caught.message.startswith(
        "Requested 1000000x1000000 (7450.6GB) array exceeds maximum array size preference (")
    assert caught.message.endswith("GB). This might cause MATLAB to become unresponsive.")


DEVICE_ERRORS = [
    ("zeros(1e6,1e6,'gpuArray')", SIZE_LIMIT),
    ("rand(100,1e15,'gpuArray')", MAX_SIZE),
    ("ones(1e20,0,'like',gpuArray(1))", MAX_SIZE),
    ("x = gpuArray(1:3); y = x(end+-Inf);", "MATLAB:badsubscript"),
    ("x = gpuArray(1:3); y = x(1e400);", "MATLAB:badsubscript"),
    ("x = gpuArray(1:3); y = prctile(complex(x, 1), 50);", "MATLAB:prctile:complexData"),
]


@pytest.fixture
def on_device(accel_provider):
    """Each provider under test active on this thread (gpuArray lives there)."""
    from matfuse.accelerate_api import override_provider

    with override_provider(accel_provider):
        yield accel_provider


@pytest.mark.parametrize("code,identifier", DEVICE_ERRORS, ids=[c[:40] for c, _ in DEVICE_ERRORS])
def test_device_reproducer_gives_matlab_error(on_device, code: str, identifier: str) -> None:
    out, err, caught = _run(code)
    assert caught is not None, out
    assert caught.identifier == identifier, (caught.identifier, caught.message)
    _no_python(caught.report() + out + err)


@pytest.mark.parametrize("code,expected", OUTPUTS, ids=[c[:40] for c, _ in OUTPUTS])
def test_reproducer_answers_with_a_provider_active(on_device, code: str, expected: str) -> None:
    out, err, caught = _run(code)
    assert caught is None, caught.report()
    assert out == expected
