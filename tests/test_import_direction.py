"""The arrows run one way: `mmeb_resources` (resources, low-level helpers) imports nothing from
`mmeb_assets` (the asset graph), not even lazily inside a function; what both need lives in
mmeb_resources, and the old mmeb_assets paths re-export it."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESOURCES = REPO / "mmeb_resources"
IMPORT_CALLS = {"import_module", "__import__"}


def _is_assets(module: str | None) -> bool:
    return bool(module) and (module == "mmeb_assets" or module.startswith("mmeb_assets."))


def assets_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import of mmeb_assets in a module's source, at any depth."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if _is_assets(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_assets(node.module):
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in IMPORT_CALLS and isinstance(node.args[0].value, str) and _is_assets(node.args[0].value):
                found.append((node.lineno, node.args[0].value))
    return found


def test_the_check_sees_every_kind_of_import():
    source = ("import mmeb_assets\nfrom mmeb_assets.prompts import x\ndef f():\n    import mmeb_assets.partitions as p\n"
              "    importlib.import_module('mmeb_assets.retrieval.config')\nimport mmeb_assetsx\nfrom . import y\n")
    assert [line for line, _ in assets_imports(source)] == [1, 2, 4, 5]


def test_no_module_of_mmeb_resources_imports_mmeb_assets():
    offenders = [f"{path.relative_to(REPO)}:{line}: {module}"
                 for path in sorted(RESOURCES.rglob("*.py"))
                 for line, module in assets_imports(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_importing_all_of_mmeb_resources_loads_no_mmeb_assets_module():
    script = ("import importlib, pkgutil, sys, mmeb_resources\n"
              "for info in pkgutil.walk_packages(mmeb_resources.__path__, 'mmeb_resources.'):\n"
              "    importlib.import_module(info.name)\n"
              "print(sorted(m for m in sys.modules if m == 'mmeb_assets' or m.startswith('mmeb_assets.')))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == "[]"
