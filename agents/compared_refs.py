"""Comparisons that refer to the thread's drugs: "compare the first two", "how do the first and third differ?" after a
list, "compare them" or "which one is better?" after turns about two drugs, "any interactions between them?", "is it
better than colchicine?" after how a drug treats a disease (asked for that disease), and a comparison of a drug with
itself refused. Split from ``agents.list_refs``, whose list references these build on."""

from __future__ import annotations

import re
from typing import Any

from agents.class_compare import compared_sides
from agents.ellipsis import ORDINAL_ALONE, entity_of
from agents.focus import ORDINALS, Focus
from agents.free_text import lexical
from agents.intent import COMPARING, SET_AGAINST, out_of_scope
from agents.list_refs import CLASS_COMPARED, latest_drugs, listed_drugs
from agents.record_refs import conditions_ranked
from agents.resolution import Linker, Resolution, restated
from agents.scope import INTERACTIONS
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent
from memory.patients import patient_ids_in
from tools.linker import LinkStatus, fold

__all__ = ["compared_refs", "for_treated", "self_compared"]

_ORDINAL = r"first|second|third|fourth|fifth"
_AGAINST = r"(?: one| drug| medication| medicine)? (?:is |are |works? |does )?(?:\w+ ){0,2}?(?:than|versus|vs\.?) (?:the )?"
_ORDINAL_AGAINST = re.compile(rf"\bthe (?:{_ORDINAL}){_AGAINST}(?:{_ORDINAL})\b", re.IGNORECASE)
"""Two of a list set one against the other ("is the second better than the first?": it was read as the first target
of the comparison answered before, "Is the second better than Xanthine dehydrogenase/oxidase?")."""
_COMPARED = re.compile(rf"\b(?:(?P<n>the (?:first|top) (?:two|three|2|3))|the (?P<a>{_ORDINAL}) and (?:the )?"
                       rf"(?P<b>{_ORDINAL})(?: ones?)?|the (?P<c>{_ORDINAL}){_AGAINST}(?P<d>{_ORDINAL})(?: ones?)?|them|these|those|"
                       r"the two|both|they)\b", re.IGNORECASE)
"""What a comparison refers to: "the first two", "the first and the third", "the second … than the first", or the drugs
as a group."""
_SAME_TARGET = re.compile(r"\b(?:the same|that|this) (?:target|protein|receptor|enzyme)s?\b|\bthe same as for\b|"
                          r"\b(?:target|hit|act on|block|inhibit) the same thing", re.IGNORECASE)
"""A question whether the thread's drug acts on what another does ("is that the same target as lisinopril?")."""
_SHARE = re.compile(r"\bshar(?:e[sd]?|ing)\b", re.IGNORECASE)
"""A comparison asked as what the drugs share: asked so, since "Compare X and Y" is also read as ranking them."""
_ALIKE = re.compile(r"^(?:so |and |but )?(?:how )?(?:are|do|is) (?:they|these|those|the two|both|it and \w+)(?: all| both)?(?: drugs| medications)?"
                    r"(?: all| both)? (?:the same(?: thing| drug)?|related|connected|linked|alike|similar|(?:work|act) (?:in )?the same(?: way)?|(?:work|act) (?:well )?together|(?:act on|target|hit|have|share) "
                    r"the same (?:targets?|proteins?|receptors?|mechanisms?|things?))$", re.IGNORECASE)
""""are they the same?", "how are they related?" after turns about two drugs: a comparison (it was "Are zolmitriptan the same?"); so are "do they
all work the same way?" and "do they all act on the same target?" after a list (the first was asked of the list's
disease, "Do Gout all work the same way?", and the second was NOT_FOUND)."""
_DIFFERENCE = re.compile(r"^(?:so |and |but |ok,? |then )?(?:what(?:'s|’s| is| are)|any|(?:is|are) there(?: an?| any)?) (?:the )?"
                         r"(?:main |key |real |big )?differences?(?: then)?$", re.IGNORECASE)
""""what's the difference?" after turns about two drugs (it was NOT_FOUND: "the difference" is not in the knowledge
graph); after two drug classes it compares the classes."""
_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
"""How many of the list "the first two" compares."""


