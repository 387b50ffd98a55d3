"""Robustness: odd inputs to graphics builtins raise MatlabError (or work),
never a Python exception."""

from __future__ import annotations

import io
import itertools

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.registry import BUILTINS, load_all
from matfuse.runtime.values import CellArray, StringArray, char_array

load_all()
NAMES = sorted({b.name for b in BUILTINS.values()
                if b.impl.__module__.rsplit(".", 1)[-1].startswith("graphics_")}
               - {"print", "saveas", "exportgraphics"})     # these write files: see below
VALUES = [2.0, True, np.zeros((0, 0)), np.arange(6.0).reshape(2, 3), np.ones((2, 3, 2)),
          np.array([[1 + 2j, 3]]), np.array([[1, 2, 3]], dtype=np.int8), char_array("ab"),
          CellArray.from_list([1.0]), np.array([[np.nan, 1, np.inf]]),
          StringArray.scalar("on")]


def _call(name: str, *args):
    """Through the interpreter, as a program calls it (context, argument counts)."""
    from matfuse.vm.session import Session

    decl = BUILTINS[name]
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    return session.interp.call(name, list(args), 1 if decl.max_out else 0)


@pytest.mark.parametrize("name", NAMES)
def test_odd_inputs(name: str) -> None:
    for k in (0, 1, 2):
        for args in itertools.product(VALUES, repeat=k):
            decl = BUILTINS[name]
            if k < decl.min_args or (decl.max_args is not None and k > decl.max_args):
                continue
            try:
                _call(name, *args)
            except MatlabError:
                pass


@pytest.mark.parametrize("name", ["print", "saveas", "exportgraphics"])
def test_exporters_reject_odd_inputs(name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in itertools.product(VALUES, repeat=2):
        try:
            _call(name, *args)
        except MatlabError:
            pass
