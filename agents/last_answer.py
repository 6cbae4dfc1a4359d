"""Follow-ups about the last answer itself: its sources ("show me the sources"), the other paths behind it ("are there
other paths?"), how many its list has in all ("how many are there?", ``agents.counts``), the answer in plain words or step by step ("can you explain that more simply?", ``agents.plain``) and one of its steps
("explain the second step").

Both were NOT_FOUND ("no known entity in the question"). A request for the sources asks the last question again, so
that its answer comes back with its citations in every client. A step is asked about on its own: "How does
Angiotensin-converting enzyme act on Aldosterone secretion?", whose answer is that one relation and the citations of
its two ends.
"""

from __future__ import annotations

import re

from agents.focus import ORDINALS, Focus
from agents.patient_answer import lab_named
from agents.resolution import Resolution, restated
from agents.state import DRUG_TYPES
from tools.linker import fold

__all__ = ["about_last_answer"]

_SOURCES = re.compile(
    r"^(?:(?:(?:can|could|would) you |please )?(?:(?:show|give|list|tell|send)(?: me| us)? |(?:what|which) (?:are|is|were|was) |"
    r"what's |where (?:are|is) )?(?:the |your |its |their |some )?(?:sources?|citations?|references?|evidence|proof)"
    r"(?: (?:for|of|behind|on) (?:that|this|it|the answer|your answer|the mechanism))?(?: please)?|"
    r"where (?:does|did|do) (?:that|this|it|the answer|this answer|that information|the information) come from|"
    r"how do you know(?: that| this)?|says who|according to (?:what|whom|who)|(?:(?:can|could) you )?cite (?:that|this|it|them|"
    r"(?:your|the|its|some) (?:sources?|references?))|(?:what are you|what is (?:this|that|it)) based on|"
    r"(?:is|are) (?:there|that|this) (?:any |a |an )?(?:sources?|citations?|references?)(?: for (?:that|this|it))?|"
    r"(?:and |so )?(?:any|what|which) (?:sources?|citations?|references?|studies|papers?|articles?|trials?|publications?)"
    r"(?: (?:supports?|backs?(?: up)?|shows?|says?|proves?|confirms?) (?:that|this|it))?|"
    r"(?:and |so )?(?:is|are) there (?:a |an |any )?(?:study|studies|papers?|articles?|trials?|publications?)"
    r"(?: (?:on|about|for|behind|supporting|backing) (?:that|this|it))?)"
    r"(?:,? please)?\s*[?.!]*$",
    re.IGNORECASE)
_SURE = re.compile(r"^(?:(?:and |but |so |hmm,? )?(?:is|was) (?:that|this|it) (?:really )?(?:correct|right|true|accurate|reliable)|"
                   r"(?:are|were) you (?:really )?(?:sure|certain)(?: about (?:that|this|it))?|how (?:sure|confident|certain) are you|"
                   r"(?:can|should) i (?:trust|believe|rely on) (?:that|this|it|you)|really)(?: though)?\s*[?.!]*$", re.IGNORECASE)
"""Whether the last answer is right ("are you sure?", "is that correct?": they were NOT_FOUND): what it rests on, as a
request for its sources is answered, with a word on what the graph is."""
"""A request for the last answer's sources, and nothing more ("What is the evidence that vitamin D prevents fractures?"
is a question of its own: it was read as a request for the sources of an answer not yet given)."""
_OTHER_PATHS = re.compile(
    r"^(?:(?:and |so |but )?(?:is|was) (?:that|this|it) the only (?:mechanism|path|pathway|way|route|explanation)|"
    r"(?:are there |is there |any )?(?:other|more|alternative|another) (?:mechanisms?|paths?|pathways?|routes?|"
    r"explanations?)|how else (?:does|do|can|could) (?:it|they|that|this) (?:work|act)|(?:are there |is there |any )?(?:other|"
    r"more|another) ways? (?:it|they) (?:does|do|can do|works?|acts?)(?: (?:that|this|it|so))?|(?:and |so )?is that (?:all|"
    r"everything))(?: (?:for|in) (?:it|that|this))?"
    r"(?: please)?\s*[?.!]*$", re.IGNORECASE)
