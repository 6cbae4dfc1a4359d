"""The yes or no that opens an answer to a yes/no question: "Does imatinib inhibit ABL1?" ("Yes: "), "does aspirin
raise histamine?" ("No: … the opposite of what was asked"), "does imatinib target PDGFRA?" ("Yes: " for the drug's own
edge, "Not directly: " for a longer chain).
"""

from __future__ import annotations

import re

from agents.answer_notes import CURE
from agents.intent import out_of_scope
from agents.state import DISEASE_TYPES, Intent, State
from agents.via import YES_NO
from tools.answers import BECOMES, asked_sign, asked_verb
from tools.linker import fold
from tools.path_ranker import effect

__all__ = ["asks_yes_no", "verdict"]

_TARGETING = re.compile(r"\b(?:targets?|targeted|bind|binds|bound|acts? on|acted on|hits?)\b", re.IGNORECASE)
"""Words of a question whether a drug acts on a protein, in no direction ("does imatinib target PDGFRA?", "is KIT a
target of imatinib?"): they were answered with the path alone, no yes or no."""


def _directly(top: list[dict[str, str]]) -> str:
    """"Yes: " when the path is the drug's own edge to the protein, or through what the drug becomes (enalapril's
    enalaprilat); "Not directly: " for a longer chain ("does metformin act on AMPK?": three steps, through the
    flavoprotein it inhibits)."""
    own = len(top) == 1 or (len(top) == 2 and top[0]["relation"] in BECOMES)
    return "Yes: " if own else "Not directly: "


_AMOUNT_STEPS = 2
"""The longest path whose signs a verdict on an amount reads ("does X lower histamine?"): the signs of a longer chain
multiply curators' choices ("sertraline decreases activity of SERT; SERT negatively regulates serotonin uptake;
serotonin uptake decreases abundance of serotonin" reads as lowering serotonin)."""


_NOT_A_CURE = "The knowledge graph records how it lowers the disease, not whether it cures it: "
""""Does donepezil cure Alzheimer's?" was answered "Yes: " for a path that lowers the disease."""


_SLOWS = re.compile(r"\b(?:slow|halt|delay)(?:s|ed|ing)? (?:down )?(?:[\w'-]+ ){0,3}?(?:disease|progression|decline|course|"
                    r"deterioration)\b|\bdisease[- ]modifying\b", re.IGNORECASE)
_NOT_SLOWED = "The knowledge graph records how it lowers the disease, not whether it slows its course: "
""""Does donepezil slow Alzheimer's disease?" was answered "Yes: " for a path that lowers the disease (a chain of
acetylcholine, which says nothing of the disease's course)."""


def _not_a_disease(state: State) -> bool:
    """Whether a mechanism question ends at something other than a disease ("does metformin act on AMPK?": AMPK's
    activity), so that acting on it is asked, not treating it."""
    ends = [m.get("entity") or {} for m in state.mentions if m.get("slot") == "disease"]
    return state.intent == Intent.MECHANISM.value and bool(ends) and all(e.get("type") not in DISEASE_TYPES for e in ends)


def _answered_for(state: State, top: list[dict[str, str]]) -> str:
    """Which end of the answered question the one asked next does not share: the drug when it names the same
    disease ("Do imatinib and dasatinib treat CML?"), else the disease ("Does losartan help hypertension and gout?")."""
    disease = next((m["mention"] for m in state.mentions if m.get("slot") == "disease" and m.get("mention")), "")
    other_drug = bool(disease) and all(fold(disease) in fold(q) for q in state.also_asked)
    return top[0]["head_name"] if other_drug else top[-1]["tail_name"]


_NOT_A_USE = ("Not among {drug}'s uses as medpath finds them: neither the diseases it lists for {drug} (ask \"What "
              "does {drug} treat?\") nor those of the curated drugs that act on its targets as it does include "
              "{disease}, and the drugs it lists for {disease} (ask \"What drugs treat {disease}?\") do not include "
              "{drug}. The chain the knowledge graph holds: ")
"""The opening when the walk found a lowering chain, but the disease is none of the drug's uses (``agents.known_use``):
"does imatinib treat hypertension?" was answered "Yes: imatinib acts on Hypertensive disorder through a 6-step
mechanism"."""


_USE_NOT_LOWERED = ("Among {drug}'s uses as medpath finds them, though the chain found does not lower {disease} by the "
                    "signs of its relations: ")
