"""Whether a drug belongs to a class: "Is atorvastatin a statin?", "is aspirin an NSAID?"; and a class's drugs: "which
drugs are statins?", "what else is in that class?".

Answered from the hand-written class table the linker reads (``memory/drug_classes.tsv``: each class's drugs by the
stems of their names), and the answer says so and offers the question that gives the drug's mechanism (the graph's
few "subclass of" edges name classes for 30 drugs). It used to be answered as what the drug is connected to, or NOT_FOUND ("no chain of relations from
Aspirin to non-steroidal anti-inflammatory drug").
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed, listing
from agents.ellipsis import drug_named, entity_of
from agents.focus import Focus
from agents.intent import ParsedQuestion
from agents.list_size import EXAMPLES
from agents.qualifiers import TRAILING_QUALIFIER
from agents.resolution import Resolution
from agents.scope import RANKING_DRUGS, out_of_scope
from agents.state import DRUG_TYPES, LISTED_DRUGS, Intent, Status
from core.text import fold
from tools.link_outcome import LinkStatus

__all__ = ["DRUG_NOUNS", "asks_class_of", "class_as_subject", "class_drugs", "class_members", "class_membership", "each_asked", "in_that_class",
           "membership_answer", "of_the_thread", "of_thread_class", "other_members", "same_class_of_them"]

_IS_A = re.compile(r"^(?:is (?P<x>.+?) (?:really |actually |also )?(?:a kind of|a type of|a form of|one of the|a member of the|"
                   r"in the class of|classed as an?|considered an?|an?)?|are (?P<xs>.+?) (?:really |actually |also )?"
                   r"(?:(?:one of the|kinds? of|types? of|members of the|in the class of|classed as|considered) )?)"
                   r" ?(?P<c>.+?)[?.!]*$", re.IGNORECASE)
"""Whether a drug, or a class, is one of a class: "is aspirin an NSAID?", "are statins blood thinners?" (a plural needs no
article, nor does a mass noun: "is methotrexate chemotherapy?"; the words after it must name a class)."""


_EITHER_CLASS = re.compile(r"^(?P<a>.+?),? or (?:an? )?(?P<b>.+?)$", re.IGNORECASE)
"""A choice between two classes ("is fluoxetine an SSRI or an SNRI?": it told what fluoxetine is connected to)."""
_SEVERAL_OF = re.compile(r"^are (?P<rest>[^?]+?)[?.!]*$", re.IGNORECASE)
"""Whether each of several drugs is of a class ("are aspirin and ibuprofen both NSAIDs?"): it was read as a chain from
the first drug to the second (NOT_FOUND). :func:`_several_named` splits the drugs from the class."""
_APART = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
"""Where one listed name ends and the next begins ("atorvastatin, simvastatin and metformin")."""


_ARTICLE = re.compile(r" (?:an?|one of the|a kind of|a type of|a member of the) ", re.IGNORECASE)
"""Where a drug's name of several words ends in "is X a C?": the lazy name of :data:`_IS_A` stops at its first word,
and the class read after it ("carbonate a mood stabilizer") names none."""

_ONE_CLASS = (r"(?:(?:(?:both )?(?:in|of|from|belong to|part of) the same|the same (?:kind|type|sort) of) (?:drug |medication "
              r"|medicine )?(?:class|family|group|category|kind|type|drugs?|medications?|medicines?)|the same (?:drug |medication "
              r"|medicine )?(?:class|family|group|category))[?.!]*$")
"""The end of a question whether drugs are of one class ("… in the same class?", "… the same kind of drug?", "are they
the same class?", which was asked of the second drug alone)."""
_SAME_CLASS = re.compile(
    rf"^(?:are|do) (?P<a>.+?) and (?P<b>.+?) {_ONE_CLASS}|"
    r"^(?:is|does) (?P<c>.+?) (?:in|of|from|belong to|part of) the same (?:drug |medication )?(?:class|family|group|category)"
    r" (?:as|like) (?P<d>.+?)[?.!]*$", re.IGNORECASE)
"""Whether two drugs are of one class ("Are amlodipine and nifedipine in the same class?", "is amlodipine in the same
class as lisinopril?"): it looked for a chain from one drug to the other (NOT_FOUND)."""

_THEIR_CLASS = re.compile(rf"^(?:so |and |but )?(?:are|do) (?:they|these|those|the two|both|these two|those two)(?: both)? "
                          rf"{_ONE_CLASS}", re.IGNORECASE)
""":data:`_SAME_CLASS` of the thread's two drugs ("are they in the same class?")."""

_BOTH_A = re.compile(r"^(?:so |and |but )?(?:are (?:they|these|those|the two|these two|those two) both (?P<x>[^?.!]+?)|are both "
                     r"(?:of them|of these|of those) (?P<y>[^?.!]+?))[?.!]*$", re.IGNORECASE)
"""Whether the thread's two drugs are both of a class ("are they both statins?"), the class in ``x`` or ``y``."""

_WHICH_CLASS = re.compile(
    r"^(?:what|which)(?: drug| medication| medicine)? (?:class(?:es)?|kinds?|types?|family|families|group|category|sort)"
    r"(?: of (?:drugs?|medications?|medicines?|agents?))? (?:is|are|does|do) (?P<x>.+?)(?: (?:belong to|in|part of|"
    r"fall (?:into|under)|classed as|classified as))?[?.!]*$|^(?:what is |what's )?(?P<y>.+?)(?:'s|’s)? drug class[?.!]*$",
    re.IGNORECASE)
"""A question for a drug's class ("What class of drug is lisinopril?", "what kind of drug is aspirin?", "which class
does sertraline belong to?"): it was answered with what the drug is connected to."""


MEMBERS_SHOWN = 10
"""How many of a class's drugs an answer names."""


_MEMBERS = re.compile(
    r"^(?:(?:what|which)(?: other)? (?:drugs|medications|medicines|ones)(?: besides (?P<n>.+?))? (?:are|count as) (?P<a>.+?)|"
    r"(?:(?:can you |please )?(?:list|name|give me|show me|tell me))(?: all| some| a few)?(?: of)?(?: the)?(?: examples? of)? (?P<b>.+?)|"
    r"(?:what|which) (?:are|is) (?:some|a few|(?:some |a few )?examples? of|the members of) (?P<d>.+?)|(?:some |a few )?examples? of (?P<e>.+?)|"
    r"(?:what|which)(?: other)? (?:drugs|medications|medicines) (?:are )?(?:in|belong to) the (?P<c>.+?) "
    r"(?:class|group|family))[?.!]*$", re.IGNORECASE)
"""A request for a class's drugs ("which drugs are statins?", "list the blood thinners", "what are some NSAIDs?", "give
me examples of NSAIDs"): it was answered with what the class acts on, and no drug of it named. "besides X" leaves X
out ("what else is in that class?", resolved)."""


def class_drugs(linker: Any, cls: str) -> list[Any]:
    """The drugs of a class the table knows, the most connected first, one per name (the table's NSAIDs hold two
    "Sulindac", which were listed and counted twice)."""
    named: dict[str, Any] = {}
    for c in linker.drug_class(cls):
        named.setdefault(fold(c.name), c)
    return list(named.values())


def class_members(question: str, linker: Any) -> dict[str, Any] | None:
    """``{"class": plural, "members": [entities], "left_out": name}`` for a request for a class's drugs
    (:data:`_MEMBERS`) that names a class the table knows; None for anything else. A population after the class ("which
    drugs are statins in pregnancy?", "which ones are safe in pregnancy?" after a class, as understood) is one the graph
    does not distinguish, which the answer's note says: it was NOT_FOUND, "no drug and drug class in the question"."""
    text = " ".join(question.split())
    population = TRAILING_QUALIFIER.search(text)
    m = _MEMBERS.match(text[: population.start()].rstrip() if population else text)
    cls = linker.class_name(m["a"] or m["b"] or m["c"] or m["d"] or m["e"]) if m else ""
    if m is None or not cls:
        return None
    left_out = drug_named(m["n"], linker) if m["n"] else None
    members = [entity_of(c) for c in class_drugs(linker, cls) if left_out is None or fold(c.name) != fold(left_out["name"])]
    return {"class": cls, "members": members, "left_out": left_out["name"] if left_out else "",
            "population": population[1] if population else ""}


def members_answer(check: dict[str, Any]) -> dict[str, Any]:
    """The drugs of a class (:func:`class_members`), the most connected first, at most :data:`MEMBERS_SHOWN` named."""
    cls, members = check["class"], check["members"]
    names = [d["name"] for d in members[:MEMBERS_SHOWN]]
    more = f" and {len(members) - len(names)} more" if len(members) > len(names) else ""
    besides = f" besides {check['left_out']}" if check["left_out"] else ""
    answer = (f"The class table lists one of the {cls}{besides} in the knowledge graph (by the stem of its name): {names[0]}. "
              f"For how it acts, ask \"What does {names[0]} target?\"." if len(members) == 1 else  # not "1 biguanides"
              f"The class table lists {len(members)} {cls}{besides} in the knowledge graph (by the stems of their names), "
              f"the most connected first: {', '.join(names)}{more}. For how they act, ask \"How do {cls} work?\"."
              if members else f"The class table lists no {cls}{besides} in the knowledge graph.")
    if check.get("population") and members:
        answer += f" Neither the class table nor the knowledge graph tells them apart for {check['population']}."
    return {"status": Status.ANSWERED, "answer": answer, "items": members[:MEMBERS_SHOWN]}


_OTHERS = re.compile(
    r"^(?:and |so )?(?:what|which|are there any|are there|any)(?P<o> other| more)? (?P<c>.+?)(?: are there| exist| do you know(?: of| about)?|"
    r" are in the (?:knowledge )?graph)?[?.!]*$", re.IGNORECASE)
"""A request for a class's drugs by the class's name alone ("what other NSAIDs are there?", "any other statins?")."""


def other_members(question: str, linker: Any, drug: dict[str, Any] | None) -> str | None:
    """"What other NSAIDs are there?" after aspirin: "Which drugs besides Aspirin are NSAIDs?" (it listed what the
    NSAIDs act on); without "other", or with no drug of the class in the thread, "Which drugs are NSAIDs?". None
    for a question that names no class the table knows."""
    m = _OTHERS.match(" ".join(question.split()))
    cls = linker.class_name(m["c"]) if m and (m["o"] or re.search(r"\b(?:are there|exist|do you know)", question, re.IGNORECASE)) else ""
    if not cls:
        return None
    inside = drug is not None and m["o"] and any(c.id == drug["id"] for c in linker.drug_class(cls))
    return f"Which drugs besides {drug['name']} are {cls}?" if inside else f"Which drugs are {cls}?"


_THAT_CLASS = re.compile(
    r"^(?:and |so )?(?:(?:what|which)(?: else| other (?:drugs|medications|medicines|ones)| others)? (?:is|are) (?:also )?"
    r"(?:in|part of) (?:that|this|the same|its|their) (?:class|group|family)|(?:are there |any )?others? (?:in|from|of) "
    r"(?:that|this|the same|its) (?:class|group|family)|(?:(?:can you )?(?:list|name|show me) )?(?:all |the )?"
    r"(?:other )?(?:drugs|medications|members|ones) (?:in|of) (?:that|this|the same|its) (?:class|group|family))[?.!]*$",
    re.IGNORECASE)
"""A follow-up about the class the last turn named ("what else is in that class?" after "is warfarin a blood thinner?":
it was NOT_FOUND, "no known entity in the question")."""


def in_that_class(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """The request for the drugs of the class the last turn named (:data:`_THAT_CLASS`), the drug it asked about left
    out. With no class named, the class of the thread's drug ("what other drugs are in the same class?" after "how
    does omeprazole work?": it was NOT_FOUND), the first the table gives when it names several; a drug of no class
    asks for its class, which the answer says the table does not name. None for any other question, or with neither."""
    if not _THAT_CLASS.match(q):
        return _their_nouns(res, q, focus) or _some_of_the_class(res, q, focus) or _class_beyond(res, q, focus)
    drug, cls = focus.class_drug, focus.named_class
    if not cls and focus.drug and focus.drug.get("type") in DRUG_TYPES:
        drug, classes = focus.drug, linker.classes_of(focus.drug["id"])
        cls = classes[0] if classes else ""
    if not cls and drug is None:
        return None
    res.references.append({"text": q, "how": "class", "class": cls, "entity": drug})
    if drug:
        res.pinned[fold(drug["name"])] = drug
    if not cls:
        return f"What class is {drug['name']}?"
    besides = f"besides {drug['name']} " if drug else ""
    return f"Which drugs {besides}are {cls}?"


DRUG_NOUNS = (r"(?:other\s+)?(?:targets?|mechanism|indications?|uses?|side[- ]effects?|adverse effects?|doses?|dosage|"
              r"dosing|interactions?|contraindications?|price|cost|safety|half[- ]life|therapeutic (?:range|level|window)|"
              r"pharmacokinetics)")
"""A drug's nouns that "its" (a drug) or "their" (a class) refers back to; the last ones name what the graph does not
hold, said so in the answer."""
_THEIR = re.compile(rf"\btheir\s+({DRUG_NOUNS})\b", re.IGNORECASE)


def _their_nouns(res: Resolution, q: str, focus: Focus) -> str | None:
    """"What are the side effects of statins?" for "what are their side effects?" after "How do statins lower
    cholesterol?" (it was NOT_FOUND, '"their side effects" is not in the knowledge graph'; after "How do triptans
    work?" it listed the triptans). After a list of two or more drugs, what the listed drugs treat (their uses) or act
    on (it was NOT_FOUND too). None for any other question, or with neither in the thread."""
    cls, listed = focus.named_class, focus.drug_list
    if (m := _THEIR.search(q)) is None or not cls and len(listed) < 2:
        return None
    if cls:
        res.references.append({"text": "their", "how": "class", "class": cls, "entity": None})
    else:  # after a list of drugs ("What drugs treat gout?"), its drugs: what they treat, or else what they act on,
        res.among = [d["id"] for d in listed if d.get("id")]  # after the note on what the graph does not hold
        res.references.append({"text": "their", "how": "list", "drugs": res.among})
        return f"What do the {LISTED_DRUGS} {'treat' if re.match(r'(?:other )?(?:uses?|indications?)', m[1]) else 'target'}?"
    asked = f"{q[:m.start()]}the {m.group(1)} of {cls}{q[m.end():]}".rstrip("?.! ")
    return f"{asked[:1].upper()}{asked[1:]}?"


_WHICH_OF_THEM = re.compile(r"^(?:and |so |but )?(?:which|what)(?: ones?| of them| of these| of those)? (?:are|is|do|does|don'?t|doesn'?t|"
                            r"won'?t|can|can'?t|have|cause|make|work)\b", re.IGNORECASE)


_NAME_SOME = re.compile(r"^(?:and |so |ok,? )?(?:(?:can|could) you |please )?(?:name|list|give me|tell me|show me)(?: me)? "
                        r"(?:a few|some|several|a couple|one or two|all)(?: of them| of those)?(?: please)?[?.!]*$|"
                        r"^(?:and |so )?(?:which|what) ones are there[?.!]*$|^(?:and |so )?what are some(?: of them)?[?.!]*$|"
                        r"^(?:and |so )?(?:which|what)(?: ones| drugs| of them)? (?:are|is) (?:there )?in (?:the|your) (?:knowledge )?"
                        r"(?:graph|database|data)[?.!]*$|^(?:and |so )?(?:which|what)(?: ones| drugs| of them)? (?:do|does) (?:you|the "
                        r"(?:knowledge )?graph) (?:have|hold|know)[?.!]*$|"
                        + EXAMPLES, re.IGNORECASE)
"""A request for some of the class's drugs: "name a few", "which ones are there?", "give me examples" (it was NOT_FOUND,
'"give me examples" is not in the knowledge graph'); one example ("give me an example", "for example?") is the drug
the last answer's evidence starts from (``agents.last_answer``)."""


def _some_of_the_class(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Name a few", "can you name some?", "which ones are there?" after "How do SSRIs work?": "Which drugs are SSRIs?"
    (they were NOT_FOUND, '"name a few" is not in the knowledge graph'). None for any other question, or with no class
    in the thread."""
    cls = focus.named_class
    if not cls or not _NAME_SOME.match(q):
        return None
    res.references.append({"text": q, "how": "class", "class": cls, "entity": None})
    return f"Which drugs are {cls}?"


def _class_beyond(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which ones don't make you drowsy?", "which of them are cheapest?" after "How do antihistamines work?": what the
    graph does not hold about the class the thread is about (``agents.scope``'s note says so), answered with the class's
    drugs, "Which drugs are antihistamines?" (it was NOT_FOUND, "no known entity in the question"). None for any other
    question, with no class, or with a disease in the thread (which of the class treat it is asked otherwise)."""
    cls = focus.named_class
    topic = out_of_scope(q)  # "which one is the strongest?" compares the class's drugs (``agents.list_refs``)
    if not cls or focus.disease or not _WHICH_OF_THEM.match(q) or not topic or topic == RANKING_DRUGS:
        return None
    res.references.append({"text": q, "how": "class", "class": cls, "entity": None})
    return f"Which drugs are {cls}?"


def asks_class_of(question: str, linker: Any) -> bool:
    """Whether a question asks if something is of a drug class ("is it an antibiotic?"): its "it" is a drug. After
    "What treats acne?" it was the disease ("Is Acne vulgaris an antibiotic?")."""
    m = _IS_A.match(" ".join(question.split()))
    return m is not None and bool(linker.class_name(m["c"]))


_IS_ONE = re.compile(r"^(?:and |so |but )?(?P<v>is|are) (?P<x>\S.*?) (?:also |too |really )?(?:one|ones|one of them|one of those|"
                     r"in that class|in that group|one too|also one)[?.!]*$", re.IGNORECASE)
"""Whether a drug is of the class the thread was about ("is alendronate one?" after "How do bisphosphonates work?")."""


def of_the_thread(res: Resolution, q: str, focus: Focus, linker: Any = None) -> str | None:
    """A class question about the thread's class or drugs: :func:`of_thread_class` ("is alendronate one?"), then
    :func:`same_class_of_them` ("are they in the same class?", "are they both statins?"); None for any other
    question."""
    return of_thread_class(res, q, focus) or same_class_of_them(res, q, focus, linker)


def of_thread_class(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Is alendronate one?" after a turn about a drug class: "Is alendronate one of the bisphosphonates?" (it was
    NOT_FOUND, "no known entity in the question"). None for any other question, or after no class."""
    m = _IS_ONE.match(" ".join(q.split()))
    if m is None or not focus.named_class or m["x"].casefold() in ("it", "that", "this", "they", "these", "those"):
        return None
    res.references.append({"text": q, "how": "class", "class": focus.named_class})
    return f"{m['v'].capitalize()} {m['x']} one of the {focus.named_class}?"


def same_class_of_them(res: Resolution, q: str, focus: Focus, linker: Any = None) -> str | None:
    """"Are they in the same class?" after turns about two drugs (the two the latest answer compared, else the thread's
    two latest, older first): "Are Amlodipine and Nifedipine in the same class?" (it was asked of the latest drug
    alone, "Are Nifedipine in the same class?"); "are they both statins?", with a class the ``linker`` knows: "Are
    atorvastatin and Simvastatin statins?" (it was "Are Simvastatin both statins?"). None for any other question, or
    with fewer than two drugs."""
    two, both = focus.two_drugs, _BOTH_A.match(" ".join(q.split()))
    cls = (both["x"] or both["y"]) if both else ""
    if not (_THEIR_CLASS.match(q) or cls and linker is not None and linker.drug_class(cls)) or len(two) < 2:
        return None
    res.references.append({"text": q, "how": "both", "entities": two})
    res.pinned.update({fold(d["name"]): d for d in two})
    return f"Are {two[0]['name']} and {two[1]['name']} {cls}?" if cls else f"Are {two[0]['name']} and {two[1]['name']} in the same class?"


_CLASS_WORD = re.compile(r"^(?:anti[\w-]+|[\w-]+(?:ants?|ics?))$", re.IGNORECASE)
"""A word shaped like a drug class's name ("immunosuppressant", "antidiabetic"), which the class table may lack."""


def class_membership(question: str, linker: Any) -> dict[str, Any] | None:
    """``{"drug": entity, "mention": text, "class": plural, "member": bool}`` for "is X a C?" naming one drug the linker
    links and a class it knows; for "what class is X?", ``{"drug", "mention", "classes": [its classes]}``; for "are X
    and Y in the same class?", ``{"pair": [two entities], "classes": [each one's classes]}``; None for anything else
    (then the question is read as before)."""
    text = " ".join(question.split())
    if (pair := _SAME_CLASS.match(text)) is not None:
        drugs = [drug_named(x, linker, read=True) for x in ((pair["a"], pair["b"]) if pair["a"] else (pair["c"], pair["d"]))]
        return None if None in drugs else {"pair": drugs, "classes": [linker.classes_of(d["id"]) for d in drugs if d]}
    if (w := _WHICH_CLASS.match(text)) is not None:
        drug = drug_named(w["x"] or w["y"], linker)
        return None if drug is None else {"drug": drug, "mention": w["x"] or w["y"], "classes": linker.classes_of(drug["id"])}
    if (many := _several_named(text, linker)) is not None:  # "are aspirin and ibuprofen both NSAIDs?"
        names, said, cls = many
        drugs = [drug_named(x, linker, read=True) for x in _APART.split(names) if x.strip()]
        if len(drugs) >= 2 and None not in drugs:
            ids = {c.id for c in linker.drug_class(said)}
            return {"several": drugs, "class": cls, "members": [d["id"] in ids for d in drugs]}
    m = _IS_A.match(text)
    x, said = ((m["x"] or m["xs"]), m["c"]) if m else ("", "")
    if m is not None and (pick := _EITHER_CLASS.match(said)) and all(linker.class_name(c) for c in pick.groups()) \
            and (drug := drug_named(x, linker, read=True)) is not None:  # "is fluoxetine an SSRI or an SNRI?"
        return {"drug": drug, "mention": x, "either": [(linker.class_name(c), drug["id"] in {d.id for d in linker.drug_class(c)})
                                                        for c in pick.groups()]}
    if m is not None and not linker.class_name(said):  # "is Lithium carbonate a mood stabilizer?": not "Lithium"
        x, said = next(((f"{x} {said[: a.start()]}", said[a.end():]) for a in _ARTICLE.finditer(said)
                        if linker.class_name(said[a.end():])), (x, said))
    cls = linker.class_name(said) if m else ""
    drug = drug_named(x, linker, read=True) if m is not None and cls else None
    if m is not None and cls and drug is None and (inner := linker.class_name(x)) and inner != cls:
        members, outer = ({c.id for c in linker.drug_class(t)} for t in (x, said))  # "is penicillin an antibiotic?"
        return {"inner_class": inner, "class": cls, "shared": len(members & outer), "of": len(members)}
    if m is not None and not cls and _CLASS_WORD.match(said) and (named := drug_named(x, linker, read=True)) is not None \
            and linker.link(said).status is not LinkStatus.LINKED:  # "is adalimumab an immunosuppressant?": a class the
        return {"drug": named, "mention": x, "classes": linker.classes_of(named["id"]), "unknown_class": said}  # table lacks
    if m is None or drug is None:
        return None
    return {"drug": drug, "mention": x, "class": cls, "member": drug["id"] in {c.id for c in linker.drug_class(said)}}


def membership_answer(question: str, linker: Any) -> dict[str, Any]:
    """The answer to "is X a C?" (:func:`class_membership`)."""
    if (members := class_members(question, linker)) is not None:  # "which drugs are statins?"
        return members_answer(members)
    check = class_membership(question, linker)
    if check is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no drug and drug class in the question."}
    if "inner_class" in check:
        return {"status": Status.ANSWERED, "answer": _class_in_class(check)}
    if "pair" in check:
        return {"status": Status.ANSWERED, "answer": _same_class(check["pair"], check["classes"])}
    if "several" in check:
        return {"status": Status.ANSWERED, "answer": _several_of(check)}
    if "either" in check:
        return {"status": Status.ANSWERED, "answer": _either_of(check["drug"]["name"], check["either"])}
    drug, cls = check["drug"]["name"], check.get("class", "")
    if "classes" in check:  # "what class of drug is lisinopril?"
        found = check["classes"]
        named = f"{', the '.join(found[:-1])} and the {found[-1]}" if len(found) > 1 else "".join(found)
        verdict = (f"{drug} is one of the {named} by its name" if found else
                   f"The class table names no class for {drug} by its name")
        lead = f"The class table has no class named \"{check['unknown_class']}\". " if check.get("unknown_class") else ""
        return {"status": Status.ANSWERED, "answer": f"{lead}{verdict} (the class table lists a class's drugs by the stems of "
                f"their names). For how it acts, ask \"What does {drug} target?\"."}
    verdict = (f"Yes: {drug} is one of the {cls} by its name (the class table lists a class's drugs by the stems of "
               f"their names)" if check["member"] else
               f"No: {drug} is not among the {cls} that the class table lists by the stems of their names")
    return {"status": Status.ANSWERED, "answer": f"{verdict}. For how it acts, ask \"What does {drug} target?\"."}


def class_as_subject(parsed: ParsedQuestion | None, linker: Any) -> ParsedQuestion | None:
    """"statin therapy", "beta blocker drugs", "what are the best statin drugs?": a treatment question whose only name
    is a drug class asks what the class acts on, as "statins" does. It was answered for one of the class's drugs ("statin"
    names a drug class; answered for Rosuvastatin … Rosuvastatin is connected to …")."""
    if parsed is None or parsed.intent is not Intent.TREATS or parsed.drug or not parsed.disease \
            or not linker.drug_class(parsed.disease):
        return parsed
    return ParsedQuestion(Intent.TARGETS, parsed.disease)


def _either_of(drug: str, either: list[tuple[str, bool]]) -> str:
    """"Is fluoxetine an SSRI or an SNRI?": which of the two classes the table puts the drug in, by its name."""
    (a, in_a), (b, in_b) = either
    verdict = (f"{drug} is one of both the {a} and the {b} by its name" if in_a and in_b else
               f"{drug} is one of the {a if in_a else b}, not the {b if in_a else a}, by its name" if in_a or in_b else
               f"{drug} is among neither the {a} nor the {b}")
    return (f"{verdict[:1].upper()}{verdict[1:]} (the class table lists a class's drugs by the stems of their names). For "
            f"how it acts, ask \"What does {drug} target?\".")


def _class_in_class(check: dict[str, Any]) -> str:
    """"Is penicillin an antibiotic?": how many of the first class's drugs the table puts in the second (it was
    NOT_FOUND, "no known entity in the question": a class is no drug)."""
    inner, cls, shared, n = check["inner_class"], check["class"], check["shared"], check["of"]
    verdict = (f"Yes: all {n} {inner} that the class table lists are among the {cls}" if shared == n else
               f"No: none of the {n} {inner} that the class table lists is among the {cls}" if shared == 0 else
               f"In part: {shared} of the {n} {inner} that the class table lists are among the {cls}")
    return (f"{verdict} (it lists a class's drugs by the stems of their names). For how they act, ask "
            f"\"How do {inner} work?\".")


def _same_class(pair: list[dict[str, Any]], classes: list[list[str]]) -> str:
    """"Are amlodipine and nifedipine in the same class?": the classes the table puts both in, else each one's."""
    (a, b), how = pair, "(the class table lists a class's drugs by the stems of their names)"
    shared = [c for c in classes[0] if c in classes[1]]
    ask = f"For how they act, ask \"Compare {a['name']} and {b['name']}\"."
    if shared:
        return f"Yes: {a['name']} and {b['name']} are both {listing(shared)} by their names {how}. {ask}"
    each = "; ".join(f"{d['name']} is one of the {listing(c)}" if c else f"it names no class for {d['name']}"
                     for d, c in zip(pair, classes, strict=True))
    return f"No: the class table puts {a['name']} and {b['name']} in no class together by their names ({each}). {ask}"


def each_asked(names: list[str], cls: str) -> str:
    """"Are A, B and C statins?" ("Is A one of the statins?" for one): the class table's verdict on each of ``names``
    (:func:`class_membership`), asked after a list none of whose drugs is in the class; "" when a name holds a comma,
    "and" or "or", which the question could not tell apart from the list."""
    if not names or any(_APART.search(n) for n in names):
        return ""
    return f"Is {names[0]} one of the {cls}?" if len(names) == 1 else f"Are {and_listed(names)} {cls}?"


def _several_named(text: str, linker: Any) -> tuple[str, str, str] | None:
    """``(the drugs' words, the class's words, the class)`` of "are X, Y and Z (both|all) C?": the longest last words
    (at most four) that name a class the table knows, when the words before them list several names; None otherwise."""
    m = _SEVERAL_OF.match(text)
    words = m["rest"].split() if m else []
    for k in range(min(4, len(words) - 3), 0, -1):
        names = re.sub(r"\s+(?:both|all|each|all of them)$", "", " ".join(words[:-k]), flags=re.IGNORECASE)
        said = " ".join(words[-k:])
        if _APART.search(names) and not re.match(r"(?:and|or)\b", said, re.IGNORECASE) and (cls := linker.class_name(said)):
            return names, said, cls
    return None


def _several_of(check: dict[str, Any]) -> str:
    """"Yes, both: Aspirin and Ibuprofen are NSAIDs by their names", "Only …", or "No: none of …" (the class table's
    verdict on each of several drugs, :func:`class_membership`)."""
    names, cls = [d["name"] for d in check["several"]], check["class"]
    inside = [n for n, member in zip(names, check["members"], strict=True) if member]
    outside = [n for n in names if n not in inside]
    if not outside:
        lead = f"Yes, {'both' if len(names) == 2 else f'all {len(names)}'}: {and_listed(names)} are {cls} by their names"
    elif not inside:
        lead = f"No: neither {names[0]} nor {names[1]} is" if len(names) == 2 else f"No: none of {and_listed(names)} is"
        lead += f" among the {cls}"
    else:
        one = len(inside) == 1
        lead = (f"Only {and_listed(inside)} {f'is one of the {cls} by its name' if one else f'are {cls} by their names'}; "
                f"{and_listed(outside)} {'is' if len(outside) == 1 else 'are'} not")
    return f"{lead} (the class table lists a class's drugs by the stems of their names)."
