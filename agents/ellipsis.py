"""Ellipsis in a follow-up: "what about gout?" repeats the thread's last question with the slot that gout's type fills
replaced, "and in children?" with a population qualifier, "tell me more" the last mechanism again. Split from
``agents.followup``, which resolves the rest (pronouns, ordinals, lists) and calls :func:`ellipsis`."""

from __future__ import annotations

import re
from typing import Any

from agents.drug_topic import drug_topic
from agents.focus import Focus
from agents.intent import CAUSING, SLOT_TYPES, TEMPLATES
from agents.listed_scope import of_the_listed
from agents.qualifiers import PATIENT_WORDS, QUALIFIERS, TRAILING_QUALIFIER
from agents.record_words import RECORD_CHECK
from agents.resolution import Linker, Resolution
from agents.safe_with import condition_qualifier, safe_again, taken_with_another
from agents.scope import out_of_scope
from agents.slot_swaps import drug_named, entity_of, modifier_swap, place_swap
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent
from agents.topic_again import same_topic_for
from tools.answers import asked_verb
from tools.linker import fold, guessed
from tools.places import PLACE_TYPES
from tools.word_forms import condition_named

__all__ = [
    "NEXT_ITEMS",
    "ORDINAL_ALONE",
    "ORDINAL_REF",
    "does_that",
    "drug_named",
    "ellipsis",
    "entity_of",
    "is_drug",
    "modifier_swap",
    "standalone",
]

ORDINAL_REF = re.compile(
    r"\b(?:(?:the|her|his|their|my|your)\s+)?(first|1st|top|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+"
    r"(?:one|drug|medication|medicine|protein|target|disease|condition|result|option|answer|item|of (?:those|these|them))\b|"
    r"\bthe\s+(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)(?=\W*$|\s+(?:works?|acts?|treats?|targets?|does|do|"
    r"helps?|blocks?|inhibits?|compares?|differs?)\b)", re.IGNORECASE)  # "… about the third", "how does the first work?"
ORDINAL_ALONE = re.compile(
    r"^(?:(?:what|how)\s+about\s+)?(?P<ref>(?:the\s+)?(?P<o>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)"
    r"(?:\s+one)?)$", re.IGNORECASE)
"""An ordinal and nothing more ("and the third?", "what about the second?"): the last question, with that item."""

_WHAT_FOR = re.compile(r"^(?:what|which)(?: (?:kinds? of |types? of )?(?:diseases?|conditions?|illness(?:es)?|disorders?|"
                       r"indications?|uses?|problems?))?$", re.IGNORECASE)
"""A slot that asks which diseases ("for what disease?", "and for which conditions?")."""
_ELLIPSIS = (
    re.compile(r"^(?:what|how)\s+about\s+(?P<z>.+)$", re.IGNORECASE),
    re.compile(r"^(?:and\s+)?(?:for|in|with)\s+(?P<z>.+)$", re.IGNORECASE),
    re.compile(r"^(?:and\s+)?of\s+(?!(?:them|those|these|it|that|this|each|all|both|the)\b)(?P<z>[^,]+)$", re.IGNORECASE),  # "and of dasatinib?"
    re.compile(r"^(?:(?:and |but |so )?(?:is|was|would) (?:that|it|this) (?:be )?(?:the same|similar|true|so|any different)|"
               r"(?:and |but |so )?(?:does|would) (?:that|the same|this) (?:apply|hold|go)|(?:and |so )?(?:the )?same(?: thing)?)"
               r"\s+(?:for|with|in|to)\s+(?P<z>.+)$", re.IGNORECASE),  # "is that the same for naproxen?"
    re.compile(r"^(?P<z>.+?)\s+instead$", re.IGNORECASE),
    re.compile(r"^(?:(?:and|but|so)\s+)?why\s+(?:not\s+)?(?!(?:is|are|was|were|does|do|did|would|should|can|could|will|so|"
               r"that|this|it|they|them|not)\b)(?P<z>[^,]+?)$",
               re.IGNORECASE),  # "and why carbidopa?" after why levodopa is used for Parkinson's (it was carbidopa alone)
)
_ANY_RECORD = re.compile(r"^(?:any|got any|are there any)\s+(?P<z>(?:recent |latest )?(?:labs?|lab results|tests?|test results|"
                         r"results|conditions?|diagnos[ie]s|medications?|medicines?|meds|drugs?|prescriptions?|allerg(?:y|ies)|"
                         r"vaccinations?|immuni[sz]ations?|surger(?:y|ies)|operations))$", re.IGNORECASE)