"""The opening when the disease is one of the drug's uses (``agents.known_use``) but the walk's chain raises it by its
signs: "does metformin treat type 1 diabetes?" opened with nothing, a yes/no question left without either."""


_RETOLD = frozenset({"sources", "sure", "simpler", "steps"})
"""References of a request about the last answer ("is there a source for that?", "are you sure?"): its yes or no comes
from the question asked again, not from the request's words (it opened "Yes: " for "How does imatinib treat CML?")."""


def asks_yes_no(state: State) -> bool:
    """Whether the question asks yes or no: as asked ("does ibuprofen help with fever?"), or as the user wrote it when
    it was understood as a mechanism ("does it help with fever?" → "How does Aspirin treat Fever?"); a request about
    the last answer ("is there a source for that?", :data:`_RETOLD`) asks none."""
    retold = any(r.get("how") in _RETOLD for r in state.references)
    return bool(YES_NO.match(state.asked.strip()) or (not retold and YES_NO.match(state.question.strip())
                                                      and state.asked.startswith("How does ")))


def verdict(state: State, top: list[dict[str, str]]) -> str:
    """"Does imatinib inhibit ABL1?": "Yes: " when the path acts on the protein the way the question asks, and says
    so when it acts the other way; "Does ibuprofen help with fever?": "Yes: " when the path's signs say the drug
    lowers the disease (it was told the path alone), "Yes for X: " when the question named a second disease, asked
    next (it said "Yes" for both); nothing for any other question, a path without a signed relation, or a question
    about an amount ("does ibuprofen lower prostaglandin E2?") whose path is longer than :data:`_AMOUNT_STEPS`."""
    if any(r.get("how") in ("why listed", "other paths") for r in state.references):  # "is X one of them?": the lead
        return ""  # says yes or no; "is that the only mechanism?" is answered by the other paths, not "Yes"
    asked, found = asked_sign(state.asked), effect([t["relation"] for t in top])
    on_target = state.intent == Intent.RELATION.value and any(m.get("slot") == "target" for m in state.mentions)
    yes_no = asks_yes_no(state)
    if (on_target or _not_a_disease(state)) and not asked and YES_NO.match(state.asked.strip()) \
            and _TARGETING.search(state.asked) and not out_of_scope(state.question):  # no "Yes" to "bind irreversibly"
        return _directly(top)  # "does metformin act on AMPK?" (read as a mechanism, AMPK's activity its end) had none
    # "does it help with fever?", understood as "How does Aspirin treat Fever?"; not "is that why it's used for asthma?"
    use_asked = state.intent == Intent.MECHANISM.value and not state.among and yes_no \
        and not out_of_scope(state.question)  # "is it addictive?": no "Yes" for a chain that lowers addiction
    if use_asked and found >= 0 and state.known_use is False:  # "does imatinib treat gout?": a chain whose signs
        return _NOT_A_USE.format(drug=top[0]["head_name"], disease=top[-1]["tail_name"])  # say no lowering had nothing
    if use_asked and found > 0 and state.known_use:  # a use, by a chain that raises it: said, not "Yes"
        return _USE_NOT_LOWERED.format(drug=top[0]["head_name"], disease=top[-1]["tail_name"])
    if use_asked and (found < 0 or (found == 0 and state.known_use)):  # "does X treat Y?" whose chain has no sign: a use
        # "Does ibuprofen help with fever?": the path's signs say it lowers the disease; "does it cure …?" is more
        if CURE.search(f"{state.asked} {state.question}"):
            return _NOT_A_CURE
        if _SLOWS.search(f"{state.asked} {state.question}"):  # "does it slow the disease?"
            return _NOT_SLOWED
        if state.known_use is False:  # "does imatinib treat hypertension?": a chain, but none of its uses
            return _NOT_A_USE.format(drug=top[0]["head_name"], disease=top[-1]["tail_name"])
        return f"Yes for {_answered_for(state, top)}: " if state.also_asked else "Yes: "  # "… help both X and Y?"
    if not on_target or not asked or not found or not YES_NO.match(state.asked.strip()):
        return ""
    amount = asked_verb(state.asked) in ("lower", "raise")  # "does aspirin raise histamine?": it lowers it
    if amount and len(top) > _AMOUNT_STEPS:
        return ""
    if asked == found:
        return "Yes: "
    does = ("raises" if amount else "activates") if found > 0 else ("lowers" if amount else "inhibits")
    return f"No: in the knowledge graph {top[0]['head_name']} {does} {top[-1]['tail_name']}, the opposite of what was asked. "
