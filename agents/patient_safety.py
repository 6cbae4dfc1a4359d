"""A drug asked about for a patient: "Is ibuprofen safe for PAT_003?", "Can PAT_003 take ibuprofen?", "is it safe for
her to take ibuprofen too?" after her record.

The graph holds no safety, so the answer says so and tells what it holds on the drug (``agents.explainer``); beside it,
what the patient's record lists (consent applied: the hybrid retrieval returned it) and which of the patient's
medications act directly on what the drug acts on. The first read "PAT_003" as a condition the graph does not
distinguish, and the second gave the drug's targets with no word on safety or the record.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed
from agents.drug_compare import CHAIN_NODES
from agents.focus import Focus
from agents.patient_answer import withheld_note
from agents.resolution import Resolution
from agents.safe_with import JOINING_HOPS, WITH_RECORD, told
from agents.state import DRUG_TYPES, Intent, State
from tools.meeting import MEETING_MAX_DEGREE
from tools.path_ranker import effect
from tools.walker import shortest_chains

__all__ = ["for_the_patient", "record_beside", "record_pairs"]

_SAFE_FOR = re.compile(r"\b(?:safe|ok|okay|alright|fine|risky|dangerous|harmful) for (him|her|them)\b", re.IGNORECASE)
"""The thread's patient as whom a drug would be safe for ("is it safe for her to take ibuprofen?")."""


_CAN_TAKE = re.compile(r"^(?:(?:and|so|but|ok),? )?(?P<can>can|could|may|should) (?P<who>she|he|they) (?:also |still )?(?:take|use|"
                       r"have) (?P<x>[\w' -]+?)(?: too| as well| also)?[?.!]*$", re.IGNORECASE)
"""The thread's patient as who would take a drug ("can she take aspirin too?")."""


def for_the_patient(res: Resolution, q: str, focus: Focus) -> str:
    """"is it safe for her to take ibuprofen too?" after a patient's record: "her" is the patient (the question was
    answered for ibuprofen alone, with no word of her record); "can she take aspirin too?" is "Can PAT_002 take
    aspirin?" (it was too); ``q`` unchanged for any other question."""
    if (can := _CAN_TAKE.match(" ".join(q.split()))) and focus.patient_id and focus.intent == "patient":
        res.patient_id = focus.patient_id
        res.references.append({"text": can["who"], "patient_id": focus.patient_id, "how": "patient", "safety": True})
        return f"{can['can'].capitalize()} {focus.patient_id} take {can['x']}?"
    m = _SAFE_FOR.search(q)
    if m is None or not focus.patient_id:
        return q
    res.patient_id = focus.patient_id
    res.references.append({"text": m[1], "patient_id": focus.patient_id, "how": "patient"})
    return q[: m.start(1)] + focus.patient_id + q[m.end(1):]


def record_beside(state: State, kg: Any) -> str:
    """" PAT_003's record lists conditions: …; medications: …. None of the other medications acts directly on anything
    Ibuprofen acts on in the knowledge graph." (or which of them do, and on what) for a question about one drug and a
    patient (the caller tells whether it asks about safety); "" for any other question."""
    if not state.patient_id or state.intent == Intent.PATIENT.value or len(state.sources) != 1:
        return ""
    drug = kg.node(state.sources[0])
    if drug is None or drug.type not in DRUG_TYPES:
        return ""
    hybrid = state.hybrid or {}
    facts = hybrid.get("patient_facts", [])
    conditions = list(dict.fromkeys(f["name"] for f in facts if f["kind"] == "condition"))
    meds = list(dict.fromkeys((f["name"], f["object_id"]) for f in facts if f["kind"] == "medication"))
    listed = [f"{kind}: {and_listed(names)}" for kind, names in (("conditions", conditions), ("medications", [n for n, _ in meds]))
              if names]
    text = f" {state.patient_id}'s record lists " + ("; ".join(listed) if listed else "no condition or medication") + "."
    if withheld := int(hybrid.get("consent_filtered_count", 0)):  # as the record's own answers say it
        text += f" {withheld_note(withheld)}"
    text += "".join(_raises(kg, drug.id, drug.name, f["object_id"], f["name"]) for f in facts  # "can she take ibuprofen?"
                    if f["kind"] == "condition" and kg.node(f.get("object_id") or ""))  # with a peptic ulcer
    taken = any(i == drug.id for _, i in meds)
    if taken:
        text += f" {drug.name} is one of the medications it lists."
    acts_on = {e.tail for e in kg.out_edges(drug.id)}
    shared = [(name, targets) for name, i in meds
              if i != drug.id and (targets := sorted(kg.name(t) for t in acts_on & {e.tail for e in kg.out_edges(i)}))]
    if shared:
        return text + " " + "; ".join(f"{name} also acts on {and_listed(t)}" for name, t in shared) + "."
    others = [name for name, i in meds if i != drug.id]
    if not others:
        return text
    who = f"{others[0]} does not act" if len(others) == 1 else f"None of the {'other ' if taken else ''}medications acts"
    return text + f" {who} directly on anything {drug.name} acts on in the knowledge graph."


