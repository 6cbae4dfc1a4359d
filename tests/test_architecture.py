"""The shape of the code: layer sizes, where the environment is read, and that the layers contract holds."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("core", "memory", "tools", "agents", "graphs", "medpath")
SOURCES = sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def test_no_module_over_500_lines_and_no_function_over_60() -> None:
    too_long = []
    for path in SOURCES:
        text = path.read_text()
        if len(text.splitlines()) > 500:
            too_long.append(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > 60:
                too_long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines")
    assert not too_long, "\n".join(too_long)


def test_the_environment_is_read_only_in_core() -> None:
    reads = [f"{p.relative_to(ROOT)}:{i}" for p in SOURCES if p.parts[len(ROOT.parts)] != "core"
             for i, line in enumerate(p.read_text().splitlines(), 1) if re.search(r"os\.environ|getenv", line)]
    assert not reads, reads


@pytest.mark.slow
def test_the_layers_contract_holds() -> None:
    exe = Path(sys.executable).parent / "lint-imports"
    if not exe.exists():
        pytest.skip("import-linter is not installed (extra: dev)")
    out = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stdout[-2000:]


BACKEND_CLASSES = ("PublicKG", "FaissIndex", "BM25Index", "Vault", "EpisodicStore", "MemIndex", "GateLog", "PatientStore",
                   "write_public_db", "PgDatabase", "PgGraph", "PgVectorIndex", "PgTextIndex", "PgVault", "PgMemIndex",
                   "PgGateLog", "RedisEpisodic", "write_pg_graph", "write_pg_vectors", "write_pg_text")


def test_no_backend_internals_outside_memory() -> None:
    """Above memory/, stores are opened by memory.factory and held by their Protocols: no backend class, no
    ``.graph`` of a store, no private attribute of another object."""
    found = []
    for path in SOURCES:
        if path.parts[len(ROOT.parts)] in ("memory", "core"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in BACKEND_CLASSES:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.id}")
            elif isinstance(node, ast.ImportFrom) and any(a.name in BACKEND_CLASSES for a in node.names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr in ("kg", "store") \
                    and node.attr == "graph":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.value.attr}.graph")
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} ._{node.attr[1:]}")
    assert not found, "\n".join(found)