""""any labs?" after a patient's record: that part of the record (it was NOT_FOUND, '"any labs" is not in the knowledge
graph'), or what the records never hold ("any allergies?": the answer says so; it was NOT_FOUND, "no known entity"); a
thread about anything else reads it as before ("any side effects?")."""
NEXT_ITEMS = re.compile(r"^(?:(?:can you |please )?(?:show|give|list) me |(?:what|which) (?:are|about) |(?:are|is) there (?:any )?|"
                        r"(?:do you have|have you got) (?:any )?)?(?:(?:some |a few )?more"
                        r"(?: please)?|(?:the )?(?:next|rest)(?: (?:five|5|few|ones?|drugs?|items?|page))?(?: of (?:them|the list))?)$|"
                        r"^keep going$", re.IGNORECASE)
"""The next items right after a list ("show me more", "the next five", "more", "are there more?": they were NOT_FOUND, and "more" retold
the first item's mechanism); after anything else "more" asks for the mechanism again, as "tell me more" always does
(:data:`_AGAIN`)."""
_AGAIN = re.compile(
    r"^(?:(?:can|could) you |please )?(?:why|why not|how|how so|why is that|why is that not|why not then|how is that|how does (?:that|this) work|"
    r"(?:explain|describe|elaborate on|tell me more about|walk me through)(?: (?:that|this|it|the mechanism|how|again|"
    r"more|that mechanism|the pathway|to me|once more))*|(?:tell|show) me more|more|go on|details|more details|"
    r"what is the mechanism|what's the mechanism|what is the pathway)(?: please)?$", re.IGNORECASE)
def standalone(intent: str, drug: dict[str, Any] | None, disease: dict[str, Any] | None) -> str:
    """The standalone question for an intent and its slots; empty when a slot it needs is missing. A drug is asked
    how it acts on a protein, not how it treats one (after "Which drugs inhibit ABL1?", "how does the second one
    work?"), and a protein how it acts on a disease (after "Which genes are involved in gout?")."""
    if intent == Intent.COHORT.value:  # "what about gout?" after "How many patients have depression?"
        return _counted(drug, disease)
    template = TEMPLATES.get(intent) or (TEMPLATES["mechanism"] if drug and disease else
                                         TEMPLATES["targets"] if drug else TEMPLATES["treats"] if disease else "")
    if template in (TEMPLATES["mechanism"], TEMPLATES["relation"]) and (
            (disease and disease.get("type") and disease["type"] not in DISEASE_TYPES) or (drug and drug.get("type") and drug["type"] not in DRUG_TYPES)):
        template = "How does {drug} act on {disease}?"  # a protein is acted on, and acts: neither treats
    need_drug, need_disease = "{drug}" in template, "{disease}" in template
    if not template or (need_drug and not drug) or (need_disease and not disease):
        return ""
    return template.format(drug=drug["name"] if drug else "", disease=disease["name"] if disease else "")


def _counted(drug: dict[str, Any] | None, disease: dict[str, Any] | None) -> str:
    """The question about many patients that a drug and a condition make."""
    if drug and disease:
        return f"How many patients with {disease['name']} take {drug['name']}?"
    if drug:
        return f"How many patients take {drug['name']}?"
    return f"How many patients have {disease['name']}?" if disease else ""


def is_drug(ent: dict[str, Any] | None) -> bool:
    return bool(ent) and ent["type"] in DRUG_TYPES  # type: ignore[index]


_IN_FOR = re.compile(r"^(?:(?:what|how) about |and )?(?:in|for)\s", re.IGNORECASE)
"""An ellipsis whose name follows "in" or "for" ("what about in PCOS?"): a condition, when the linker knows no name."""


