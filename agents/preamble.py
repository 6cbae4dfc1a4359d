"""A sentence that names something, then a question about "it": "My doctor prescribed metformin. How does it work?",
"I was told to take warfarin. What does it target?".

The question's "it" had nothing earlier in the thread to refer to, so the whole message was scanned for names and
answered with what metformin is connected to (or asked what "it" meant). The question is now asked with the one
name the sentence before it holds ("How does metformin work?"). A sentence that names several entities, or none, is
left as it was: "it" could be any of them, unless the sentence says what the one drug is for ("I take lisinopril for
my blood pressure. How does it work?"): the question names the drug, and a question only of how it works, helps or
what it does asks about what it is for ("How does lisinopril work for my blood pressure?"). That was answered as a
mechanism from lisinopril to the measure Blood pressure, which no chain reaches.

A question framed as one for evidence, "Is there evidence that vitamin D prevents fractures?", is asked as the yes/no
question inside it ("Does vitamin D prevent fractures?"): it was answered with what vitamin D is connected to, the
fractures dropped (``evidence_asked``).

"Why is rizatriptan better than zolmitriptan for migraine?" is asked as "Is rizatriptan better than zolmitriptan for
migraine?" (``why_compared``): it was read as how rizatriptan treats "better than zolmitriptan for migraine", linked by
spelling to zolmitriptan, and NOT_FOUND. The graph holds no comparisons of how well drugs work; the yes/no question is
answered with that note and each drug's mechanism.

"Can I take ibuprofen instead of aspirin for a heart attack?" is asked as "Is ibuprofen better than aspirin for a heart
attack?" (``instead_compared``): it was answered "Yes: Ibuprofen acts on Myocardial infarction …", the words "instead
of aspirin" read into the drug's name. The graph does not say whether one drug can replace another; the answer says so
and gives each drug's mechanism.
"""

from __future__ import annotations

import re
from typing import Any

from agents.alternatives import asks_another
from agents.answer_notes import LISTED, and_listed
from agents.ellipsis import drug_named
from agents.intent import SLOT_TYPES
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.linker import GUESSED_METHODS, LinkStatus, fold

__all__ = ["acting_on", "evidence_asked", "having_conditions", "instead_compared", "kind_acting", "non_class", "why_compared",
           "with_preamble"]

_SPLIT = re.compile(r"^(?P<s>[^?]+?[.!])\s+(?P<q>(?:how|what|which|why|does|do|is|are|can|could|should|will|would|when|"
                    r"where)\b[^?.!]*[?.!]*)$", re.IGNORECASE)
"""A statement, then a question opening with a question word."""
_SPLIT_SOFT = re.compile(r"^(?P<s>(?:i|i'm|i’m|im|my \w+(?: \w+)?|he|she|we|they)\b[^?.!]*?\b(?:take|takes|taking|took|on|prescribed|"
                         r"given|started|using|use|uses)\b[^?.!]*?)\s*(?:[,;:]|\s[-–—])\s+(?P<q>(?:how|what|which|why|does|do|is|"
                         r"are|can|could|should|will|would|when|where)\b[^?.!]*[?.!]*)$", re.IGNORECASE)
"""The same after a comma, a dash or a semicolon, when the statement is of someone taking a drug ("i was prescribed
atorvastatin, what does it do?", "my mom is on warfarin - what is it used for?": they were told what the drug is
connected to, the question itself dropped)."""
_IT = re.compile(r"\b(?:it|this (?:drug|medication|medicine|pill)|that (?:drug|medication|medicine|pill))\b(?P<s>'s)?|"
                 r"\bits\b", re.IGNORECASE)
"""A reference to one thing: "it", "its", "this drug"."""
_TAKEN_FOR = re.compile(r"\b(?:takes?|taking|took|on|prescribed|given|started|using|uses?|(?:gave|gives|give) (?:me|him|her|us|"
                        r"them))\s+(?P<x>[^.!]+?)\s+for\s+(?P<y>[^.!]+?)\s*[.!]$", re.IGNORECASE)
"""A drug and what someone takes it for: "I take lisinopril for my blood pressure."."""
_HOW_IT_WORKS = re.compile(r"^(?:how (?:does|do|will|would|can|could|is) it (?:work|help|act)(?: exactly)?|"
                           r"what (?:does|will|would|can|could) it do)\s*[?.!]*$", re.IGNORECASE)
"""A question only of how the drug works: "How does it work?", "What does it do?"."""


_THEY = re.compile(r"\b(?:they|them|these|those)(?: (?:two|three|drugs|medications|medicines|meds|pills|tablets))?\b",
                   re.IGNORECASE)
"""A reference to several things: "they", "these drugs"."""


