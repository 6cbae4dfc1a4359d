"""Loaders for the shipped data: DrugMechDB nodes, triples and paths, and PubMedQA."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import DataError

__all__ = [
    "DISEASE_TYPES", "DRUG_TYPES",
    "DRUG_TYPE_ORDER",
    "Node",
    "Passage",
    "PathRecord",
    "Triple",
    "file_hash",
    "load_nodes",
    "load_passages",
    "load_paths",
    "load_triples",
    "split_tune_check",
    "triple_id",
]

NODE_COLUMNS = ("id", "name", "type", "aliases")
DRUG_TYPE_ORDER = ("Drug", "ChemicalSubstance")
"""The entity types that are drugs, the preferred first: a drug answer lists drugs before chemicals."""
DRUG_TYPES = frozenset(DRUG_TYPE_ORDER)
"""Entity types that are drugs: what a drug slot, a drug answer and a drug's evidence start with."""
DISEASE_TYPES = frozenset({"Disease", "PhenotypicFeature"})
"""Entity types that a drug treats: what a disease slot, a disease answer and a mechanism end with."""
TRIPLE_COLUMNS = ("head_id", "head_name", "head_type", "relation", "tail_id", "tail_name", "tail_type")


@dataclass(frozen=True)
class Node:
    """One KG entity."""

    id: str
    name: str
    type: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Triple:
    """One KG edge ``(head, relation, tail)``."""

    head: str
    relation: str
    tail: str

    @property
    def id(self) -> str:
        """Content-hash id of the triple."""
        return triple_id(self.head, self.relation, self.tail)


@dataclass(frozen=True)
class PathRecord:
    """A gold question: the DrugMechDB ``paths_*.jsonl`` format (extra fields optional)."""

    id: str
    question: str
    gold_triples: tuple[Triple, ...]
    gold_chains: tuple[tuple[int, ...], ...]
    drug_id: str = ""
    disease_id: str = ""
    drug: str = ""
    disease: str = ""


@dataclass(frozen=True)
class Passage:
    """One PubMedQA context passage."""

    id: str
    pmid: str
    label: str
    text: str
    title: str
    year: str = ""
    """The article's publication year ("" when the file gives none)."""


