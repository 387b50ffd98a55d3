"""Figure and axes management builtins: figure, axes, line, gcf, gca, clf, close, hold,
subplot, tiledlayout/nexttile, set/get, isgraphics/ishandle, drawnow and the
exporters (saveas, print, exportgraphics). See ``matfuse.graphics``."""

from __future__ import annotations

from typing import Any



from matfuse.runtime.builtins._graphics_call import graphics_call, handle_if_asked
from matfuse.runtime.registry import builtin


@builtin("figure", category="graphics", nargin=(0, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def figure(*args: Any, nargout: int = 0) -> Any:
    """Create a figure (``figure``), make figure n current (``figure(n)``,
    created when missing), or set properties (``figure('Name', 'x')``)."""
    return handle_if_asked(graphics_call("commands", "figure", args), nargout)


@builtin("axes", category="graphics", nargin=(0, None), nargout=(0, 1), wants_nargout=True)
def axes(*args: Any, nargout: int = 0) -> Any:
    """Create axes in the current figure (``axes('Position', [x y w h])``), or
    make given axes current (``axes(ax)``)."""
    return handle_if_asked(graphics_call("commands", "axes", args), nargout)


@builtin("line", category="graphics", nargin=(2, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def line(*args: Any, nargout: int = 0) -> Any:
    """Add lines to the current axes whatever the hold state: ``line(x, y)``,
    ``line(x, y, z)``, name-value pairs (Color, LineWidth, LineStyle...)."""
    return handle_if_asked(graphics_call("commands", "line", args), nargout)


@builtin("gcf", category="graphics", nargin=(0, 0), nargout=(0, 1))
def gcf() -> Any:
    """The current figure (one is created when none is open)."""
    return graphics_call("commands", "current_handle", "figure")


@builtin("groot", category="graphics", nargin=(0, 0), nargout=(0, 1))
def groot() -> Any:
    """The graphics root: ScreenSize, CurrentFigure, and defaults for new
    objects (``set(groot, 'DefaultLineLineWidth', 1.5)``); handle 0 is the same."""
    return graphics_call("groot", "root_handle")


@builtin("gca", category="graphics", nargin=(0, 0), nargout=(0, 1))
def gca() -> Any:
    """The current axes of the current figure (created when there is none)."""
    return graphics_call("commands", "current_handle", "axes")


@builtin("clf", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def clf(*args: Any, nargout: int = 0) -> Any:
    """Clear the current figure (or the given one): its axes and layout are deleted."""
    return handle_if_asked(graphics_call("commands", "clear_figure", args), nargout)


@builtin("cla", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def cla(*args: Any, nargout: int = 0) -> Any:
    """Clear the current axes: its plots, labels and legend are deleted."""
    return handle_if_asked(graphics_call("commands", "clear_axes", args), nargout)


@builtin("close", category="graphics", nargin=(0, None), nargout=(0, 1), wants_nargout=True)
def close(*args: Any, nargout: int = 0) -> Any:
    """Close the current figure, ``close(n)``/``close(f)``, or ``close all``."""
    result = graphics_call("commands", "close_figures", args)
    return bool(result) if nargout else None


@builtin("hold", category="graphics", nargin=(0, 2), nargout=(0, 0))
def hold(*args: Any) -> None:
    """``hold on`` keeps plots when new ones are added, ``hold off`` replaces
    them; ``hold`` alone toggles. ``hold(ax, 'on')`` for given axes."""
    graphics_call("commands", "set_hold", args)


@builtin("ishold", category="graphics", nargin=(0, 1), nargout=(0, 1))
def ishold(*args: Any) -> bool:
    """True when hold is on for the current axes (or the given axes)."""
    return bool(graphics_call("commands", "is_hold", args))


@builtin("subplot", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True)
def subplot(*args: Any, nargout: int = 0) -> Any:
    """Axes in an m-by-n grid: ``subplot(m,n,p)`` (p may be a vector to span
    cells); an existing axes there becomes current."""
    return handle_if_asked(graphics_call("layout", "subplot", args), nargout)


@builtin("tiledlayout", category="graphics", nargin=(0, None), nargout=(0, 1),
         wants_nargout=True)
def tiledlayout(*args: Any, nargout: int = 0) -> Any:
    """A tiled chart layout in the current figure: ``tiledlayout(m,n)`` or
    ``tiledlayout('flow')``; name-value pairs TileSpacing and Padding."""
    return handle_if_asked(graphics_call("layout", "tiledlayout", args), nargout)


@builtin("nexttile", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def nexttile(*args: Any, nargout: int = 0) -> Any:
    """Axes in the next tile of the layout (``nexttile(n)``: tile n;
    ``nexttile([r c])``: spanning r-by-c tiles)."""
    return handle_if_asked(graphics_call("layout", "nexttile", args), nargout)


@builtin("set", category="graphics", nargin=(3, None), nargout=(0, 0))
def set_(target: Any, *pairs: Any) -> None:
    """Set graphics object properties: ``set(h, 'Name', value, ...)``
    (every object of a handle array)."""
    graphics_call("properties", "set_properties", target, pairs)


@builtin("get", category="graphics", nargin=(1, 2), nargout=(0, 1))
def get(target: Any, name: Any = None) -> Any:
    """A property of a graphics object (``get(h, 'Name')``; a cell for a
    handle array), or all of them as a struct (``get(h)``)."""
    return graphics_call("properties", "get_properties", target, name)


@builtin("isgraphics", category="graphics", nargin=(1, 2), nargout=(0, 1))
def isgraphics(value: Any, kind: Any = None) -> Any:
    """True for each element that is a valid graphics object (of the given type)."""
    return graphics_call("properties", "is_graphics", value, kind)


@builtin("ishandle", category="graphics", nargin=(1, 1), nargout=(0, 1))
def ishandle(value: Any) -> Any:
    """True for each element that is a valid graphics handle."""
    return graphics_call("properties", "is_graphics", value, None)


@builtin("drawnow", category="graphics", nargin=(0, 1), nargout=(0, 0))
def drawnow(*args: Any) -> None:
    """Update figures now (windows redraw and process events)."""
    graphics_call("export", "drawnow")


@builtin("saveas", category="graphics", nargin=(2, 3), nargout=(0, 0))
def saveas(*args: Any) -> None:
    """Save a figure to a file: ``saveas(fig, 'out.png')`` or
    ``saveas(fig, 'out', 'pdf')`` (png, pdf, svg, jpg, eps, tif)."""
    graphics_call("export", "saveas", args)


@builtin("print", category="graphics", nargin=(0, None), nargout=(0, 0))
def print_(*args: Any) -> None:
    """Print a figure to a file: ``print('-dpng', 'out')``, ``print -dpdf out.pdf``,
    ``-rDPI`` for the resolution, ``-fN`` or a handle for the figure."""
    graphics_call("export", "print_figure", args)


@builtin("exportgraphics", category="graphics", nargin=(2, None), nargout=(0, 0))
def exportgraphics(*args: Any) -> None:
    """Save a figure or axes tightly cropped: ``exportgraphics(gcf, 'out.png',
    'Resolution', 300)`` (png, pdf, svg, jpg, tif)."""
    graphics_call("export", "exportgraphics", args)


