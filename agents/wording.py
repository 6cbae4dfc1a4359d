"""A question's wording made plain before the intent rules read it (``agents.intent.parse_question``): a request
around it, a contracted "is", "how many" for "which", "in the knowledge graph", "in the body", and a count of answers
asked for ("name three drugs for asthma").
"""

from __future__ import annotations

import re

from agents.scope import typed

__all__ = ["COUNT_ASKED", "plain_wording"]

_POLITE = re.compile(
    r"^(?:(?:and|but|so|also|ok|okay|then|now),?\s+(?=(?:how|why|what|which|who|does|do|is|are|can)\b)|"
    r"(?:(?:can|could|would|will) you |please )?(?:explain|describe|walk me through|tell me|show me)(?: to me)?(?: please)? "
    r"(?=(?:how|why|what|which) ))", re.IGNORECASE)
"""A request around a question ("Can you explain how X helps with Y?"), or a word joining it to the last one ("and what
else targets TNF?" was read as a name, what TNF is connected to): the question inside is parsed."""
_CONTRACTED = re.compile(r"^(what|which|how|who)(?:(?:'s|’s)\b|s(?= ))", re.IGNORECASE)
"""A contracted "is" after the question word ("what's used for Y?", "whats lipitor for", typed without the apostrophe)."""
_HOW_MANY = re.compile(r"^how many (?=(?:other )?(?:drugs|medications|medicines|treatments|therapies|diseases|conditions|"
                       r"illnesses|disorders)\b)", re.IGNORECASE)
""""How many drugs treat gout?" asks what "which drugs treat gout?" asks: the graph holds no count of them
(``agents.scope``; the counts it holds are ``agents.counts``'s)."""
_IN_THE_GRAPH = re.compile(r"(?<!\bare)(?<!\bis)\s+in (?:the|your|this|medpath's) (?:knowledge graph|graph|kg|database)\b(?=\s+\S)"
                           r"|(?<=^how) exactly\b|\s+(?:exactly|precisely|specifically)$", re.IGNORECASE)
""""Which drugs in the graph treat asthma?" ("graph" was read as a name), "how exactly does X …" ("exactly does X")."""
_IN_THE_BODY = re.compile(r"(?<=\S)\s+(?:(?P<v>affects?|acts? on|works? on)\s+|in |to |on )(?:the|your|my|our|a) (?:human )?"
                          r"(?:body|system)$", re.IGNORECASE)
""""What does metformin do in the body?", "… to the body", "how does nicotine affect the body?" (how it works): where
any drug acts, no name of the graph ("body" was read as Increased body weight)."""
_IN_THE_SAME_WAY = re.compile(r"\b(?P<v>(?:work|act|function)s?) in the same way\b", re.IGNORECASE)
""""Does losartan work in the same way as lisinopril?" is "… work the same way as …", a comparison (the mechanism
rule's "does X work in Y" read "same way as lisinopril" as the disease)."""
COUNT_ASKED = re.compile(r"^(?P<ask>(?:list|name|show|give|find|suggest|recommend|tell)(?: me| us)?|(?:what|which) (?:are|is))"
                    r"(?: all| the)?(?: top| first)? (?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten|a couple of|several|"
                    r"all(?: the)?)(?= (?:[\w-]+ )?(?:drugs|medications|medicines|meds|treatments|therapies|pills|diseases|"
                    r"conditions|targets|proteins|receptors|enzymes|genes)\b)", re.IGNORECASE)
""""Name three drugs for asthma", "what are the top 10 drugs for hypertension?", "list all drugs that inhibit COX-2":
the answer is a ranked list as long as the count asks (``agents.list_size`` reads ``n``), and the count kept the rules
from reading them (they were told what Asthma, Hypertensive disorder and COX-2 are connected to)."""

_TWO_VERBS = re.compile(r"^(?:(?:is|are) there|what|which)(?: (?:is|are))?(?: an?| any| the| some)? (?:drugs?|medications?|medicines?|"
                        r"meds|pills|treatments?)(?: (?:that|which))? (?:treats?|helps? with|works? for) (?P<a>.+?),? and "
                        r"(?:also |can also |that also |which also )?(?:(?P<low>lowers?|reduces?|brings? down)|treats?|helps?"
                        r"(?: with)?|works? for) (?:also )?(?!with\b|for\b)(?P<b>.+?)(?: (?:too|as well))?$", re.IGNORECASE)