def asked_again(focus: Focus) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The drug and the disease (or target) that "how?", "why?" or "tell me more" ask about again: the latest turn's,
    or, when it named one of them, the first that its answer listed for the other ("What drugs treat gout?":
    pegloticase; "what does aspirin treat?": Fever; "what does aspirin target?": its first target). None when that turn
    had neither. An older turn's drug or disease no longer fills the gap: "tell me more" after "what does aspirin
    treat?" was "How does Aspirin treat Chronic myeloid leukemia?", and "how?" after "What drugs treat gout?" asked how
    an earlier turn's imatinib treats gout."""
    turn = focus.turn
    drug, end, items = turn.get("drug"), turn.get("disease") or turn.get("target"), turn.get("items") or []
    first = items[0] if items and isinstance(items[0], dict) and items[0].get("id") else None
    if first and focus.intent in (Intent.AMOUNTS.value, Intent.PRODUCTS.value):  # "why?" after "what does furosemide
        maker = drug or end  # lower?": how it acts on the first chemical listed (a chemical, read as a drug, was none)
        return (maker, first) if maker else None
    if drug and not end and first and first.get("type") not in DRUG_TYPES:  # what it treats, or its first target
        end = first
    elif end and not drug and first and first.get("type") in DRUG_TYPES:
        drug = first
    return (drug, end) if drug and end else None


_WHY = re.compile(r"^(?:(?:but|and|so|ok|okay),? )?(?:why|why not|how so|why is that|why is that not|why not then|how come)[?.!]*$",
                  re.IGNORECASE)


def _why_again(res: Resolution, q: str, focus: Focus) -> str | None:
    """"why not?" right after an answer that said what the knowledge graph does not hold ("is lisinopril safe in
    pregnancy?"; it was "How does lisinopril act on Angiotensin-converting enzyme?"), or that found nothing ("why?" after
    "can it cause lactic acidosis?" was `NOT_FOUND`, "no known entity in the question"): that question again, its
    answer saying why; after an answer that a disease is none of the drug's uses as medpath finds them ("does imatinib
    treat hypertension?", ``agents.known_use``): what the drug treats (it was the chain into the disease again). None
    otherwise."""
    turn = focus.turn
    asked, drug = str(turn.get("question") or ""), turn.get("drug")
    if not _WHY.match(q) or not asked:
        return None
    if out_of_scope(asked) or str(turn.get("status", "")).endswith("NOT_FOUND"):  # its answer said why
        res.references.append({"text": q, "how": "ellipsis"})
        res.pinned.update(turn.get("named") or {})
        return asked
    if turn.get("known_use") is False and drug:
        res.references.append({"text": q, "how": "ellipsis", "entity": drug})
        res.pinned[fold(drug["name"])] = drug
        return f"What does {drug['name']} treat?"
    return None


_WHICH_NOT = re.compile(r"^(?:and |so |but |ok,? )?(?:which|what)(?: ones?| drugs?| of (?:them|those|these))? (?:don't|do not)"
                        r"(?: work| help)?[?.!]*$", re.IGNORECASE)
"""Which drugs do not do what the last list's do ("which ones don't?" after the drugs for gout)."""