_RANKS = re.compile(r"^(?:so |and |but |ok,? |then )?(?:which|what)(?: one| drug| medication| medicine| of them| of these| of those|"
                    r" of the (?:two|three|four|2|3|4)| of the (?:listed )?drugs)? (?:is|are|would be|works?|acts?|lasts?|has(?: an?| the)?|'s|’s) (?:the )?(?:better|best|more \w+|"
                    r"most \w+|less \w+|least \w+|stronger|strongest|safer|safest|weaker|worse|faster|fastest|quickest|first[- ]line|"
                    r"cheaper|older|oldest|newer|newest|selective|specific|longer|longest|shorter|shortest|"
                    r"preferred|(?:easier|easiest|gentler|gentlest|kinder|harder|hardest|tougher|rougher) (?:on|to)|"
                    r"better tolerated|(?:more |less |better |best |most |least )?tolerable)\b|"
                    r"^(?:so |and |but |ok,? |then )?(?:which|what)(?: one| drug| medication| medicine| of them| of these| of those| of the (?:two|three|four|2|3|4))? "
                    r"(?:should|would you recommend|do you recommend|do you suggest)(?: i| we)?(?:(?: take| use| choose| pick| try| go with)\b|(?=\W*$))|"
                    r"^(?:so |and |but |ok,? |then )?which(?: one| drug| medication| medicine| of them| of these| of those| of the (?:two|three|four|2|3|4))? "
                    r"should (?:i|we) avoid\b|^(?:so |and |but |ok,? |then )?(?:are|is) (?:any|some|one|either) of (?:them|these|those) "
                    r"(?:any )?(?:better|safer|stronger|more effective|preferred)\b|"
                    r"^(?:so |and |but |ok,? |then )?(?:which|what)(?: one| drug| medication| medicine| of them| of these| of those| of the (?:two|three|four|2|3|4))? "
                    r"(?:has|have|causes?|gives?|leads? to) (?:the )?(?P<fx>fewest|fewer|least|less|most|more) (?:side[- ]effects|adverse effects|"
                    r"interactions|weight gain|weight loss|(?:\w+ )?(?:problems|risk|harm|damage))\b|"
                    r"^(?:so |and |but |ok,? |then )?(?:which|what)(?: one| drug| medication| medicine| of them| of these| of those| of the (?:two|three|four|2|3|4))? "
                    r"(?:has|have|is backed by) (?:the )?(?:most|more|best|strongest|better) (?:evidence|proof|research|studies|data)\b",
                    re.IGNORECASE)
"""A question that ranks the thread's drugs without naming one ("which one is better?", "which of them is best?",
"which of these is more specific?" or "… is selective?", "which one lasts longer?", "which has a longer half-life?", "which one should I take?" or avoid, "which one has the fewest side effects?", "which
one causes less weight gain?", "which has the most evidence?": they were NOT_FOUND). "What should I avoid?" names no choice among them: it asks what to
eat or avoid with the thread's drug (``agents.scope``), and was refused as a ranking."""
_BETTER_ALONE = re.compile(r"^(?:so |and |but |ok,? )?(?:is|are|would|will) (?:it|that|this)(?: one| drug)? (?:be )?"
                           r"(?:any |even |much )?(?P<w>better|more effective|superior)(?: (?:then|though|here))?$", re.IGNORECASE)
