"""The kind of disease or target a question asks for: "What cancers does imatinib treat?" lists only cancers, "Which
receptor does propranolol block?" the receptors first (``tools.answers.DISEASE_KINDS``, ``tools.answers.TARGET_KINDS``)."""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed
from agents.focus import Focus
from agents.resolution import Resolution
from agents.state import Status
from core.text import fold
from tools.answers import TARGET_KINDS, TARGET_TYPES
from tools.linker import LinkStatus

__all__ = ["disease_kind", "kind_noun", "kind_of_target", "of_kind_asked", "target_kind", "target_kind_answer", "target_kind_asked"]

_KIND_WORDS = {"blood_cancer": r"blood cancers?|cancers? of the blood|ha?ematologic(?:al)? (?:cancers?|malignanc(?:y|ies))",
               "cancer": r"cancers?|tumou?rs?|malignanc(?:y|ies)|neoplasms?", "infection": r"infections?|infectious diseases?",
               "diabetes": r"(?:kinds?|types?|forms?) of diabetes"}
_KINDS = re.compile("|".join(f"(?P<{k}>\\b(?:{rx})\\b)" for k, rx in _KIND_WORDS.items()), re.IGNORECASE)


_TARGET_KIND = re.compile(r"\b(?:what|which|the)\s+(?:kinds? of |types? of )?(?P<kind>receptor|enzyme|kinase|channel|"
                          r"transporter|pump)s?\b", re.IGNORECASE)


def target_kind(question: str) -> str:
    """The kind of target a question asks for ("Which receptor does propranolol block?" → "receptor"; a pump is a
    "transporter"; ``tools.answers.TARGET_KINDS``), or ""."""
    m = _TARGET_KIND.search(question)
    return "" if m is None else {"pump": "transporter"}.get(m["kind"].casefold(), m["kind"].casefold())


NAMED_KINDS = ("receptor", "channel", "transporter")
"""Kinds that the graph's names of such targets carry. An enzyme's or a kinase's need not ("Mast/stem cell growth
factor receptor Kit" is a kinase, and "Cytochrome P450 3A4" an enzyme), so those are listed first, not alone."""


def of_kind_asked(question: str, ends: list[dict[str, Any]], name: str) -> tuple[list[dict[str, Any]], str]:
    """The targets to list for a question that asks for a kind ("what receptor does propranolol block?"): those of the
    kind, when some are, and a sentence on the others ("Propranolol also acts on Vascular endothelial growth factor A,
    which its name does not call a receptor."); it listed VEGF-A among the receptors. All of ``ends`` and "" when the
    question asks for no kind, or none or all of them are of it. ``name``: the drug's."""
    kind = target_kind(question)
    mine = [e for e in ends if kind in NAMED_KINDS and TARGET_KINDS[kind].search(e["name"])]
    if not mine or len(mine) == len(ends):
        return ends, ""
    rest = [e["name"] for e in ends if e not in mine]
    which = "which its name does not" if len(rest) == 1 else "which their names do not"
    return mine, f" {name} also acts on {and_listed(rest)}, {which} call {'a ' + kind if len(rest) == 1 else kind + 's'}."


def kind_noun(kind: str, many: bool = True) -> str:
    """The kind as a noun: "cancers", "cancer"; "kinds of diabetes", "kind of diabetes" (it said "these diabetess")."""
    if kind == "diabetes":
        return f"kind{'s' if many else ''} of diabetes"
    return f"{kind}s" if many else kind


def disease_kind(question: str) -> str:
    """The kind of disease a question names ("What cancers does imatinib treat?" → "cancer", "which infections …" →
    "infection", "which of these is a blood cancer?" → "blood cancer"; ``tools.answers.DISEASE_KINDS``), or ""."""
    m = _KINDS.search(question)
    return (m.lastgroup or "").replace("_", " ") if m else ""


