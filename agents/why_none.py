"""Why a question got no accepted answer, in words: no chain in the graph, none within the walk's reach, nothing of
the asked type near the drug, or every answer already named in the thread; with the nearest evidence when there is
some."""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing, sentence
from agents.chain_direction import names_disease
from agents.state import (
    DISEASE_TYPES,
    DRUG_TYPES,
    Intent,
    State,
    class_mechanism,
    forward_one_sided,
    named_targets,
    targeted_all,
    treats_all,
)
from tools.answers import TARGET_TYPES

__all__ = ["acts_directly", "asked_kind", "type_words", "why_none"]


def why_none(state: State, name: Any) -> tuple[str, str]:
    """Why nothing was accepted, and the nearest evidence when the candidates never joined the two named ends.

    For "How does X treat Y?", the retriever records the fewest steps of any chain from X to Y (``chain_hops``)
    when no candidate joins them: None means the graph has no chain at all, a number that the walk stopped first
    (-1: the search for one stopped too). After "what else?" that leaves out what the thread named, it says so.
    """
    if state.intent in (Intent.CAUSES.value, Intent.SIGNS.value) and state.targets:
        y = name(state.targets[0])
        what = "that raises it" if state.intent == Intent.CAUSES.value else "that shows it (a sign or symptom)"
        if state.excluded:
            return f"every link into {y} {what} has already been named in this conversation", ""
        disease = names_disease(state)
        how = "as raising it" if state.intent == Intent.CAUSES.value else "as a sign or symptom of it"
        return f"the knowledge graph links nothing to {y} {how}" + (
            f" (ask \"What drugs treat {y}?\" for what it holds)" if disease else ""), ""
    if state.compared and not state.ranked_answers:  # "compare pegloticase and rasburicase": both act on uric acid
        names = [name(x) for x in state.among]
        who = f"neither {names[0]} nor {names[1]}" if len(names) == 2 else f"none of {listing(names)}"
        if state.intent == Intent.TREATS.value and state.targets:  # "is pegloticase or rasburicase better for asthma?"
            return f"{who} has a verified mechanism for {name(state.targets[0])} in the knowledge graph", ""
        return f"{who} acts directly on a {type_words(state.goal_types)} in the knowledge graph", ""
    if state.excluded and state.goal_types and not state.ranked_answers:
        left_out = next((r["text"] for r in state.references if r.get("how") == "besides"), "")
        if left_out:  # "which of them don't inhibit HMG-CoA reductase?" after a list of statins
            return f"every drug found with a verified mechanism is among {left_out}, which the question leaves out", ""
        return "every answer found with a verified mechanism has already been named in this conversation", ""
    if forward_one_sided(state) and "chain_hops" in state.walk:
        return _why_none_from(state, name)
    if treats_all(state) and not state.ranked_answers:  # "what drugs treat both gout and X?"
        names = [name(y) for y in state.targets]
        return (f"no drug in the knowledge graph has a verified mechanism for each of {listing(names)}; ask about "
                f"one at a time (\"What drugs treat {names[0]}?\")"), ""
    if targeted_all(state) and not state.ranked_answers:  # "which drugs inhibit both xanthine oxidase and COX-1?"
        names = [e["name"] for e in named_targets(state)]
        return (f"no drug in the knowledge graph acts on each of {listing(names)}; ask about one at a time "
                f"(\"What drugs act on {names[0]}?\")"), ""
    if "chain_hops" not in state.walk:
        if state.drug_class and not state.ranked_answers and state.targets:
            none, acts, has = f"none of the {len(state.among)} {state.drug_class} in the knowledge graph", "acts", "has a"
            if len(state.among) == 1:  # "any of them for diabetes?" after one medication ("none of the 1 listed drugs")
                one = " ".join([*state.drug_class.split()[:-1], state.drug_class.split()[-1].removesuffix("s")])
                none, acts, has = f"the one {one}, {name(state.among[0])},", "does not act", "has no"
            if state.intent == Intent.TARGETED_BY.value:  # "which of them block sodium channels?"
                return f"{none} {acts} on {asked_kind(state) or name(state.targets[0])}", ""
            return f"{none} {has} verified mechanism for {name(state.targets[0])}", ""
        if not state.candidates:
            return "no candidate path was found within the walk budget", ""
        if forward_one_sided(state):
            kinds = type_words(state.goal_types)
            return (f"no {kinds} was found near {name(state.sources[0])}",
                    f" Nearest evidence: {sentence(state.candidates[0]['triples'])}.")
        return "the reviewer rejected every candidate path", ""
    x = f"any of the {len(state.sources)} {state.drug_class}" if class_mechanism(state) else name(state.sources[0])
    y, hops = name(state.targets[0]), state.walk["chain_hops"]
    reason = (f"the knowledge graph has no chain of relations from {x} to {y}" + _what_it_holds(state, x, y) if hops is None
              else f"no chain of relations from {x} to {y} was found within the walk budget" +
              (f" (the shortest in the graph has {hops} steps)" if hops > 0 else ""))
    near = state.candidates[0]["triples"] if state.candidates and not _target_unreached(state) else []
    return reason, f" Nearest evidence, which does not reach {y}: {sentence(near)}." if near else ""


