"""Questions that ask how many: "How many drugs target EGFR?", "How many targets does imatinib have?", "How many
statins are there?".

They were answered with what the named entity is connected to, and no number. A count is read from the curated graph's
edges (the drugs that act on a target, directly or through what they become: ``tools.answers.acting_on``; what a drug
acts on that way: ``tools.answers.direct_chains``) or from the class table, and the answer names the first of them.
"How many drugs treat gout?" is no such question: the graph holds mechanisms, not every drug's indications, so it
stays a ranked answer and says so (``agents.scope``).
"""

from __future__ import annotations

import re
from typing import Any

from agents.class_member import class_drugs
from agents.ellipsis import entity_of
from agents.intent import SLOT_TYPES
from agents.state import DRUG_TYPES, Intent, Status
from agents.via import kind_ids, names_the_kind
from tools.answers import TARGET_TYPES, acting_on, asked_sign, direct_chains, sign_verb, types_of
from tools.linker import LinkStatus

__all__ = ["COUNT_SHOWN", "count_answer", "count_question"]

COUNT_SHOWN = 10
"""How many of the counted entities an answer names."""

_HOW_MANY = r"^(?:and |so )?(?:how many|(?:what(?:'s| is) )?(?:the )?(?:total )?number of|count(?: the)?)"
_DRUGS = r"(?:other )?(?:drugs|medications|medicines|compounds|agents|molecules|chemicals)"
_IN_GRAPH = r"(?: (?:in|does) the (?:knowledge )?graph(?: (?:have|hold|list|know))?)?"
_ACTS = (r"(?P<verb>target|inhibit|block|bind(?: to)?|act (?:on|at)|work on|activate|antagoni[sz]e|agoni[sz]e|stimulate|"
         r"suppress)(?:s|es)?")
_DRUGS_ON = re.compile(
    rf"{_HOW_MANY} {_DRUGS}{_IN_GRAPH}(?: are there| are known| exist)?(?: that| which)?(?: (?:can|do|does|are known to))? "
    rf"{_ACTS} (?P<t>.+?)[?.!]*$|"
    rf"{_HOW_MANY} (?P<t2>.+?) (?P<noun>inhibitors|blockers|antagonists|agonists|activators|ligands|binders)"
    r"(?: (?:are there|exist|are known|does the (?:knowledge )?graph (?:have|hold|list|know)))?[?.!]*$", re.IGNORECASE)
"""How many drugs act on a target ("how many drugs target EGFR?", "how many EGFR inhibitors are there?")."""
_TARGETS_OF = re.compile(
    rf"{_HOW_MANY} (?:(?:molecular|protein|drug|known|different|other) )?(?P<kind>targets|proteins|genes|receptors|enzymes)"
    r" (?:does|do|is|are|can) (?P<d>.+?) (?:have|act on|target|inhibit|block|bind(?: to)?|hit|affect)[?.!]*$|"
    rf"{_HOW_MANY} (?:(?:molecular|protein|drug|known) )?targets (?:of|for) (?P<d2>.+?)[?.!]*$", re.IGNORECASE)
"""How many entities a drug acts on ("how many targets does imatinib have?")."""
_IN_CLASS = re.compile(
    rf"{_HOW_MANY} (?:(?:drugs|medications|medicines) (?:are|count as) (?P<a>.+?)|(?P<b>.+?)"
    r"(?: are there| exist| are in the (?:knowledge )?graph| does the (?:knowledge )?graph (?:have|hold|list|know)"
    r"| (?:drugs|medications) are there))[?.!]*$", re.IGNORECASE)
"""How many drugs a class holds ("how many statins are there?", "how many drugs are beta blockers?")."""
_KINDS = {"drugs": ("Drug",), "medications": ("Drug",), "medicines": ("Drug",), "chemicals": ("ChemicalSubstance",),
          "chemical substances": ("ChemicalSubstance",), "diseases": ("Disease",), "conditions": ("Disease",),
          "proteins": ("Protein",), "gene families": ("GeneFamily",), "genes": ("GeneFamily",),
          "biological processes": ("BiologicalProcess",), "processes": ("BiologicalProcess",), "pathways": ("Pathway",),
          "organisms": ("OrganismTaxon",), "pathogens": ("OrganismTaxon",), "entities": (), "nodes": (), "concepts": ()}
"""What "how many <kind> are in the graph?" counts: entities of these types (every entity for an empty tuple)."""
_ALL = re.compile(
    rf"{_HOW_MANY} (?:different |distinct |unique )?(?P<k>{'|'.join(sorted(_KINDS, key=len, reverse=True))})"
    r"(?: (?:are there|exist|are (?:in|covered by|known to|listed in) (?:the |your |medpath's )?(?:knowledge )?(?:graph|database)|"
    r"(?:does|do) (?:the (?:knowledge )?graph|it|medpath|you|the database) (?:have|hold|know(?: about)?|cover|contain|list)"
    r"(?: in (?:the |its )?(?:knowledge )?graph)?))?[?.!]*$", re.IGNORECASE)
"""How many entities of a kind the graph holds ("how many drugs are in the graph?", "how many diseases do you know?")."""


def count_question(question: str, res: Any) -> dict[str, Any] | None:
    """The planner's update for a question that asks how many (module docstring) whose names link: the intent and the
    named entity as the thread's, so that "what does it target?" next is about it; None for any other question."""
    found = _read(question, res)
    if found is None:
        return None
    if found["kind"] in ("class", "all"):
        return {"intent": Intent.COUNT.value, "mentions": [], "drug_class": found.get("class", "")}
    slot = "drug" if found["kind"] == "targets" else "target"
    return {"intent": Intent.COUNT.value, "mentions": [
        {"slot": slot, "mention": found["mention"], "status": "linked", "entity": found["entity"]}]}


