"""Keep the converted Octave units that pass in GNU Octave itself.

Reads ``tests/octave/units_all.json`` (from ``convert.py``), runs every unit
in ``octave-cli`` (each as its own function, so each has a fresh workspace),
drops the units listed in ``tests/octave/exclusions.json`` (where MATLAB's
documented behaviour differs from Octave's) and writes the rest to
``tests/octave/units.json``: the oracle corpus the CI test runs in matfuse.
Octave's verdicts are kept in ``tests/octave/octave_verdicts.json`` (unit id
-> ``"pass"`` or Octave's error message), so that ``--reuse-verdicts``
re-applies a changed exclusion list without running Octave again.

    python3 tools/octave_tests/validate.py [--reuse-verdicts]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OCT_DIR = REPO / "tests" / "octave"

DRIVER = r"""
addpath('%(support)s');
addpath('%(units)s');
names = strsplit(fileread('%(list)s'), "\n");
fid = fopen('%(result)s', 'w');
for k = 1:numel(names)
  if isempty(names{k}), continue; end
  try
    feval(names{k});
    fprintf(fid, '%%s 1\n', names{k});
  catch err
    fprintf(fid, '%%s 0 %%s\n', names{k}, strrep(err.message, "\n", ' '));
  end
  fflush(fid);
end
fclose(fid);
"""


def unit_function_name(index: int) -> str:
    return f"unit_{index:05d}"


def excluded_by(unit: dict, exclusions: list[dict]) -> str | None:
    """The reason a unit is excluded (MATLAB's documentation differs), or None."""
    for rule in exclusions:
        if "id" in rule and rule["id"] != unit["id"]:
            continue
        if "function" in rule and rule["function"] != unit["function"]:
            continue
        if "pattern" in rule and not re.search(rule["pattern"], unit["code"]):
            continue
        return rule["reason"]
    return None


def octave_verdicts(units: list[dict]) -> dict[str, str]:
    """Unit id -> "pass" or Octave's error message, from running every unit in octave-cli."""
    verdicts: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        names = {}
        for index, unit in enumerate(units):
            name = unit_function_name(index)
            names[name] = unit["id"]
            (tmpdir / f"{name}.m").write_text(
                f"function {name}()\n{unit['code']}end\n", encoding="utf-8")
        (tmpdir / "names.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
        script = DRIVER % {"support": OCT_DIR / "support", "units": tmpdir,
                           "list": tmpdir / "names.txt", "result": tmpdir / "result.txt"}
        (tmpdir / "driver.m").write_text(script, encoding="utf-8")
        subprocess.run(["octave-cli", "--no-gui", "--norc", "--quiet", str(tmpdir / "driver.m")],
                       check=False, timeout=3000, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=tmp)
        for line in (tmpdir / "result.txt").read_text(encoding="utf-8").splitlines():
            parts = line.split(" ", 2)
            if len(parts) >= 2 and parts[0] in names:
                verdicts[names[parts[0]]] = "pass" if parts[1] == "1" else (parts[2:] or [""])[0]
    return verdicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reuse-verdicts", action="store_true",
                        help="read Octave's verdicts from octave_verdicts.json instead of running Octave")
    args = parser.parse_args(argv)
    units = json.loads((OCT_DIR / "units_all.json").read_text(encoding="utf-8"))
    exclusions = json.loads((OCT_DIR / "exclusions.json").read_text(encoding="utf-8"))
    verdicts_path = OCT_DIR / "octave_verdicts.json"
    if args.reuse_verdicts:
        verdicts = json.loads(verdicts_path.read_text(encoding="utf-8"))
    else:
        verdicts = octave_verdicts(units)
        verdicts_path.write_text(json.dumps(verdicts, indent=0, sort_keys=True) + "\n",
                                 encoding="utf-8")
    passed = [u for u in units if verdicts.get(u["id"]) == "pass"]
    kept = [u for u in passed if excluded_by(u, exclusions) is None]
    (OCT_DIR / "units.json").write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
    print(f"{len(passed)}/{len(units)} pass in Octave; {len(kept)} kept "
          f"({len(passed) - len(kept)} excluded by {len(exclusions)} rules where MATLAB differs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
