"""Whether the thread's drug works as the other one does, asked with "it": "does it work the same way?", "is it the
same mechanism?", "does it work differently?" after turns about two drugs; and "does it work like ibuprofen?" after a
turn about naproxen.

The plural ("do they work the same way?") already compared the two drugs; the singular was asked of the latest drug
alone ("Is Clopidogrel the same mechanism?", "Does Losartan work differently?") and told what it is connected to,
with no word of the drug it was set against. After one drug there is nothing to set it against, and the question is
left as it was. "Does it work the same way as ibuprofen?" after naproxen was answered with what ibuprofen is connected
to, naproxen dropped. "Why are they given together?" after turns about levodopa and carbidopa is asked as "why is
carbidopa given with it?" is, and "do they treat the same things?" after losartan and valsartan as whether they treat
the same diseases; "do they both treat hypertension?" asks which of the two do, and "do they treat COPD?" after a
list of drugs which of the listed drugs do.
"""

from __future__ import annotations

import re
from typing import Any

from agents.ellipsis import drug_named
from agents.focus import Focus
from agents.resolution import Resolution
from agents.state import LISTED_DRUGS
from core.text import fold

__all__ = ["both_treat", "it_alike", "it_like", "together", "treat_alike"]

_IT = r"(?:it|this|that)(?: one| drug| medication| medicine| pill)?"
_SAME = (r"(?:(?:in )?(?:exactly |just )?the same way|(?:exactly |just )?the same|similarly|alike|differently|in a different way"
         r"|(?:in )?another way)")
_OPENING = r"^(?:so |and |but |ok,? |then |also )?"
_IT_ALIKE = re.compile(
    rf"{_OPENING}(?:(?:does|do|would|will|did) {_IT} (?:also )?(?:work|act|function) {_SAME}"
    rf"|(?:is|was) (?:{_IT}|its mechanism|the mechanism) (?:also )?(?:any )?(?:the same|similar|different|alike)"
    rf"(?: mechanism| way| thing| kind of (?:drug|thing))?"
    rf"|(?:does|do|did) {_IT} (?:have|use|share) (?:the same|a similar|a different|another) (?:mechanism|way of working)"
    rf"|(?:is (?:it|that|this) )?(?:the )?(?:same|a different|a similar) mechanism)"
    rf"(?: (?:as|from|to|than) (?:the other(?: one| drug)?|the first(?: one)?|before))?(?: too| then| though)?$",
    re.IGNORECASE)
"""The question, with "it" for the latest drug and nothing named to set it against."""
_IT_LIKE = re.compile(
    rf"{_OPENING}(?:does|do|would|will|did) {_IT} (?:also )?(?:work|act|function) (?:(?:in )?(?:exactly |just )?the same "
    rf"(?:way )?as|(?:just |exactly )?like|similarly to|differently (?:from|than|to)|in a different way (?:from|than|to))"
    rf" (?P<x>.+?)(?: does| do)?(?: too| then| though)?$", re.IGNORECASE)
"""The question, with "it" for the thread's drug and another drug named to set it against."""
_THEM = r"(?:they|them|these|those|both|the two|these two|those two)(?: drugs| medications| medicines)?"
_TOGETHER = re.compile(
    rf"{_OPENING}why (?:(?:are|were|would|do|does|should|is) {_THEM} (?:often |usually |sometimes |always )?(?:be )?"
    r"(?:given|used|taken|combined|prescribed|paired|mixed)(?: together)?"
    r"|(?:do|would|should|did) (?:you|we|doctors|people|they) (?:give|use|take|combine|prescribe|pair) "
    rf"{_THEM}(?: together)?|(?:combine|give|use|take|pair|prescribe) {_THEM} together)(?: then)?$", re.IGNORECASE)
"""Why the thread's two drugs are given together, naming neither."""
_TREAT_ALIKE = re.compile(
    rf"{_OPENING}(?:do|are|can|would) {_THEM} (?:both |all )?(?:treat|used for|used to treat|help(?: with)?|for) "
    r"(?:the same|similar)(?: things?| diseases?| conditions?| illness(?:es)?| disorders?| problems?)?(?: then| too)?$", re.IGNORECASE)
"""Whether the thread's two drugs treat the same diseases, naming neither."""
_BOTH_TREAT = re.compile(
    rf"{_OPENING}(?:do|can|would|will|did|are) (?:(?P<both>they both|both(?: of them| drugs| medications)?|the two(?: of them)?|"
    r"they each|they all|all of them)|they|these|those|these drugs|those drugs) (?:also )?(?:(?P<acts>target|act on|work on|"
    r"bind(?: to)?|inhibit|block|affect)|(?P<v>treat|help(?: with)?|cure|prevent|lower|reduce|control)|work (?:for|against)|"
    r"(?:be )?used (?:for|to treat|against)) (?P<y>(?!the same\b|similar\b).+?)(?: too| as well)?$",
    re.IGNORECASE)