def count_answer(question: str, res: Any) -> dict[str, Any]:
    """The answer to a question that asks how many, with the entities it names as ``items`` ("the second one" next)."""
    found = _read(question, res)
    if found is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no known name in the question."}
    ids, kg = found["counted"], res.kg
    items = [entity_of(n) for x in ids[:COUNT_SHOWN] if (n := kg.node(x)) is not None]
    names = ", ".join(i["name"] for i in items) + (f" and {len(ids) - len(items)} more" if len(ids) > len(items) else "")
    if found["kind"] == "all":
        answer = f"The knowledge graph (DrugMechDB) holds {found['n']:,} {found['noun']}."
    elif found["kind"] == "class":
        cls = found["class"]
        answer = (f"The class table lists {len(ids)} {cls} in the knowledge graph (by the stems of their names), the most "
                  f"connected first: {names}." if ids else f"The class table lists no {cls} in the knowledge graph.")
    elif found["kind"] == "targets":
        drug = found["entity"]["name"]
        answer = (f"{drug} acts on {len(ids)} {_noun(len(ids), 'protein or gene family', 'proteins or gene families')} in the "
                  f"knowledge graph, directly or through what it becomes: {names}." if ids else
                  f"The knowledge graph has no protein or gene family that {drug} acts on directly.")
    else:
        answer = _drugs_answer(found, names)
    return {"status": Status.ANSWERED, "answer": answer, "items": items}


def _drugs_answer(found: dict[str, Any], names: str) -> str:
    """"7 drugs in the knowledge graph inhibit Epidermal growth factor receptor, directly or through what they become,
    the nearest first: …", with how many act each way when the question asks for no direction."""
    n, verb, what = len(found["counted"]), sign_verb(found["sign"]), found["what"]
    if not n:
        return f"No drug in the knowledge graph {'acts on' if not found['sign'] else verb + 's'} {what}."
    how = "directly or through what they become" if found["target"] else "directly or through a target"
    if not found["sign"]:  # "(9 inhibit it, 24 activate it)"
        ways = ", ".join(f"{'all' if k == n else k} {sign_verb(s)} it" for s, k in ((-1, found["down"]), (1, found["up"])) if k)
    else:  # those the direction asked for includes
        ways = f"{found['unsigned']} of them with no stated direction or acting both ways" if found["unsigned"] else ""
    ways = f" ({ways})" if ways else ""
    verb = verb if n != 1 else "acts on" if not found["sign"] else verb + "s"
    return f"{n} {_noun(n, 'drug', 'drugs')} in the knowledge graph {verb} {what}{ways}, {how}, the nearest first: {names}."


def _noun(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _read(question: str, res: Any) -> dict[str, Any] | None:
    """What a question that asks how many counts: ``{"kind": "class" | "targets" | "drugs", "counted": [ids], …}``, or
    None when it asks no count this module answers or its name does not link."""
    text = " ".join(question.split())
    if (m := _TARGETS_OF.match(text)) is not None:
        return _targets_of(m["d"] or m["d2"], res)
    if (m := _IN_CLASS.match(text)) is not None and (cls := res.linker.class_name(m["a"] or m["b"])):
        return {"kind": "class", "class": cls, "counted": [c.id for c in class_drugs(res.linker, cls)]}
    if (m := _ALL.match(text)) is not None:
        types = _KINDS[m["k"].casefold()]
        return {"kind": "all", "noun": m["k"].casefold(), "types": types, "counted": [],
                "n": sum(1 for e in res.kg.entities.values() if not types or e.type in types)}
    if (m := _DRUGS_ON.match(text)) is not None:
        mention = m["t"] or m["t2"]
        return _drugs_on(mention, asked_sign(m["verb"] or m["noun"]), res)
    return None


def _linked(mention: str, res: Any, slot: str) -> tuple[dict[str, Any], Any] | None:
    out = res.linker.link(mention.strip(), SLOT_TYPES[slot])
    return (entity_of(out.best), out.best) if out.status is LinkStatus.LINKED and out.best is not None else None


def _targets_of(mention: str, res: Any) -> dict[str, Any] | None:
    linked = _linked(mention, res, "drug")
    if linked is None or linked[0]["type"] not in DRUG_TYPES:
        return None
    type_of = types_of(res.kg)
    ends = [chain[-1].tail for chain in direct_chains(res.kg, linked[0]["id"])]
    counted = sorted({x for x in ends if type_of(x) in TARGET_TYPES}, key=lambda x: (-res.kg.degree(x), res.kg.name(x)))
    return {"kind": "targets", "mention": mention.strip(), "entity": linked[0], "counted": counted}


def _drugs_on(mention: str, sign: int, res: Any) -> dict[str, Any] | None:
    linked = _linked(mention, res, "target")
    if linked is None or linked[0]["type"] in DRUG_TYPES:
        return None
    ent, best = linked
    ids = [ent["id"]]
    if getattr(best, "method", "") == "words" or names_the_kind(mention.strip(), ent):  # every target of that kind
        ids = kind_ids(res.linker, mention, ent["id"])  # "sodium channels", "calcium channels"
    acting = {k: list(dict.fromkeys(d for x in ids for d in acting_on(res.kg, x, DRUG_TYPES, k))) for k in (-1, 0, 1)}
    down, up = set(acting[-1]), set(acting[1])
    return {"kind": "drugs", "mention": mention.strip(), "entity": ent, "counted": acting[sign], "sign": sign,
            "what": mention.strip() if len(ids) > 1 else ent["name"], "target": ent["type"] in TARGET_TYPES,
            "down": len(down - up), "up": len(up - down), "unsigned": len(down & up)}
