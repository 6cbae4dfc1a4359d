"""The planner's conversation step: understand a question in the light of the thread's earlier turns.

The embedded resolver (``agents.followup``) is the default. With an LLM configured, the LLM rewrites
a follow-up into a standalone question; a failed, empty or implausible rewrite falls back to the
embedded one and the fallback is recorded. A reference with nothing to resolve against ("does it
work?" as a first question) is asked about with a NEEDS_CLARIFICATION interrupt that names it, and so is one that
the thread fits to several entities equally ("why is she on it?" after several medications): the interrupt offers them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langgraph.types import interrupt

from agents.amounts import amounts_question
from agents.beside import beside_the_thread_drug, several_taken
from agents.class_compare import compared_sides
from agents.class_member import class_members, class_membership, other_members
from agents.cohort import cohort_question, plain_count
from agents.condition_words import avoided_in, causes_condition, has_condition, sufferers_taking
from agents.context import Context
from agents.counts import count_question
from agents.disease_compare import compared_diseases
from agents.disease_types import kinds_of_the_thread, kinds_question
from agents.diseases_of import diseases_of_question
from agents.drug_topic import FOOD_OR_DRINK, food_first, toxicity_of, what_it_acts_on
from agents.everyday import same_of_two, why_not
from agents.followup import Resolution, focus_from, resolve_followup
from agents.glossary import glossary_question
from agents.history import asks_history
from agents.intent import RANKING_DRUGS, out_of_scope
from agents.kinds import target_kind_asked
from agents.language import foreign, in_english
from agents.list_refs import latest_drugs
from agents.meds_for import meds_for
from agents.metabolites import metabolites_question
from agents.names import names_question, names_referent
from agents.not_acting import negated_alone
from agents.patient_answer import record_in_one
from agents.preamble import evidence_asked, instead_compared, kind_acting, non_class, why_compared, with_preamble
from agents.products import products_question
from agents.protein_role import role_question
from agents.resolution import resolve_choice
from agents.scope import DIET, PROGNOSES
from agents.selective import selective_question
from agents.similar_diseases import similar_question
from agents.small_talk import small_talk, without_small_talk
from agents.state import DRUG_TYPES, Intent, Status
from agents.style_request import style_request
from agents.two_mechanisms import two_mechanisms
from agents.two_questions import TAKE_WITH, classes_for, two_questions
from agents.unanswered import chosen_after
from core.errors import LLMError
from memory.patients import patient_ids_in
from tools.linker import fold
from tools.llm import LLMClient

__all__ = ["understand"]

_ONES = re.compile(r"^(?:and |so |ok,? )?(?:which|what) ones\b", re.IGNORECASE)
""""which ones are triptans?": after a list of drugs, about the listed ones (``agents.list_refs.members_of_them``); it
listed every triptan the class table knows, though none was listed."""

MAX_REWRITE_CHARS = 300


def _history_text(messages: Sequence[dict[str, Any]], turns: int = 6) -> str:
    lines = []
    for m in list(messages)[-turns:]:
        who = "User" if m.get("role") == "user" else "Assistant"
        lines.append(f"{who}: {' '.join(str(m.get('content', '')).split())[:300]}")
    return "\n".join(lines)


def _llm_rewrite(res: Any, question: str, messages: Sequence[dict[str, Any]]) -> str:
    """A standalone rewrite of a follow-up by the LLM; LLMError when the answer is unusable."""
    prompt = (
        "Rewrite the user's last question so that it can be understood without the conversation. Replace "
        "pronouns and elliptical phrases with the drug, disease or patient they refer to. If the question already "
        "stands alone, repeat it unchanged. Answer with the rewritten question only.\n\n"
        f"Conversation:\n{_history_text(messages)}\n\nLast question: {question}\nRewritten question:"
    )
    text = LLMClient(res.settings.llm).complete(prompt, max_tokens=80).strip().strip('"').strip()
    text = text.splitlines()[0].strip() if text else ""
    if not text or len(text) > MAX_REWRITE_CHARS or len(text.split()) < 3:
        raise LLMError(f"LLM rewrite was empty or implausible: {text[:60]!r}")
    if not (res.linker.scan(text) or patient_ids_in(text)):
        raise LLMError(f"LLM rewrite names no known entity: {text[:60]!r}")
    return text


def _ask_referent(resolution: Resolution, question: str, named: bool) -> str:
    """Interrupt: ask what the unresolved reference means; the answer replaces it in the question. ``named``: the
    thread has named something, but nothing the reference fits ("the second one" with no list to pick from)."""
    ref = resolution.missing
    why = ("No answer in this conversation lists anything it could pick." if named else
           "This conversation has not named a drug, disease or patient yet.")
    payload = {"kind": "followup", "slot": "reference", "mention": ref, "candidates": [],
               "question": f"What does \"{ref}\" refer to? {why} Answer with a name."}
    answer = str(interrupt(payload) or "").strip()
    if not answer:
        return question
    pattern = re.compile(rf"\b{re.escape(ref)}\b", re.IGNORECASE)
    return pattern.sub(answer, question, count=1)


def _ask_which(ambiguous: dict[str, Any]) -> dict[str, Any]:
    """Interrupt: ask which of the entities the reference means, until the answer picks one (a number, an id or a
    name)."""
    cands, question = ambiguous["candidates"], ambiguous["question"]
    payload = {"kind": "followup", "slot": "reference", "mention": ambiguous["mention"], "candidates": cands,
               "question": question}
    while True:
        choice = interrupt(payload)
        picked = resolve_choice(choice, cands)
        if picked is not None:
            return picked
        payload = {**payload, "question": f"\"{choice}\" is not one of the options. {question}"}


_LIKE_THAT = re.compile(
    r"^(?:and |so |ok,? )?(?:(?:what|which)(?: else| other (?:drugs?|medications?|medicines?|ones?))?|(?:are there |is there )?"
    r"any(?:thing| other (?:drugs?|medications?|medicines?|ones?))?(?: else)?|(?:are there )?(?:any )?others?)(?: that)? "
    r"(?:also )?(?:works?|acts?) (?:that way|the same way|in the same way|like that|like this|similarly)[?.!]*$|"
    r"^(?:and |so )?(?:are there )?(?:any )?(?:others|other drugs|other ones|more) like (?:that|this)[?.!]*$|"
    r"^(?:and |so |ok,? )?(?:(?:are|is) there )?(?:any(?:thing)?|something|some)? ?similar(?: (?:drugs?|medications?|medicines?|"
    r"ones?|options?))?[?.!]*$", re.IGNORECASE)
"""A question for drugs that act as the thread's drug does, naming none ("what else works that way?", "anything
similar?")."""


