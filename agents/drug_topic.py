"""What the graph does not hold about a drug, named alone after a turn about one: "what about side effects?", "and
with alcohol?", "and for how long?" (``agents.ellipsis`` reads the follow-up, and this the topic it names)."""

from __future__ import annotations

import re
from typing import Any

from agents.beside import interaction_with
from agents.focus import Focus
from agents.resolution import Resolution
from agents.scope import ADDICTION, CONTRAINDICATIONS, HOW_OFTEN, INTERACTIONS, SAFETY, out_of_scope
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.link_outcome import LinkStatus
from tools.linker import fold

__all__ = ["FOOD_OR_DRINK", "drug_on_drug", "drug_on_it", "drug_topic", "food_first", "happens_to", "main_use", "toxicity_of", "what_it_acts_on"]

_DRUG_TOPICS = frozenset({"side effects", "dosing", CONTRAINDICATIONS, "monitoring (blood tests while on a drug)",
                          "pharmacokinetics", "prices", "antidotes or how to reverse a drug", "overdoses", ADDICTION, SAFETY,
                          "routes of administration (by mouth, inhaled or injected)",
                          "generics, brands on sale or whether drugs need a prescription"})
"""What the graph does not hold about a drug, named alone after a turn about one ("what about side effects?")."""


FOOD_OR_DRINK = re.compile(r"^(?:and |so )?(?:(?:what|how) about )?(?:(?:with |taking it with )(?P<c>caffeine)|(?:with |taking it "
                            r"with )?(?P<f>alcohol|alcoholic drinks|drinking|booze|wine|beer|coffee|tea|milk|dairy|food|meals?|"
                            r"(?:grapefruit|orange|cranberry)(?: juice)?))[?.!]*$", re.IGNORECASE)
"""Food or drink named alone after a turn about a drug ("what about with alcohol?"), which the graph holds no entry for.
Caffeine is one of the graph's drugs: only "with caffeine" is a drink ("and caffeine?" after how salicylamide treats
backache asks how caffeine does)."""


_WH = re.compile(r"^(?:how|when|why|where|who|what)\b", re.IGNORECASE)
"""A topic asked as a question ("how long"): the drug follows "for", not "of" ("How long for Omeprazole?")."""


def drug_topic(res: Resolution, q: str, z: str, focus: Focus) -> str | None:
    """"And what about side effects?", "what about the dose?" after a turn about a drug: "Side effects of atorvastatin?",
    as "side effects?" alone is read (the topic was put in the last question's drug slot: "What does side effects
    target?", `NOT_FOUND`, and "the dose" linked Naloxone); None for any other ``z``, or with no drug in the thread.
    Interactions only when named so, or for food or drink ("what about with alcohol?": "Does warfarin interact with
    alcohol?"; it asked which alcohol, Benzyl or Nicotinyl alcohol, was meant)."""
    topic = out_of_scope(z)
    drug = focus.compared[0] if focus.compared else focus.drug  # "does warfarin interact with aspirin?": warfarin
    if drug is not None and (food := FOOD_OR_DRINK.match(q.strip()) or FOOD_OR_DRINK.match(z)):  # "what about with alcohol?": asked which "alcohol"
        res.references.append({"text": q, "how": "ellipsis", "entity": drug, "topic": INTERACTIONS})  # was meant
        res.pinned[fold(drug["name"])] = drug
        return f"Does {drug['name']} interact with {food['f'] or food['c']}?"
    if (asked := interaction_with(z, focus.drug)) is not None:  # "what about interactions with aspirin?"
        res.references.append({"text": q, "how": "ellipsis", "entity": focus.drug, "topic": INTERACTIONS})
        res.pinned[fold(focus.drug["name"])] = focus.drug  # type: ignore[index]
        return asked
    if focus.drug is None or not (topic in _DRUG_TOPICS or topic == INTERACTIONS and "interact" in z.casefold()):
        return None
    res.references.append({"text": q, "how": "ellipsis", "entity": focus.drug, "topic": topic})
    res.pinned[fold(focus.drug["name"])] = focus.drug
    return f"{z[:1].upper()}{z[1:]} {'for' if _WH.match(z) else 'of'} {focus.drug['name']}?"  # "How long for omeprazole?"


