"""What a chain's signs say a drug does to a disease, for a question whether it causes, worsens or may be taken with
it ("Does febuxostat cause gout?", "can I take aspirin with a stomach ulcer?"), and which of those questions ask
about side effects or safety, which the knowledge graph does not hold."""

from __future__ import annotations

import re

from agents.intent import CAUSING
from agents.scope import ANTIDOTES, PROGNOSES, REVERSING
from agents.state import DRUG_TYPES, Intent, State
from core.datasets import DISEASE_TYPES
from tools.path_ranker import effect


def names_disease(state: State) -> bool:
    """Whether a question linked a disease or a phenotype."""
    return any((m.get("entity") or {}).get("type") in DISEASE_TYPES for m in state.mentions)


def asks_causing(state: State) -> bool:
    """A question whether X causes Y ("Does metformin cause lactic acidosis?", ``agents.intent.CAUSING``)."""
    return state.intent == Intent.RELATION.value and _causing(state)


def _causing(state: State) -> bool:
    return bool(re.search(rf"\b{CAUSING}\b", state.asked, re.IGNORECASE))


_WORSENING = re.compile(r"\b(?:make|makes|making)\s+(?:\S+\s+){1,4}worse\b|\b(?:worsen|aggravat|exacerbat)\w*|\bbad (?:for|in)\b|"
                        r"\b(?:safe|unsafe|dangerous|harmful|contraindicated)\b|\b(?:can|could|may|should|ok|okay|fine|"
                        r"alright|avoid)\b[^?]*\b(?:take|taking|use|using|be on|have)\b", re.IGNORECASE)
"""A question whether X worsens Y, or is safe in it ("is propranolol safe in asthma?"), or may be taken with it ("can I
take aspirin with a stomach ulcer?", "should I avoid propranolol if I have asthma?", told as any mechanism before):
the chain's direction answers."""


def causal_note(state: State, top: list[dict[str, str]]) -> str:
    """For "does X cause Y?", what the chain's signed relations say it does to Y (``tools.path_ranker.effect``):
    "Does febuxostat cause gout?" is answered by the chain through which it lowers gout. So is "is propranolol safe
    in asthma?" or "can it make asthma worse?": its chain lowers a receptor that widens the airways, and so raises
    asthma (it was told as any mechanism)."""
    worsening = state.intent == Intent.RELATION.value and bool(_WORSENING.search(state.asked))
    if not (asks_causing(state) or worsening):
        return ""
    sign = effect([t["relation"] for t in top])
    x, y = top[0]["head_name"], top[-1]["tail_name"]
    lowers = "." if worsening else ": it treats it, rather than causes it."
    raises = ": it would worsen it." if worsening else "."
    return {-1: f" Along this chain {x} lowers {y}{lowers}", 1: f" Along this chain {x} raises {y}{raises}"}.get(sign, "")


def side_effect_topic(state: State) -> str:
    """"side effects" for "Does metformin cause lactic acidosis?": what a drug causes is a side effect, which the
    graph does not hold; "" for anything else, a chemical substance included ("Does uric acid cause gout?": all but
    one of the graph's 333 are the tail of some relation, as what the body makes is; almost no drug is)."""
    if state.drug_class and state.intent == Intent.MECHANISM.value and _causing(state):
        return "side effects"  # "can statins cause muscle pain?": how the class acts on it, after the note
    if state.compared and len(state.among) >= 2 and _causing(state):
        return "side effects"  # "do lisinopril and losartan cause cough?"
    if not asks_causing(state):
        return ""
    drug = next((m.get("entity") or {} for m in state.mentions if m.get("slot") == "drug"), {})
    return "side effects" if drug.get("type") == "Drug" else ""


def reversal_topic(state: State) -> str:
    """``ANTIDOTES`` for "why does vitamin K reverse warfarin?" (two drugs, one undoing the other), which the graph does
    not hold: it was told that no chain joins them, with no word on it; "" for anything else ("does metformin reverse
    insulin resistance?" asks how a drug acts on a disease)."""
    ends = [m.get("entity") or {} for m in state.mentions]
    two_drugs = len(ends) >= 2 and all(e.get("type") in DRUG_TYPES for e in ends[:2])
    return ANTIDOTES if state.intent == Intent.MECHANISM.value and two_drugs and REVERSING.search(state.asked) else ""


_LEADS_TO = re.compile(r"^(?:and |so )?what (?:does|do|can|will) (?:\S+ ){1,5}?(?:cause|lead to|result in)(?: later)?[?.!]*$",
                       re.IGNORECASE)
"""What a disease leads to ("what does gout cause?"): the graph's curated chains end at diseases."""


def leads_to_topic(state: State) -> str:
    """"symptoms or prognoses of diseases" for "what does diabetes cause?" (answered with the disease's drugs and no
    word that the graph holds nothing a disease leads to), "side effects" for "what does aspirin cause?" (told what
    aspirin is connected to), "" for anything else."""
    ends = [m.get("entity") or {} for m in state.mentions]
    kind = ends[0].get("type") if ends and _LEADS_TO.match(state.asked.strip()) else None
    return PROGNOSES if kind in DISEASE_TYPES else "side effects" if kind == "Drug" else ""


def through_what_it_causes(top: list[dict[str, str]]) -> str:
    """A note when a chain reaches its end only backwards, by its last step "Z caused by Y": Y causes Z, so the chain
    does not act on Y ("Are antibiotics effective against viruses?" was told that antibiotics act on Viruses through
    DNA gyrase, ending "inflammatory response caused by Viruses"); "" for any other chain. One curated chain in the
    question file of 3,777 indications ends that way."""
    last = top[-1] if top else {}
    if last.get("relation") != "caused by":
        return ""
    y, z = last["tail_name"], last["head_name"]
    s, it = ("", "them") if named_in_plural(y) else ("s", "it")
    return f" Its last step says that {y} cause{s} {z}: the chain reaches {y} through what {y} cause{s}, not by acting on {it}."


def named_in_plural(name: str) -> bool:
    """Whether a name is in the plural ("Steroids", "Viruses"), so that its verb is too; a name ending in "-is", "-us"
    or "-os" is one thing (tafamidis)."""
    last = name.split()[-1] if name.split() else ""
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "is", "us", "os"))
