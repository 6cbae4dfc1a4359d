"""How a question asks to be answered, said around it: "How does allopurinol treat gout? Explain simply.", "In
plain words, how does lisinopril work?", "how does aspirin prevent heart attacks? keep it short".

The request was read as part of the last name ("gout? Explain simply" linked Gout by fuzzy match, and the answer
opened with that guess). It is now taken off the question: asking for plain words or the steps answers as "can you
explain that more simply?" or "what are the steps?" would right after (``agents.plain``), and asking for the sources
("How does imatinib treat CML? Give me the sources.") as "show me the sources" would; asking for a short answer only
takes the words off, the answers being short already. So does asking how or why after a yes/no question ("Can ibuprofen
treat fever? How?", "Does metformin treat diabetes? If so, how?"; "fever? How" was read as a name): a yes answers with
the mechanism.
"""

from __future__ import annotations

import re

__all__ = ["style_request"]

_PLEASE = r"(?:,?\s*please)?"
_SIMPLER = (r"(?:(?:can|could|would) you |please )?(?:explain|say|tell me|describe|put)(?: (?:it|this|that|the answer))?"
            r" (?:(?:more )?simply|in (?:simple|simpler|plain|everyday|lay|layman'?s?) (?:terms|words|english|language)|"
            r"like i'?m (?:five|5|a child|a kid)|for a (?:layman|layperson|non-expert|child|kid|beginner))|"
            r"(?:in (?:simple|simpler|plain|everyday|layman'?s?) (?:terms|words|english|language)|simply|eli5|"
            r"keep it simple|(?:no|without) (?:the )?jargon|(?:like|as if) (?:i'?m|i am) (?:five|5|a child|a kid)|"
            r"for (?:a )?(?:layman|layperson|non-expert|beginner)s?)")
_STEPS = (r"(?:(?:can|could|would) you |please )?(?:explain (?:it |this |that )?|walk me through (?:it |this |that )?|"
          r"go |take me through it )?step[- ]by[- ]step|(?:list|give me|show me) (?:all )?the steps")
_BRIEF = (r"(?:(?:can|could|would) you |please )?(?:keep it (?:short|brief)|be brief|briefly|in short|in (?:one|a) "
          r"(?:sentence|line)|(?:a |the )?short (?:answer|version)|tl;?dr)")
_SOURCES = (r"(?:(?:can|could|would) you |please )?(?:(?:give|show|list|send|include|add)(?: me| us)? |with |and )"
            r"(?:the |your |its |some )?(?:sources?|citations?|references?)|(?:and )?cite (?:your |the )?(?:sources?|references?)")
_HOW = (r"(?:and |but |so )?(?:if (?:so|yes|it does|they do|it can|they can|not)[, ]+)?(?:how(?: so| exactly| does it work|"
        r" do they work| does (?:it|that) work)?|why(?: not| so)?|(?:by|through) what mechanism|what(?:'s| is) the mechanism)")
_KINDS = {"simpler": _SIMPLER, "steps": _STEPS, "brief": _BRIEF, "sources": _SOURCES, "how": _HOW}
_AFTER = re.compile(
    "".join([r"^(?P<q>.+?\S)(?:\s*[?.!,;:-]+\s*|\s+)(?:",
             "|".join(f"(?P<{k}>{rx})" for k, rx in _KINDS.items()), rf"){_PLEASE}\s*[?.!]*$"]), re.IGNORECASE)
"""A request after the question ("… gout? Explain simply.", "… in plain words please")."""
_BEFORE = re.compile(
    "".join([r"^(?:", "|".join(f"(?P<{k}>{rx})" for k, rx in _KINDS.items()),
             r")\s*[,:;-]\s*(?P<q>(?:how|what|which|why|does|do|is|are|can)\b.+)$"]), re.IGNORECASE)
"""A request before it, set off by a comma or a colon ("In simple terms, how does metformin work?", "ELI5: …")."""
_BARE = re.compile(r"(?:^|\s)(?:explain|say|put|describe|rephrase|tell me|(?:can|could|would) you|please|(?:walk|take) me "
                   r"through|go through)(?: (?:it|this|that|the answer|the mechanism))?(?: again)?(?: more)?$|^(?:(?:so|ok|okay|and|now|hmm|sorry|then|well)"
                   r"[ ,]*)*$", re.IGNORECASE)
"""What is left of a request about the last answer ("can you explain that more simply?" leaves "can you")."""


def style_request(question: str) -> tuple[str, str]:
    """``(the question without the request, "simpler" | "steps" | "brief" | "sources" | "how")``, or ``(question, "")`` when it asks for
    no way of answering, or when it is nothing but the request ("explain it simply" alone is about the last answer)."""
    text = " ".join(question.split())
    m = _AFTER.match(text)
    if m is not None and m["how"] and not text[m.end("q"):].lstrip().startswith("?"):
        m = None  # "My doctor prescribed metformin. How does it work?": how, after no question
    m = m or _BEFORE.match(text)
    if m is None or _BARE.search(m["q"]):
        return question, ""
    kind = next(k for k in _KINDS if m[k])
    q = m["q"].rstrip(" ,;:-")
    return (q if q.endswith(("?", ".", "!")) else f"{q}?"), kind
