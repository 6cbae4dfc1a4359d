"""Explainer node: the answer in plain words, the evidence path and citations, within a token budget."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime

from agents.all_listed import all_listed_lead
from agents.answer_notes import (
    NO_EVIDENCE,
    after_scope,
    and_listed,
    for_one_disease,
    guessed_note,
    listing,
    sentence,
    several_indicated,
    steps,
    thread_notes,
    treats_notes,
    two_compared,
)
from agents.chain_direction import (
    causal_note,
    leads_to_topic,
    named_in_plural,
    reversal_topic,
    side_effect_topic,
    through_what_it_causes,
)
from agents.class_acts import class_verdict
from agents.context import Context
from agents.intent import out_of_scope
from agents.kinds import kind_noun, of_kind_asked
from agents.list_size import cut_short
from agents.listed_targets import each_listed_drug
from agents.literature_note import with_literature
from agents.patient_answer import patient_answer, patient_items
from agents.patient_safety import record_beside, record_pairs
from agents.plain import simpler
from agents.qualifiers import as_population
from agents.safe_with import as_safety, chain_between
from agents.scope import CONTRAINDICATIONS, HOW_OFTEN, INTERACTIONS, PROGNOSES, SAFETY, elided_topic
from agents.signs import asks_signs, onward_links, upstream_answer
from agents.state import (
    LISTED_DRUGS,
    Intent,
    State,
    Status,
    class_mechanism,
    named_targets,
    targeted_all,
    treats_all,
    two_ended,
)
from agents.turn_record import turn_record
from agents.two_questions import without_offered
from agents.verdict import asks_yes_no, verdict
from agents.what_it_is import identity_lead
from agents.where import where_lead
from agents.why_listed import listed_lead
from agents.why_none import acts_directly, asked_kind, why_none
from agents.without_walk import answered_without_walk
from core.errors import LLMError
from tools.answers import NOT_TREATING, asked_sign, asked_verb, route_step
from tools.linker import fold
from tools.path_ranker import effect
from tools.walker import SHORTEST_CHAIN

__all__ = ["DATASET_CITATION", "cite", "explain"]

DRUG_ANSWERS = (Intent.TREATS.value, Intent.TARGETED_BY.value)
"""Intents answered by a ranked list of drugs, each with its path."""
START_ANSWERS = (*DRUG_ANSWERS, Intent.INVOLVED.value)
"""Questions whose answers are the paths' first entities (what acts on, or takes part in, the named end)."""
AUTO_OTHERS = 3
"""Other candidates named when an ambiguous name was answered without asking (:func:`_auto_picked`)."""
DATASET_CITATION = {
    "source": "DrugMechDB",
    "title": "DrugMechDB: a curated database of drug mechanisms (Gonzalez-Cavazos et al., Sci Data 10:632, 2023)",
    "url": "https://doi.org/10.1038/s41597-023-02534-z",
}
_RESOLVERS = {
    "MESH": "https://meshb.nlm.nih.gov/record/ui?ui={local}",
    "UniProt": "https://www.uniprot.org/uniprotkb/{local}",
    "GO": "https://amigo.geneontology.org/amigo/term/GO:{local}",
    "HP": "https://hpo.jax.org/browse/term/HP:{local}",
    "DB": "https://go.drugbank.com/drugs/{local}",
    "CHEBI": "https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{local}",
    "reactome": "https://reactome.org/content/detail/{local}",
    "InterPro": "https://www.ebi.ac.uk/interpro/entry/InterPro/{local}",
    "Pfam": "https://www.ebi.ac.uk/interpro/entry/pfam/{local}",
    "taxonomy": "https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id={local}",
    "UBERON": "http://purl.obolibrary.org/obo/UBERON_{local}",
    "CL": "http://purl.obolibrary.org/obo/CL_{local}",
    "PR": "http://purl.obolibrary.org/obo/PR_{local}",
}


