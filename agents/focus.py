"""What a thread has been about: its latest drug, disease, target and patient, and the lists its answers gave.

Read from the assistant turns of the thread's messages (``agents.explainer`` writes them), most recent first, by
the follow-up resolver (``agents.followup``) and the conversation node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.state import DISEASE_TYPES, DRUG_TYPES, LISTED_DRUGS

__all__ = ["DRUG_LISTS", "ORDINALS", "Focus", "focus_from", "listed"]

ORDINALS = {"first": 0, "1st": 0, "top": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
            "fifth": 4, "5th": 4, "last": -1}
"""A list item's place by the word that picks it ("the second one", "the first and the third")."""
DRUG_LISTS = ("treats", "targeted_by")
"""The intents whose answers list drugs."""
_NOUN_SLOTS = {"drug": "drug", "medication": "drug", "medicine": "drug", "disease": "disease", "condition": "disease"}
"""The slot an ordinal's noun names ("the second drug")."""


@dataclass
class Focus:
    """What the thread has been about, most recent first per slot."""

    drug: dict[str, Any] | None = None
    disease: dict[str, Any] | None = None
    intent: str = ""
    lists: list[list[dict[str, Any]]] = field(default_factory=list)
    """Every answer list of the thread, most recent first ("the second one" picks from the first long enough)."""
    patient_id: str | None = None
    question: str = ""
    drug_class: str = ""
    """The drug class the latest question was kept to ("Which statins treat …"): "and heart failure?" keeps it."""
    target: dict[str, Any] | None = None
    """The latest target the thread was about: what "that target" means."""
    drugs: list[dict[str, Any]] = field(default_factory=list)
    """Every drug the thread's turns were about, most recent first, once each ("compare them" after two of them)."""
    diseases: list[dict[str, Any]] = field(default_factory=list)
    """Every disease the thread's turns were about, most recent first, once each ("what treats both?")."""
    also_asked: list[str] = field(default_factory=list)
    """The questions the latest answer offered to ask next ("You also asked: …")."""
    compared: list[dict[str, Any]] = field(default_factory=list)
    """The drugs the latest answer compared: a later "they" is all of them, and a later "it" could be any."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    """The path of the latest turn that was answered, step by step (``head``, ``relation``, ``tail``, their names and
    types): what "explain the second step" asks about."""
    named_class: str = ""
    """The drug class the latest turn was about from the class table ("is penicillin an antibiotic?", "is warfarin a
    blood thinner?", "which drugs are statins?") or as its subject ("What do penicillins treat?"): what "they" and
    "that class" are next."""
    class_intent: str = ""
    """The intent of the latest turn when a drug class was its subject ("What do beta blockers treat?": indications):
    what "and ACE inhibitors?" asks of that class."""
    class_drug: dict[str, Any] | None = None
    """The drug that turn asked about, if any ("is warfarin a blood thinner?"): what "what else is in that class?"
    leaves out."""
    treats_list: list[dict[str, Any]] = field(default_factory=list)
    """The latest "which drugs treat Y?" list, while every turn since has been about its disease Y ("is niacin on the
    list?" after "is atorvastatin one of them?" was answered with how atorvastatin treats Y): what "the list" is."""
    target_list: tuple[dict[str, Any], list[dict[str, Any]]] | None = None
    """The target and the items of the latest "which drugs inhibit T?" list, while every turn since has been about T
    or about no target ("is colchicine on the list?" after "is allopurinol one of them?")."""
    latest_question: str = ""
    """The latest answered question as understood, or a later one whose answer cited a study: what "show me the
    sources" asks again."""
    classes: list[str] = field(default_factory=list)
    """The drug classes the thread's latest turns asked about as their subject, one turn after another, most recent
    first, once each ("what's the difference?" after what ARBs and then ACE inhibitors target)."""
    named: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The mentions of that question (folded) and the entities they were linked to: asked again, they link the same."""
    treated: dict[str, Any] | None = None
    """The disease of the latest turn when that turn asked how a drug treats it or which drugs do ("How does
    allopurinol treat gout?", "What drugs treat gout?"): what a later "is it better than colchicine?" is better for."""
    treated_by: set[str] = field(default_factory=set)
    """The ids of the drugs that turn was about, listed or compared: a later comparison of drugs none of which it
    named is not about its disease."""
    listed: list[dict[str, Any]] = field(default_factory=list)
    """The drugs of the list the latest turns asked about as the listed drugs ("which of them treat heart failure?"
    after "What drugs treat hypertension?"): the items of the turn before those turns, whatever those turns listed
    since. What "what about angina?" is kept to next."""
    after_list: list[dict[str, Any]] = field(default_factory=list)
    """The drugs of the turns after the latest answer that listed two or more drugs, most recent first, once each (all
    of the thread's drugs when no answer listed two): the drugs a later "which is better?" may set side by side."""
    turn: dict[str, Any] = field(default_factory=dict)
    """The latest assistant turn about a drug, a disease or a patient (the one ``intent`` is of), with its own
    ``drug``, ``disease`` and ``items``: what "how?" asks again, without an older turn's drug or disease."""

    @property
    def illness(self) -> dict[str, Any] | None:
        """The latest disease slot that held a disease, not a target ("what are the symptoms?" after the drugs that
        inhibit the target of allopurinol's mechanism for gout is about gout): the first of :attr:`diseases`."""
        return self.diseases[0] if self.diseases else None

    @property
    def by_class(self) -> bool:
        """The latest question asked how a drug class acts on a disease ("How do statins lower cholesterol?"): "they"
        are the class, "and in angina?" keeps it, and its list is of the routes the class takes."""
        return self.intent == "mechanism" and bool(self.drug_class)

    def list_for(self, k: int, ref: str, slot: str) -> list[dict[str, Any]] | None:
        """The list an ordinal ("the second one") picks item ``k`` from: the latest long enough whose item fills the
        slot the ordinal stands in (a drug or a disease, by its noun or else ``slot``, its place in the question),
        else the latest long enough. "How does the second one treat lung cancer?" after a list of drugs and then one
        of cancers is the second drug (it was the second cancer)."""
        types = {"drug": DRUG_TYPES, "disease": DISEASE_TYPES}.get(_NOUN_SLOTS.get(ref.split()[-1].casefold(), slot))
        long = [x for x in self.lists if k < len(x)]
        if types is DRUG_TYPES and k < len(self.compared) and not any(x[k].get("type") in types for x in long):
            return self.compared  # "how does the second one work?" after what two drugs treat: the second drug
        return next((x for x in long if types is None or x[k].get("type") in types), long[0] if long else None)

    @property
    def drug_list(self) -> list[dict[str, Any]]:
        """The drugs the latest answer listed, when it answered with drugs (:data:`DRUG_LISTS`: "What drugs treat
        asthma?", "Which drugs block COX-2?"); none after any other answer."""
        return [i for i in self.lists[0] if i.get("type") in DRUG_TYPES] if self.intent in DRUG_LISTS and self.lists else []

    @property
    def two_drugs(self) -> list[dict[str, Any]]:
        """The two drugs the latest answer compared, else the thread's two latest, older first (fewer when it has
        fewer): what "are they in the same class?" or "does it work the same way?" sets side by side."""
        return self.compared[:2] or self.drugs[1::-1]

    def two_apart_from(self, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The thread's two latest drugs, older first, when neither is among ``listed`` or both were the drugs of
        turns after the latest list of drugs: the turns about them came after that list ("which is better?" after
        salbutamol and then montelukast, asked after the drugs for asthma, compared the five listed drugs, and so did
        "which is better for an acute attack?" after allopurinol, one of the listed drugs for gout, and then
        colchicine); none otherwise."""
        ids = {d.get("id") for d in listed}
        two = self.drugs[1::-1]
        after = {d.get("id") for d in self.after_list}
        return two if len(two) == 2 and (all(d.get("id") in after for d in two) or not any(d.get("id") in ids for d in two)) else []

    def choose(self, picked: dict[str, Any]) -> Focus:
        """The focus once a clarification picked ``picked`` for a reference it fitted to several entities: that drug,
        alone in the last list when it is listed there (a patient's medication keeps what it is taken for)."""
        own = [i for i in (self.lists[0] if self.lists else []) if i.get("id") == picked.get("id")]
        if own:
            self.lists[0] = own[:1]
        self.drug, self.compared = (own[0] if own else picked), []
        return self

    @property
    def record_conditions(self) -> list[dict[str, Any]]:
        """The conditions of a patient's record when the last answer listed them, or else those its listed medications
        are taken for ("what is she taking for it?" after a whole record asked what "it" meant); [] after any other
        answer."""
        items = self.lists[0] if self.intent == "patient" and self.lists else []
        listed = [i for i in items if i.get("type") in DISEASE_TYPES and not i.get("for")]
        return listed or list({i["for"]["id"]: i["for"] for i in items if i.get("for") and i["for"].get("id")}.values())

    @property
    def record_condition(self) -> dict[str, Any] | None:
        """The first of :attr:`record_conditions` ("how many patients have it?" after "What conditions does PAT_001
        have?" asked what "it" meant: a pronoun after a record fitted only its medications), or None."""
        return next(iter(self.record_conditions), None)

    @property
    def empty(self) -> bool:
        """True when there is nothing to resolve against."""
        return not (self.drug or self.disease or self.lists or self.patient_id)


_ABOUT_THE_THREAD = ("", None, "history", "small_talk")
"""The intents of turns about the thread itself, which leave its focus as it was."""


def focus_from(messages: Sequence[dict[str, Any]]) -> Focus:
    """The focus of a thread: per slot, the latest assistant turn that had it."""
    f = Focus()
    latest = next((m for m in reversed(messages) if m.get("role") == "assistant"), {})
    f.compared, f.also_asked = list(latest.get("compared") or []), list(latest.get("also_asked") or [])
    if latest.get("intent") == "class_member":
        f.named_class, f.class_drug = str(latest.get("drug_class") or ""), latest.get("drug")
    elif latest.get("class_subject"):  # "What do penicillins treat?": "are they used for pneumonia?" next
        f.named_class, f.class_intent = str(latest["class_subject"]), str(latest.get("intent") or "")
    answered = next((m for m in reversed(messages) if m.get("role") == "assistant" and m.get("intent") not in _ABOUT_THE_THREAD
                     and str(m.get("status", "")).endswith("ANSWERED")), {})  # a recap or "compare the two" keeps the path
    f.steps = list(answered.get("steps") or [])  # a failed turn since does not hide the last path ("explain step 9")
    # a NOT_FOUND turn that pointed to a study ("show me the sources" after it) counts if it is the later one
    cited = next((m for m in reversed(messages) if m.get("role") == "assistant" and (m is answered or m.get("cited"))), {})
    f.latest_question, f.named = str(cited.get("question") or ""), dict(cited.get("named") or {})
    f.treats_list, f.target_list = _treats_list(messages), _target_list(messages)
    f.treated, f.treated_by = _treated(messages)
    f.listed = _listed(messages)
    classes_run, drug_list_seen = True, False
    for m in reversed(messages):
        if m.get("role") != "assistant":
            continue
        if not drug_list_seen and m.get("drug") and all(d.get("id") != m["drug"].get("id") for d in f.after_list):
            f.after_list.append(m["drug"])
        drug_list_seen = drug_list_seen or sum(i.get("type") in DRUG_TYPES for i in m.get("items") or []) >= 2
        if not f.intent and m.get("intent") and (m.get("drug") or m.get("disease") or m.get("patient_id")):
            f.intent, f.question, f.turn = str(m["intent"]), str(m.get("question", "")), m
            f.drug_class = str(m.get("drug_class") or "")
        if m.get("items"):
            f.lists.append(list(m["items"]))
        classes_run = classes_run and bool(m.get("class_subject"))  # the latest turns in a row that were about classes
        if classes_run and m["class_subject"] not in f.classes:
            f.classes.append(str(m["class_subject"]))
        f.drug = f.drug or m.get("drug")
        if m.get("drug") and all(d.get("id") != m["drug"].get("id") for d in f.drugs):
            f.drugs.append(m["drug"])
        f.disease = f.disease or m.get("disease")
        if (m.get("disease") or {}).get("type") in DISEASE_TYPES and all(d["id"] != m["disease"]["id"] for d in f.diseases):
            f.diseases.append(m["disease"])
        f.patient_id = f.patient_id or m.get("patient_id")
        f.target = f.target or m.get("target")
    return f


def _listed(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The drugs that the latest turns, when they asked about the listed drugs, were kept to (``Focus.listed``), or
    those compared before them ("which of them acts on renin?" twice after comparing lisinopril and losartan was asked
    of lisinopril alone the second time); [] when the latest turn did not."""
    run = False
    for m in reversed(messages):
        if m.get("role") != "assistant" or not m.get("intent"):
            continue
        if m.get("drug_class") == LISTED_DRUGS:
            run = True
            continue
        listed = [i for i in m.get("items") or [] if i.get("type") in DRUG_TYPES]  # a comparison lists their targets:
        return (listed or [i for i in m.get("compared") or [] if i.get("type") in DRUG_TYPES]) if run else []  # its drugs
    return []


def _treated(messages: Sequence[dict[str, Any]]) -> tuple[dict[str, Any] | None, set[str]]:
    """The disease of the latest turn about a drug, a disease or a patient, when that turn asked how a drug treats it
    or which drugs do, and the ids of the drugs it named (``Focus.treated``, ``Focus.treated_by``). A comparison of
    drugs from such a turn, naming no disease, keeps its disease, for the drugs it compared: "which of the two is
    better?" after "compare the first two" of the drugs that treat gout is about gout."""
    compared: set[str] | None = None
    for m in reversed(messages):
        if m.get("role") != "assistant" or not m.get("intent") or not (m.get("drug") or m.get("disease") or m.get("patient_id")):
            continue
        disease = m.get("disease") if m["intent"] in ("mechanism", "treats") else None
        disease = disease if disease and disease.get("type") in DISEASE_TYPES else None
        ids = {str(x.get("id")) for x in (m.get("drug") or {}, *(m.get("items") or []), *(m.get("compared") or [])) if x.get("id")}
        if compared is not None:  # the turn before a comparison that named no disease
            return (disease, compared) if disease and compared <= ids else (None, set())
        if disease:
            return disease, ids
        if not m.get("compared") or m.get("disease"):
            return None, set()
        compared = {str(x.get("id")) for x in m["compared"] if x.get("id")}
    return None, set()


def _treats_list(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items of the latest "which drugs treat Y?" answer, if every turn since that was about a disease was about
    Y; else []."""
    m = _latest_list(messages, "disease", "treats")
    return list(m["items"]) if m else []


def _target_list(messages: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The target and the drugs of the latest "which drugs act on T?" answer, if every turn since that was about a
    target was about T; else None."""
    m = _latest_list(messages, "target", "targeted_by")
    return (dict(m["target"]), [i for i in m["items"] if i.get("type") in DRUG_TYPES]) if m else None


def _latest_list(messages: Sequence[dict[str, Any]], slot: str, intent: str) -> dict[str, Any] | None:
    """The latest assistant turn of ``intent`` that listed items, if every turn since that was about an entity of
    ``slot`` was about the same one (a turn about none, "how does colchicine work?", leaves the list as it was)."""
    seen = None
    for m in reversed(messages):
        own = (m.get(slot) or {}).get("id") if m.get("role") == "assistant" and m.get("intent") else None
        if own is None:
            continue
        if seen not in (None, own):
            return None
        seen = own
        if m["intent"] == intent and m.get("items"):
            return m
    return None


def listed(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items listed by the thread's latest run of turns that asked the same thing about the same entities
    ("What drugs treat gout?", "Which other drugs treat gout?"): what a further "what else?" has already seen."""
    items: list[dict[str, Any]] = []
    first: tuple[Any, ...] | None = None
    for m in reversed(messages):
        if m.get("role") != "assistant" or not m.get("intent"):
            continue
        key = (m["intent"], (m.get("drug") or {}).get("id"), (m.get("disease") or {}).get("id"))
        if first is not None and key != first:
            break
        first = key
        items.extend(m.get("items") or [])
    return items
