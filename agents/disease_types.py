"""The kinds of a disease the graph holds: "what types of diabetes are there?", "what kinds of leukemia are there?",
and "what are the types?" in a thread about a disease.

They were `NOT_FOUND` ("no known entity in the question"), or, after "What is diabetes?", asked as "What drugs treat
types?", which read "types" as Tension-Type Headache. The graph holds no classification of diseases, and the answer
says so first. What it holds are names: the diseases whose names open or end with the disease's words ("Diabetes
mellitus type 2", "Chronic myeloid leukemia"), the most connected first; and the diseases it records the disease as a
manifestation of ("Lymphoma —manifestation of→ Hodgkin's disease"), named apart since a manifestation need not be a
kind (hypertension is one of pheochromocytoma). No walk.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from agents.answer_notes import listing
from agents.ellipsis import entity_of
from agents.focus import Focus
from agents.intent import SLOT_TYPES
from agents.resolution import Resolution
from agents.state import DISEASE_TYPES, Intent, Status, linked_mention
from tools.answers import manifested_in
from tools.linker import LinkStatus, fold
from tools.word_forms import GUESSED_METHODS

__all__ = ["kinds_answer", "kinds_of_the_thread", "kinds_question"]

_KIND = r"(?:types?|kinds?|forms?|sub-?types?|variants?|sorts?|categories|classes)"
_ASKED = re.compile(
    rf"^(?:and |so )?(?:(?:what|which) (?:are (?:the |some )?)?(?:different |main |various |common )?{_KIND} of|(?:name|list)"
    rf"(?: the| some)?(?: different| main)? {_KIND} of|are there (?:different |several |many )?{_KIND} of) "
    r"(?P<y>(?:(?!\b(?:is|are|was|were|does|do|did|can|could|will|would|should|treats?|cause[sd]?|block|affects?|drugs?|"
    r"medications?|medicines?)\b)[^?.!])+?)"
    r"(?: (?:are there|exist|is there|does the (?:knowledge )?graph (?:have|hold|know)))?[?.!]*$", re.IGNORECASE)
"""A question for the kinds of one disease ("what kind of disease is gout?", "what type of drug treats gout?" are not)."""
_THREAD_KIND = r"(?:types?|kinds?|forms?|sub-?types?|variants?)"
_OF_THE_THREAD = re.compile(
    rf"^(?:and |so |ok,? )?(?:(?:what|which) (?:are )?(?:the )?(?:different |main |various )?{_THREAD_KIND}(?: (?:are there|exist|of it))?|"
    rf"(?:are|is) there (?:different|several|many|other|any) {_THREAD_KIND}(?: of it)?|(?:what|which) {_THREAD_KIND} (?:are there|exist|"
    r"of it are there))[?.!]*$", re.IGNORECASE)
"""The same question in a thread about a disease, naming none ("what are the types?", "are there different kinds?");
not "what classes are there?", which after the drugs for a disease may ask for drug classes."""
NOTE = "The knowledge graph holds no classification of diseases; it names them. "
SHOWN = 10
"""How many kinds by name the answer names."""
MANIFESTED_SHOWN = 5
"""How many diseases it is recorded as a manifestation of the answer names."""


class _Asked(NamedTuple):
    """What a question for a disease's kinds names."""

    words: str
    """The words asked about ("leukemia", "hypertension")."""
    disease: dict[str, Any]
    """The disease they link to."""
    named: bool
    """Whether the words are one of its names ("CML", "hypertension" for Hypertensive disorder): it is not one of its
    own kinds, and the answer calls it by its name. Words that fit several ("leukemia", answered for Acute
    lymphoblastic leukemia) are not."""

    @property
    def shown(self) -> str:
        """What the answer calls the disease whose kinds it lists."""
        return self.disease["name"] if self.named else self.words


def _reading(words: str, linker: Any) -> _Asked | None:
    out = linker.link(words, SLOT_TYPES["disease"])
    best = out.best if out.status is not LinkStatus.UNKNOWN else None
    if best is None or best.type not in DISEASE_TYPES:
        return None
    named = out.status is LinkStatus.LINKED and best.method not in ("fuzzy", *GUESSED_METHODS)
    return _Asked(words, entity_of(best), named)


def _named_drugs(words: str, linker: Any) -> list[dict[str, Any]]:
    """The drugs named after ``words``, which name no disease, when they name no class either ("insulin": Insulin
    human, insulin lispro, …), one per name; [] otherwise."""
    if linker.drug_class(words):
        return []
    named: dict[str, dict[str, Any]] = {}
    for c in linker.drugs_named_by(words, [], {"Drug": 1.0}):
        named.setdefault(fold(c.name), entity_of(c))
    return list(named.values()) if len(named) > 1 else []


def _read(question: str, linker: Any) -> tuple[str, _Asked | None, list[dict[str, Any]]]:
    """The words a question for kinds asks about, the disease reading of them, and else the drugs named after them
    ("", None, [] for any other question): each linked once."""
    m = _ASKED.match(" ".join(question.split()))
    if m is None:
        return "", None, []
    asked = _reading(m["y"], linker)
    return m["y"], asked, [] if asked is not None else _named_drugs(m["y"], linker)