_DIFFERENTLY = re.compile(
    r"^(?:and |so |ok,? |but )?(?:(?:what|which)(?: else| other)?(?: drugs?| medications?| medicines?| ones?| options?)?|"
    r"(?:is|are) there (?:any(?:thing|one)?|something|another|an?|other|some)?(?: other)?(?: drugs?| medications?| medicines?"
    r"| ones?| options?)?|any(?:thing| other (?:drugs?|medications?|medicines?|ones?|options?))|something)(?: else)?"
    r"(?: that| which)? (?:works?|acts?|helps?) (?:differently|in a different way|(?:in )?another way|some other way|"
    r"through (?:a )?different (?:mechanism|target|pathway)|by (?:a )?different (?:mechanism|means|route))[?.!]*$", re.IGNORECASE)
"""A question for drugs that treat the thread's disease another way than its drug ("is there something that works
differently?" after how pegloticase treats gout)."""


def _works_differently(resolution: Resolution, focus: Any) -> Resolution:
    """"Is there something that works differently?" after how a drug treats a disease: the drugs for the disease that
    do not act on what the drug acts on first ("Which drugs treat Gout without acting on uric acid?",
    ``agents.not_acting``; it was NOT_FOUND, "no known entity in the question")."""
    drug, disease, steps = focus.drug, focus.illness, focus.steps  # a disease, not a target the thread named
    if drug is None or disease is None or not steps or steps[0]["head"] != drug["id"] \
            or not _DIFFERENTLY.match(resolution.question.strip()):
        return resolution
    first = {"id": steps[0]["tail"], "name": steps[0]["tail_name"], "type": steps[0].get("tail_type", "")}
    return Resolution(question=f"Which drugs treat {disease['name']} without acting on {first['name']}?",
                      pinned={fold(disease["name"]): disease, fold(first["name"]): first},
                      references=[{"text": resolution.question, "how": "thread drug", "entity": drug}],
                      excluded=resolution.excluded)


