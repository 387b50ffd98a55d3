"""``matfuse run --explain``: where each array operation ran and why, per
statement line, one line each (repeated decisions of a loop are counted).

    auto-offload: active (active on cuda)
    line 12: S = S0 * ones(M, 1, 'single');
      ones     -> gpu  fused-generator   100000 elements
      *        -> gpu  fusion            100000 elements
    ...
    reasons: fusion = joins a lazy fused kernel ...
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from typing import Iterable

from matfuse.accelerate.planner.decisions import Decision
from matfuse.errors import Span

# What each reason means, printed under the report for the reasons it used.
REASONS = {
    "resident": "an operand already lives on the device",
    "fusion": "joins a lazy fused kernel (its operands are pending device work)",
    "fused-generator": "created inside its consumer's kernel (no buffer, no transfer)",
    "consumers-on-device": "created on the device, where its consumers will run",
    "cost-model": "the cost model compared both sides (transfers included)",
    "re-read": "a host array read again by device work: uploaded once and kept there",
    "below-threshold": "too little work for the device",
    "indexed-write": "small writes into a pending generator: computed on the host instead",
    "sink": "output/host sink: device operands are downloaded",
    "host-only": "no device implementation: device operands are downloaded",
}


def _unit(d: Decision) -> str:
    return "FLOPs" if d.category == "matmul" else "elements"


def explain_lines(decisions: Iterable[Decision]) -> list[str]:
    """A header per statement line (``line 7: y = x .* 2;``) and under it
    one line per operation, target and reason, in order of first
    appearance; ``xN`` when it was decided N times (a loop)."""
    groups: "OrderedDict[tuple[int, str, str, str], list]" = OrderedDict()
    for d in decisions:
        key = (d.line, d.builtin, d.target, d.reason)
        entry = groups.setdefault(key, [0, 0, d])
        entry[0] += 1
        entry[1] = max(entry[1], d.work)
    ordered = sorted(groups.items(), key=lambda item: item[0][0])
    width = max((len(k[1]) for k, _ in ordered), default=0)
    lines: list[str] = []
    current: int | None = None
    for (line, name, target, reason), (count, work, first) in ordered:
        if line != current:
            current = line
            where = f"line {line}" if line else "line ?"
            lines.append(f"{where}: {first.text}" if first.text else f"{where}:")
        times = f"  x{count}" if count > 1 else ""
        lines.append(f"  {name:<{width}} -> {target}  {reason:<19} {work} {_unit(first)}{times}")
    return lines


def reason_legend(decisions: Iterable[Decision]) -> list[str]:
    used = []
    for d in decisions:
        if d.reason not in used:
            used.append(d.reason)
    return [f"  {r}: {REASONS[r]}" for r in REASONS if r in used]


def explain_report(decisions: list[Decision] | None, mode: str, note: str,
                   fallbacks: list[tuple[int, str, str]] = ()) -> str:
    """The whole ``--explain`` text (ends with a newline): the planner's
    decisions, then every host fallback of device data with its line."""
    head = f"auto-offload: {mode}" + (f" ({note})" if note else "")
    tail = fallback_lines(fallbacks)
    if not decisions:
        none = "every array operation ran on the CPU" if mode != "active" else \
            "no array operation reached the planner"
        return "\n".join([head, none] + tail) + "\n"
    body = explain_lines(decisions)
    legend = ["reasons:"] + reason_legend(decisions)
    if any(" x" in line and line.rsplit(" x", 1)[1].isdigit() for line in body):
        legend.append("  xN: decided N times (loop iterations replayed by loop fusion "
                      "are not decided again)")
    return "\n".join([head] + body + legend + tail) + "\n"


def fallback_lines(fallbacks: list[tuple[int, str, str, str]]) -> list[str]:
    """``line N: op xK  (source)`` and under it why, for each statement
    whose device data an operation gathered to compute on the host, in line
    order."""
    if not fallbacks:
        return []
    counts: dict[tuple[int, str, str, str], int] = {}
    for entry in fallbacks:
        counts[entry] = counts.get(entry, 0) + 1
    out = ["host fallbacks (device data computed on the host):"]
    for (line, text, what, reason), n in sorted(counts.items()):
        where = f"line {line}" if line else "line ?"
        times = f" x{n}" if n > 1 else ""
        out.append(f"  {where}: {what}{times}" + (f"  ({text})" if text else ""))
        out.append(f"    why: {reason or default_reason(what)}")
    return out


# Why a fallback counted without its own reason happened.
_DEFAULT_REASONS = {
    "fusion": "the device refused a fused kernel (binding or size limits); the graph was "
              "computed with the CPU semantics",
    "pagefun": "pagefun runs its function on the host for every page",
    "griddedInterpolant": "griddedInterpolant evaluates on the host",
}


def default_reason(what: str) -> str:
    """The reason of a fallback recorded without one."""
    return _DEFAULT_REASONS.get(what, f"no device path for this form of {what}")


def statement_line() -> tuple[int, str]:
    """Line and source text of the MATLAB statement being executed: the
    innermost VM statement closure on the Python stack holds its span
    (explain mode only); (0, "") when none is found."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if "span" in code.co_freevars:
            span = frame.f_locals.get("span")
            if isinstance(span, Span) and isinstance(span.line, int):
                return span.line, (span.source_line() or "").strip()
        frame = frame.f_back
    return 0, ""
