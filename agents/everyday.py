"""Everyday words for what drugs do, read as the graph's terms before a question's rules: "thins the blood", "works as a
blood thinner" (prevents blood clots), "blood-thinning effect" (effect on blood clots), "painkillers" (drugs for pain),
"sleeping pills" (drugs for insomnia), "helps you sleep" (helps with insomnia), "quit smoking" (nicotine dependence),
"help you lose weight" and "for weight loss" (help with, for obesity; "does metformin help you lose weight?" was
NOT_FOUND, '"you lose weight" is not in the knowledge graph'), "how much does X lower Y" (how it does), "drugs for Y
that don't cause cough" (the drugs for Y), "keep you awake" (how the drug works), "explain how X kills Y" (how does X
kill Y). "cause weight loss" is left as written: it asks about an effect, not a treatment."""

from __future__ import annotations

import re

from agents.scope import EFFECTIVE_ASKED, HOW_MUCH_ASKED, NOT_CAUSING, NOT_WORKING

__all__ = ["everyday", "same_of_two", "why_not"]

_THINS = re.compile(r"\bthin(?P<s>s)? (?:the |your |my |his |her |their )?blood\b", re.IGNORECASE)
""""How does aspirin thin the blood?": how it prevents blood clots (it linked Blood and found no chain)."""
_FOR = (("pain", r"pain[- ]?killers?|pain relievers?|pain (?:meds|medications?|medicines?|pills?|tablets?)|analgesics?"),
        ("insomnia", r"sleeping (?:pills?|tablets?)|sleep (?:aids?|meds|medications?|medicines?)"))
"""Remedies named by what they treat ("the best painkiller"), each with that disease's name."""
_THINNING = re.compile(r"\bblood[- ]thinning (?:effects?|actions?|properties|activity)\b", re.IGNORECASE)
""""aspirin's blood-thinning effect": its effect on blood clots (it linked Blood and found no chain)."""
_AS_THINNER = re.compile(r"\b(?P<v>work|act)(?P<s>s?) as an? (?:blood[- ]thinner|anticoagulant|antiplatelet(?: drug| agent)?)\b",
                         re.IGNORECASE)
""""how does aspirin work as a blood thinner?": how it prevents blood clots."""
_HELPS = r"(?P<v>helps?|helping)(?: (?:you|me|us|him|her|them|people|patients|someone))?(?: to)?"
"""A verb of helping and whom: "helps you", "help people to"."""
_LOSE = re.compile(rf"\b{_HELPS} (?:lose|losing) weight\b", re.IGNORECASE)
""""does metformin help you lose weight?": whether it helps with obesity."""
_SLEEP = re.compile(rf"\b{_HELPS} (?:sleep|fall asleep)\b", re.IGNORECASE)
""""what drug helps you sleep?": the drugs for insomnia (it read "you sleep" as Sleep, and listed modafinil)."""
_QUIT = re.compile(rf"\b(?:{_HELPS} )?(?:quit|quitting|stop|stopping|give up|giving up) smoking\b|\bsmoking cessation\b",
                   re.IGNORECASE)
""""what helps quit smoking?", "how does varenicline help you stop smoking?": nicotine dependence (a lay term would
read "smoking" alone as it too, by its spelling: "does smoking cause cancer?")."""
_EFFECTIVE = re.compile(EFFECTIVE_ASKED, re.IGNORECASE)
""""Is imatinib effective?": what it treats (it read "effective" as Bipolar disorder, by "affective"); how well it works
is what ``agents.scope`` says the graph does not hold."""
_FOR_LOSS = re.compile(r"\b(?P<p>for|with|in|treats?|treating) weight loss\b", re.IGNORECASE)
""""the best drugs for weight loss": the drugs for obesity; so is "How does metformin treat weight loss?", what "and for
weight loss?" after how metformin treats a disease is asked as (it was `NOT_FOUND`)."""
_AND_LOSS = re.compile(r"\b(?P<p>(?:for|treats?|treating|help(?:s|ing)? with)\s+(?:both\s+)?[^?.!,;]{1,40}?\s+(?:and|or))\s+"
                       r"weight loss\b", re.IGNORECASE)
""""What drugs treat both diabetes and weight loss?": diabetes and obesity (it was `NOT_FOUND`, "both diabetes and weight
loss" is not in the knowledge graph)."""
_HOW_MUCH = re.compile(rf"^{HOW_MUCH_ASKED}", re.IGNORECASE)
""""how much does atorvastatin lower LDL?": how it lowers it (it told what atorvastatin is connected to); how much is
an effect size, which ``agents.scope`` says the graph does not hold."""
_HOW_STRONG = re.compile(r"^(?:how (?:strong|big|large|potent|powerful|great) (?:is|are)|what is the size of) (?:the |its )?effects? "
                         r"of (?P<x>.+?) on (?P<y>.+)$", re.IGNORECASE)