"""A question for the other paths behind the last answer ("is that the only mechanism?", "are there other paths?",
"are there other ways it does that?", "is that all?")."""
_SIMPLER = re.compile(
    r"^(?:(?:so |ok,? |okay,? |sorry,? |hmm,? )?(?:(?:can|could|would) you |please )?(?:explain|say|put|describe|tell me|rephrase)"
    r"(?: (?:that|this|it|the answer|the mechanism))?(?: again)?(?: (?:more )?simply| simpler| in (?:simpler|simple|plain|"
    r"layman'?s?|lay|everyday|easier|normal) (?:terms|words|english|language)| like i'?m (?:five|5|a child|a kid)| for a "
    r"(?:layman|layperson|non-expert|child|kid|beginner))|(?:simpler|in plain english|in plain words|eli5|dumb it down|"
    r"(?:that's|that is|this is|it's) (?:too )?(?:technical|complicated|confusing)|i don'?t (?:understand|get it)|"
    r"what does (?:that|this|it) mean|in (?:simpler|simple|plain) (?:terms|words|english)|(?:is there |(?:can|could) you give me |"
    r"give me |got )?(?:a |the )?(?:shorter|simpler|short|simple|quick|brief)(?: explanation| version| answer| summary)|"
    r"(?:(?:can|could) you )?(?:make|keep) it (?:shorter|simpler|short|simple|brief)|(?:that's|that is|it's) too long|tl;?dr|"
    r"sum (?:it|that) up|in short|briefly)(?: please)?)(?:,? please)?\s*[?.!]*$",
    re.IGNORECASE)
"""A request for the last answer in plain words ("can you explain that more simply?", "in plain English please"), or
shorter ("is there a shorter explanation?", "tl;dr": the plain words are the short form; they were NOT_FOUND)."""
_HOW_MANY = re.compile(r"^(?:and |so |ok,? )?how many(?: of them| of these| of those| drugs| ones| medications)?(?: (?:are there|"
                       r"is that|exist|are known|do you know))?(?: in (?:total|all)| altogether)?\s*[?.!]*$", re.IGNORECASE)
"""How many the last list has in all ("how many are there?" after "What drugs target EGFR?")."""
_WHICH_DRUGS = re.compile(r"^(?:(?:what|which)(?: other)?|(?:can you |please )?(?:list|name|show me|give me)(?: all| the| some)?)"
                          r" (drugs|medications|medicines)\b", re.IGNORECASE)
"""The opening of a question for drugs, which "how many" takes the place of."""
_ALL_STEPS = re.compile(
    r"^(?:(?:so |ok,? |okay,? )?(?:(?:can|could|would) you |please )?(?:what are|list|show me|give me|tell me|walk me through|"
    r"take me through|go through|explain|describe|break down)(?: all| each of)? (?:the |its |each |every )?(?:steps?|links|hops)"
    r"(?: one by one| in order)?|(?:(?:can|could|would) you |please )?(?:walk me through|take me through|go through|explain|break down)"
    r" (?:it|that|this|the mechanism|the path)(?: step by step| one step at a time)?|step by step|how many (?:steps|links|hops)"
    r"(?: (?:are there|does it (?:have|take)|(?:are )?in (?:that|the|this|your) (?:path|mechanism|chain|answer)))?)(?: please)?\s*[?.!]*$",
    re.IGNORECASE)