def _works_like(resolution: Resolution, drug: dict[str, Any] | None) -> Resolution:
    """"What else works that way?" after a drug's mechanism: "What are alternatives to sertraline?" (``agents.alternatives``
    reads it as the other drugs acting on its target; it was NOT_FOUND, "no known entity in the question")."""
    if drug is None or not _LIKE_THAT.match(resolution.question.strip()):
        return resolution
    return Resolution(question=f"What are alternatives to {drug['name']}?", pinned={fold(drug["name"]): drug},
                      references=[{"text": resolution.question, "how": "thread drug", "entity": drug}],
                      excluded=resolution.excluded)


_DISEASE_TOPICS = frozenset({PROGNOSES, "whether a disease is inherited or catching"})
"""What the graph does not hold about a disease: asked in a thread, about the thread's disease before its drug."""


_HOW_OFTEN_ALONE = re.compile(r"^(?:(?:and|so|but|ok),? )?(?P<h>how (?:often|many times (?:a|per|each) (?:day|week)))(?: then)?[?.!]*$",
                              re.IGNORECASE)
""""How often?" or "how many times a day?" alone: after "what dose of metformin should I take?" it asks how often the drug is taken (it was
NOT_FOUND, "no known entity in the question"); after a patient's lab it is not about a drug."""


def _of_the_thread_drug(resolution: Resolution, focus: Any, linker: Any) -> Resolution:
    """"What are the side effects?" (a question about what the graph does not hold, naming nothing) in a thread about
    a drug: "What are the side effects of imatinib?" (it was NOT_FOUND, "no known entity in the question"). A question
    about a disease's course ("what are the symptoms?") is about the thread's disease: after "what drugs treat gout?"
    it was read as the disease "symptoms" fits by spelling, Pharyngitis ("Sore throat symptom")."""
    question = resolution.question.strip()
    if (often := _HOW_OFTEN_ALONE.match(question)) and focus.drug is not None and focus.drug.get("type") in DRUG_TYPES:
        return Resolution(question=f"{often['h'].capitalize()} should {focus.drug['name']} be taken?", pinned={fold(focus.drug["name"]): focus.drug},
                          references=[{"text": question, "how": "thread drug", "entity": focus.drug}], excluded=resolution.excluded)
    topic = out_of_scope(question)
    about_disease = topic in _DISEASE_TOPICS and focus.illness is not None or focus.drug is None and topic == DIET
    drug = (focus.illness or focus.disease) if about_disease else focus.drug
    if drug is None or topic in ("", RANKING_DRUGS) or linker.scan(question) or linker.classes_in(question) \
            or patient_ids_in(question):  # "what happens if I stop taking statins?" names a class
        return resolution
    if (food := FOOD_OR_DRINK.match(question)) and not about_disease:  # "and grapefruit juice?" after atorvastatin
        return Resolution(question=f"Does {drug['name']} interact with {food['f'] or food['c']}?", pinned={fold(drug["name"]): drug},
                          references=[{"text": question, "how": "thread drug", "entity": drug}], excluded=resolution.excluded)
    asked = re.sub(r"\b(?:its|their)\b", "the", question.rstrip("?.! "), count=1, flags=re.IGNORECASE)
    # "can I eat spinach with warfarin?", "what diet helps with gout?"; "can I stop?": "… stop taking levothyroxine?"
    prep = "with" if topic == DIET else "taking" if re.search(r"\b(?:stop|quit)$", asked, re.IGNORECASE) else "of"
    text = toxicity_of(f"{asked} {prep} {drug['name']}?")  # "what are its symptoms?" → "… the symptoms of asthma?"
    return Resolution(question=text[0].upper() + text[1:], pinned={fold(drug["name"]): drug},
                      references=[{"text": question, "how": "thread drug", "entity": drug}], excluded=resolution.excluded)