def cite(entity_id: str, name: str) -> dict[str, str]:
    """A citation for an entity: its identifier and a resolvable URL."""
    prefix, _, local = entity_id.partition(":")
    url = _RESOLVERS.get(prefix, "https://identifiers.org/{curie}").format(local=local, curie=entity_id)
    return {"source": prefix, "id": entity_id, "title": name, "url": url}


def _budget(text: str, max_tokens: int) -> str:
    words = text.split()
    return text if len(words) <= max_tokens else " ".join(words[:max_tokens]) + " …"


def _template(state: State, paths: list[dict[str, Any]]) -> tuple[str, list[dict[str, str]]]:
    """The answer text and the entities it lists, in order (what "the second one" refers to next turn)."""
    top = paths[0]["triples"]
    intent = state.intent
    if intent == Intent.MECHANISM.value and any(t["relation"] in NOT_TREATING for t in top):
        return ((f"The knowledge graph has no mechanism by which {top[0]['head_name']} treats "
                 f"{top[-1]['tail_name']}; it records a contraindication: {sentence(top)}."), [])
    if intent in (Intent.CAUSES.value, Intent.SIGNS.value):  # the links into the disease, not a walk's path
        return upstream_answer(state, top)
    if class_mechanism(state) and state.ranked_answers:
        return _class_routes(state, top)
    if state.compared and intent == Intent.TREATS.value:  # "which is better for pain, ibuprofen or acetaminophen?"
        return for_one_disease(state)
    if intent == Intent.MECHANISM.value or intent == Intent.RELATION.value:
        hops, x, y = len(top), top[0]["head_name"], top[-1]["tail_name"]
        how = (f"{x} acts on {y} through {steps(hops)}" if _a_drug(state, top[0]["head"]) else
               f"The knowledge graph links {x} to {y} in {hops} step{'s' if hops > 1 else ''}")  # "gout and uric acid"
        return f"{verdict(state, top)}{how}: {sentence(top)}.{causal_note(state, top)}{through_what_it_causes(top)}", []
    ends: list[dict[str, str]] = []
    for p in paths:
        t = p["triples"]
        end = ({"id": t[0]["head"], "name": t[0]["head_name"]} if intent in START_ANSWERS
               else {"id": t[-1]["tail"], "name": t[-1]["tail_name"]})
        if intent == Intent.TARGETS.value:  # how the drug acts on it: "which drugs also inhibit that?" picks by it
            end["sign"] = effect([x["relation"] for x in t])
        if all(e["id"] != end["id"] and e["name"].casefold() != end["name"].casefold() for e in ends):
            ends.append(end)  # one entry per name: two ids named "Hyperuricemia" (MeSH, HPO) were listed twice
    drugs = _subject(state, ends if intent in DRUG_ANSWERS else [])
    if intent == Intent.INDICATIONS.value and state.compared:  # "what do imatinib and dasatinib treat?"
        text, items = several_indicated(state)
        return f"{text} Best evidence: {sentence(top)}.", items
    if intent == Intent.INDICATIONS.value and state.disease_kind:  # "what cancers does X treat?": only those
        return _of_kind(state, drugs if state.drug_class else top[0]["head_name"], ends, top)
    if intent == Intent.TARGETS.value and state.drug_class:  # "what do statins target?": how many act on each
        shared = _held_by(state)
        ends = [e for e in ends if e["id"] in shared] or ends  # not what one drug's longer path reaches
        if state.compared and len(state.among) == 2:  # "compare aspirin and ibuprofen"
            return f"{two_compared(state, ends, shared)} Best evidence: {sentence(top)}.", ends
        return f"{drugs} in the knowledge graph act on: {_counted(ends, shared, len(state.among))}. Best evidence: {sentence(top)}.", ends
    if intent == Intent.INDICATIONS.value and state.drug_class and state.ranked_answers and \
            all("class_drugs" in a["path"]["features"] for a in state.ranked_answers):  # "what are beta blockers for?"
        listed = _counted(ends, _held_by(state), len(state.sources))
        over = f" (counted over the {len(state.sources)} most connected, of {len(state.among)})" \
            if len(state.among) > len(state.sources) else ""
        return f"{drugs} in the knowledge graph have verified mechanisms for: {listed}{over}. Best evidence: {sentence(top)}.", ends
    lead = {
        Intent.TREATS.value: f"{drugs} with a verified mechanism for {_diseases(state, top[-1]['tail_name'])}",
        Intent.TARGETED_BY.value: f"{drugs} that {_acting(state, paths)} {_acted_on(state, top[-1]['tail_name'])}",
        Intent.INVOLVED.value: (f"{'Pathways and processes' if 'Pathway' in state.goal_types else 'Proteins'} on the "
                                f"knowledge graph's curated paths into {top[-1]['tail_name']}, nearest first"),
        Intent.TARGETS.value: _none_that_way(state, ends, top[0]["head_name"]) + _targets_lead(state, top, paths),
        Intent.INDICATIONS.value: (f"{drugs} in the knowledge graph have verified mechanisms for" if state.drug_class
                                   else f"{top[0]['head_name']} {_agreeing(top[0]['head_name'], 'has', 'have')} a verified mechanism for"),
    }.get(intent, f"{top[0]['head_name']} is connected to")
    shown, others = of_kind_asked(state.asked, ends, top[0]['head_name']) if intent == Intent.TARGETS.value else (ends, "")
    return f"{lead}: {listing([e['name'] for e in shown])}. Best evidence: {sentence(top)}.{others}", ends


