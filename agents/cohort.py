"""Questions about many patients at once ("How many patients have diabetes?", "Which patients take metformin?"),
answered from the hybrid retrieval's aggregation route: counts over the patients who allow research use, none
reported for a cohort smaller than ``tools.routes.MIN_COHORT``, and no patient named."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from agents.answer_notes import NO_EVIDENCE
from agents.patient_answer import lab_named, not_recorded
from agents.record_window import not_applied
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent, State, Status
from memory.records import CohortCount
from tools.aggregate import STATISTIC
from tools.cohort_window import window
from tools.routes import MIN_COHORT

__all__ = ["COHORT_CITATION", "cohort_answer", "cohort_followup", "cohort_question", "cohort_refusal", "in_scope", "plain_count"]

_PEOPLE = r"(?:patients|people|persons|subjects)"
_MOST = (r"most (?:common(?:ly (?:used|prescribed|taken|diagnosed))?|frequent(?:ly (?:prescribed|used|taken|diagnosed))?|"
         r"prescribed|used|taken|often (?:prescribed|taken|diagnosed|used))")
_MOST_WHAT = (rf"(?:(?:what|which) (?:are|is) |what's |list |show(?: me)? )?(?:the )?(?:{_MOST}|top(?: \d+| five| ten)?) (?:medications?|"
              r"medicines?|meds|drugs?|prescriptions?|conditions?|diagnos[ie]s|diseases?)|(?:what|which) (?:medications?|medicines?|"
              rf"meds|drugs?|conditions?|diagnos[ie]s|diseases?) (?:are|is) (?:the )?{_MOST}")
"""The most common medications or conditions with nothing after them ("What are the most common medications?"): only
the patient records count them (the knowledge graph's scope note answered it). "… for gout?" stays a question of the
graph's."""
_COHORT = re.compile(
    rf"\b(?:how many|(?:the )?number of|count of|(?:what )?(?:proportion|percentage|share|fraction) of|which|what|"
    rf"list(?: all| the)?|show(?: me)?(?: all| the)?|find(?: all| the)?|name(?: the)?|count(?: the)?)\s+(?:of\s+)?"
    rf"(?:the |our |my |all )?{_PEOPLE}\b|"
    r"^(?:and |so )?who (?:else )?(?:takes|is taking|are taking|is on|are on|uses|is using|has|have|"
    r"was prescribed|is prescribed|was diagnosed with|is diagnosed with)\b|"
    rf"\bmost (?:common|frequent|frequently prescribed|prescribed)\b.*\b(?:among|in|for|across) (?:the |our |my |all )?"
    rf"(?:{_PEOPLE}|cohort)\b|"
    rf"(?:{STATISTIC.pattern})[^?.!]*?\b(?:of|in|among|for|across|with) (?:the |our |my |all )?{_PEOPLE}\b|"
    rf"^(?:{_MOST_WHAT})(?: (?:overall|here|in (?:the|our|my) (?:records|data|cohort|clinic|practice)))?[?.!]*$",
    re.IGNORECASE)  # a statistic as the route reads it: "what does it mean for patients with gout?" is no average
"""A count or a list over patients, or a lab's average over them ("What is the average HbA1c of patients on
metformin?"); a question about one patient names its id and is answered from its record."""
_NAMED = re.compile(r"\b(?:have|has|having|with|take|takes|taking|on|using|use|prescribed|diagnosed with)\s+"
                    r"(?P<what>(?!(?:any|a|an|the)?\s*(?:condition|disease|medication|drug|lab)s?\b)[^?.!]+)", re.IGNORECASE)
"""What a count names: "have zorblaxitis", "take metformin"."""
_MAX_COUNTS = 5
"""Count lines the answer names; the rest are in the retrieval context."""
COHORT_CITATION = {"source": "medpath-patients", "title": "Synthetic patient records, counted (research consent; no patient named)",
                   "url": "", "id": "cohort"}


def cohort_question(question: str) -> dict[str, Any]:
    """The planner's update for a question about many patients ("how many patients have gout?"), or ``{}``."""
    if not _COHORT.search(question):
        return {}
    return {"intent": Intent.COHORT.value, "goal_types": [], "sources": [], "targets": [], "status": Status.RUNNING,
            "error": ""}


_COUNT_AGAIN = re.compile(r"^(?:and |what about |how about |also )?how many (?:(?P<of>of them |of those |of these )|people |persons )?"
                          r"(?P<rest>(?:(?:don't|don’t|do not|aren't|aren’t|are not|never|haven't|have not|have never)\s+)?(?:have|has|"
                          r"had|take|takes|are on|are taking|on|taking|are diagnosed with|with|without|started|began|were diagnosed with|"
                          r"are|were)\b[^?]*)\??$", re.IGNORECASE)
""""and how many have gout?", "and how many don't have asthma?" after a count: another count over the patients, which
names no one (the negated one was read as a question about asthma)."""


_SHARE_OF_IT = re.compile(r"^(?:and |so |ok,? )?(?:(?:what|which) (?:percentage|percent|proportion|share|fraction|%)(?: of (?:them|"
                          r"patients|all patients|everyone|the total))?(?: (?:is|would be|are) (?:that|this|it|they|those))?|"
                          r"(?:as|in) (?:a )?(?:percentage|percent|proportion|%)|how much is that in percent)[?.!]*$", re.IGNORECASE)
"""The last count's share of its patients asked after it ("what percentage is that?")."""
_TAKERS = re.compile(r"(?:take|takes|are on|are taking|on|taking)\s", re.IGNORECASE)
"""A count of a drug's takers with no one named ("how many are on allopurinol?"): after a count of a condition's
patients, it is asked within them (it counted every patient: "allopurinol: 0 of 38" after "which patients have
gout?"); "how many have asthma?" after a count of a drug's takers is a count of its own."""
_HOW_MANY = re.compile(r"^how many (?P<rest>patients\b[^?]*\??)$", re.IGNORECASE)
_IT = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)
"""The drug of the last count, in "and how many started it this year?"."""
_ANOTHER = re.compile(r"^(?:and|(?:and )?(?:what|how) about|also)(?: (?:for|with|on))? (?P<x>[^?.!]+?)[?.!]*$", re.IGNORECASE)
""""what about hypertension?" after a count: the same count of another condition, or of a drug."""
_KIND = r"(?:medications?|medicines?|meds|drugs?|prescriptions?|conditions?|diagnos[ie]s|diseases?)"
_KIND_AGAIN = re.compile(rf"^(?:and |what about |how about )?(?:the |their )?(?P<k>{_KIND})(?: then)?[?.!]*$", re.IGNORECASE)
""""and medications?" after "what conditions are most common?": the same question of the other kind (it was "How many
patients have medications?", NOT_FOUND)."""
_ONE = {"medications": "medication", "medicines": "medicine", "drugs": "drug", "prescriptions": "prescription",
        "conditions": "condition", "diagnoses": "diagnosis", "diseases": "disease"}