"""A request for every step of the last path, in order ("what are the steps?", "walk me through it step by step")."""
_STEP_WORDS = "|".join(sorted((w for w in ORDINALS if w != "top"), key=len, reverse=True))
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
"""A step by its number in words ("explain step two")."""
_STEP = re.compile(
    rf"^(?:(?:can|could|would) you |please )?(?:explain|describe|clarify|expand on|elaborate on|tell me (?:more )?about|"
    rf"(?:what|why) (?:is|about)|what's|what does|more (?:on|about)|and)?\s*(?:the |that |this )?(?:(?P<k>{_STEP_WORDS}) "
    rf"(?:step|link|hop|arrow)|(?:step|link|hop) (?P<n>[1-9]|{'|'.join(_NUMBERS)}))"
    r"(?: of (?:the|that|this|your) (?:path|mechanism|answer|chain))?(?: mean| means)?(?: please| in more detail| more)?$",
    re.IGNORECASE)
"""A question about one step of the last answer's path: "explain the second step", "what is step 3?"."""
_KEY_STEP = re.compile(
    r"^(?:and |so |ok,? |but )?(?:which|what)(?:'s|’s| is)? (?:the )?(?:(?:most important|key|main|crucial|critical|"
    r"essential|central) (?:step|link|part)|(?:step|link|part) (?:is )?(?:the )?(?:most important|key|main|crucial|critical|"
    r"essential|central)(?: one)?|(?:step|link|part) matters (?:the )?most)(?: of (?:it|that|this|them|the (?:mechanism|path|"
    r"chain|steps)))?(?: here)?[?.!]*$", re.IGNORECASE)
"""Which step of the last answer's path matters most ("which step is the most important?"): the graph does not weigh
its steps (``agents.scope``'s note says so); the first, where the drug acts, is explained (it was NOT_FOUND)."""


def _asked_again(res: Resolution, q: str, how: str, focus: Focus, question: str = "") -> str:
    """The thread's last question asked again (or ``question``, made from it), with a reference of kind ``how`` that
    tells the explainer what to add or change, and the thread's drug and disease pinned so that they link as before."""
    res.references.append({"text": q, "how": how, "question": focus.latest_question})
    res.pinned.update({fold(e["name"]): e for e in (focus.drug, focus.disease) if e})
    res.pinned.update(focus.named)  # "diabetes" as the clarification picked it (keys folded in the turn record)
    return restated(question or focus.latest_question)


_JUDGED = re.compile(
    r"^(?:and |so |but |ok,? )?(?:is|are|was|were) (?:that|those|these|it|they|this|the (?:results?|values?|labs?|levels?|"
    r"numbers?)) (?:all )?(?:normal|abnormal|ok|okay|fine|good|bad|high|low|too high|too low|elevated|(?:well |poorly )?controlled|"
    r"under control|worrying|concerning|in range|within (?:the )?"
    r"(?:normal )?range|out of range)[?.!]*$|"
    r"^(?:and |so |but |ok,? )?(?:(?:which|what)(?: of (?:the|his|her|their|those|these))?|(?:are there |is there )?any) "
    r"(?:(?:abnormal|high|low|elevated) (?:labs?|lab (?:results?|values?|tests?)|results?|values?|levels?)|(?:labs?|lab (?:results?|"
    r"values?|tests?)|results?|values?|levels?) (?:are|is|were|was) (?:abnormal|not normal|off|high|low|elevated|too high|too low|"
    r"out of range|outside (?:the )?(?:normal )?range))[?.!]*$|"
    r"^(?:and |so |but |ok,? )?(?:(?:are|is) )?any(?: of (?:them|those|these|the (?:labs?|results?|values?)))? (?:abnormal|not normal|"
    r"off|high|low|elevated|too high|too low|out of range|worrying|concerning)[?.!]*$", re.IGNORECASE)
"""Whether the values the last answer gave are normal ("is that normal?" after a patient's labs), or which are not
("which labs are abnormal?", "any abnormal results?", "are any abnormal?": it was NOT_FOUND, "no known entity in the
question", and the last '"are any abnormal" is not in the knowledge graph')."""


