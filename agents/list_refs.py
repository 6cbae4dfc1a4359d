"""References to the last answer's list of drugs: "which of them treat heart failure?", "what do they treat?"."""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed
from agents.class_member import each_asked
from agents.focus import Focus
from agents.intent import REFERENCE, out_of_scope, parse_with_reference
from agents.kinds import disease_kind, kind_noun
from agents.not_acting import NEGATED
from agents.preamble import acting_on
from agents.resolution import Linker, Resolution
from agents.state import DISEASE_TYPES, DRUG_TYPES, LISTED_DRUGS, Intent
from core.text import drop_article
from tools.linker import fold
from tools.word_forms import plural, singulars

__all__ = ["CLASS_COMPARED", "fits_several", "kinds_of_them", "latest_drugs", "listed_drugs", "members_of_them", "of_them",
           "plural_refs"]

def _drug_lists(focus: Focus) -> list[list[dict[str, Any]]]:
    """The drugs of each of the thread's lists, most recent first ("which one is the strongest?" after a list of
    statins and then what they act on is about the statins)."""
    return [[i for i in items if i.get("type") in DRUG_TYPES] for items in focus.lists]


def latest_drugs(focus: Focus) -> list[dict[str, Any]]:
    """The drugs of the last answer's list (none when it listed none)."""
    return _drug_lists(focus)[0] if focus.lists else []


def listed_drugs(focus: Focus) -> list[dict[str, Any]]:
    """The drugs of the latest list that has two or more (earlier answers may have listed targets since); none when
    the latest turn made a drug class its subject and listed no drugs ("How do triptans work?": "are they safe with
    SSRIs?" compared the drugs for migraine listed before it, and "what do they treat?" asked what those treat)."""
    if focus.class_intent and not latest_drugs(focus):
        return []
    return next((x for x in _drug_lists(focus) if len(x) >= 2), [])


_OF_THEM = re.compile(
    r"^(?:which|what|(?:do|does|(?P<modal>can|could|will|would)) (?:any|some|all|either|one)|(?P<be>is|are) (?:any|some|there any)|"
    r"(?:and |so |but )?(?P<bare>any))"
    r"(?:(?: one)? of (?:them|these|those|the above)(?: drugs| medications| medicines| ones)?|(?<=which) ones?|(?<=what) ones)\s+(?:also |still |then )?"
    r"(?:(?P<rest>(?:treats?|helps?|lowers?|reduces?|prevents?|cures?|works? (?:for|in|against|on)|affects?|(?:is|are|can be) used "
    r"(?:for|to treat)|targets?|inhibits?|blocks?|activates?|acts? on|binds?(?: to)?|"
    r"(?:(?:good|useful|helpful|used|prescribed|given|indicated) )?for)\b.*)|(?P<other>.+))$",
    re.IGNORECASE)
"""A question about the drugs the last answer listed ("which of them treat heart failure?", "which of them work on
sodium channels?": it was answered with every drug that acts on one, not the listed ones). "Any of them for diabetes?"
asks which of them treat it (it was looked up as a class, "of them for diabetes")."""


_OBJECT_ASKED = re.compile(r"(?:do|does|did|can|could|will|would) (?!(?:any|some|all|each|either|one)\b)\S.*? "
                           r"(?:treat|cure|help(?: with)?|prevent|target|inhibit|block|activate|act on|work on)[?.!]*$",
                           re.IGNORECASE)
""""Which ones does allopurinol treat?": the listed drugs would be what the verb acts on, which no drug is; the ones
are what it treats (it was "Which of the listed drugs does allopurinol treat?")."""


