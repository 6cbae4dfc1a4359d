"""Questions about names: "Is Gleevec the same as imatinib?", "What's the generic name of Lipitor?", "What does ACE
stand for?", "What other names does atorvastatin have?".

Answered from the linker's names (the graph's names and aliases, and medpath's hand-written tables of brand names,
other generic names and gene symbols), not from a walk. The first was NOT_FOUND ("no chain of relations from imatinib
to imatinib"), and the others were answered with what the entity is connected to.
"""

from __future__ import annotations

import re
from typing import Any

from agents.ellipsis import entity_of
from agents.state import DRUG_TYPES, Intent, Status
from core.text import fold
from tools.linker import LinkStatus

__all__ = ["names_answer", "names_question", "names_referent"]

_SAME = re.compile(
    r"^(?:is|are) (?!there )(?P<a>.+?) (?:the same (?:drug |medication |medicine |thing |protein )?as|another name for|"
    r"(?:a|the) (?:brand|trade|generic|other)(?: name)? (?:of|for)|(?:a|the) generic(?: version)? of) (?!(?:for|in|with) )(?P<b>.+?)[?.!]*$|"
    r"^(?:is|are) (?!there )(?P<a2>[\w' -]+?) and (?P<b2>[\w' -]+?) the same(?: drug| medication| medicine| thing)?[?.!]*$",
    re.IGNORECASE)
"""Whether two names name one entity ("Is Gleevec the same as imatinib?", "is Tylenol another name for paracetamol?",
"are motrin and advil the same?");
not "is that the same as for sitagliptin?", which compares what two drugs act on (``agents.list_refs``)."""
_NAMES = re.compile(
    r"^(?:(?:what(?:'s|’s| is| are)|which are|list|tell me|give me) (?:the |its |some |another |an? )?(?:other |brand |trade |"
    r"generic |alternative |full |different )?names? (?:of|for) (?P<x>.+?)|what (?:other |brand |trade |generic )?names? (?:does|do) (?P<y>.+?) "
    r"(?:have|go by)|what (?:else )?is (?P<z>.+?) (?:also )?(?:called|known as)|what does (?P<w>.+?) stand for|"
    r"what(?:'s|’s| is| are) (?:the |its )?(?:generic(?: version| form| equivalent)?|active ingredients?) (?:of|for|in) (?P<v>.+?))[?.!]*$",
    re.IGNORECASE)
"""A request for an entity's names ("What's the generic name of Lipitor?", "What does ACE stand for?", "what is the
active ingredient in Advil?", "what's the generic for Zoloft?")."""
_WHOLE = ("exact", "singular", "acronym")
"""How a name links as a whole (``tools.linker.Candidate.method``), not by a name inside it or by its spelling."""
NAMES_SHOWN = 10
"""How many other names an answer gives."""


_IT = re.compile(r"^(?:it|this|that|(?:this|that|the) (?:drug|medication|medicine|one))$", re.IGNORECASE)
"""A reference in place of a name in "is it the same as Gleevec?"."""


def names_referent(question: str, drug: dict[str, Any] | None) -> str | None:
    """"Is it the same as Gleevec?" after a question about imatinib: the question with the thread's ``drug`` for "it";
    None for any other question, or with no drug in the thread. The follow-up resolver leaves a pronoun alone in a
    question that names a drug, and this one was NOT_FOUND ('"it" is not in the knowledge graph')."""
    text = " ".join(question.split())
    m = _SAME.match(text)
    if m is None or drug is None:
        return None
    g = next((g for g in ("a", "b") if _IT.match(m[g].strip())), None)
    if g is None:
        return None
    out = text[: m.start(g)] + drug["name"] + text[m.end(g):]
    return out[0].upper() + out[1:]


def names_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question about names (:data:`_SAME`, :data:`_NAMES`) whose names link: the intent and
    the entities as the thread's (a drug in the drug slot), so that "what does it target?" next is about it; None for
    any other question."""
    found = _read(question, linker)
    if len(found) == 2 and any(linker.class_name(text) for text, _ in found):
        return None  # "are statins and fibrates the same?": classes, compared by what their drugs act on
    unknown = [text for text, e in found if e is None]
    if unknown:  # "is aspirin the same as qwzx?" was answered with what aspirin is connected to; "what is the drug for
        # gout called?" is no question about names
        said = (f"nothing earlier in this conversation for \"{unknown[0]}\" to refer to" if _IT.match(unknown[0]) else
                f"\"{unknown[0]}\" is not in the knowledge graph")
        return {"status": Status.NOT_FOUND, "error": said} if len(found) == 2 else None
    if not found:
        return None
    text, e = found[-1]
    mention = {"slot": "drug" if e["type"] in DRUG_TYPES else "free", "mention": text, "status": "linked", "entity": e}
    return {"intent": Intent.NAMES.value, "mentions": [mention]}


def names_answer(question: str, linker: Any) -> dict[str, Any]:
    """The answer to a question about names, from the linker's names and aliases."""
    found = _read(question, linker)
    if not found or any(e is None for _, e in found):  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no known name in the question."}
    if len(found) == 2:
        (a, x), (b, y) = found
        answer = (f"Yes: {a} and {b} name the same entity in the knowledge graph, {x['name']} ({x['id']})." if x["id"] == y["id"]
                  else f"No: in the knowledge graph {a} is {x['name']} ({x['id']}) and {b} is {y['name']} ({y['id']}).")
        return {"status": Status.ANSWERED, "answer": answer}
    (text, ent), = found
    others = [n for n in dict.fromkeys(linker.aliases.get(ent["id"], ())) if fold(n) != fold(ent["name"])]
    same = fold(text) == fold(ent["name"])
    lead = (f"{ent['name']} ({ent['id']}, a {ent['type']})" if same else
            f"{text} is {ent['name']} in the knowledge graph ({ent['id']}, a {ent['type']})")
    listed = ", ".join(others[:NAMES_SHOWN]) + (f" and {len(others) - NAMES_SHOWN} more" if len(others) > NAMES_SHOWN else "")
    tail = (f". Its names other than {ent['name']} there and in medpath's name tables: {listed}." if others else
            ". The knowledge graph and medpath's name tables give it no other name." if same else ".")
    return {"status": Status.ANSWERED, "answer": lead + tail}


def _read(question: str, linker: Any) -> list[tuple[str, Any]]:
    """The names a question about names asks about, each with the entity it links to as a whole (None when it does
    not): two for "is X the same as Y?", one for a request for names, none for any other question."""
    text = " ".join(question.split())
    m, n = _SAME.match(text), _NAMES.match(text)
    names = [m["a"] or m["a2"], m["b"] or m["b2"]] if m else [n["x"] or n["y"] or n["z"] or n["w"] or n["v"]] if n else []
    return [(name.strip(), _linked(name, linker)) for name in names]


def _linked(mention: str, linker: Any) -> dict[str, str] | None:
    """The entity a whole name links to: as written, an alias, a plural or an acronym ("the drug for gout" is no name
    of Gout)."""
    out = linker.link(mention.strip())
    best = out.candidates[0] if out.candidates and out.status is LinkStatus.LINKED else None
    return entity_of(best) if best is not None and best.method in _WHOLE else None
