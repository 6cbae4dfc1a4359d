"""Which drugs of a class are selective for a target: "which NSAIDs are COX-2 selective?" (it was NOT_FOUND, "no chain
of relations from non-steroidal anti-inflammatory drug to Prostaglandin G/H synthase 2"), "is celecoxib COX-2
selective?", "which beta blockers are selective for the beta-1 receptor?".

The graph does not record selectivity (how much more strongly a drug acts on one target than on another), and the
answer says so first. What it records is which targets each drug's curated mechanisms name, so the answer reads the
question that way: of the class's drugs that act on the target, those that act on none of the other targets the class
shares (those at least a quarter of its drugs act on, ``tools.answers.ROUTE_SHARE``), and how many act on both.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from agents.answer_notes import listing
from agents.ellipsis import drug_named, entity_of
from agents.focus import Focus
from agents.intent import SLOT_TYPES
from agents.resolution import Resolution
from agents.state import LISTED_DRUGS, Intent, Status, linked_mention
from agents.what_it_is import acted_on
from tools.answers import BECOMES, ROUTE_SHARE
from tools.linker import LinkStatus, fold

__all__ = ["selective_answer", "selective_of_them", "selective_question"]

_KIND = r"(?:inhibitors?|blockers?|antagonists?|agonists?|ones?|drugs?|medications?)"
_FOR = (rf"(?:(?:the )?(?:most |more )?selective (?:for|towards?) (?P<t1>.+?)|(?:the )?(?:most |more )?(?P<t2>\S+?)[- ]selective(?: {_KIND})?|"
        rf"(?:an? )?selective (?P<t3>.+?) {_KIND})")
_CARDIO = re.compile(r"\bcardio-?selective\b", re.IGNORECASE)
""""Cardioselective" is selective for the heart's beta-1 receptor ("which beta blockers are cardioselective?")."""
_WHICH = re.compile(rf"^(?:and )?(?:which|what) (?:of (?:the )?)?(?P<c>.+?) (?:is|are) {_FOR}[?.!]*$", re.IGNORECASE)
_IS = re.compile(rf"^(?:is|are) (?P<x>.+?) {_FOR}[?.!]*$", re.IGNORECASE)
_BARE = re.compile(rf"^(?:is|are) (?P<x>.+?) (?:an? )?(?:non-?)?selective(?: {_KIND})?[?.!]*$", re.IGNORECASE)
""""Is propranolol selective?", naming no target: among the targets its class shares (it got the note on comparisons of
how well drugs work and what propranolol is connected to)."""
NOTE = ("The knowledge graph does not record selectivity (how much more strongly a drug acts on one target than on "
        "another); it records which targets each drug's curated mechanisms name. ")
SHOWN = 8
"""How many drugs the answer names."""


def _asked(question: str, linker: Any) -> tuple[list[str], dict[str, Any] | None, str, dict[str, Any] | None] | None:
    """The class's drug ids, the drug asked about (None for "which of the class"), the class's name, and the target
    (None when the question names none: "is propranolol selective?"); None for any other question, or names that
    link no class, drug or target."""
    q = _CARDIO.sub("beta-1 selective", " ".join(question.split()))
    m = _WHICH.match(q) or _IS.match(q)
    named = next((g for g in (m["t1"], m["t2"], m["t3"]) if g), "") if m else ""
    target = next((out.best for text in (named, f"{named} receptor") if (out := linker.link(text, SLOT_TYPES["target"])).status
                   is LinkStatus.LINKED), None) if named else None  # "beta-1 selective": the beta-1 receptor
    if target is None or target.type not in ("Protein", "GeneFamily", "MacromolecularComplex"):
        bare = _BARE.match(q)  # "is aspirin a selective inhibitor?" names no target ("a" is none)
        drug = drug_named(bare["x"], linker) if bare else None
        return (*_class_of(drug, linker), None) if drug is not None else None
    assert m is not None
    if "c" in m.groupdict():
        members = [c.id for c in linker.drug_class(m["c"])]
        return (members, None, linker.class_name(m["c"]), entity_of(target)) if members else None
    drug = drug_named(m["x"], linker)
    if drug is None:
        return None
    members, drug, name = _class_of(drug, linker)
    return members, drug, name, entity_of(target)


