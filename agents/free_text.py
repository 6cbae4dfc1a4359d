"""Linking a question that no rule parsed: the names a scan of its words finds, and keyword queries ("imatinib
mechanism of action", "metformin diabetes")."""

from __future__ import annotations

import re
from typing import Any

from agents.described import about
from agents.everyday import everyday
from agents.intent import MECHANISM_WORD, SLOT_TYPES, TEMPLATES, ParsedQuestion, class_request
from agents.scope import out_of_scope
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent
from tools.linker import GUESSED_METHODS, Candidate, LinkOutcome, LinkStatus, fold

__all__ = ["NO_NAME", "class_request_in", "described_entity", "drug_beside_words", "free_text", "lexical", "scan_mentions",
           "unnamed_words"]


def free_text(question: str, found: list[dict[str, Any]]) -> tuple[Intent, list[dict[str, Any]], list[str]]:
    """The intent, the mentions and the questions to ask next (``State.also_asked``) of a question no rule parsed,
    from the names a scan found in it (:func:`scan_mentions`)."""
    mentions, also = _one_drug_at_a_time(question, found)
    return _scan_intent(question, mentions), mentions, also


def lexical(outcome: LinkOutcome) -> LinkOutcome:
    """A mention that only resembles names by embedding ("blorptazine") is unknown, not ambiguous:
    it is answered NOT_FOUND with suggestions instead of a clarification among unrelated entities."""
    if outcome.status is LinkStatus.AMBIGUOUS and all(c.method == "embedding" for c in outcome.candidates):
        return LinkOutcome(outcome.mention, LinkStatus.UNKNOWN, ())
    return outcome


def _slot_weight(c: Candidate) -> float:
    """How a slot of the candidate's kind weighs its type (``agents.intent.SLOT_TYPES``), as a rule's slot would: of
    entries one name fits, the disease before the phenotype ("dronedarone and Atrial fibrillation: what's the link?"
    took the HP phenotype by its id), and the disease Spasticity, whose alias "Muscle Spasticity" is, before the
    phenotype named so."""
    return SLOT_TYPES["drug" if c.type in DRUG_TYPES else "disease"].get(c.type, 1.0)


