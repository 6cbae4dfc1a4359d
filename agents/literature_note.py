"""A pointer to the closest bundled study when the knowledge graph answers nothing.

"Can tailored interventions increase mammography use among HMO women?" was answered only with "not in the knowledge
graph", though one of the bundled PubMedQA abstracts is that very study. A NOT_FOUND answer now ends with the study
that holds the question's rare words (``tools.literature``): its title, PMID and year, and two sentences of its
results, with a PubMed citation. The status stays NOT_FOUND: the study is not evidence the Reviewer accepted, and
medpath does not judge it.
"""

from __future__ import annotations

from typing import Any

from agents.answer_notes import CITED, sources_line
from agents.state import Intent, State, Status
from core.errors import MedpathError
from tools.literature import Finding, study_url

__all__ = ["with_literature"]

NOT_LITERATURE = (Intent.HISTORY.value, Intent.SMALL_TALK.value, Intent.CLASS_MEMBER.value, Intent.NAMES.value, Intent.COHORT.value,
                  Intent.PATIENT.value, Intent.COUNT.value, Intent.METABOLITES.value,
                  Intent.PRODUCTS.value, Intent.AMOUNTS.value, Intent.SELECTIVE.value,
                  Intent.SIMILAR.value, Intent.GLOSSARY.value, Intent.DISEASE_KINDS.value, Intent.ROLE.value)
"""Intents answered from the thread, the class table, the patient records or a count of edges: the literature has
nothing to add."""
ABOUT_THE_THREAD = frozenset({"list", "kind", "members", "class", "compared", "step"})
"""References to what the thread listed, compared or walked ("which of those are beta blockers?"): a refusal of one is
about those items, and a study that shares its words is beside the point (it pointed to a study of beta-blocker
therapy)."""


def with_literature(state: State, out: dict[str, Any], res: Any) -> dict[str, Any]:
    """``out`` with the closest study added when the turn ends NOT_FOUND; a broken abstracts file is a recorded
    fallback, and the answer stays as it was."""
    status = out.get("status", state.status)
    if status != Status.NOT_FOUND or not state.intent or state.intent in NOT_LITERATURE or \
            any(r.get("how") in ABOUT_THE_THREAD for r in state.references):
        return out  # no intent: a follow-up refused before any was read ("which of those are beta blockers?")
    try:
        found = res.literature().closest(state.asked)
    except MedpathError as exc:
        fallback = {"component": "explainer.literature", "reason": str(exc), "fallback": "no literature pointer"}
        return {**out, "fallbacks": [*out.get("fallbacks", []), fallback]}
    if found is None:
        return out
    cited = _citation(found)
    listed = sources_line([cited]) if any(r.get("how") in CITED for r in state.references) else ""
    return {**out, "answer": out.get("answer", "") + _pointer(found) + listed, "citations": [cited]}


def _pointer(found: Finding) -> str:
    s = found.study
    when = f", {s.year}" if s.year else ""
    quote = " ".join(found.quote)
    return (f" One of the bundled PubMedQA abstracts holds the question's key words (it is not checked against the "
            f"knowledge graph): \"{s.title}\" (PMID {s.pmid}{when})."
            + (f" Its results: \"{quote}\"" if quote else "")
            + " medpath does not judge the study; its conclusion is in the article.")


def _citation(found: Finding) -> dict[str, str]:
    s = found.study
    return {"source": "PubMed", "id": f"PMID:{s.pmid}", "title": s.title, "url": study_url(s.pmid)}