def json_lines(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    """(line number, object) for every non-blank line of a JSONL file, in order; DataError names the file and
    the line of an unreadable file, a line that is not JSON, or one that is not an object."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read {path.name}: {exc}") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise DataError(f"{path.name} line {n}: not JSON") from exc
        if not isinstance(obj, dict):
            raise DataError(f"{path.name} line {n}: expected a JSON object")
        yield n, obj


def triple_id(head: str, relation: str, tail: str) -> str:
    """Content-hash id for a triple."""
    digest = hashlib.sha1(f"{head}\x1f{relation}\x1f{tail}".encode()).hexdigest()
    return f"triple-{digest[:16]}"


def file_hash(*paths: Path) -> str:
    """sha256 over the bytes of the given files, in order."""
    h = hashlib.sha256()
    for p in paths:
        try:
            with open(p, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
        except OSError as exc:
            raise DataError(f"cannot read {p}: {exc.strerror}") from exc
    return h.hexdigest()


def _read_tsv(path: Path, columns: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    try:
        fh = open(path, encoding="utf-8", newline="")  # noqa: SIM115 (closed by the `with` below; a failed open is a DataError)
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from exc
    with fh:
        reader = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header is None or tuple(header[: len(columns)]) != columns:
            raise DataError(f"{path}:1: expected columns {', '.join(columns)}")
        for lineno, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) < len(columns):
                raise DataError(f"{path}:{lineno}: expected {len(columns)} columns, got {len(row)}")
            yield lineno, dict(zip(columns, row, strict=False))


def load_nodes(path: Path) -> list[Node]:
    """Read ``nodes.tsv`` (id, name, type, aliases separated by ``|``)."""
    nodes = []
    for lineno, row in _read_tsv(path, NODE_COLUMNS):
        if not row["id"] or not row["name"]:
            raise DataError(f"{path}:{lineno}: empty id or name")
        aliases = tuple(a for a in row["aliases"].split("|") if a and a != row["name"])
        nodes.append(Node(row["id"], row["name"], row["type"] or "Unknown", aliases))
    if not nodes:
        raise DataError(f"{path}: no nodes")
    return nodes


def load_triples(path: Path) -> list[Triple]:
    """Read ``triples.tsv``; duplicate rows are kept once."""
    seen: dict[tuple[str, str, str], None] = {}
    for lineno, row in _read_tsv(path, TRIPLE_COLUMNS):
        key = (row["head_id"], row["relation"], row["tail_id"])
        if not all(key):
            raise DataError(f"{path}:{lineno}: empty head, relation or tail")
        seen.setdefault(key, None)
    if not seen:
        raise DataError(f"{path}: no triples")
    return [Triple(*k) for k in seen]


def _record(obj: dict[str, Any], where: str) -> PathRecord:
    try:
        triples = tuple(Triple(str(t["head"]), str(t["relation"]), str(t["tail"])) for t in obj["gold_triples"])
        chains_raw = obj.get("gold_chains") or [list(range(len(triples)))]
        chains = tuple(tuple(int(i) for i in c) for c in chains_raw)
        for chain in chains:
            if any(i < 0 or i >= len(triples) for i in chain):
                raise DataError(f"{where}: gold_chains index out of range")
        return PathRecord(
            id=str(obj["id"]),
            question=str(obj["question"]),
            gold_triples=triples,
            gold_chains=chains,
            drug_id=str(obj.get("drug_id", "")),
            disease_id=str(obj.get("disease_id", "")),
            drug=str(obj.get("drug", "")),
            disease=str(obj.get("disease", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{where}: missing or malformed field ({exc})") from exc


def load_paths(path: Path, limit: int | None = None) -> list[PathRecord]:
    """Read a ``paths_*.jsonl`` question file."""
    out: list[PathRecord] = []
    try:
        fh = open(path, encoding="utf-8")  # noqa: SIM115 (closed by the `with` below; a failed open is a DataError)
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from exc
    with fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"{path}:{lineno}: invalid JSON ({exc.msg})") from exc
            out.append(_record(obj, f"{path}:{lineno}"))
            if limit is not None and len(out) >= limit:
                break
    return out


_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(])")


def load_passages(path: Path) -> list[Passage]:
    """Read PubMedQA (``pqal_*.json``) into one passage per context section."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: invalid JSON at line {exc.lineno} ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected an object keyed by PMID")
    out = []
    for pmid, item in data.items():
        if not isinstance(item, dict):
            raise DataError(f"{path}: PMID {pmid} is not an object")
        contexts = item.get("CONTEXTS") or []
        labels = item.get("LABELS") or [""] * len(contexts)
        for i, text in enumerate(contexts):
            label = labels[i] if i < len(labels) else ""
            out.append(Passage(f"pubmed-{pmid}-{i}", str(pmid), str(label), str(text), str(item.get("QUESTION", "")),
                               str(item.get("YEAR") or "")))
    return out


def sentences(text: str) -> list[str]:
    """Split a passage into sentences (a simple rule; abstracts are well punctuated)."""
    return [s.strip() for s in _SENT.split(text) if s.strip()]


def split_tune_check(records: list[PathRecord]) -> tuple[list[PathRecord], list[PathRecord]]:
    """Split dev records into ``tune`` and ``check`` halves, grouped by drug.

    The held-out test split is grouped by drug, so ours is too: every record of one drug
    lands in the same half (``sha1(drug_id)`` parity). Records without a drug id group by id.
    """
    tune: list[PathRecord] = []
    check: list[PathRecord] = []
    for r in records:
        key = r.drug_id or r.id
        (tune if int(hashlib.sha1(key.encode()).hexdigest(), 16) % 2 == 0 else check).append(r)
    return tune, check