_HAVING = re.compile(r"^(?:(?:so|well|ok|hi|hello),? )?(?:i|he|she|we|they|my (?:\w+ )?\w+) (?:(?:was|were|am|is|are|have been|has "
                     r"been) diagnosed with|suffers? from|(?:am|is|are) (?:suffering|dealing) (?:from|with)|have|has|had|got) "
                     r"(?:both )?(?P<y>[^.?!]+?)[.!]*$", re.IGNORECASE)
"""A statement of someone's conditions and no question ("I have high blood pressure and diabetes.")."""


def having_conditions(message: str, linker: Any) -> str:
    """"I have high blood pressure and diabetes." → "What can I take for high blood pressure and diabetes?", when it
    names two or more conditions, each a disease by its letters (a name that fits several diseases counts); "" for any
    other message. It looked for a chain from one disease to the other, or told what the first is connected to. "I have
    a question about aspirin and ibuprofen." names no condition and is left alone."""
    m = _HAVING.match(" ".join(message.split()))
    parts = [x for x in LISTED.split(m["y"]) if x.strip()] if m else []
    def disease(text: str) -> bool:
        out = linker.link(text)
        return out.status in (LinkStatus.LINKED, LinkStatus.AMBIGUOUS) and out.best is not None \
            and out.best.method not in GUESSED_METHODS and any(c.type in DISEASE_TYPES for c in out.candidates)
    return f"What can I take for {m['y']}?" if m and len(parts) >= 2 and all(disease(x) for x in parts) else ""


def with_preamble(message: str, linker: Any) -> str:
    """The question of ``message`` with its first "it" replaced by the one name its statement holds (module
    docstring), or its "they" by the two or more drugs it names ("My mom takes lisinopril and metformin. What are they
    for?": it looked for a chain from lisinopril to metformin, NOT_FOUND); ``message`` itself for any other message."""
    if having := having_conditions(message, linker):  # "I have high blood pressure and diabetes."
        return having
    m = _SPLIT.match(" ".join(message.split())) or _SPLIT_SOFT.match(" ".join(message.split()))
    if m is not None and asks_another(m["q"]):  # "My dad has gout and takes allopurinol. What else could help?"
        return _others_than(m["s"], message, linker)
    if beside := _taken_beside(m["s"], m["q"], linker) if m else _if_taking(message, linker):  # "I'm on lisinopril, can
        return beside  # I take ibuprofen for back pain?", "is aspirin ok for a headache if I take warfarin?"
    ref = _IT.search(m["q"]) if m else None
    they = _THEY.search(m["q"]) if m and ref is None else None
    if m is not None and they is not None:
        drugs = [mention for mention, cands in linker.scan(m["s"]) if cands and cands[0].type in DRUG_TYPES]
        return f"{m['q'][:they.start()]}{and_listed(drugs)}{m['q'][they.end():]}" if len(drugs) >= 2 else message
    if m is None or ref is None:
        return message
    q = m["q"]
    taken = _TAKEN_FOR.search(m["s"])  # "I take lisinopril for my blood pressure."
    named = _named(taken["x"], linker) if taken else {}
    purpose = taken["y"] if taken and len(named) == 1 else ""
    named = named if purpose else _named(m["s"], linker)
    if len(named) != 1:
        return message
    name = next(iter(named.values()))
    if purpose and _HOW_IT_WORKS.match(q):
        joiner = "with" if re.search(r"\bhelp$", q.rstrip("?.! "), re.IGNORECASE) else "for"  # "help with my diabetes"
        return f"{q[:ref.start()]}{name}{q[ref.end():].rstrip('?.! ')} {joiner} {purpose}?"
    own = ref.group(0).casefold() == "its" or bool(ref["s"])
    possessive = "'s" if own else ""
    return f"{q[:ref.start()]}{name}{possessive}{q[ref.end():]}"


_CAN_TAKE = re.compile(
    r"^(?:(?:can|could|may|should) (?P<p>i|we|he|she|they|you) (?:also |still |safely )?(?:take|use|have|try|give (?:him|her|them))\s+|"
    r"(?:is|would) (?:it|that) (?:ok|okay|safe|fine|alright) (?:for (?P<p2>me|him|her|them) )?to (?:take|use|try|have)\s+)"
    r"(?P<y>.+?)(?: (?:for|to treat|to help with) (?:my |his |her |their |a |an |the )?(?P<z>[^?.!]+?))?[?.!]*$|"
    r"^(?:is|are) (?P<y2>.+?) (?:ok|okay|safe|fine|alright)(?: to (?:take|use))?(?: for (?:my |his |her |their |a |an |"
    r"the )?(?P<z2>[^?.!]+?))?[?.!]*$", re.IGNORECASE)
"""Whether another drug may be taken ("can I take ibuprofen for my back pain?", "is aspirin ok for a headache?")."""
_PERSON = {"i": "I", "you": "I", "me": "I", "we": "we", "he": "he", "him": "he", "she": "she", "her": "she", "they": "they",
           "them": "they"}
