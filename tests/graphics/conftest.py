"""Graphics tests: skipped where matplotlib (the ``matfuse[plot]`` extra) is
absent; every test starts and ends with no figures open and no groot defaults."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("matplotlib")


@pytest.fixture(autouse=True)
def no_figures():
    from matfuse.graphics.groot import GROOT
    from matfuse.graphics.root import ROOT

    ROOT.close_all()
    yield
    ROOT.close_all()
    GROOT.defaults.clear()


@pytest.fixture
def session():
    from matfuse.vm.session import Session

    out = io.StringIO()
    s = Session(stdout=out)
    s.output = out
    return s
