"""The decisions of the last ``matfuse`` run, kept for ``matfuse info``
(written at exit only when the planner was active)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from matfuse.accelerate.planner.decisions import DecisionLog, describe
from matfuse.runtime.atomic_files import load_json_safe, write_text_atomic


def last_run_path() -> Path:
    from matfuse.accelerate.planner.calibrate import calibration_dir

    return calibration_dir() / "last-decisions.json"


def save_last_decisions(log: DecisionLog, path: Path | None = None) -> None:
    path = path or last_run_path()
    data = {"counts": log.summary(),
            "recent": [f"line {d.line or '?'}: {describe(d)}" for d in log.recent]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Atomic and replacing (never following) a link or a FIFO planted there.
        write_text_atomic(path, json.dumps(data, indent=1))
    except OSError:
        return  # a read-only cache dir only costs `matfuse info` its history


def load_last_decisions(path: Path | None = None) -> dict[str, Any]:
    """The saved decisions, or {} (missing, unreadable, not a regular file,
    corrupt; warned about except when missing)."""
    path = path or last_run_path()
    data = load_json_safe(path)
    return data if isinstance(data, dict) else {}
