"""``matfuse calibrate [--refresh]``: measure the planner's costs on this
device and save them (kept when a valid file exists, unless ``--refresh``)."""

from __future__ import annotations

import sys
from typing import Any, TextIO


def run_calibrate(args: list[str], options: Any = None, out: TextIO | None = None) -> int:
    """Returns the exit status."""
    from matfuse.accelerate.facade import initialize_acceleration_provider
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate.planner.calibrate import calibrate, calibration_path, \
        load_calibration, save_calibration

    out = out or sys.stdout
    if "-h" in args or "--help" in args:
        out.write(__doc__.split("\n\n")[0].replace("\n", " ") + "\n"
                  "usage: matfuse calibrate [--refresh]\n")
        return 0
    unknown = [a for a in args if a != "--refresh"]
    if unknown:
        sys.stderr.write(f"matfuse calibrate: unknown argument '{unknown[0]}'\n")
        return 2
    options = options or AccelerateInitOptions.from_env()
    p = initialize_acceleration_provider(options)
    existing = None if "--refresh" in args else load_calibration(p)
    if existing is not None:
        out.write(f"calibration exists: {existing.path} (use --refresh to measure again)\n")
        calibration = existing
    else:
        out.write(f"calibrating {p.name} against NumPy...\n")
        calibration = calibrate(p)
        try:
            path = save_calibration(calibration)
        except OSError as why:
            target = calibration_path(calibration.device)
            blocked = f" ({why.filename})" if why.filename and str(why.filename) != str(target) else ""
            sys.stderr.write(f"matfuse calibrate: cannot save the calibration to {target}: "
                             f"{why.strerror or why}{blocked}\n")
            return 1
        out.write(f"saved {path}\n")
    for category, value in calibration.thresholds.items():
        shown = "never" if value >= 1 << 62 else str(value)
        unit = "FLOPs" if category == "matmul" else "elements"
        out.write(f"  threshold {category}: {shown} {unit if shown != 'never' else ''}\n".rstrip() + "\n")
    return 0
