"""mustBe* validation functions (matfuse.runtime.builtins.validators)."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.session import Session


@pytest.mark.parametrize("call,ident,message", [
    ("mustBePositive([1 0])", "MATLAB:validators:mustBePositive", "Value must be positive."),
    ("mustBeFinite(Inf)", "MATLAB:validators:mustBeFinite", "Value must be finite."),
    ("mustBeInteger(1.5)", "MATLAB:validators:mustBeInteger", "Value must be integer."),
    ("mustBeNonempty([])", "MATLAB:validators:mustBeNonempty", "Value must not be empty."),
    ("mustBeNumeric('a')", "MATLAB:validators:mustBeNumeric", "Value must be numeric."),
    ("mustBeNonnegative(-1)", "MATLAB:validators:mustBeNonnegative",
     "Value must be nonnegative."),
])
def test_failing_validators(call: str, ident: str, message: str) -> None:
    with pytest.raises(MatlabError) as info:
        Session().eval(call)
    assert info.value.identifier == ident and info.value.message == message


def test_passing_validators_return_nothing() -> None:
    Session().eval("mustBePositive([1 2]); mustBeInteger(int8(3)); mustBeFinite(2); "
                   "mustBeMember('a', {'a', 'b'}); mustBeText(\"x\");")