def _held_by(state: State) -> dict[str, int]:
    """How many of a class's (or the listed) drugs each answer holds (``features["class_drugs"]``)."""
    return {a["id"]: int(a["path"]["features"].get("class_drugs", 0)) for a in state.ranked_answers}


def _counted(ends: list[dict[str, str]], held: dict[str, int], total: int) -> str:
    """"Hypertensive disorder (9 of 12), …": each answer with how many of ``total`` drugs hold it."""
    return listing([f"{e['name']} ({held.get(e['id'], 0)} of {total})" for e in ends])


def _agreeing(name: str, one: str, many: str) -> str:
    """The verb ``many`` after a substance named in the plural ("Steroids", "Estrogens": "Steroids has a verified
    mechanism for" read wrong), else ``one``."""
    return many if named_in_plural(name) else one


FAR_TARGET = 3
"""Steps from which a drug's nearest target is no target of its own ("What does haloprogin target?")."""


def _targets_lead(state: State, top: list[dict[str, str]], paths: list[dict[str, Any]]) -> str:
    """"imatinib acts on" before what a drug targets; when every path of a drug takes :data:`FAR_TARGET` steps or
    more, what it acts on directly first: "What does haloprogin target?" answered "Haloprogin acts on: Calcitonin
    gene-related peptide", four steps away through the plasma membrane it disrupts; and "from there its curated chains
    reach" claimed as the drug's own what other drugs' chains join (metronidazole's DNA, transcription, then BCR/ABL)."""
    x = top[0]["head_name"]
    near = top[0]["relation"] == "has metabolite" or any(len(p["triples"]) < FAR_TARGET for p in paths)
    if near or not _a_drug(state, top[0]["head"]):  # what a drug becomes acts for it (``tools.answers.direct_chains``)
        return f"{x} {_agreeing(x, 'acts', 'act')} on"
    steps = sorted({len(p["triples"]) for p in paths})
    away = f"{steps[0]} steps away" if len(steps) == 1 else f"{steps[0]} to {steps[-1]} steps away"
    return (f"{x} has no direct target in the knowledge graph: it {top[0]['relation']} {top[0]['tail_name']}. The "
            f"nearest proteins on the graph's paths from there, {away}")


