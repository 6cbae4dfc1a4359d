"""Questions that compare two diseases: "compare asthma and COPD", "what is the difference between type 1 and type 2
diabetes?", "how are gout and hyperuricemia related?".

They were walked from one disease to the other and found no chain (`NOT_FOUND`), or answered for the second disease
alone ("type 1 and type 2 diabetes": "type 1" names nothing alone). The knowledge graph holds drug mechanisms, so two
diseases are compared by what it links into each (the processes, findings and places of the curated chains that end
there) and by the drugs whose chains reach each, without a walk. "type 1 and type 2 diabetes" shares its noun: "type 1"
is read as "type 1 diabetes" when that is a name.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.answer_paths import pagerank_answers
from agents.ellipsis import entity_of
from agents.intent import SLOT_TYPES
from agents.state import DISEASE_TYPES, Intent, Status
from core.text import drop_article, fold
from tools.linker import GUESSED_METHODS, LinkStatus

__all__ = ["DRUGS_SHOWN", "LINKS_SHOWN", "as_written", "compared_diseases", "diseases_answer", "set_against",
           "two_diseases"]

LINKS_SHOWN = 5
"""What the graph links into a disease, named per group (both, only one); the rest are counted."""
DRUGS_SHOWN = 5
"""Drugs named per disease."""

_BETTER = r"better|worse|safer|stronger|weaker|best|more effective|less effective|more potent|less potent"
"""The words that weigh two names against each other in :data:`_PAIR`."""
_PAIR = re.compile(
    r"^(?:(?:can|could) you |please )?(?:compare|contrast) (?P<a>.+?) (?:and|with|to|vs\.?|versus) (?P<b>.+?)$|"
    r"^(?:what(?:'s| is| are) )?(?:the )?(?:main |key |biggest )?(?:differences?|similarit(?:y|ies)|link|relation(?:ship)?|"
    r"connection) between (?P<a2>.+?) and (?P<b2>.+?)$|"
    r"^how (?:do|does|are|is) (?P<a3>.+?) and (?P<b3>.+?) (?:differ|compare|related|linked|connected|different|similar|alike)$|"
    r"^how (?:is|are|does|do) (?P<a4>.+?) (?:different from|differ from|compare (?:to|with)|related to|linked to) (?P<b4>.+?)$|"
    r"^what do (?P<a5>.+?) and (?P<b5>.+?) have in common$|"
    r"^(?P<a6>[\w' -]+?) (?:vs\.?|versus) (?P<b6>[\w' -]+?)$|"
    rf"^(?:which|what)(?: one)?(?:'s| is) (?:{_BETTER})[,:]? (?P<a7>[\w' -]+?),? (?:or|vs\.?|versus) (?P<b7>[\w' -]+?)$|"
    rf"^(?:is|are) (?P<a8>[\w' -]+?) (?:{_BETTER}) than (?P<b8>(?:(?! (?:for|in|at|to) )[\w' -])+?)$|"
    rf"^(?:is|are) (?P<a9>[\w' -]+?),? or (?P<b9>[\w' -]+?) (?:{_BETTER})$|"
    r"^(?P<a10>[\w' -]+?),? or (?P<b10>[\w' -]+?)$|"
    r"^(?:is|are) (?P<a11>[\w' -]+?) and (?P<b11>[\w' -]+?) (?:the same(?: thing)?|alike|similar|different)$|"
    r"^(?:is|are) (?P<a12>[\w' -]+?) (?:the same as|similar to|different from|like) (?P<b12>[\w' -]+?)$|"
    r"^how (?:is|are) (?P<a13>.+?) (?:treated|managed) differently (?:from|than|to) (?P<b13>.+?)$|"
    r"^do (?P<a14>[\w' -]+?) and (?P<b14>[\w' -]+?) (?:work|act) (?:the same(?: way)?|alike|similarly|in the same way|"
    r"differently)$|"
    r"^(?:is it (?:safe|ok|okay) to |(?:can|should|could) (?:i|you|we|one|they|he|she) )?(?:take|combine|mix|use) (?P<a15>[\w' -]+?) "
    r"(?:with|and) (?P<b15>[\w' -]+?)(?: together| at the same time)?$|"
    r"^(?:is|are) (?P<a16>[\w' -]+?) (?:safe|ok|okay) (?:to (?:take|use|combine) )?with (?P<b16>[\w' -]+?)$|"
    r"^(?:does|do) (?P<a17>[\w' -]+?) interact with (?P<b17>[\w' -]+?)$", re.IGNORECASE)
"""Two names set against each other: compared, told apart ("are statins and fibrates the same?"), weighed ("is aspirin
better than statins?", "which is better, statins or aspirin?"), offered as a bare choice ("statins or aspirin?"),
asked whether they work alike ("do statins and fibrates work the same way?", which was NOT_FOUND), or whether they may
be taken together ("are triptans safe with SSRIs?", "can I take statins with fibrates?": with two classes, or a
class and a drug, ``agents.class_compare`` tells what each acts on; they were NOT_FOUND, "no known entity")."""
_TREATED = re.compile(r"^(?:(?:the )?(?:treatments?|therapy|management)|that) (?:of|for) | (?:treatments?|therap(?:y|ies)|"
                      r"management|drugs|medications)$", re.IGNORECASE)
"""What is set against in the end is each disease's treatment ("the difference between type 1 and type 2 diabetes
treatment": "type 2 diabetes treatment" named nothing; "how does the treatment of asthma differ from that of COPD?")."""
_TRIM = re.compile(r"^(?:(?:and|so|ok|okay),? )|[?.!\s]+$", re.IGNORECASE)


def compared_diseases(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question that compares two diseases (their mentions, both in the disease slot), or
    None for any other question: one whose names are not both diseases, or do not both link."""
    pair = set_against(question)
    if pair is None:
        return None
    a, b = pair
    first = _disease(a, linker) or _disease(_shared_noun(a, b), linker)
    second = _disease(b, linker) or _disease(_shared_noun(b, a), linker)  # "type 1 diabetes … from type 2"
    if first is None or second is None or first[1]["id"] == second[1]["id"]:
        return None
    return {"intent": Intent.DISEASES.value, "mentions": [
        {"slot": "disease", "mention": text, "status": "linked", "entity": ent} for text, ent in (first, second)]}


def two_diseases(question: str, mentions: list[dict[str, Any]]) -> bool:
    """Whether a question that sets two names against each other (:data:`_PAIR`) named two diseases, linked once the
    user picked among several ("what is the link between obesity and diabetes?": "diabetes" asks which, so
    :func:`compared_diseases` does not read it, and the walk found no chain from one to the other)."""
    ents = {m["entity"]["id"]: m["entity"] for m in mentions if m.get("entity")}
    return set_against(question) is not None and len(ents) == len(mentions) == 2 \
        and all(e["type"] in DISEASE_TYPES for e in ents.values())


def set_against(question: str) -> tuple[str, str] | None:
    """The two names a question sets against each other, articles dropped, or None."""
    m = _PAIR.match(_TRIM.sub("", " ".join(question.split())))
    if m is None:
        return None
    got = [_TREATED.sub("", v) for v in m.groups() if v]
    return (drop_article(got[0]), drop_article(got[1])) if len(got) == 2 else None


def _shared_noun(a: str, b: str) -> str:
    """"type 1" against "type 2 diabetes": "type 1 diabetes" (the last word of ``b`` that ``a`` lacks)."""
    words = b.split()
    return f"{a} {words[-1]}" if len(words) > 1 and len(a.split()) < len(words) else a


def as_written(text: str, slot: str, linker: Any) -> Any:
    """The entity ``text`` names as written (or misspelt) for a ``slot``, not by a guess (an n-gram inside it, a
    meaning): its candidate, or None."""
    out = linker.link(text, SLOT_TYPES[slot])
    best = out.best
    return best if out.status is LinkStatus.LINKED and best is not None and best.method not in GUESSED_METHODS else None


def _disease(text: str, linker: Any) -> tuple[str, dict[str, Any]] | None:
    """``(text, entity)`` when ``text`` names one disease or finding as written (:func:`as_written`)."""
    best = as_written(text, "disease", linker)
    return (text, entity_of(best)) if best is not None and best.type in DISEASE_TYPES else None


def diseases_answer(state: Any, res: Any) -> dict[str, Any]:
    """What the knowledge graph links into both diseases and into one only, and the drugs whose chains reach each, with
    the two diseases as ``items`` ("what drugs treat the second one?" next)."""
    ents = [m["entity"] for m in state.mentions if m.get("slot") == "disease" and m.get("entity")][:2]
    if len(ents) < 2:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no two diseases in the question."}
    kg = res.kg
    (a, b), (na, nb) = ents, (ents[0]["name"], ents[1]["name"])
    direct = list({(e.head, e.relation, e.tail): e for e in _between(kg, a["id"], nb) + _between(kg, b["id"], na)}.values())
    la, lb = _links(kg, a["id"], nb), _links(kg, b["id"], na)
    both = [x for k, x in la.items() if k in lb]
    parts = [f"The knowledge graph links them directly: {'; '.join(f'{kg.name(e.head)} {e.relation} {kg.name(e.tail)}' for e in direct)}."
             ] if direct else []
    parts.append(f"In the knowledge graph {na} and {nb} are both linked to: {_named(kg, both)}." if both else
                 f"The knowledge graph links nothing else to both {na} and {nb}." if direct else
                 f"The knowledge graph links nothing to both {na} and {nb}.")
    parts += [f"Only {n} is linked to: {_named(kg, own)}." for n, own in (
        (na, [x for k, x in la.items() if k not in lb]), (nb, [x for k, x in lb.items() if k not in la])) if own]
    da, db = (pagerank_answers(res, [x["id"]], ["Drug"], set()) for x in (a, b))
    if da or db:
        parts.append("The drugs whose chains of relations lead most directly into each (PageRank upstream from the "
                     "disease): " + "; ".join(f"{n}: {listing([kg.name(x) for x in d[:DRUGS_SHOWN]]) or 'none'}"
                                              for n, d in ((na, da), (nb, db))) + ".")
        shared = [kg.name(x) for x in da[:DRUGS_SHOWN * 2] if x in set(db[:DRUGS_SHOWN * 2])][:DRUGS_SHOWN]
        if shared:
            parts.append(f"Among the first {DRUGS_SHOWN * 2} of both lists: {listing(shared)}.")
    parts.append(f"Ask \"What drugs treat {na}?\" for the drugs with a verified mechanism, and \"How does <drug> treat "
                 f"{na}?\" for one drug's mechanism.")
    return {"status": Status.ANSWERED, "answer": " ".join(parts), "items": ents}


def _links(kg: Any, disease: str, other: str) -> dict[str, str]:
    """What the graph links to a disease, by either direction, drugs and the disease named ``other`` left out, one
    per name (two entries may share one: Pain): ``{folded name: id}``, the most connected first. Chemicals stay: uric
    acid was left out of what gout and hyperuricemia share, with the drugs."""
    near = {e.head for e in kg.in_edges(disease)} | {e.tail for e in kg.out_edges(disease)}
    near = {x for x in near if x != disease and (n := kg.node(x)) is not None and n.type != "Drug"}  # uric acid stays
    out: dict[str, str] = {}
    for x in sorted(near, key=lambda x: (-kg.degree(x), kg.name(x))):
        out.setdefault(fold(kg.name(x)), x)
    out.pop(fold(other), None)
    return out


def _between(kg: Any, disease: str, other: str) -> list[Any]:
    """The edges between ``disease`` and an entry named ``other``, either way (two entries may share a name:
    Hyperuricemia)."""
    return ([e for e in kg.out_edges(disease) if fold(kg.name(e.tail)) == fold(other)]
            + [e for e in kg.in_edges(disease) if fold(kg.name(e.head)) == fold(other)])


def _named(kg: Any, ids: list[str], shown: int = LINKS_SHOWN) -> str:
    names = [kg.name(x) for x in ids[:shown]]
    return listing(names) + (f" and {len(ids) - shown} more" if len(ids) > shown else "")
