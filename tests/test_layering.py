"""The layers of ``src/matfuse`` import downward only.

Walks every module with ``ast`` (imports inside functions included) and
checks:

* no import cycles;
* ``runtime/``, ``vm/`` and ``lang/`` import nothing of ``accelerate/``
  (they reach it through ``runtime.device_router``);
* providers import only ``accelerate_api`` (and the standard and
  third-party libraries);
* ``accelerate/fusion/`` imports no provider;
* ``os.environ`` / ``os.getenv`` are read only by the options module (and
  the command line, and MATLAB's own ``getenv``/``setenv`` builtins);
* nothing compares a provider's name with a string (capabilities are
  declared on ``ProviderCapabilities``), except the facade that starts the
  provider the options name;
* ``current_options()`` is called only by the facade and the router entry,
  which pass the options on.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# Provider -> fusion/errors and fusion -> provider edges: none remain (the
# lists stay so that a new edge is a deliberate, reviewed exception).
KNOWN_PROVIDER_EDGES: set[tuple[str, str]] = set()
KNOWN_FUSION_PROVIDER_EDGES: set[tuple[str, str]] = set()

# Files that may read the process environment.
ENVIRONMENT_READERS = (
    "matfuse/accelerate/options.py",
    "matfuse/cli/",
    "matfuse/runtime/builtins/environment.py",   # MATLAB's getenv/setenv
)


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / "matfuse").rglob("*.py")):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        out[name] = path
    return out


MODULES = _modules()


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """matfuse modules named by one import statement."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            package = module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - (node.level - 1)])
            target = base + ("." + node.module if node.module else "")
        else:
            target = node.module or ""
        names = [f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target
                 for alias in node.names]
    out = []
    for name in names:
        if not name.startswith("matfuse"):
            continue
        while name not in MODULES and "." in name:
            name = name.rsplit(".", 1)[0]
        out.append(name)
    return out


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges[module].update(t for t in _targets(module, node) if t != module)
    return edges


EDGES = _graph()


def _cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in edges:
        if v not in index:
            visit(v)
    return found


def _in_layer(module: str, *layers: str) -> bool:
    return any(module == layer or module.startswith(layer + ".") for layer in layers)


def test_no_import_cycles():
    assert [sorted(c) for c in _cycles(EDGES)] == []


def test_the_cycle_check_finds_a_cycle():
    """The check itself reports a two-module cycle (and nothing else)."""
    edges = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert [sorted(c) for c in _cycles(edges)] == [["a", "b"]]


def test_language_layers_do_not_import_the_acceleration_layer():
    bad = sorted((m, t) for m, ts in EDGES.items() for t in ts
                 if _in_layer(m, "matfuse.runtime", "matfuse.vm", "matfuse.lang")
                 and _in_layer(t, "matfuse.accelerate"))
    assert bad == []


def test_providers_import_only_the_accelerate_api():
    providers = "matfuse.accelerate.providers"
    edges = {(m, t) for m, ts in EDGES.items() for t in ts
             if _in_layer(m, providers)
             and not _in_layer(t, providers, "matfuse.accelerate_api")}
    assert sorted(edges - KNOWN_PROVIDER_EDGES) == []
    assert sorted(KNOWN_PROVIDER_EDGES - edges) == [], "a known edge is gone: remove it from the list"


def test_fusion_imports_no_provider():
    edges = {(m, t) for m, ts in EDGES.items() for t in ts
             if _in_layer(m, "matfuse.accelerate.fusion")
             and _in_layer(t, "matfuse.accelerate.providers")}
    assert sorted(edges - KNOWN_FUSION_PROVIDER_EDGES) == []
    assert sorted(KNOWN_FUSION_PROVIDER_EDGES - edges) == [], \
        "a known edge is gone: remove it from the list"


