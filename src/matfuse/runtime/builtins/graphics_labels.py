"""Annotation builtins: axis labels and titles, legend, grid, box, axis
limits and modes, view, text and annotation. See ``matfuse.graphics``."""

from __future__ import annotations

from typing import Any

from matfuse.runtime.builtins._graphics_call import graphics_call, handle_if_asked
from matfuse.runtime.registry import builtin


@builtin("xlabel", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True)
def xlabel(*args: Any, nargout: int = 0) -> Any:
    """Label the x-axis: ``xlabel('time (s)')``, ``xlabel(ax, txt, Name, Value)``."""
    return handle_if_asked(graphics_call("annotate", "label", args, "XLabel"), nargout)


@builtin("ylabel", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True)
def ylabel(*args: Any, nargout: int = 0) -> Any:
    """Label the y-axis."""
    return handle_if_asked(graphics_call("annotate", "label", args, "YLabel"), nargout)


@builtin("zlabel", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True)
def zlabel(*args: Any, nargout: int = 0) -> Any:
    """Label the z-axis of 3-D axes."""
    return handle_if_asked(graphics_call("annotate", "label", args, "ZLabel"), nargout)


@builtin("title", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True)
def title(*args: Any, nargout: int = 0) -> Any:
    """Title of the current axes (text, cell of lines, name-value pairs)."""
    return handle_if_asked(graphics_call("annotate", "label", args, "Title"), nargout)


@builtin("sgtitle", category="graphics", nargin=(1, None), nargout=(0, 1), wants_nargout=True)
def sgtitle(*args: Any, nargout: int = 0) -> Any:
    """Title over all subplots of the current figure."""
    return handle_if_asked(graphics_call("annotate", "sgtitle", args), nargout)


@builtin("legend", category="graphics", nargin=(0, None), nargout=(0, 1), wants_nargout=True,
         needs_ctx=True)
def legend(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Legend of the plots in the current axes: ``legend('a','b')``,
    ``legend({'a','b'}, 'Location', 'northwest')``, ``legend`` (DisplayName
    or data1, data2...), ``legend off``."""
    return handle_if_asked(graphics_call("annotate", "legend", args, ctx=ctx), nargout)


@builtin("grid", category="graphics", nargin=(0, 2), nargout=(0, 0))
def grid(*args: Any) -> None:
    """``grid on``, ``grid off``, ``grid minor``; ``grid`` toggles."""
    graphics_call("annotate", "grid", args)


@builtin("box", category="graphics", nargin=(0, 2), nargout=(0, 0))
def box(*args: Any) -> None:
    """``box on``/``box off``: the axes outline on all four sides."""
    graphics_call("annotate", "box", args)


@builtin("axis", category="graphics", nargin=(0, None), nargout=(0, 1), wants_nargout=True)
def axis(*args: Any, nargout: int = 0) -> Any:
    """Axis limits and modes: ``axis([x0 x1 y0 y1])``, ``axis equal``, ``axis
    tight``, ``axis square``, ``axis off``, ``axis ij``/``xy``; ``lim = axis``."""
    return graphics_call("annotate", "axis", args, nargout)


@builtin("xlim", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def xlim(*args: Any, nargout: int = 0) -> Any:
    """Set (``xlim([a b])``, ``xlim auto``) or get (``xlim``) the x-axis limits."""
    return graphics_call("annotate", "limits", args, "x", nargout)


@builtin("ylim", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def ylim(*args: Any, nargout: int = 0) -> Any:
    """Set or get the y-axis limits."""
    return graphics_call("annotate", "limits", args, "y", nargout)


@builtin("zlim", category="graphics", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def zlim(*args: Any, nargout: int = 0) -> Any:
    """Set or get the z-axis limits (3-D axes)."""
    return graphics_call("annotate", "limits", args, "z", nargout)


def _declare_ticks(axis: str, labels: bool) -> None:
    name = f"{axis}tick" + ("labels" if labels else "s")

    def ticks(*args: Any, nargout: int = 0) -> Any:
        return graphics_call("annotate", "ticks", args, axis, labels, nargout)

    ticks.__doc__ = (f"Set or get the {axis}-axis tick labels: ``{name}({{'a','b'}})``, "
                     f"``labels = {name}``." if labels else
                     f"Set or get the {axis}-axis tick values: ``{name}([0 5 10])``, "
                     f"``{name} auto``, ``v = {name}``.")
    builtin(name, category="graphics", nargin=(0, 2), nargout=(0, 1),
            wants_nargout=True)(ticks)


for _axis in ("x", "y", "z"):
    _declare_ticks(_axis, False)
    _declare_ticks(_axis, True)


@builtin("view", category="graphics", nargin=(0, 3), nargout=(0, 1), wants_nargout=True)
def view(*args: Any, nargout: int = 0) -> Any:
    """Camera of 3-D axes: ``view(az, el)``, ``view([az el])``, ``view(2)``, ``view(3)``."""
    return graphics_call("annotate", "view", args, nargout)


@builtin("text", category="graphics", nargin=(3, None), nargout=(0, 1), wants_nargout=True)
def text(*args: Any, nargout: int = 0) -> Any:
    """Text at data coordinates: ``text(x, y, 'label', Name, Value)``."""
    return handle_if_asked(graphics_call("annotate", "text", args), nargout)


@builtin("annotation", category="graphics", nargin=(1, None), nargout=(0, 1),
         wants_nargout=True)
def annotation(*args: Any, nargout: int = 0) -> Any:
    """Figure annotations in normalized units: ``annotation('arrow', x, y)``,
    ``annotation('textbox', [x y w h], 'String', 'note')``, line, doublearrow,
    rectangle, ellipse."""
    return handle_if_asked(graphics_call("annotate", "annotation", args), nargout)
