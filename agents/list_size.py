"""How many answers a list is asked for: "name three drugs for asthma", "what are the top 10 drugs for hypertension?",
"list all drugs for gout", and "list them all" / "give me the full list" after a list (``State.answers_wanted``).

A list is five answers unless the question asks for another number; "all" is the first :data:`ALL_ANSWERS`, and an
answer that reaches that many says how to ask for the next (each answer beyond the walk's pool costs a walk of its
own, so "all" is bounded).
"""

from __future__ import annotations

import re
from typing import Any

from agents.focus import Focus
from agents.resolution import Resolution, restated
from agents.state import DRUG_TYPES
from agents.wording import COUNT_ASKED
from tools.linker import fold

__all__ = ["ALL_ANSWERS", "EXAMPLES", "MOST_ANSWERS", "all_of_the_list", "answers_wanted", "cut_short", "whole_list"]

ALL_ANSWERS = 20
"""The answers given for "all" of a list."""
MOST_ANSWERS = 20
"""The most answers a number asked for gives ("the top 50 drugs" lists 20)."""
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "a couple of": 2, "several": 5}
_ALL_OF_IT = re.compile(r"^(?:(?:can you |could you |please )?(?:list|show|give|name|tell)(?: me| us)? )?(?:them all|all of them|"
                        r"all (?:of )?(?:those|these)(?: drugs| ones)?|(?:the )?(?:full|complete|whole|entire) list(?: of them)?|"
                        r"(?:every|each) (?:one|drug) of them|all(?: the)? (?:drugs|ones|results))(?: please)?[?.!]*$",
                        re.IGNORECASE)
""""list them all", "show me all of them", "give me the full list" after a list: the last question again, for all of
its answers (the first two were read as "List Gout all?" and answered with what Gout is connected to, the last was
`NOT_FOUND`, "no known entity in the question")."""


EXAMPLES = (r"^(?:and |so |ok,? )?(?:(?:can|could) you |please )?(?:(?:give|show|tell)(?: me)?|name|list|any|(?:what|which) "
            r"are(?: some)?)? ?(?:some |a few |any |more )?examples(?: of (?:them|those|these))?(?: please)?[?.!]*$")
"""A request for examples ("give me examples", "any examples?"): after a list of drugs, that list again (it was
`NOT_FOUND`, '"give me examples" is not in the knowledge graph'); after a class, the class's drugs
(``agents.class_member``)."""
_EXAMPLES = re.compile(EXAMPLES, re.IGNORECASE)


def answers_wanted(question: str, references: list[dict[str, Any]]) -> int:
    """How many answers ``question`` asks for: 0 for the usual five, :data:`ALL_ANSWERS` for "all" or for a request
    for the whole last list (a reference ``how == "all"``)."""
    if any(r.get("how") == "all" for r in references):
        return ALL_ANSWERS
    m = COUNT_ASKED.match(" ".join(question.split()))
    if m is None:
        return 0
    n = m["n"].casefold()
    if n.startswith("all"):
        return ALL_ANSWERS
    return min(int(n) if n.isdigit() else _NUMBERS[n], MOST_ANSWERS)


def all_of_the_list(body: str) -> bool:
    """Whether ``body`` (a follow-up after a list) asks for all of the list's answers."""
    return _ALL_OF_IT.match(body.strip()) is not None


def cut_short(wanted: int, listed: int) -> str:
    """The note after a list asked for "all" that stopped at :data:`ALL_ANSWERS`, or "" for any other list."""
    if wanted == ALL_ANSWERS and listed >= ALL_ANSWERS:
        return f' These are the first {ALL_ANSWERS}; ask "more" for the next.'
    return ""


def whole_list(res: Resolution, body: str, focus: Focus, listing: bool) -> bool:
    """After a list (``listing``), "list them all": the last question again, for all of its answers (a reference
    ``how == "all"``, which :func:`answers_wanted` reads), and "give me examples" after a list of drugs that no class
    keeps to: the last question again; False for any other question."""
    examples = bool(_EXAMPLES.match(body.strip())) and not (focus.named_class or focus.drug_class) \
        and bool(focus.lists) and all(i.get("type") in DRUG_TYPES for i in focus.lists[0])
    if not (listing and focus.question and (examples or all_of_the_list(body))):
        return False
    res.references.append({"text": res.question, "how": "again" if examples else "all", "question": focus.question})
    res.pinned.update({fold(e["name"]): e for e in (focus.drug, focus.disease) if e})
    res.question = restated(focus.question)
    return True