def scan_mentions(res: Any, question: str, pinned: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every whole name the linker finds in ``question``, its everyday words read in the graph's terms first
    (``agents.everyday``: "aspirin's blood-thinning effect" named Blood), a name the thread pinned as the entity it
    stood for."""
    mentions = []
    for mention, cands in res.linker.scan(everyday(question)):
        ent = pinned.get(fold(mention))
        if ent is not None and ent.get("id"):
            cands = [Candidate(ent["id"], ent["name"], ent["type"], 1.0, "context")]
        if cands:
            best = max(cands, key=lambda c: (c.type in DRUG_TYPES or c.type in DISEASE_TYPES, c.score * _slot_weight(c)))
            mentions.append({"slot": "free", "mention": mention, "status": "linked", "entity": best.as_dict(),
                             "candidates": [c.as_dict() for c in cands[:5]]})
    return mentions + _unnamed_compared(res, question, mentions)


_PAIR = re.compile(
    r"^(?:(?:can you |please )?(?:compare|contrast)|(?:what(?:'s|’s| is| are) )?(?:the )?differences? between|how (?:do|does|is|are))"
    r" (?P<a>.+?) (?:and|with|to|vs\.?|versus|from) (?P<b>.+?)(?: (?:differ|compare|different))?[?.!]*$|"
    r"^(?P<c>\S+(?: \S+)?) (?:vs\.?|versus) (?P<d>.+?)[?.!]*$|"
    r"^(?:is|are) (?P<e>\S+(?: \S+)?) (?:better|worse|safer|stronger|weaker|more \w+|less \w+|(?:better|worse) tolerated) than "
    r"(?P<f>\S+(?: \S+)?)[?.!]*$", re.IGNORECASE)
"""Two things set side by side ("compare warfarin and apixaban", "what is the difference between X and Y?", "X vs Y",
"is apixaban better than warfarin?")."""


def _unnamed_compared(res: Any, question: str, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An unknown mention for the side of a comparison of drugs that names nothing the graph holds: "compare warfarin
    and apixaban" was answered with what warfarin is connected to, apixaban dropped without a word; it now says that
    "apixaban" is not in the knowledge graph. So for a drug class's side ("compare statins and qwzx"), a class's name
    never being the unknown one. [] for any other question."""
    m = _PAIR.match(question.strip())
    drugs = any((f.get("entity") or {}).get("type") in DRUG_TYPES for f in found)
    if m is None or not (drugs or res.linker.classes_in(question)):
        return []
    sides = next([m[a], m[b]] for a, b in (("a", "b"), ("c", "d"), ("e", "f")) if m[a])
    named = [fold(f["mention"]) for f in found]
    out = []
    for side in sides:
        text = re.sub(r"^(?:the|a|an) ", "", side.strip(), flags=re.IGNORECASE)
        if any(n in fold(text) for n in named) or not 0 < len(text.split()) <= 3 or not re.search(r"[a-zA-Z]{3}", text) \
                or res.linker.drug_class(text):  # "statins" is a class's name
            continue
        if lexical(res.linker.link(text, SLOT_TYPES["drug"])).status is LinkStatus.UNKNOWN:
            out.append({"slot": "drug", "mention": text, "status": LinkStatus.UNKNOWN.value, "entity": None})
    return out


_BARE = re.compile(r"^(?:(?:and|or|so|but|also|then|ok|okay|now|what about|how about|tell me about|tell me more about|"
                   r"what is|what's|what are|info(?:rmation)? (?:on|about)|about|any info on)\s+)*(?P<words>.+?)[\s?.!]*$",
                   re.IGNORECASE)
"""A question that is a name and nothing else, after a word that opens a follow-up ("and hirsutism?")."""
NO_NAME = frozenset({"it", "its", "that", "this", "they", "them", "those", "these", "why", "how", "what", "which", "who",
                     "when", "where", "more", "else", "other", "others", "one", "ones", "something", "anything"})
"""Words that make a short question something else than a name ("and what else?", "the other one?")."""


def unnamed_words(res: Any, question: str) -> list[dict[str, Any]]:
    """The unknown mention of a question that is nothing but one to three words the graph lacks: "and hirsutism?"
    after spironolactone, "hirsutism", "tell me about qwzx" were NOT_FOUND with "no known entity in the question";
    they name it (with the nearest names, as any unknown name is). [] for any other question."""
    m = _BARE.match(" ".join(question.split()))
    text = m["words"].strip(" ,;:") if m else ""
    if not 0 < len(text.split()) <= 3 or NO_NAME & set(fold(text).split()) \
            or not re.fullmatch(r"[A-Za-z][\w' -]*[A-Za-z0-9]", text):  # letters, a name's few words
        return []
    if lexical(res.linker.link(text)).status is not LinkStatus.UNKNOWN:
        return []
    return [{"slot": "free", "mention": text, "status": LinkStatus.UNKNOWN.value, "entity": None}]


def class_request_in(res: Any, question: str) -> ParsedQuestion | None:
    """A question no rule reads that names a drug class: "statins for high cholesterol" asks which of its drugs treat
    it (``agents.intent.class_request``); "statins and gout" how the class acts on the one disease it names; "tell
    me about statins", "beta-blockers" what the class acts on. The class's name was no entity, so such a question
    was answered for the disease alone, or NOT_FOUND. None when it names no class, a drug beside it, or compares it
    with a name the graph lacks ("compare statins and qwzx" was answered for the statins, qwzx dropped without a word;
    :func:`scan_mentions` then names it)."""
    if (request := class_request(question)) is not None:
        return request
    classes = res.linker.classes_in(question)
    if len(classes) != 1 or _unnamed_compared(res, question, []):
        return None
    words = set(fold(classes[0]).split())
    named = [(m, cands[0]) for m, cands in res.linker.scan(question) if cands and not set(m.split()) <= words]  # "ace"
    diseases = [m for m, c in named if c.type in DISEASE_TYPES]
    if len(diseases) != len(named) or len(diseases) > 1:
        return None
    return ParsedQuestion(Intent.MECHANISM, classes[0], diseases[0]) if diseases else ParsedQuestion(Intent.TARGETS, classes[0])


_DOES_WHAT = re.compile(r"^(?:and |so )?what (?:does|do|can|will) (?P<x>.+?) (?:cause|lead to|result in|do)(?: to (?:you|the body|"
                        r"people|patients))?[?.!]*$", re.IGNORECASE)
"""What a disease named in no whole name does or leads to ("what does diabetes cause?")."""


def described_entity(res: Any, question: str, found: list[dict[str, Any]]) -> ParsedQuestion | None:
    """"What is reverse transcriptase?": a request for a description whose words hold no whole name (``found`` is
    empty) but that the linker reads as written or nearly so: asked about what they link, so that a name several
    entities hold asks which (it was NOT_FOUND, "no known entity in the question"). A disease is read before this
    (``agents.planner``: "What drugs treat …?"). None when the words link nothing, or only by a guess."""
    does = _DOES_WHAT.match(" ".join(question.split()))  # "what does diabetes cause?": no whole name, NOT_FOUND
    text = about(question) or (does["x"] if does else "")
    if found or not text:
        return None
    out = lexical(res.linker.link(text, SLOT_TYPES["disease" if does else "target"]))
    if out.status is LinkStatus.UNKNOWN or not out.candidates or out.candidates[0].method in GUESSED_METHODS:
        return None
    return ParsedQuestion(Intent.ENTITY, drug=text)


_KEYWORD_FILLER = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "vs", "versus", "with", "treat",
                             "treats", "treating", "treatment", "therapy", "mechanism", "mechanisms", "action", "moa",
                             "what", "whats", "s", "is", "about", "prevent", "prevents", "preventing", "prevention"})
