"""Graphics objects: the MATLAB side of figures, axes and charts.

Each object keeps its matplotlib artist(s) and exposes MATLAB properties
through ``get_<Name>``/``set_<Name>`` methods; ``props`` lists them in the
order ``get(h)`` shows them and ``display_props`` the short list displayed
for ``h`` (as MATLAB's "with properties" view). Names are case-insensitive.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import numeric, on_off, positive, scalar, text_of, texts_of
from matfuse.graphics.colors import color_value, rgb_row
from matfuse.runtime.values import CellArray, char_array, empty_double


def text_value(text: str) -> Any:
    return char_array(text) if text else np.zeros((1, 0), dtype="<U1")


def onoff_value(flag: bool) -> Any:
    return char_array("on" if flag else "off")


class GObject:
    """Base of graphics objects: parent/children, Type, Tag, UserData."""

    type_name = "object"
    matlab_class = "matlab.graphics.Graphics"
    short_class = "Graphics"
    props: tuple[str, ...] = ()
    display_props: tuple[str, ...] = ()

    def __init__(self, parent: "GObject | None"):
        from matfuse.graphics.handles import GraphicsHandle

        self.parent = parent
        self.children: list[GObject] = []
        self.deleted = False
        self.tag = ""
        self.user_data: Any = empty_double()
        self.handle_visible = True       # HandleVisibility: off hides it from Children, legends
        self.handle = GraphicsHandle([self])
        if parent is not None:
            parent.children.append(self)

    # ---------------------------------------------------------- properties
    COMMON = ("Type", "Tag", "UserData", "Parent", "Children", "HandleVisibility")

    def _canonical(self, name: str) -> str:
        all_names = self.props + self.COMMON
        for known in all_names:
            if known.lower() == name.lower():
                return known
        raise MatlabError("MATLAB:hg:InvalidProperty",
                          f"Unrecognized property {name} for class {self.short_class}.")

    def get(self, name: str) -> Any:
        return getattr(self, "get_" + self._canonical(name))()

    def set(self, name: str, value: Any) -> None:
        canonical = self._canonical(name)
        setter = getattr(self, "set_" + canonical, None)
        if setter is None:
            raise MatlabError("MATLAB:hg:propswch:PropertyNotSettable",
                              f"Unable to set the '{canonical}' property of class "
                              f"'{self.short_class}' because it is read-only.")
        setter(value)
        self.changed()

    def all_props(self) -> list[str]:
        return sorted(set(self.props) | set(self.COMMON), key=str.lower)

    def changed(self) -> None:
        """Called after a property is set (figures redraw open windows)."""
        fig = self.figure()
        if fig is not None:
            fig.request_draw()

    def figure(self) -> "Any":
        obj: GObject | None = self
        while obj is not None and obj.type_name != "figure":
            obj = obj.parent
        return obj

    def title_text(self) -> str:
        return self.short_class

    def get_Type(self) -> Any:
        return char_array(self.type_name)

    def get_Tag(self) -> Any:
        return text_value(self.tag)

    def set_Tag(self, value: Any) -> None:
        self.tag = text_of(value)

    def get_UserData(self) -> Any:
        return self.user_data

    def set_UserData(self, value: Any) -> None:
        self.user_data = value

    def get_Parent(self) -> Any:
        from matfuse.graphics.handles import GraphicsHandle

        return self.parent.handle if self.parent is not None else GraphicsHandle([])

    def get_Children(self) -> Any:
        from matfuse.graphics.handles import GraphicsHandle

        live = [c for c in reversed(self.children)                     # newest first
                if not c.deleted and c.handle_visible]
        return GraphicsHandle(live)

    def get_HandleVisibility(self) -> Any:
        return onoff_value(self.handle_visible)

    def set_HandleVisibility(self, value: Any) -> None:
        word = text_of(value).lower() if not isinstance(value, (bool, float)) else ""
        self.handle_visible = on_off(value, "HandleVisibility") if word != "callback" else True
        if self.parent is not None and hasattr(self.parent, "after_plot"):
            self.parent.after_plot()

    # ------------------------------------------------------------ deletion
    def remove(self) -> None:
        """``delete(h)``: the object leaves its parent, which redraws."""
        parent = self.parent
        self.delete()
        if parent is not None and hasattr(parent, "after_plot"):
            parent.after_plot()
        elif parent is not None:
            parent.changed()

    def delete(self) -> None:
        for child in list(self.children):
            child.delete()
        self.deleted = True
        self.remove_artists()
        if self.parent is not None and self in self.parent.children:
            self.parent.children.remove(self)

    def remove_artists(self) -> None:
        """Take this object's artists off the canvas."""