"""A question whether the thread's drug is better, naming nothing to set it against ("is it better?"): after two drugs,
those two (it was "Is dasatinib better?", answered with what dasatinib is connected to); after one, there is nothing."""
_AGAINST_ONE = re.compile(r"^(?:(?:so |and |but |ok,? )?what(?:'s|’s| is| are) the differences? (?:with|from|to|versus|vs\.?|"
                          r"compared (?:to|with)) (?P<x>.+?)|how (?:does|do|is|are) (?P<y>.+?) (?:compare|differ|different)"
                          r"(?: (?:to|from|with) (?:it|that|this|that one|this one))?|(?:(?:so |and |but )?how (?:does|is) "
                          r"(?:it|that|this|that one|this one) (?:compare|differ|different) (?:to|from|with)|(?:so |and |but )?"
                          r"(?:is|are) (?:it|that|this|they|those) the same (?:(?:target|targets|mechanism) )?as(?: for| in| with)?) "
                          r"(?P<z>.+?)|(?:so |and |but )?(?:does|do) (?P<w>.+?) (?:have|share|hit|act on|use|target|block|inhibit) (?:the "
                          r"same|that|this) (?:target|mechanism|thing|protein|receptor|enzyme)s?(?: too| as well)?|(?:so |and |but )?(?:does|do) (?P<v>.+?) (?:work|act)"
                          r" (?:the same way|the same|similarly|in the same way|like (?:that|it|this))(?: too)?|(?:so |and |but )?why (?:is|are) "
                          r"(?:it|that|this|they) (?:often |usually |sometimes )?(?:combined|given|used|paired|taken|prescribed) "
                          r"(?:with|together with|alongside|along with) (?P<u>.+?)|(?:so |and |but )?why (?:is|are) (?!(?:it|that|this|"
                          r"they)\b)(?P<r>[\w' -]+?) (?:added|also given|given too|given as well)|(?:so |and |but |ok,? )?(?:is|are|would|will|"
                          r"does|do|might|could) (?!(?:it|that|this|they|those|these|the|one|any|some|either)\b)(?P<t>.+?) (?:be |work |works )?"
                          r"(?:any |even |much )?(?:better|more effective|superior|a better (?:choice|option))"
                          r"(?: (?:instead|then|though|here|(?:for|in|against) (?:it|that|this)))?|(?:so |and |but )?(?:is|are) "
                          r"(?!(?:it|that|this|they|those|these|the|one)\b)(?P<s>.+?) the same(?: thing| way)?(?: too)?)$",
                          re.IGNORECASE)
"""A question that sets one new drug against the thread's drug ("what's the difference with febuxostat?" after "How
does allopurinol treat gout?", "is dasatinib better?" after imatinib): it was answered with what febuxostat (or
dasatinib) is connected to."""


_ALL_OF = re.compile(r"\b(?:any|all|some|each|either|both|none) of (?:it|that|this|these|those|them)\b", re.IGNORECASE)
"""The latest list's drugs as a whole ("is any of it risky together?"): "it" could be any one of them."""


_OF_THE_N = re.compile(r"\bof the (two|three|four|2|3|4)\b", re.IGNORECASE)
"""How many of the thread's latest drugs a ranking asks about ("which of the three is newest?" after imatinib, dasatinib
and nilotinib: it compared the last two)."""
_BARE_INTERACTIONS = re.compile(r"^(?:(?:and |so |but )?(?:are there |is there |any |what about )+)?(?:any )?(?:(?:drug|possible|"
                                r"known|dangerous|bad) )?(?:interactions?|drug[- ]drug interactions?)[?.!]*$", re.IGNORECASE)
"""Interactions asked of nothing named ("any drug interactions?" after a patient's medications: it was NOT_FOUND, '"any
drug interactions" is not in the knowledge graph'): among the latest list's drugs when it lists two or more."""

_AMONG_THEM = re.compile(r"\s+(?:between|among|amongst|with) (?:them|these|those|each other|one another|(?:my|her|his|their) "
                         r"(?:medications|medicines|meds|drugs))(?=[?.!]*$)", re.IGNORECASE)
"""Interactions asked among the latest list's drugs ("any interactions between them?"): after one medication, asked of
it (it was "Any interactions between Vitamin E?")."""


def _bare_interactions(res: Resolution, q: str, focus: Focus) -> tuple[str, str]:
    """"Any drug interactions?" (:data:`_BARE_INTERACTIONS`): asked between the latest list's drugs when it lists two or
    more (the question, and ""), or, after one medication, of that one ("", "Any drug interactions of Vitamin E?")."""
    latest = latest_drugs(focus)
    if len(latest) >= 2:
        return q.rstrip("?.! ") + " between them?", ""
    if len(latest) == 1:
        res.pinned[fold(latest[0]["name"])] = latest[0]
        res.references.append({"text": q, "how": "ellipsis", "entity": latest[0]})
        return q, f"Any drug interactions of {latest[0]['name']}?"
    return q, ""