"""Who would take it, as the question says ("is it safe for her to take aspirin?": "Can she take aspirin with …?")."""
_TAKING = re.compile(r"\b(?:take|takes|taking|took|on|using|use|uses|prescribed)\b", re.IGNORECASE)
_IF_TAKING = re.compile(r"^(?P<q>.+?),? (?:if|when|while|since|as|because) (?:i|i'm|i’m|i am|we|we're|he|she|they|my \w+)"
                        r"(?: (?:am|is|are|was))? (?:already |currently |also )?(?:take|takes|taking|on|using|use|uses|"
                        r"prescribed)\b (?P<x>[^?.!]+?)[?.!]*$", re.IGNORECASE)
"""The same with the drug taken after it ("is aspirin ok for a headache if I take warfarin?")."""


def _taken_beside(statement: str, q: str, linker: Any) -> str:
    """"I'm on lisinopril, can I take ibuprofen for my back pain?" → "Can I take ibuprofen with lisinopril? How does
    ibuprofen treat back pain?": a question of the two drugs' interactions (its note, then what each acts on), the
    disease asked next; it was answered with how lisinopril acts on Backache. "" unless the statement is of someone
    taking one drug and the question asks whether another drug may be taken, each named by its letters."""
    taken = list({c[0].id: mention for mention, c in linker.scan(statement) if c and c[0].type in DRUG_TYPES}.values()) \
        if _TAKING.search(statement) else []
    m = _CAN_TAKE.match(q.strip())
    other = (m["y"] or m["y2"]) if m else ""
    if len(taken) != 1 or not other or drug_named(other, linker, read=True) is None or fold(other) == fold(taken[0]):
        return ""
    disease = m["z"] or m["z2"]
    who = _PERSON[(m["p"] or m["p2"] or "i").casefold()]
    return f"Can {who} take {other} with {taken[0]}?" + (f" How does {other} treat {disease}?" if disease else "")


def _if_taking(message: str, linker: Any) -> str:
    """"Is aspirin ok for a headache if I take warfarin?" → as :func:`_taken_beside` reads "I take warfarin. Is aspirin
    ok for a headache?"; "" for any other message."""
    m = _IF_TAKING.match(" ".join(message.split()))
    return _taken_beside(f"I take {m['x']}", m["q"], linker) if m else ""


def _others_than(statement: str, message: str, linker: Any) -> str:
    """"My dad has gout and takes allopurinol. What else could help?" → "What are the alternatives to allopurinol for
    gout?" (it was answered with how allopurinol treats gout, the question dropped): the one drug the statement names,
    and the one disease when it names one; ``message`` itself unless it names one drug."""
    found = [(mention, cands[0]) for mention, cands in linker.scan(statement) if cands]
    drugs = {c.id: mention for mention, c in found if c.type in DRUG_TYPES}
    diseases = {c.id: mention for mention, c in found if c.type in DISEASE_TYPES}
    if len(drugs) != 1:
        return message
    drug = next(iter(drugs.values()))
    taken = _TAKEN_FOR.search(statement.rstrip(".!") + ".")  # "I take metformin for diabetes.": "diabetes" fits several
    disease = taken["y"] if taken else next(iter(diseases.values())) if len(diseases) == 1 else ""  # "for my blood
    # pressure" keeps "my": the lay name of Hypertensive disorder, where "blood pressure" is the measure
    return f"What are the alternatives to {drug} for {disease}?" if disease else f"What are the alternatives to {drug}?"


def _named(text: str, linker: Any) -> dict[str, str]:
    """The entities ``text`` names, each with its mention."""
    return {cands[0].id: mention for mention, cands in linker.scan(text) if cands}


_EVIDENCE = re.compile(
    r"^(?:is there|are there|do you have|what is the|what's the|what are the)(?: any| some| good| strong| scientific)? "
    r"(?:evidence|proof|studies|data)(?: that| whether| showing that)? (?P<x>\S+(?: \S+){0,3}?) (?P<v>treat|prevent|help|"
    r"reduce|lower|raise|increase|decrease|work|cause|improve)s? (?P<y>[^?]+?)\s*\??$", re.IGNORECASE)
"""A question for evidence around a claim ("is there evidence that X prevents Y?")."""


def evidence_asked(message: str) -> str:
    """"Does vitamin D prevent fractures?" for "Is there evidence that vitamin D prevents fractures?"; ``message``
    itself for any other message."""
    m = _EVIDENCE.match(" ".join(message.split()))
    if m is None or m["x"].casefold() in ("it", "they", "this", "that"):
        return message
    return f"Does {m['x']} {m['v'].casefold()} {m['y']}?"


