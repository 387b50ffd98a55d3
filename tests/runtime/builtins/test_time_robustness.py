"""Robustness: odd inputs to the datetime, duration, calendarDuration,
griddedInterpolant and rats builtins (and to operators on their values)
raise MatlabError, never a Python exception."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from builtins_b_support import call
from matfuse.errors import MatlabError
from matfuse.runtime import ops
from matfuse.runtime.calendar_duration import CalendarDuration
from matfuse.runtime.datetime_array import Datetime
from matfuse.runtime.duration_array import Duration
from matfuse.runtime.registry import BUILTINS, load_all
from matfuse.runtime.values import CellArray, StringArray, char_array

load_all()
MODULES = {"datetime_construction", "datetime_components", "datetime_shifts",
           "duration_construction", "calendar_durations", "time_functions",
           "gridded_interpolation", "nd_interpolation", "rational_text"}
NAMES = sorted({b.name for b in BUILTINS.values()
                if b.impl.__module__.rsplit(".", 1)[-1] in MODULES})


def _values() -> list:
    return [2.0, True, np.zeros((0, 0)), np.arange(6.0).reshape(2, 3), np.ones((2, 3, 2)),
            np.array([[1 + 2j, 3]]), np.array([[1, 2, 3]], dtype=np.int8), char_array("ab"),
            CellArray.from_list([1.0]), np.array([[np.nan, 1, np.inf]]),
            StringArray.scalar("2020-01-02"), Datetime(np.array([[0.0, np.nan]])),
            Duration(np.array([[1000.0]])), CalendarDuration.from_parts(1, 2, 3)]


def test_modules_have_builtins() -> None:
    assert len(NAMES) >= 35


@pytest.mark.parametrize("name", NAMES)
def test_odd_inputs(name: str) -> None:
    values = _values()
    for k in (0, 1, 2):
        for args in itertools.product(values, repeat=k):
            try:
                call(name, *args)
            except MatlabError:
                pass


@pytest.mark.parametrize("op", ["+", "-", ".*", "*", "./", "/", "==", "<", ">=", "&", ".^"])
def test_operators_on_time_values(op: str) -> None:
    values = _values()
    for a, b in itertools.product(values, repeat=2):
        if not any(isinstance(v, (Datetime, Duration, CalendarDuration)) for v in (a, b)):
            continue
        try:
            ops.binary(op, a, b)
        except MatlabError:
            pass


OVERLOADS = sorted({(cls.__name__, name) for cls in (Datetime, Duration, CalendarDuration)
                    for name in cls.overloads})


@pytest.mark.parametrize("cls_name, name", OVERLOADS)
def test_odd_inputs_to_overloads(cls_name: str, name: str) -> None:
    values = _values()
    first = next(v for v in values if type(v).__name__ == cls_name)
    decl = {"Datetime": Datetime, "Duration": Duration,
            "CalendarDuration": CalendarDuration}[cls_name].overloads[name]
    from matfuse.runtime.dispatcher import call_builtin

    class Ctx:
        def write(self, text: str) -> None:
            pass

    for k in (0, 1, 2):
        for rest in itertools.product(values, repeat=k):
            try:
                call_builtin(decl, [first, *rest], 1, Ctx())
            except MatlabError:
                pass