def kinds_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question for a disease's kinds (the disease in the disease slot, so that "what
    treats it?" next is about it), or for the drugs named after a word ("what types of insulin are there?", the first
    in the drug slot); None for any other question."""
    _words, asked, drugs = _read(question, linker)
    if asked is not None:
        return {"intent": Intent.DISEASE_KINDS.value, "mentions": [linked_mention("disease", asked.disease)]}
    return {"intent": Intent.DISEASE_KINDS.value, "mentions": [linked_mention("drug", drugs[0])]} if drugs else None


def _by_name(asked: _Asked, kg: Any, linker: Any) -> list[str]:
    """The diseases whose names open or end with the words asked or the linked disease's name, the most connected
    first, one per name (the linked one too, when the words fit several)."""
    disease = asked.disease
    found = {x for name in {asked.words, disease["name"]} for ending in (False, True)
             for x in linker.headed_by(name, DISEASE_TYPES, ending=ending)}
    if asked.named or fold(disease["name"]) == fold(asked.words):
        found.discard(disease["id"])
    named: dict[str, str] = {}
    for x in sorted(found, key=lambda x: (-kg.degree(x), kg.name(x))):
        named.setdefault(fold(kg.name(x)), x)
    return list(named.values())


def kinds_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """The kinds by name, then the diseases the graph records the disease as a manifestation of; ``items``: the kinds
    by name ("what treats the second one?" next), else those."""
    words, asked, drugs = _read(question, linker)
    if drugs:
        return _drugs_answer(words, [d["id"] for d in drugs], kg)
    if asked is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no disease named in the question."}
    words, disease = asked.shown, asked.disease
    kinds = _by_name(asked, kg, linker)
    manifest = [x for x in manifested_in(kg, disease["id"]) if x not in kinds and x != disease["id"]][:MANIFESTED_SHOWN]
    parts = []
    if kinds:
        more = f" and {len(kinds) - SHOWN} more" if len(kinds) > SHOWN else ""
        parts.append(f"By their names, it holds {len(kinds)} {'kinds' if len(kinds) > 1 else 'kind'} of {words}, the most "
                     f"connected first: {listing([kg.name(x) for x in kinds[:SHOWN]])}{more}.")
    if manifest:
        parts.append(f"It records {disease['name']} as a manifestation of {listing([kg.name(x) for x in manifest])}.")
    if not parts:
        parts.append(f"It holds no disease whose name is a kind of {words}.")
    shown = kinds[:SHOWN] or manifest
    ask = f" For what treats one, ask \"What drugs treat {kg.name(shown[0])}?\"." if shown else ""
    items = [entity_of(n) for x in shown if (n := kg.node(x)) is not None]
    return {"status": Status.ANSWERED, "items": items, "answer": NOTE + " ".join(parts) + ask}


def _drugs_answer(words: str, drugs: list[str], kg: Any) -> dict[str, Any]:
    """The drugs named after ``words``, the most connected first; ``items``: them ("what does the second one
    target?" next)."""
    drugs = sorted(drugs, key=lambda x: (-kg.degree(x), kg.name(x)))
    more = f" and {len(drugs) - SHOWN} more" if len(drugs) > SHOWN else ""
    first = kg.name(drugs[0])
    return {"status": Status.ANSWERED, "items": [entity_of(n) for x in drugs[:SHOWN] if (n := kg.node(x)) is not None],
            "answer": (f"The knowledge graph holds no classification of drugs; it names them. By their names, it holds "
                       f"{len(drugs)} drugs named after {words}, the most connected first: "
                       f"{listing([kg.name(x) for x in drugs[:SHOWN]])}{more}. For how one acts, ask \"What does {first} target?\".")}


def kinds_of_the_thread(resolution: Resolution, focus: Focus, linker: Any) -> Resolution:
    """"What types of Diabetes mellitus are there?" for "what are the types?" in a thread whose latest disease is
    diabetes, refused in a thread with none; ``resolution`` unchanged for any other question."""
    disease = focus.illness
    if not _OF_THE_THREAD.match(" ".join(resolution.question.split())):
        return resolution
    if disease is None:  # it asked "What drugs treat types?", and read "types" as Tension-Type Headache
        resolution.refused = 'the question names no disease (ask, for example, "What types of diabetes are there?")'
        return resolution
    # the words the thread asked it by ("leukemia", answered for Acute lymphoblastic leukemia): their kinds too
    words = next((w for w, e in focus.named.items() if e.get("id") == disease["id"]), disease["name"])
    asked = _reading(words, linker)
    words = asked.shown if asked is not None and asked.disease["id"] == disease["id"] else disease["name"]
    return Resolution(question=f"What types of {words} are there?", pinned={fold(words): disease},
                      references=[{"text": resolution.question, "how": "thread disease", "entity": disease}],
                      excluded=resolution.excluded)