def _environment_uses(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb") \
                and isinstance(node.value, ast.Name) and node.value.id == "os":
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os" \
                and any(a.name in ("environ", "getenv", "environb") for a in node.names):
            lines.append(node.lineno)
    return lines


def test_environment_is_read_only_by_the_options_module():
    bad = []
    for path in MODULES.values():
        rel = path.relative_to(SRC).as_posix()
        if any(rel == allowed or (allowed.endswith("/") and rel.startswith(allowed))
               for allowed in ENVIRONMENT_READERS):
            continue
        bad += [f"{rel}:{line}" for line in _environment_uses(ast.parse(path.read_text()))]
    assert bad == []


def test_the_checks_see_function_local_imports():
    """The walk includes imports inside functions (a regression guard)."""
    assert "matfuse.accelerate.router.entry" in EDGES["matfuse"]


# Files that may choose a provider by its name: the facade starts the backend
# the options name.
PROVIDER_NAME_READERS = ("matfuse/accelerate/facade.py",)


def _provider_names() -> set[str]:
    """Names providers declare (``name = "cuda"`` in a provider class)."""
    names = set()
    for path in (SRC / "matfuse" / "accelerate" / "providers").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) \
                            and isinstance(stmt.value.value, str) \
                            and any(isinstance(t, ast.Name) and t.id == "name"
                                    for t in stmt.targets):
                        names.add(stmt.value.value)
    return names


def _string_literals(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def _names_a_provider(node: ast.AST) -> bool:
    """``<...provider...>.name`` or a ``provider_name()`` call."""
    if isinstance(node, ast.Attribute) and node.attr == "name":
        return "provider" in ast.unparse(node.value).lower()
    if isinstance(node, ast.Call):
        return "provider_name" in ast.unparse(node.func)
    return False


def _provider_name_comparisons(tree: ast.AST, known: set[str]) -> list[int]:
    """Lines comparing a provider's name with a string: ``p.name == "cuda"``
    (any ``.name`` against a declared provider name) or ``provider.name !=
    "x"`` / ``provider_name() in ("a", "b")`` (any string)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        literals = set().union(*(_string_literals(o) for o in operands))
        if not literals:
            continue
        if any(_names_a_provider(o) for o in operands):
            lines.append(node.lineno)
        elif literals & known and any(isinstance(o, ast.Attribute) and o.attr == "name"
                                      for o in operands):
            lines.append(node.lineno)
    return lines


def test_nothing_branches_on_a_providers_name():
    """Capabilities are data (``ProviderCapabilities``): code asks what a
    provider can do, not which one it is."""
    known = _provider_names()
    assert {"cuda", "wgpu", "inprocess"} <= known
    bad = []
    for path in MODULES.values():
        rel = path.relative_to(SRC).as_posix()
        if rel in PROVIDER_NAME_READERS:
            continue
        bad += [f"{rel}:{line}"
                for line in _provider_name_comparisons(ast.parse(path.read_text()), known)]
    assert bad == []


def test_the_provider_name_check_sees_comparisons():
    known = {"cuda"}
    found = _provider_name_comparisons(ast.parse(
        'if state.provider.name != "cuda": pass\n'
        'if p.name == "cuda": pass\n'
        'if router.provider_name() in ("x", "y"): pass\n'
        'if node.name == "end": pass\n'), known)
    assert found == [1, 2, 3]


# Files that may ask for the options in effect; every other module gets the
# options passed (the router's entry hands them on).
OPTIONS_READERS = ("matfuse/accelerate/facade.py", "matfuse/accelerate/router/entry.py",
                   "matfuse/accelerate/planner/bootstrap.py")


def _current_options_uses(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "current_options":
            lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "current_options":
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) \
                and any(a.name == "current_options" for a in node.names):
            lines.append(node.lineno)
    return sorted(set(lines))


def test_options_are_passed_not_fetched():
    bad = []
    for path in MODULES.values():
        rel = path.relative_to(SRC).as_posix()
        if rel not in OPTIONS_READERS:
            bad += [f"{rel}:{line}" for line in _current_options_uses(ast.parse(path.read_text()))]
    assert bad == []
