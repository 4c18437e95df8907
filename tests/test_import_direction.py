"""The arrows run one way: `mmeb_resources` (resources, low-level helpers) imports nothing from
`mmeb_assets` (the asset graph), not even lazily inside a function; what both need lives in
mmeb_resources, and the old mmeb_assets paths re-export it.

Inside mmeb_assets the pipeline stages run one way too (STAGE_ORDER): a stage imports only stages
before it, so `ingestion` reads documents and knows nothing of facts, and `facts` reads what ingestion
wrote."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESOURCES = REPO / "mmeb_resources"
ASSETS = REPO / "mmeb_assets"
# Pipeline stages in data order; each may import only the ones before it.
STAGE_ORDER = ("ingestion", "facts", "simulation", "records", "qa", "retrieval", "evaluation", "export", "view")
# Known backward arrows, to be removed rather than added to (none left: the judge and the readers that
# qa's quality gates use live in mmeb_assets/judge, which both qa and evaluation import).
KNOWN_BACKWARD: set[tuple[str, str]] = set()
# Shared packages any stage may import; they import no stage themselves.
SHARED = ("judge", "schema")
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


def loaded_after_importing_all_of(package: str, prefix: str) -> str:
    """In a fresh interpreter: import every module of `package`, print which loaded modules are
    `prefix` or under it (transitive imports included)."""
    script = (f"import importlib, pkgutil, sys, {package} as pkg\n"
              f"for info in pkgutil.walk_packages(pkg.__path__, '{package}.'):\n"
              "    importlib.import_module(info.name)\n"
              f"print(sorted(m for m in sys.modules if m == '{prefix}' or m.startswith('{prefix}.')))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def test_importing_all_of_mmeb_resources_loads_no_mmeb_assets_module():
    assert loaded_after_importing_all_of("mmeb_resources", "mmeb_assets") == "[]"


def _stage_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in STAGE_ORDER else None


def stage_offenders(stage: str) -> list[str]:
    """`path:line: module` for every import in `stage` of a stage that comes after it in STAGE_ORDER."""
    later = set(STAGE_ORDER[STAGE_ORDER.index(stage) + 1:])
    return [f"{path.relative_to(REPO)}:{line}: {module}"
            for path in sorted((ASSETS / stage).rglob("*.py"))
            for line, module in assets_imports(path.read_text(encoding="utf-8"))
            if _stage_of(module) in later and (stage, _stage_of(module)) not in KNOWN_BACKWARD]


def test_facts_comes_right_after_ingestion():
    assert STAGE_ORDER[:3] == ("ingestion", "facts", "simulation")


def test_no_module_of_ingestion_imports_facts():
    offenders = [f"{path.relative_to(REPO)}:{line}: {module}"
                 for path in sorted((ASSETS / "ingestion").rglob("*.py"))
                 for line, module in assets_imports(path.read_text(encoding="utf-8"))
                 if module == "mmeb_assets.facts" or module.startswith("mmeb_assets.facts.")]
    assert offenders == []


def test_no_stage_imports_a_later_stage():
    offenders = [o for stage in STAGE_ORDER for o in stage_offenders(stage)]
    assert offenders == []


def test_importing_all_of_ingestion_loads_no_facts_module():
    """Transitively too: nothing ingestion imports at load time pulls in the facts package."""
    assert loaded_after_importing_all_of("mmeb_assets.ingestion", "mmeb_assets.facts") == "[]"


def test_the_shared_packages_import_no_stage():
    offenders = [f"{path.relative_to(REPO)}:{line}: {module}"
                 for package in SHARED
                 for path in sorted((ASSETS / package).rglob("*.py"))
                 for line, module in assets_imports(path.read_text(encoding="utf-8"))
                 if _stage_of(module)]
    assert offenders == []


def test_qa_validation_loads_the_judge_without_evaluation():
    """QA validation judges its golds with the one judge, and evaluation is not loaded to do it."""
    assert loaded_after_importing_all_of("mmeb_assets.qa", "mmeb_assets.evaluation") == "[]"


def test_only_the_cli_and_the_definitions_import_the_view():
    """The results browser reads what every stage wrote; nothing reads the browser."""
    allowed = {ASSETS / "cli.py", ASSETS / "definitions.py"}
    offenders = [f"{path.relative_to(REPO)}:{line}: {module}"
                 for path in sorted(ASSETS.rglob("*.py"))
                 if path not in allowed and (ASSETS / "view") not in path.parents
                 for line, module in assets_imports(path.read_text(encoding="utf-8"))
                 if module == "mmeb_assets.view" or module.startswith("mmeb_assets.view.")]
    assert offenders == []


def test_ingestion_reads_documents_and_makes_none():
    """Seed PDFs are generated (demo, scale) and fetched (robustness corpus) by seedgen; ingestion imports
    no seedgen module, at any depth of its source."""
    offenders = [f"{path.relative_to(REPO)}:{line}: {module}"
                 for path in sorted((ASSETS / "ingestion").rglob("*.py"))
                 for line, module in assets_imports(path.read_text(encoding="utf-8"))
                 if module == "mmeb_assets.seedgen" or module.startswith("mmeb_assets.seedgen.")]
    assert offenders == []


def test_the_partitions_import_no_stage_so_retrieval_does_not_load_evaluation():
    """Every stage's assets import partitions.py; were it to import a stage, each would depend on it."""
    source = (ASSETS / "partitions.py").read_text(encoding="utf-8")
    assert [module for _, module in assets_imports(source) if _stage_of(module)] == []
    assert loaded_after_importing_all_of("mmeb_assets.retrieval", "mmeb_assets.evaluation") == "[]"
