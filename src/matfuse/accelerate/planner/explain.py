"""``matfuse run --explain``: where each array operation ran and why, per
statement line, one line each (repeated decisions of a loop are counted)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Iterable

from matfuse.accelerate.planner.decisions import Decision


def explain_lines(decisions: Iterable[Decision]) -> list[str]:
    """``line 7: plus -> gpu (resident) x1000`` in order of first appearance,
    sorted by line."""
    groups: "OrderedDict[tuple[int, str, str, str], list[int]]" = OrderedDict()
    for d in decisions:
        key = (d.line, d.builtin, d.target, d.reason)
        entry = groups.setdefault(key, [0, 0])
        entry[0] += 1
        entry[1] = max(entry[1], d.work)
    ordered = sorted(groups.items(), key=lambda item: item[0][0])
    lines = []
    for (line, name, target, reason), (count, work) in ordered:
        where = f"line {line}" if line else "line ?"
        times = f" x{count}" if count > 1 else ""
        lines.append(f"{where}: {name} -> {target} ({reason}, {work} elements){times}")
    return lines


def explain_report(decisions: list[Decision] | None, mode: str, note: str) -> str:
    """The whole ``--explain`` text (ends with a newline)."""
    head = f"auto-offload: {mode}" + (f" ({note})" if note else "")
    if not decisions:
        tail = "every array operation ran on the CPU" if mode != "active" else \
            "no array operation reached the planner"
        return f"{head}\n{tail}\n"
    return head + "\n" + "\n".join(explain_lines(decisions)) + "\n"