def _class_of(drug: dict[str, Any], linker: Any) -> tuple[list[str], dict[str, Any], str]:
    """The drug's first class's drug ids, the drug, and the class's name (none and "" for a drug of no class)."""
    classes = linker.classes_of(drug["id"])
    members = [c.id for c in linker.drug_class(classes[0])] if classes else []
    return members, drug, classes[0] if classes else ""


_OF_THEM = re.compile(rf"^(?:so |and |ok,? )?(?:which|what)(?: ones?)?(?: drugs?)? (?:of (?:them|these|those)(?: drugs| ones)? )?(?P<be>is|are) {_FOR}[?.!]*$",
                      re.IGNORECASE)
"""A question about selectivity that refers to the drugs listed before ("which of them are selective for COX-2?")."""


_ONE_OF = re.compile(r"^(?:and |so |but |what about |how about )?(?:is|was|isn't|wasn't) (?P<x>.+?) (?:one of (?:them|those|these|"
                     r"the (?:drugs|ones|list))|among (?:them|those|these)|on (?:the|that|this|your) list|(?:listed|included)(?: there)?)"
                     r"[?.!]*$", re.IGNORECASE)
"""Whether a drug is one of those the last answer listed ("is carvedilol one of them?" after which beta blockers are
cardioselective: it was told what carvedilol is connected to)."""


