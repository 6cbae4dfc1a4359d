"""A treatment question that names how the drugs should act: "Which drugs treat hypertension by inhibiting ACE?",
"drugs for gout that lower uric acid", "what drugs that target ACE treat hypertension?".

The disease slot held the whole qualifier ("hypertension by inhibiting ACE"), and the linker read it as ACE: the
answer listed the drugs that act on ACE and left hypertension out. Now the disease is the disease, and what the drugs act
through (``ParsedQuestion.via``) keeps the answer to the drugs that act on it (``tools.answers.acting_on``), in the
asked direction when the verb gives one, with the paths through it first (``State.via``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent
from core.text import fold
from tools.answers import TARGET_TYPES, acting_on, asked_sign
from tools.linker import KIND_HEAD

__all__ = ["ACTING_VERB", "YES_NO", "acting_through", "asks_amount", "asks_if_acts", "family_targets", "for_a_disease", "kind_ids",
           "names_the_kind", "none_acts", "verb_sign", "with_via"]

ACTING_VERB = (r"(?:inhibit|block|target|activat|stimulat|lower|reduc|rais|increas|decreas|suppress|antagoni[sz]|agoni[sz]|"
               r"bind|modulat|act)")
"""The stem of a verb that says how a drug acts ("inhibit", "inhibiting", "acts"), here and in ``agents.not_acting``."""
_ACTING = rf"{ACTING_VERB}\w*(?:\s+or\s+{ACTING_VERB}\w*)?(?:\s+(?:on|to|with))?"
""""inhibiting", "acting on", "inhibit or lower" (how a follow-up names the drugs a via answer kept to)."""
_OR_ACTING = re.compile(rf"^or\s+{_ACTING}\s+", re.IGNORECASE)
""""or lower" left before the entity when a rule took the first verb ("which drugs that inhibit or lower ACE …")."""
_BY = re.compile(rf"^(?P<y>.+?)\s+(?:by\s+{_ACTING}|(?:through|via)(?:\s+{_ACTING})?)\s+(?:the\s+)?(?P<x>[^,]+?)$", re.IGNORECASE)
""""hypertension by inhibiting ACE", "gout through xanthine oxidase": the disease, then what the drugs act through
("infections caused by Staphylococcus aureus" names no way of acting: "by" needs its verb)."""
_THAT = re.compile(rf"^(?P<y>.+?)\s+(?:that|which)\s+(?:can\s+|also\s+)?{_ACTING}\s+(?:the\s+)?"
                   rf"(?P<x>[^,]+?)$", re.IGNORECASE)
""""hypertension that block ACE" (from "drugs for hypertension that block ACE")."""
_THEN_TREAT = re.compile(r"^(?P<x>.+?)\s+(?:treats?|cures?|helps?(?: with)?|(?:is|are) used (?:to treat|for|against)|"
                         r"(?:can|could|may|might) (?:treat|cure|help(?: with)?))\s+(?P<y>.+)$", re.IGNORECASE)
""""ACE treat hypertension" (from "what drugs that target ACE treat hypertension?", read as drugs acting on ACE)."""
_MEASURED = re.compile(r"^(?:high|low|elevated|raised)\s+", re.IGNORECASE)
"""What the parser puts before a measure that a verb lowers or raises ("lowering uric acid" → "high uric acid")."""
_AGENT_THAT = re.compile(r"\b(?:that|which)\s*$", re.IGNORECASE)
_LABELS = {0: "drugs that act on {}", -1: "drugs that inhibit or lower {}", 1: "drugs that activate or raise {}"}
"""How the answer names the drugs it keeps to (``State.drug_class``), by the asked direction."""


def with_via(parsed: Any, question: str) -> Any:
    """``parsed`` (an ``agents.intent.ParsedQuestion``) with what the drugs act through split off its disease slot
    (``via``); a "drugs that target X treat Y" question, which a rule read as "drugs that target (X treat Y)", becomes
    the treatment question it is. A mechanism question keeps its drug ("How does lisinopril treat hypertension by
    inhibiting ACE?": its paths through ACE first). Unchanged when the slot names no such thing. ``question``: the
    text the rule read."""
    if parsed.intent is Intent.TARGETED_BY and _AGENT_THAT.search(parsed.among) and (m := _THEN_TREAT.match(parsed.disease)):
        via = _OR_ACTING.sub("", m["x"].strip())
        verb = question[: question.casefold().find(via.casefold())]  # "what drugs that inhibit or lower "
        return replace(parsed, intent=Intent.TREATS, disease=m["y"].strip(), via=via,
                       among=_AGENT_THAT.sub("", parsed.among).strip(), via_sign=asked_sign(verb))
    if parsed.intent not in (Intent.TREATS, Intent.MECHANISM) or parsed.via:
        return parsed
    m = _BY.match(parsed.disease) or _THAT.match(parsed.disease)
    if m is None:
        return parsed
    return replace(parsed, disease=m["y"].strip(), via=_MEASURED.sub("", m["x"].strip()), via_sign=asked_sign(m.group(0)[m.end("y"):m.start("x")]))


_REMEDY = r"(?:drugs?|medications?|medicines?|meds|treatments?|therap(?:y|ies)|pills?|agents?)"
_REMEDY_TAIL = re.compile(rf"\s+{_REMEDY}$", re.IGNORECASE)
"""The remedy noun after the words of a "which <words> drugs …" question."""
_REMEDY_FOR = re.compile(rf"^{_REMEDY}\s+(?:(?:used|prescribed|given|taken)\s+)?"
                         r"(?:for|against|to treat|that treat|in)\s+(?P<d>.+)$", re.IGNORECASE)
"""The words of a "which drugs for <words> …" question."""
_KIND = re.compile(r"(?:cancers?|tumou?rs?|oncology|infections?|antibiotic|diseases?|conditions?|other|new|common)", re.IGNORECASE)
"""Words before the noun that name no one disease."""


def for_a_disease(parsed: Any, question: str, linker: Any) -> Any:
    """"Which diabetes drugs act on AMPK?", "which drugs for gout inhibit xanthine oxidase?": the drugs for a disease that
    act on something, a treatment question with ``via`` (it listed every drug that acts on AMPK, for any disease).
    Unchanged when the words before the remedy noun name a drug class ("which beta blockers …") or no disease."""
    if parsed is None or parsed.intent is not Intent.TARGETED_BY or not parsed.among:
        return parsed
    words = m["d"] if (m := _REMEDY_FOR.match(parsed.among)) else _REMEDY_TAIL.sub("", parsed.among)  # "drugs for gout"
    if words == parsed.among or _KIND.fullmatch(words) or linker.drug_class(words) or linker.drug_class(parsed.among):
        return parsed  # "which cancer drugs target EGFR?": a kind of disease, no one disease
    best = linker.link(words).best
    if best is None or best.type not in DISEASE_TYPES:
        return parsed
    verb = question.casefold().split(parsed.among.casefold(), 1)[-1].rsplit(parsed.disease.casefold(), 1)[0]  # " inhibit "
    return replace(parsed, intent=Intent.TREATS, disease=words, via=parsed.disease, among="", via_sign=asked_sign(verb))


def acting_through(res: Any, parsed: Any, mentions: list[dict[str, Any]], klass: dict[str, Any]) -> dict[str, Any]:
    """``klass`` with what a question with ``via`` names (``via``: its ids) and, for a treatment question, the drug
    class it keeps its answer to: the drugs that act on the linked entity in the asked direction, within a class the
    question names ("which statins … by lowering LDL"). They act on it, on any entity of its name (uric acid is a
    ChEBI and a MeSH entry), or on any target of the kind the mention names ("sodium channels"). ``klass`` unchanged
    when the entity is not linked; ``among`` empty when no drug acts on it (:func:`none_acts`)."""
    m = next((m for m in mentions if m["slot"] == "via" and m.get("entity")), None)
    if m is None:
        return klass
    ent, name = m["entity"], m["entity"]["name"]
    ids = list(dict.fromkeys([ent["id"], *(c["id"] for c in m.get("candidates", []) if fold(c["name"]) == fold(name))]))
    if ent.get("method") == "words" or _the_kind_itself(m):  # "sodium channels": every target of that kind
        ids, name = _of_the_kind(res, m), m["mention"]
    if parsed.drug and not klass.get("among"):  # "How does lisinopril treat hypertension by inhibiting ACE?"
        return {**klass, "via": ids}
    drugs = list(dict.fromkeys(d for x in ids for d in acting_on(res.kg, x, DRUG_TYPES, parsed.via_sign)))
    if klass.get("among"):  # "which statins treat … by lowering LDL?": the class's drugs among them
        drugs = [d for d in klass["among"] if d in set(drugs)]
    label = _LABELS[parsed.via_sign].format(name)
    label = f"{klass['drug_class']} that {label.split(' that ', 1)[1]}" if klass.get("drug_class") else label
    return {**klass, "drug_class": label, "among": drugs, "via": ids}


def family_targets(res: Any, intent: Intent, mentions: list[dict[str, Any]], targets: list[str],
                   klass: dict[str, Any]) -> list[str]:
    """The targets of "which of them block sodium channels?" after a list (or "which statins …", any question kept to
    some drugs): every target of the kind the mention names (``EntityLinker.family``), as :func:`acting_through`
    reads a ``via``. It was the most connected one alone, Sodium channel protein type 5 subunit alpha, so after "What
    drugs treat epilepsy?" the question was NOT_FOUND, though lamotrigine acts on another sodium channel. A question
    about every drug keeps the one target: over the whole family the nearest drugs are not the ones a reader expects
    (quinidine and ivabradine before flecainide and lidocaine). A kind linked to the gene family of exactly its name
    ("calcium channels", :func:`_the_kind_itself`) is the whole kind for any question: that entry alone has two drugs,
    and the answer lists first those acting on the most of its members (``agents.answer_paths``)."""
    if intent is not Intent.TARGETED_BY:
        return targets
    family = [x for m in mentions if m["slot"] == "target" and ((m.get("entity") or {}).get("method") == "words"
              and klass.get("among") or _the_kind_itself(m)) for x in _of_the_kind(res, m)]
    return list(dict.fromkeys([*targets, *family]))


def _the_kind_itself(m: dict[str, Any]) -> bool:
    return names_the_kind(m.get("mention", ""), m.get("entity") or {})


def names_the_kind(mention: str, ent: dict[str, Any]) -> bool:
    """Whether a mention names a kind of target and links to the gene family of exactly that name ("calcium channels":
    Calcium Channels, which two drugs act on; the calcium channel blockers act on its members)."""
    return ent.get("type") == "GeneFamily" and fold(ent.get("name", "")) == fold(mention) and bool(KIND_HEAD.search(fold(mention)))


def _of_the_kind(res: Any, m: dict[str, Any]) -> list[str]:
    return kind_ids(res.linker, m["mention"], m["entity"]["id"])


def kind_ids(linker: Any, mention: str, eid: str) -> list[str]:
    """The ids of a mention linked as a kind of target ("sodium channels", ``method`` "words", or "calcium channels",
    :func:`names_the_kind`): its entity ``eid``, then every target of that kind (``EntityLinker.family``) that is a
    protein, a gene family or a complex. A process or a pathway of those words ("calcium ion transmembrane transport
    via high voltage-gated calcium channel") is no channel, and the drugs reaching it through some target were listed
    as blocking it (beta blockers for "which drugs treat hypertension by blocking calcium channels?")."""
    return list(dict.fromkeys([eid, *(c.id for c in linker.family(mention, []) if c.type in TARGET_TYPES)]))


def none_acts(klass: dict[str, Any]) -> str:
    """Why a question with ``via`` has no answer, or "" when it has drugs to list."""
    return f"no {klass['drug_class']} in the knowledge graph" if klass.get("via") and "among" in klass and not klass["among"] else ""


_AMOUNTS = frozenset({"ChemicalSubstance", "Protein", "GeneFamily", "MacromolecularComplex"})
"""What a drug raises or lowers the amount or the activity of, rather than treats."""


def asks_amount(question: str, intent: Intent, mentions: list[dict[str, Any]], klass: bool) -> bool:
    """Whether a treatment question asks which drugs raise or lower an amount of something (:data:`_AMOUNTS`:
    "which drugs lower histamine?", "what reduces prostaglandin E2?"): a question with a verb of direction about a
    chemical or a protein. A process is treated like a disease ("which drugs reduce gastric acid secretion?" ranks
    by the drugs' mechanisms into it)."""
    ents = [m["entity"] for m in mentions if m.get("entity")]
    return intent is Intent.TREATS and not klass and bool(ents) and len(ents) == len(mentions) \
        and all(e["type"] in _AMOUNTS for e in ents) and verb_sign(question, mentions) != 0


YES_NO = re.compile(r"^(?!(?:can|could|would|will) you (?:please )?(?:explain|describe|walk|tell|show|give|list|help)\b)"
                    r"(?:does|do|is|are|can|could|will|would|might|may)\b", re.IGNORECASE)
"""The opening of a yes/no question ("does ibuprofen lower …?", "is aspirin an inhibitor of …?"); a request ("Can you
explain how montelukast helps asthma?") is none (its answer opened "Yes: ")."""


def asks_if_acts(question: str, intent: Intent, mentions: list[dict[str, Any]]) -> bool:
    """Whether a yes/no mechanism question asks if a drug raises or lowers an amount of something ("Does ibuprofen
    lower prostaglandin E2?", "Does aspirin raise histamine?"): answered as how the drug acts on it, "Yes: " or "No:
    … the opposite" (it was told the path alone, whichever way it acts)."""
    drug = any(m["slot"] == "drug" and m.get("entity") for m in mentions)
    ends = [m["entity"] for m in mentions if m["slot"] == "disease" and m.get("entity")]
    return intent is Intent.MECHANISM and drug and len(ends) == 1 and ends[0]["type"] in _AMOUNTS \
        and bool(YES_NO.match(question)) and verb_sign(question, mentions) != 0


def verb_sign(question: str, mentions: list[dict[str, Any]]) -> int:
    """The direction the question's verb asks for (``tools.answers.asked_sign``), read without the names it links
    ("which drugs treat elevated histamine?" asks for no direction)."""
    for m in mentions:
        if m.get("mention"):
            question = re.sub(re.escape(m["mention"]), " ", question, flags=re.IGNORECASE)
    return asked_sign(question)
