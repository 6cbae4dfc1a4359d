"""Alternatives to a drug: "What are alternatives to ibuprofen?", "What can I use instead of aspirin?".

The graph holds mechanisms, so an alternative is another drug that acts on what this one acts on, the same way: the
question is read as "Which other drugs inhibit Prostaglandin G/H synthase 2?", leaving the drug out (shown as
understood). Of the drug's direct targets (or those of what it becomes, ``tools.answers.direct_chains``), the one the
most of its class act on is taken, then the one the most drugs act on. They were answered with what the drug is
connected to.
"""

from __future__ import annotations

import re
from typing import Any

from agents.intent import SLOT_TYPES
from agents.resolution import Resolution
from agents.state import DRUG_TYPES
from tools.answers import TARGET_TYPES, class_share, direct_chains, sign_verb
from tools.linker import LinkStatus, fold
from tools.path_ranker import effect

__all__ = ["alternatives_to"]

_INSTEAD = re.compile(
    r"^(?:(?:(?:what|which)(?:'s|’s| is| are)|are there|(?:list|name|give me|show me|suggest))?\s*(?:the |some |any |good |other )?"
    r"(?:alternatives?|substitutes?|replacements?|other options?) (?:to|for) (?P<x>.+?)|"
    r"(?:what|which)(?: else| drugs?| medications?| medicines?)? (?:can|could|should|might) (?:i|we|you|one|a patient|"
    r"someone|people) (?:use|take|try|give|get) (?:instead of|in place of|rather than) (?P<y>.+?)|"
    r"(?:which|what) (?:other )?(?:drugs?|medications?|medicines?) (?:are|work|act) (?:like|similar to|the same (?:way )?as) "
    r"(?P<z>.+?))[?.!]*$", re.IGNORECASE)


def alternatives_to(res: Any, resolution: Resolution) -> Resolution:
    """The resolution of a question for a drug's alternatives (module docstring); any other one unchanged. A drug
    that acts on no target directly keeps the question as asked."""
    m = _INSTEAD.match(" ".join(resolution.question.split()))
    out = res.linker.link(m["x"] or m["y"] or m["z"], SLOT_TYPES["drug"]) if m else None
    if out is None or out.status is not LinkStatus.LINKED or out.best is None or out.best.type not in DRUG_TYPES:
        return resolution
    drug = out.best
    chains = [c for c in direct_chains(res.kg, drug.id) if (n := res.kg.node(c[-1].tail)) is not None and n.type in TARGET_TYPES]
    if not chains:
        return resolution
    share = class_share(res.kg, res.linker.classmates(drug.id))
    best = max(chains, key=lambda c: (share[c[-1].tail], len(res.kg.in_edges(c[-1].tail)), -len(c), c[-1].tail))
    target = res.kg.node(best[-1].tail)
    question = f"Which other drugs {sign_verb(effect([e.relation for e in best]))} {target.name}?"
    entity = {"id": target.id, "name": target.name, "type": target.type}
    return Resolution(question=question, references=[*resolution.references, {
        "text": resolution.question, "how": "alternatives", "drug": drug.id, "drug_name": drug.name, "entity": entity}],
        pinned={**resolution.pinned, fold(target.name): entity}, excluded=[*resolution.excluded, drug.id])