"""Words around the names of a keyword query ("imatinib for leukemia", "metformin diabetes mechanism"), and of a
question that asks what a name is ("What's imatinib?": its "what s" was read as a disease, Burkitt's lymphoma)."""


_ASKS_ABOUT = re.compile(r"^(?:what (?:does|do) (?:the )?(?:research|literature|evidence|science|studies|trials|data) "
                         r"(?:say|show|tell us) (?:about|on)|what is known about|tell me about)\s+")
"""A lead-in that asks what is known of the words after it ("what does the research say about aspirin for preventing
cancer?" was told what aspirin is connected to, "cancer" dropped without a word), on the folded question."""


def drug_beside_words(res: Any, question: str, found: list[dict[str, Any]]) -> ParsedQuestion | None:
    """Keywords rather than a sentence: one drug that the scan finds, and beside it words that name a disease only in
    part ("metformin diabetes", "imatinib for leukemia", "tamoxifen cancer"; the scan matches whole names only, so
    they were answered for the drug alone). Asked as how the drug treats that disease, so the disease slot's linking
    applies: the diseases the words fit, nearest the drug first, and a clarification when interactive. None when
    the words link no disease ("tell me about imatinib", "imatinib dose"). Likewise one disease and beside it a drug's
    name misspelt ("alopurinol for gout" listed the drugs for gout; :func:`_drug_beside`). ``found``: the names a scan
    found in it."""
    kind = (found[0]["entity"] or {}).get("type") if len(found) == 1 else None  # an unknown name has no entity
    if kind not in DRUG_TYPES and kind not in DISEASE_TYPES:
        return None
    toks, name = _ASKS_ABOUT.sub("", fold(question)).split(), found[0]["mention"].split()
    at = next((i for i in range(len(toks)) if toks[i : i + len(name)] == name), None)
    if at is None:
        return None
    sides = [_trimmed(toks[:at]), _trimmed(toks[at + len(name) :])]
    words = [w for w in sides if w]
    if len(words) != 1 or len(words[0]) > 4:
        return None
    if kind in DISEASE_TYPES:
        return _drug_beside(res, words[0], found[0]["mention"])
    out = lexical(res.linker.link(" ".join(words[0]), SLOT_TYPES["disease"]))
    if out.status is LinkStatus.UNKNOWN or not out.candidates or out.candidates[0].type not in DISEASE_TYPES:
        return None
    if out_of_scope(question) and out.candidates[0].method in (*GUESSED_METHODS, "fuzzy"):
        return None  # "is clopidogrel reversible?": the words ask what the graph lacks, not a disease named in part
    return ParsedQuestion(Intent.MECHANISM, drug=found[0]["mention"], disease=" ".join(words[0]))


