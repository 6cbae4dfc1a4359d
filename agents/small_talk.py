"""Greetings, thanks and "what can you do?": answered with what medpath answers, not from the graph.

They used to end NOT_FOUND ("No verified evidence: no known entity in the question"), which tells a new user nothing.
The planner routes them straight to the explainer, like a question about the thread (``agents.history``), and the
turn leaves the thread's focus as it was: "thanks" after "How does imatinib treat CML?" does not stop "what about
dasatinib?" from meaning CML.
"""

from __future__ import annotations

import re

from agents.state import Status

__all__ = ["EXAMPLES", "small_talk", "small_talk_answer", "without_small_talk"]

_MORE_OF = {"drug": ("What does {x} treat?", "What does {x} target?", "What are alternatives to {x}?"),
            "disease": ("What drugs treat {x}?", "What causes {x}?", "What are the symptoms of {x}?"),
            "patient": ("What conditions does {x} have?", "What is {x} taking?", "What are {x}'s labs?")}
"""What the graph (or the patient's record) can say next about the thread's drug, disease or patient."""

_END = r"[\s!.?,:)(]*"
_KINDS = {
    "greeting": (r"(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo)(?: there)?"
                 r"(?: medpath)?"),
    "thanks": (r"(?:(?:ok(?:ay)?|great|perfect|cool|nice|awesome|got it|understood|makes sense)[\s,.!]*)?"
               r"(?:thanks?(?: you)?(?: (?:so|very) much| a lot)?|thx|ty|cheers|much appreciated)"),
    "goodbye": (r"(?:(?:ok(?:ay)?|great|thanks?(?: you)?(?: (?:so|very) much| a lot)?)[\s,.!;]*){0,3}"
                r"(?:that(?:'s| is|’s) (?:all|it|everything)(?: for now)?|bye|goodbye|good bye|see you(?: later)?)"),
    "help": (r"(?:help(?: me)?|what can (?:you|i) (?:do|ask(?: you)?|ask about)|what do you (?:know|do)|"
             r"what (?:kinds?|sorts?|types?) of questions can i ask(?: you)?|how do i use (?:this|you|medpath)|"
             r"who are you|what are you|what is (?:this|medpath)|how does this work|what questions can i ask(?: you)?)"),
    "more": (r"(?:(?:so|and|ok(?:ay)?|then),? )?(?:what (?:else|more) (?:(?:should|do|would|must|can|could|might) (?:i|we) "
             r"(?:know|be aware of|understand)|is there to know|can you tell (?:me|us))|(?:is there )?anything else (?:i|we) "
             r"(?:should|need to|must) know)(?: about (?:it|that|this|them))?"),
}
_SMALL_TALK = re.compile("|".join(f"(?P<{k}>^{rx}{_END}$)" for k, rx in _KINDS.items()), re.IGNORECASE)
_INTRO = (r"(?:i'm|i’m|i am|im) (?:an? )?(?:[\w-]+ ){0,2}?(?:nurse|doctor|physician|pharmacist|student|researcher|clinician|"
          r"caregiver|carer|scientist|practitioner|gp|medic|paramedic|resident|intern)")
"""Who the asker is, said before the question and ended by a stop ("I'm a nurse. How does heparin work?" was read as
a sentence naming heparin, and told what heparin is connected to, not what it acts on)."""
_LEADING = re.compile(rf"^(?:(?:{_KINDS['greeting']}|{_KINDS['thanks']})(?:\s*[,.!;:]+\s*|\s+)|{_INTRO}\s*[,.!;:]+\s*)+"
                      r"(?:(?:and|so|now|then),?\s+)*", re.IGNORECASE)

_TRAILING = re.compile(rf"(?<=[?.!])\s*(?:{_KINDS['thanks']})\s*[.!]*$", re.IGNORECASE)
"""Thanks after a question ("can you explain how warfarin works? thanks": read as one name, what warfarin is connected
to)."""