_TOPIC_ONLY = re.compile(r"^(?:(?:what|whats|what's|what’s|is|are|the|a|an|any|some|its|usual|common|main|typical|early|"
                        r"first|key|signs?|symptoms?|and|prognos[ie]s|life|expectancy|survival|rates?|how|serious|deadly|"
                        r"fatal|tell|me|about|list|name|give|show)\b\W*)+$", re.IGNORECASE)
"""A question of :data:`_DISEASE_TOPICS`' words only ("what are the symptoms?", "what's the prognosis?")."""


def _disease_named(resolution: Resolution, focus: Any, res: Any, ctx: Context) -> dict[str, Any] | None:
    """A question about a disease's course that names no disease, in a thread that has named nothing ("what are the
    symptoms?" read "symptoms" as Pharyngitis, whose alias is "Sore throat symptom"): ask which disease and add it
    ("… of gout?"), or without a person to ask, NOT_FOUND saying so. None for any other question."""
    question = resolution.question.strip()
    if resolution.rewritten or not focus.empty or out_of_scope(question) not in _DISEASE_TOPICS \
            or not _TOPIC_ONLY.match(question):
        return None
    if not ctx.interactive:
        return {"status": Status.NOT_FOUND, "error": "the question names no disease (ask, for example, \"What are the "
                                                     "symptoms of asthma?\")"}
    payload = {"kind": "followup", "slot": "disease", "mention": "the disease", "candidates": [],
               "question": "Which disease do you mean? The question names none. Answer with a name."}
    answer = " ".join(str(interrupt(payload) or "").split()).rstrip("?.!")
    if not answer:
        return {"status": Status.NOT_FOUND, "error": "the question names no disease"}
    text = f"{question.rstrip('?.! ')} of {answer}?"
    return {"resolution": Resolution(question=text[0].upper() + text[1:], references=[
        {"text": question, "how": "clarified", "answer": answer}]), "fallbacks": []}


_CORRECTION = re.compile(r"^(?:(?:no|nope|sorry|oops|oh|actually|wait|ah)\b[,.!]?\s+)*i (?:meant|mean)(?: to (?:say|ask about|type|"
                         r"write))?,?\s+(?!(?:how|what|why|which|who|when|where|does|do|did|is|are|can|could|should|would|will|it|that|"
                         r"this|that one|the same|yes|no)\b)(?P<x>[^?.!]+?)[?.!]*$", re.IGNORECASE)
"""A correction of the last question's name ("no, I meant dasatinib", "sorry, I meant insulin")."""
_I_MEAN = re.compile(r"^\s*(?:(?:no|sorry|actually|well)\b[,.!]?\s+)*i (?:mean|meant)\b,?\s+(?=(?:how|what|why|which|who|does|do|is|are|"
                     r"can)\b)", re.IGNORECASE)
""""I mean," before a question ("I mean, how does aspirin work?"): left out."""


def corrected(question: str, messages: Sequence[dict[str, Any]]) -> str:
    """"No, I meant dasatinib" after "How does imatinib treat CML?": asked as "what about dasatinib?", which puts the
    name in the place of the one of its kind (``agents.ellipsis``; it was answered with what dasatinib is connected to,
    CML dropped, and "actually I meant pseudogout" was NOT_FOUND). With no earlier turn, the name alone is asked."""
    m = _CORRECTION.match(question.strip())
    if m is None:  # "I mean, how does aspirin work?": the question after it
        return _I_MEAN.sub("", question)
    return f"what about {m['x'].strip()}?" if any(x.get("role") == "assistant" for x in messages) else m["x"].strip()