""""Is there a drug that treats gout and lowers blood pressure?", "which drugs treat depression and also help with
anxiety?": both diseases, as "which drugs treat both Y and Z?" asks (the words after the first disease were read
as one name, "gout and lowers high blood pressure"); what a drug lowers is the disease of its being high, and
weight loss is obesity ("… treats diabetes and helps with weight loss" was read as obesity alone)."""
_WEIGHT_LOSS = re.compile(r"(?:(?:you|people|patients|me|us) )?(?:to )?(?:weight loss|los(?:e|ing) weight)", re.IGNORECASE)


def _high(name: str, lowered: bool) -> str:
    """What a drug lowers is the disease of its being high ("lowers cholesterol": "high cholesterol")."""
    return f"high {name}" if lowered and not re.match(r"(?:high|elevated|raised)\b", name, re.IGNORECASE) else name


def _both(m: re.Match[str]) -> str:
    b = "obesity" if _WEIGHT_LOSS.fullmatch(m["b"]) else _high(m["b"], bool(m["low"]))
    return f"which drugs treat both {m['a']} and {b}"

_COMPARE_HOW = re.compile(r"^compare how (?P<d>.+? (?:and|or|with|to) .+?) (?:(?P<low>lower|reduce|bring down|decrease)|treat|help with|"
                          r"manage|control|work (?:for|in|on)|act on)s? (?P<y>.+)$", re.IGNORECASE)
""""Compare how atorvastatin and rosuvastatin lower cholesterol" is "compare atorvastatin and rosuvastatin for high
cholesterol", a comparison for a disease (cholesterol was compared as a third drug)."""


def _compare_for(m: re.Match[str]) -> str:
    return f"compare {m['d']} for {_high(m['y'], bool(m['low']))}"


_AT_A_LEVEL = re.compile(r"\s+(?:at|on) (?:the |a )?(?:molecular|cellular|biochemical|chemical|mechanistic|"
                         r"pharmacological|receptor|protein) levels?$", re.IGNORECASE)
""""How does metformin work at the molecular level?" is how it works (it was told what metformin is connected to): a
path from the drug to its targets is that level."""
_HOW_COME = re.compile(r"^how come\b(?:(?P<s>(?: [\w-]+){1,3}?) (?P<be>is|are) (?=\w))?", re.IGNORECASE)
""""How come aspirin helps with pain?" is "how aspirin helps …" ("come aspirin" was read as the drug's name), and "how
come metformin is used for diabetes?" is "why is metformin used …"."""
_BOTH_AFTER = re.compile(r"^(?P<q>(?:do|does|can|could|will|would|did|are|is)\s+(?!they\b|these\b|those\b|both\b)\S.*?\s+"
                         r"(?:and|&)\s+\S+?(?:\s+\S+?)?)\s+(?:both|each|too|as well)\s+(?=\w)", re.IGNORECASE)
""""Do atorvastatin and simvastatin both lower cholesterol?" is "Do atorvastatin and simvastatin lower cholesterol?",
each drug asked in turn ("simvastatin both" was read as a name, and the question answered for atorvastatin alone)."""


def plain_wording(question: str) -> str:
    """The question as the intent rules read it (the words above made plain, its end punctuation off)."""
    q = _AT_A_LEVEL.sub("", _IN_THE_SAME_WAY.sub(r"\g<v> the same way", _BOTH_AFTER.sub(r"\g<q> ", typed(question).rstrip("?.! "))))
    q = _IN_THE_BODY.sub(lambda m: " work" if m["v"] else "", _IN_THE_GRAPH.sub("", _HOW_MANY.sub("which ", q)))
    q = _HOW_COME.sub(lambda m: f"why {m['be']}{m['s']} " if m["be"] else "how", _POLITE.sub("", _CONTRACTED.sub(r"\1 is", q)))
    q = _COMPARE_HOW.sub(_compare_for, _TWO_VERBS.sub(_both, q))
    return COUNT_ASKED.sub(lambda m: m["ask"] if m["ask"].lower().split()[0] not in ("what", "which") else f"{m['ask']} some", q)