def of_them(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which of them treat heart failure?" after a list of drugs: which of the class treat it (after "Which beta
    blockers …"), or which of the listed drugs (``Resolution.among``; after a question about the listed drugs, those
    its answer listed: it was read as "Which listed drugs …", a class medpath does not know, and the answer was not
    kept to them)."""
    m = _OF_THEM.match(q)
    if m and m["other"] and _OBJECT_ASKED.match(m["other"]):  # "which ones does allopurinol treat?": diseases, not them
        return None
    about_listed = focus.drug_class == LISTED_DRUGS  # "how do they work?" listed targets: "them" are still the drugs
    compared = [d["id"] for d in focus.compared]  # "compare ibuprofen and acetaminophen": "them" are those two
    # after "what do they treat?" (a question about the listed drugs that listed diseases), still those drugs
    drugs = compared or [i["id"] for i in latest_drugs(focus) or (listed_drugs(focus) or focus.listed if about_listed else focus.listed)]
    klass = "" if focus.drug_class == LISTED_DRUGS or compared else focus.drug_class or (
        "" if latest_drugs(focus) else focus.named_class)  # "which of them treat pneumonia?" after how antibiotics work
    if not m or not (klass or drugs):
        return None
    res.references.append({"text": q, "how": "list", "class": klass, "drugs": drugs})
    disease = focus.disease if focus.disease and focus.disease.get("type") in DISEASE_TYPES else None
    if m["other"] and NEGATED.match(m["other"]):  # "which of those don't inhibit xanthine oxidase?": not_acting_on next
        if not disease or not drugs:
            positive = NEGATED.sub("", m["other"])
            res.refused = ("with no disease in the conversation, medpath can list those of them that act some way, not "
                           f"those that do not; ask \"Which of them {positive}?\"")
            return q
        res.among = drugs  # gout's drugs, listed: "Which drugs treat Gout?" without those that act that way
        res.pinned[fold(disease["name"])] = disease
        return f"Which drugs treat {disease['name']} that {m['other']}?"
    if m["other"] and drugs and not klass and (cause := _CAUSES.match(m["other"])):  # "which one causes cough?"
        return _do_they_cause(res, drugs, cause["what"], focus)
    if m["other"] and drugs and not klass and out_of_scope(q):  # "which of those are inhalers?": the note, then what
        res.among = drugs  # the graph holds on them (it ended "no known entity in the question")
        return f"How do the {LISTED_DRUGS} work?"
    if m["other"]:  # "which of them is the cheapest?": about the listed drugs, not something the graph answers
        verb = f"{m['modal'] or m['be']} " if m["modal"] or m["be"] else ""  # "are any of them safe …?": "… are safe …?"
        if m["bare"] and not re.match(r"(?:with|without|that|which|who|in|on|for|are|is|have|has|can|could)\b", m["other"]):
            verb = "are "  # "any of them cheaper?" (it was "Any of Gout cheaper?")
        res.among = res.among if klass else drugs  # "are any of them used for nausea?": it listed other drugs for nausea
        return f"Which of the {klass or LISTED_DRUGS} {verb}{m['other']}?"
    if not klass:
        res.among = drugs
    verb = re.sub(r"^(?:treats|helps|lowers|reduces|prevents|cures|works|targets|inhibits|blocks|activates|acts|binds)\b",
                  lambda v: v.group(0)[:-1], re.sub(r"^(?:(?:good|useful|helpful|used|prescribed|given|indicated) )?for\b",
                                                    "treat", m["rest"], flags=re.IGNORECASE))
    return f"Which {klass or 'of the ' + LISTED_DRUGS} {verb}?"


_CAUSES = re.compile(r"^(?:(?:can|could|may|might|would|will|does|do) )?(?:causes?|induces?|triggers?|leads? to|results? in|"
                     r"brings? on|gives? (?:you|me|people|someone|patients))\s+(?P<what>[^?.!]+?)[?.!]*$", re.IGNORECASE)
"""What a question about the listed drugs asks them to cause ("which one causes cough?")."""


def _do_they_cause(res: Resolution, drugs: list[str], what: str, focus: Focus) -> str:
    """"Which one causes cough?" after "compare lisinopril and losartan" (or "which of them cause cough?" after a list):
    "Do lisinopril and Losartan cause cough?", each drug's chain that raises it after the note on side effects
    (``agents.answer_notes.EACH_CAUSES``). It was "Which of the listed drugs causes cough?", answered with what Cough
    is connected to."""
    known = {i["id"]: i for i in [*focus.compared, *latest_drugs(focus), *listed_drugs(focus), *focus.listed]}
    named = [known[d] for d in drugs if d in known]
    for drug in named:
        res.pinned[fold(drug["name"])] = {k: drug[k] for k in ("id", "name", "type") if k in drug}
    names = [d["name"] for d in named]
    return f"Do{' both' if len(names) == 2 else ''} {and_listed(names)} cause {what}?" if len(names) > 1 \
        else f"Does {and_listed(names)} cause {what}?"


_KIND_OF_THEM = re.compile(
    r"^(?:(?:which|what|how many)(?: ones?)?(?: of (?:them|these|those|the above)(?: diseases| conditions| ones)?)? (?:are|is)|"
    r"(?:are|is) (?:any|some|either|there any)(?: of (?:them|these|those|that|it))?|any(?: of (?:them|these|those))?|"
    r"are (?:they|these|those|them) (?:all|both)|(?:and )?(?:which|what)(?= (?:cancers?|tumou?rs|infections?|malignancies)\W*$))"
    r"\s+(?:an? |the )?"
    r"(?!(?:used|prescribed|given|indicated|approved|taken|good|effective|useful|helpful|safe|for|against|of)\b)"
    r"(?P<kind>[\w -]+?)[?.!]*$", re.IGNORECASE)
"""A question about the kind of the diseases or drugs the last answer listed ("which of those are cancers?", "how many
of them are SSRIs?": it was read as "How many of Depressive disorder are SSRIs?"; "are they all statins?" after a list
of drugs was asked of the list's target). "Which of them are used for lung cancer?" asks no kind of them (it was
refused: "cancers are diseases"). "Which cancers?" after what a drug treats asks the same (it was NOT_FOUND)."""


def kinds_of_them(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which of those are cancers?" after "What does imatinib treat?": what of that kind the thread's drug treats
    ("What cancers does imatinib treat?", ``State.disease_kind``). After a list of drugs, ``q`` itself, refused
    (``Resolution.refused``). None for any other question, or when the latest list is of neither."""
    m = _KIND_OF_THEM.match(q.strip())
    latest = focus.lists[0] if focus.lists else []
    kind = disease_kind(m["kind"]) if m else ""
    if kind and latest and all(i.get("type") in DRUG_TYPES for i in latest):  # after "What drugs treat lymphoma?"
        res.references.append({"text": q, "how": "kind", "drugs": [i["id"] for i in latest]})
        res.refused = (f"the last answer lists drugs, and {kind_noun(kind)} are diseases; ask \"What {kind_noun(kind)} does "
                       f"{latest[0]['name']} treat?\" for one of them")
        return q
    if not kind or focus.drug is None or not latest or any(i.get("type") not in DISEASE_TYPES for i in latest):
        return None
    name = str(focus.drug["name"])
    res.references.append({"text": q, "how": "kind", "entity": focus.drug})
    res.pinned[fold(name)] = focus.drug
    return f"What {kind_noun(kind)} does {name} treat?"


