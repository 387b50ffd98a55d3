"""MATLAB graphics on matplotlib.

MATLAB's graphics model (figures, axes, charts as handle objects; ``hold``,
``subplot``, ``tiledlayout``; LineSpec strings; ``set``/``get``) kept in
``matfuse.graphics.objects`` and ``matfuse.graphics.root``; matplotlib draws.
The builtins in ``matfuse.runtime.builtins.graphics_*`` call into this
package, which imports matplotlib only when a graphics function runs, so the
rest of matfuse works without it (it is the ``matfuse[plot]`` extra).

Rendering is headless (Agg) unless ``enable_windows()`` is called (the REPL
does so when a display exists); notebooks fetch new figures as PNG through
``matfuse.graphics.root.take_new_figures``.
"""

from __future__ import annotations

import importlib.util

from matfuse.errors import MatlabError

MISSING_EXTRA_ID = "matfuse:graphics:matplotlibMissing"


def require_matplotlib() -> None:
    """Raise a MATLAB-style error naming the extra when matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:
        raise MatlabError(MISSING_EXTRA_ID,
                          "Graphics need matplotlib. Install the plotting extra: "
                          "pip install 'matfuse[plot]'")
