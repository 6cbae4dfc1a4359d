"""Questions about what the graph links into a disease, answered from those links, not a walk: what raises it ("What
causes gout?") and what shows it, its signs and symptoms ("What are the symptoms of asthma?").

The graph is the union of curated drug mechanisms, and 219 of its diseases have a sign or symptom that some mechanism
passes through ("Wheezing —manifestation of→ Asthma", "Hyperuricemia —manifestation of→ Gout"). A question about a
disease's symptoms was answered as out of scope, with the drugs for it; "symptoms of gout?" only with the drugs.
"""

from __future__ import annotations

import re
from typing import Any

from agents.state import DISEASE_TYPES, Intent
from tools.answers import same_named, types_of

__all__ = ["COURSE_RULES", "SIGN_RULES", "asks_signs", "onward_links", "upstream_answer"]

_Y = (r"(?:(?:a|an|the) )?(?!(?:the|a|an|some|any|its|their|his|her|my|your|our|these|those|it|this|that|they|them|"
      r"what|which|how|who|why|is|are|do|does|list|name|tell|show|give)\b)"
      r"(?P<y>.+?)")
"""The disease's name after any article ("the signs of a heart attack"): no pronoun or question word ("what are the
symptoms?" names none)."""
_ASK = r"(?:what (?:is|are)|list|name|(?:tell|show|give) me(?: about)?)?\s*"
_PRAISE = r"(?:main|common|usual|early|first|typical|known|classic|key|most common)"
_SOME = rf"(?:the |some |any |its |their )?(?:{_PRAISE} )*"
_SIGNS = (r"(?:signs?(?: and symptoms?)?|symptoms?(?: and signs?)?|manifestations?|clinical (?:features?|signs?|"
          r"manifestations?|presentation))")
_TOO_MUCH_NOT = r"(?!.*\b(?:toxicity|overdoses?|overdosage)$)"
"""Not too much of a drug: "what are the symptoms of digoxin toxicity?" linked the drug as the disease and said the
graph links nothing to digoxin as a sign of it (``agents.scope`` says overdoses are not in the graph)."""
SIGN_RULES: tuple[tuple[Intent, str], ...] = (
    # "what are the symptoms of asthma?", "symptoms of gout", "list the common signs of COPD"
    (Intent.SIGNS, rf"^{_ASK}{_SOME}{_SIGNS} (?:of|for|in|with) {_TOO_MUCH_NOT}{_Y}$"),
    # "what symptoms does asthma cause?", "which signs can gout have?"
    (Intent.SIGNS, (rf"^(?:what|which) (?:kinds? of |types? of )?{_SIGNS} (?:does|do|can|could|might|will) "
                    rf"{_Y} (?:cause|have|give(?: you| people)?|produce|bring on|present with|show)$")),
    # "asthma symptoms", "what are gout's symptoms?"
    (Intent.SIGNS, rf"^{_ASK}{_SOME}(?=\w)(?!(?:(?:a|an|the) )?{_PRAISE} {_SIGNS}$){_Y}(?:'s|’s)? {_SIGNS}$"),
    # "how does asthma present?"
    (Intent.SIGNS, rf"^how (?:does|do|can|would) {_Y} (?:present|manifest(?: itself)?|show (?:itself|up))$"),
)
"""The rules of :data:`Intent.SIGNS` (the disease in ``y``), matched before the others (``agents.intent``)."""
COURSE_RULES: tuple[tuple[Intent, str], ...] = (
    (Intent.TREATS, (rf"^(?:what(?:'s|’s| is| are)? )?(?:the )?(?:prognosis|outlook|life expectancy|survival rates?) "
                     rf"(?:of|for|in|with) {_Y}$")),
    (Intent.TREATS, (rf"^(?:is|are) {_Y} (?:(?:very|so|a|an|really) )?(?:serious|deadly|fatal|life[- ]threatening|curable)"
                     rf"(?: (?:disease|condition|illness))?$")),
    (Intent.TREATS, rf"^how (?:serious|deadly|fatal) (?:is|are) {_Y}$"),
    # "what are the complications of diabetes?", "risks of gout" (not "… of taking aspirin": its safety)
    (Intent.TREATS, (rf"^{_ASK}{_SOME}(?:(?:possible|potential|major|long[- ]term|serious) )*(?:complications?|risks|dangers) "
                     rf"(?:of|from|with) (?!(?:taking|using|being on|long[- ]term|prolonged|chronic)\b|.*\b(?:use|usage)$)"
                     rf"{_Y}$")),
)
"""A disease's course ("what is the prognosis for diabetes?", "is gout serious?", "what are the complications of
diabetes?"), which the graph does not hold: what it holds about the disease, the drugs for it, after a word saying so
(``agents.scope.PROGNOSES``). Read by the rules, the disease is linked as a slot is, and a name several entries fit is
asked about ("diabetes" was in no entry's whole name, and these were NOT_FOUND, "no known entity in the question")."""


def upstream_answer(state: Any, top: list[dict[str, str]]) -> tuple[str, list[dict[str, str]]]:
    """"What causes gout?": each link into the disease that raises it (``tools.answers.upstream_links``), with its
    relation, one entry per name ("uric acid" and "Uric Acid" are two ids). "What are the symptoms of asthma?":
    each sign or symptom the graph links to it."""
    links: list[dict[str, str]] = []
    for t in [a["path"]["triples"][0] for a in state.ranked_answers] or top[:1]:
        if all(x["head_name"].casefold() != t["head_name"].casefold() for x in links):
            links.append(t)
    y, items = top[-1]["tail_name"], [{"id": t["head"], "name": t["head_name"]} for t in links]
    if state.intent == Intent.SIGNS.value:
        listed = ", ".join(t["head_name"] for t in links)
        return ((f"The signs and symptoms of {y} that the knowledge graph records: {listed}. These are the ones that "
                 "curated drug mechanisms pass through, not a full clinical description."), items)
    listed = ", ".join(f"{t['head_name']} ({t['relation']})" for t in links)
    return ((f"What the knowledge graph links to {y} as raising it: {listed}. These are the upstream links of curated "
             "drug mechanisms, not a full account of its causes."), items)


_ASKED = tuple(re.compile(rx, re.IGNORECASE) for _, rx in SIGN_RULES)


def asks_signs(question: str) -> bool:
    """Whether a question asks for a disease's signs or symptoms (:data:`SIGN_RULES`): when the graph holds none,
    the answer says so before the drugs for the disease."""
    q = " ".join(question.split()).rstrip("?.! ")
    return any(rx.match(q) for rx in _ASKED)


def onward_links(state: Any, kg: Any) -> str:
    """"What does hyperuricemia lead to?", "what are the complications of …?": the diseases and findings the graph
    links the asked disease onward to, each with its relation ("The knowledge graph links Hyperuricemia onward to: Gout
    (Hyperuricemia manifestation of it). "), before the drugs for it; "" when it links it to none. It listed the drugs alone, after the
    note that the graph holds no prognoses."""
    y = next((m["entity"] for m in state.mentions if m.get("slot") == "disease" and m.get("entity")), None)
    if y is None:
        return ""
    type_of, links = types_of(kg), {}
    for e in (e for x in sorted(same_named(kg, [y["id"]])) for e in kg.out_edges(x)):  # "Hyperuricemia": HPO and MeSH
        if type_of(e.tail) in DISEASE_TYPES and (name := kg.name(e.tail)).casefold() != str(y["name"]).casefold():
            links.setdefault(name.casefold(), f"{name} ({y['name']} {e.relation} it)")
    return f"The knowledge graph links {y['name']} onward to: {', '.join(links.values())}. " if links else ""