_NO_DRUG = frozenset({"drug", "drugs", "medicine", "medicines", "medication", "medications", "meds", "pill", "pills",
                      "tablets", "options", "option", "best", "good", "cure", "cures", "remedy", "remedies", "help", "relief",
                      "natural", "home", "diet", "food", "foods", "symptoms", "causes", "signs", "new", "newest", "latest"})
"""Words beside a disease that ask for its drugs, or something else about it, not one drug."""


def _drug_beside(res: Any, words: list[str], disease: str) -> ParsedQuestion | None:
    """How a drug treats the disease, when the words beside it link one drug by its spelling alone and no other entity
    ("alopurinol for gout"); None for words that ask for the disease's drugs ("best pills for gout") or link no drug."""
    if len(words) > 2 or set(words) & _NO_DRUG:
        return None
    out = res.linker.link(" ".join(words), SLOT_TYPES["drug"])
    best = out.best if out.status is LinkStatus.LINKED else None
    if best is None or best.type != "Drug" or best.method == "embedding":
        return None
    return ParsedQuestion(Intent.MECHANISM, drug=" ".join(words), disease=disease)


def _trimmed(words: list[str]) -> list[str]:
    """``words`` without keyword filler at either end."""
    lo, hi = 0, len(words)
    while lo < hi and words[lo] in _KEYWORD_FILLER:
        lo += 1
    while hi > lo and words[hi - 1] in _KEYWORD_FILLER:
        hi -= 1
    return words[lo:hi]


def _one_drug_at_a_time(question: str, mentions: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Free text that names several drugs and one disease ("tylenol vs advil for fever", "aspirin or ibuprofen for
    pain?"): about the first drug, the others as questions to ask next, as when a rule's slot lists them. Their
    mentions stay on the record, marked ``deferred`` (no end of the walk). The second drug used to become a goal of
    the walk beside the disease, and was never mentioned again."""
    types = [(m.get("entity") or {}).get("type") for m in mentions]
    drugs = [m for m, t in zip(mentions, types, strict=True) if t in DRUG_TYPES]
    diseases = [m for m, t in zip(mentions, types, strict=True) if t in DISEASE_TYPES]
    if len(drugs) < 2 or len(diseases) != 1 or len(drugs) + 1 != len(mentions):
        return mentions, []
    def written(m: dict[str, Any]) -> str:  # as the question spells it ("CML", not the scan's "cml")
        found = re.search(re.escape(m["mention"]), question, re.IGNORECASE)
        return found.group(0) if found else m["mention"]

    template = TEMPLATES[Intent.MECHANISM.value]
    later = {id(m) for m in drugs[1:]}
    return ([{**m, "deferred": True} if id(m) in later else m for m in mentions],
            [template.format(drug=written(m), disease=written(diseases[0])) for m in drugs[1:]])


def _scan_intent(question: str, mentions: list[dict[str, Any]]) -> Intent:
    """The intent of a question no rule parsed, from what the scan linked: two names ask how they are related, one
    what the graph holds about it, and one drug beside a word for its mechanism ("imatinib mechanism of action",
    "MOA: metformin") what it acts on, as "what is the mechanism of action of imatinib?" does."""
    live = [m for m in mentions if not m.get("deferred")]
    if len(live) >= 2:
        return Intent.RELATION
    ent = live[0].get("entity") if live else None
    if ent and ent["type"] in DRUG_TYPES and MECHANISM_WORD.search(question):
        return Intent.TARGETS
    return Intent.ENTITY


