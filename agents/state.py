"""Typed state of the QA graph: Planner → Retriever → Reviewer → Explainer."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any

from langgraph.types import Overwrite

from core.datasets import DISEASE_TYPES, DRUG_TYPES

LISTED_DRUGS = "listed drugs"
"""``State.drug_class`` of a question about the drugs the last answer listed ("which of them …", "what do they
treat?")."""

__all__ = ["DISEASE_TYPES", "DRUG_TYPES", "LISTED_DRUGS", "InputState", "Intent", "State", "Status", "forward_one_sided", "fresh_turn", "linked_mention", "merge_dicts", "stand_ins",
           "two_ended"]


class Status(StrEnum):
    """Where a question ended up."""

    RUNNING = "RUNNING"
    ANSWERED = "ANSWERED"
    NEEDS_CLARIFICATION = "NEEDS_CLARIFICATION"
    NOT_FOUND = "NOT_FOUND"
    ERROR = "ERROR"


class Intent(StrEnum):
    """What the question asks for."""

    MECHANISM = "mechanism"
    """How does drug X treat disease Y?"""
    TREATS = "treats"
    """What treats disease Y?"""
    TARGETS = "targets"
    """What does drug X target?"""
    INDICATIONS = "indications"
    """What does drug X treat?"""
    TARGETED_BY = "targeted_by"
    """Which drugs act on protein X ("What drugs target EGFR?")?"""
    RELATION = "relation"
    """How are two named entities connected?"""
    ENTITY = "entity"
    """What is known about one entity?"""
    CAUSES = "causes"
    """What raises disease Y ("What causes gout?")? Answered from the graph's links into Y that raise it."""
    SIGNS = "signs"
    """What are the signs or symptoms of disease Y? Answered from the graph's links into Y that show it ("Wheezing
    —manifestation of→ Asthma"), not a walk."""
    INVOLVED = "involved"
    """Which proteins take part in disease Y ("Which genes are involved in gout?")? Walks back from Y to them."""
    PATIENT = "patient"
    """What is recorded for a patient (medications, conditions, labs)? Answered from the patient graph."""
    COHORT = "cohort"
    """How many patients have Y, or take X? Counted by the aggregation route over those who allow research use."""
    HISTORY = "history"
    """What did I ask before? (the thread's earlier questions, from its messages)"""
    CLASS_MEMBER = "class_member"
    """Is drug X one of class C ("Is atorvastatin a statin?")? Answered from the class table, not the graph."""
    NAMES = "names"
    """What names an entity goes by ("Is Gleevec the same as imatinib?"): answered from the linker's names, not a walk."""
    COUNT = "count"
    """How many drugs act on a target, how many targets a drug has, how many drugs a class holds ("How many drugs
    target EGFR?"): counted from the graph's edges or the class table, not a walk."""
    DISEASES = "diseases"
    """How do two diseases compare ("compare asthma and COPD")? Answered from what the graph links into each and the
    drugs whose chains reach each, not a walk."""
    DISEASES_OF = "diseases_of"
    """Which diseases does an entity that is no drug take part in ("which cancers involve EGFR?")? Answered by
    PageRank downstream from it, kept to the kind asked for, not a walk."""
    METABOLITES = "metabolites"
    """What does drug X become ("What are the metabolites of prednisone?", "is clopidogrel a prodrug?")? Answered from
    the graph's edges to what the drug becomes, not a walk."""
    AMOUNTS = "amounts"
    """What does drug X raise or lower ("what does allopurinol lower?")? Answered from the graph's edges to the
    chemicals within two steps of what the drug acts on, not a walk."""
    SELECTIVE = "selective"
    """Which drugs of a class act on one target and not on the class's others ("which NSAIDs are COX-2 selective?")?
    Answered from the drugs' edges, not a walk."""
    SIMILAR = "similar"
    """Which diseases are like disease Y ("which diseases are similar to gout?")? Answered from what the graph links
    into each disease, not a walk."""
    DISEASE_KINDS = "disease_kinds"
    """Which kinds of disease Y does the graph hold ("what types of diabetes are there?")? Answered from the diseases'
    names and what the graph records Y as a manifestation of, not a walk."""
    GLOSSARY = "glossary"
    """What does a word of pharmacology or a relation mean ("what is an agonist?")? Answered from medpath's hand-written
    glossary (``memory/glossary.tsv``), not the graph."""
    PRODUCTS = "products"
    """What does protein X make ("what does xanthine oxidase make?")? Answered from the graph's edges to what the
    protein raises, by itself or through one process, not a walk."""
    ROLE = "role"
    """What does protein X do ("what does TNF do?")? Answered from the protein's own edges and the drugs that act on
    it, not a walk."""
    SMALL_TALK = "small_talk"
    """A greeting, thanks or "what can you do?" (answered with what medpath answers, not from the graph)"""


def merge_dicts(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Reducer: shallow-merge dictionaries, right wins."""
    return {**(left or {}), **(right or {})}


@dataclass(kw_only=True)
class InputState:
    """What a caller sends."""

    question: str = ""
    """The user's question, free text."""
    user_id: str = "anonymous"
    """Who asks; memory is read and written in this user's scope only."""
    mode: str = "semantic"
    """Retrieval mode: ``semantic``, ``session_recovery`` or ``knowledge_lookup`` (filters the stores)."""
    patient_id: str | None = None
    """Patient in scope (set by a caller that has checked the scope, or found in the question: PAT_001)."""
    patient_scope: list[str] | None = None
    """The patients a cohort question may count: the caller's (``"*"``: all); ``None`` for a local caller, who may
    count every patient. Sent every turn by the HTTP API for a caller that is no admin."""


@dataclass(kw_only=True)
class State(InputState):
    """Everything the nodes read and write.

    ``messages`` is the thread's history and only grows. Every other field describes the current
    turn: the planner writes all of them fresh (``fresh_turn``) before anything else runs, so a
    failed turn never leaks its status, evidence or citations into the next one.
    """

    messages: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """The conversation, one record per turn and side, appended: ``{"role": "user", "content": …}`` and
    ``{"role": "assistant", "content": …, "status", "intent", "question", "drug", "disease", "items", "patient_id",
    "drug_class", "target", "compared", "steps", "cited"}`` (``steps``: the answer's path, what "explain the second step"
    reads; ``cited``: the answer has citations, as a NOT_FOUND one with a study pointer does).
    Follow-up questions are resolved against the assistant records."""
    understood_as: str = ""
    """The question as the planner understood it when it resolved a follow-up ("it", "what about gout?");
    empty when the question stood on its own."""
    references: list[dict[str, Any]] = field(default_factory=list)
    """What each follow-up reference was resolved to (the text, the entity or patient, and how)."""
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    """Nearest known entities for a mention that is not in the graph (NOT_FOUND's "did you mean")."""
    also_asked: list[str] = field(default_factory=list)
    """The questions a question listing several drugs or diseases also asked ("How does imatinib and dasatinib
    treat CML?" is answered for imatinib; "How does dasatinib treat CML?" is here, to be asked next)."""

    @property
    def asked(self) -> str:
        """The question the nodes work on: the follow-up as understood, else the question as asked."""
        return self.understood_as or self.question

    status: Status = Status.RUNNING
    """Lifecycle of the run."""
    intent: str = ""
    """An ``Intent`` value, set by the planner."""
    mentions: list[dict[str, Any]] = field(default_factory=list)
    """Mentions found in the question and how each was linked."""
    sources: list[str] = field(default_factory=list)
    """Entity ids the walk starts from (drug side, forward)."""
    targets: list[str] = field(default_factory=list)
    """Entity ids the walk ends at (disease side, backward)."""
    goal_types: list[str] = field(default_factory=list)
    """Entity types that answer a one-sided question (e.g. Drug for "what treats Y")."""
    disease_kind: str = ""
    """The kind of disease "what does X treat" asks for ("cancer" in "What cancers does imatinib treat?",
    ``tools.answers.DISEASE_KINDS``): the answer lists only those. "" for any."""
    drug_class: str = ""
    """The drug class a "which drug" question names ("Which beta blockers treat hypertension?"), as written."""
    among: list[str] = field(default_factory=list)
    """The drugs of ``drug_class`` in the graph, the most connected first: the only drugs the answer may list."""
    via: list[str] = field(default_factory=list)
    """What the drugs of a treatment question should act through ("… hypertension by inhibiting ACE": ACE, and any
    entity of the same name): ``among`` holds the drugs that act on it, and the paths through it come first."""
    compared: bool = False
    """A question comparing the drugs of ``among`` ("compare aspirin and ibuprofen", "how do X and Y differ?"): what
    each acts on directly, and what both do (asked as "what do they target?")."""
    excluded: list[str] = field(default_factory=list)
    """Entities the answer may not list: the thread's own when a follow-up asks for "other" ones or what "else"."""
    clarification: dict[str, Any] = field(default_factory=dict)
    """The last clarification asked and the choice made."""
    candidates: list[dict[str, Any]] = field(default_factory=list)
    """Ranked candidate paths from the retriever."""
    retrieved: list[dict[str, Any]] = field(default_factory=list)
    """De-duplicated triples of the candidate paths, at most 50, most probable curated step first (``weight``: the
    triple scorer's probability, ``tools.triple_scorer``; path mass for an index without one)."""
    answers_wanted: int = 0
    """How many ranked answers the question asks for ("name three drugs for asthma", "list them all"): 0 for the
    usual five (``agents.list_size``)."""
    known_use: bool | None = None
    """"Does X treat Y?": whether Y is one of X's uses (``agents.known_use``), which the answer's yes needs; None for
    any other question."""
    ranked_answers: list[dict[str, Any]] = field(default_factory=list)
    """One-sided questions ("which drug treats Y?"): the best answer entities, ranked, each with its best path
    (``path``) and, after the explainer, its ``citations``."""
    pool: list[list[list[str]]] = field(default_factory=list)
    """Evaluation only (``Context.keep_pool``): the best-ranked paths as ``[head, relation, tail]`` triples."""
    walk: dict[str, Any] = field(default_factory=dict)
    """Walker statistics: budgets, nodes expanded, stop reason."""
    dense: dict[str, Any] = field(default_factory=dict)
    """Dense back-off: whether it ran, why, and the seeds injected."""
    hybrid: dict[str, Any] = field(default_factory=dict)
    """The hybrid retrieval service's report: route, classifier rule and confidence, counts, the two-tier context."""
    route: dict[str, Any] = field(default_factory=dict)
    """IMM router decision: stores consulted, rule id, matched phrase, mode, score weights."""
    memory: Annotated[dict[str, Any], merge_dicts] = field(default_factory=dict)
    """Memory reads (hits, boost applied) and writes (what the gate let through)."""
    review: dict[str, Any] = field(default_factory=dict)
    """Reviewer decision: accepted paths, scores, threshold, backend."""
    answer: str = ""
    """The answer in plain words."""
    evidence: list[dict[str, str]] = field(default_factory=list)
    """The accepted evidence path as triples."""
    evidence_text: str = ""
    """The evidence path rendered with arrows."""
    citations: list[dict[str, str]] = field(default_factory=list)
    """Where the evidence comes from."""
    error: str = ""
    """One-line error when status is ERROR or NOT_FOUND."""
    fallbacks: Annotated[list[dict[str, str]], operator.add] = field(default_factory=list)
    """Components that failed and what was used instead."""
    timings: Annotated[dict[str, float], merge_dicts] = field(default_factory=dict)
    """Milliseconds spent per node."""


PER_TURN_DEFAULTS: dict[str, Any] = {
    "status": Status.RUNNING, "intent": "", "mentions": [], "sources": [], "targets": [], "goal_types": [],
    "disease_kind": "", "drug_class": "", "among": [], "via": [], "compared": False, "excluded": [], "clarification": {}, "candidates": [], "answers_wanted": 0, "known_use": None, "ranked_answers": [], "retrieved": [], "pool": [], "walk": {}, "dense": {}, "hybrid": {}, "route": {},
    "review": {}, "answer": "", "evidence": [], "evidence_text": "", "citations": [], "error": "",
    "understood_as": "", "references": [], "suggestions": [], "also_asked": [],
}
"""Every per-turn field and its value at the start of a turn."""


def fresh_turn() -> dict[str, Any]:
    """The update that starts a turn: per-turn fields back to their defaults, reducer fields overwritten.

    ``memory``, ``fallbacks`` and ``timings`` have reducers (merge, append), so a plain value would be
    merged into the last turn's; ``Overwrite`` replaces them instead.
    """
    out = {k: (v.copy() if isinstance(v, list | dict) else v) for k, v in PER_TURN_DEFAULTS.items()}
    out.update(memory=Overwrite({}), fallbacks=Overwrite([]), timings=Overwrite({}))
    return out


def two_ended(state: State) -> bool:
    """A question that names both ends of the mechanism it asks for ("How does X treat Y?"), not one that asks
    for entities of a type."""
    return bool(state.sources and state.targets and not state.goal_types)


def treats_all(state: State) -> bool:
    """A "which drug" question naming several diseases at once ("What drugs treat both gout and hypertension?"): the
    answer lists drugs with a verified mechanism for each of ``targets``."""
    return state.intent == Intent.TREATS.value and len(state.targets) > 1


def targeted_all(state: State) -> bool:
    """A "which drugs act on" question naming several proteins at once ("Which drugs inhibit both COX-1 and COX-2?"):
    the answer lists drugs acting on each of ``targets`` (it listed those of the first alone)."""
    return state.intent == Intent.TARGETED_BY.value and len(named_targets(state)) > 1


def named_targets(state: State) -> list[dict[str, Any]]:
    """The entities the question names as targets, one per name (a kind, "calcium channels", is one name for several
    of ``targets``: ``agents.via.family_targets``)."""
    return [m["entity"] for m in state.mentions if m.get("slot") == "target" and m.get("entity")]


def class_mechanism(state: State) -> bool:
    """A mechanism question whose subject is a drug class ("How do statins lower cholesterol?"): walked from the
    class's drugs (``among``), answered by the routes the most of them take into the disease."""
    return state.intent == Intent.MECHANISM.value and bool(state.among)


def forward_one_sided(state: State) -> bool:
    """A question about one drug that asks for entities of a type it acts on ("What does X target?", "What does X
    treat?"): the answer is a path's last node."""
    return state.intent in (Intent.TARGETS.value, Intent.INDICATIONS.value) and bool(state.sources) and not state.targets


def stand_ins(dense: dict[str, Any]) -> list[str]:
    """The drugs the dense back-off let stand in for the question's drug (they share a word with its name:
    "insulin" → insulin glulisine): a path from one of them answers for the named drug."""
    return [x["id"] for x in dense.get("seeds", []) if x.get("type") in DRUG_TYPES]


def linked_mention(slot: str, entity: dict[str, Any]) -> dict[str, Any]:
    """A mention a reader of the question linked itself (what a drug becomes, what a protein makes, …): ``entity`` in
    ``slot`` under its own name, so that a follow-up's "it" finds it."""
    return {"slot": slot, "mention": entity["name"], "status": "linked", "entity": entity}