CLASS_COMPARED = 5
"""A class's drugs (the most connected first) that "which one is the strongest?" compares after a turn about the class."""
_THEM = re.compile(r"\b(?:them|these|those|ones)\b|^(?:\w+ )?which one\b", re.IGNORECASE)
"""A question that refers to the listed drugs in words ("what are its targets?" names no kind of them)."""


def _unknown_class(kind: str, linker: Linker) -> bool:
    """Whether the words after "which of them are" name a kind of drug the class table lacks: a plural noun that names
    no entity ("biologics", "generics"; not "effective" or "approved", which are no kinds)."""
    last = kind.strip().split()[-1].casefold() if kind.strip() else ""
    return last.endswith("s") and not last.endswith("ss") and not linker.scan(kind) and not out_of_scope(kind)


def _named_after(kind: str, linker: Linker) -> str:
    """The word drugs are named after when the kind is that word and no class ("an insulin", "insulins": Insulin
    Glargine, insulin glulisine, …), as written in the singular; "" otherwise."""
    word = drop_article(kind.strip())
    return next((w for w in (word, *singulars(word)) if " " not in w and linker.headed_by(w, DRUG_TYPES)), "")


def members_of_them(res: Resolution, q: str, focus: Focus, linker: Linker) -> str | None:
    """"Which of those is a kinase inhibitor?", "are any of them beta blockers?" after a list of drugs: which of the
    listed drugs the class has (``Linker.drug_class``, by their names), said in the answer (a ``members`` reference),
    and what those act on, as "what do they target?" asks of all of them; "none of the 5 listed drugs …" when it has
    none (``Resolution.refused``). It was read as what the whole class acts on, also after "how do they work?"."""
    m = _KIND_OF_THEM.match(q.strip())
    drugs = latest_drugs(focus) or focus.compared or (listed_drugs(focus) if focus.drug_class == LISTED_DRUGS else [])
    klass = {c.id for c in linker.drug_class(m["kind"])} if m and drugs else set()
    named = _named_after(m["kind"], linker) if m and drugs and not klass else ""
    if named:  # "which of these is an insulin?": the drugs named after insulin (it told what the protein is connected to)
        klass = set(linker.headed_by(named, DRUG_TYPES))
    if m and drugs and not klass and _THEM.search(q) and (acting := acting_on(m["kind"], linker)):
        return of_them(res, f"which of them {acting}", focus)  # "which of these are xanthine oxidase inhibitors?"
    if m and drugs and not klass and _THEM.search(q) and _unknown_class(m["kind"], linker):  # "are any of them biologics?"
        res.refused = (f"medpath knows no drug class named \"{m['kind'].strip()}\": its class table "
                       "(memory/drug_classes.tsv) names classes by the stems of their drugs' names, such as statins, "
                       "beta blockers or kinase inhibitors")
        return q
    if not klass:
        return None
    kind, names = linker.class_name(m["kind"].strip()) or plural(named), ", ".join(i["name"] for i in drugs)
    inside = [i for i in drugs if i["id"] in klass]
    treats = focus.disease is not None and focus.intent == "treats"
    if not inside and treats and not _THEM.search(q):  # "any biologics?", "are there any biologics?": for the disease
        res.pinned[fold(focus.disease["name"])] = focus.disease  # type: ignore[index]
        res.references.append({"text": q, "how": "ellipsis", "entity": focus.disease, "replaced_by": kind})
        return f"Which {kind} treat {focus.disease['name']}?"  # type: ignore[index]
    if not inside and not named and (each := each_asked([str(i["name"]) for i in drugs], kind)):  # the table's "No"
        res.references.append({"text": q, "how": "each of them", "of": [i["id"] for i in drugs]})  # as if named
        if treats:  # then where the class's drugs for the disease are listed
            res.references.append({"text": q, "how": "after", "note": f"Ask \"Which {kind} treat {focus.disease['name']}?\""  # type: ignore[index]
                                   " for those."})
        return each
    if not inside:
        ask = f"; ask \"Which {kind} treat {focus.disease['name']}?\" for those" if treats else ""  # type: ignore[index]
        who = f"none of the {len(drugs)} listed drugs ({names}) is" if len(drugs) > 1 else f"the listed drug ({names}) is not"
        res.refused = f"{who} named after {named}" if named else (f"{who} among the {kind} that medpath knows by name "
                                                                   f"(memory/drug_classes.tsv){ask}")
        return q
    said = ", ".join(i["name"] for i in inside)
    count = ("The listed drug is one of the" if len(drugs) == 1 else f"{'Both' if len(drugs) == 2 else f'All {len(drugs)}'} listed drugs are" if len(inside) ==
             len(drugs) else f"1 of the {len(drugs)} listed drugs is "
             "one of the" if len(inside) == 1 else f"{len(inside)} of the {len(drugs)} listed drugs are")
    res.among = [i["id"] for i in inside]
    res.references.append({"text": q, "how": "members", "drugs": res.among, "of": [i["id"] for i in drugs],
                           "note": f"{count} {kind}: {said}."})
    return f"What do the listed {kind} target?"


