"""Whether a drug is safe with a condition, and the same asked again of another condition or drug.

"Is metformin safe in kidney disease?" was NOT_FOUND: "kidney disease" fits no one entry, and the walk looked for a
chain to the kidney. A condition that links to no one disease is now, like "in pregnancy", one the graph does not
distinguish: the answer says so and that the graph holds no safety, then what it holds on the drug. After such a
question, "what about kidney disease?", "and in children?" or "what about ibuprofen?" asks it again of the new
condition or drug; they were read as how metformin treats kidney disease, or what metformin targets in children, and
the safety note was lost. "Is it safe to take ibuprofen with kidney problems?" and "Can I take ibuprofen if I have
kidney disease?" ask the same (:func:`taken_with_condition`).
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import sentence
from agents.chain_direction import names_disease
from agents.drug_compare import CHAIN_NODES
from agents.focus import Focus
from agents.resolution import Linker, Resolution
from agents.scope import INTERACTIONS, SAFETY, out_of_scope
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent, State
from memory.patients import PATIENT_ID
from tools.linker import LinkStatus, fold
from tools.meeting import meeting_of
from tools.walker import shortest_chains

__all__ = ["JOINING_HOPS", "WHOM", "WITH_RECORD", "as_safety", "asks_safety", "chain_between", "condition_beside", "condition_qualifier", "safe_again", "taken_with_another", "taken_with_condition", "told"]

WHOM = rf"(?:me|him|her|them|us|you|someone|anyone|everyone|{PATIENT_ID.pattern})"
"""Whom a drug would be safe for, as a pronoun or a patient id ("… safe for her", "… for PAT_003 to take …")."""

_SAFE_WITH = re.compile(r"(?<=\bsafe )(?:in|for|with|during|if you have|if i have|when you have)\s+"
                        r"(?:(?:people|patients|someone|those|a person|anyone|somebody)\s+(?:with|who have|that have)\s+)?"
                        r"(?:(?:my|your|his|her|their|our|the) )?(?P<c>[^?.!]+?)(?=\s*[?.!]*$)", re.IGNORECASE)
"""The condition after "safe" ("Is metformin safe in kidney disease?", "… for people with asthma?")."""
_TAKING = re.compile(rf"^(?:(?:is|would|will) it (?:be )?(?:safe|ok|okay|alright|fine) (?:for {WHOM} )?to (?:take|use|give)|"
                     r"(?:can|could|may|should) (?:i|you|he|she|we|they|someone|people|"
                     rf"a person|my \w+|{PATIENT_ID.pattern}) "
                     r"(?:still |safely )?(?:take|use|be given)|(?:is|are) \S.*? (?:safe|ok|okay|alright|fine))\b", re.IGNORECASE)
"""A question whether a drug may be taken ("Is it safe to take ibuprofen …", "Can I take ibuprofen …", "Is ibuprofen ok
…")."""
_WITH_CONDITION = re.compile(r"\b(?:with|if (?:i|you|he|she|we|they) (?:have|has|suffer from)|when (?:i|you|he|she|we|they) "
                             r"(?:have|has)|for (?:people|patients|someone|those|a person|anyone) (?:with|who have))\s+"
                             r"(?:(?:a|an|my|your|his|her|their|bad|severe|mild|chronic|some) )*(?P<c>[^?.!]+?)(?=\s*[?.!]*$)",
                             re.IGNORECASE)
"""The condition after "with" or "if I have" ("… with kidney problems?", "… if I have a heart condition?")."""
_CONDITION = re.compile(r"\b(?:disease|diseases|problems?|failure|conditions?|issues?|trouble|damage|impairment|insufficiency|"
                        r"disorders?|allerg(?:y|ies)|infections?|ulcers?|injur(?:y|ies)|cancer)$", re.IGNORECASE)
"""A condition named by its kind ("kidney problems", "a heart condition"): not a drug, food or drink taken with it."""
_ASKED = re.compile(r"^(?P<head>(?:is|are) .+? safe) (?P<prep>in|for|with|during)\b", re.IGNORECASE)
"""A safety question about a drug and a condition, as understood ("Is metformin safe in pregnancy?")."""
_FOR_WHOM = re.compile(rf"for (?:{WHOM}|(?:the|this|my|our) (?:patient|child|baby|son|daughter|wife|husband|mother|father|"
                       r"mum|mom|dad))(?:\s+to\s.*|\s*[?.!]*)$", re.IGNORECASE)
"""Whom a drug would be safe for, not a condition ("Is ibuprofen safe for PAT_003?", "is it safe for her to take …?")."""
_PREP = re.compile(r"^(?:and |but |so )?(?P<prep>in|for|with|during)\s+", re.IGNORECASE)


WITH_RECORD = re.compile(r"\b(?:with|in|for|given) (?:her|his|their|my|our|PAT_\d+'s) (?:other |current |medical |existing |own )?"
                          r"(?:conditions?|diseases?|illness(?:es)?|diagnos[ie]s|health problems?|problems)\b", re.IGNORECASE)
"""The conditions a patient's record lists, as what medications may be unsafe with ("are her meds safe with her
conditions?": it was read as a condition named "conditions" that the graph does not distinguish, under the note on
drug interactions)."""


def condition_qualifier(question: str, linker: Linker) -> re.Match[str] | None:
    """The condition of a safety question when it links to no one disease ("kidney disease", "liver problems"), its
    first group the condition: a qualifier the graph does not distinguish, as a population is (``TRAILING_QUALIFIER``'s
    match is read the same way). None for any other question, and for a condition that names one disease ("Is
    ibuprofen safe with asthma?" tells the graph's chain between the two)."""
    m = _SAFE_WITH.search(question) if out_of_scope(question) == SAFETY else taken_with_condition(question)
    if m is None and out_of_scope(question) in (INTERACTIONS, "") and _TAKING.match(question):  # "is prednisone safe with
        said = _WITH_CONDITION.search(question)  # diabetes?", "can I take it if I have diabetes?": a disease several
        several = linker.link(said["c"]) if said else None  # entries fit was dropped, and the note was on interactions
        m = said if several is not None and several.status is LinkStatus.AMBIGUOUS and several.best is not None \
            and several.best.type in DISEASE_TYPES else None
    if m is None or _FOR_WHOM.match(question, m.start()) or WITH_RECORD.search(question):  # "for her": whom, not what
        return None
    out = linker.link(m["c"])
    one = out.status is LinkStatus.LINKED and out.best is not None and out.best.type in DISEASE_TYPES
    return None if one else m


_IF_HAVING = re.compile(r"(?<=\S)[, ]+(?:if|when|since|as|because|given that) (?:i|you|he|she|we|they|my [\w ]{1,20}?|the patient|"
                        r"someone|a patient) (?:also |already )?(?:have|has|had|am|are|is|suffers? from|got|gets?) "
                        r"(?:an? |the |some )?(\w.+?)(?=\s*[?.!]*$)", re.IGNORECASE)
_FOR_A_DISEASE = re.compile(r"\b(?:for|treat|treats|help|helps|with|against|relieve|ease)\s+\S", re.IGNORECASE)


def condition_beside(question: str) -> re.Match[str] | None:
    """A condition the asker has beside the disease asked about ("What can I take for a headache if I have high blood
    pressure?"), its first group the condition: a qualifier the graph does not distinguish, as a population is. The
    disease slot had read "headache if I have high blood pressure" and answered for hypertension. None when nothing
    before it names what is asked for ("what can I take if I have gout?" asks about gout)."""
    m = _IF_HAVING.search(question)
    return m if m is not None and _FOR_A_DISEASE.search(question[: m.start()]) else None


def taken_with_condition(question: str) -> re.Match[str] | None:
    """"Is it safe to take ibuprofen with kidney problems?", "Is ibuprofen ok with kidney disease?", "Can I take
    ibuprofen if I have a heart condition?": whether a drug may be taken with a condition named by its kind, its first
    group the condition. They were read as interactions ("safe with …") or as how ibuprofen acts on the kidney. None
    for a drug, food or drink after "with" ("… with aspirin?", "… with food?"), and for a disease named as such ("…
    if I have asthma?": the graph's chain to it is told, with the safety note of :func:`as_safety`)."""
    if out_of_scope(question) not in (INTERACTIONS, "") or not _TAKING.match(question):
        return None
    m = _WITH_CONDITION.search(question)
    return m if m is not None and _CONDITION.search(m["c"]) else None


def asks_safety(question: str) -> bool:
    """Whether a question asks if a drug is safe, or may be taken ("Is it safe for PAT_003 to take ibuprofen?", "Can
    PAT_003 take ibuprofen?"): not whether the record lists it (it said "No: PAT_003's record lists no Ibuprofen")."""
    return out_of_scope(question) == SAFETY or bool(_TAKING.match(question))


def as_safety(topic: str, state: State) -> str:
    """The topic the answer's note names: ``SAFETY`` for a question whether a drug may be taken with a disease or a
    condition ("can I take aspirin with a stomach ulcer?", "… if I have asthma?", a condition read as a qualifier),
    which reads as one about interactions or about nothing the graph lacks; else ``topic``."""
    if topic not in (INTERACTIONS, ""):
        return topic
    if any(r.get("safety") for r in state.references) or (not topic and state.patient_id and _TAKING.match(state.asked)) \
            or state.patient_id and WITH_RECORD.search(state.asked):  # "are her meds safe with her conditions?"
        return SAFETY  # "Can PAT_003 take ibuprofen?"
    asked = bool(topic) or any(_TAKING.match(q) and _WITH_CONDITION.search(q) for q in (state.question, state.asked))
    return SAFETY if asked and state.intent == Intent.RELATION.value and names_disease(state) else topic


def safe_again(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """"Is metformin safe in kidney disease?" for "what about kidney disease?" (``z``, as the ellipsis wrote it) after
    "Is metformin safe in pregnancy?"; "Is Ibuprofen safe in pregnancy?" for "what about ibuprofen?". None unless the
    latest question asked whether a drug is safe with a condition."""
    m = _ASKED.match(focus.question) if out_of_scope(focus.question) == SAFETY else None
    if m is None or not z:
        return None
    z = z.strip().rstrip("?.! ")
    prep = _PREP.match(z)
    cond = z[prep.end():] if prep else z
    prep = prep or _PREP.match(q.strip())  # "and with asthma?": the ellipsis took "with" off
    best = linker.link(cond).best
    if best is not None and best.type in DRUG_TYPES and fold(best.name) == fold(cond):  # "what about ibuprofen?"
        res.pinned[fold(best.name)] = {"id": best.id, "name": best.name, "type": best.type}
        res.references.append({"text": q, "how": "ellipsis", "replaced_by": cond})
        return f"Is {best.name} safe {m['prep']}{m.string[m.end():]}"
    if best is not None and best.type in DISEASE_TYPES and linker.link(cond).status is LinkStatus.LINKED:
        res.references.append({"text": q, "how": "ellipsis", "replaced_by": cond})
        return f"{m['head']} {prep['prep'] if prep else m['prep']} {cond}?"  # asked as if written so
    res.qualifier = cond  # "kidney disease": no one entry, a condition the graph does not distinguish
    res.references.append({"text": q, "how": "ellipsis", "qualifier": cond})
    return f"{m['head']}?"


_TAKEN_WITH = re.compile(r"^(?P<head>.+\b(?:with|and|plus)\s+)(?P<other>[^?]+?)(?P<tail>\s+(?:together|at the same time))?\?*$",
                         re.IGNORECASE)
"""The second drug of a question whether two go together ("Can I take warfarin with ibuprofen?")."""


def taken_with_another(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """"Can I take warfarin with aspirin?" for "what about aspirin?" after "Can I take warfarin with ibuprofen?": the
    question about two drugs together asked of another (it was "What does Aspirin target?", the thread's drug
    dropped). None unless the latest question asked about drug interactions and ``z`` names a drug."""
    m = _TAKEN_WITH.match(focus.question) if out_of_scope(focus.question) == INTERACTIONS else None
    name = re.sub(r"^(?:with|and|plus)\s+", "", z.strip().rstrip("?.! "), flags=re.IGNORECASE)
    best = linker.link(name).best if m is not None and name else None
    if m is None or best is None or best.type not in DRUG_TYPES or fold(best.name) != fold(name):
        return None
    res.pinned[fold(best.name)] = {"id": best.id, "name": best.name, "type": best.type}
    res.references.append({"text": q, "how": "ellipsis", "replaced_by": name})
    return f"{m['head'][:1].upper()}{m['head'][1:]}{name}{m['tail'] or ''}?"


JOINING_HOPS = 3
"""The most steps of a chain from one of two drugs asked about together to the other that the answer tells."""


def chain_between(state: State, kg: Any) -> str:
    """" The knowledge graph joins them by a chain of 3 steps: warfarin negatively regulates Vitamin K epoxide
    reductase complex subunit 1; …; Vitamin K metabolic process produces vitamin k." after what two drugs asked about
    together act on ("can I take warfarin with vitamin K?": it said only that they act on no target in common), when a
    chain of at most :data:`JOINING_HOPS` steps leads from one to the other; "" otherwise."""
    if not state.compared or len(state.among) != 2 or state.intent != Intent.TARGETS.value:
        return ""
    for a, b in (state.among, state.among[::-1]):
        chains = shortest_chains(kg, [a], {b}.__contains__, lambda *_: {}, max_hops=JOINING_HOPS, limit=1, max_nodes=CHAIN_NODES)
        if chains:
            n = len(chains[0].edges)
            return f" The knowledge graph joins them by a chain of {n} step{'s' if n > 1 else ''}: {told(chains[0].edges, kg)}."
    return _where_they_meet(state, kg)


def _where_they_meet(state: State, kg: Any) -> str:
    """" Their mechanisms meet at blood coagulation: Aspirin decreases activity of Prostaglandin G/H synthase 1; …
    warfarin negatively regulates Vitamin K epoxide reductase complex subunit 1; …. Along these chains both lower blood
    coagulation." after what two drugs taken together act on, when no chain joins them but both reach one node within
    a few steps (``tools.meeting``); it said only that they act on no target in common. "" otherwise."""
    if (met := meeting_of(kg, state.among)) is None:
        return ""
    said = [told(chain, kg) for chain in (met.first, met.second)]
    where, (one, other) = kg.name(met.node), met.signs()
    names = [kg.name(d) for d in state.among]
    verb = {-1: "lower", 1: "raise"}
    how = (f" Along these chains both {verb[one]} {where}." if one == other and one else
           f" Along these chains {names[0]} {verb[one]}s it and {names[1]} {verb[other]}s it." if one and other else "")
    return f" Their mechanisms meet at {where}: {said[0]}. {said[1]}.{how}"


def told(chain: Any, kg: Any) -> str:
    """A chain of edges as the sentence an answer tells it in."""
    return sentence([{"head_name": kg.name(e.head), "relation": e.relation, "tail_name": kg.name(e.tail)} for e in chain])
