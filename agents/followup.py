"""Follow-up understanding: resolve pronouns, ordinals and ellipsis against a thread's earlier turns.

Deterministic and embedded: the referent of "it" is the last-mentioned entity of the type the
sentence needs (the drug slot of "how does it treat …", the disease of "… treat it"); "the second
one" is the second item of the last answer's list; "what about gout?" repeats the last question
with the slot that gout's type fills replaced; "and in children?" repeats it with a population
qualifier. What cannot be resolved is reported as ``missing`` so the planner can ask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agents.alternatives import BETTER_ONES, SIMILAR, SUBSTITUTE, best_of_the_thread, instead_of_the_thread_drug
from agents.both_of import both_diseases
from agents.class_member import DRUG_NOUNS, asks_class_of, in_that_class, of_the_thread
from agents.cohort import cohort_followup, cohort_refusal
from agents.compared_refs import compared_refs, for_treated, self_compared
from agents.drug_topic import drug_on_it, happens_to, main_use
from agents.ellipsis import (
    NEXT_ITEMS,
    ORDINAL_ALONE,
    ORDINAL_REF,
    does_that,
    ellipsis,
    modifier_swap,
    standalone,
)
from agents.focus import ORDINALS, Focus, focus_from, listed
from agents.history import back_to
from agents.how_it_works import WHY_ON, does_it_work, listed_medication, on_record, works
from agents.intent import COMPARING, SET_AGAINST, parse_question
from agents.kinds import kind_of_target
from agents.last_answer import about_last_answer
from agents.list_refs import fits_several, kinds_of_them, members_of_them, of_them, plural_refs
from agents.list_size import whole_list
from agents.name_only import bare_mention, names_an_entity
from agents.patient_answer import SINCE, lab_it, lab_named, not_recorded
from agents.patient_safety import for_the_patient
from agents.qualifiers import PATIENT_WORDS, TRAILING_PLACE, TRAILING_QUALIFIER
from agents.record_refs import of_the_record, what_helps
from agents.record_window import timed_again
from agents.record_words import RECORD_CHECK
from agents.referents import one_for_they, only_listed_drug, pick, spelled_out, thread_target, verb_on, wanted
from agents.resolution import Linker, Resolution, restated
from agents.safe_with import WHOM, condition_beside, condition_qualifier
from agents.same_way import both_treat, it_alike, it_like, together, treat_alike
from agents.scope import COMBINED, DIET, INTERACTIONS, out_of_scope
from agents.selective import selective_of_them
from agents.state import DRUG_TYPES, Intent
from agents.target_refs import about_the_targets
from agents.thread_disease import of_thread_disease
from agents.two_questions import accepted_offer
from agents.typed_disease import of_the_thread_type
from agents.why_listed import why_listed
from tools.answers import asked_sign
from tools.linker import fold
from tools.places import KIND_BEFORE

__all__ = ["Focus", "Resolution", "focus_from", "resolve_followup", "standalone"]

_LEAD = re.compile(r"^(?:and|also|ok|okay|so|then|but|now|well|alright|right)\b[,]?\s*", re.IGNORECASE)
_OTHER = re.compile(r"\b(?:other(?! than)|another|else)\b", re.IGNORECASE)
"""Asks for entities the thread has not named ("which other drugs …", "is there another drug for that?", "what else
…"); "other than Y" only leaves Y out."""
_MORE = re.compile(
    r"^(?:(?:are there|is there|do you have|give me|show me|list|name|tell me|(?:what|which) (?:are|is|would be) (?:the|my)|"
    r"what|which|any)\s+)?(?:any\s+|some\s+|an?\s+)?"  # "is there an alternative?" was NOT_FOUND, "no known entity"
    r"(?:others|alternatives?|another(?: (?:option|drug|medication|medicine|one|treatment|choice))?|"
    r"(?:other|more) (?:options?|drugs?|medications?|medicines?|ones?|treatments?|alternatives?|"
    r"choices?|diseases?|conditions?|uses?|targets?|proteins?)|(?:any|some) more|(?:anything|something|what|which) else)$", re.IGNORECASE)
"""Nothing but a request for more of a list ("any other options?", "what else?", "others?"): the last question
again, leaving out what the thread has listed."""
_LISTING = ("treats", "targeted_by", "targets", "indications", "involved")
"""Intents answered with a list, which a request for more continues."""
_DO_THAT = re.compile(
    r"^(?:(?:which|what)(?: other| else)?(?: drugs?| medications?| medicines?| ones?)? (?:do|does|can|could|would|also)|"
    r"(?:are there |is there )?(?:any |some )?(?:other |more )?(?:drugs?|medications?|medicines?|ones?) (?:that|which) (?:also )?"
    r"(?:do|does|can)) (?:do )?(?:that|this|the same)(?: thing)?(?: too| as well)?$", re.IGNORECASE)
""""Which other drugs do that?", "are there other drugs that do that?": which drugs treat the thread's disease, or,
after "What does X target?", act on its target."""
_WHICH_ONES = re.compile(r"^(?:and |so |ok,? )?(?:which|what)(?: ones?| of them)?(?: exactly| then| specifically)?$",
                         re.IGNORECASE)
""""Which ones?" after "Are ACE inhibitors used for heart failure?": which of the class treat the disease (it was
NOT_FOUND, "no known entity")."""
_SAME_TARGET = re.compile(
    r"^(?:(?:which|what)(?: other)?|(?:are there |is there )?(?:any )?(?:other )?)\s*(?:drugs?|medications?|medicines?) "
    r"(?:also )?(?:have|share|with|that (?:also )?(?:have|share|act on|target|hit)|act on|target|hit) (?:the same|that|this) "
    r"(?:target|protein|receptor|enzyme)$", re.IGNORECASE)
""""Which other drugs have the same target?", "which drugs share that target?" (they were "Which other drugs have
Tyrosine-protein kinase ABL1?", told what ABL1 is connected to): after a drug's targets, which act on the first."""
_RELATIVE = "".join(rf"(?<!\b{w} )" for w in ("drug", "drugs", "medication", "medications", "medicine", "medicines",
                                              "compound", "compounds", "any", "anything", "something", "one", "ones"))
""""that" as a relative pronoun, not a reference: "are there drugs that target EGFR?"."""
_NOUN_REF = re.compile(
    rf"\b(?:this|{_RELATIVE}that|the same|same|the)\s+(drug|medication|medicine|compound|disease|condition|illness|"
    r"disorder|patient|target|protein|receptor|enzyme)\b", re.IGNORECASE)
_DEFINED = re.compile(r"\s+(?:(?:of|that|which|whose)\b|for\s+\w|as\s+(?!well\b)\w|\w+ed\s+(?:by|for|with|in|on|to|against)\s+\w)", re.IGNORECASE)
""""the NOUN" that the words after it define is no reference: "the target of imatinib", "the drug of choice for gout",
"the enzyme that aspirin inhibits", "the protein targeted by imatinib", "the same target as imatinib" (but "What is the drug
used for?" refers)."""
_POSSESSIVE = re.compile(rf"\bits\s+({DRUG_NOUNS})\b", re.IGNORECASE)
"""A drug's noun that "its" refers back to (``agents.class_member.DRUG_NOUNS``)."""
_AUXILIARY = "".join(rf"(?<=\b{w} )|" for w in ("does", "do", "did", "can", "could", "would", "will", "might", "may"))[:-1]
_PRONOUN = re.compile(rf"\b(it|they|them|(?:that|this) one(?=\W*$)|that(?=\W*$|, \w+ or \w)|(?:{_AUXILIARY})(?:that|this)(?: one)?"
                      r"(?=\s+(?!(?:mean|matter|happen|sound|seem|apply|count|change)\b)[a-z]))\b", re.IGNORECASE)
"""A pronoun: "that" at the end ("how does it work for that?"), or "that" or "this" as the subject after a verb ("how
does that treat diabetes?" after "What does metformin target?"; it was NOT_FOUND, "that" not in the graph), with "one"
after it ("how does that one work?" was read as "How does colchicine one work?")."""
_TOPIC = re.compile(
    r"^(?:(?:regarding|about|as for|concerning|speaking of|re)\s+(?P<a>[^,:]+?)\s*[,:]|(?P<b>[^:]+?)\s*(?::|\s[-–—]\s))"
    r"\s*(?P<rest>.+)$", re.IGNORECASE)
_PATIENT_PRONOUN = re.compile(r"\b(?:their|his|her|the patient's|this patient's)\b", re.IGNORECASE)
_PATIENT_SUBJECT = re.compile(r"\b(?:she|he|the patient|this patient)\b", re.IGNORECASE)
"""The thread's patient as a subject ("what conditions does she have?")."""
_EITHER_IT = re.compile(r"\b(?:it|that one|this one),? or \w|\w,? or (?:it|that one|this one)\b", re.IGNORECASE)
"""A pronoun offered as one side of a choice ("which is better, it or rizatriptan?"): the thread's drug, though the
question names another."""
_THAT_ONE = re.compile(r"(?:that|this) one", re.IGNORECASE)
"""A pronoun that points at one item just shown ("how does that one work?")."""
_ALSO = re.compile(r"\balso\b", re.IGNORECASE)


def _class_ones(res: Resolution, q: str, body: str, focus: Focus) -> bool:
    """"Which ones?" after "Are ACE inhibitors used for heart failure?": which of the class treat the disease, set as
    ``res.question``; False for any other question."""
    if not (_WHICH_ONES.match(body) and focus.named_class and focus.disease):
        return False
    res.references.append({"text": q, "how": "class", "class": focus.named_class})
    res.pinned[fold(focus.disease["name"])] = focus.disease
    res.question = f"Which {focus.named_class} treat {focus.disease['name']}?"
    return True


def _insideentity_of(text: str, word: str, linker: Linker) -> bool:
    """True when ``word`` is part of a longer entity name in the text (e.g. a name containing "it")."""
    w = word.casefold()
    return any(len(key.split()) > 1 and w in key.split() for key, _ in linker.scan(text))


_IT_TO = re.compile(rf"\bis it (?:\w+ )?(?:safe|ok|okay|alright|fine|bad|dangerous|wise) (?:for {WHOM} )?to\b", re.IGNORECASE)
""""it" as no reference: "is it safe to take ibuprofen with food?", "is it safe for her to take ibuprofen?"."""


def _it_to_take(q: str, at: int, linker: Linker) -> bool:
    """Whether the pronoun at ``at`` is the "it" of "is it safe for her to take ibuprofen?", a drug named after it (it
    was read as one of the patient's conditions)."""
    m = _IT_TO.search(q)
    return m is not None and m.start() < at < m.end() and any(
        c.type in DRUG_TYPES for _, cands in linker.scan(q[m.end():]) for c in cands[:1])


def _named_here(text: str, slot: str, linker: Linker, at: int) -> bool:
    """True when the question names an entity for ``slot`` (a drug when the slot is unknown: "it" is the drug in "X for
    Y - how does it work?" and "how long does it take for X to work?", while "does it work for gout?", "is it better
    than Y?" and "does it lower uric acid?", a chemical after the pronoun at ``at``, still refer back). A drug class's
    name is no such entity."""
    if SET_AGAINST.search(text) or _EITHER_IT.search(text) or out_of_scope(text) in (INTERACTIONS, COMBINED) and len(linker.scan(text)) < 2 \
            and not _IT_TO.search(text):  # "is it safe with aspirin?": the thread's drug and the named one
        return False
    classes = {fold(c) for c in linker.classes_in(text)}  # "is it an NSAID?": a class, though "NSAID" links to a chemical
    for part, kinds in ((text[:at], DRUG_TYPES), (text[at:], {"Drug"})):
        for name, cands in linker.scan(part):
            # an acronym reads as its first name ("RA": Rheumatoid arthritis, not a drug whose initials are RA)
            read = cands[:1] if cands and cands[0].method == "acronym" else cands
            if name not in classes and (slot in ("disease", "target")) != bool({c.type for c in read} & kinds):
                return True
    return False


def _substitute(res: Resolution, text: str, span: tuple[int, int], ent: dict[str, Any], ref: str, how: str) -> str:
    res.references.append({"text": ref, "entity": ent, "how": how})
    res.pinned[fold(ent["name"])] = ent
    return text[: span[0]] + ent["name"] + text[span[1]:]


def _ordinal(res: Resolution, q: str, focus: Focus, linker: Linker) -> str:
    alone = ORDINAL_ALONE.match(q)
    m = ORDINAL_REF.search(q)
    if not (alone or m):
        return q
    word, ref, span = (alone["o"], alone["ref"], (0, len(q))) if alone else (m.group(1) or m.group(2), m.group(0), m.span())
    if re.search(r"\b(?:does|do|did) $", q[: span[0]]) and ref.casefold().endswith(" target"):  # the verb, not the noun
        ref, span = ref[: -len(" target")], (span[0], span[1] - len(" target"))  # "what does the second target?"
    k, slot = ORDINALS[word.casefold()], wanted(q, span)
    items = focus.list_for(k, ref, slot)
    if slot == "disease" and items and k < len(items) and items[k].get("for") and k < len(focus.record_conditions) \
            and not re.search(r"(?:drug|medication|medicine|med|pill)s?$", ref, re.IGNORECASE):
        items = focus.record_conditions  # "how is the first one treated?" after a record: its first condition
    if items is None:
        res.missing = res.missing or ref
        return q
    if items[k].get("for"):  # a patient's medication: the follow-up is about the condition it is taken for
        focus.disease = items[k]["for"]
    text = _substitute(res, q, span, items[k], ref, "ordinal")
    if text.strip().casefold() == items[k]["name"].casefold():  # "and the second one?": the last question with it
        base = ellipsis(res, f"what about {items[k]['name']}", focus, linker)
        return base.rstrip("?") if base else text
    end = span[0] + len(items[k]["name"])  # "how does the second one compare with the first one?": both
    return text[:end] + _ordinal(res, text[end:], focus, linker) if ORDINAL_REF.search(text, end) else text


def _just_listed(focus: Focus, pronoun: str, slot: str) -> dict[str, Any] | None:
    """"that one" right after a list of drugs: the list's first, the answer's pick ("how does that one work?" after
    "what else could I use?" was the thread's drug, imatinib, which the list left out)."""
    if slot not in ("drug", "") or focus.intent not in ("treats", "targeted_by") or not focus.lists or \
            not _THAT_ONE.fullmatch(pronoun):
        return None
    return next((i for i in focus.lists[0] if i.get("type") in DRUG_TYPES), None)


def _apposition(rest: str, linker: Linker) -> bool:
    """Whether a name follows the noun at once ("the drug imatinib", "this medication colchicine"): no reference."""
    found = linker.scan(rest)
    return bool(found) and f"{fold(rest)} ".startswith(found[0][0] + " ")


def _noun_refs(res: Resolution, q: str, focus: Focus, linker: Linker) -> str:
    for m in list(_NOUN_REF.finditer(q))[::-1]:
        noun = m.group(1).casefold()
        if m.group(0).casefold().startswith("the ") and _DEFINED.match(q, m.end()) or _apposition(q[m.end():], linker):
            continue
        if noun == "patient":
            if focus.patient_id:
                res.patient_id = focus.patient_id
                res.references.append({"text": m.group(0), "patient_id": focus.patient_id, "how": "patient"})
                q = q[: m.start()] + focus.patient_id + q[m.end():]
            continue
        ent = ((focus.drug or only_listed_drug(focus)) if noun in ("drug", "medication", "medicine", "compound") else
               thread_target(focus, asked_sign(q)) if noun in ("target", "protein", "receptor", "enzyme") else focus.disease)
        if ent is None:
            res.missing = res.missing or m.group(0)
            continue
        if ent.get("for"):  # a patient's medication ("how does that drug work?"): the condition it is taken for
            focus.disease = ent["for"]
        q = _substitute(res, q, m.span(), ent, m.group(0), "noun phrase")
    return q


def _lab_pronoun(res: Resolution, q: str, focus: Focus) -> str:
    """"what was it last time?" after a question on a patient's lab: "What was PAT_001's HbA1c last time?"."""
    if (asked := lab_it(q, focus.question, focus.patient_id)) is None:
        return q
    res.patient_id = focus.patient_id
    res.references.append({"text": "it", "patient_id": focus.patient_id, "how": "patient"})
    return asked


def _pronouns(res: Resolution, q: str, focus: Focus, linker: Linker) -> str:
    q = spelled_out(re.sub(r"^(?:what|how)\s+about\s+(?=(?:its|their)\b)", "what are ", q, flags=re.IGNORECASE))
    m = _POSSESSIVE.search(q)
    if m:
        if focus.drug is None:
            res.missing = res.missing or "its"
            return q
        res.references.append({"text": "its", "entity": focus.drug, "how": "possessive"})
        res.pinned[fold(focus.drug["name"])] = focus.drug
        return q[: m.start()] + f"the {m.group(1)} of {focus.drug['name']}" + q[m.end():]
    q = for_the_patient(res, q, focus)  # "is it safe for her to take ibuprofen?"
    pm = _PATIENT_PRONOUN.search(q)
    if pm and focus.patient_id and (PATIENT_WORDS.search(q) or lab_named(q)):  # "what's his blood pressure?"
        res.patient_id = focus.patient_id
        res.references.append({"text": pm.group(0), "patient_id": focus.patient_id, "how": "patient"})
        if sm := _PATIENT_SUBJECT.search(q[: pm.start()]):  # "is he on anything for his blood pressure?": "his" goes
            return q[: sm.start()] + focus.patient_id + q[sm.end(): pm.start()] + q[pm.end():].lstrip()
        q = q[: pm.start()] + f"{focus.patient_id}'s" + q[pm.end():]  # and "it" in "is it safe with her meds?" too
    sm = None if pm and res.patient_id else _PATIENT_SUBJECT.search(q)
    if sm and focus.patient_id and (PATIENT_WORDS.search(q) or RECORD_CHECK.match(q) or SINCE.match(q) or not_recorded(q)) \
            and not WHY_ON.match(q):
        res.patient_id = focus.patient_id  # "what conditions does she have?", "is he on metformin?", "when did she start it?"
        res.references.append({"text": sm.group(0), "patient_id": focus.patient_id, "how": "patient"})
        q = q[: sm.start()] + focus.patient_id + q[sm.end():]  # and "it" in "is she still on it?" refers back too
    elif sm and focus.patient_id and WHY_ON.match(q) and not _PRONOUN.search(q[sm.end():]):
        med = listed_medication(q, focus)  # "why is he on chlorprothixene?": how it treats what it is listed for
        res.patient_id = focus.patient_id  # (one the list lacks: what the record says, "why is he on metformin?")
        res.references.append({"text": sm.group(0), "patient_id": focus.patient_id, "how": "patient"})
        if med is not None:
            res.pinned[fold(med["name"])] = med
            focus.disease = med["for"]
        q = q[: sm.start()] + focus.patient_id + q[sm.end():]
    q = _lab_pronoun(res, q, focus)
    for m in list(_PRONOUN.finditer(q))[::-1]:
        if _insideentity_of(q, m.group(1), linker):
            continue
        slot = wanted(q, m.span(), focus.intent == "targets") or ("drug" if asks_class_of(q, linker) else "")
        if m.group(1).casefold() == "that" and not slot:
            continue  # "which drugs do that?": not a name
        if _named_here(q, slot, linker, m.start()) or _it_to_take(q, m.start(1), linker):
            continue  # "cetirizine for colds - how does it work?": the pronoun points inside the question
        ent = _just_listed(focus, m.group(1), slot) or pick(focus, slot, asked_sign(q), q)
        plural = m.group(1).casefold() in ("they", "them")  # "how do they work?" after "is warfarin a blood thinner?"
        if (ent is None or plural) and focus.named_class and slot != "disease":  # or after a class in a class
            res.references.append({"text": m.group(1), "how": "class", "class": focus.named_class})
            q = _plural_verb(q[: m.start(1)], plural) + focus.named_class + q[m.end(1):]
            continue
        if ent is None:
            res.missing = res.missing or m.group(1)
            continue
        if plural and COMPARING.search(q):  # "what do they have in common?" after one drug: "What do Sildenafil …"
            res.refused = (f"\"{m.group(1)}\" sets two or more side by side, and this conversation has named one: "
                           f"{ent['name']}; name the others (\"Compare {ent['name']} and …\")")
            return q
        if fits_several(res, q, m.span(), ent, focus):
            return q
        if ent.get("for"):  # a patient's medication ("why is she on it?"): the condition it is taken for
            focus.disease = ent["for"]
        q = one_for_they(_substitute(res, q, m.span(), ent, m.group(1), "pronoun"), m.start(1) + len(ent["name"]), plural)
    return q



_SINGULAR_VERB = re.compile(r"\b(does|is|has|was)(\s+)$", re.IGNORECASE)
_PLURAL_OF = {"does": "do", "is": "are", "has": "have", "was": "were"}


def _plural_verb(before: str, plural: bool) -> str:
    """The words before a class name put for "it": their last verb in the plural ("what does it treat?" after "is
    penicillin an antibiotic?" was "What does penicillins treat?")."""
    if plural or (m := _SINGULAR_VERB.search(before)) is None:
        return before
    verb = _PLURAL_OF[m[1].casefold()]
    return before[: m.start()] + (verb.capitalize() if m[1][0].isupper() else verb) + m[2]


def _topic_first(res: Resolution, q: str, linker: Linker, focus: Focus) -> str:
    """"Gout: which drugs treat it?" or "As for gout, what treats it?": a pronoun that points at the entity the
    question opens with, not at the thread. The topic's own words go in its place, so that linking (and a
    clarification, for an ambiguous name) happens as if the question had been asked that way. With nothing in the
    thread, a one-word topic that names nothing ("Blorptazine: what treats it?") goes in too, so that the answer says
    the name is unknown instead of asking what "it" means; longer unknown openings ("Quick question: …") are left
    alone, and "it" is asked about."""
    m = _TOPIC.match(q)
    if not m:
        return q
    topic, rest = (m.group("a") or m.group("b")).strip(), m.group("rest")
    pronoun = _PRONOUN.search(rest)
    if pronoun is None:
        return q
    unknown = focus.empty and len(topic.split()) == 1 and not linker.scan(topic)
    if not (unknown or names_an_entity(topic, linker)):
        return q
    res.references.append({"text": pronoun.group(1), "how": "topic", "topic": topic})
    return rest[: pronoun.start()] + topic + rest[pronoun.end():]


def _drug_in_place(question: str, linker: Linker, focus: Focus) -> re.Match[str] | None:
    """An organ after a question that names a drug ("what does metformin target in the liver?"; it was NOT_FOUND: no
    chain from Metformin to liver), or refers to the thread's ("does it affect the liver?" after metformin, answered
    for Hepatic Veno-Occlusive Disease); None otherwise ("which genes are expressed in the liver?" asks about the
    liver; "how does cisplatin treat cancer in the lung?" names the disease by it)."""
    place = TRAILING_PLACE.search(question)
    if place and KIND_BEFORE.search(question[: place.start()]):  # "treat cancer in the lung": the disease's name
        return None
    if place and focus.drug and _IT_DOES.search(question[: place.start()]):
        return place
    named = linker.scan(question[: place.start()]) if place else []
    return place if any(c.type in DRUG_TYPES for _, cands in named for c in cands[:1]) else None


_IT_DOES = re.compile(r"^(?:so |and |but )?(?:does|do|can|could|will|would|how (?:does|do|can|could|will|would)|what does) "
                      r"(?:it|this|that|this drug|that drug|this medication|that medication)\b", re.IGNORECASE)


def resolve_followup(question: str, messages: Sequence[dict[str, Any]], linker: Linker,
                     chosen: dict[str, Any] | None = None) -> Resolution:
    """Rewrite a follow-up into a standalone question using the thread's earlier turns.

    A question with no reference comes back unchanged (``references`` empty). With nothing in the
    thread to resolve against, ``missing`` names the reference, and the question is unchanged. One that asks for
    "other" drugs or what "else" leaves out of its answer the thread's entities and the last answer's list
    (``excluded``), when it refers back or there is a list: "Which other drugs treat gout?" after "What drugs treat
    gout?" names new ones. ``chosen``: the entity a clarification picked for a reference fitted to several.
    """
    if (again := timed_again(question, messages)) is not None:  # "and last year?" after a count or a patient's lab
        return Resolution(question=again, references=[{"text": question, "how": "time"}])
    if (count := cohort_followup(question, messages, linker)) is not None:  # "and how many have gout?" after a count
        return Resolution(question=count, references=[{"text": question, "how": "cohort"}])
    if why := cohort_refusal(question, messages):  # "list them" after a count: no patient is named
        return Resolution(question=question, refused=why)
    if (earlier := back_to(question, messages)) is not None:  # "go back to the first question"
        return Resolution(question=earlier or question, refused="" if earlier else "this conversation has no earlier "
                          "question to go back to", references=[{"text": question, "how": "again", "question": earlier}])
    focus = focus_from(messages).choose(chosen) if chosen else focus_from(messages)
    question, typed = of_the_thread_type(question, focus.disease, linker)  # "does it work in type 1 too?"
    condition = condition_qualifier(question, linker)  # "Is metformin safe in kidney disease?"
    qual = TRAILING_QUALIFIER.search(question) or _drug_in_place(question, linker, focus) or condition or condition_beside(question)
    if qual and len(question[: qual.start()].split()) < 3:  # "and in children?": an ellipsis of its own
        qual = None
    if qual:  # "how does metformin affect the liver?": how it works, in the liver
        question = re.sub(r"\baffects?$", "work", question[: qual.start()].rstrip(" ,"), flags=re.IGNORECASE) + "?"
    res = _resolve(question, focus, linker)
    if typed:
        res.references.append({"text": typed, "how": "type", "entity": focus.disease})
    self_compared(res)  # "how does levodopa compare to the first one?" when levodopa is the first one
    for_treated(res, question, focus, linker)  # "is it better than colchicine?" after how allopurinol treats gout
    if qual and not res.qualifier:
        res.qualifier = qual[1]
        res.references.append({"text": qual.group(0), "how": "qualifier", "qualifier": qual[1], "safety": qual is condition})
    more = any(r.get("how") == "more" for r in res.references)
    # "are there other paths?" and "does it work as the other one does?" leave nothing out
    paths = any(r.get("how") == "other paths" or r.get("leaves_none_out") for r in res.references)
    if (more or _OTHER.search(question)) and not res.missing and not paths and (res.rewritten or focus.lists) \
            and out_of_scope(question) not in (INTERACTIONS, DIET):  # "is it safe with her other meds?", "anything else to avoid?"
        # every drug the thread named ("which other drugs hit it?" after sumatriptan's target and what it does)
        shown = [focus.drug, *focus.drugs, focus.disease, focus.target, *(listed(messages) or (focus.lists[0] if focus.lists else []))]
        res.excluded = list(dict.fromkeys(e["id"] for e in shown if e and e.get("id")))
    elif _ALSO.search(question) and focus.drug and not res.missing and _asks_for_drugs(res.question):
        res.excluded = [focus.drug["id"]]  # "which drugs also inhibit it?": besides the thread's drug
    return res


def _asks_for_drugs(question: str) -> bool:
    parsed = parse_question(question)
    return parsed is not None and parsed.intent in (Intent.TREATS, Intent.TARGETED_BY)


def _of_a_list(res: Resolution, body: str, focus: Focus, linker: Linker) -> str | None:
    """A question about what an earlier answer listed ("compare them", "which of them treat …?", "which of these cause
    CML?" after a drug's targets, "does it work the same way?" after two drugs), as asked of them; None for any other question."""
    return (it_alike(res, body, focus) or it_like(res, body, focus, linker) or together(res, body, focus) or treat_alike(res, body, focus)
            or both_treat(res, body, focus) or selective_of_them(res, body, focus, linker) or compared_refs(res, body, focus, linker)
            or kinds_of_them(res, body, focus) or members_of_them(res, body, focus, linker) or about_the_targets(res, body, focus)
            or of_them(res, body, focus))


def _instead_or_more(res: Resolution, body: str, focus: Focus, more: bool) -> bool:
    """The thread's drug's alternatives (``agents.alternatives``), else with ``more`` the last question again."""
    if (instead := best_of_the_thread(res, body, focus) or instead_of_the_thread_drug(res, body, focus)) is not None:
        res.question = instead
    elif more:  # leaving out what the thread has listed
        res.references.append({"text": res.question, "how": "more", "question": focus.question})
        res.pinned.update({fold(e["name"]): e for e in (focus.drug, focus.disease) if e})
        res.question = restated(focus.question)
    return instead is not None or more


def _resolve(question: str, focus: Focus, linker: Linker) -> Resolution:
    q = " ".join(question.split()).strip()
    offered = accepted_offer(q, focus.also_asked)  # "yes" to "You also asked: … Ask it next.": that question
    q = body = offered or q
    while (m := _LEAD.match(body)) and m.end() < len(body):
        body = body[m.end():]
    body = on_record(does_it_work(body.rstrip("?.! ")), focus)  # "how does it do that?", "what is the first one for?"
    if body != q.rstrip("?.! ") and (bare_mention(body, linker) or modifier_swap(body, focus, linker)):
        body = f"what about {body}"  # "and Uveitis?": a bare name after "and" repeats the last question with it
    res = Resolution(question=q, references=[{"text": question, "how": "offered", "question": q}] if offered else [])
    listing = bool(focus.question and focus.intent in _LISTING and focus.lists)
    more = bool(_MORE.match(body) or BETTER_ONES.match(body) or SUBSTITUTE.fullmatch(body) or SIMILAR.match(body) or listing and NEXT_ITEMS.match(body))
    if what_helps(res, q, focus) or _instead_or_more(res, body, focus, more and listing) or whole_list(res, body, focus, listing):
        return res  # "what would help her?" after her conditions, "any alternatives?" after a drug's uses, "list them all"
    if (again := in_that_class(res, body, focus, linker) or of_the_thread(res, body, focus, linker) or why_listed(res, body, focus, linker)
            or about_last_answer(res, body, focus) or both_diseases(res, body, focus, linker)
            or kind_of_target(res, q, focus) or drug_on_it(res, body, focus, linker) or main_use(res, body, focus)
            or happens_to(res, body, focus, linker)) is not None \
            or res.missing or res.refused:  # "is that a kinase?", "how does vitamin K affect it?"
        res.question = again or q  # "what else is in that class?", "show me the sources", "explain the second step"
        return res
    if of_thread_disease(res, q, body, focus, more or bool(_OTHER.search(body))):  # "what are the treatment options?", "is there anything better?"
        return res
    on_target = focus.target if focus.intent == "targets" and (_DO_THAT.match(body) or _SAME_TARGET.match(body)) else None
    on_disease = focus.disease if (more or _DO_THAT.match(body)) and focus.intent not in _LISTING else None
    same = ("act on", on_target) if on_target else (verb_on(on_disease, focus.question), on_disease) if on_disease else None
    if same:
        other = more or bool(_OTHER.search(q))  # "which drugs do that?" leaves nothing out
        res.references.append({"text": q, "how": "more" if other else "do that", "entity": same[1]})
        res.pinned[fold(same[1]["name"])] = same[1]
        res.question = f"Which {'other ' if other else ''}drugs {same[0]} {same[1]['name']}?"
        return res
    if _class_ones(res, q, body, focus):  # "which ones?" after a class and a disease
        return res
    if (asked := does_that(res, body, focus, linker)) is not None:  # "does ibuprofen do that?"
        res.question = asked
        return res
    body = _topic_first(res, of_the_record(res, body, focus, linker), linker, focus)
    repeated = ellipsis(res, body, focus, linker)
    if res.missing:
        return res
    if repeated is not None:
        res.question = repeated
        return res
    listed = _of_a_list(res, body, focus, linker)
    if listed is not None:
        res.question = listed
        return res
    listed = plural_refs(res, body, focus)
    if listed != body:
        res.question = listed[0].upper() + listed[1:] + "?"
        return res
    text = _ordinal(res, body, focus, linker)
    text = _noun_refs(res, text, focus, linker)
    text = _pronouns(res, text, focus, linker)
    if res.references and not res.missing:
        text = works(res, text, focus, linker)
        text = text[0].upper() + text[1:]
        res.question = text if text.endswith("?") else text + "?"
    return res
