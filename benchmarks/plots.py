"""PNG plots of a benchmark run (matplotlib, when installed).

* ``<prefix><workload>.png``: warm median time against size, one line per
  implementation (workloads with more than one size);
* ``<prefix>speedup.png``: per workload at its largest size, how many times
  faster ``matfuse`` is than each peer (peer median / matfuse median; > 1:
  matfuse wins); ``<prefix>speedup_<impl>.png`` the same for the other matfuse
  configurations present (matfuse-cuda, matfuse-wgpu, matfuse-gpu).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

MATFUSE = "matfuse"
OTHER_MATFUSE = ("matfuse-cuda", "matfuse-wgpu", "matfuse-gpu")


def _median(row: dict[str, Any], impl: str) -> float | None:
    for res in row["results"]:
        if res["impl"] == impl and "median" in res:
            return float(res["median"])
    return None


def _safe(name: str) -> str:
    return name.replace("/", "_")


def plot_all(rows: list[dict[str, Any]], out: Path, prefix: str = "") -> list[str]:
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
                style = "-" if impl.startswith(MATFUSE) else "--"
                ax.plot([p[0] for p in points], [p[1] for p in points], style, marker="o",
                        label=impl)
        ax.set_xticks(range(len(wrows)))
        ax.set_xticklabels([r["size"] or "-" for r in wrows], rotation=15, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("median seconds (warm)")
        ax.set_title(workload)
        ax.legend(fontsize=7)
        fig.tight_layout()
        name = f"{prefix}{_safe(workload)}.png"
        fig.savefig(out / name, dpi=100)
        plt.close(fig)
        written.append(name)
    present = {res["impl"] for r in rows for res in r["results"] if "median" in res}
    for base in (MATFUSE, *OTHER_MATFUSE):
        if base in present:
            suffix = "" if base == MATFUSE else f"_{base}"
            written += _speedup_bars(plt, rows, workloads, out, base,
                                     f"{prefix}speedup{suffix}.png")
    return written


def _speedup_bars(plt: Any, rows: list[dict[str, Any]], workloads: list[str],
                  out: Path, base_impl: str, name: str) -> list[str]:
    largest = {w: [r for r in rows if r["workload"] == w][-1] for w in workloads}
    ours = (MATFUSE, *OTHER_MATFUSE)     # bars: the peers and the host baseline
    peers = list(dict.fromkeys(res["impl"] for r in largest.values() for res in r["results"]
                               if res["impl"] not in ours and "median" in res))
    if not peers:
        return []
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(workloads)), 4))
    width = 0.8 / len(peers)
    for k, peer in enumerate(peers):
        xs, ys = [], []
        for i, w in enumerate(workloads):
            base, other = _median(largest[w], base_impl), _median(largest[w], peer)
            if base and other:
                xs.append(i + k * width - 0.4 + width / 2)
                ys.append(other / base)
        ax.bar(xs, ys, width=width, label=peer)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=15, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel(f"peer time / {base_impl} time")
    ax.set_title(f"speed-up of {base_impl} at the largest size (>1: {base_impl} faster)",
                 fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / name, dpi=100)
    plt.close(fig)
    return [name]