def _what_it_holds(state: State, x: str, y: str) -> str:
    """After "no chain from X to Y": the narrower diseases a chain from the drug reaches ("How does rituximab treat
    lymphoma?"), or the questions that say what the graph holds on each ("Why is warfarin used in atrial
    fibrillation?"); "" for a class, or ends that are no drug and disease."""
    narrower = state.walk.get("narrower") or []
    if class_mechanism(state):
        return ""
    if narrower:
        names = [f"{k['name']} ({k['hops']} step{'s' if k['hops'] > 1 else ''})" for k in narrower]
        told = (f"; it has chains from {x} to narrower diseases: {listing(names[:-1])} and {names[-1]}" if len(names) > 1
                else f"; it has a chain from {x} to a narrower disease, {names[0]}")
        return told + f' (ask "How does {x} treat {narrower[0]["name"]}?")'
    if _typed(state, state.sources[0], DRUG_TYPES) and _typed(state, state.targets[0], DISEASE_TYPES):
        return f' (ask "What does {x} treat?" or "What drugs treat {y}?" for what it holds)'
    return ""


def _target_unreached(state: State) -> bool:
    """"Does colchicine inhibit xanthine oxidase?" when the graph holds no chain from the drug to the target: what the
    drug acts on directly says more than the nearest chain, which went elsewhere."""
    return (state.intent == Intent.RELATION.value and len(state.sources) == 1 and len(state.targets) == 1
            and "chain_hops" in state.walk and state.walk["chain_hops"] is None
            and _typed(state, state.sources[0], DRUG_TYPES) and _typed(state, state.targets[0], TARGET_TYPES))


def _typed(state: State, entity: str, types: Any) -> bool:
    """Whether the question linked ``entity`` as one of ``types``."""
    return any((m.get("entity") or {}).get("id") == entity and (m.get("entity") or {}).get("type") in types
               for m in state.mentions)


def asked_kind(state: State) -> str:
    """For a question about every target of a kind ("calcium channels", ``agents.via.family_targets``): the words
    asked and how many entities they cover; for one about the proteins an answer listed, how many; "" for any other
    question."""
    if targeted_all(state):  # "both COX-1 and COX-2": two names, no kind
        return ""
    if any(r.get("how") == "list" and r.get("targets") for r in state.references):  # "which drugs act on them?"
        return f"the {len(state.targets)} listed proteins (any of them)" if len(state.targets) > 1 else ""
    words = next((m["mention"] for m in state.mentions if m.get("slot") == "target" and m.get("entity")), "")
    return f"{words} (any of the {len(state.targets)} entities whose names hold those words)" if len(state.targets) > 1 and words else ""


def type_words(types: list[str]) -> str:
    """Entity types in words: ["Protein", "GeneFamily", "MacromolecularComplex"] → "protein, gene family or
    macromolecular complex"."""
    words = [re.sub(r"(?<=[a-z])(?=[A-Z])", " ", t).lower() for t in types]
    return " or ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def _why_none_from(state: State, name: Any) -> tuple[str, str]:
    """Why "What does X target / treat?" found nothing when its search for the shortest chains found none: the graph
    holds no chain from X to anything of the asked type (thiethylperazine's one curated mechanism is "subclass of
    antiemetic"), or the nearest lies beyond the search."""
    x, kinds = name(state.sources[0]), type_words(state.goal_types)
    hops = state.walk["chain_hops"]
    reason = (f"the knowledge graph has no chain of relations from {x} to any {kinds}" if hops is None else
              f"no {kinds} was found near {x}" + (f" (the nearest is {hops} steps away)" if hops > 0 else ""))
    near = state.candidates[0]["triples"] if state.candidates else []
    return reason, f" Nearest evidence: {sentence(near)}." if near else ""


ACTS_SHOWN = 3
"""A drug's own edges named by :func:`acts_directly`."""


def acts_directly(state: State, kg: Any) -> str:
    """" What the knowledge graph records it acting on directly: pegloticase decreases abundance of uric acid." when
    "What does pegloticase target?" found no protein (the drug acts on a chemical, and the walk to the asked types
    found nothing, so the answer said only that), or when "Does colchicine inhibit xanthine oxidase?" has no chain to
    the target (it told a chain to an NADPH oxidase activator as the nearest evidence); "" for any other question, or a
    drug with no edge of its own."""
    targets = state.intent == Intent.TARGETS.value and not state.candidates
    if not (targets or _target_unreached(state)) or len(state.sources) != 1 or state.among:
        return ""
    edges = list(kg.out_edges(state.sources[0]))[:ACTS_SHOWN]
    steps = "; ".join(f"{kg.name(e.head)} {e.relation} {kg.name(e.tail)}" for e in edges)
    who = "it" if targets else kg.name(state.sources[0])  # the sentence before ends with the target
    return f" What the knowledge graph records {who} acting on directly: {steps}." if edges else ""
