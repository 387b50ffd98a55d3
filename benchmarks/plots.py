"""PNG plots of a benchmark run (matplotlib, when installed).

* ``<workload>.png``: warm median time against size, one line per implementation;
* ``speedup.png``: per workload (at its largest size), how many times faster
  matfuse is than each peer (peer median / matfuse median; > 1: matfuse wins).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

MATFUSE = "matfuse"


def _median(row: dict[str, Any], impl: str) -> float | None:
    for res in row["results"]:
        if res["impl"] == impl and "median" in res:
            return float(res["median"])
    return None


def _safe(name: str) -> str:
    return name.replace("/", "_")


def plot_all(rows: list[dict[str, Any]], out: Path) -> list[str]:
    """Write the plots into ``out``; returns the file names written."""
    if importlib.util.find_spec("matplotlib") is None:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    for workload in workloads:
        wrows = [r for r in rows if r["workload"] == workload]
        if len(wrows) < 2:      # one size: the speed-up bars say it all
            continue
        impls = list(dict.fromkeys(res["impl"] for r in wrows for res in r["results"]))
        fig, ax = plt.subplots(figsize=(6, 4))
        for impl in impls:
            points = [(i, _median(r, impl)) for i, r in enumerate(wrows)]
            points = [(x, y) for x, y in points if y is not None]
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=impl)
        ax.set_xticks(range(len(wrows)))
        ax.set_xticklabels([r["size"] or "-" for r in wrows], rotation=15, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("median seconds (warm)")
        ax.set_title(workload)
        ax.legend(fontsize=7)
        fig.tight_layout()
        name = f"{_safe(workload)}.png"
        fig.savefig(out / name, dpi=100)
        plt.close(fig)
        written.append(name)
    written += _speedup_bars(plt, rows, workloads, out)
    return written


def _speedup_bars(plt: Any, rows: list[dict[str, Any]], workloads: list[str],
                  out: Path) -> list[str]:
    largest = {w: [r for r in rows if r["workload"] == w][-1] for w in workloads}
    peers = list(dict.fromkeys(res["impl"] for r in largest.values() for res in r["results"]
                               if res["impl"] != MATFUSE))
    if not peers:
        return []
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(workloads)), 4))
    width = 0.8 / len(peers)
    for k, peer in enumerate(peers):
        xs, ys = [], []
        for i, w in enumerate(workloads):
            base, other = _median(largest[w], MATFUSE), _median(largest[w], peer)
            if base and other:
                xs.append(i + k * width - 0.4 + width / 2)
                ys.append(other / base)
        ax.bar(xs, ys, width=width, label=peer)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=15, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("peer time / matfuse time (>1: matfuse faster)")
    ax.set_title("speed-up of matfuse at the largest size")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "speedup.png", dpi=100)
    plt.close(fig)
    return ["speedup.png"]