_WHY_COMPARED = re.compile(
    r"^why (?P<aux>is|are|does|do|would|should) (?P<rest>\S.*?\b(?:better|worse|safer|more effective|less effective|"
    r"superior|inferior|preferred|stronger|weaker)\b.*?)\s*[?.!]*$", re.IGNORECASE)
"""A why-question around a comparison ("why is X better than Y for Z?")."""


def why_compared(message: str) -> str:
    """"Is X better than Y for Z?" for "Why is X better than Y for Z?"; ``message`` itself for any other message."""
    m = _WHY_COMPARED.match(" ".join(message.split()))
    return f"{m['aux'].capitalize()} {m['rest']}?" if m else message


_INSTEAD = re.compile(
    r"^(?:(?:can|could|should|may|shall) (?:i|we|you|he|she|they|my \w+|the patient) |is it (?:ok|okay|safe|fine|possible) "
    r"to |(?:why )?(?:not |do (?:i|you) )?)?(?:take|use|give|try|have|prescribe|swap to|switch to) (?P<x>[\w'-]+(?: [\w'-]+)?) "
    r"(?:instead of|in place of|rather than) (?P<y>[\w'-]+(?: [\w'-]+)?)(?P<z> (?:for|to treat|against|in|with) [^?]+?)?\s*[?.!]*$",
    re.IGNORECASE)
"""A question whether one drug can be taken for another ("can I take X instead of Y for Z?")."""


def instead_compared(message: str) -> str:
    """"Is X better than Y for Z?" for "Can I take X instead of Y for Z?"; ``message`` itself for any other message."""
    m = _INSTEAD.match(" ".join(message.split()))
    return f"Is {m['x']} better than {m['y']}{m['z'] or ''}?" if m else message


_NON_CLASS = re.compile(
    r"^(?:what|which|are there|any|list|name|give me)?(?: are| is)?(?: the| some| any)?\s*non[- ]?(?P<c>[a-z]+?)(?:al)? "
    r"(?:drugs?|options?|medications?|medicines?|meds|treatments?|therap(?:y|ies)|alternatives?|choices?) "
    r"(?:are there )?(?:for|to treat|against) (?P<y>[^?]+?)\s*[?.!]*$", re.IGNORECASE)
"""Drugs for a disease outside a class, named by "non-" ("what are non-steroidal options for asthma?"); "non-steroidal
anti-inflammatory drugs" is a class's own name, and no noun of drugs follows "non-steroidal" in it."""


def non_class(message: str, linker: Any) -> str:
    """"What drugs treat asthma besides steroids?" for "What are non-steroidal options for asthma?" (it was told what
    Asthma is connected to); ``message`` itself when the words after "non-" name no class of the class table."""
    m = _NON_CLASS.match(" ".join(message.split()))
    klass = m and (linker.class_name(m["c"]) or linker.class_name(m["c"] + "s"))
    return f"What drugs treat {m['y']} besides {klass}?" if m and klass else message


_ACTING = re.compile(r"^(?P<t>.+?) (?P<n>inhibitor|blocker|antagonist|agonist|activator)s?$", re.IGNORECASE)
_VERBS = {"inhibitor": "inhibit", "blocker": "block", "antagonist": "block", "agonist": "activate", "activator": "activate"}
_KIND_OF_DRUGS = re.compile(r"^(?:(?:what|which) (?:drugs?|medications?|medicines?|compounds?) (?:is|are)|(?:list|name)"
                            r"(?: some| the| all)?) (?:an? |the |known )?(?P<kind>[\w-]+(?: [\w-]+){0,2} (?:inhibitor|blocker|"
                            r"antagonist|agonist|activator)s?)[?.!]*$", re.IGNORECASE)


def acting_on(kind: str, linker: Any) -> str:
    """"inhibit xanthine oxidase" for the kind "xanthine oxidase inhibitors", when its target links to no drug or
    chemical ("dopamine antagonists" act on dopamine's receptors, not on dopamine); "" for any other kind."""
    m = _ACTING.match(kind.strip())
    if m is None:
        return ""
    out = linker.link(m["t"], SLOT_TYPES["target"])
    best = getattr(out, "best", None)
    return f"{_VERBS[m['n'].casefold()]} {m['t']}" if best is not None and best.type not in DRUG_TYPES else ""


def kind_acting(message: str, linker: Any) -> str:
    """"What drugs inhibit PD-1?" for "Which drugs are PD-1 inhibitors?" or "list some TNF blockers", when the class
    table has no such class (it lists "which drugs are ACE inhibitors?") and the target links (it was told what PD-1 is
    connected to); ``message`` itself otherwise."""
    m = _KIND_OF_DRUGS.match(" ".join(message.split()))
    if m is None or linker.drug_class(m["kind"]):
        return message
    acting = acting_on(m["kind"], linker)
    return f"What drugs {acting}?" if acting else message