_FOOD_FIRST = re.compile(
    r"^(?:and |so )?(?:how )?(?:does|do|can|could|will|would|might|may) (?P<f>alcohol|drinking(?: alcohol)?|coffee|caffeine|tea|"
    r"milk|dairy|food|grapefruit(?: juice)?|orange juice|cranberry juice) (?P<v>affect|interact with|interfere with|change|"
    r"reduce|increase|mess with|weaken|block) (?P<x>[\w' -]+?)[?.!]*$", re.IGNORECASE)
"""Food or drink named before the drug it may change ("how does alcohol affect metformin?": "alcohol" was linked to
Benzyl alcohol, and a chain from it to metformin looked for)."""


_ON_ANOTHER = re.compile(r"^(?:and |so )?(?:how )?(?:does|do|can|could|will|would|might|may) (?P<a>[\w' -]+?) (?:affect|"
                         r"interfere with|mess with|weaken|change) (?P<b>[\w' -]+?)[?.!]*$", re.IGNORECASE)
"""One drug asked to change another ("how does aspirin affect warfarin?": a chain from aspirin to warfarin was looked
for, `NOT_FOUND`)."""
_DRUG = frozenset({"Drug"})


def _drug(name: str, linker: Any, types: frozenset[str]) -> Any:
    out = linker.link(name)
    return out.best if out.status is LinkStatus.LINKED and out.best is not None and out.best.type in types else None


def drug_on_drug(question: str, linker: Any) -> str | None:
    """"Does warfarin interact with aspirin?" for "how does aspirin affect warfarin?" (or "does vitamin K affect
    warfarin?"), when the first name links to a drug or a chemical and the second to a drug; None for any other
    question ("how does levodopa affect dopamine?" asks how a drug acts on a chemical of the body)."""
    m = _ON_ANOTHER.match(" ".join(question.split()))
    if m is None or (a := _drug(m["a"], linker, DRUG_TYPES)) is None or (b := _drug(m["b"], linker, _DRUG)) is None \
            or a.id == b.id:
        return None
    return f"Does {m['b']} interact with {m['a']}?"