_WHICH_TARGET = re.compile(
    r"^(?:and |so |ok,? )?(?:what|which)(?: kind of| type of)? (?P<kind>receptors?|enzymes?|proteins?|targets?|kinases?|"
    r"channels?|transporters?) (?:is|are|was|were) (?:that|it|this|those|they|involved)(?: exactly)?[?.!]*$", re.IGNORECASE)
"""Which target the last answer's drug acts on ("what receptor is that?" after how montelukast treats asthma)."""


_EXAMPLE = re.compile(
    r"^(?:and |so |ok,? |okay,? )?(?:(?:(?:can|could|would) you |please )?(?:give|show|name|tell)(?: me| us)? (?:(?:an?|one|some)"
    r"(?: good)? (?:examples?|drugs?|members?)|one)(?: of (?:them|those|that class))?|(?:for|an?) examples?|such as|"
    r"like (?:what|which)(?: ones?| drugs?)?|(?:which|what) ones?,? for example|e\.?g\.?)(?:,? please)?\s*[?.!]*$",
    re.IGNORECASE)
"""A request for an example of the drug class the last answer was about ("give me an example" after "How do SSRIs
treat depression?")."""
_EXAMPLE_ASKS = {"indications": "What does {} treat?", "targets": "What does {} target?"}
"""What an example of a class-subject turn ("What do beta blockers treat?") asks of the one drug."""


def _example(res: Resolution, q: str, focus: Focus) -> str | None:
    """The last answer's question asked of the drug its evidence starts from, when that answer was about a drug class:
    "How does Citalopram treat Depressive disorder?" for "give me an example" after "How do SSRIs treat depression?"
    (it was NOT_FOUND, "no known entity"); None for any other answer."""
    head = focus.steps[0] if focus.steps else {}
    if head.get("head_type") not in DRUG_TYPES:
        return None
    drug = {"id": head["head"], "name": head["head_name"], "type": head["head_type"]}
    if focus.by_class and focus.disease:
        asked = f"How does {drug['name']} treat {focus.disease['name']}?"
        res.pinned[fold(focus.disease["name"])] = focus.disease
    elif focus.named_class and focus.class_intent in _EXAMPLE_ASKS:
        asked = _EXAMPLE_ASKS[focus.class_intent].format(drug["name"])
    else:
        return None
    res.references.append({"text": q, "how": "example", "class": focus.drug_class or focus.named_class, "entity": drug})
    res.pinned[fold(drug["name"])] = drug
    return asked


_IT_ON_IT = re.compile(r"^(?:and |so |but )?(?P<aux>does|do|did|can|could|will|would) it (?P<verb>[a-z]+) it[?.!]*$", re.IGNORECASE)
"""A yes/no question about the last answer's drug and what it acts on, both as "it" ("does it cure it?" after how
donepezil treats Alzheimer's was "Does it cure donepezil?"; "does it block it?" after salbutamol's receptor)."""


_JUDGED_WORD = re.compile(r"\b(?:normal|abnormal|ok|okay|fine|good|bad|(?:too )?high|(?:too )?low|elevated|(?:well |poorly )?controlled|"
                          r"under control|worrying|concerning|in range|out of range)\b",
                          re.IGNORECASE)
"""The judgement a follow-up asks of one lab ("is that high?"), kept in the question it asks."""
_HEALS = frozenset({"cure", "treat", "heal", "fix", "prevent", "help"})
"""The verbs of "does it cure it?" whose object is a disease."""