def understand(question: str, messages: Sequence[dict[str, Any]], res: Any, ctx: Context) -> dict[str, Any]:
    """``{"resolution": Resolution, "fallbacks": [...]}`` (with ``also_asked``: the second of two questions in one
    message), a NOT_FOUND update when nothing can be resolved, or the history or small-talk intent for a question
    about the thread itself or small talk."""
    if (chosen := chosen_after(question, messages, res.linker)) is not None:  # "type 2 diabetes" while asked which
        return {"resolution": chosen, "fallbacks": []}
    if language := foreign(question):  # "¿cómo trata el imatinib la leucemia mieloide crónica?" (``agents.language``)
        return {"status": Status.NOT_FOUND, "error": in_english(question, language, res.linker, DRUG_TYPES)}
    question, style = style_request(question)  # "How does allopurinol treat gout? Explain simply."
    stated, question = question, with_preamble(question, res.linker)  # "My doctor prescribed metformin. How does it work?"
    question = evidence_asked(same_of_two(why_not(question)))  # "Is there evidence that vitamin D prevents fractures?"
    question = why_compared(question)  # "Why is rizatriptan better than zolmitriptan for migraine?"
    question = non_class(question, res.linker)  # "What are non-steroidal options for asthma?"
    question = kind_acting(question, res.linker)  # "Which drugs are PD-1 inhibitors?"
    question = instead_compared(question)  # "Can I take ibuprofen instead of aspirin for a heart attack?"
    question = corrected(question, messages)  # "no, I meant dasatinib"
    recorded, question = question, record_in_one(question)  # "What does PAT_003 have and what are they taking for it?"
    written, question = question, has_condition(question)  # "Is PAT_002 diabetic?": does the record list diabetes
    question = food_first(what_it_acts_on(toxicity_of(causes_condition(question, res.linker))), res.linker)  # "Is imatinib
    # hypertensive?": whether it causes hypertension; "how does alcohol affect metformin?": whether metformin interacts
    # with alcohol; "why does warfarin need monitoring?", "signs of toxicity of digoxin": ``agents.drug_topic``
    avoided = question != (question := avoided_in(question, res.linker))  # "what drugs should asthmatics avoid?"
    question = several_taken(sufferers_taking(question), res.linker)  # "can diabetics take prednisone?", "I'm on X and Y"
    if asks_history(question) or two_mechanisms(question, messages):  # "what did I ask before?", "compare the two"
        # after one drug's mechanisms for two diseases: the thread's messages answer it, not the graph
        return {"intent": Intent.HISTORY.value}
    if small_talk(question):  # "hi", "thanks", "what can you do?"
        return {"intent": Intent.SMALL_TALK.value}
    focus = focus_from(messages)
    drug = focus.drug  # "is it the same as Gleevec?", "what other NSAIDs are there?" after a drug
    for_disease = focus.intent == "treats" and focus.disease is not None and not re.search(r"\b(?:other|more)\b", question)
    for asked in (names_referent(question, drug), None if for_disease else other_members(question, res.linker, drug)):
        # "are there any biologics?" after what treats psoriasis: which of them do (``agents.list_refs.members_of_them``)
        if asked and (member := _membership(asked, res)):
            return {**member, "understood_as": asked}
    listed = _ONES.match(question) and latest_drugs(focus)
    if not listed and (member := _membership(question, res)) is not None:  # "Is atorvastatin a statin?", "how many …?"
        return member
    first, then = two_questions(without_small_talk(question), res.linker.drug_class)  # "Hello there. What drugs treat gout?"
    first = plain_count(first)  # "how many other patients take the same drug?"
    if len(pids := patient_ids_in(first)) > 1 and not then:  # "compare PAT_001 and PAT_002": one record at a time
        then = [f"What is in {pid}'s record?" for pid in pids[1:]]
    out = _resolved(first, messages, res, ctx)
    if not then and "resolution" in out and (pair := classes_for(out["resolution"].question, res.linker.drug_class)):
        out["resolution"].question, then = pair  # "which is better for diabetic kidney disease?" after two classes
    if "resolution" in out and (meds := meds_for(asked := out["resolution"].question, res.linker)) != asked:
        out["resolution"].question = meds  # "Is PAT_002 on any schizophrenia medication?": taking anything for it
        out["resolution"].references.append({"text": asked, "how": "record"})
    if style in ("simpler", "steps", "sources") and "resolution" in out:  # as "explain that more simply" would be
        out["resolution"].references.append({"text": question, "how": style})
    if written != question and "resolution" in out and not out["resolution"].rewritten:  # shown as understood
        out["resolution"].references.append({"text": written, "how": "avoided" if avoided else "condition word"})
    if stated != question and TAKE_WITH.match(first) and "resolution" in out:  # "I'm on lisinopril, can I take
        out["resolution"].references.append({"text": stated, "how": "taken beside"})  # ibuprofen?": shown as understood
    if recorded != question and "resolution" in out:  # shown as understood, and what the answer lists
        out["resolution"].references.append({"text": recorded, "how": "record"})
    if "resolution" in out and out["resolution"].rewritten and (member := _membership(out["resolution"].question, res)):
        return {**member, "understood_as": out["resolution"].understood,  # "is it a kinase inhibitor?" after imatinib
                "references": out["resolution"].references}
    return {**out, "also_asked": then} if then and "resolution" in out else out