_BEST_FOR = re.compile(r"\b(?:best|first[- ]line|preferred|recommended|standard|usual) (?:treatments?|drugs?|medications?|"
                       r"medicines?|therap(?:y|ies)|options?|remed(?:y|ies)) for\b|\b(?:drugs?|treatments?) of choice for\b",
                       re.IGNORECASE)
"""A question for the best remedy for something: what treats it, not a ranking of the drugs already named ("what is the
first-line treatment for hypertension?" after the drugs for asthma compared those for hypertension)."""


_FOR_Y = re.compile(r"\b(?:for|in|against) (?P<y>(?!(?:it|them|that|this|me|you|him|her|us|the (?:stomach|heart|kidneys?|"
                    r"liver))\b)[^?.!]+?)[?.!]*$", re.IGNORECASE)
"""The disease a ranking asks about ("which is better for diabetic kidney disease?"): it was dropped, and the classes
compared as before."""


def _sides_again(res: Resolution, q: str, focus: Focus, linker: Linker) -> str:
    """"Which one is better?" right after "compare statins and aspirin": the same two again (it was NOT_FOUND), for
    the disease it names ("which is better for diabetic kidney disease?"); "" for any other question."""
    if not (_DIFFERENCE.match(q) or _RANKS.match(q)) or (sides := compared_sides(focus.latest_question, linker)) is None:
        return ""
    res.references.append({"text": q, "how": "compared", "sides": [s.name for s in sides]})
    latest = focus.latest_question[:1].upper() + focus.latest_question[1:]
    return f"{latest.rstrip('?.! ')} for {fy['y']}" if (fy := _FOR_Y.search(q)) else latest


def _compared_drugs(q: str, m: re.Match[str] | None, focus: Focus, latest: list[dict[str, Any]], alone: bool
                    ) -> list[dict[str, Any]]:
    """The drugs a comparison is about: the first N or the two named by place of the latest list, else the drugs just
    compared, the listed drugs, or the drugs the thread's turns were about."""
    pool = latest or focus.compared or listed_drugs(focus)  # after a comparison, the last list is of targets
    if m is not None and m["n"]:
        return pool[: _COUNTS[m["n"].split()[-1].casefold()]]
    if m is not None and (m["a"] or m["c"]):
        return [pool[ORDINALS[w.casefold()]] for w in (m["a"] or m["c"], m["b"] or m["d"]) if ORDINALS[w.casefold()] < len(pool)]
    listed = latest if len(latest) >= 2 or (m and latest) else listed_drugs(focus)  # a list of targets since
    drugs = focus.compared or focus.two_apart_from(listed) or (listed if len(listed) >= 2 and not alone else focus.drugs[:2][::-1])
    if (n := _OF_THE_N.search(q)) and not latest and len(focus.drugs) >= _COUNTS[n[1].casefold()] > len(drugs):
        return focus.drugs[: _COUNTS[n[1].casefold()]][::-1]  # "which of the three is newest?" after three turns
    return drugs


