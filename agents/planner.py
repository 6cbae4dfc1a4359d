"""Planner node: intent, entity linking, and clarification by ``interrupt()`` on ambiguity."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from agents.alternatives import alternatives_to
from agents.by_types import NEAREST_NODES, by_types
from agents.clarify import ask_which
from agents.class_acts import class_acts_on
from agents.class_member import class_as_subject
from agents.cohort import cohort_question
from agents.context import Context
from agents.conversation import understand
from agents.described import about_a_disease, about_two
from agents.drug_compare import compared_drugs, compared_for, drugs_named, several_drugs
from agents.followup import Resolution
from agents.free_text import (
    class_request_in,
    described_entity,
    drug_beside_words,
    free_text,
    lexical,
    scan_mentions,
    unnamed_words,
)
from agents.intent import (
    SLOT_TYPES,
    TEMPLATES,
    ParsedQuestion,
    both_listed,
    parse_question,
    split_listed,
)
from agents.kinds import disease_kind
from agents.list_refs import SUBJECT_INTENTS
from agents.list_size import answers_wanted
from agents.not_acting import not_acting_on
from agents.other_side import unnamed_other
from agents.patient_answer import asks_the_record
from agents.record_words import RECORD_CHECK, TAKEN_FOR
from agents.safe_with import asks_safety
from agents.state import DISEASE_TYPES, DRUG_TYPES, LISTED_DRUGS, Intent, State, Status, fresh_turn
from agents.unanswered import chosen_after, pending_record, unanswered
from agents.via import acting_through, family_targets, for_a_disease, none_acts
from agents.what_it_is import drug_held
from core.datasets import DRUG_TYPE_ORDER
from memory.patients import patient_ids_in
from memory.router import MODES
from tools.answers import PAGERANK_ALPHA, PAGERANK_EPS, asked_verb
from tools.linker import GUESSED_METHODS, Candidate, LinkOutcome, LinkStatus, fold
from tools.walker import hops_between

__all__ = ["plan", "start_turn"]

MAX_QUESTION_CHARS = 2000
NO_WORDS = "the question has no words"
CLASS_SOURCES = 12
"""A drug class as a question's subject ("How do statins work?", "How do statins lower cholesterol?"): the walk
starts from at most this many of its drugs, the most connected first, or the nearest to the disease it names."""
GOALS = {
    Intent.TREATS: list(DRUG_TYPE_ORDER),
    Intent.TARGETS: ["Protein", "GeneFamily", "MacromolecularComplex"],
    Intent.INDICATIONS: ["Disease", "PhenotypicFeature"],
    Intent.TARGETED_BY: list(DRUG_TYPE_ORDER),
    Intent.INVOLVED: ["Protein", "GeneFamily", "MacromolecularComplex"],
    Intent.ENTITY: ["Drug", "Disease", "PhenotypicFeature", "Protein"],
    Intent.SIGNS: ["PhenotypicFeature", "Disease", "BiologicalProcess", "Cell", "ChemicalSubstance"],
    Intent.CAUSES: ["OrganismTaxon", "Protein", "GeneFamily", "MacromolecularComplex", "ChemicalSubstance", "Drug",
                    "BiologicalProcess", "MolecularActivity", "Pathway", "Cell", "CellularComponent",
                    "GrossAnatomicalStructure", "PhenotypicFeature", "Disease"],
}
PROCESS_GOALS = ["Pathway", "BiologicalProcess", "MolecularActivity"]
"""What "what pathways are involved in Alzheimer's?" asks for (it listed the drugs for Alzheimer's disease)."""
_PROCESSES = re.compile(r"\b(?:pathways?|processes)\b", re.IGNORECASE)


def goals(intent: Intent, question: str) -> list[str]:
    """The entity types that answer the question: :data:`GOALS` by its intent, :data:`PROCESS_GOALS` when it asks
    which pathways or processes a disease involves."""
    return PROCESS_GOALS if intent in (Intent.INVOLVED, Intent.TARGETS) and _PROCESSES.search(question) else GOALS.get(intent, [])


def _slot_outcome(res: Any, slot: str, text: str, pinned: dict[str, dict[str, Any]]) -> LinkOutcome:
    """Link one slot; a name the follow-up resolver substituted keeps the entity it stood for."""
    ent = pinned.get(fold(text))
    if ent is not None and ent.get("id"):
        return LinkOutcome(text, LinkStatus.LINKED, (Candidate(ent["id"], ent["name"], ent["type"], 1.0, "context"),))
    return res.linker.link(text, SLOT_TYPES[slot])


def _record(slot: str, outcome: LinkOutcome, picked: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"slot": slot, "mention": outcome.mention, "status": outcome.status.value}
    if picked is not None:
        record["entity"] = picked.as_dict() if isinstance(picked, Candidate) else picked
    record["candidates"] = [c.as_dict() for c in outcome.candidates[:5]]
    return record


def _y_slot(parsed: ParsedQuestion) -> str:
    """The slot the question's second name fills: a protein for "which drugs target Y" and "does X inhibit Y?", else a
    disease."""
    return "target" if parsed.intent is Intent.TARGETED_BY or parsed.y_slot == "target" else "disease"


def _link_slots(res: Any, parsed: Any, pinned: dict[str, dict[str, Any]], interactive: bool
                ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Link every slot first; ask about an ambiguous one only when no slot is unknown.

    "How does zorblaxin treat cancer?" must say that zorblaxin is unknown, not ask which cancer.
    """
    slots = [("drug", parsed.drug), (_y_slot(parsed), parsed.disease), ("via", parsed.via),
             *(("disease", x) for x in parsed.left_out), *((_y_slot(parsed), x) for x in parsed.also_of)]
    outcomes = [(slot, lexical(_slot_outcome(res, slot, text, pinned))) for slot, text in slots if text]
    if parsed.intent in (Intent.MECHANISM, Intent.RELATION):
        outcomes = _nearest_first(res, _nearest_entry(res, _apart(outcomes)))
    if any(o.status is LinkStatus.UNKNOWN for _, o in outcomes):
        return [_record(slot, o, o.best if o.status is LinkStatus.LINKED else None) for slot, o in outcomes], {}
    mentions, clar = [], {}
    for slot, o in outcomes:
        picked: Any = o.best if o.status is LinkStatus.LINKED else None
        if o.status is LinkStatus.AMBIGUOUS:
            picked, c = ask_which(res, slot, o, interactive)
            clar = {**clar, **c}  # a later one replaces an earlier one; drugs that act alike stay said
        mentions.append(_record(slot, o, picked))
    return mentions, clar


def _steps(res: Any, head: str, tail: str) -> int:
    """The fewest steps of a chain from ``head`` to ``tail``; :data:`NEAREST_NODES` when none is found that near."""
    hops = hops_between(res.kg, [head], [tail], NEAREST_NODES)
    return hops if hops is not None and hops >= 0 else NEAREST_NODES


def _nearest_first(res: Any, outcomes: list[tuple[str, LinkOutcome]]) -> list[tuple[str, LinkOutcome]]:
    """"How does Gleevec work in leukemia?": the diseases an ambiguous name fits, those the fewest steps from the
    linked drug first (ties and unreachable ones keep the linker's order), so that the clarification offers, and an
    answer without asking takes, Chronic myeloid leukemia (2 steps from imatinib) before Acute lymphoblastic leukemia
    (3), the most connected."""
    drug = next((o.best for slot, o in outcomes if slot == "drug" and o.status is LinkStatus.LINKED), None)
    if drug is None:
        return outcomes
    return [(slot, replace(o, candidates=tuple(sorted(o.candidates, key=lambda c: _steps(res, drug.id, c.id))))
             if slot == "disease" and o.status is LinkStatus.AMBIGUOUS else o) for slot, o in outcomes]


def _apart(outcomes: list[tuple[str, LinkOutcome]]) -> list[tuple[str, LinkOutcome]]:
    """"How does HIV cause AIDS?": a name that fits several entries is not the entry another end of the question names
    (AIDS is Human immunodeficiency virus infection, so HIV is the virus; it asked for a chain from the infection to
    itself). A name left with one entry is linked to it."""
    named = {o.best.id for _, o in outcomes if o.status is LinkStatus.LINKED and o.best is not None}
    out = []
    for slot, o in outcomes:
        rest = tuple(c for c in o.candidates if c.id not in named) if o.status is LinkStatus.AMBIGUOUS else o.candidates
        if rest and len(rest) < len(o.candidates):
            o = replace(o, status=LinkStatus.LINKED if len(rest) == 1 else o.status, candidates=rest)
        out.append((slot, o))
    return out


def _nearest_entry(res: Any, outcomes: list[tuple[str, LinkOutcome]]) -> list[tuple[str, LinkOutcome]]:
    """"Does uric acid cause gout?": a name the graph lists twice as one type (the linker's LINKED with several
    candidates) is read as the entry with the fewest steps to or from the question's other end."""
    ends = [(slot, o.candidates[0].id) for slot, o in outcomes if o.status is LinkStatus.LINKED and len(o.candidates) == 1]

    def steps(slot: str, c: Candidate) -> int:
        other = next((eid for other_slot, eid in ends if other_slot != slot), None)
        if other is None:
            return NEAREST_NODES
        return _steps(res, c.id, other) if slot == "drug" else _steps(res, other, c.id)
    return [(slot, replace(o, candidates=tuple(sorted(o.candidates, key=lambda c: steps(slot, c))))
             if o.status is LinkStatus.LINKED and len(o.candidates) > 1 else o) for slot, o in outcomes]


def _nearest_members(res: Any, members: list[str], diseases: list[str]) -> list[str]:
    """A class's drugs (the most connected first) for a walk into ``diseases``: those with the most PageRank mass
    upstream from the disease first when there are more than ``CLASS_SOURCES`` ("How do antibiotics treat
    pneumonia?" walked from the 12 most connected of 88 antibiotics, none with a mechanism for it); as they are for
    a class as the subject of "what does X target" (no disease)."""
    ppr = res.ranker.ppr
    if len(members) <= CLASS_SOURCES or not diseases or ppr is None:
        return members
    mass = ppr.top(diseases, alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS, direction="in")
    return sorted(members, key=lambda d: -mass.get(d, 0.0))  # stable: the most connected first among equals


_BESIDES = re.compile(r"\s+(?:besides|other than|apart from|aside from|except(?: for)?|but not|that (?:are|is)(?: not|n't)|"
                      r"(?:(?:which|that) )?(?:aren't|isn't|are not|is not))\s+(?:an? )?(?P<z>.+)$", re.IGNORECASE)
"""Drugs a "which drug" question leaves out, after its disease ("… treat hypertension besides beta blockers?")."""


def _besides(res: Any, parsed: ParsedQuestion | None, resolution: Resolution) -> ParsedQuestion | None:
    """"Which drugs treat hypertension besides beta blockers?", "… other than aspirin and ibuprofen?": the class's
    drugs, or the named drugs, are left out of the answer (``Resolution.excluded``; the answer says so). The words were
    read as part of the disease's name ("hypertension besides beta blockers" → Hypertensive disorder)."""
    m = _BESIDES.search(parsed.disease) if parsed is not None and parsed.intent in (Intent.TREATS, Intent.TARGETED_BY) else None
    if parsed is None or m is None:
        return parsed
    left = [c.id for c in res.linker.drug_class(m["z"])] or [
        o.best.id for part in re.split(r",\s*|\s+(?:and|or|nor)\s+", m["z"]) if part.strip()
        if (o := res.linker.link(part.strip(), SLOT_TYPES["drug"])).status is LinkStatus.LINKED and o.best is not None
        and o.best.type in DRUG_TYPES]
    resolution.excluded = [*resolution.excluded, *left]
    resolution.references.append({"text": m["z"], "how": "besides", "drugs": left})
    return replace(parsed, disease=parsed.disease[: m.start()])


def _known(res: Any) -> Any:
    """Whether the linker knows a text by its letters (no guess), as each name a slot lists must be."""
    return lambda text: any(c.method not in GUESSED_METHODS for c in res.linker.link(text).candidates)


def _one_at_a_time(res: Any, question: str, parsed: ParsedQuestion | None
                   ) -> tuple[ParsedQuestion | None, list[str], dict[str, Any]]:
    """A question whose slot lists several names, each one the linker knows by its letters ("How does imatinib and
    dasatinib treat CML?"): answered for the first, the others as questions to ask next (``State.also_asked``). "What
    does X treat besides Y and Z?" leaves out all of them (``ParsedQuestion.left_out``), and "which drugs treat both Y
    and Z?" asks for drugs that treat each (``ParsedQuestion.also_of``: more targets, ``agents.state.treats_all``), and
    "which drugs inhibit both COX-1 and COX-2?" for drugs that act on each (``agents.state.targeted_all``).
    Drugs compared for one disease are all kept (the third item, ``agents.drug_compare.compared_for``)."""
    if klass := compared_for(res, question, parsed, _known(res)):  # "which is better for pain, ibuprofen or acetaminophen?"
        return klass.pop("parsed"), [], klass
    if parsed is None or several_drugs(res, parsed, _known(res)):  # "what do losartan and valsartan target?"
        return parsed, [], {}
    first, slot, rest = split_listed(parsed, _known(res))
    if rest and slot == "disease" and parsed.intent is Intent.INDICATIONS:  # "besides pain and fever": both left out
        return replace(first, left_out=tuple(rest)), [], {}
    if rest and slot == "disease" and parsed.intent in (Intent.TREATS, Intent.TARGETED_BY) and both_listed(parsed):  # each
        return replace(first, also_of=tuple(rest)), [], {}
    template = TEMPLATES.get(parsed.intent.value, "")
    if not rest or not template:
        return parsed, [], {}
    def acts_on(x: str) -> bool:  # "how does ibuprofen work on COX-1 and COX-2?": not "How does ibuprofen treat COX-2?"
        best = res.linker.link(x).best if slot == "disease" and parsed.intent is Intent.MECHANISM else None
        return best is not None and best.type not in DISEASE_TYPES
    def asked(x: str) -> str:  # "What do fibrates treat?" for a class (it was "What does fibrates treat?")
        if parsed.intent is Intent.RELATION and parsed.y_slot == "target" and slot == "disease":
            return f"Does {first.drug} {asked_verb(question)} {x}?"  # "does imatinib inhibit ABL1 and KIT?"
        q = template.format(drug=x if slot == "drug" else first.drug, disease=x if slot == "disease" else first.disease)
        return q.replace(f"does {x} ", f"do {x} ", 1) if slot == "drug" and res.linker.class_name(x) else q
    return first, [f"How does {first.drug} act on {x}?" if acts_on(x) else asked(x) for x in rest], {}


def _ends(mentions: list[dict[str, Any]], intent: Intent) -> tuple[list[str], list[str]]:
    sources: list[str] = []
    targets: list[str] = []
    for m in mentions:
        ent = m.get("entity")
        if not ent or m.get("deferred") or m["slot"] == "via":  # what the drugs act through: State.via
            continue
        if m["slot"] == "drug" or (m["slot"] == "free" and not sources and (ent["type"] in DRUG_TYPES or len(mentions) == 1)):
            sources.append(ent["id"])
        else:
            targets.append(ent["id"])
    if intent is Intent.RELATION and not sources and len(targets) >= 2:
        sources.append(targets.pop(0))
    return sources, targets


_EITHER_WAY = re.compile(r"\bbetween\b.+\band\b|\b(?:linked|related|connected|associated|tied) (?:to|with)\b", re.IGNORECASE)
"""A question that links two names without a direction ("is gout linked to uric acid?", "a link between X and Y")."""


def _into_the_disease(question: str, intent: Intent, mentions: list[dict[str, Any]], sources: list[str],
                      targets: list[str]) -> tuple[list[str], list[str]]:
    """"Is gout linked to uric acid?" walks from uric acid into gout: a question that links two names either way
    (:data:`_EITHER_WAY`) and names the disease first is asked from the other end, since chains run into a disease
    (it was NOT_FOUND, "no chain of relations from Gout to Uric Acid")."""
    if intent is not Intent.RELATION or len(sources) != 1 or len(targets) != 1 or not _EITHER_WAY.search(question):
        return sources, targets
    types = {m["entity"]["id"]: m["entity"]["type"] for m in mentions if m.get("entity")}
    if types.get(sources[0]) in DISEASE_TYPES and types.get(targets[0]) not in DISEASE_TYPES:
        return targets, sources
    return sources, targets


def _kept_to(res: Any, question: str, parsed: Any, intent: Intent, mentions: list[dict[str, Any]], klass: dict[str, Any]
             ) -> tuple[Intent, dict[str, Any]]:
    """The drugs the answer keeps to, beyond a class the question names: those it compares (asked as what they
    target), or those that act the way it says ("… hypertension by inhibiting ACE", ``agents.via``; a mechanism
    question only takes the paths through it first)."""
    mentions[:] = drugs_named(question, intent, mentions, res)  # "compare metformin and insulin": Insulin human
    if linked := klass.pop("linked", None):  # "what do losartan and valsartan target?": both drugs
        mentions[:] = [*linked, *(m for m in mentions if m["slot"] != "drug")]
    klass = klass or compared_drugs(question, intent, mentions, res.kg)
    if parsed is not None and parsed.via and intent in (Intent.TREATS, Intent.MECHANISM):
        klass = acting_through(res, parsed, mentions, klass)
    return (Intent.TARGETS if klass.get("compared") and intent not in (Intent.TREATS, Intent.INDICATIONS) else intent), klass


def _drug_class(res: Any, parsed: Any) -> dict[str, Any]:
    """The drug class a question names and its drugs in the graph, the most connected first: "Which statins lower
    cholesterol?" keeps its answer to them, and in "What do statins target?" and "How do statins lower cholesterol?"
    (``subject``) they are the drugs whose targets or routes are counted; in a mechanism question a drug's own name is
    the drug ("tetracycline", not the tetracyclines). Nothing when the words name no class ("which drugs")."""
    if parsed is None:
        return {}
    if several := several_drugs(res, parsed, _known(res)):  # "what do losartan and valsartan target?"
        return several
    mechanism = parsed.intent in (Intent.MECHANISM, Intent.RELATION) and bool(parsed.disease)  # "how do statins lower cholesterol?",
    # "are statins linked to gout?"
    if mechanism and any(c.type in DRUG_TYPES for c in res.linker.exact(parsed.drug)):
        return {}  # "How does tetracycline treat acne?" asks about the drug, not the tetracyclines
    if (parsed.intent in SUBJECT_INTENTS or mechanism) and parsed.drug and (members := res.linker.drug_class(parsed.drug)):
        return {"drug_class": res.linker.class_name(parsed.drug), "among": [c.id for c in members], "subject": True}
    if not parsed.among or parsed.intent not in (Intent.TREATS, Intent.TARGETED_BY):
        return {}
    among = re.sub(r"^(?:other|more|another) ", "", parsed.among, flags=re.IGNORECASE)  # "what other antibiotics treat acne?"
    members = res.linker.drug_class(among)
    return {"drug_class": res.linker.class_name(among), "among": [c.id for c in members]} if members else {}


def _class_subject(parsed: Any, klass: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The question and the class once a class is its subject ("what do statins target?"): no drug to link; a link to
    a disease ("are statins linked to gout?") is how the class acts on it, as "do statins treat gout?" is, and so is
    "do statins cause diabetes?", after the note that the graph holds no side effects (as for one drug; it asked which
    statin, only to give that note, ``agents.chain_direction.side_effect_topic``)."""
    if not klass.get("subject"):
        return parsed, klass
    return replace(parsed, drug="", intent=Intent.MECHANISM if parsed.intent is Intent.RELATION else parsed.intent), klass


def _invalid(question: str, mode: str) -> str:
    if not question:
        return "the question is empty"
    if len(question) > MAX_QUESTION_CHARS:
        return f"the question is longer than {MAX_QUESTION_CHARS} characters"
    if not any(ch.isalpha() for ch in question):
        return NO_WORDS
    if mode not in MODES:
        return f"unknown retrieval mode {mode!r} (known: {', '.join(MODES)})"
    return ""


def _not_found(res: Any, mentions: list[dict[str, Any]], why: str = "") -> dict[str, Any]:
    """NOT_FOUND that names the unknown term first and suggests the nearest known entities, or for a drug whose name
    carries a class's stem, the class's drugs the graph holds ("semaglutide" was "did you mean Albiglutide,
    Dulaglutide, Liraglutide?"); else says ``why`` ("no drugs that activate or raise …", ``agents.via.none_acts``)."""
    missing = [m for m in mentions if m["status"] == LinkStatus.UNKNOWN.value]
    if not missing:
        return {"status": Status.NOT_FOUND, "error": why or "no known entity in the question"}
    unknown = [m["mention"] for m in missing]
    near = res.linker.suggest(unknown[0], type_weight=SLOT_TYPES.get(missing[0].get("slot", "")))
    suggestions = [{**c.as_dict(), "for": unknown[0]} for c in near]
    names = ", ".join(f'"{u}"' for u in unknown)
    error = f"{names} {'is' if len(unknown) == 1 else 'are'} not in the knowledge graph"
    generic = res.linker.generic_of(unknown[0]) if len(unknown) == 1 else ""  # "Ozempic": semaglutide, not held
    if generic:
        error += f": it is a brand of {generic}, which the knowledge graph does not hold either"
        suggestions = []  # "did you mean ozagrel?"
    if classes := res.linker.classes_named_like(generic or unknown[0]) if len(unknown) == 1 else []:  # "semaglutide"
        held = [c.name for c in res.linker.drug_class(classes[0])[:3]]
        error += (f"; by its name it is one of the {classes[0]}, of which the knowledge graph holds {', '.join(held)} (ask "
                  f"\"How do {classes[0]} work?\")")
    elif suggestions:
        error += "; did you mean " + ", ".join(s["name"] for s in suggestions[:3]) + "?"
    if held := drug_held(res.kg, mentions):  # "How does amoxicillin treat an ear infection?": what amoxicillin acts on
        error += f" {held[0].upper()}{held[1:]}" if error.endswith("?") else f"; {held}"
    return {"status": Status.NOT_FOUND, "error": error, "suggestions": suggestions}


def start_turn(state: State) -> dict[str, Any]:
    """First node of every turn: per-turn fields back to their defaults, the question appended to ``messages``.

    A separate node, so that a clarification asked by the planner shows a clean turn (no answer left
    over from the last one) to every client that reads the thread's state.
    """
    return {**fresh_turn(), "messages": [{"role": "user", "content": " ".join(state.question.split())}]}


def _left_out(intent: Intent, parsed: ParsedQuestion | None, excluded: list[str], targets: list[str], compared: bool
              ) -> tuple[list[str], list[str]]:
    """What the answer leaves out and the question's targets: "what does X treat besides Y?" and "what targets does X
    hit besides BCR-ABL?" leave the second name out and have no target (a comparison's targets are none either)."""
    besides = intent is Intent.INDICATIONS or (intent is Intent.TARGETS and parsed is not None
                                               and parsed.intent is Intent.TARGETS and parsed.y_slot == "target")
    if besides:
        return [*excluded, *targets], []
    return excluded, [] if compared and intent is Intent.TARGETS else targets


def plan(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Start a turn: resolve follow-ups against the thread, parse the intent, link mentions, ask on ambiguity."""
    t0 = time.perf_counter()
    question = " ".join(state.question.split())
    ctx = runtime.context or Context()
    why, history = _askable(state, question, ctx)
    if why:
        return {"status": Status.ERROR, "error": why, "timings": {"planner": _ms(t0)}}
    res = ctx.get_resources()
    understood = understand(question, history, res, ctx)
    if "resolution" not in understood:  # nothing to resolve against, refused, or a question about the thread
        return {**understood, "timings": {"planner": _ms(t0)}}
    resolution = not_acting_on(res, alternatives_to(res, about_a_disease(res, about_two(res, understood["resolution"]))))
    question, pinned = resolution.question, resolution.pinned
    parsed = for_a_disease(class_acts_on(class_as_subject(_parsed(question), res.linker), res.linker), question, res.linker)
    parsed, also, klass = _one_at_a_time(res, question, _besides(res, parsed, resolution))
    klass = klass or _drug_class(res, parsed)
    if parsed is None and (request := class_request_in(res, question)) is not None and (klass := _drug_class(res, request)):
        parsed = request  # "statins for high cholesterol"; "aspirin for headache" is left to the free-text scan
    if not klass and resolution.among:  # "which of them …"; "what do they treat?" makes them the subject
        klass = {"drug_class": LISTED_DRUGS, "among": resolution.among,
                 "subject": parsed is not None and parsed.intent in SUBJECT_INTENTS}
    parsed, klass = _class_subject(parsed, klass)
    found = [] if parsed else scan_mentions(res, question, pinned)  # the names in a question no rule parsed
    parsed = parsed or drug_beside_words(res, question, found) or described_entity(res, question, found)
    clar: dict[str, Any] = {}
    if parsed is not None:
        intent = parsed.intent
        mentions, clar = _link_slots(res, parsed, pinned, ctx.interactive)
    else:
        intent, mentions, also = free_text(question, found)
    intent, mentions = by_types(res, question, intent, mentions, bool(klass))
    mentions = [*mentions, *unnamed_other(res, question, mentions)]  # "does warfarin interact with apixaban?"
    intent, klass = _kept_to(res, question, parsed, intent, mentions, klass)
    sources, targets = _into_the_disease(question, intent, mentions, *_ends(mentions, intent))
    targets = family_targets(res, intent, mentions, targets, klass)  # "which of them block sodium channels?"
    targets = list(dict.fromkeys([*targets, *resolution.targets])) if intent is Intent.TARGETED_BY else targets  # "… on them?"
    excluded, targets = _left_out(intent, parsed, resolution.excluded, targets, bool(klass.get("compared")))
    sources = _nearest_members(res, klass["among"], targets)[:CLASS_SOURCES] if klass.pop("subject", False) else sources
    out: dict[str, Any] = dict(klass)
    out.update({
        "intent": intent.value, "mentions": mentions, "sources": sources, "targets": targets,
        "goal_types": goals(intent, question), "clarification": clar,
        "disease_kind": disease_kind(question) if intent is Intent.INDICATIONS else "",
        "understood_as": resolution.understood if resolution.rewritten else "", "excluded": excluded,
        "references": resolution.references, "also_asked": [*also, *understood.get("also_asked", [])],
        "fallbacks": understood["fallbacks"], "answers_wanted": answers_wanted(question, resolution.references),
    })
    # a patient named now (or referred to: "their labs") is in scope; a caller's patient_id only scopes a
    # question that names no entity ("what medications?"), so a thread's earlier patient never leaks into a new topic
    pid = next(iter(patient_ids_in(question)), None) or resolution.patient_id or (None if sources or targets else state.patient_id)
    out["patient_id"] = pid
    if pid is None and (cohort := cohort_question(question)):  # "How many patients have diabetes?"
        out.update(cohort, also_asked=list(understood.get("also_asked", [])))  # not "How does pegloticase treat gout?"
    elif pid is not None and (not (sources or targets) or asks_the_record(question) and not asks_safety(question)):
        out.update(intent=Intent.PATIENT.value, goal_types=[], sources=[], targets=[], mentions=_checked(res, question, mentions))
    elif any(not m.get("entity") for m in mentions) or not (sources or targets) or none_acts(klass):
        out.update(_not_found(res, mentions or unnamed_words(res, question), none_acts(klass)))  # "and hirsutism?"
    out["timings"] = {"planner": _ms(t0)}
    return out


def _askable(state: State, question: str, ctx: Context) -> tuple[str, list[dict[str, Any]]]:
    """Why the question cannot be asked ("" when it can), and the thread's messages before it (:func:`_history`). A
    number alone is asked when it picks an option of a question left pending ("2" while it asks which diabetes)."""
    why = _invalid(question, state.mode)
    number = why == NO_WORDS and question.isdigit()
    if why and not number:
        return why, []
    res = ctx.get_resources()
    history = _history(state, ctx, res)
    return ("" if number and chosen_after(question, history, res.linker) else why), history


def _history(state: State, ctx: Context, res: Any) -> list[dict[str, Any]]:
    """The thread's messages before this question. A question just before it that got no answer (a clarification
    left pending) gets the record the planner's reading of it without asking makes (``agents.unanswered``), so that
    "what about gout?" after "How does metformin treat diabetes?" is about metformin."""
    history = list(state.messages[:-1])
    if (asked := unanswered(history)) is None:
        return history
    before = State(question=asked, messages=history, user_id=state.user_id, mode=state.mode,
                   patient_id=state.patient_id, patient_scope=state.patient_scope)
    update = plan(before, Runtime(context=replace(ctx, interactive=False, use_llm=False)))
    record = pending_record(update, asked, history, res.kg)
    return [*history, record] if record else history


def _parsed(question: str) -> Any:
    """The question's parse; none for why a patient takes a medication ("why is PAT_001 on Vitamin E?"), which the
    record answers (the mechanism rules would read the patient as the drug and "on Vitamin E" as the disease)."""
    check = RECORD_CHECK.match(question)
    return None if check and check["why"] and patient_ids_in(question) else parse_question(question)


def _checked(res: Any, question: str, mentions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a yes/no question about a patient's record names ("does PAT_001 have diabetes?"), or the condition of
    "what is PAT_005 taking for diabetes?": its mentions, or, when the scan found no whole name, the words after the
    verb linked as one ("diabetes" names no entity as written; the second listed every medication)."""
    m = RECORD_CHECK.match(question) or TAKEN_FOR.search(question)
    if m is None or mentions:
        return mentions
    out = res.linker.link(m["y"])
    best = out.best if out.status is not LinkStatus.UNKNOWN else None
    if best is None and m.re is TAKEN_FOR:  # "what does PAT_001 take for each condition?": the record, condition by condition
        return mentions
    return [{"slot": "free", "mention": m["y"], "status": out.status.value, "entity": best.as_dict() if best else None,
             "candidates": [c.as_dict() for c in out.candidates[:5]]}]


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000
