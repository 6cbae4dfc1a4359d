"""Whether "does X treat Y?" asks about one of X's uses, for the yes or no that opens the answer (``agents.verdict``).

The walk finds a lowering chain from almost any drug into almost any disease: the graph is the union of the curated
mechanisms, and a chain can pass from one drug's mechanism into another's. "Does imatinib treat hypertension?" was
answered "Yes: imatinib acts on Hypertensive disorder through a 6-step mechanism", through abnormal cell
proliferation in the kidney. A disease is one of X's uses here when "What does X treat?" lists it among its first
:data:`USES_LISTED` (the drug's own list, ``agents.answer_paths.own_list``), or when the curated drugs that act on
X's targets as X does have chains into it (``tools.answers.disease_mates``), or when "What drug treats Y?" lists X
among its first :data:`DRUGS_LISTED` (:func:`drug_order`); a finding counts as the diseases the graph
makes it a manifestation of ("does montelukast help with allergies?": Allergy —manifestation of→ Allergic rhinitis,
which montelukast's list holds). Otherwise the answer opens by saying so, and the chain the graph holds follows.

Measured by ``python bench/bench_known_use.py`` (README, "Does X treat Y?").
"""

from __future__ import annotations

import dataclasses
from typing import Any

from agents.answer_paths import drug_candidates, own_list
from agents.context import Context
from agents.list_size import ALL_ANSWERS
from agents.state import DISEASE_TYPES, DRUG_TYPES, LISTED_DRUGS, Intent, State
from agents.verdict import asks_yes_no
from agents.walking import walk_question
from core.datasets import DRUG_TYPE_ORDER
from core.tracing import span
from tools.answers import by_type_preference, disease_mates, manifested_in, types_of
from tools.linker import fold

__all__ = ["DRUGS_LISTED", "USES_LISTED", "drug_order", "is_use", "known_use", "listed_uses", "uses_read"]

USES_LISTED = ALL_ANSWERS
"""How far down the drug's own list of diseases a use may stand: as many as "list all diseases X treats" gives."""

DRUGS_LISTED = ALL_ANSWERS
"""How far down the disease's own list of drugs ("What drug treats Y?", :func:`drug_order`) the drug may stand, when
its own list of diseases misses Y ("does theophylline treat COPD?": theophylline's list opens with the common cold;
COPD's list of drugs holds it 19th): as many as "list all drugs for Y" gives, so that the answer can be checked by
asking it. ``python bench/bench_known_use.py --split tune --depths 10,20,30,50`` gives 121, 124, 126 and 127 yeses
of 150 listed pairs, and 2, 2, 2 and 3 of 150 unlisted ones; 30 would add two more, and a user could not see them"""


def known_use(state: State, ctx: Context, res: Any) -> bool | None:
    """For a yes/no question whether one drug treats one disease ("does imatinib treat hypertension?", "does it
    help with fever?" understood as "How does Aspirin treat Fever?"): whether the disease is one of the drug's uses
    (see the module); None for any other question."""
    if state.intent != Intent.MECHANISM.value or not asks_yes_no(state) or len(state.sources) != 1 or len(state.targets) != 1 \
            or state.among or state.compared:
        return None
    return is_use(state, ctx, res, state.sources[0], state.targets[0])


def is_use(state: State, ctx: Context, res: Any, drug: str, disease: str) -> bool | None:
    """Whether ``disease`` is one of ``drug``'s uses (see the module); None when they are no drug and disease."""
    kg = res.kg
    type_of = types_of(kg)
    if type_of(drug) not in DRUG_TYPES or type_of(disease) not in DISEASE_TYPES:
        return None
    names = {fold(kg.name(y)) for y in (disease, *manifested_in(kg, disease))}  # "allergies": allergic rhinitis's
    curation = res.ranker.curation
    with span("tool.answers.known_use", **{"medpath.answer.sources": 1}) as sp:
        if any(fold(kg.name(y)) in names for y in disease_mates(kg, drug, curation.drugs, curation.diseases_of)):
            sp.set_attribute("medpath.known_use", "curated drugs alike")
            return True
        if any(fold(kg.name(y)) in names for y in own_list(state, ctx, res, drug, USES_LISTED)):
            sp.set_attribute("medpath.known_use", "own list")
            return True
        drug_name = fold(kg.name(drug))
        listed = any(fold(kg.name(x)) == drug_name for x in drug_order(state, ctx, res, disease)[:DRUGS_LISTED])
        sp.set_attribute("medpath.known_use", "the disease's list" if listed else "none")
        return listed


def listed_uses(state: State, ctx: Context, res: Any, answers: list[dict[str, Any]]) -> None:
    """"Which of them treat hypertension?" after a list of drugs (``State.among``, the listed drugs): each answer's
    ``known_use``, whether the disease is one of that drug's uses. PAT_003's Haloprogin, Amineptine and Pirlindole
    were said to have "a verified mechanism" for Hypertensive disorder, by chains through calcium ion import and
    serotonin. Nothing for any other question."""
    if state.intent != Intent.TREATS.value or state.drug_class != LISTED_DRUGS or len(state.targets) != 1:
        return
    for a in answers:
        a["known_use"] = is_use(state, ctx, res, a["id"], state.targets[0])


def uses_read(state: State, ctx: Context, res: Any, answers: list[dict[str, Any]]) -> bool | None:
    """Both readings for the retriever: each listed drug's ``known_use`` (:func:`listed_uses`, on ``answers``), and
    the question's own (:func:`known_use`, returned)."""
    listed_uses(state, ctx, res, answers)
    return known_use(state, ctx, res)


def drug_order(state: State, ctx: Context, res: Any, disease: str) -> list[str]:
    """The drugs "What drug treats Y?" ranks for ``disease`` (ids, best first, drugs before chemicals): that question's
    walk (``agents.walking``, dense back-off included), fused as that answer fuses (``agents.answer_paths.drug_candidates``)."""
    one = dataclasses.replace(state, intent=Intent.TREATS.value, sources=[], targets=[disease], among=[], via=[],
                              excluded=[], compared=False, drug_class="", disease_kind="", goal_types=list(DRUG_TYPE_ORDER),
                              understood_as=f"What drug treats {res.kg.name(disease)}?")
    order, _ = drug_candidates(one, res, walk_question(one, ctx, res)[0], [disease], [disease])
    return by_type_preference(order, one.goal_types, types_of(res.kg))