def compared_refs(res: Resolution, q: str, focus: Focus, linker: Linker) -> str | None:
    """"Compare the first two", "how do the first and third differ?" after a list of drugs, or "compare them" after
    turns about two drugs: "Compare X and Y", the drugs pinned (``State.compared``); so is "which one is better?" (it
    was NOT_FOUND, "no known entity"), about the two drugs just compared or the latest list, and "any interactions
    between them?" (after a patient's medications it asked what "them" meant). None for any other question."""
    if (ranked := conditions_ranked(res, q, focus)) is not None:
        return ranked
    interactions = out_of_scope(q) == "drug interactions"  # "any interactions between them?": what each acts on
    q = _ALL_OF.sub("they", q) if interactions else q  # "is any of it risky together?" after a patient's medications
    bare = _AMONG_THEM.sub("", q) if len(latest_drugs(focus)) == 1 else q  # "… between them?" after one medication
    if interactions and _BARE_INTERACTIONS.match(bare):  # "any drug interactions?"
        q, one = _bare_interactions(res, bare, focus)
        if one:
            return one
    m = _COMPARED.search(q) if COMPARING.search(q) or interactions or _ALIKE.match(q) or _ORDINAL_AGAINST.search(q) else None
    # "what is the best treatment for it?" asks what treats it (after a record it compared the record's medications)
    if m is None and _BEST_FOR.search(q):
        return None
    latest = latest_drugs(focus)
    if m is None and (again := _uses_ranked(res, q, focus, latest)):
        return again
    if m is None and (again := _sides_again(res, q, focus, linker)):
        return again
    if COMPARING.search(q) and len(focus.classes) >= 2 and not (latest or focus.compared or (m and (m["n"] or m["a"]))):
        res.references.append({"text": q, "how": "compared", "classes": focus.classes[1::-1]})  # "what's the difference?"
        return f"Compare {focus.classes[1]} and {focus.classes[0]}"  # after what ARBs and then ACE inhibitors target
    if m is None and (one := _AGAINST_ONE.match(q)) and focus.drug:
        return _against_one(res, q, next(g for g in one.groups() if g), focus.drug, linker)
    alone = _BETTER_ALONE.match(q) if m is None else None
    if alone and focus.drug and len(focus.compared or focus.drugs) < 2:  # "is it better?" after one drug: than what?
        name = focus.drug["name"]
        res.refused = (f"\"{alone['w']}\" sets {name} against another drug, and this conversation has named no other; name "
                       f"it (\"Is {name} better than …?\")")
        return q
    if m is None and not ((_RANKS.match(q) or alone or _DIFFERENCE.match(q)) and not patient_ids_in(q)):  # "… PAT_002 has?"
        return None
    found = linker.scan(q)
    disease = found[0][0] if len(found) == 1 and all(c.type in DISEASE_TYPES for c in found[0][1]) else ""
    organ = all(c.type == "GrossAnatomicalStructure" for _, cands in found for c in cands)  # "… safer for the stomach?"
    if m is None and found and not disease and not organ and not ((rk := _RANKS.match(q)) and rk["fx"]):
        return None  # "… fewer stomach problems?" (fx) compares them
    drugs = list({d["id"]: d for d in _compared_drugs(q, m, focus, latest, bool(alone))}.values())
    if len(drugs) < 2 and m is None and focus.named_class:  # "which one is the strongest?" after "What do statins …"
        drugs = [entity_of(c) for c in linker.drug_class(focus.named_class)[:CLASS_COMPARED]]
    if len(drugs or latest) == 1 and m is None:  # "which of those is best?" after one medication: "no known entity"
        return _only_one(res, q, (drugs or latest)[0])
    if len(drugs) < 2:
        return None
    res.references.append({"text": m.group(0) if m else q, "how": "compared", "drugs": [d["id"] for d in drugs]})
    res.pinned.update({fold(d["name"]): d for d in drugs})
    both = f"{', '.join(d['name'] for d in drugs[:-1])} and {drugs[-1]['name']}"
    if _SHARE.search(q):  # "do they share a target?"; after what each treats, "which of these do they share?" asks that
        uses = focus.intent == Intent.INDICATIONS.value and "target" not in q.casefold()
        return f"What do {both} treat?" if uses else f"Do {both} share a target?"
    return f"Compare {both} for {disease}" if disease else f"Compare {both}"  # "which is better for gout?": for it


_EFFICACY = re.compile(r"\b(?:better|best|more effective|most effective|superior|first[- ]line|preferred|recommend\w*|"
                       r"should (?:i|we|you) (?:take|use|choose|pick|try|go with))\b", re.IGNORECASE)
"""Words that ask which drug works better, which is for a disease ("is it better than colchicine?"), unlike "which is
more selective?", which asks about targets."""


def for_treated(res: Resolution, asked: str, focus: Focus, linker: Linker) -> None:
    """A follow-up that asks which of two or more drugs works better, right after a turn about how a drug treats a
    disease or which drugs do, is asked for that disease (``Focus.treated``): "is it better than colchicine?" after
    "How does allopurinol treat gout?" becomes "Is allopurinol better than colchicine for Gout?", each drug's mechanism
    for gout. It compared what the two drugs target. A follow-up that names a disease keeps its own, and one that
    compares none of that turn's drugs (a list from before it) is not about its disease."""
    disease = focus.treated
    if disease is None or not res.rewritten or res.missing or res.refused or not _EFFICACY.search(asked) or \
            out_of_scope(asked) == INTERACTIONS or not any(e.get("id") in focus.treated_by for e in res.pinned.values()):
        return  # "should I take it with ibuprofen?" asks whether the two go together, not which is better
    found = [cands for _, cands in linker.scan(res.question)]
    if sum(any(c.type in DRUG_TYPES for c in cands) for cands in found) < 2 or \
            any(c.type in DISEASE_TYPES for cands in found for c in cands):
        return
    res.references.append({"text": asked, "how": "thread disease", "entity": disease})
    res.pinned[fold(disease["name"])] = disease
    q = re.sub(r"\s+(?:for|in|against) (?:that|this|it)\b(?=\W*$)", "", res.question.rstrip("?.! "), flags=re.IGNORECASE)
    res.question = f"{q} for {disease['name']}{'?' if res.question.endswith('?') else ''}"  # "… for that?": the disease