def _one_of_them(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """"Is Carvedilol beta-1 selective?" for "is carvedilol one of them?" after "Which beta blockers are beta-1
    selective?" (or after the same question of another drug); None for any other question."""
    m = _ONE_OF.match(" ".join(q.split())) if focus.intent == Intent.SELECTIVE.value else None
    before = _CARDIO.sub("beta-1 selective", focus.question)  # "… are beta-1 selective?", or of one drug after it
    asked = (_WHICH.match(before) or _IS.match(before)) if m else None
    drug = drug_named(m["x"], linker) if m and asked else None
    if drug is None or asked is None:
        return None
    res.references.append({"text": q, "how": "listed", "entity": drug})
    res.pinned[fold(drug["name"])] = drug
    end = asked.end("c") if "c" in asked.groupdict() else asked.end("x")
    phrase = re.sub(r"^(?:is|are)\s+", "", before[end:].strip()).rstrip("?.! ")  # "beta-1 selective"
    return f"Is {drug['name']} {phrase}?"


def selective_of_them(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """"Which NSAIDs are selective for COX-2?" for "which of them are selective for COX-2?" after the class's drugs
    ("what are some NSAIDs?") or a turn about the class: it was asked as "How do the listed drugs work?", after the note
    on comparisons of how well drugs work. None for any other question, or with no class in the thread (two drugs
    compared are no class: "which one is more selective?" compares them)."""
    if (one := _one_of_them(res, q, focus, linker)) is not None:
        return one
    text = _CARDIO.sub("beta-1 selective", " ".join(q.split()).rstrip("?.! "))
    m = _OF_THEM.match(text)
    cls = focus.named_class or (focus.drug_class if focus.drug_class != LISTED_DRUGS else "") or next(iter(focus.classes), "")
    if m is None or not cls or not linker.drug_class(cls):
        return None
    res.references.append({"text": q, "how": "class", "class": cls})
    return f"Which {cls} are {text[m.end('be'):].strip()}?"


def selective_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question about selectivity: the intent, the drug (if one is named) and the target,
    so that "which drugs inhibit it?" next is about the target; None for any other question."""
    asked = _asked(question, linker)
    if asked is None:
        return None
    _members, drug, _name, target = asked
    mentions = [linked_mention("target", target)] if target is not None else []
    if drug is not None:
        mentions.insert(0, linked_mention("drug", drug))
    return {"intent": Intent.SELECTIVE.value, "mentions": mentions}


def _targets(kg: Any, drug: str) -> set[str]:
    """What a drug acts on by its own edges or through what it becomes."""
    firsts = [e.tail for e in kg.out_edges(drug) if e.relation in BECOMES]
    return {e.tail for d in (drug, *firsts) for e in kg.out_edges(d) if acted_on(kg, e)}


def selective_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """The class's drugs that act on the target and on none of the class's other shared targets, and how many act on
    both; for one drug, which of those it acts on (or what else it acts on, for a drug of no class)."""
    asked = _asked(question, linker)
    if asked is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no drug class and target named in the question."}
    members, drug, name, target = asked
    acts = {m: _targets(kg, m) for m in (*members, *([drug["id"]] if drug else []))}
    counts = Counter(t for m in members for t in acts[m])
    if target is None and drug is not None:  # "is propranolol selective?"
        common = [t for t, n in counts.most_common() if n >= ROUTE_SHARE * len(members)]
        return {"status": Status.ANSWERED, "items": [], "answer": NOTE + _among(kg, drug, acts[drug["id"]], common, name)}
    assert target is not None
    shared = [t for t, n in counts.most_common() if t != target["id"] and n >= ROUTE_SHARE * len(members)]
    others = listing([kg.name(t) for t in shared[:3]])
    if drug is not None:
        return {"status": Status.ANSWERED, "items": [], "answer": NOTE + _one(kg, drug, target, acts[drug["id"]], shared, name)}
    on, n = [m for m in members if target["id"] in acts[m]], len({fold(kg.name(m)) for m in members})  # one per name
    alone = list({fold(kg.name(m)): m for m in reversed([m for m in on if not acts[m] & set(shared)])}.values())[::-1]
    if not on:
        said = f"None of the {n} {name} in the knowledge graph acts on {target['name']}."
    elif not shared:
        said = f"Of the {n} {name}, {len({fold(kg.name(m)) for m in on})} act on {target['name']}; they share no other target."
    else:
        listed = listing([kg.name(m) for m in alone[:SHOWN]]) + (f" and {len(alone) - SHOWN} more" if len(alone) > SHOWN else "")
        said = (f"Of the {n} {name}, these act on {target['name']} and on none of the other targets they share "
                f"({others}): {listed}." if alone else
                f"Every one of the {name} that acts on {target['name']} acts on {others} too.")
        both = len({fold(kg.name(m)) for m in on if acts[m] & set(shared)})
        said += f" {both} act on both." if alone and both else ""
    items = [entity_of(n) for m in alone[:SHOWN] if (n := kg.node(m)) is not None]
    return {"status": Status.ANSWERED, "items": items, "answer": NOTE + said}


def _one(kg: Any, drug: dict[str, Any], target: dict[str, Any], acts: set[str], shared: list[str], name: str) -> str:
    """The sentence for one drug: whether it acts on the target, and on which of the class's shared targets (or, for a
    drug of no class, on what else)."""
    if target["id"] not in acts:
        return f"It records {drug['name']} acting on {listing([kg.name(t) for t in sorted(acts)][:3]) or 'nothing'}, not on {target['name']}."
    also = [t for t in shared if t in acts] if name else sorted(acts - {target["id"]})
    if not also:
        beside = f"none of the other targets the {name} share ({listing([kg.name(t) for t in shared[:3]])})" if name and shared \
            else "no other target"
        return f"It records {drug['name']} acting on {target['name']} and on {beside}."
    return f"It records {drug['name']} acting on {target['name']} and also on {listing([kg.name(t) for t in also[:3]])}."


def _among(kg: Any, drug: dict[str, Any], acts: set[str], common: list[str], name: str) -> str:
    """The sentence for "is propranolol selective?": which of the targets its class shares it acts on (all of them:
    "not selective among them"; some: those alone), or, for a drug of no class or a class that shares fewer than two,
    what it acts on."""
    on = [t for t in common if t in acts]
    if not name or len(common) < 2 or not on:
        return f"It records {drug['name']} acting on {listing([kg.name(t) for t in sorted(acts)][:4]) or 'nothing'}."
    shared = f"the targets the {name} share ({listing([kg.name(t) for t in common[:4]])})"
    if len(on) == len(common):
        every = "both" if len(common) == 2 else f"all {len(common)}"
        return f"Of {shared}, it records {drug['name']} acting on {every}: by its mechanisms, it is not selective among them."
    return (f"Of {shared}, it records {drug['name']} acting on {listing([kg.name(t) for t in on])} alone, not on "
            f"{listing([kg.name(t) for t in common if t not in acts][:3])}.")