def ellipsis(res: Resolution, q: str, focus: Focus, linker: Linker) -> str | None:
    """'what about gout?', 'and in children?', 'does it work?': the last question with one slot changed. After "which
    drugs block histamine?", "and serotonin?" is what they act on, in the same direction (it kept Histamine and read
    serotonin as a drug: "Which drugs act on Histamine?")."""
    if ORDINAL_REF.search(q) or ORDINAL_ALONE.match(q):  # "what about the second one for COPD?": the ordinal's turn
        return None
    if (both := _which_not(res, q, focus) or _also_having(res, q, focus) or _why_again(res, q, focus)) is not None:  # "what about if I also have
        return both  # diabetes?"; "why not?" after a note that the graph does not hold it
    if _AGAIN.match(q) and (ends := asked_again(focus)) is not None:
        drug, disease = ends
        res.references.append({"text": q, "how": "ellipsis", "entity": drug})
        res.pinned.update({fold(drug["name"]): drug, fold(disease["name"]): disease})
        if focus.intent == Intent.RELATION.value and re.search(rf"\b{CAUSING}\b", focus.question, re.IGNORECASE):
            return f"How does {drug['name']} cause {disease['name']}?"  # "why?" after "does lisinopril cause cough?"
        return standalone("mechanism", drug, disease)
    for rx in (*_ELLIPSIS, *((_ANY_RECORD,) if focus.intent == "patient" else ())):
        m = rx.match(q)
        if m and (of_class := _of_another_class(res, q, m.group("z").strip(), focus, linker)) is not None:
            return of_class
        if m and not focus.intent and focus.named_class and focus.latest_question and (
                qual := QUALIFIERS.match(m.group("z").strip())):  # "what about in pregnancy?" after "are statins safe?"
            res.qualifier = qual.group(1)
            res.references.append({"text": q, "how": "ellipsis", "qualifier": qual.group(1), "class": focus.named_class})
            return focus.latest_question[:1].upper() + focus.latest_question[1:]
        if not m or focus.empty or not focus.intent:
            continue
        if safe := next(filter(None, (f(res, q, m.group("z"), focus, linker) for f in (same_topic_for, safe_again, taken_with_another))), None):
            return _qualifier_kept(res, safe, linker)  # "what about lisinopril?" after its side effects, "… kidney disease?"
        z = re.sub(r"^(?:for|in|with|on)\s+(?=\S)", "", m.group("z").strip(), flags=re.IGNORECASE) \
            if not QUALIFIERS.match(m.group("z").strip()) else m.group("z").strip()
        if re.match(r"^(?:its|their|his|her)\b|^(?:it|that|this|they|them|these|those)$|^(?:how|when|why|where|who)\b.*\b(?:it|them)$", z,
                    re.IGNORECASE) or ORDINAL_ALONE.match(z):  # "for how long can you take it?" asks a question of its own
            return None  # "what about its targets?", "what about the second?": a possessive or an ordinal, resolved as one
        if (topic := drug_topic(res, q, z, focus)) is not None:  # "and what about side effects?" after a drug
            return topic
        if _WHAT_FOR.match(z) and focus.drug and focus.drug.get("type") in DRUG_TYPES:  # "for what disease?" after a
            res.references.append({"text": q, "how": "ellipsis", "entity": focus.drug})  # drug's targets: what it treats
            res.pinned[fold(focus.drug["name"])] = focus.drug  # (it was "How does donepezil treat what disease?")
            return f"What does {focus.drug['name']} treat?"
        if focus.intent == "patient" and focus.patient_id and PATIENT_WORDS.search(z):
            res.patient_id = focus.patient_id
            res.references.append({"text": q, "how": "ellipsis", "patient_id": focus.patient_id})
            return f"What are {focus.patient_id}'s {z}?"
        qual = QUALIFIERS.match(z)
        # "and in children?"; "and in the kidney?" after how metformin works in the liver
        if qual or _in_place(m.string[m.start(): m.end("z")], z, focus, linker):
            return _qualified(res, q, focus, qual.group(1) if qual else z)
        # "and for migraine?" after "compare the first two": the two, for migraine
        if focus.compared and focus.intent != "treats" and _is_disease(z, linker):
            return _compared_for(res, q, z, focus, linker)
        if (listed := of_the_listed(res, q, z, focus, linker)) is not None:  # "what about angina?" after "which of
            return listed  # them treat heart failure?": which of those drugs treat it
        kept_class = _class_ellipsis(res, q, z, focus, linker) if focus.intent == "treats" or focus.by_class else None
        if kept_class is not None:
            return kept_class
        if focus.intent in _CLASS_ASKS and (name := linker.class_name(z)):
            res.references.append({"text": q, "how": "ellipsis", "class": name, "replaced_by": z})
            return _CLASS_ASKS[focus.intent].format(name)  # "what about the statins?" after atorvastatin's targets
        return _replaced(res, q, m, z, focus, linker)
    return None


