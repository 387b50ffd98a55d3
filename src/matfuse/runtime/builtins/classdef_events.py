"""Events of handle classes: ``addlistener(obj, 'Event', @callback)`` and
``notify(obj, 'Event')`` (the callback gets the source object and an event
data object with ``Source`` and ``EventName``)."""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import text_arg
from matfuse.runtime.classdef_objects import ClassObject
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import MObject, char_array


class EventData(MObject):
    """``event.EventData``: what a listener callback receives."""

    class_name = "event.EventData"

    def __init__(self, source: Any, event_name: str):
        self.source = source
        self.event_name = event_name

    def property_names(self) -> list[str]:
        return ["Source", "EventName"]

    def get_property(self, name: str) -> Any:
        if name == "Source":
            return self.source
        if name == "EventName":
            return char_array(self.event_name)
        return super().get_property(name)


class Listener(MObject):
    """``event.listener``: a registered callback; ``Enabled`` may be set."""

    class_name = "event.listener"

    def __init__(self, source: Any, event_name: str, callback: Any):
        self.source = source
        self.event_name = event_name
        self.callback = callback
        self.enabled = True

    def property_names(self) -> list[str]:
        return ["Source", "EventName", "Callback", "Enabled"]

    def get_property(self, name: str) -> Any:
        values = {"Source": self.source, "EventName": char_array(self.event_name),
                  "Callback": self.callback, "Enabled": self.enabled}
        if name in values:
            return values[name]
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> "Listener":
        if name != "Enabled":
            raise MatlabError("MATLAB:class:SetProhibited",
                              f"Unable to set the '{name}' property of class 'event.listener'.")
        self.enabled = bool(value)
        return self


def _event_source(obj: Any, event: Any, fn: str) -> tuple[ClassObject, str]:
    if type(obj) is not ClassObject or not obj.cls.is_handle:
        raise MatlabError("MATLAB:class:notHandle",
                          f"{fn} is only defined for handle objects.")
    name = text_arg(event, fn, "event name")
    if name not in obj.cls.all_events():
        raise MatlabError("MATLAB:class:EventNotFound",
                          f"Event '{name}' is not defined for class '{obj.cls.name}'.")
    return obj, name


@builtin("addlistener", category="classes", nargin=(3, 3), needs_ctx=True)
def addlistener(ctx: Any, obj: Any, event: Any, callback: Any) -> Listener:
    """Call ``callback(src, eventData)`` whenever ``obj`` notifies the event."""
    source, name = _event_source(obj, event, "addlistener")
    listener = Listener(source, name, callback)
    source.listeners.setdefault(name, []).append(listener)
    return listener


@builtin("notify", category="classes", nargin=(2, 3), nargout=(0, 0), needs_ctx=True)
def notify(ctx: Any, obj: Any, event: Any, data: Any = None) -> None:
    """Run the listeners of ``obj``'s event, in the order they were added."""
    source, name = _event_source(obj, event, "notify")
    payload = data if data is not None else EventData(source, name)
    for listener in list(source.listeners.get(name, [])):
        if listener.enabled:
            ctx.call(listener.callback, [source, payload], 0)
    return None