"""Whether the drugs just listed, or both of the thread's two drugs, treat a disease ("do they both treat
hypertension?", "do they treat COPD?" after the drugs for asthma) or act on a target ("do they both target HMG-CoA
reductase?" after atorvastatin and simvastatin: it was "Do atorvastatin both target …?", answered for atorvastatin)."""


def _plain(q: str) -> str:
    return " ".join(q.split()).rstrip("?.! ")


def _pinned(res: Resolution, q: str, two: list[dict[str, Any]]) -> None:
    """Record the reference to both drugs and pin them; "leaves_none_out": "the other one" or "else" names no drugs to
    leave out of the answer (``agents.followup``)."""
    res.references.append({"text": q, "how": "compared", "drugs": [d["id"] for d in two], "leaves_none_out": True})
    res.pinned.update({fold(d["name"]): d for d in two})


def it_alike(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Compare <the earlier drug> and <the latest drug>" for "does it work the same way?" after turns about two drugs
    (``Focus.two_drugs``), both pinned; None for any other question, or with fewer than two drugs in the thread."""
    two = focus.two_drugs
    if len(two) < 2 or not _IT_ALIKE.match(_plain(q)):
        return None
    _pinned(res, q, two)
    return f"Compare {two[0]['name']} and {two[1]['name']}"


def it_like(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """"Compare <the thread's drug> and <the drug named>" for "does it work like ibuprofen?", both pinned; None for any
    other question, a name that links to no drug or to the thread's drug, or a thread with no drug."""
    m = _IT_LIKE.match(_plain(q))
    other = drug_named(m["x"], linker, read=True) if m and focus.drug else None
    if other is None or focus.drug is None or other["id"] == focus.drug["id"]:
        return None
    _pinned(res, q, [focus.drug, other])
    return f"Compare {focus.drug['name']} and {other['name']}"


def together(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Why is <the latest drug> given with <the one before>?" for "why are they given together?" after turns about
    two drugs, as "why is carbidopa given with it?" is read (it was "Why are carbidopa given together?", `NOT_FOUND`);
    None for any other question, or with fewer than two drugs in the thread."""
    two = focus.two_drugs[::-1]
    if len(two) < 2 or not _TOGETHER.match(_plain(q)):
        return None
    _pinned(res, q, two)
    return f"Why is {two[0]['name']} given with {two[1]['name']}?"


def treat_alike(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Do <the one before> and <the latest drug> treat the same diseases?" for "do they treat the same things?" after
    turns about two drugs (it was "Do valsartan treat the same things?", `NOT_FOUND`); None for any other question, or
    with fewer than two drugs in the thread."""
    two = focus.two_drugs
    if len(two) < 2 or not _TREAT_ALIKE.match(_plain(q)):
        return None
    res.references.append({"text": q, "how": "both", "entities": two})
    res.pinned.update({fold(d["name"]): d for d in two})
    return f"Do {two[0]['name']} and {two[1]['name']} treat the same diseases?"


def both_treat(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which of the listed drugs treat COPD?", kept to the drugs the latest answer listed, for "do they treat COPD?"
    after "What drugs treat asthma?" (it was "Do Epinephrine treat copd?", the first listed alone), and "Which of the
    listed drugs target …?" for "do they all target …?". Two drugs are asked by name, so that the answer says whether
    both do: after turns about losartan and valsartan (or a list of those two), "do they both treat hypertension?" is
    "Do Losartan and valsartan treat hypertension?" (it was "Do valsartan both treat hypertension?"). None for any
    other question, after a drug class, or with nothing for "they" to be."""
    m = _BOTH_TREAT.match(_plain(q))
    listed = [] if focus.drug_class else focus.drug_list
    drugs = listed if len(listed) >= 2 else focus.two_drugs if m and m["both"] else []
    if m is None or len(drugs) < 2:
        return None
    verb = m["acts"] or m["v"] or "treat"  # "do they both lower cholesterol?" keeps its verb
    if len(drugs) == 2:
        _pinned(res, q, drugs)
        return f"Do {drugs[0]['name']} and {drugs[1]['name']} {verb} {m['y']}?"
    res.references.append({"text": q, "how": "list", "class": "", "drugs": [d["id"] for d in drugs]})
    res.among = [d["id"] for d in drugs]
    return f"Which of the {LISTED_DRUGS} {m['acts'] or 'treat'} {m['y']}?"