def drug_on_it(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """"Does warfarin interact with vitamin K?" for "how does vitamin K affect it?" after a turn about warfarin (it was
    asked how vitamin K affects warfarin's one target, `NOT_FOUND`); None for any other question, with no drug in the
    thread, or right after the drug's targets (where "it" may be the target just named)."""
    m = _ON_ANOTHER.match(" ".join(q.split()))
    drug = focus.drug
    if m is None or m["b"].casefold() not in ("it", "that", "this one", "that one") or drug is None or focus.intent == "targets" \
            or drug.get("type") not in _DRUG or (a := _drug(m["a"], linker, DRUG_TYPES)) is None or a.id == drug["id"]:
        return None
    res.references.append({"text": m["b"], "entity": drug, "how": "pronoun"})
    res.pinned[fold(drug["name"])] = drug
    return f"Does {drug['name']} interact with {m['a']}?"


_MAIN_USE = re.compile(r"^(?:and |so |but )?(?:(?:is|was) (?:that|this|it) (?:the|its) (?:main|primary|principal|chief|most common) "
                       r"(?:use|indication|one)|(?:what|which) (?:is|was) (?:the|its) (?:main|primary|principal|chief) "
                       r"(?:use|indication|one)|(?:what|which) (?:is|are) (?:it|that|this one|they) (?:best|most useful|mostly used|"
                       r"mainly used|used most) for)[?.!]*$", re.IGNORECASE)


def main_use(res: Resolution, q: str, focus: Focus) -> str | None:
    """"What is the main use of Metformin?" for "is that the main use?" after what metformin is used for or how it
    treats a disease (it was `NOT_FOUND`, "no known entity in the question"): the answer says the graph does not hold
    how often a drug is used for what, then the drug's uses. None for any other question, or with no drug."""
    drug, m = focus.drug, _MAIN_USE.match(" ".join(q.split()))
    if m is None or drug is None or drug.get("type") not in DRUG_TYPES or "one" in m[0] and focus.intent != "indications":
        return None  # "what is the main one?" after a drug's targets asks which target
    res.references.append({"text": q, "how": "ellipsis", "entity": drug, "topic": HOW_OFTEN})
    res.pinned[fold(drug["name"])] = drug
    return f"What is the main use of {drug['name']}?"


_HAPPENS_TO = re.compile(r"^(?:and |so |but )?what happens to (?:the )?(?P<x>[\w' ,-]+?)(?: then| after that)?[?.!]*$",
                         re.IGNORECASE)


def happens_to(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """"How does levodopa affect dopamine?" for "what happens to dopamine?" after a turn about levodopa (it told what
    dopamine is connected to, levodopa left out); None for any other question, with no drug in the thread, or for a
    name that links to no entity or to a drug (not a chemical)."""
    m = _HAPPENS_TO.match(" ".join(q.split()))
    drug = focus.drug
    if m is None or drug is None or drug.get("type") not in DRUG_TYPES or m["x"].casefold() in ("it", "them", "that", "this"):
        return None
    out = linker.link(m["x"])
    if out.status is LinkStatus.UNKNOWN or out.best is None or out.best.type in _DRUG:  # a chemical of the body may be
        return None  # one of the graph's chemicals ("dopamine"), not another drug
    res.references.append({"text": q, "how": "ellipsis", "entity": drug})
    res.pinned[fold(drug["name"])] = drug
    return f"How does {drug['name']} affect {m['x']}?"


_MONITORED = re.compile(r"^(?:and |so )?why (?:does|do|would|must) (?P<x>[\w' -]+?) (?:need|require)(?: to be)? (?:regular |frequent "
                        r"|routine )?(?:monitoring|monitored|blood tests|blood work|(?:its |their )?levels? (?:checked|monitored)|"
                        r"INR checks|checks)[?.!]*$", re.IGNORECASE)


_REVERSES = re.compile(r"^(?:and |so )?how (?:does|do|can|could|would) (?P<x>[\w' -]+?) (?:(?:reverse|counteract) (?:an? |the )?(?:\w+ )?"
                       r"(?:overdoses?|poisoning|toxicity)|(?:treat|stop|work (?:for|in|on)) (?:an? |the )?(?:\w+ )?overdoses?)[?.!]*$",
                       re.IGNORECASE)


def what_it_acts_on(question: str) -> str:
    """"What does warfarin target?" for "Why does warfarin need monitoring?" (it was read as a chain from warfarin to
    "need monitoring", `NOT_FOUND`), and "What does naloxone target?" for "how does naloxone reverse an overdose?"
    (a chain to "overdose", `NOT_FOUND`): the answer says monitoring or overdoses are not held (``agents.scope``), then
    what the drug acts on; any other question unchanged."""
    said = " ".join(question.split())
    m = _MONITORED.match(said) or _REVERSES.match(said)
    return f"What does {m['x']} target?" if m is not None else question


_TOXICITY_OF = re.compile(r"^(?:and |so )?(?:what are |which are )?(?:the )?(?:signs?|symptoms?)(?: and (?:signs?|symptoms?))? of (?:an? )?"
                          r"(?:toxicity|overdose|poisoning) (?:of|from|with|on) (?P<x>[\w' -]+?)[?.!]*$", re.IGNORECASE)


def toxicity_of(question: str) -> str:
    """"What are the symptoms of digoxin toxicity?" for "What are signs of toxicity of digoxin?" (it was read as the
    signs of a disease named "toxicity of digoxin", `NOT_FOUND`); any other question unchanged."""
    m = _TOXICITY_OF.match(" ".join(question.split()))
    return f"What are the symptoms of {m['x']} toxicity?" if m is not None else question


def food_first(question: str, linker: Any) -> str:
    """"Does metformin interact with alcohol?" for "how does alcohol affect metformin?", as the food is asked after the
    drug (``agents.scope`` says drug interactions are not held, then what the graph holds on the drug); "Is coffee bad
    for gout?" for "does coffee affect gout?" (what to eat is not held); so for a drug named before another
    (:func:`drug_on_drug`); any other question unchanged."""
    if (other := drug_on_drug(question, linker)) is not None:
        return other
    m = _FOOD_FIRST.match(" ".join(question.split()))
    out = linker.link(m["x"]) if m is not None else None
    if m is None or out is None or out.best is None or out.status is LinkStatus.UNKNOWN:
        return question
    food = "alcohol" if m["f"].casefold().startswith("drinking") else m["f"]
    if out.best.type in DRUG_TYPES:
        return f"Does {m['x']} interact with {food}?"
    return f"Is {food} bad for {m['x']}?" if out.best.type in DISEASE_TYPES else question