_PLURAL = re.compile(r"\b(?:(?:these|those|the) (?:drugs|medications|medicines|ones|compounds)|both(?: of them| drugs)?|they|them|"
                     r"these|those)\b", re.IGNORECASE)
"""A plural reference that may stand for the listed drugs."""
SUBJECT_INTENTS = (Intent.TARGETS, Intent.INDICATIONS)
"""Questions whose subject may be several drugs at once ("what do statins target?")."""


def plural_refs(res: Resolution, q: str, focus: Focus) -> str:
    """"What do they treat?", "which diseases do these drugs treat?", "what do they target?" after a list of drugs:
    every drug of the latest list that has several is the subject (``Resolution.among``). "They" was read as the
    first drug, and "these drugs" as a name the graph lacks. After a drug class's mechanism ("How do statins lower
    cholesterol?"), they are the class; after turns about two drugs and no list ("what about propranolol?" after
    atenolol), the two ("what do they target?" was asked of propranolol alone, and "what do both target?" was NOT_FOUND).
    Only where the reference is the drug slot of such a question; otherwise ``q`` unchanged."""
    drugs = [d["id"] for d in focus.compared or listed_drugs(focus)]
    klass = focus.drug_class if focus.by_class and focus.drug_class != LISTED_DRUGS else ""
    two = focus.drugs[:2][::-1] if not drugs and not klass and len(focus.drugs) >= 2 else []
    if not drugs and not klass and not two:
        return q
    for m in _PLURAL.finditer(q):
        parsed = parse_with_reference(q, m.span())
        if parsed is None or parsed.intent not in SUBJECT_INTENTS or parsed.drug.upper() != REFERENCE:
            continue
        if klass:  # after "How do statins lower cholesterol?", whose list is of what they act on
            res.references.append({"text": m.group(0), "how": "class", "class": klass})
            return q[: m.start()] + klass + q[m.end():]
        if two:  # "what do they target?" after turns about atenolol and propranolol: "What do A and B target?"
            res.references.append({"text": m.group(0), "how": "compared", "drugs": [d["id"] for d in two]})
            res.pinned.update({fold(d["name"]): d for d in two})
            return q[: m.start()] + " and ".join(d["name"] for d in two) + q[m.end():]
        res.references.append({"text": m.group(0), "how": "list", "drugs": drugs})
        res.among = drugs
        return q[: m.start()] + f"the {LISTED_DRUGS}" + q[m.end():]
    return q