_REFERS = re.compile(r"^(?:it|that|this|them|they|those|these|the (?:first|second|third|last|other)\b.*|in .*|the same.*|"
                     r"(?:the )?(?:men|women|children|kids|adults|elderly|older (?:patients|people)))$", re.IGNORECASE)
"""What no count names: a pronoun, an ordinal, a place or a group of people ("and in women?")."""


_MOST_AMONG = re.compile(r"^(?:and )?(?:which|what) (?:drugs?|medications?|medicines?) (?:is|are) (?:the )?most (?:common|"
                         r"frequent|often taken|prescribed)(?: among (?:them|these|those|these patients|those patients))?\??$|"
                         r"^(?:and )?(?:which|what)(?: drugs?| medications?| medicines?| meds)? (?:do|are) (?:they|these patients|"
                         r"those patients|the patients) (?:take|taking|on|prescribed|given)(?: for (?:it|that|this|them))?\??$", re.IGNORECASE)
""""which drug is most common among them?" or "which drugs do they take?" after a count: the cohort's most common
medications (the second asked what "they" referred to; "what are they taking for it?" after "Which patients have
gout?" was "What are Gout taking for Gout?")."""
_COUNTED = re.compile(r"^(?:how many|which|what) patients (?:have|has|with) (?P<c>[^?]+?)\??$", re.IGNORECASE)
_AMONG = re.compile(r"\bamong patients with (?P<c>[^?]+?)\??$", re.IGNORECASE)
"""The condition of a cohort the last answer listed medications for (asked again: "what medications are they on?")."""