def _none_that_way(state: State, ends: list[dict[str, Any]], name: str) -> str:
    """"The knowledge graph records no target that Metformin activates; " before the targets when the question asks for
    one way ("what enzyme does metformin activate?") and none is acted on that way: the answer had listed what
    metformin inhibits as if it were the answer; "" for any other question."""
    asked = asked_sign(state.asked)
    if not asked or state.drug_class or not ends or any(e.get("sign") == asked for e in ends):
        return ""
    return f"The knowledge graph records no target that {name} {asked_verb(state.asked)}s; "


def _acted_on(state: State, shown: str) -> str:
    """What a "which drugs block X?" answer says they act on: the path's end; for every target of a kind ("calcium
    channels", ``agents.via.family_targets``), the words asked and how many entities they cover (it named the first
    path's end, "voltage-gated calcium channel activity", as if that were all); for several named, "both … and …"."""
    if targeted_all(state):
        names = [e["name"] for e in named_targets(state)]
        return f"both {names[0]} and {names[1]}" if len(names) == 2 else f"each of {listing(names)}"
    return asked_kind(state) or shown


def _diseases(state: State, shown: str) -> str:
    """What a "which drug" answer is for: the path's disease, or "both Gout and Hypertensive disorder" for a question
    naming several (``agents.state.treats_all``; each listed drug's path into the first is shown)."""
    if not treats_all(state):
        return shown
    names = [m["entity"]["name"] for m in state.mentions if m.get("entity") and m["entity"]["id"] in state.targets]
    return f"both {names[0]} and {names[1]}" if len(names) == 2 else f"each of {listing(names)}"


def _a_drug(state: State, entity: str) -> bool:
    """Whether a path from ``entity`` is a drug's mechanism: always for "How does X treat Y?"; for a question relating
    two names, when it named ``entity`` as a drug ("the connection between gout and uric acid" is no mechanism), or
    did not name it (a dense seed stands in)."""
    types = {m["entity"]["id"]: m["entity"]["type"] for m in state.mentions if m.get("entity")}
    return state.intent == Intent.MECHANISM.value or types.get(entity, "Drug") == "Drug"


def _class_routes(state: State, top: list[dict[str, str]]) -> tuple[str, list[dict[str, str]]]:
    """"How do statins lower cholesterol?": what the class's drugs act on first on their way into the disease, each
    with how many of the walked drugs go through it (``tools.answers.class_routes``), and the best path of the first."""
    walked, drugs = len(state.sources), _subject(state, [])
    listed = listing([f"{a['name']} ({int(a['path']['features'].get('class_drugs', 0))} of {walked})" for a in state.ranked_answers])
    counted = "" if walked == len(state.among) else f" (counted over the {walked} nearest to it, of {len(state.among)})"
    routed = _route_of(top) in {fold(a["name"]) for a in state.ranked_answers}
    them = "them" if len(state.ranked_answers) > 1 else "it"
    best = "Best evidence" if routed else f"The reviewer accepted no path through {them}; best evidence"  # diuretics
    backwards = through_what_it_causes(top)  # "Antibiotics act on Viruses …" through what viruses cause
    return (f"{drugs} {'reach' if backwards else 'act on'} {top[-1]['tail_name']} in the knowledge graph through: "
            f"{listed}{counted}. {best}: {sentence(top)}.{backwards}"), [{"id": a["id"], "name": a["name"]} for a in state.ranked_answers]


def _route_of(triples: list[dict[str, str]]) -> str:
    """The name of what a class's path acts on first (``tools.answers.route_step``), case-folded; "" for none: the
    routes are told apart by name, as they are counted."""
    step = route_step([t["relation"] for t in triples])
    return fold(triples[step - 1]["tail_name"]) if step else ""