_MEDS_SAFE = re.compile(r"\b(?:medications?|meds|drugs|medicines?)\b.*\b(?:safe|ok|okay|alright|fine|risky|dangerous|harmful)\b",
                        re.IGNORECASE)
"""Whether a patient's medications are safe ("Are PAT_003's medications safe?", as "are these safe for her?" is read)."""


def record_pairs(state: State, kg: Any) -> str:
    """" Along a chain of 3 steps from Brivaracetam to Depressive disorder, Brivaracetam raises it: …." (:func:`_raises`)
    for each medication of a patient's record and each condition it is not taken for, when the question
    asks whether the medications are safe ("are her meds safe with her conditions?", "are these safe for her?": it
    told the record alone), or that no such chain raises one; "" for any other question. What the chains say is not
    safety, which the note before it says the graph does not hold."""
    if state.intent != Intent.PATIENT.value or not state.patient_id or not (WITH_RECORD.search(state.asked) or _MEDS_SAFE.search(state.asked)):
        return ""
    facts = (state.hybrid or {}).get("patient_facts", [])
    conditions = {f["object_id"]: f["name"] for f in facts if f["kind"] == "condition" and kg.node(f.get("object_id") or "")}
    meds = {f["object_id"]: f for f in facts if f["kind"] == "medication" and kg.node(f.get("object_id") or "")}
    raising, looked = [], 0
    for med_id, med in meds.items():
        for cond_id, cond in conditions.items():
            if cond_id != med.get("for_condition_id"):
                looked += 1
                raising.append(_raises(kg, med_id, med["name"], cond_id, cond))
    if any(raising) or not looked:
        return "".join(raising)
    return (f" No chain of at most {JOINING_HOPS} steps in the knowledge graph, through no node with over {MEETING_MAX_DEGREE} "
            "edges, has one of the medications raise a condition it is not taken for.")


def _raises(kg: Any, drug_id: str, drug: str, cond_id: str, cond: str) -> str:
    """" Along a chain of 3 steps from X to Y, X raises it: …." when the shortest chain from X to Y (at most
    :data:`JOINING_HOPS` steps) that passes through no hub (a node with over ``MEETING_MAX_DEGREE`` edges) raises Y;
    "" otherwise."""
    chains = shortest_chains(kg, [drug_id], {cond_id}.__contains__, lambda *_: {}, max_hops=JOINING_HOPS, limit=5, max_nodes=CHAIN_NODES)
    chain = next((c.edges for c in chains if all(kg.degree(e.tail) <= MEETING_MAX_DEGREE for e in c.edges[:-1])), None)
    if chain is None or effect([e.relation for e in chain]) <= 0:  # not through "inflammatory response" (461 edges),
        return ""  # which joins most drugs to most diseases
    n = len(chain)
    return f" Along a chain of {n} step{'s' if n > 1 else ''} from {drug} to {cond}, {drug} raises it: {told(chain, kg)}."
