"""Figures in windows (the REPL with a display): pyplot figures, drawn and
closed through pyplot; a window closed by the user deletes its figure.
Agg stands in for the interactive backend here."""

from __future__ import annotations

import io
import warnings

import pytest

from matfuse.vm.session import Session


@pytest.fixture
def windows(monkeypatch):
    import matplotlib.pyplot as plt

    from matfuse.graphics import root

    monkeypatch.setattr(root, "_pyplot_started", True)     # as if a GUI backend loaded
    monkeypatch.setattr(root.ROOT, "windows", True)
    yield root
    root.ROOT.close_all()
    plt.close("all")


def test_figures_are_pyplot_windows(windows):
    import matplotlib.pyplot as plt

    session = Session(stdout=io.StringIO())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # Agg: "cannot be shown"
        session.eval("f = figure(3); plot(1:3); drawnow; title('t');")
        fig = windows.ROOT.figures[3]
        assert fig.windowed and plt.fignum_exists(3)
        session.eval("close(f)")
    assert not plt.fignum_exists(3)


def test_user_closing_the_window_deletes_the_figure(windows):
    from matplotlib.backend_bases import CloseEvent

    session = Session(stdout=io.StringIO())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session.eval("f = figure; plot(1:3);")
    fig = windows.ROOT.current
    fig.fig.canvas.callbacks.process("close_event", CloseEvent("close_event", fig.fig.canvas))
    session.eval("alive = isgraphics(f);")
    assert session.get("alive") is False