def _route_first(state: State, accepted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For a class's mechanism, the accepted paths with the first through the most taken route the reviewer accepted
    a path through: the answer's evidence is an example of the route it names first ("Diuretics act on … through:
    Solute carrier family 12 member 3 (9 of 12)" cited a path through carbonate dehydratase)."""
    if not class_mechanism(state):
        return accepted
    for route in state.ranked_answers:
        hit = next((p for p in accepted if _route_of(p["triples"]) == fold(route["name"])), None)
        if hit is not None:
            return [hit, *(p for p in accepted if p is not hit)]
    return accepted


def _subject(state: State, ends: list[dict[str, str]]) -> str:
    """What the answer's list is: the drug class it was kept to, "The listed drugs", or by the listed entities'
    types "Drugs", "Chemicals" or "Drugs and chemicals" ("Drugs that inhibit Lipoprotein lipase: Fatty Acids")."""
    if state.drug_class:
        return f"The {state.drug_class}" if state.drug_class == LISTED_DRUGS else state.drug_class[:1].upper() + state.drug_class[1:]
    types = {a["id"]: a.get("type", "") for a in state.ranked_answers}
    chemical = [types.get(e["id"]) == "ChemicalSubstance" for e in ends]
    return "Chemicals" if chemical and all(chemical) else "Drugs and chemicals" if any(chemical) else "Drugs"


def _of_kind(state: State, subject: str, ends: list[dict[str, str]], top: list[dict[str, str]]
             ) -> tuple[str, list[dict[str, str]]]:
    """"What cancers does X treat?": the listed diseases of that kind (``State.disease_kind``), or that the graph
    links X to none, with what it does link X to."""
    ranked = {a["id"] for a in state.ranked_answers}  # the retriever kept them to the kind
    listed = [e for e in ends if e["id"] in ranked]
    verb, yes = "have" if state.drug_class else "has", ("Yes: " if listed else "No: ") if asks_yes_no(state) else ""
    if listed:  # "does methotrexate treat cancer?" opens "Yes: " (since stop 102)
        these = f"these {kind_noun(state.disease_kind)}" if len(listed) > 1 else f"this {kind_noun(state.disease_kind, False)}"
        return (f"{yes}{subject} {verb} verified mechanisms for {these}: {listing([e['name'] for e in listed])}. "
                f"Best evidence: {sentence(top)}."), listed
    return (f"{yes}{'the' if yes else 'The'} knowledge graph links {subject} to no {kind_noun(state.disease_kind, False)}, by the diseases' names; the diseases "
            f"it {verb} verified mechanisms for are: {listing([e['name'] for e in ends])}. Best evidence: {sentence(top)}."), ends


def _acting(state: State, paths: list[dict[str, Any]]) -> str:
    """What the listed drugs do to the target: the question's verb when every listed path has a signed relation
    (``tools.answers.in_direction`` has kept them to its direction), else "act on" (a drug that only binds it)."""
    signed = all(effect([t["relation"] for t in p["triples"]]) for p in paths)
    return asked_verb(state.asked) if signed else "act on"


def _path_citations(triples: list[dict[str, str]], kg: Any) -> list[dict[str, str]]:
    """The dataset, then each entity of the path once, in path order."""
    ids = dict.fromkeys(x for t in triples for x in (t["head"], t["tail"]))
    return [DATASET_CITATION, *(cite(x, kg.name(x)) for x in ids)]


def _cited_answers(answers: list[dict[str, Any]], kg: Any) -> list[dict[str, Any]]:
    """Each ranked answer with the citations of its path's entities."""
    return [{**a, "citations": _path_citations(a["path"]["triples"], kg)} for a in answers]


def _auto_picked(state: State) -> str:
    """With no one to ask (``interactive`` off), say which entity a name that fits several was answered for:
    ""penicillin" names a drug class; answered for ampicillin (others: mezlocillin, Amoxicillin, …)." It was picked
    without a word. Drugs that act alike were never asked about (``agents.clarify.alike``): say which they are."""
    same = state.clarification.get("alike") or {}
    notes = []
    for m in state.mentions:
        if not (ent := m.get("entity")):
            continue
        if same and m.get("mention") == same["mention"]:  # "insulin": the tied drugs have the same relations
            notes.append(f"\"{same['mention']}\" names {len(same['names']) + 1} drugs with the same relations in the "
                         f"knowledge graph ({and_listed([ent['name'], *same['names']])}); answered for {ent['name']}. ")
            continue
        cands = [c["name"] for c in m.get("candidates", []) if c["name"] != ent.get("name")]
        if state.clarification.get("auto") and m.get("status") == "ambiguous" and cands:
            why = "names a drug class" if ent.get("method") == "class" else "fits several entries"
            more = ", …" if len(cands) > AUTO_OTHERS else ""
            notes.append(f"\"{m['mention']}\" {why}; answered for {ent['name']} (others: "
                         f"{', '.join(cands[:AUTO_OTHERS])}{more}). ")
    return "".join(notes)


def _framed(state: State, answer: str, linker: Any = None) -> str:
    """Prefix "Understood as: …" when the question was a resolved follow-up, with a note on a qualifier, and say so
    when the answer leaves out what the thread already named ("which other drugs …", "what else?") or reads a name
    by a guess (:func:`agents.answer_notes.guessed_note`)."""
    answer = guessed_note(state, linker) + _auto_picked(state) + answer
    named = [m["entity"]["name"] for m in state.mentions if state.intent == Intent.INDICATIONS.value and
             m.get("slot") == "disease" and (m.get("entity") or {}).get("id") in state.excluded]
    named = named or [r["text"] for r in state.references if r.get("how") == "besides"]  # "… besides beta blockers?"
    named = named or [m["mention"] for m in state.mentions if state.intent == Intent.TARGETS.value and  # "… besides ABL1?"
                      m.get("slot") == "target" and (m.get("entity") or {}).get("id") in state.excluded]
    alternative = next((r for r in state.references if r.get("how") == "alternatives"), None)
    if named:  # "what does ibuprofen treat besides pain?"
        answer = after_scope(answer, f"Leaving out {', '.join(named[:-1]) + ' and ' if len(named) > 1 else ''}{named[-1]}, as asked. ")
    elif alternative and alternative.get("for"):  # "alternatives to lisinopril for high blood pressure"
        answer = after_scope(answer, f"Other drugs for {alternative['for']}, {alternative['drug_name']} left out. ")
    elif alternative:  # "What are alternatives to ibuprofen?" (``agents.alternatives``)
        answer = after_scope(answer, f"Alternatives by mechanism, {alternative['drug_name']} left out. ")
    elif state.excluded:
        answer = after_scope(answer, "Leaving out those already named in this conversation. ")
    answer += "".join(f" {r['note']}" for r in state.references if r.get("how") == "after")  # "Ask … for those."
    if state.also_asked:  # "How does imatinib and dasatinib treat CML?": one at a time
        asked = " ".join(f"\"{q}\"" for q in state.also_asked)
        answer += f" You also asked: {asked} Ask {'it' if len(state.also_asked) == 1 else 'them'} next."
    if not state.understood_as:
        return answer
    note = ""
    qual = next((r["qualifier"] for r in state.references if r.get("qualifier")), "")
    if qual:
        note = f" DrugMechDB does not distinguish {as_population(qual)}; this is the general mechanism."
    note += "".join(f" {r['note']}" for r in state.references if r.get("how") == "members")  # "which of them is a …"
    if (ref := next((r for r in state.references if r.get("how") == "about"), None)) and not out_of_scope(state.question):
        more = " or ".join(f'"{q}"' for q in ref.get("ask", []))  # "What is gout?"
        note = (" The knowledge graph holds curated drug mechanisms, not descriptions of diseases; this is what it holds"
                + (f" (ask {more} for what it links into it)." if more else "."))
    return f"Understood as: \"{state.understood_as}\"{note} {answer}"


_ALIKE_ASKED = re.compile(r"\b(?:the same|in common|alike|like|similar(?:ly|ities)?|differently|(?:a )?different (?:way|mechanism)"
                          r"|another way|differ|differences?)\b", re.IGNORECASE)
"""A comparison that asks what drugs share or how they differ ("do they all work the same way?", "what do they have in
common?", "does it work like ibuprofen?", "does it work differently?", "how do the first two differ?"): the "Compare …"
it is read as asks nothing the graph does not hold."""


def _scoped(state: State, answer: str, status: Any, kg: Any) -> str:
    """Say so when the question asks for what the graph does not hold ("What are the side effects of ibuprofen?"),
    before what it does hold; a patient's record may hold it, so patient questions are left alone but for safety, which
    no record holds ("is any of it risky?" after a record), and so are counts the graph answers ("how many diseases do
    you know?", ``agents.counts``)."""
    ours = state.understood_as.startswith("Compare ") and _ALIKE_ASKED.search(state.question)  # ranks nothing
    before = next((str(m.get("question", "")) for m in reversed(state.messages) if m.get("role") == "assistant"), "")
    asked = without_offered(state.question, state.also_asked)  # not the note of a question offered next
    topic = (out_of_scope(asked) or elided_topic(asked, before)  # "which one is least likely to?"
             or ("" if ours else out_of_scope(state.understood_as)) or side_effect_topic(state)
             or leads_to_topic(state) or reversal_topic(state)
             or (PROGNOSES if state.intent == Intent.TREATS.value and asks_signs(state.asked) else ""))
    topic = as_safety(topic, state)  # "can I take aspirin with a stomach ulcer?": with a disease, not another drug
    topic = CONTRAINDICATIONS if any(r.get("how") == "avoided" for r in state.references) else topic  # "… asthmatics avoid?"
    if state.intent in (Intent.PATIENT.value, Intent.COUNT.value, Intent.DISEASES.value, Intent.DISEASES_OF.value,
                        Intent.SELECTIVE.value, Intent.GLOSSARY.value, Intent.DISEASE_KINDS.value, Intent.HISTORY.value):  # "more selective for": its answer says what
        # the graph lacks, as the glossary's does ("what is pharmacokinetics?")
        patient = state.intent == Intent.PATIENT.value  # no record holds safety or interactions
        topic = topic if topic in (SAFETY, INTERACTIONS, CONTRAINDICATIONS) and patient else ""  # "is any of it contraindicated?"
    if not topic or (topic == HOW_OFTEN and state.intent == Intent.COHORT.value):  # the records count how often
        return answer
    if state.intent == Intent.SIGNS.value and status == Status.ANSWERED:  # the graph's signs, the answer says what they are
        return answer
    lead = f"The knowledge graph holds curated drug mechanisms, not {topic}."
    if topic == SAFETY and status == Status.ANSWERED:  # "Is ibuprofen safe for PAT_003?": her record beside the drug
        answer += record_beside(state, kg) + record_pairs(state, kg)
    answer += chain_between(state, kg) if topic in (INTERACTIONS, SAFETY) and status == Status.ANSWERED else ""  # warfarin, vitamin K
    answer = onward_links(state, kg) + answer if topic == PROGNOSES and status == Status.ANSWERED else answer  # "… lead to?"
    return f"{lead} What it holds: {answer}" if status == Status.ANSWERED else f"{lead} {answer}"


def explain(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Write the answer from accepted evidence only; NOT_FOUND when nothing was accepted."""
    t0 = time.perf_counter()
    ctx = runtime.context or Context()
    out, items, kg = _explain(state, ctx)
    out = with_literature(state, out, ctx.get_resources())
    res, status = ctx.get_resources(), out.get("status")
    out["answer"] = _framed(state, identity_lead(state, status, res.linker) + where_lead(state, status, res.kg)
                            + listed_lead(state, status) + all_listed_lead(state, status, res.kg) + _scoped(state, out.get("answer", ""), status, res.kg), res.linker)
    out["messages"] = [turn_record(state, out, items, kg)]
    out["timings"] = {"explainer": (time.perf_counter() - t0) * 1000}
    return out


def _explain(state: State, ctx: Context) -> tuple[dict[str, Any], list[dict[str, str]], Any]:
    if state.status in (Status.ERROR, Status.NOT_FOUND):
        msg = state.error or "nothing to answer"
        answer = f"{NO_EVIDENCE}: {msg}." if state.status is Status.NOT_FOUND else f"Error: {msg}."
        return {"answer": answer.replace("?.", "?")}, [], None
    if (direct := answered_without_walk(state, ctx)) is not None:  # the thread, small talk, tables, counts
        return direct
    if state.intent == Intent.PATIENT.value:
        out = patient_answer(state, datetime.fromtimestamp(ctx.clock(), tz=UTC).date())
        out["answer"] = _budget(out["answer"], ctx.max_answer_tokens)
        res = ctx.get_resources()
        return out, patient_items(state, res.linker) if out["status"] == Status.ANSWERED else [], res.kg
    accepted = [state.candidates[i] for i in state.review.get("accepted", []) if i < len(state.candidates)]
    res = ctx.get_resources()
    if not accepted:
        reason, nearest = why_none(state, res.kg.name)
        nearest = nearest or acts_directly(state, res.kg)  # "What does pegloticase target?": uric acid
        told = any(r.get("how") == "members" for r in state.references)  # "which of them is a biguanide?" is answered
        return {"status": Status.ANSWERED if told else Status.NOT_FOUND, "answer": f"{NO_EVIDENCE} was found: {reason}.{nearest}",
                "error": None if told else reason}, [], None
    accepted = _route_first(state, accepted)
    best = accepted[0]
    answer, items = each_listed_drug(state, res.kg, best["triples"]) or _template(state, accepted)  # a patient's medications
    answer = class_verdict(state, res.kg, res.linker) + answer  # "do statins target …?": how many of them do
    if best.get("features", {}).get(SHORTEST_CHAIN) and two_ended(state):  # "what does X treat?" is often that far
        answer += (f" (A shortest chain of {best['hops']} steps in the graph, found after the walk joined none: a lead "
                   "to check, not a mechanism the walk ranked.)")
    fallbacks: list[dict[str, str]] = []
    if ctx.use_llm and res.settings.llm.enabled:
        try:
            answer = _phrase_with_llm(res, state.asked, answer, accepted)
        except LLMError as exc:
            fallbacks.append({"component": "explainer.llm", "reason": str(exc), "fallback": "template"})
    citations = _path_citations(best["triples"], res.kg)
    ranked = _cited_answers(state.ranked_answers, res.kg)
    if ranked and state.intent in START_ANSWERS and not state.compared:  # compared drugs are not ranked
        answer = f"{answer} Ranked: " + "; ".join(f"{a['rank']}. {a['name']}" for a in ranked) + "." + \
            cut_short(state.answers_wanted, len(ranked))
        answer += treats_notes(state, ranked, res.kg, res.linker)
        items = [{"id": a["id"], "name": a["name"]} for a in ranked]
    answer = simpler(state, answer, best, res.kg)  # "can you explain that more simply?"
    answer += thread_notes(state, accepted, citations)  # "show me the sources", "are there other paths?"
    return {
        "status": Status.ANSWERED,
        "ranked_answers": ranked,
        "answer": _budget(answer, ctx.max_answer_tokens),
        "evidence": best["triples"],
        "evidence_text": best["text"],
        "citations": citations,
        "fallbacks": fallbacks,
    }, items, res.kg


def _phrase_with_llm(res: Any, question: str, draft: str, paths: list[dict[str, Any]]) -> str:
    from tools.llm import LLMClient

    evidence = "\n".join(p["text"] for p in paths[:3])
    prompt = (
        "Answer the question in two or three plain sentences using ONLY the evidence below. "
        "Do not add facts that are not in the evidence.\n"
        f"Question: {question}\nEvidence:\n{evidence}\nDraft answer: {draft}\nAnswer:"
    )
    text = LLMClient(res.settings.llm).complete(prompt, max_tokens=200).strip()
    if not text:
        raise LLMError("LLM returned an empty answer")
    return text