def _it_on_it(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Does donepezil cure Alzheimer's disease?" for "does it cure it?": the thread's drug, then its disease after a
    mechanism or its target after its targets, or, after any other turn, the thread's disease for a verb of healing
    (it was "Does it cure donepezil?" after the drugs like donepezil); None when the thread has no such pair."""
    m = _IT_ON_IT.match(q)
    other = focus.disease if focus.intent == "mechanism" else focus.target if focus.intent == "targets" else None
    if m is not None and other is None and m["verb"].casefold() in _HEALS:  # after turns since about what it acts on
        other = focus.illness  # (the drugs like donepezil): the thread's disease
    if m is None or focus.drug is None or other is None:
        return None
    res.references.append({"text": q, "how": "pronoun", "entity": focus.drug, "object": other})
    res.pinned.update({fold(e["name"]): e for e in (focus.drug, other)})
    return f"{m['aux'].capitalize()} {focus.drug['name']} {m['verb']} {other['name']}?"


def about_last_answer(res: Resolution, q: str, focus: Focus) -> str | None:
    """The question that a follow-up about the last answer asks, or None when ``q`` is not one. With no last answer
    to speak of, ``res.missing`` names what was asked for (the planner says there is nothing to resolve it against);
    a step past the path's end is ``res.refused``, with how many steps there are."""
    if (judged := _JUDGED.match(q)) and focus.intent == "patient" and focus.patient_id:  # it was NOT_FOUND, "no known entity"
        res.patient_id = focus.patient_id
        res.references.append({"text": q, "how": "labs judged", "patient_id": focus.patient_id})
        if (lab := lab_named(focus.latest_question or "")) and (word := _JUDGED_WORD.search(judged[0])):  # one lab asked
            return f"Is {focus.patient_id}'s {lab} {word[0].casefold()}?"  # about: "is that high?" after the latest ALT
        return f"Are {focus.patient_id}'s labs normal?"
    if (m := _WHICH_TARGET.match(q)) and focus.drug and focus.intent in ("mechanism", "targets"):  # it was NOT_FOUND
        res.references.append({"text": q, "how": "which target", "entity": focus.drug})
        res.pinned[fold(focus.drug["name"])] = focus.drug
        return f"Which {m['kind'].casefold()} does {focus.drug['name']} act on?"
    if (asked := _it_on_it(res, q, focus) or (_EXAMPLE.match(q) and _example(res, q, focus))) is not None:
        return asked  # "does it cure it?"; "give me an example" (a drug of the class answered about)
    if _OTHER_PATHS.match(q) and focus.latest_question and focus.steps:  # the answer again, with the other paths
        return _asked_again(res, q, "other paths", focus)
    if _HOW_MANY.match(q) and (w := _WHICH_DRUGS.match(focus.latest_question)):  # the count, ``agents.counts``
        rest = re.sub(r"^ (?:that|which|who) ", " ", focus.latest_question[w.end():])  # "list drugs that inhibit EGFR"
        return _asked_again(res, q, "count", focus, f"How many {w[1].casefold()}{rest}")
    retold = "simpler" if _SIMPLER.match(q) else "steps" if _ALL_STEPS.match(q) else ""  # ``agents.plain``
    sure = bool(_SURE.match(q))
    if retold or sure or _SOURCES.match(q):
        if not focus.latest_question:
            res.missing = "that" if retold or sure else "the sources"
            return None
        return _asked_again(res, q, retold or ("sure" if sure else "sources"), focus)
    m = _STEP.match(q)
    key = m is None and bool(_KEY_STEP.match(q))  # "which step is the most important?": the first, where the drug acts
    if m is None and not key:
        return None
    if not focus.steps:
        res.missing = "the step"
        return None
    number = m["n"].casefold() if m and m["n"] else ""
    k = 0 if m is None else ORDINALS[m["k"].casefold()] if m["k"] else (_NUMBERS[number] if number in _NUMBERS else int(number)) - 1
    if k >= (steps := len(focus.steps)):
        res.refused = f"the last answer's path has {steps} step{'s' if steps != 1 else ''}; ask about one of them"
        return None
    step = focus.steps[k]
    head = {"id": step["head"], "name": step["head_name"], "type": step.get("head_type", "")}
    tail = {"id": step["tail"], "name": step["tail_name"], "type": step.get("tail_type", "")}
    res.references.append({"text": q, "how": "step", "step": k + 1, "triple": dict(step)})
    res.pinned.update({fold(head["name"]): head, fold(tail["name"]): tail})
    return f"How does {head['name']} act on {tail['name']}?"
