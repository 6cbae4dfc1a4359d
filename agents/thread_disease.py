"""A follow-up about the thread's disease that names none: "what are the treatment options?" in a thread about gout
asks what treats gout, and "is there anything better?" after how allopurinol treats gout asks for its other drugs
(``agents.followup`` calls :func:`of_thread_disease`)."""

from __future__ import annotations

import re

from agents.ellipsis import standalone
from agents.focus import Focus
from agents.intent import REMEDIES_ALONE
from agents.resolution import Resolution
from agents.state import DISEASE_TYPES
from tools.linker import fold

__all__ = ["of_thread_disease"]

_BETTER_WORD = r"better|newer|more recent|stronger|more (?:effective|potent|powerful)"
_ANY_BETTER = re.compile(r"^(?:(?:is|are) there |do you have |(?:do you )?know )?(?:anything|something|any(?:thing)? ?(?:drugs?|"
                         r"medications?|medicines?|options?|treatments?|ones?)?|some(?:thing)?|(?:a )?(?:drugs?|medications?|"
                         rf"medicines?|options?|treatments?)) (?P<w>{_BETTER_WORD})(?: than (?:that|this|these|those|them|it))?|"
                         rf"(?:(?:is|are) there |do you have )?(?:any |some |an? )?(?P<v>{_BETTER_WORD}) (?:drugs?|medications?|"
                         r"medicines?|options?|treatments?|ones?|alternatives?)$", re.IGNORECASE)
"""Something better than what the thread named, with no name ("is there anything better?" after "How does allopurinol
treat gout?" was NOT_FOUND, "there anything" not in the knowledge graph): other drugs for the thread's disease, after
the note that the graph holds no comparisons of how well drugs work."""

def of_thread_disease(res: Resolution, q: str, body: str, focus: Focus, more: bool) -> bool:
    """"what are the treatment options?" in a thread about gout asks what treats gout ("any other options?" asks for
    more, as ``more`` says it does, or asks for other ones); "is there anything better?" asks for the other drugs for
    gout (:data:`_ANY_BETTER`). Whether ``res`` was rewritten so."""
    disease = focus.disease
    if disease and disease.get("type") in DISEASE_TYPES and (b := _ANY_BETTER.match(body)):  # "… newer?": no dates held
        newer = (b["w"] or b["v"]).casefold() in ("newer", "more recent")  # "is there a stronger drug?": a better one
        how, question = "more", ("Is there a newer drug for" if newer else "Is there anything better for") + f" {disease['name']}?"
    elif disease and not more and REMEDIES_ALONE.match(body):
        how, question = "thread disease", standalone("treats", None, disease)
    else:
        return False
    res.references.append({"text": q, "how": how, "entity": disease})
    res.pinned[fold(disease["name"])] = disease
    res.question = question
    return True