class TextObject(GObject):
    """A text: ``text(...)`` labels, titles and axis labels (one mpl Text)."""

    type_name = "text"
    matlab_class = "matlab.graphics.primitive.Text"
    short_class = "Text"
    props = ("String", "FontSize", "FontWeight", "Color", "Position",
             "HorizontalAlignment", "VerticalAlignment", "Rotation", "Visible", "Interpreter",
             "Units", "FontName", "FontAngle", "BackgroundColor", "EdgeColor")
    display_props = ("String", "FontSize", "FontWeight", "Color", "Position",
                     "HorizontalAlignment")

    def __init__(self, parent: GObject | None, artist: Any, owned: bool = True,
                 text: str | None = None):
        super().__init__(parent)
        self.artist = artist
        self.owned = owned          # False for an axes' title/labels: never removed
        self.interpreter = "tex"
        self.text = artist.get_text() if text is None else text   # as MATLAB wrote it
        if text is not None:
            self._render()

    def title_text(self) -> str:
        return f"Text ({self.text})"

    def _render(self) -> None:
        from matfuse.graphics.tex import convert

        self.artist.set_text(convert(self.text, self.interpreter))

    def set_string(self, value: Any) -> None:
        self.text = "\n".join(texts_of(value))
        self._render()

    def get_String(self) -> Any:
        return text_value(self.text)

    def set_String(self, value: Any) -> None:
        self.set_string(value)

    def get_FontSize(self) -> float:
        return float(self.artist.get_fontsize())

    def set_FontSize(self, value: Any) -> None:
        self.artist.set_fontsize(positive(value, "FontSize"))

    def get_FontWeight(self) -> Any:
        weight = self.artist.get_fontweight()
        return char_array("bold" if weight in ("bold", 700) else "normal")

    def set_FontWeight(self, value: Any) -> None:
        self.artist.set_fontweight(text_of(value))

    def get_Color(self) -> Any:
        from matplotlib.colors import to_rgb

        return rgb_row(to_rgb(self.artist.get_color()))

    def set_Color(self, value: Any) -> None:
        self.artist.set_color(color_value(value))

    def get_Position(self) -> Any:
        x, y = self.artist.get_position()
        return np.array([[x, y, 0.0]])

    def set_Position(self, value: Any) -> None:
        pos = numeric(value).reshape(-1)
        self.artist.set_position((pos[0], pos[1]))

    def get_HorizontalAlignment(self) -> Any:
        return char_array(self.artist.get_horizontalalignment())

    def set_HorizontalAlignment(self, value: Any) -> None:
        self.artist.set_horizontalalignment(text_of(value))

    def get_Rotation(self) -> float:
        return float(self.artist.get_rotation())

    def set_Rotation(self, value: Any) -> None:
        self.artist.set_rotation(scalar(value, "Rotation"))

    def get_Visible(self) -> Any:
        return onoff_value(self.artist.get_visible())

    def set_Visible(self, value: Any) -> None:
        self.artist.set_visible(on_off(value, "Visible"))

    def get_VerticalAlignment(self) -> Any:
        where = self.artist.get_verticalalignment()
        return char_array({"center_baseline": "baseline"}.get(where, where))

    def set_VerticalAlignment(self, value: Any) -> None:
        word = text_of(value).lower()
        mapping = {"middle": "center", "top": "top", "bottom": "bottom", "cap": "top",
                   "baseline": "baseline"}
        if word not in mapping:
            from matfuse.errors import MatlabError

            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for VerticalAlignment.")
        self.artist.set_verticalalignment(mapping[word])

    def get_Units(self) -> Any:
        axes = self.artist.axes
        normalized = axes is not None and self.artist.get_transform() == axes.transAxes
        return char_array("normalized" if normalized else "data")

    def set_Units(self, value: Any) -> None:
        """'data' or 'normalized' (0-1 across the axes), for text placed by text()."""
        word = text_of(value).lower()
        axes = self.artist.axes
        if word not in ("data", "normalized"):
            from matfuse.errors import MatlabError

            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a supported value for Units: "
                              "use 'data' or 'normalized'.")
        if axes is not None and self.owned:
            self.artist.set_transform(axes.transAxes if word == "normalized" else axes.transData)

    def get_FontName(self) -> Any:
        return char_array(self.artist.get_fontname())

    def set_FontName(self, value: Any) -> None:
        self.artist.set_fontname(text_of(value))

    def get_FontAngle(self) -> Any:
        return char_array("italic" if self.artist.get_style() == "italic" else "normal")

    def set_FontAngle(self, value: Any) -> None:
        self.artist.set_style("italic" if text_of(value).lower() in ("italic", "oblique")
                              else "normal")

    def get_BackgroundColor(self) -> Any:
        box = self.artist.get_bbox_patch()
        return char_array("none") if box is None else rgb_row(box.get_facecolor()[:3])

    def set_BackgroundColor(self, value: Any) -> None:
        color = color_value(value)
        if color == "none":
            self.artist.set_bbox(None)
        else:
            self.artist.set_bbox({"facecolor": color, "edgecolor": "none", "pad": 2})

    def get_EdgeColor(self) -> Any:
        box = self.artist.get_bbox_patch()
        return char_array("none") if box is None else rgb_row(box.get_edgecolor()[:3])

    def set_EdgeColor(self, value: Any) -> None:
        color = color_value(value)
        box = self.artist.get_bbox_patch()
        face = "none" if box is None else box.get_facecolor()
        self.artist.set_bbox({"facecolor": face, "edgecolor": color, "pad": 2})

    def get_Interpreter(self) -> Any:
        return char_array(self.interpreter)

    def set_Interpreter(self, value: Any) -> None:
        from matfuse.errors import MatlabError

        word = text_of(value).lower()
        if word not in ("tex", "latex", "none"):
            raise MatlabError("MATLAB:datatypes:InvalidEnumValue",
                              f"'{text_of(value)}' is not a valid value for Interpreter: "
                              "use 'tex', 'latex' or 'none'.")
        self.interpreter = word
        self._render()

    def remove_artists(self) -> None:
        if self.owned:
            self.artist.remove()


def apply_text_options(text: TextObject, pairs: list[tuple[str, Any]]) -> None:
    for name, value in pairs:
        text.set(name, value)


def cell_of_texts(texts: list[str]) -> Any:
    return CellArray.from_list([text_value(t) for t in texts], (1, len(texts)))