def fits_several(res: Resolution, q: str, span: tuple[int, int], ent: dict[str, Any], focus: Focus) -> bool:
    """Whether the pronoun at ``span``, read as ``ent``, fits several entities equally: a patient's medications (True:
    it is not read at all, :func:`_one_of_several`) or the two drugs just compared (False: it is read as ``ent``,
    :func:`_either_compared`). Either way an interactive run asks which one (``Resolution.ambiguous``)."""
    if ent.get("for") or ent is focus.record_condition:
        return _one_of_several(res, q, span, focus, "medications" if ent.get("for") else "conditions")
    _either_compared(res, q, span, ent, focus)
    return False


def _one_of_several(res: Resolution, q: str, span: tuple[int, int], focus: Focus, kind: str) -> bool:
    """"Why is he on it?" after a patient's medications (or "how many patients have it?" after the conditions), when
    the record lists several: their order is the record's, not a ranking, so the pronoun at ``span`` could be any of
    them. An interactive run asks which one (``Resolution.ambiguous``); otherwise ``Resolution.refused`` names them (it
    was read as the first)."""
    meds = [i for i in (focus.lists[0] if focus.lists else []) if i.get("for")] if kind == "medications" else \
        focus.record_conditions
    if len(meds) < 2:
        return False
    who, ref, names = focus.patient_id or "the patient", q[span[0] : span[1]], [i["name"] for i in meds]
    def ask(name: str) -> str:
        return f"\"{q[: span[0]]}{name}{q[span[1] :]}?\""
    res.refused = (f"\"{ref}\" could be any of {who}'s {len(meds)} {kind} ({', '.join(names)}); name one "
                   f"({ask(names[0])}) or pick it by its place ({ask('the second one')})")
    res.ambiguous = {"mention": ref, "candidates": [{"id": i["id"], "name": i["name"], "type": i.get("type") or "Drug"} for i in meds],
                     "question": f"Which of {who}'s {kind} does \"{ref}\" mean? Answer with a number or a name."}
    return True


def _either_compared(res: Resolution, q: str, span: tuple[int, int], ent: dict[str, Any], focus: Focus) -> None:
    """"What does it target?" right after drugs were compared: "it" is read as ``ent`` (the first), but could be any of
    them, so an interactive run asks (``Resolution.ambiguous``)."""
    ref = q[span[0] : span[1]]
    if ref.casefold() != "it" or res.ambiguous or ent.get("id") not in {d["id"] for d in focus.compared}:
        return
    names = [d["name"] for d in focus.compared]
    names = f"{', '.join(names[:-1])} or {names[-1]}"
    res.ambiguous = {"mention": ref, "candidates": focus.compared,
                     "question": f"Which drug does \"{ref}\" mean: {names}? Answer with a number or a name."}
