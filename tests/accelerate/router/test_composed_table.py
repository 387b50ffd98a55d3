"""The router's table of composed device implementations: the static
``COMPOSED_IN`` index names exactly the builtins each per-category module
implements, and a lookup imports only the module it needs."""

from __future__ import annotations

import importlib
import subprocess
import sys

from matfuse.accelerate.router import compositions


def test_index_matches_the_modules_tables():
    by_module: dict[str, set[str]] = {}
    for name, module in compositions.COMPOSED_IN.items():
        by_module.setdefault(module, set()).add(name)
    for module, names in by_module.items():
        table = importlib.import_module(f"matfuse.accelerate.router.{module}").COMPOSED
        assert set(table) == names, module
    assert not set(compositions.OWN_COMPOSITIONS) & set(compositions.COMPOSED_IN)


def test_lookup_resolves_and_unknown_names_miss():
    table = compositions.ComposedTable({})
    assert table.get("movmean") is importlib.import_module(
        "matfuse.accelerate.router.moving").COMPOSED["movmean"]
    assert table.get("no_such_builtin") is None
    assert "skewness" in table.names()


def test_first_device_operation_loads_no_category_module():
    code = ("import io, sys\n"
            "from matfuse import Session\n"
            "from matfuse.accelerate.router.compositions import COMPOSED_IN\n"
            "Session(stdout=io.StringIO()).eval('a = gpuArray(ones(3)); b = sum(a .* 2);')\n"
            "loaded = [m for m in set(COMPOSED_IN.values()) "
            "if 'matfuse.accelerate.router.' + m in sys.modules]\n"
            "print(sorted(loaded))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