_IS_KIND = re.compile(r"^(?:so |and |but )?(?:is|are) (?P<x>\S.*?) (?:an? |some (?:kind|type|sort) of (?:an? )?)?"
                      r"(?:(?P<of>calcium|sodium|potassium|chloride|serotonin|dopamine|histamine|opioid|adrenergic|gaba|"
                      r"tyrosine|serine/threonine|glutamate|cholinergic|muscarinic|nicotinic) )?"
                      r"(?P<kind>receptor|enzyme|kinase|channel|ion channel|transporter|pump)s?\s*[?.!]*$", re.IGNORECASE)
"""Whether a target is of a kind ("is ACE an enzyme?", "is that a kinase?" once the thread's target is named), maybe of
a kind named by what it carries or binds ("is that a calcium channel?" was read as a question about Calcium)."""


def kind_of_target(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Is Tyrosine-protein kinase ABL1 a kinase?" for "is that a kinase?" after a turn whose target was ABL1
    (``Focus.target``; it was NOT_FOUND, "no known entity"); "it" only after a turn about targets. None for any other
    question."""
    m = _IS_KIND.match(" ".join(q.split()))
    ref = m["x"].casefold() if m else ""
    if m is None or focus.target is None or ref not in ("it", "that", "this", "that one", "this one", "that target",
                                                        "this target", "the target"):
        return None
    if ref == "it" and focus.intent not in ("targets", "targeted_by"):  # "is it a protein?" after a mechanism: the drug
        return None
    res.references.append({"text": m["x"], "how": "pronoun", "entity": focus.target})
    res.pinned[fold(focus.target["name"])] = focus.target
    text = f"{q[: m.start('x')]}{focus.target['name']}{q[m.end('x'):]}"
    return text[:1].upper() + text[1:]


def target_kind_asked(question: str, linker: Any) -> bool:
    """Whether ``question`` asks whether a target is of a kind (:func:`target_kind_answer` answers it)."""
    return target_kind_answer(question, linker) is not None


def target_kind_answer(question: str, linker: Any) -> dict[str, Any] | None:
    """The answer to "is ACE an enzyme?", "is the serotonin transporter a receptor?": by the target's name, as the
    answers that list targets of a kind read it (``tools.answers.TARGET_KINDS``; "is it a protein?" asks the graph's
    type, ``agents.what_it_is``). None unless the question asks it of one entity that is a target (they told what ACE
    is connected to, or were NOT_FOUND). ``items``: the target, what "which drugs block it?" is about next."""
    m = _IS_KIND.match(" ".join(question.split()))
    out = linker.link(m["x"]) if m else None
    ent = out.best if out is not None and out.status is LinkStatus.LINKED else None
    if m is None or ent is None or ent.type not in TARGET_TYPES:
        return None
    kind = {"pump": "transporter", "ion channel": "channel"}.get(m["kind"].casefold(), m["kind"].casefold())
    item = {"id": ent.id, "name": ent.name, "type": ent.type}
    of = (m["of"] or "").casefold()  # "a calcium channel": its name must say both
    named = f"{of} {kind}" if of else kind
    of_kind = bool(TARGET_KINDS[kind].search(ent.name))
    yes = of_kind and of in ent.name.casefold()
    # "is the serotonin transporter a dopamine transporter?": by its name a transporter, not of dopamine
    said = [kind] if of_kind and not yes else [k for k, rx in TARGET_KINDS.items() if rx.search(ent.name) and k != kind]
    text = (f"Yes: by its name, {ent.name} is {_a(named)}." if yes else
            f"No: its name does not say that {ent.name} is {_a(named)}"
            + (f"; by its name it is {_a(said[0])}." if said else f"; the knowledge graph types it as a {ent.type}."))
    return {"status": Status.ANSWERED, "answer": f"{text} For the drugs that act on it, ask \"Which drugs act on {ent.name}?\".",
            "items": [item]}


def _a(kind: str) -> str:
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