_FROM_THE_LINKER = (
    names_question,  # "Is Gleevec the same as imatinib?"
    metabolites_question,  # "what does levothyroxine become?"
    products_question,  # "what does xanthine oxidase make?"
    role_question,  # "what does TNF do?"
    amounts_question,  # "what does allopurinol lower?"
    selective_question,  # "which NSAIDs are COX-2 selective?"
    similar_question,  # "which diseases are similar to gout?"
    kinds_question,  # "what types of diabetes are there?"
    compared_diseases,  # "compare asthma and COPD"
    glossary_question,  # "what is an agonist?"
)
"""Readers of a question that need only the linker, in the order they are tried: each gives the planner's update for
the questions it reads, else None."""


def _membership(question: str, res: Any) -> dict[str, Any] | None:
    """The class-membership update for "is X a C?" (``agents.class_member``), the drug its mention, so that "what does
    it target?" next is about the drug; the update for a question about names or a count; None for any other
    question."""
    linker = res.linker
    if cohort_question(question):  # "what conditions are most common?": the records count them (it was NOT_FOUND,
        return None  # '"most common" is not in the knowledge graph', read as which diseases "most common" takes part in)
    if (counted := count_question(question, res)) is not None:  # "how many drugs target EGFR?"
        return counted
    for read in _FROM_THE_LINKER:
        if (update := read(question, linker)) is not None:
            return update
    if compared_sides(question, linker) is not None:  # "compare ARBs and ACE inhibitors": their drugs' targets
        return {"intent": Intent.CLASS_MEMBER.value, "mentions": [], "drug_class": ""}
    if (diseases := diseases_of_question(question, linker)) is not None:  # "which cancers involve EGFR?"
        return diseases
    if target_kind_asked(question, linker):  # "is ACE an enzyme?": by the target's name
        return {"intent": Intent.CLASS_MEMBER.value, "mentions": [], "drug_class": ""}
    if (listed := class_members(question, linker)) is not None:  # "which drugs are statins?"
        return {"intent": Intent.CLASS_MEMBER.value, "mentions": [], "drug_class": listed["class"]}
    if (member := class_membership(question, linker)) is None:
        return None
    if drugs := member.get("pair") or member.get("several"):  # "are amlodipine and nifedipine in the same class?",
        # "are aspirin and ibuprofen both NSAIDs?": "how do they work?" next is about them
        return {"intent": Intent.CLASS_MEMBER.value, "drug_class": "", "among": [d["id"] for d in drugs],
                "compared": True, "mentions": [{"slot": "drug", "mention": d["name"], "status": "linked", "entity": d}
                                               for d in drugs]}
    if "inner_class" in member:  # "is penicillin an antibiotic?": "how do they work?" next is about the penicillins
        return {"intent": Intent.CLASS_MEMBER.value, "mentions": [], "drug_class": member["inner_class"]}
    classes = member.get("classes") or [member.get("class", "")]  # "what else is in that class?" next
    return {"intent": Intent.CLASS_MEMBER.value, "drug_class": classes[0] if len(classes) == 1 else "", "mentions": [
        {"slot": "drug", "mention": member["mention"], "status": "linked", "entity": member["drug"]}]}


_REFERRING = frozenset({"pronoun", "possessive", "thread drug", "thread disease"})
"""How a resolution reads a word that refers back ("it", "its", a question naming nothing): :func:`_unknown_referred`."""