_OTHER_PATIENTS = re.compile(r"\b(how many|which|what number of) other (patients|people)\b", re.IGNORECASE)
"""A count of "other" patients after one patient's record: counted as any count of patients is (it left out "those
already named", the drugs of a list, and was answered with what a drug is connected to)."""
_COUNTS_PATIENTS = re.compile(r"^(?:and )?how many (?:patients|people)\b", re.IGNORECASE)
"""A question that counts patients, where "the same drug" is the record's ("how many patients take the same drug?")."""
_THE_SAME = re.compile(r"\bthe same (?:drug|medication|medicine|med|condition|disease|diagnosis)\b", re.IGNORECASE)


def plain_count(question: str) -> str:
    """"How many patients take it?" for "how many other patients take the same drug?": a count over the patients,
    whose "the same drug" is what "it" would be (it asked what "the same drug" referred to)."""
    text = _OTHER_PATIENTS.sub(r"\1 \2", question)
    return _THE_SAME.sub("it", text) if text != question or _COUNTS_PATIENTS.match(text) else question


def _last_turn(messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The thread's last assistant turn that was read as a question: a refusal ("list them"), small talk or a recap
    in between does not end a run of counts."""
    skipped = ("", Intent.SMALL_TALK.value, Intent.HISTORY.value)
    return next((m for m in reversed(messages) if m.get("role") == "assistant" and m.get("intent") not in skipped), {})


def cohort_followup(question: str, messages: Sequence[dict[str, Any]], linker: Any = None) -> str | None:
    """When the thread's last answer counted patients: "How many patients have gout?" for "and how many have gout?"
    (it was read as "What drugs treat gout?"), and "What is the most common medication among patients with Gout?" for
    "which drug is most common among them?" (it was read as a question about a drug); None otherwise. After a count
    that linked no entity ("diabetes" fits several), "what about gout?" counts gout, or those who take a drug the
    ``linker`` names (it was told what gout is connected to; a count that linked one is resolved as an ellipsis).
    After a count of lab results, "and with gout?" asks it again of the patients with gout (:func:`_lab_again`)."""
    last = _last_turn(messages)
    text = " ".join(question.split())
    if last.get("intent") != Intent.COHORT.value:
        return None
    if (again := _lab_again(text, str(last.get("question", "")), linker)) is not None:  # "and with gout?" after a lab
        return again
    if (both := _within(text, str(last.get("question", "")))) is not None:
        return both
    if _SHARE_OF_IT.match(text) and (m := _HOW_MANY.match(str(last.get("question", "")))) is not None:
        return f"What proportion of {m['rest']}"  # "what percentage is that?" after a count (it was NOT_FOUND)
    if (m := _COUNT_AGAIN.match(text)) is not None:  # "and how many started it this year?": the drug counted last
        counted = str(last.get("question", ""))
        within = _WITH_TAKING.match(counted)  # "… with gout take probenecid?": the drug and the cohort
        taking = _TAKING.match(counted) or within
        cohort = (within or _COUNTED.match(counted)) if m["of"] or _TAKERS.match(m["rest"]) else None  # within it
        rest = _IT.sub(lambda _: taking["d"], m["rest"].strip()) if taking else m["rest"].strip()
        return f"How many patients{' with ' + cohort['c'] if cohort else ''} {rest}?"
    if (again := _diagnosed_again(text, str(last.get("question", "")), linker)) is not None:  # "and with asthma?"
        return again
    if (kind := _other_kind(text, str(last.get("question", "")))) is not None:  # "and medications?"
        return kind
    if not (last.get("drug") or last.get("disease")) and (m := _ANOTHER.match(text)) is not None and not _REFERS.match(m["x"]):
        best = linker.link(m["x"]).best if linker is not None else None
        return f"How many patients {'take' if best is not None and best.type in DRUG_TYPES else 'have'} {m['x']}?"
    if (m := _THEIR_AVERAGE.match(text)) is not None:  # "what's their average HbA1c?" after a count
        return f"What is the {m['stat'].casefold()} {m['lab']} of {_counted_as(str(last.get('question', '')))}?"
    if _MOST_AMONG.match(text):
        counted = _COUNTED.match(str(last.get("question", ""))) or _AMONG.search(str(last.get("question", "")))
        return f"What is the most common medication among patients{f' with {counted[1]}' if counted else ''}?"
    return None


def _other_kind(text: str, counted: str) -> str | None:
    """The last question, a count of the most common medications or conditions, asked of the kind ``text`` names."""
    m, was = _KIND_AGAIN.match(text), re.search(rf"\b{_KIND}\b", counted, re.IGNORECASE)
    if m is None or was is None or not re.search(rf"\b(?:{_MOST}|top\b)", counted, re.IGNORECASE):
        return None
    word = m["k"].casefold()
    word = _ONE.get(word, word) if was[0].casefold() in _ONE.values() else word  # "the most common medication": one
    return f"{counted[:was.start()]}{word}{counted[was.end():]}"


_DIAGNOSED_WITH = re.compile(r"\bdiagnosed with (?P<c>.+?)(?= (?:in|since|before|after|during|over|within|for|last|this)\b|\s*\??$)",
                             re.IGNORECASE)
"""The condition of a count of diagnoses ("How many patients were diagnosed with gout in the last 5 years?")."""


def _diagnosed_again(text: str, counted: str, linker: Any) -> str | None:
    """The last count of diagnoses asked again of another condition ("and with asthma?" after "How many patients were
    diagnosed with gout in the last 5 years?" was "How many patients have Asthma?", every patient with asthma whenever
    diagnosed); None when ``text`` names no other condition or the last count was not of diagnoses."""
    m, d = _ANOTHER.match(text), _DIAGNOSED_WITH.search(counted)
    if m is None or d is None or _REFERS.match(m["x"]):
        return None
    best = linker.link(m["x"]).best if linker is not None else None
    if best is not None and best.type in DRUG_TYPES:  # "and with metformin?": not a diagnosis
        return None
    return counted[: d.start("c")] + m["x"] + counted[d.end("c"):]


_LAB_COUNT = re.compile(r"^how many (?:patients|people) (?:(?P<who>with|on|taking|who take) (?P<whom>[^?]+?) )?(?P<rest>(?:had|have|has)\b"
                        r"[^?]*?(?:(?:\b(?:above|over|below|under|greater than|less than|more than|fewer than|at least)|[<>]=?)\s*\d"
                        r"|\b(?:tests?|results?|measured|readings?)\b)[^?]*?)\??$", re.IGNORECASE)
"""A count of lab results ("How many patients had an HbA1c above 7 this year?"): what follows "patients" from the verb
on, the lab, its threshold or tally and the stretch of time; and the patients it was asked of, if it named them."""
_THOSE = re.compile(r"^(?:and |but |what about |how about )?(?:(?:among|of|for|in) )?(?:those|them|these|the ones|(?:the )?"
                    rf"{_PEOPLE})(?: who(?: are)?)? (?P<how>with|having|have|has|on|taking|take|takes|using|are on|are taking) "
                    r"(?P<x>[^?.!]+?)[?.!]*$", re.IGNORECASE)
""""and among those taking allopurinol?", "what about patients with gout?": the patients a count is asked of."""
_BARE = re.compile(r"^(?:and|(?:and )?(?:what|how) about|also) (?P<how>with|on|taking|for) (?P<x>[^?.!]+?)[?.!]*$", re.IGNORECASE)
""""and with gout?", "what about on probenecid?": the patients a count is asked of, with no word for them."""
_TAKE_WORDS = ("on", "taking", "take", "takes", "using", "are on", "are taking")


def _lab_again(text: str, counted: str, linker: Any) -> str | None:
    """The last count of lab results asked again of the patients ``text`` names ("and with gout?" after "How many
    patients had an HbA1c above 7 this year?" was "How many patients have gout?", the lab and the year dropped; "and
    among those taking allopurinol?" was "How many patients take among those taking allopurinol?"). None when the last
    count was not of lab results, or ``text`` names no condition or drug the ``linker`` knows."""
    lab = _LAB_COUNT.match(counted)
    if lab is None:
        return None
    if (other := _ANOTHER.match(text)) is not None and lab_named(other["x"]):  # "and LDL?": the other lab, measured
        when = window(lab["rest"], date.today())  # then (its threshold was the first lab's)
        whom = f"{lab['who']} {lab['whom']} " if lab["whom"] else ""
        return f"How many patients {whom}had {other['x']} results{f' {when.words}' if when and when.words else ''}?"
    m = _THOSE.match(text) or _BARE.match(text)
    if m is None or _REFERS.match(m["x"]):
        return None
    best = linker.link(m["x"]).best if linker is not None else None
    if best is None or best.type not in (*DRUG_TYPES, *DISEASE_TYPES):
        return None
    x, how = m["x"], m["how"].casefold()
    taking = how in _TAKE_WORDS or (how == "for" and best.type in DRUG_TYPES)
    whom = f"{'taking' if taking else 'with'} {x}"
    if m.re is _THOSE and lab["whom"]:  # "among those …": within the patients the count was asked of
        took = lab["who"].casefold() != "with"
        whom = (f"taking {lab['whom']} and {x}" if took else f"with {lab['whom']} taking {x}") if taking else \
            (f"with {x} taking {lab['whom']}" if took else f"with {lab['whom']} and {x}")
    return f"How many patients {whom} {lab['rest']}?"


_THEIR_AVERAGE = re.compile(r"^(?:and |so )?(?:what(?:'s|’s| is| was| are)|tell me|give me) (?:their|the|the patients'|"
                            r"these patients'|those patients') (?P<stat>average|mean|median) (?P<lab>(?:(?!\b(?:of|for|among|in|with|on) (?:the |our |all )?"
                            rf"{_PEOPLE}\b)[^?.!])+?)"
                            r"(?: (?:of|for|among|in) (?:them|these patients|those patients|the cohort))?[?.!]*$", re.IGNORECASE)
""""what's their average HbA1c?" after a count: that lab's average over the patients the count counted (it was
NOT_FOUND, "their average HbA1c" is not in the knowledge graph). A question that names its own patients ("… of patients
with type 2 diabetes") is its own cohort (it was asked of the last count's patients too)."""


def _counted_as(question: str) -> str:
    """The patients a count asked about, as words after "of" ("patients with Gout", "patients taking Metformin")."""
    if m := _TAKING.match(question):
        return f"patients taking {m['d']}"
    counted = _COUNTED.match(question) or _AMONG.search(question)
    if counted is None and (m := _OF_PATIENTS.search(question)):  # "the average HbA1c of patients on metformin"
        return f"patients {'with' if m['how'].casefold() == 'with' else 'taking'} {m['x']}"
    return f"patients with {counted['c']}" if counted else "patients"


_OF_PATIENTS = re.compile(rf"\b(?:of|among|in|for) (?:the |all )?{_PEOPLE} (?P<how>with|on|taking|who take) (?P<x>[^?]+?)\??$",
                          re.IGNORECASE)
"""The patients a statistic was asked of, when it named them ("… of patients on metformin")."""


_OF_THEM = re.compile(r"^(?:and )?(?:which|how many)(?: of them| of these| of those| of these patients| of those patients)"
                      r"(?: also)? (?:(?P<have>have|has|are diagnosed with)|(?P<take>take|takes|are on|are taking)) "
                      r"(?P<x>[^?]+?)\??$", re.IGNORECASE)
""""which of them also have hypertension?" after "How many patients take metformin?": a count within the last one."""
_TAKING = re.compile(r"^how many patients (?:take|takes|are on|are taking) (?P<d>[^?]+?)\??$", re.IGNORECASE)
_WITH_TAKING = re.compile(r"^how many patients with (?P<c>.+?) (?:take|takes|are on|are taking) (?P<d>[^?]+?)\??$", re.IGNORECASE)
"""A count of a drug's takers within a cohort ("How many patients with gout take probenecid?"): "how many of them
started it this year?" keeps both (it was "How many patients started it this year?")."""
_NAME_THEM = re.compile(r"^(?:and |ok,? |so )?(?:(?:can you |please )?(?:list|name|show(?: me)?|give me)(?: the names of)? (?:them|those|"
                        r"these|the patients|those patients|these patients)|who (?:are|were) (?:they|those patients|these patients)|"
                        r"which patients (?:are|were) (?:they|those|these))(?: please)?[?.!]*$", re.IGNORECASE)
"""A request to name the patients a count counted ("list them"): it was read as "List Gout?" and answered with drugs."""


def _within(text: str, counted: str) -> str | None:
    """The count of the last count's patients who also have a condition or take a drug ("How many patients with
    hypertension take Metformin?"); None when ``text`` asks no such thing, or the last count names neither."""
    if (m := _OF_THEM.match(text)) is not None:
        take, x = bool(m["take"]), m["x"]
    elif (m := _THOSE.match(text)) is not None:  # "and among those taking metformin?"
        take, x = m["how"].casefold() in _TAKE_WORDS, m["x"]
    else:
        return None
    taking, having = _TAKING.match(counted), _COUNTED.match(counted) or _AMONG.search(counted)  # or their medications
    if not take and taking:
        return f"How many patients with {x} take {taking['d']}?"
    if take and having:
        return f"How many patients with {having['c']} take {x}?"
    if not take and having:  # "which of them also have migraine?" after a count of depression (it was asked of the disease)
        return f"How many patients with {having['c']} also have {x}?"
    if m.re is _OF_THEM and not (taking or having):  # after a count of every patient ("what's the most common
        return f"How many patients {'take' if take else 'have'} {x}?"  # condition?"): it was a question about the drug
    return None


def cohort_refusal(question: str, messages: Sequence[dict[str, Any]]) -> str:
    """Why a request to name the patients the thread's last count counted is refused, or "" for any other question."""
    last = _last_turn(messages)
    if last.get("intent") != Intent.COHORT.value or not _NAME_THEM.match(" ".join(question.split())):
        return ""
    return "an answer about many patients counts them and names none; ask about one patient by id, where your access allows"


def in_scope(scope: list[str] | None) -> Any:
    """The test of whether a patient may be counted: ``None`` counts everyone (a local caller, or an admin; "*" too)."""
    if scope is None or "*" in scope:
        return None
    allowed = frozenset(scope)
    return allowed.__contains__


def _told(c: CohortCount) -> str:
    """One count within the cohort ("Metformin: 4 of 12 patients"), or a lab's average over it ("HbA1c, mean of the
    latest results: 7.1 % (9 of 12 patients measured)")."""
    if c.absent or c.tally:  # "How many patients are not on metformin?", "… take more than 3 medications?"
        what = (f"{'Taking' if c.kind == 'medication' else 'With'} {c.name}" if c.tally else f"No {c.kind} recorded"
                if c.name == f"any {c.kind}" else f"Not taking {c.name}" if c.kind == "medication" else f"No {c.name} result"
                if c.kind == "lab" else f"Without {c.name}")
        others = "other's" if c.unknown == 1 else "others'"
        unread = f" whose {c.kind}s may be read ({c.unknown} {others} may not)" if c.unknown else ""
        return f"{what}: {c.count} of {c.size - c.unknown} patients{unread}"
    if not c.statistic:  # among those whose records of its kind may be read (:func:`_unread`)
        return f"{c.name}: {c.count} of {c.size - c.unknown} patients"
    if c.value is None:  # a few patients' results would point at them
        return (f"{c.name}, {c.statistic} of the latest results: not reported, {c.count} of {c.size} patients measured "
                f"(fewer than {MIN_COHORT})")
    return f"{c.name}, {c.statistic} of the latest results: {f'{c.value:g} {c.unit}'.rstrip()} ({c.count} of {c.size} patients measured)"


def _unread(counts: Sequence[CohortCount]) -> str:
    """Whose records of a counted kind may not be read, said once after the plain count lines (each is among the
    others: "Citric acid: 4 of 38 patients"); a tally or an absence says it in its own line."""
    unread = {c.kind: (c.unknown, c.size) for c in counts if c.unknown and not (c.absent or c.tally or c.statistic)}
    return "".join(f" {n} of the {size} patients {'does' if n == 1 else 'do'} not allow their {kind}s to be read; the {kind} "
                   f"counts are of the other {size - n}." for kind, (n, size) in sorted(unread.items()))


def _when(head: CohortCount) -> str:
    """What a count kept to the stretch of time its question names ("last year"), or that it kept to none: it read
    the latest results and every recorded diagnosis whatever the question said of time."""
    if head.dated:
        return f" Only {head.dated} were counted."
    if head.undated:
        return not_applied(head.undated, counted=True)
    return ""


_SHARE = re.compile(r"\b(?:proportion|percentage|percent|share|fraction|ratio)\b|%", re.IGNORECASE)
"""A question that asks what share of the patients a cohort is: the answer gives it beside the count (it gave the count
alone)."""


def cohort_answer(state: State) -> dict[str, Any]:
    """The counts the aggregation returned (``RetrievalResult.cohort_counts``, typed), as a sentence; a count of no
    patient is never a name of one."""
    hybrid = state.hybrid or {}
    if hybrid.get("error"):
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {hybrid['error']}.", "error": hybrid["error"]}
    counts = [CohortCount(**c) for c in hybrid.get("cohort_counts", [])]
    head = next((c for c in counts if not c.kind), None)
    if head is None:
        reason = "the patient records hold no cohort for this question"
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {reason}.", "error": reason}
    if head.unrecorded:  # "How many patients with tuberculosis take isoniazid?" counted every patient
        near = f"; they hold {head.nearest}" if head.nearest else ""
        reason = f"\"{head.unrecorded}\" names no condition, medication or lab of the patient records{near}"
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {reason}.", "error": reason}
    named = _NAMED.search(state.asked)  # the store breaks the count down by condition only when it matched no name
    if named and not head.cohort and any(c.kind == "condition" and not (c.absent or c.tally) for c in counts):  # "… have migraine?"
        reason = f"\"{named['what'].strip()}\" names no condition, medication or lab of the patient records"
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {reason}.", "error": reason}
    share = bool(_SHARE.search(state.asked))
    lines = [c for c in counts if c.kind][:_MAX_COUNTS]
    told = [_told(c) + (f" ({100 * c.count / (c.size - c.unknown):.0f} %)" if share and c.size > c.unknown and not c.statistic else "")
            for c in lines]
    size = f"too few to report (fewer than {MIN_COHORT})" if head.too_few else str(head.size)
    if share and not head.too_few and head.of_all and (head.cohort or head.taking):
        size += f" of {head.of_all} ({100 * head.size / head.of_all:.0f} %)"  # "what proportion of patients have asthma?"
    cohort = (f"patients{f' with {head.cohort}' if head.cohort else ''}{f' without {head.without}' if head.without else ''}"
              f"{f' taking {head.taking}' if head.taking else ''}"
              f" (research consent): {size}")
    answer = f"P{cohort[1:]}." + (" Of them: " + "; ".join(told) + "." + _unread(lines) if told else "") + _when(head)
    if (lacking := not_recorded(state.asked)) in ("age", "sex"):  # "how many patients are older than 60?" counted them all
        answer = f"The patient records hold conditions, medications and labs, not {lacking}. What they hold: {answer}"
    withheld = int(hybrid.get("consent_filtered_count", 0))
    if withheld:
        answer += f" {withheld} recorded facts of patients who do not allow research use were left out."
    answer += " Counts only: no patient is named in an answer about many patients."
    return {"status": Status.ANSWERED, "answer": answer, "evidence": [], "evidence_text": "; ".join([f"Cohort: {cohort}", *told]),
            "citations": [COHORT_CITATION]}
