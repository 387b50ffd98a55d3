"""Time zones of datetime arrays (the ``TimeZone`` property).

A datetime keeps its wall-clock fields; the zone is a name (``''`` is
unzoned, ``'local'`` the system's zone, ``'UTC'``, or an IANA name such as
``'America/New_York'``). Setting a zone on an unzoned array only attaches
it; changing a zone converts the wall-clock times, as MATLAB does. Zone
rules come from the system's IANA database (``zoneinfo``).
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.datetime_format import MS_PER_DAY, fields_of

_UTC_NAMES = ("UTC", "GMT", "Z", "UTCLeapSeconds", "Etc/UTC")


def zone_of(name: str) -> Any:
    """The tzinfo of a zone name (None for unzoned); unknown names are an error."""
    if name == "":
        return None
    if name in _UTC_NAMES:
        return _dt.timezone.utc
    if name.lower() == "local":
        return _dt.datetime.now().astimezone().tzinfo
    import zoneinfo  # on first use: start-up does not need the zone database

    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise MatlabError("MATLAB:datetime:UnknownTimeZone",
                          f"Unknown or ambiguous time zone '{name}'.") from None


def checked_zone(name: str) -> str:
    zone_of(name)
    return name


def _wall_ms(moment: _dt.datetime) -> float:
    base = _dt.datetime(1970, 1, 1)
    naive = moment.replace(tzinfo=None)
    delta = naive - base
    return (delta.days * MS_PER_DAY + delta.seconds * 1000 + delta.microseconds / 1000)


def now_in(name: str) -> float:
    """The current wall-clock time of a zone (local time when unzoned)."""
    zone = zone_of(name)
    moment = _dt.datetime.now() if zone is None else _dt.datetime.now(zone)
    return _wall_ms(moment)


def convert_zone(data: np.ndarray, source: str, target: str) -> np.ndarray:
    """Wall-clock times of ``source`` moved to the same instants in ``target``."""
    if source == "" or target == "" or source == target:
        return data
    src, dst = zone_of(source), zone_of(target)
    out = data.copy()
    flat = out.reshape(-1)
    for k, ms in enumerate(data.reshape(-1).tolist()):
        if math.isnan(ms) or math.isinf(ms):
            continue
        f = fields_of(ms)
        try:
            wall = _dt.datetime(f.year, f.month, f.day, f.hour, f.minute, f.second,
                                f.microsecond, tzinfo=src)
        except ValueError:      # years outside 1..9999: no zone rules apply
            continue
        flat[k] = _wall_ms(wall.astimezone(dst))
    return out