def _unknown_referred(resolution: Resolution, messages: Sequence[dict[str, Any]]) -> str:
    """Why a reference back cannot be resolved when the last turn named only what the graph lacks: "what does it
    target?" after "what does ondansetron do?" (NOT_FOUND) was read as the turn before's imatinib, or was asked what
    "it" meant, "This conversation has not named a drug …". "" when the last turn named something the graph holds,
    or the question refers to nothing."""
    last = next((m for m in reversed(messages) if m.get("role") == "assistant"), {})
    unknown = last.get("unknown") or []
    refs = [r for r in resolution.references if r.get("how") in _REFERRING]
    if not unknown or last.get("named") or not (resolution.missing or refs):
        return ""
    if resolution.missing or refs[0]["how"] in ("pronoun", "possessive"):
        ref = f"\"{resolution.missing or refs[0]['text']}\" would be"
    else:  # "what are the side effects?" names nothing
        ref = "the question would be about"
    return f"{ref} \"{unknown[0]}\" from the last question, which is not in the knowledge graph"


def _resolved(question: str, messages: Sequence[dict[str, Any]], res: Any, ctx: Context) -> dict[str, Any]:
    """One question read against the thread: :func:`understand`'s answer, without its history and small talk."""
    fallbacks: list[dict[str, str]] = []
    resolution = resolve_followup(question, messages, res.linker)
    # "which drugs do not act on COX?" listed those that do
    if not resolution.among and (why := negated_alone(resolution.question, res.linker)):
        return {"status": Status.NOT_FOUND, "error": why}
    focus = focus_from(messages)
    if unknown := _unknown_referred(resolution, messages):  # "what does it target?" after "what does ondansetron do?"
        return {"status": Status.NOT_FOUND, "error": unknown}
    if resolution.missing:
        if not ctx.interactive:
            return {"status": Status.NOT_FOUND,
                    "error": f"nothing earlier in this conversation for \"{resolution.missing}\" to refer to"}
        answered = _ask_referent(resolution, question, not focus.empty)
        resolution = resolve_followup(answered, messages, res.linker)
        if resolution.missing:
            resolution = Resolution(question=answered)
        resolution.references.append({"text": question, "how": "clarified", "answer": answered})
        return {"resolution": resolution, "fallbacks": fallbacks}
    if resolution.ambiguous and ctx.interactive:  # "why is she on it?" after several medications
        picked = _ask_which(resolution.ambiguous)
        resolution = resolve_followup(question, messages, res.linker, chosen=picked)
        resolution.references.append({"text": question, "how": "clarified", "answer": picked["name"]})
        resolution.ambiguous = {}
        if not resolution.refused:
            return {"resolution": resolution, "fallbacks": fallbacks}
    if not resolution.rewritten and not resolution.refused:
        resolution = beside_the_thread_drug(_works_differently(_works_like(resolution, focus.drug), focus), focus, res.linker, messages)
        resolution = kinds_of_the_thread(_of_the_thread_drug(resolution, focus, res.linker), focus, res.linker)  # "… types?"
        if unknown := _unknown_referred(resolution, messages):  # "what are the side effects?" after ondansetron
            return {"status": Status.NOT_FOUND, "error": unknown}
        if (named := _disease_named(resolution, focus, res, ctx)) is not None:  # "what are the symptoms?"
            return named
    if resolution.refused:  # "which of them are cancers?" after a list of drugs
        return {"status": Status.NOT_FOUND, "error": resolution.refused}
    history = not focus.empty
    if history and ctx.use_llm and res.settings.llm.enabled:
        try:
            text = _llm_rewrite(res, question, messages)
            if " ".join(text.split()).casefold() != question.casefold():
                llm = Resolution(question=text, references=[{"text": question, "how": "llm", "rewritten": text}],
                                 excluded=resolution.excluded)
                return {"resolution": llm, "fallbacks": fallbacks}
            return {"resolution": Resolution(question=question, excluded=resolution.excluded), "fallbacks": fallbacks}
        except (LLMError, ImportError) as exc:
            fallbacks.append({"component": "planner.rewrite.llm", "reason": str(exc), "fallback": "embedded resolver"})
    return {"resolution": resolution, "fallbacks": fallbacks}
