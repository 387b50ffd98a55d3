"""rats: widths, alignment around the slash, whole numbers, stars,
complex values, the tolerance that follows strlen, errors."""

from __future__ import annotations

import numpy as np
import pytest

from builtins_b_support import call
from matfuse.errors import MatlabError
from matfuse.runtime.registry import load_all
from matfuse.runtime.values import char_array

load_all()


def text(value) -> list[str]:
    out = call("rats", *value) if isinstance(value, tuple) else call("rats", value)
    return ["".join(row) for row in np.atleast_2d(out).tolist()]


def test_default_width_is_thirteen_plus_a_space() -> None:
    assert text(np.pi) == ["    355/113   "]
    assert text(0.5) == ["      1/2     "]
    assert text(-0.75) == ["     -3/4     "]
    assert text(7.0) == ["       7      "]
    assert text(0.0) == ["       0      "]


def test_rows_and_columns() -> None:
    x = np.array([[0.5, 0.25], [1 / 3, 2.0]])
    assert text(x) == ["      1/2           1/4     ", "      1/3            2      "]


def test_strlen_changes_width_and_tolerance() -> None:
    assert text((np.pi, 5.0)) == [" 22/7 "]
    assert text((np.pi, 20.0)) == ["    104348/33215     "]


def test_stars_for_fractions_that_do_not_fit() -> None:
    assert text((np.array([[1 / 7000, 1.0]]), 5.0)) == ["   0     1  "]
    assert text((np.array([[1234.5678]]), 5.0))[0].strip() == "*"


def test_inf_nan_and_complex() -> None:
    assert text(np.array([[np.inf, -np.inf, np.nan]])) == [
        "      1/0          -1/0           0/0     "]
    assert text(np.array([[1 + 0.5j]])) == ["       1      +     1/2i     "]


def test_empty_and_errors() -> None:
    assert call("rats", np.zeros((0, 0))).shape == (0, 0)
    with pytest.raises(MatlabError):
        call("rats", 1.0, np.inf)
    assert "".join(call("rats", char_array("a")).reshape(-1)).strip() == "97"