def _qualifier_kept(res: Resolution, text: str, linker: Linker) -> str:
    """``text``, with the reference to the population or condition it keeps from the last question ("Is Rosuvastatin
    safe in pregnancy?" for "what about rosuvastatin?"), so that the answer says the graph does not distinguish it,
    as it said of the last one (the note was dropped), and asked without it, as the last one was ("is glipizide safe in
    kidney disease?" was told as a chain to the Kidney)."""
    population = TRAILING_QUALIFIER.search(text)
    qual = population or condition_qualifier(text, linker)
    if not qual or res.qualifier or any(r.get("qualifier") for r in res.references):
        return text
    res.qualifier = qual[1]  # the question without it, as the last one was asked ("kidney disease" linked the Kidney)
    res.references.append({"text": qual.group(0), "how": "qualifier", "qualifier": qual[1], "safety": population is None})
    return text[: qual.start()].rstrip(" ,") + "?"


def _which_not(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which drugs don't treat Gout?" for "which ones don't?" after what treats gout (it was NOT_FOUND, "no known entity
    in the question"); None for any other question."""
    if not _WHICH_NOT.match(q) or focus.intent != "treats" or focus.disease is None:
        return None
    res.references.append({"text": q, "how": "ellipsis", "entity": focus.disease})
    res.pinned[fold(focus.disease["name"])] = focus.disease
    return f"Which drugs don't treat {focus.disease['name']}?"


_ALSO_HAVING = re.compile(r"^(?:(?:and|so|but|ok) )?(?:(?:what|how) about |what )?(?:if|when) (?:i|she|he|they|you|we|the patient) "
                          r"(?:(?P<a>also) )?(?:have|has|had|got|suffer from|suffers from) (?:(?P<b>also) )?(?P<y>[^?.!]+?)"
                          r"(?P<c> too| as well)?[?.!]*$", re.IGNORECASE)
"""A second disease a person also has, after the drugs for one ("what about if I also have diabetes?")."""


def _also_having(res: Resolution, q: str, focus: Focus) -> str | None:
    """"What about if I also have diabetes?" after "What drugs treat hypertension?": "What drugs treat both
    Hypertensive disorder and diabetes?" (it was NOT_FOUND: '"if I also have diabetes" is not in the knowledge
    graph'). None without "also" (or "too"), or when the thread's last question did not ask for a disease's drugs."""
    m = _ALSO_HAVING.match(q)
    if m is None or not (m["a"] or m["b"] or m["c"]) or focus.intent != "treats" or focus.disease is None:
        return None
    res.references.append({"text": q, "how": "ellipsis", "entity": focus.disease})
    res.pinned[fold(focus.disease["name"])] = focus.disease
    return f"What drugs treat both {focus.disease['name']} and {m['y']}?"


def _qualified(res: Resolution, q: str, focus: Focus, qualifier: str) -> str | None:
    """The last question again, with a qualifier the graph does not distinguish ("and in children?"); None when there
    is no last question to ask again."""
    drugs = [d for d in focus.compared if d.get("type") in DRUG_TYPES]
    if len(drugs) >= 2:  # "and in children?" after "compare ibuprofen and naproxen": the two again (it was the first one's
        res.pinned.update({fold(d["name"]): d for d in drugs})  # targets in children)
        base = "Compare " + ", ".join(d["name"] for d in drugs[:-1]) + f" and {drugs[-1]['name']}"
    else:
        base = standalone(focus.intent, focus.drug, focus.disease)
    if not base:
        return None
    res.qualifier = qualifier
    res.references.append({"text": q, "how": "ellipsis", "qualifier": qualifier})
    res.pinned.update({fold(ent["name"]): ent for ent in (focus.drug, focus.disease) if ent})
    return base


def _in_place(written: str, z: str, focus: Focus, linker: Linker) -> bool:
    """Whether "in …" names a place in the body after a question about a drug, for a qualifier ("and in the kidney?"
    after "how does metformin work in the liver?" asked how metformin acts on the kidney), unless the thread's disease
    has a place that this one replaces ("and in the ovary?" after lung cancer: :func:`place_swap`)."""
    place = linker.link(z).best if focus.drug and re.search(r"\b(?:in|on)\s+\S", written, re.IGNORECASE) else None
    return place is not None and place.type in PLACE_TYPES and place_swap(z, focus, linker) is None


def _replaced(res: Resolution, q: str, m: re.Match[str], z: str, focus: Focus, linker: Linker) -> str | None:
    """The last question with the slot that ``z`` fills replaced by it (``m``: the ellipsis matched in ``q``)."""
    if (swapped := modifier_swap(z, focus, linker) or place_swap(z, focus, linker)) is not None:  # "what about type 2?"
        z = swapped["name"]
    out = linker.link(z)  # "what about lactic acidosis?": a condition the graph lacks, not the drug lactic acid it guessed
    top = out.candidates[0] if out.candidates else None
    if top is None or top.type in DRUG_TYPES and guessed(z, top.name, top.method) and condition_named(z):
        # "what about in PCOS?" names a disease the graph lacks, not a drug
        slot_drug = focus.intent in ("targets", "indications") and not _IN_FOR.search(q[:m.start("z")] + m["z"][:4])
        new = {"id": "", "name": z, "type": ""}
    else:
        new = entity_of(out.candidates[0])  # a chemical after "which drugs block histamine?" is what they act on
        slot_drug = is_drug(new) and not (focus.intent == "targeted_by" and new["type"] != "Drug") or (
            focus.intent in ("mechanism", "cohort") and new["type"] not in DISEASE_TYPES and bool(linker.headed_by(z, DRUG_TYPES)))
        # "what about insulin?" after how metformin treats diabetes (or how many patients take it): the protein whose
        # name heads drugs' names
        if out.status.value == "ambiguous":  # "what about cancer?": the words stay, and the planner asks which one
            new = {**new, "id": "", "name": z}  # (it was the first candidate, Breast Neoplasms, without a word)
        elif slot_drug and not is_drug(new):  # "what about insulin?": the drugs named so, linked as a direct question
            new = {"id": "", "name": z, "type": ""}  # links them (it was the protein, answered for insulin glulisine)
    if focus.intent == "patient" and focus.patient_id and new.get("id") and RECORD_CHECK.match(focus.latest_question or ""):
        res.patient_id = focus.patient_id  # "what about hypertension?" after "does PAT_008 have diabetes?" (it asked
        res.references.append({"text": q, "how": "ellipsis", "patient_id": focus.patient_id})  # what treats it)
        return f"Is {focus.patient_id} taking {z}?" if is_drug(new) else f"Does {focus.patient_id} have {z}?"
    drug, disease = (new, focus.disease) if slot_drug else (focus.drug, new)
    intent = focus.intent
    if slot_drug and intent == "treats":
        intent = "mechanism"
    if not slot_drug and intent in ("targets", "indications"):
        intent = "mechanism"
    if not slot_drug and intent in ("treats", "mechanism") and new.get("id") and out.status.value == "linked":
        # linked as the slot links it: "and hypertension?" after what treats gout is Hypertensive disorder, as in
        # "What treats hypertension?" (it was the HPO sign Hypertension, linked untyped)
        typed = linker.link(z, SLOT_TYPES["disease"])  # "what about kidney damage?": which of the kidney's diseases
        disease = new = entity_of(typed.best) if typed.status.value == "linked" and typed.best else (
            {"id": "", "name": z, "type": ""} if typed.status.value == "ambiguous" else new)  # (it was the Kidney)
    text = standalone(intent, drug, disease)
    if not text:
        return None
    if intent == Intent.RELATION.value and drug and disease and re.search(rf"\b{CAUSING}\b", focus.question, re.IGNORECASE):
        text = f"Does {drug['name']} cause {disease['name']}?"  # "what about naproxen?" after "does ibuprofen cause …?"
    if intent == "targeted_by" and disease and slot_drug and drug:  # "what about allopurinol?" after "which of them
        text = f"Does {drug['name']} {asked_verb(focus.question)} {disease['name']}?"  # inhibit xanthine oxidase?"
    elif intent == "targeted_by" and disease:  # "and IL-6?" after "Which drugs lower TNF?" keeps "lower"
        text = f"Which drugs {asked_verb(focus.question)} {disease['name']}?"
    kept = focus.disease if slot_drug else focus.drug
    if kept:
        res.pinned[fold(kept["name"])] = kept
    if new.get("id") and out.status.value == "linked":
        res.pinned[fold(new["name"])] = new
    res.references.append({"text": q, "how": "ellipsis", "entity": kept, "replaced_by": z})
    return text


_CLASS_ASKS = {"indications": "What do {} treat?", "targets": "What do {} target?"}
"""What a class-subject turn asked, for another class."""
_DRUG_ASKS = {"indications": "What does {} treat?", "targets": "What does {} target?"}
"""What a class-subject turn asked, for one drug."""


def _of_another_class(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """"What do ACE inhibitors treat?" for "and ACE inhibitors?" after "What do beta blockers treat?" (it was asked what
    ACE inhibitors target: a class alone); "How do statins treat Cerebrovascular accident?" for "and in stroke?" after
    "What do statins target?" (it listed the drugs for stroke, the class dropped); "What does Ibuprofen target?" for
    "what about ibuprofen?" there (it told what ibuprofen is connected to). None unless the latest turn's subject was
    a class and ``z`` names a class, a drug or a disease. After "is ibuprofen an NSAID?", "and naproxen?" asks whether
    naproxen is one too."""
    if focus.class_drug and focus.named_class and (drug := drug_named(z, linker, read=True)) is not None:
        res.pinned[fold(drug["name"])] = drug  # "and naproxen?" after "is ibuprofen an NSAID?" (it asked its targets)
        res.references.append({"text": q, "how": "ellipsis", "class": focus.named_class, "replaced_by": z})
        return f"Is {drug['name']} one of the {focus.named_class}?"
    ask = _CLASS_ASKS.get(focus.class_intent) if focus.named_class else None
    if ask is None:
        return None
    if name := linker.class_name(z):
        res.references.append({"text": q, "how": "ellipsis", "class": focus.named_class, "replaced_by": z})
        return ask.format(name)
    z = re.sub(r"^(?:for|in|with|on)\s+(?=\S)", "", z, flags=re.IGNORECASE)
    if (drug := drug_named(z, linker, read=True)) is not None:  # "what about ibuprofen?" after "What do statins target?"
        res.pinned[fold(drug["name"])] = drug
        res.references.append({"text": q, "how": "ellipsis", "class": focus.named_class, "replaced_by": z})
        return _DRUG_ASKS[focus.class_intent].format(drug["name"])
    out = linker.link(z, SLOT_TYPES["disease"])  # "and in stroke?" after "What do statins target?": how they treat it
    top = out.candidates[0] if out.candidates else None
    if top is None or top.type not in DISEASE_TYPES or guessed(z, top.name, top.method):
        return None
    if out.status.value == "linked":
        res.pinned[fold(top.name)] = entity_of(top)
    res.references.append({"text": q, "how": "ellipsis", "class": focus.named_class, "replaced_by": z})
    return f"How do {focus.named_class} treat {top.name if out.status.value == 'linked' else z}?"


def _class_ellipsis(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """After "Which beta blockers treat hypertension?": "what about ACE inhibitors?" asks which ACE inhibitors treat
    it, and "and heart failure?" which beta blockers treat that; after "How do beta blockers treat hypertension?",
    how they do. None when neither applies (a drug named there: the ordinary ellipsis asks how it treats the
    disease)."""
    if focus.compared and focus.intent == "treats" and focus.disease is not None:
        return _compared_for(res, q, z, focus, linker)
    ask = "How do {} treat {}?" if focus.intent == "mechanism" else "Which {} treat {}?"
    named = bool(linker.drug_class(z)) if focus.disease is not None else False
    if focus.disease is None or not (focus.drug_class or named):
        return None
    if named:
        res.pinned[fold(focus.disease["name"])] = focus.disease
        res.references.append({"text": q, "how": "ellipsis", "entity": focus.disease, "replaced_by": z})
        return ask.format(linker.class_name(z) or z, focus.disease["name"])  # "arbs": as the class table writes it
    out = linker.link(z)
    if out.candidates and is_drug(entity_of(out.candidates[0])):
        return None  # a drug: the ordinary ellipsis asks how it treats the disease
    if out.candidates and out.status.value == "linked":
        res.pinned[fold(out.candidates[0].name)] = entity_of(out.candidates[0])
    name = out.candidates[0].name if out.candidates and out.status.value == "linked" else z
    res.references.append({"text": q, "how": "ellipsis", "class": focus.drug_class, "replaced_by": z})
    return ask.format(focus.drug_class, name)


def _is_disease(z: str, linker: Linker) -> bool:
    """Whether ``z`` names a disease, or several ("fever": a disease and a finding), as written or nearly."""
    top = linker.link(z).best
    return top is not None and top.type in DISEASE_TYPES and not guessed(z, top.name, top.method)


def _compared_for(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """"and for hyperuricemia?" after drugs compared for gout: the same drugs compared for it (the drugs' label was
    read as a class, "Which allopurinol and colchicine treat hyperuricemia?", and other drugs listed); after a whole
    list of drugs for gout ranked, which drug is best for it. None for a drug ("and naproxen?": how it treats the
    disease, as after any turn about it)."""
    out = linker.link(z)
    top = out.candidates[0] if out.candidates and out.status.value == "linked" else None
    if top is not None and is_drug(entity_of(top)):
        return None
    ids = [d["id"] for d in focus.compared]
    if len(ids) > 2 and set(ids) == {d.get("id") for d in focus.treats_list[: len(ids)]}:
        # the whole list ranked ("which one is best?" after what treats gout): the gout drugs were compared for
        # migraine, and none had a mechanism for it; now which drug is best for migraine, as asked on its own
        if top is not None:
            res.pinned[fold(top.name)] = entity_of(top)
        res.references.append({"text": q, "how": "ellipsis", "entity": focus.disease, "replaced_by": z})
        return f"Which drug is best for {top.name if top is not None else z}?"
    res.pinned.update({fold(d["name"]): d for d in focus.compared})
    if top is not None:
        res.pinned[fold(top.name)] = entity_of(top)
    res.references.append({"text": q, "how": "ellipsis", "drugs": ids, "replaced_by": z})
    names = [d["name"] for d in focus.compared]
    return f"Compare {', '.join(names[:-1])} and {names[-1]} for {top.name if top is not None else z}"


_DOES_THAT = re.compile(r"^(?P<how>how\s+)?(?:does|do|can|could|will|would|might)\s+(?P<x>.+?)\s+(?:(?:do|does)\s+(?:that|this|it|the same)"
                        r"(?:\s+thing)?|(?P<w>work|help))(?:\s+too|\s+as well|\s+also)?$", re.IGNORECASE)


def does_that(res: Resolution, q: str, focus: Focus, linker: Linker) -> str | None:
    """"Does ibuprofen do that?" after "What reduces prostaglandin E2?": whether the named drug acts on the thread's
    entity the way the last question asked ("Does Ibuprofen lower Prostaglandin E2?", and then "does salbutamol do
    that too?" the same of salbutamol), or, after a question about a disease, whether it treats it; after "What does
    imatinib target?" (or treat), what the named drug targets (or treats). It was answered with what ibuprofen is
    connected to; so was "how does colchicine do that?" after "How does allopurinol treat gout?", now how it treats
    gout, and so were "does colchicine work?" and "would colchicine help too?" there. None for anything else."""
    m = _DOES_THAT.match(q)
    if m is not None and m["how"] and (m["w"] or "").lower() == "work":
        return None  # "how does aspirin work?" after metformin for diabetes asks about aspirin, not how it treats diabetes
    own = focus.intent in ("targets", "indications")
    if m is not None and m["w"] and (own or focus.disease is None):  # "does dasatinib work?" after imatinib's targets
        return None
    if m is None or (focus.disease is None and not own) or focus.intent not in (
            "targeted_by", "relation", "treats", "mechanism", "targets", "indications"):
        return None
    out = linker.link(m["x"])
    if not out.candidates or out.status.value != "linked" or not is_drug(drug := entity_of(out.candidates[0])):
        return None
    if own:  # "does dasatinib do that?" after "What does imatinib target?"
        res.pinned[fold(drug["name"])] = drug
        res.references.append({"text": q, "how": "do that", "entity": drug})
        return standalone(focus.intent, drug, None)
    res.pinned.update({fold(drug["name"]): drug, fold(focus.disease["name"]): focus.disease})
    res.references.append({"text": q, "how": "do that", "entity": focus.disease})
    verb = asked_verb(focus.question) if focus.intent in ("targeted_by", "relation") else "treat"
    return f"{'How does' if m['how'] else 'Does'} {drug['name']} {verb} {focus.disease['name']}?"  # "how does colchicine do that?"