""""how strong is the effect of metformin on blood sugar?": how metformin affects it."""
_NOT_CAUSING = rf"(?:that |which )?{NOT_CAUSING}(?: (?:a|an|any|the))?(?: [\w-]+){{1,2}}(?=\s*[?.!]*$)"
_SPARING = re.compile(rf"^(?:which|what) (?!(?:other|the|these|those|such|any|some)\b)(?P<d>.+?) (?:drugs|medications|medicines|"
                      rf"meds|pills|treatments) {_NOT_CAUSING}", re.IGNORECASE)
""""Which blood pressure drugs don't cause cough?": the drugs for the disease (it looked for a chain from Blood pressure
to Cough); what a drug causes is a side effect, which ``agents.scope`` says the graph does not hold."""
_SPARING_FOR = re.compile(rf" (?=(?:that|which) ){_NOT_CAUSING}", re.IGNORECASE)
_APPROVED = re.compile(r"\s+(?:that |which )?(?:were|was|have been|has been|got) (?:fda[- ]|ema[- ])?(?:approved|introduced|"
                       r"launched|released)\b(?:\s+(?:last|this|in|since|before|after|recently|lately|(?:in|over|during) "
                       r"the (?:last|past))\b[^?.!]*)?(?=[?.!]*$)", re.IGNORECASE)
