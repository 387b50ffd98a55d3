"""Function arguments blocks at run time (matfuse.vm._argument_check)."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from vmutil import run

FN = """
function r = f(a, b, opts)
arguments
    a double
    b (1,1) double = a * 2
    opts.Mode char {mustBeMember(opts.Mode, {'x', 'y'})} = 'x'
end
r = sprintf('%g %g %s %d', a, b, opts.Mode, nargin);
end
"""


def test_defaults_may_use_earlier_inputs() -> None:
    assert run("disp(f(3))" + FN) == "3 6 x 1\n"
    assert run("disp(f(3, 1, 'mode', 'y'))" + FN) == "3 1 y 4\n"


def test_conversion_and_errors() -> None:
    assert run("disp(f(int8(2)))" + FN) == "2 4 x 1\n"
    with pytest.raises(MatlabError) as info:
        run("f(1, 2, 'Mode', 'z')" + FN)
    assert info.value.message.startswith("Invalid value for 'Mode' argument.")
    with pytest.raises(MatlabError) as info:
        run("f(1, 2, 'Mode')" + FN)
    assert info.value.identifier == "MATLAB:InputParser:ParamMissingValue"
