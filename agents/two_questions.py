"""Two questions in one message: "How does metformin treat type 2 diabetes and what are its targets?".

The first is answered; the second is offered as the question to ask next (``State.also_asked``: "You also asked:
"What are its targets?" Ask it next."), as written: asked next on the same thread, the follow-up resolver reads its
"its" or "it" against the first answer, as it reads any follow-up ("which drugs also inhibit it?" after "what does
imatinib target?" means the target, not imatinib). The message used to end NOT_FOUND: "its" had nothing earlier in
the conversation to refer to.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.everyday import everyday
from agents.intent import out_of_scope, parse_question

__all__ = ["TAKE_WITH", "accepted_offer", "classes_for", "two_questions", "without_offered"]

_TWO = re.compile(r"^(?P<first>.+?\S)\s*(?:\?\s*|,?\s+and\s+(?:also\s+)?|;\s*)(?P<second>(?:(?:what|which|how|why)\s+\S+|"
                  r"(?:does|do|is|are|can|could)\s+(?:it|they|this|that|these|those|there|the|an?|any)\b)\s+.+?)[?.!]*$",
                  re.IGNORECASE)
"""Two questions: the second opens with a question word, or with a verb and its subject ("Which drugs treat gout and
are safe in pregnancy?" is one question)."""
TAKE_WITH = re.compile(r"^can (?:i|we|he|she|they) take \S.* with \S.*?\??$", re.IGNORECASE)
"""Whether two drugs may be taken together, a question no rule parses ("Can I take ibuprofen with lisinopril? How
does ibuprofen treat back pain?", as ``agents.preamble`` asks "I'm on lisinopril, can I take ibuprofen for my back
pain?")."""
_USED_FOR = r"(?:for|used for|used in|used to treat|that treat|which treat)"
_PLURAL = r"(?:drugs|medications|medicines)"
_DRUGS = r"(?:drugs?|medications?|medicines?)"  # "the drug used for CML": one drug, but the question is theirs
_THEIR_TARGETS = re.compile(
    rf"^(?:what (?:proteins |genes )?(?:do|does) (?:the )?(?:(?P<a>.+?) (?:{_PLURAL}|treatments)|{_DRUGS} "
    rf"{_USED_FOR} (?P<b>.+?)) (?:target|act on)|what (?:are|is) the targets? of (?:the )?{_DRUGS} "
    rf"{_USED_FOR} (?P<c>.+?)|how (?:do|does) (?:the )?(?:(?P<d>.+?) (?:{_PLURAL}|treatments)|{_DRUGS} "
    rf"{_USED_FOR} (?P<e>.+?)) (?:work|act))[?.!]*$", re.IGNORECASE)
"""What a disease's drugs act on, asked in one go ("what do gout drugs target?", "how do gout drugs work?", "how do
painkillers work?": ``agents.everyday``, "what proteins do CML drugs target?", "what is the target of the drug used
for CML?"): two questions, the drugs first (the second, third and the last two were NOT_FOUND)."""
_NO_DISEASE = re.compile(r"(?:these|those|this|that|the|such|my|your|its|their|other|listed|all|some|any|which|what)\b", re.IGNORECASE)


_CLASSES_FOR = re.compile(
    r"^(?:(?:can|could) you |please )?(?:(?:compare|contrast) )?(?P<a>[\w' -]+?) (?:and|with|to|vs\.?|versus) "
    r"(?P<b>[\w' -]+?) (?:for|in|against|in treating|when treating|in the treatment of) (?P<y>[^?]+?)[?.!]*$", re.IGNORECASE)
"""Two drug classes set against each other for a disease ("compare ACE inhibitors and ARBs for diabetic kidney
disease", "SSRIs vs SNRIs for anxiety")."""


def classes_for(question: str, is_class: Callable[[str], object]) -> tuple[str, list[str]] | None:
    """"ACE inhibitors vs ARBs in diabetic kidney disease", "compare SSRIs with SNRIs in anxiety": how the first class
    treats it, then the second offered next, as "compare ACE inhibitors and ARBs for …" was already answered (the
    first was answered with ACE's own chain, the ARBs dropped without a word, and the second was `NOT_FOUND`); None
    unless ``is_class`` knows both names."""
    m = _CLASSES_FOR.match(" ".join(question.split()))
    if m is None or not (is_class(m["a"]) and is_class(m["b"])):
        return None
    return f"How do {m['a']} treat {m['y']}?", [f"How do {m['b']} treat {m['y']}?"]


def two_questions(question: str, is_class: Callable[[str], object] = lambda _: False) -> tuple[str, list[str]]:
    """The first question of a message that asks two, and the second; ``(question, [])`` when the message asks one,
    or when its first part is no question on its own ("How does imatinib and dasatinib treat CML?" lists two drugs;
    "what about dasatinib and what does it target?" refers back). "What do gout drugs target?" is two: "What drugs
    treat gout?", then "What do they target?" (it was NOT_FOUND, "gout drugs" read as gout); the words before
    "drugs" that ``is_class`` knows as a drug class ask what the class acts on, as before."""
    if (pair := classes_for(question, is_class)) is not None:
        return pair
    t = _THEIR_TARGETS.match(everyday(" ".join(question.split())))
    disease = (t["a"] or t["b"] or t["c"] or t["d"] or t["e"]) if t else ""
    if disease and not _NO_DISEASE.match(disease) and not is_class(disease):
        return f"What drugs treat {disease}?", ["What do they target?"]
    m = _TWO.match(" ".join(question.split()))
    if m is None or parse_question(first := m["first"].rstrip(" ,;")) is None and not TAKE_WITH.match(first) \
            and not out_of_scope(first):  # "What are the side effects of metformin and how does it work?" (it dropped the
        return question, []  # second without a word)
    second = m["second"]
    return f"{first}?", [f"{second[0].upper()}{second[1:]}?"]


_YES = re.compile(r"^(?:yes|yeah|yep|yup|sure|ok|okay|please|go ahead|go on|do it|ask it|of course|why not)(?:[,!.]?\s*"
                  r"(?:please|do|ask it|go ahead|do that|thanks|thank you|ask that|answer it|sure))*[?.!]*$", re.IGNORECASE)
"""A reply that accepts the question the last answer offered ("yes", "sure, go ahead", "yes please")."""


def accepted_offer(question: str, offered: list[str]) -> str | None:
    """The question the last answer offered to ask next (``State.also_asked``, first of them) when ``question`` only
    accepts it; None otherwise. "yes" after 'You also asked: "Does imatinib inhibit KIT?" Ask it next.' was NOT_FOUND,
    '"yes" is not in the knowledge graph'."""
    return offered[0] if offered and _YES.match(question.strip()) else None



def without_offered(question: str, offered: list[str]) -> str:
    """``question`` up to the questions in it that its answer offers to ask next (``State.also_asked``): "How does
    metformin treat diabetes? And what about its side effects?" answers the first, so a note on side effects belongs
    to the second's answer, not the first's (it opened the first's)."""
    for later in offered:
        at = question.casefold().rfind(later.rstrip("?.! ").casefold())
        question = question[:at] if at > 0 else question
    return question
