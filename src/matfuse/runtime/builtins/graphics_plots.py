"""Plotting builtins: line plots, charts, images, surfaces, contours and
colormaps. Each returns its graphics object handles when asked for an output;
gpuArray data is gathered. See ``matfuse.graphics``."""

from __future__ import annotations

from typing import Any

from matfuse.runtime.builtins._graphics_call import graphics_call, handle_if_asked
from matfuse.runtime.registry import builtin


def _plots(ctx: Any, fn: str, three_d: bool, args: tuple[Any, ...], nargout: int) -> Any:
    return handle_if_asked(graphics_call("plotting", "plot_lines", args, fn, three_d, ctx=ctx),
                           nargout)


@builtin("plot", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         needs_ctx=True, sink=True)
def plot(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """2-D line plot: ``plot(Y)``, ``plot(X,Y)``, ``plot(X1,Y1,LineSpec,X2,Y2,...)``;
    matrix columns become lines; name-value pairs (LineWidth, Color,
    DisplayName, MarkerSize...) apply to every line; ``h = plot(...)`` returns them."""
    return _plots(ctx, "plot", False, args, nargout)


@builtin("plot3", category="graphics", nargin=(3, None), nargout=(0, 1), wants_nargout=True,
         needs_ctx=True, sink=True)
def plot3(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """3-D line plot: ``plot3(X,Y,Z,LineSpec,...)``."""
    return _plots(ctx, "plot3", True, args, nargout)


@builtin("semilogx", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         needs_ctx=True, sink=True)
def semilogx(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Line plot with a logarithmic x-axis (arguments as ``plot``)."""
    return _plots(ctx, "semilogx", False, args, nargout)


@builtin("semilogy", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         needs_ctx=True, sink=True)
def semilogy(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Line plot with a logarithmic y-axis (arguments as ``plot``)."""
    return _plots(ctx, "semilogy", False, args, nargout)


@builtin("loglog", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         needs_ctx=True, sink=True)
def loglog(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Line plot with logarithmic x- and y-axes (arguments as ``plot``)."""
    return _plots(ctx, "loglog", False, args, nargout)


@builtin("polarplot", category="graphics", nargin=(1, None), nargout=(0, 1),
         wants_nargout=True, needs_ctx=True, sink=True)
def polarplot(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Line plot in polar axes: ``polarplot(theta, rho, LineSpec, ...)`` (theta
    in radians, measured counterclockwise from the right)."""
    return _plots(ctx, "polarplot", False, args, nargout)


@builtin("stairs", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def stairs(*args: Any, nargout: int = 0) -> Any:
    """Stairstep plot: ``stairs(Y)``, ``stairs(X,Y,LineSpec,...)``."""
    return handle_if_asked(graphics_call("plotting", "stairs", args), nargout)


@builtin("stem", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def stem(*args: Any, nargout: int = 0) -> Any:
    """Discrete sequence plot: ``stem(Y)``, ``stem(X,Y)``, ``'filled'``, a
    LineSpec, name-value pairs."""
    return handle_if_asked(graphics_call("plotting", "stem", args), nargout)


@builtin("errorbar", category="graphics", nargin=(2, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def errorbar(*args: Any, nargout: int = 0) -> Any:
    """Line plot with error bars: ``errorbar(y,err)``, ``errorbar(x,y,err)``,
    ``errorbar(x,y,neg,pos)``, then a LineSpec and name-value pairs."""
    return handle_if_asked(graphics_call("plotting", "errorbar", args), nargout)


@builtin("scatter", category="graphics", nargin=(2, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def scatter(*args: Any, nargout: int = 0) -> Any:
    """Scatter plot: ``scatter(x,y)``, ``scatter(x,y,sz,c)``, a marker, ``'filled'``."""
    return handle_if_asked(graphics_call("plot_types", "scatter", args), nargout)


@builtin("bar", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def bar(*args: Any, nargout: int = 0) -> Any:
    """Bar chart: ``bar(y)``, ``bar(x,y)``, ``bar(...,width)``, ``'stacked'``;
    one Bar object per column of a matrix."""
    return handle_if_asked(graphics_call("plot_types", "bar", args), nargout)


@builtin("barh", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def barh(*args: Any, nargout: int = 0) -> Any:
    """Horizontal bar chart (arguments as ``bar``)."""
    return handle_if_asked(graphics_call("plot_types", "bar", args, True), nargout)


@builtin("pie", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def pie(*args: Any, nargout: int = 0) -> Any:
    """Pie chart: ``pie(x)`` (percent labels), ``pie(x, labels)``; values
    summing below 1 draw a partial pie."""
    return handle_if_asked(graphics_call("plot_types", "pie", args), nargout)


@builtin("quiver", category="graphics", nargin=(2, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def quiver(*args: Any, nargout: int = 0) -> Any:
    """Arrows: ``quiver(X,Y,U,V)``, ``quiver(U,V)``, ``quiver(...,scale)``
    (0 turns automatic scaling off), a LineSpec."""
    return handle_if_asked(graphics_call("plot_types", "quiver", args), nargout)


@builtin("histogram", category="graphics", nargin=(1, None), nargout=(0, 1),
         wants_nargout=True, sink=True)
def histogram(*args: Any, nargout: int = 0) -> Any:
    """Histogram with automatic bins (as ``histcounts``): ``histogram(x)``,
    ``histogram(x,nbins)``, ``histogram(x,edges)``, ``'Normalization'``...;
    ``h.Values`` and ``h.BinEdges`` give the counts and edges."""
    return handle_if_asked(graphics_call("plot_types", "histogram", args), nargout)


@builtin("area", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def area(*args: Any, nargout: int = 0) -> Any:
    """Filled area plot: ``area(y)``, ``area(x,y)``; matrix columns are stacked."""
    return handle_if_asked(graphics_call("plot_types", "area", args), nargout)


@builtin("imagesc", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def imagesc(*args: Any, nargout: int = 0) -> Any:
    """Image with colours scaled to the colormap: ``imagesc(C)``,
    ``imagesc(x,y,C)``, ``imagesc(C,[low high])``."""
    return handle_if_asked(graphics_call("images", "show_image", args, "imagesc"), nargout)


@builtin("image", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def image(*args: Any, nargout: int = 0) -> Any:
    """Image with direct colormap indices, or a truecolor m-by-n-by-3 array."""
    return handle_if_asked(graphics_call("images", "show_image", args, "image"), nargout)


@builtin("imshow", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def imshow(*args: Any, nargout: int = 0) -> Any:
    """Show an image (grayscale or RGB; double in [0,1], uint8 in [0,255])
    with equal aspect and no axes."""
    return handle_if_asked(graphics_call("images", "show_image", args, "imshow"), nargout)


@builtin("surf", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def surf(*args: Any, nargout: int = 0) -> Any:
    """Coloured 3-D surface: ``surf(Z)``, ``surf(X,Y,Z)``, ``surf(X,Y,Z,C)``."""
    return handle_if_asked(graphics_call("images", "surface", args, "surf"), nargout)


@builtin("mesh", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def mesh(*args: Any, nargout: int = 0) -> Any:
    """3-D mesh (coloured edges, white faces): ``mesh(Z)``, ``mesh(X,Y,Z)``."""
    return handle_if_asked(graphics_call("images", "surface", args, "mesh"), nargout)


@builtin("contour", category="graphics", nargin=(1, None), nargout=(0, 2), wants_nargout=True,
         sink=True)
def contour(*args: Any, nargout: int = 0) -> Any:
    """Contour lines: ``contour(Z)``, ``contour(X,Y,Z,levels)``, a LineSpec,
    ``'ShowText','on'``; ``[M, c] = contour(...)`` returns the contour matrix."""
    return graphics_call("images", "contour", args, "contour", nargout)


@builtin("contourf", category="graphics", nargin=(1, None), nargout=(0, 2), wants_nargout=True,
         sink=True)
def contourf(*args: Any, nargout: int = 0) -> Any:
    """Filled contours (arguments as ``contour``)."""
    return graphics_call("images", "contour", args, "contourf", nargout)


@builtin("shading", category="graphics", nargin=(1, 2), nargout=(0, 0))
def shading(*args: Any) -> None:
    """Surface shading of the current axes: ``shading flat``, ``shading interp``
    (no edge lines) or ``shading faceted`` (black edges)."""
    graphics_call("images", "shading", args)


@builtin("clim", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True,
         aliases=("caxis",))
def clim(*args: Any, nargout: int = 0) -> Any:
    """Colour limits of the current axes: ``clim([low high])``, ``clim auto``,
    ``lim = clim`` (``caxis`` is the older name)."""
    return graphics_call("images", "clim", args, nargout)


@builtin("fill", category="graphics", nargin=(3, None), nargout=(0, 1), wants_nargout=True,
         sink=True)
def fill(*args: Any, nargout: int = 0) -> Any:
    """Filled 2-D polygons: ``fill(x, y, 'r')``, ``fill(x, y, [0 .5 1])``; matrix
    columns are separate polygons."""
    return handle_if_asked(graphics_call("plot_types", "fill", args), nargout)


@builtin("colormap", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def colormap(*args: Any, nargout: int = 0) -> Any:
    """Set or get the colormap: ``colormap jet``, ``colormap(parula(64))``,
    ``colormap(ax, 'gray')``, ``map = colormap``."""
    return graphics_call("images", "colormap", args, nargout)


@builtin("colorbar", category="graphics", nargin=(0, None), nargout=(0, 1), wants_nargout=True)
def colorbar(*args: Any, nargout: int = 0) -> Any:
    """Show a colour scale beside the current axes (``colorbar('southoutside')``,
    ``colorbar off``)."""
    return handle_if_asked(graphics_call("images", "colorbar", args), nargout)


def _declare_colormap(name: str) -> None:
    def colormap_function(n: Any = None) -> Any:
        return graphics_call("images", "colormap_function", name, n)

    colormap_function.__doc__ = (f"The {name} colormap as an n-by-3 matrix of RGB values "
                                 f"(``{name}(n)``, 256 colours by default).")
    builtin(name, category="graphics", nargin=(0, 1), nargout=(0, 1))(colormap_function)


for _name in ("parula", "jet", "gray", "hot", "cool", "spring", "summer", "autumn", "winter",
              "bone", "copper", "pink", "hsv", "turbo"):
    _declare_colormap(_name)