def self_compared(res: Resolution) -> None:
    """A reference that stands for the very drug it is compared with is refused (``Resolution.refused``): "how does
    levodopa compare to the first one?" when levodopa heads the list was asked as "How does levodopa compare to
    levodopa?", NOT_FOUND, "no chain of relations from levodopa to levodopa"."""
    if res.refused or res.missing or not (COMPARING.search(res.question) or SET_AGAINST.search(res.question)):
        return
    for ref in res.references:
        drug = ref.get("entity") or {}
        name = str(drug.get("name") or "")
        if drug.get("type") in DRUG_TYPES and len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", res.question, re.IGNORECASE)) > 1:
            res.refused = (f"\"{ref['text']}\" is {name} itself, so the question compares {name} with {name}; name "
                           f"another drug to compare it with")
            return


def _uses_ranked(res: Resolution, q: str, focus: Focus, latest: list[dict[str, Any]]) -> str | None:
    """"which of those is the most common use?" after what ibuprofen treats ranks the listed diseases, which the graph
    does not rank: the last question again, answered after the note (it was refused as a comparison of one drug);
    None for any other question, and for "which one is more selective?" after turns about two drugs, which compares them
    (it was asked what the second treats)."""
    if not (_RANKS.match(q) and focus.intent == "indications" and focus.lists and not latest) or (
            len(focus.drugs) >= 2 and not re.search(r"\b(?:common|usual|main|typical|frequent|uses?)\b", q, re.IGNORECASE)):
        return None
    res.references.append({"text": q, "how": "again", "question": focus.question})
    return restated(focus.question)


def _only_one(res: Resolution, q: str, drug: dict[str, Any]) -> str:
    """A question that ranks the thread's drugs when the thread has named one (``Resolution.refused``)."""
    name = drug["name"]
    hint = f"How does {name} differ from …?" if _DIFFERENCE.match(q) else f"Is {name} better than …?"
    res.refused = (f"\"{q.rstrip('?.! ')}\" sets two or more drugs side by side, and this conversation has named one: "
                   f"{name}; name another (\"{hint}\")")
    return q


def _against_one(res: Resolution, q: str, name: str, drug: dict[str, Any], linker: Linker) -> str | None:
    """"Compare <the thread's drug> and <the drug named>", when the name links to another drug and the question names
    nothing else ("how do aspirin and ibuprofen differ?" compares the two it names), or when the name links to nothing
    (it was NOT_FOUND, "no known entity in the question")."""
    if ORDINAL_ALONE.match(name):  # "how does it compare to the first one?": the list's first, read as any ordinal is
        return None
    found = len(linker.scan(q))
    if found != 1:  # none: "how does apixaban compare?", and the planner says that the name is not in the graph
        unknown = not found and 0 < len(name.split()) <= 3 and lexical(linker.link(name)).status is LinkStatus.UNKNOWN
        return f"Compare {drug['name']} and {name}" if unknown else None
    out = linker.link(name)
    best = out.candidates[0] if out.candidates and out.status.value == "linked" else None
    if best is None or best.type not in DRUG_TYPES or best.id == drug.get("id"):
        return None
    other = entity_of(best)
    res.references.append({"text": q, "how": "compared", "drugs": [drug["id"], other["id"]]})
    res.pinned.update({fold(d["name"]): d for d in (drug, other)})
    both = f"{drug['name']} and {other['name']}"
    return f"Do {both} share a target?" if _SAME_TARGET.search(q) else f"Compare {both}"