""""What drugs for diabetes were approved last year?": the drugs for diabetes, after ``agents.scope``'s note that the
graph does not hold approvals (it was `NOT_FOUND`, "diabetes were approved last year" read as the disease)."""
""""the drugs for high blood pressure that don't cause cough": the drugs for it ("that don't cause cough" was read into
the disease's name)."""
_WHY_NOT = re.compile(rf"^{NOT_WORKING} (?P<x>.+?) (?:(?:be )?used (?:for|to treat|against)|work (?:on|for|against|in)|treat|"
                      r"help(?: with)?|cure|prevent|act on|kill) (?P<y>.+?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Why don't antibiotics work on viruses?", "why doesn't aspirin treat gout?": how they act on it (it told what Viruses
is connected to); why a drug does not work is what ``agents.scope`` says the graph does not hold, and a chain, or none,
is what it does."""
_BOTH_DO = re.compile(r"\s+both(?= (?:treat|target|act on|work on|inhibit|block|help(?: with)?|cure|prevent)\b)", re.IGNORECASE)
""""What do imatinib and dasatinib both treat?": what each treats (it read "imatinib and dasatinib both" as a name)."""
_SAME_USES = re.compile(r"^(?:do|does) (?P<x>\S.*? and \S.*?) (?:treat|cure|help(?: with)?) (?:the )?same (?:diseases?|conditions?|"
                        r"things?|illness(?:es)?|indications?|disorders?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Do imatinib and dasatinib treat the same diseases?": what each treats ("same diseases" was looked up as a name; "…
the same disease?" asked what "the same disease" referred to)."""
_SAME_TARGET = re.compile(r"^(?:do|does) (?P<x>\S.*? and \S.*?) (?:have|share|act on|hit|target|bind(?: to)?|work on|"
                          r"inhibit|block) (?:the )?same (?:targets?|proteins?|receptors?|enzymes?)(?P<end>[?.!]*)$",
                          re.IGNORECASE)
""""Do aspirin and ibuprofen hit the same target?": whether they share one (it asked what "the same target" referred
to; "… act on the same targets?" was NOT_FOUND, "same targets" looked up as a name)."""
_AWAKE = re.compile(r"^how (?P<aux>does|do) (?P<x>\S.*?) keep (?:you|me|us|people|him|her|them) (?:awake|alert|up)(?P<end>[?.!]*)$",
                    re.IGNORECASE)
""""How does caffeine keep you awake?": how it works, what it acts on (it told what caffeine is connected to, a leukemia
among them); staying awake is an effect, not a disease the graph's mechanisms end at."""
_TELL_HOW = re.compile(r"^(?:(?:please |can you |could you )?(?:explain|tell me|describe|show me)(?: to me)? )?how "
                       r"(?!(?:many|much|long|often|soon|fast|quickly|well|far|exactly|come|to|do|does|did|is|are|was|were|can|could|will|"
                       r"would|should|might|may|must|has|have|had)\b)(?P<x>[^?]+?) "
                       r"(?P<v>kill|treat|lower|reduce|prevent|cure|help|fight|block|inhibit|stop|relieve|work)(?P<s>s?)\b"
                       r"(?P<rest>.*?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Explain how penicillin kills bacteria" (or what is left of it, "how penicillin kills bacteria"): "How does penicillin
kill bacteria?" (it told what Bacteria is connected to: the scan of a sentence finds a drug's name, not a class's)."""
_DRUGS_HOW = re.compile(r"^how (?:do|can|does|would|could) (?:drugs|medications|medicines|meds|treatments|doctors) "
                        r"(?P<v>lower|treat|help(?: with)?|reduce|cure|prevent)(?P<y> \S.*?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""How do drugs lower it?" after "What causes gout?": the drugs for it, each with its mechanism (it was NOT_FOUND,
'"drugs" is not in the knowledge graph')."""
_REMEDY_FOR = re.compile("|".join(f"(?P<r{i}>\\b(?:{rx})\\b)" for i, (_, rx) in enumerate(_FOR)), re.IGNORECASE)


def _for(m: re.Match[str]) -> str:
    """"drugs for pain" for a plural ("painkillers", "pain meds"), "drug for pain" for one ("a painkiller")."""
    noun = "drugs" if m.group(0).casefold().endswith("s") else "drug"
    return f"{noun} for {_FOR[int(m.lastgroup[1:])][0]}"  # type: ignore[index]


_WHY_IS_NOT = re.compile(r"^why (?P<aux>is|are|does|do) (?P<x>.+?) not (?:(?:be )?used (?:for|to treat|against|in)|work (?:on|for|"
                         r"against|in)|treat|help(?: with)?|cure|prevent|act on|kill) (?P<y>.+?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Why is colchicine not used for hyperuricemia?", the negation after the drug: read "colchicine not" as colchicine and
was `NOT_FOUND` (:data:`_WHY_NOT` reads "why isn't colchicine used …")."""


def why_not(question: str) -> str:
    """"Why don't antibiotics work on viruses?" → "How do antibiotics treat viruses?" (:data:`_WHY_NOT`); asked before
    the thread is read, so that a class it names is not taken for a new disease of the thread's drug ("How does
    warfarin act on Viruses?")."""
    q = _WHY_IS_NOT.sub(lambda m: f"How {'do' if m['aux'].casefold() in ('are', 'do') else 'does'} {m['x']} treat "
                                  f"{m['y']}{m['end']}", question)
    return _WHY_NOT.sub(lambda m: f"How {_do(m[0])} {m['x']} treat {m['y']}{m['end']}", q)


_SAME_AS = re.compile(r"^(?:do|does) (?P<x>\S.*?) (?P<v>have|share|act on|hit|target|bind(?: to)?|work on|treat|cure) "
                      r"(?:the )?same (?P<n>targets?|proteins?|receptors?|enzymes?|diseases?|conditions?|things?|"
                      r"indications?) as (?P<y>\S.*?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Does aspirin have the same target as ibuprofen?", "does omeprazole treat the same diseases as ranitidine?": both
named first, as :data:`_SAME_TARGET` and :data:`_SAME_USES` read them (it looked for a chain from aspirin to
ibuprofen)."""


_ON_THE_ORGAN = re.compile(r"\b(?:(?P<good>easier|gentler|kinder)|harder|tougher|rougher) (?:on|to) (?:the |your |my |his |her )?"
                           r"(?:stomach|kidneys?|liver|heart|gut)(?= than\b)", re.IGNORECASE)
""""Is celecoxib easier on the stomach than ibuprofen?" is whether it is better tolerated: the organ was read as a third
name to compare (Gastric Acid)."""


def same_of_two(question: str) -> str:
    """"Do X and Y treat the same disease?" → "What do X and Y treat?" (:data:`_SAME_USES`); "do X and Y hit the same
    target?" → "Do X and Y share a target?" (:data:`_SAME_TARGET`); "is X easier on the stomach than Y?" → "is X
    better tolerated than Y?" (:data:`_ON_THE_ORGAN`). Asked before the thread is read: "the same
    target" of two named drugs is what they share, not a reference to an earlier turn."""
    q = _ON_THE_ORGAN.sub(lambda m: "better tolerated" if m["good"] else "worse tolerated", question)
    q = _SAME_AS.sub(lambda m: f"Do {m['x']} and {m['y']} {m['v']} the same {m['n']}{m['end']}", q)
    q = _SAME_TARGET.sub(r"Do \g<x> share a target\g<end>", q)
    return _SAME_USES.sub(r"What do \g<x> treat\g<end>", q)


def _do(words: str) -> str:
    """"do" for "why don't antibiotics …", "does" for "why doesn't aspirin …"."""
    return "do" if re.match(r"why (?:don|do not|aren|are not)", words, re.IGNORECASE) else "does"


def _asked_how(m: re.Match[str]) -> str:
    """"How does penicillin kill bacteria?" for :data:`_TELL_HOW` ("do" for a plural verb: "how statins lower …")."""
    return f"How {'does' if m['s'] else 'do'} {m['x']} {m['v'].casefold()}{m['rest']}{m['end']}"


_THERE_ARE = re.compile(r"^(?:which|what) (?P<d>(?!(?:other|the|these|those|such|any|some|new|newer|latest|common|best|good|"
                        r"different|kinds?|types?|sorts?)\b)[\w' -]+?) (?P<n>drugs|medications|medicines|meds|treatments|therapies) "
                        r"(?:are there|exist|are available|are out there)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Which diabetes drugs are there?" is "What are some diabetes drugs?", which asks which diabetes (it was `NOT_FOUND`,
"no known entity in the question": no rule read it, and the free-text scan drops a name that fits several)."""


_BESIDES_FIRST = re.compile(r"^(?P<w>(?:what|which)(?: other)? (?:drugs?|medications?|medicines?|meds|pills|treatments?|"
                            r"options?|ones?)) (?P<b>besides|other than|apart from|aside from|except(?: for)?) (?P<x>[^?]+?) "
                            r"(?P<v>(?:(?:can|could|will|would|also|do|does) )?(?:treat|help(?: with)?|work (?:for|on)|cure|"
                            r"(?:is|are) (?:used|prescribed|given) (?:for|to treat))) (?P<y>[^?]+?)(?P<end>[?.!]*)$",
                            re.IGNORECASE)
""""What drugs besides allopurinol treat gout?": what leaves a drug out, said before the verb, said after the disease,
where the planner reads it (``agents.planner._besides``); it listed allopurinol third, the words dropped."""


_WANTS_ON = re.compile(r"^why (?:does|did|would|is|has) (?:my|the|his|her|our|their) (?:doctor|gp|physician|cardiologist|"
                       r"psychiatrist|nurse|pharmacist|specialist)(?:s)? (?:want|wants|wanted|have|has|had|put|putting|keep|"
                       r"keeping|prescribe|prescribing|start|starting)(?: (?:me|him|her|us|them|my \w+))?(?: to be| to stay)? "
                       r"on (?:a |an |the )?(?P<x>[^?.!]+?)(?P<end>[?.!]*)$", re.IGNORECASE)
""""Why does my doctor want me on a statin?": what the drug is used for (it was `NOT_FOUND`, '"my", "doctor want me on a
statin" are not in the knowledge graph')."""


_EMPTY_STOMACH = re.compile(r"\s+(?:on|with) an? empty stomach\b", re.IGNORECASE)
"""When a drug is taken, which the graph does not hold ("should I take levothyroxine on an empty stomach?" looked for a
chain to the stomach)."""


def everyday(question: str) -> str:
    """The question with its everyday words for what drugs do in the graph's terms: "What is the best painkiller?" →
    "What is the best drug for pain?" (it was NOT_FOUND, '"the best painkiller" is not in the knowledge graph'),
    "does aspirin thin the blood?" → "does aspirin prevent blood clots?"."""
    q = _DRUGS_HOW.sub(lambda m: f"What drugs {m['v'].casefold()}{m['y']}{m['end']}", question)
    q = _BESIDES_FIRST.sub(r"\g<w> \g<v> \g<y> \g<b> \g<x>\g<end>", q)
    q = _WANTS_ON.sub(r"What is \g<x> used for\g<end>", q)
    q = _THERE_ARE.sub(r"What are some \g<d> \g<n>\g<end>", q)
    q = _HOW_MUCH.sub("how ", _HOW_STRONG.sub(r"how does \g<x> affect \g<y>", why_not(_TELL_HOW.sub(_asked_how, _AWAKE.sub(r"How \g<aux> \g<x> work\g<end>", q)))))
    q = _BOTH_DO.sub("", same_of_two(q))
    q = _APPROVED.sub("", _SPARING_FOR.sub("", _SPARING.sub(r"What are the \g<d> drugs", q)))
    q = _THINS.sub(lambda m: f"prevent{m['s'] or ''} blood clots", q)
    q = _AS_THINNER.sub(lambda m: f"prevent{m['s']} blood clots", _THINNING.sub("effect on blood clots", q))
    q = _FOR_LOSS.sub(lambda m: f"{m['p']} obesity", _LOSE.sub(lambda m: f"{m['v']} with obesity", q))
    q = _AND_LOSS.sub(lambda m: f"{m['p']} obesity", q)
    q = _SLEEP.sub(lambda m: f"{m['v']} with insomnia", _EFFECTIVE.sub(lambda m: f"What does {m['x'] or m['d']} treat", q))
    q = _QUIT.sub(lambda m: f"{m['v']} with nicotine dependence" if m["v"] else "nicotine dependence", q)
    return _REMEDY_FOR.sub(_for, _EMPTY_STOMACH.sub("", q))
