"""The import layers of eud: commands on top, no library module importing them, no import circles."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx

EUD = Path(__file__).resolve().parent.parent / "eud"

# Packages from the bottom up: a module imports its own layer and lower ones, never a higher one.
# The gapping rule, its checks and its tree repairs sit below the enhancer that runs the rule,
# the parser that repairs its trees with them, and the AGRR answers read off the result.
LAYERS = ("eud.gapping", "eud.enhance", "eud.nn", "eud.agrr")


def _module_name(path: Path) -> str:
    parts = path.relative_to(EUD.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int | None:
    return next((i for i, top in enumerate(LAYERS) if module == top or module.startswith(top + ".")), None)


def _imports() -> dict[str, set[str]]:
    """Module -> the eud modules it imports anywhere in its body (lazy imports included)."""
    modules = {_module_name(p): p for p in EUD.rglob("*.py")}
    found: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from eud.a import b`` imports eud.a.b when that is a module, else names of eud.a.
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        found[name] = {t for t in targets if t in modules and t != name}
    return found


def test_no_library_module_imports_a_command():
    offenders = [(m, t) for m, ts in _imports().items() for t in ts
                 if (t == "eud.cli" or t.startswith("eud.commands"))
                 and not (m.startswith("eud.commands") or m in ("eud.cli", "eud.__main__"))]
    assert offenders == []


def test_no_import_circles():
    graph = networkx.DiGraph((m, t) for m, ts in _imports().items() for t in ts)
    assert list(networkx.simple_cycles(graph)) == []


def test_every_subcommand_lives_in_commands():
    from eud.cli import COMMANDS

    for name, (_, loader) in COMMANDS.items():
        assert loader().__module__ == f"eud.commands.{name}"


def test_no_import_runs_up_a_layer():
    upward = [(m, t) for m, ts in _imports().items() for t in ts
              if _layer(m) is not None and _layer(t) is not None and _layer(t) > _layer(m)]
    assert upward == []


def test_gapping_needs_no_network():
    """eud.gapping imports no torch, numpy or transformers, not even lazily: learned judges are passed in."""
    heavy = ("torch", "numpy", "transformers", "safetensors")
    found = []
    for path in (EUD / "gapping").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [(path.name, n) for n in names if n.split(".")[0] in heavy]
    assert found == []