_GREETING = re.compile(rf"^{_KINDS['greeting']}\b", re.IGNORECASE)

EXAMPLES = ("How does imatinib treat CML?", "What drugs treat gout?", "What does metformin target?",
            "What causes asthma?", "What is PAT_001 taking?")
"""Questions the help answer offers, one of each kind."""


def small_talk(question: str) -> str:
    """"greeting", "thanks", "goodbye" or "help" for a question that is only that ("hi!", "thanks", "thanks, that's
    all", "what can you do?", "Hi! What can you do?"), else "". A question that also asks something ("hi, how does
    imatinib treat CML?") is not small talk."""
    text = " ".join(question.split())
    if (m := _SMALL_TALK.match(text)) is not None:
        return m.lastgroup or ""
    rest = without_small_talk(text)  # "Hi! What can you do?" was NOT_FOUND
    return small_talk(rest) if rest != text else ""


def without_small_talk(question: str) -> str:
    """The question without a greeting, thanks or who the asker is before it ("Hello there. What drugs treat gout?" was
    NOT_FOUND; "thanks! and what about dasatinib?" was not read as a follow-up); as it is when nothing else is left."""
    text = " ".join(question.split())
    rest = _TRAILING.sub("", _LEADING.sub("", text, count=1), count=1)  # "… how warfarin works? thanks" too
    return rest if rest and rest != text and any(ch.isalpha() for ch in rest) else text


def small_talk_answer(question: str, asked_before: bool, about: dict[str, str] | None = None) -> dict[str, object]:
    """The answer to small talk; ``asked_before`` says whether the thread holds an earlier question, so that "thanks"
    can offer a follow-up; ``about``: the drug or disease the thread is about, whose questions "what else should I
    know?" offers (it was `NOT_FOUND`, "no known entity in the question")."""
    kind = small_talk(question)
    examples = "; ".join(f'"{q}"' for q in EXAMPLES)
    if kind == "more" and about:
        return {"status": Status.ANSWERED, "answer": _more_about(about)}
    if kind == "goodbye":  # "thanks, that's all": the thread is kept, so a later question can still refer back
        return {"status": Status.ANSWERED, "answer": "You're welcome. Goodbye: this conversation is kept, so you can come "
                "back to it and ask a follow-up."}
    if kind == "thanks":
        more = ' Ask a follow-up ("what about dasatinib?", "how does the second one work?") or a new question.'
        return {"status": Status.ANSWERED, "answer": "You're welcome." + (more if asked_before else f" Try: {examples}.")}
    lead = "Hello. " if kind == "greeting" or _GREETING.match(question.strip()) else ""
    return {"status": Status.ANSWERED, "answer": (
        f"{lead}I answer questions about how drugs act on diseases and proteins, from DrugMechDB's curated mechanisms: "
        "each answer gives the chain of relations it rests on, with citations, or says that the graph holds none. "
        "I can explain how a drug treats a disease, list the drugs for a disease or what a drug treats, name a "
        "drug's targets or the drugs that act on a protein (or count them), say what the graph links into a disease, and read a "
        "patient's record. Follow-ups in the same conversation refer back (\"what about dasatinib?\", \"and the "
        f"second one?\"). Side effects, doses and interactions are not in the graph. Try: {examples}.")}


def _more_about(about: dict[str, str]) -> str:
    """"What else should I know?" in a thread about ``about``: the questions the graph answers about it, but the one
    the thread just asked (``about["asked"]``)."""
    name, asked = about["name"], about.get("asked", "").casefold().rstrip("?")
    asks = "; ".join(f'"{q.format(x=name)}"' for q in _MORE_OF[about["kind"]] if q.format(x=name).casefold().rstrip("?") != asked)
    source = "the patient records hold" if about["kind"] == "patient" else "the knowledge graph holds"
    return (f"What {source} about {name} is in answers to: {asks}; "
            f"\"What did you tell me about {name}?\" repeats what this conversation said. Side effects, doses and "
            "interactions are not in the graph.")
