"""validateattributes' messages name the value as MATLAB documents: input,
the variable name, or 'input number N, NAME,' with an argument index."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.session import Session


def message_of(code: str) -> str:
    with pytest.raises(MatlabError) as info:
        Session().eval(code)
    return info.value.message


def test_argument_index_names_the_input_position() -> None:
    assert message_of("validateattributes(-4, {'double'}, {'positive'}, '', 'First', 1)") \
        == "Expected input number 1, First, to be positive."
    assert message_of("validateattributes(-4, {'double'}, {'positive'}, '', 'First')") \
        == "Expected First to be positive."
    assert message_of("validateattributes(-4, {'double'}, {'positive'})") \
        == "Expected input to be positive."
    assert message_of("validateattributes('a', {'double'}, {}, '', 'T', 3)").startswith(
        "Expected input number 3, T, to be one of these types:")
