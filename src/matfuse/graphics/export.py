"""Writing figures to files: ``saveas``, ``print``, ``exportgraphics``; and
``drawnow``. Files are written to a temporary name beside the target and
renamed into place, so a failed export never leaves half a file."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_numeric, name_value_pairs, scalar, text_of
from matfuse.graphics.handles import GraphicsHandle
from matfuse.graphics.root import ROOT, figure_from_value
from matfuse.graphics.style import matlab_style

FORMATS = {"png": "png", "pdf": "pdf", "svg": "svg", "jpg": "jpg", "jpeg": "jpg",
           "eps": "eps", "tif": "tiff", "tiff": "tiff"}
PRINT_DEVICES = {"-dpng": "png", "-dpdf": "pdf", "-dsvg": "svg", "-djpeg": "jpg",
                 "-deps": "eps", "-depsc": "eps", "-dtiff": "tiff", "-dtiffn": "tiff"}
SAVEAS_DPI = 100.0
PRINT_DPI = 150.0


def _format_for(path: str, fmt: str | None, fn: str) -> tuple[str, str]:
    """(path with its extension, matplotlib format)."""
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if fmt is None:
        if ext not in FORMATS:
            raise MatlabError(f"MATLAB:{fn}:invalidFormat",
                              f"Unsupported file format '{ext or '(none)'}': use .png, .pdf, "
                              ".svg, .jpg, .eps or .tif.")
        return path, FORMATS[ext]
    if fmt not in FORMATS:
        raise MatlabError(f"MATLAB:{fn}:invalidFormat", f"Unsupported format '{fmt}'.")
    if ext != fmt and FORMATS.get(ext) != FORMATS[fmt]:
        path = f"{path}.{'jpg' if fmt == 'jpeg' else fmt}"
    return path, FORMATS[fmt]


def write_figure(fig: Any, path: str, fmt: str, dpi: float, tight: bool = False,
                 bbox: Any = None) -> None:
    """Render ``fig`` into ``path`` atomically (white background, as MATLAB prints)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise MatlabError("MATLAB:save:couldNotWriteFile",
                          f"Unable to write file {path}: the folder does not exist.")
    kwargs: dict[str, Any] = {"format": fmt, "dpi": dpi, "facecolor": "white"}
    if bbox is not None:
        kwargs["bbox_inches"] = bbox
    elif tight:
        kwargs.update(bbox_inches="tight", pad_inches=0.03)
    if fmt in ("png", "svg", "pdf"):
        kwargs["metadata"] = {"Software": "matfuse"} if fmt == "png" else \
            ({"Date": None} if fmt == "svg" else {"CreationDate": None})
    handle, temp = tempfile.mkstemp(prefix=".matfuse-", suffix="." + fmt, dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream, matlab_style():
            fig.fig.savefig(stream, **kwargs)
        os.chmod(temp, _file_mode(path))
        os.replace(temp, path)
    except OSError as err:
        raise MatlabError("MATLAB:save:couldNotWriteFile",
                          f"Unable to write file {path}: {err.strerror}.") from None
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def _file_mode(path: str) -> int:
    """The mode a new file gets (mkstemp's is private): the old file's, or 0666 less umask."""
    if os.path.exists(path):
        return os.stat(path).st_mode & 0o777
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def saveas(args: tuple[Any, ...]) -> None:
    """``saveas(fig, filename)``, ``saveas(fig, filename, format)``."""
    if len(args) < 2:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    target = args[0]
    if isinstance(target, GraphicsHandle) and target.objects and \
            target.objects[0].type_name != "figure":
        fig = target.objects[0].figure()
    else:
        fig = figure_from_value(target)
    path = text_of(args[1])
    fmt = text_of(args[2]).lower() if len(args) > 2 else None
    path, mpl_format = _format_for(path, fmt, "saveas")
    write_figure(fig, path, mpl_format, SAVEAS_DPI)


def print_figure(args: tuple[Any, ...]) -> None:
    """``print(filename, '-dpng')``, ``print -dpdf file``, ``print(fig, ...)``,
    ``-fN``, ``-rDPI``."""
    fig = None
    path = None
    fmt = None
    dpi = PRINT_DPI
    for arg in args:
        if isinstance(arg, GraphicsHandle) or is_numeric(arg):
            fig = figure_from_value(arg)
            continue
        word = text_of(arg)
        lower = word.lower()
        if lower in PRINT_DEVICES:
            fmt = PRINT_DEVICES[lower]
        elif lower.startswith("-d"):
            raise MatlabError("MATLAB:print:InvalidDevice", f"Illegal device option, '{word}'.")
        elif lower.startswith("-r"):
            try:
                dpi = float(word[2:]) or PRINT_DPI
            except ValueError:
                raise MatlabError("MATLAB:print:InvalidResolution",
                                  f"Invalid resolution '{word}'.") from None
        elif lower.startswith("-f"):
            fig = figure_from_value(float(word[2:]))
        elif lower.startswith("-"):
            continue                      # renderer/paper options have no effect here
        else:
            path = word
    if path is None:
        raise MatlabError("MATLAB:print:NoPrinter",
                          "Printing to a printer is not supported: give a file name.")
    fig = fig if fig is not None else ROOT.gcf()
    if fmt is None:
        ext = os.path.splitext(path)[1].lower().lstrip(".")
        fmt = FORMATS.get(ext, "png")
    path, mpl_format = _format_for(path, fmt, "print")
    write_figure(fig, path, mpl_format, dpi)


def exportgraphics(args: tuple[Any, ...]) -> None:
    """``exportgraphics(obj, filename, 'Resolution', r, ...)``: tightly cropped."""
    if len(args) < 2:
        raise MatlabError("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.")
    if not isinstance(args[0], GraphicsHandle) or not args[0].objects:
        raise MatlabError("MATLAB:exportgraphics:InvalidObject",
                          "First argument must be a figure, axes or layout handle.")
    obj = args[0].objects[0]
    fig = obj.figure() if obj.type_name != "figure" else obj
    if fig is None:
        fig = obj.parent
    path = text_of(args[1])
    dpi = PRINT_DPI
    for name, value in name_value_pairs(list(args[2:]), "exportgraphics"):
        if name.lower() == "resolution":
            dpi = scalar(value, "Resolution")
        elif name.lower() not in ("contenttype", "backgroundcolor", "colorspace", "append"):
            raise MatlabError("MATLAB:exportgraphics:InvalidParameter",
                              f"'{name}' is not a recognized parameter.")
    path, mpl_format = _format_for(path, None, "exportgraphics")
    bbox = None
    if obj.type_name == "axes":
        renderer = fig.fig.canvas.get_renderer()
        bbox = obj.mpl.get_tightbbox(renderer).transformed(fig.fig.dpi_scale_trans.inverted())
        bbox = bbox.padded(0.03)
    write_figure(fig, path, mpl_format, dpi, tight=True, bbox=bbox)


def drawnow() -> None:
    """Flush pending drawing: windows are redrawn and their events handled."""
    if not ROOT.windows:
        return
    import matplotlib.pyplot as plt

    for fig in ROOT.live_figures():
        fig.fig.canvas.draw_idle()
    plt.pause(0.001)


def png_bytes(fig: Any, dpi: float = SAVEAS_DPI) -> bytes:
    """The figure as PNG bytes (notebooks show these inline)."""
    import io

    buffer = io.BytesIO()
    with matlab_style():
        fig.fig.savefig(buffer, format="png", dpi=dpi, facecolor="white")
    return buffer.getvalue()
