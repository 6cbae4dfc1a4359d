"""Question intent and mention spans, by ordered regular-expression rules."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from agents.everyday import everyday
from agents.scope import COMPARING, RANKING_DRUGS, RELATING, SET_AGAINST, out_of_scope
from agents.signs import COURSE_RULES, SIGN_RULES
from agents.state import Intent
from agents.via import with_via
from agents.wording import plain_wording

__all__ = [
    "CAUSING", "COMPARING", "LOWERED", "MECHANISM_WORD", "RANKING_DRUGS", "REFERENCE", "RELATING",
    "REMEDIES_ALONE", "SET_AGAINST", "SLOT_TYPES", "TEMPLATES", "ParsedQuestion", "both_listed",
    "class_request", "out_of_scope", "parse_question", "parse_with_reference", "split_listed",
]

_X, _Y = r"(?P<x>.+?)", r"(?P<y>.+?)"
_T = r"(?P<t>.+?)"
"""The second name as a protein ("does imatinib inhibit ABL1?"): ``ParsedQuestion.y_slot`` is "target"."""
_ACTS_ON = r"(?:inhibit|block|bind(?: to)?|target|activate|act on|antagoni[sz]e|agoni[sz]e|stimulate|suppress)s?"
"""Verbs of a drug acting on a protein."""
_HOW_BOUND = r"(?:(?:ir)?reversibly|covalently|selectively|tightly)"
"""How a drug binds, said beside the verb ("does aspirin bind irreversibly to COX-1?" read "irreversibly to COX-1" as
the target's name): the graph does not hold it (``agents.scope``), and the question is how the drug acts on the target."""
_VERB_TREAT = (
    r"(?:treat|treats|help(?:s)?(?: to)? (?:prevent|reduce|lower|relieve|control|manage|fight|ease|stop|slow|heal|clear)|"
    r"help(?:s)?(?: with| in| treat)?|work(?:s)? (?:in|for|against|on)|act(?:s)? (?:in|on|against)|"
    r"prevent|prevents|cure|cures|relieve|relieves|alleviate|alleviates|manage|manages|improve|improves|"
    r"reduce|reduces|lower|lowers|control|controls|ameliorate|ameliorates|affect|affects|fight|fights|combat|combats|"
    r"kill|kills|eradicate|eradicates|destroy|destroys|clear|clears|stop|stops|slow|slows|heal|heals|ease|eases|protects?(?: against)?|"
    r"benefit|benefits|reverse|reverses|counteract|counteracts|dissolve|dissolves|break up|breaks up)"
)
_AGENT = r"(?: drugs?| medications?| medicines?| meds| compounds?| agents?| therap(?:y|ies)| treatments?| pills?)"
"""The noun of a "which drug" question."""
_NOT_PRONOUN = r"(?!(?:it|its|this|that|they|them|these|those)\b)"
"""Not a pronoun: "how does it work?" is left to the follow-up resolver."""
_ACTION = r"(?:mechanisms?(?: of action)?|moa|mode of action|role|action|pathway)"
"""What a mechanism question asks for: "the mechanism of X in Y", "X's role in Y"."""
MECHANISM_WORD = re.compile(r"\b(?:mechanisms?|moa|mode of action|pharmacodynamics?)\b", re.IGNORECASE)
"""A word for how a drug acts, in a question no rule parsed ("imatinib mechanism of action", "MOA: metformin")."""
_YES_NO_SUBJECT = r"(?!(?:there|you|i|we|they|people|someone|it|this|that|these|those|anything|something|any)\b)"
"""Not a subject that is no drug: "is there a drug for Y?" asks what treats Y, "why do people get Y?" what causes
it; "does it …" is a follow-up's."""
_WHICH_DRUG = (rf"(?:what|which)(?: else)?(?: (?P<c>[\w-]+(?: [\w-]+){{0,2}}"
               rf"(?: (?:used|prescribed|given|taken) (?:for|in|against)(?: [\w'-]+){{1,3}})?))?{_AGENT}?")
"""The opening of a "which drug" question: "what", "which drugs", "what first-line medication", "which beta blockers",
"which drugs used for gout" (``c``: the words before the verb, a class or the drugs for a disease, ``agents.via``)."""
_ASK = r"(?:what (?:is|are)|list|name|(?:tell|show|give) me)?\s*"
"""The opening of a request for a list: "what are", "list", "tell me", or nothing."""
_PROTEINS = r"(?:genes?|proteins?|enzymes?|receptors?|gene products?|molecular targets?|(?:signaling |biological )?(?:pathways?|processes))"
"""What "which genes are involved in Y?" asks for, or "what pathways are involved in Y?" (``agents.planner.goals``)."""
_POSS = r"(?:'s|’s|')"
"""A possessive ending: "imatinib's targets"."""
_TARGET_NOUN = r"(?:proteins?|genes?|receptors?|enzymes?|kinases?|(?:ion )?channels?|transporters?|pumps?|targets?)"
"""What a drug acts on, named as a noun: "the enzyme that aspirin inhibits"."""
_ILLNESS = r"(?:diseases?|conditions?|disorders?|illness(?:es)?|(?:blood )?cancers?(?: of the blood)?|tumou?rs?|infections?|ailments?|symptoms?|(?<= of )diabetes)"
"""What a drug treats, named as a noun ("the disease treated by allopurinol") or as a kind ("which cancers does imatinib treat?",
"what type of diabetes …?": only that kind is listed, :func:`disease_kind`)."""
_RISK = r"(?:raises|increases) (?:the |your |my |one's )?(?:risk|chances?|odds) (?:of|for)"
"""What raises the risk of a disease ("what increases the risk of gout?")."""
_PERSON = (r"(?:i|you|we|one|someone|people|(?:an? |the |your |my )?(?:doctors?|physicians?|clinicians?|patients?|persons?|"
           r"adults?|child|children))")
"""Who takes or gives the drug in "what can I take for Y?"."""
_WHY_GIVEN = (rf"(?:(?:do|does|did|would|will|should|might|could) {_PERSON} (?:prescribe|use|give|recommend|take|choose)|(?:is|are|was|"
              rf"were|has|have) {_PERSON} (?:been )?(?:prescribing|using|giving|recommending|taking|choosing))(?: me| him| her| us| them)?")
"""Why someone gives a drug, "why do doctors prescribe", "why is my doctor giving me": names were looked up in them."""
_SUFFERER = r"(?:i|my [\w' ]{1,30}?|he|she|we|they|(?:the|a|my|our) patient)"
"""Who has the disease in a sentence before the question ("I have gout.", "My mother was diagnosed with asthma,")."""
_QUALITY = (r"(?:(?:most |more )?(?:best|good|better|effective|common|usual|standard|first[- ]line|available|possible|"
            r"recommended|approved|known|current|preferred|main|typical|other|alternative|additional|newer|new|newest|"
            r"latest|recent|novel|older|oldest)\s+)*")
"""Words that praise or qualify a treatment: "the best", "the most effective", "first-line", "other", "the newest"
("what are the newest drugs for hepatitis C?" was NOT_FOUND: "no known entity in the question")."""
_REMEDY = r"(?:drugs?|medications?|medicines?|meds|treatments?|therap(?:y|ies)|pharmacotherap(?:y|ies)|remed(?:y|ies)|cures?|options?)"
"""The noun of a request for what treats Y ("the best medicine for Y", "my options for Y")."""
_NOMINAL = (
    r"^(?:(?:list|name|show|give|find|suggest|recommend|tell)(?: me| us)?(?: some| the| a few| all| any| a| an| one| \d+| ten| five)?\s+|"
    r"(?:is|are) there (?:an? |any |some |another )?|any |another |the |some |(?:what|which) (?:(?:is|are) (?:the |some )?)?)?"
    rf"{_QUALITY}(?:{_REMEDY}|pills?|tablets?|(?<=best )things?)"  # "best thing for acid reflux", "pills to lower …"
    r"(?: options?)?\s+(?:(?:that|which) (?:can |could |may |might |will )?(?:treats?|helps?(?: with)?|works? (?:for|against)|cures?|"
    r"lowers?|reduces?|decreases?|controls?|relieves?|prevents?|manages?|"
    r"(?:is|are) used (?:to treat|for|against))|to (?:treat|lower|reduce|control|relieve|prevent|manage|stop|ease|fight|cure)|for|against|"
    r"used (?:to treat|for|against|in)|of|(?:indicated|prescribed|approved) (?:to treat|for|in|against)) "
)
"""A request without a question word: "drugs for Y", "list drugs that treat Y", "is there a drug for Y"."""
_NO_DISEASE = re.compile(rf"(?:the |some |my |your )?{_QUALITY}(?:(?:{_REMEDY}|medication|drug|treatment)\s+)*", re.IGNORECASE)
"""A disease slot of words that only praise or name remedies ("best", "treatment"): no disease named."""
REMEDIES_ALONE = re.compile(
    r"^(?:(?:(?:what|which)(?:'s|’s| are| is| would be) (?:the |some |my |your |our |its |his |her |their )?|what |which |any |(?:are|is) there (?:an? |any |some )?|"
    r"(?:list|show me|give me|tell me|name) (?:the |some )?)?"
    rf"{_QUALITY}(?:treatment |therapy |drug |medication |medicine )?{_REMEDY}(?: (?:are there|are available|exist|available|"
    r"options?|(?:do|can|could|would|should) (?:you|i|we|they) (?:suggest|recommend|use|take|try)))?|"
    r"(?:what|which)(?: drugs?| medications?| medicines?)? (?:can|could|should|would) (?:i|we|you|he|she|they) (?:take|use|try)"
    r"(?: for (?:it|this|that))?|(?:what|which|any)(?: drugs?| medications?| medicines?| treatments?)? (?:help|helps|works?)(?: (?:with|for|against) (?:it|this|that))?|"
    r"(?:what|which)(?: drugs?| medications?| medicines?| treatments?) (?:are|is) (?:usually |commonly |typically )?(?:used|given|prescribed)"
    r"(?: (?:for|to treat|against) (?:it|this|that))?)$", re.IGNORECASE)
"""A request for remedies that names no disease ("what are the treatment options?", "which medications?", "what drugs
help?", "what can I take?", "what's the first-line drug?", "what drugs are used?"): in a thread about a disease, what treats it."""
LOWERED = ("blood pressure", "cholesterol", "ldl cholesterol", "ldl", "blood sugar", "blood glucose", "triglycerides",
           "uric acid")
"""Measures that a drug lowers: "lowers blood pressure" asks about high blood pressure (each "high …" is a lay term
of ``memory/lay_terms.tsv``). "Lowers glucose" is read so too, but "glucose tablets" are no remedy for high glucose."""
_LOWERS = re.compile(r"\b(?P<verb>(?:lower|reduce|decrease|control|manage|bring down)(?:s|ing)?|brings down|bringing down)\s+"
                     rf"(?:(?:the|your|my|his|her|their|one's|a patient's|patients') )?(?P<measure>{'|'.join(LOWERED)}|glucose)\b", re.IGNORECASE)

CAUSING = r"(?:cause|induce|trigger|lead to|result in|give (?:you|me|people|someone|patients))"
"""The verb of "does X cause Y?": of a drug, a question about its side effects."""

_KIND_ALONE = r"(?=(?:cancers?|tumou?rs?|infections?)(?: too| as well| also)?$)"  # "does it treat cancer too?": no one entry
_RULES: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, re.compile(p, re.IGNORECASE))
    for intent, p in (
        *SIGN_RULES,  # "what are the symptoms of asthma?" (before the rules that read "symptoms" as a disease)
        *COURSE_RULES,  # "is gout serious?": what the graph holds about it
        # "is imatinib used for any cancers?", "does X treat any infections?": what X treats, of that kind (before the
        # yes/no mechanism rules, which would read "any cancers" as a disease)
        (Intent.INDICATIONS, (rf"^(?:is|are|can|could) {_X} (?:be )?(?:used|prescribed|given|indicated|good) (?:for|to treat|against|in) "
                              rf"(?:(?:any|some) |{_KIND_ALONE})(?:kinds? of |types? of |sorts? of )?{_ILLNESS}(?: too| as well| also)?$")),
        (Intent.INDICATIONS, (rf"^(?:does|do|can|could|will) {_X} (?:treat|cure|help(?: with)?|work (?:for|against|on)) "
                              rf"(?:(?:any|some|other) |{_KIND_ALONE})(?:kinds? of |types? of |sorts? of )?{_ILLNESS}(?: too| as well| also)?$")),
        # "why is lesinurad used?" (before the mechanism rule that reads "used" as the disease; "why is X used for Y?" is one)
        (Intent.INDICATIONS, rf"^why (?:is|are|was|were) {_NOT_PRONOUN}{_X} (?:used|given|prescribed|recommended|taken)$"),
        # "when is lamotrigine prescribed?" (told what lamotrigine is connected to); "when is X taken?" is timing
        (Intent.INDICATIONS, rf"^when (?:is|are|would|should|can) {_NOT_PRONOUN}{_X} (?:be )?(?:prescribed|used|given|recommended|indicated)$"),
        (Intent.INDICATIONS, rf"^when (?:should|would|do|does|can) (?:you|doctors?|one) (?:prescribe|use|give|recommend) {_NOT_PRONOUN}{_X}$"),
        (Intent.INDICATIONS, (rf"^why {_WHY_GIVEN} (?!.*\b(?:for|to|in|against|with|on|after|following)\b){_NOT_PRONOUN}{_X}$")),
        # "what does ibuprofen treat besides pain?": what X treats, Y left out (``State.excluded``)
        (Intent.INDICATIONS, (rf"^(?:what|which)(?: else)?(?: (?:kinds? of |types? of |sorts? of )?{_ILLNESS})?(?: else)? "
                              rf"(?:does|do|can|could|is|are) {_X}(?: be)? (?:treat|cure|help(?: with)?|used (?:to treat|for|against)) "
                              rf"(?:besides|other than|apart from|aside from|except(?: for)?|in addition to) {_Y}$")),
        # "how do you treat Y?", "how can I lower uric acid?": a generic subject is not a drug (before the mechanism rules,
        # which would take "you"; "I" was NOT_FOUND, and "how do I get rid of gout?" asked what causes gout)
        (Intent.TREATS, (rf"^how (?:do|does|can|could|should|would|to)(?: {_PERSON})? (?:best )?(?:treat|manage|cure|control|lower|"
                         rf"reduce|decrease|prevent|relieve|ease|fight|beat|get rid of) {_Y}$")),
        # "why do doctors prescribe X for Y?": the person is not the drug (before the "why does X … Y" rules)
        (Intent.MECHANISM, (rf"^why {_WHY_GIVEN} {_X} (?:for|in|to treat|against|after|following|(?:to|for) (?:someone|somebody|anyone|people|patients|"
                           rf"a patient|those|children|adults) (?:with|who (?:has|have)|suffering from)) {_Y}$")),
        # "how does atorvastatin work to reduce cholesterol?": "work to" is not part of the drug's name
        (Intent.MECHANISM, rf"^how (?:does|do|can|could|might|would|will) {_X} (?:work|act|function) (?:to|so as to|in order to) {_VERB_TREAT} {_Y}$"),
        # "through which receptor does losartan lower blood pressure?": the mechanism, whose first step is the receptor
        (Intent.MECHANISM, (rf"^(?:how|in what way|by what (?:mechanism|pathway|means|route)|(?:through|via|by) (?:what|which) "
                            rf"(?:{_TARGET_NOUN}|pathways?|mechanisms?|routes?)) (?:does|do|can|could|might|would|will|is|are) {_X} "
                            rf"(?:(?:be )?used to |(?:be )?able to )?{_VERB_TREAT} {_Y}$")),
        # "describe the pathway by which lisinopril lowers blood pressure"
        (Intent.MECHANISM, (rf"^(?:what(?:'s|’s| is| are)|explain|describe|show me)?\s*(?:the )?{_ACTION} (?:by which|through which|"
                            rf"via which|whereby|by means of which) {_X} {_VERB_TREAT} {_Y}$")),
        (Intent.MECHANISM, rf"^(?:what(?:'s|’s| is| are)|explain|describe)?\s*(?:the )?{_ACTION} (?:of|for|by which) {_X} (?:in treating|in the treatment of|in|for|against|on|treats?|treating) {_Y}$"),
        (Intent.MECHANISM, rf"^(?:what(?:'s|’s| is| are)|explain|describe)?\s*(?:the )?{_ACTION} behind {_X} in (?:treating|the treatment of) {_Y}$"),
        (Intent.MECHANISM, rf"^(?:what(?:'s|’s| is| are)|explain|describe)?\s*{_X}(?:'s|’s) {_ACTION} (?:in|for|against|on) {_Y}$"),
        (Intent.MECHANISM, rf"^what (?:does|do|can|could|would|will) {_X} do (?:in|for|against|to(?: {_VERB_TREAT})?) {_Y}$"),
        (Intent.MECHANISM, (rf"^how (?!(?:to|much|many|often|long)\b){_X} (?:works? (?:in|for|against|on)|acts? (?:in|on|against)|helps?(?: with| in)?|"
                           rf"treats?|cures?|relieves?|prevents?|manages?|lowers?|reduces?|controls?|eases?|fights?) {_Y}$")),
        # "what molecular targets mediate imatinib's effect on CML?": the mechanism (not "which drugs target …")
        (Intent.MECHANISM, (rf"^(?:what|which)(?: [\w-]+)? (?:{_TARGET_NOUN}|pathways?|mechanisms?)(?: or pathways?)? (?:mediates?|"
                            rf"underlies?|underlie|explains?|drives?|(?:is|are) behind|(?:is|are) responsible for) {_X}(?:'s|’s) "
                            rf"(?:therapeutic |beneficial |clinical )?(?:effects?|action|activity|efficacy|benefit) (?:on|in|against|for) {_Y}$")),
        # "which protein does imatinib inhibit in CML?": the mechanism, through what it acts on
        (Intent.MECHANISM, (rf"^(?:what|which)(?: {_TARGET_NOUN}| pathways?)? (?:does|do|can) {_NOT_PRONOUN}{_X} (?:target|bind(?: to)?|"
                            rf"inhibit|act on|block|activate|hit|modulate) (?:in|for|to {_VERB_TREAT}|against) {_Y}$")),
        (Intent.MECHANISM, rf"^in {_Y},? what (?:does|do|can|could|would) {_X} do$"),
        (Intent.MECHANISM, rf"^what makes {_X} (?:effective|useful|helpful|work|active) (?:against|for|in) {_Y}$"),
        # "why does lisinopril cause cough?": how the graph links the two, said not to be about side effects (``CAUSING``)
        (Intent.RELATION, rf"^(?:why|how) (?:does|do|can|could|would|might|may) {_X} (?:really |actually |also |sometimes )?{CAUSING} {_Y}$"),
        # "why is levodopa combined with carbidopa?": the two drugs compared (agents.drug_compare)
        (Intent.RELATION, rf"^why (?:is|are) {_X} (?:often |usually )?(?:combined|given|used|paired|taken) (?:with|together with|along with) {_Y}$"),
        # "why is ulobetasol propionate effective against atopic dermatitis?" (it read "propionate effective against …")
        (Intent.MECHANISM, rf"^why (?:is|are) {_X} (?:so |very |really )?(?:effective|useful|helpful|good) (?:against|for|in) {_Y}$"),
        # "why is valproic acid used in epilepsy?": the verb ends the drug's name (the rules below read "valproic")
        (Intent.MECHANISM, (rf"^why (?:is|are|was|were) {_YES_NO_SUBJECT}{_X} (?:often |usually |commonly |sometimes )?"
                            rf"(?:used|prescribed|given|taken|recommended|indicated) (?:to {_VERB_TREAT} |for |in |against ){_Y}$")),
        (Intent.MECHANISM, rf"^why (?:does|do|is|are|would) {_YES_NO_SUBJECT}{_X} (?:used to )?{_VERB_TREAT} {_Y}$"),
        (Intent.MECHANISM, (rf"^why (?:does|do|is|are|would) {_YES_NO_SUBJECT}{_X} (?:(?:used|prescribed|given|taken|recommended|indicated) (?:to |for |in |against ))?"
                            rf"{_VERB_TREAT}? ?{_Y}$")),
        (Intent.MECHANISM, rf"^how (?:is|are) {_Y} (?:treated|helped|managed|relieved|prevented) (?:by|with) {_X}$"),
        (Intent.MECHANISM, (rf"^{_X} (?:for|in|against) {_Y}\s*(?:-|–|—|:|,)\s*(?:how|why) (?:does|do|would|will|can) "
                           rf"(?:it|this|that|they) (?:work|help|act)$")),
        (Intent.MECHANISM, rf"^{_Y}\s*(?:-|–|—|:)\s*how (?:does|do|can|would|will) (?!(?:it|this|that|they) ){_X} (?:help|work|act)$"),
        (Intent.MECHANISM, rf"^how (?:is|are) {_X} (?:used )?(?:to treat|for|in) {_Y}$"),
        # "compare imatinib and dasatinib for CML": the drugs one at a time (the planner splits the slot)
        (Intent.MECHANISM, rf"^(?:compare|contrast|what is the difference between) {_X} (?:for|in|against|when treating) {_Y}$"),
        (Intent.MECHANISM, rf"^how do {_X} (?:differ|compare) (?:for|in|when treating) {_Y}$"),
        # yes/no questions naming both ends ("does imatinib work for GIST?", "is (could) metformin (be) used for PCOS?",
        # "can I take ibuprofen for pain?"): the mechanism, or why there is none
        (Intent.MECHANISM, rf"^(?:can|could|should|may|might) {_PERSON} (?:take|use|try|be given) {_X} (?:for|against|to treat|in) {_Y}$"),
        (Intent.MECHANISM, rf"^(?:does|do|can|could|will|would|might|may) {_YES_NO_SUBJECT}{_X} (?:really |actually |also )?{_VERB_TREAT} {_Y}$"),
        (Intent.MECHANISM, (rf"^(?:is|are|(?:can|could|might)(?= .+? be )) {_YES_NO_SUBJECT}{_X} (?:really |actually |also )?(?:be )?(?:used|good|effective|useful|helpful|"
                            rf"indicated|approved|prescribed|given|(?:an?|the) {_QUALITY}(?:treatment|drug|medication|medicine|option|therapy))"
                            rf"(?: to treat| for| against| in) {_Y}$")),
        # "is it true that metformin treats diabetes?", "I heard imatinib helps with GIST": the mechanism, or why there is none
        (Intent.MECHANISM, (rf"^(?:is it (?:true|the case|correct|right)|do you know|i (?:heard|read|was told)|i wonder|i was wondering) "
                            rf"(?:that |if |whether )?{_YES_NO_SUBJECT}{_X} (?:really |actually |also |can |could |does )?{_VERB_TREAT} {_Y}$")),
        # "does metformin cause lactic acidosis?", "can uric acid lead to gout?": how the graph links the two, if it does
        # (of a drug, the answer also says that the graph holds no side effects: ``CAUSING``)
        (Intent.RELATION, (rf"^(?:does|do|can|could|will|would|might|may) {_YES_NO_SUBJECT}{_X} (?:really |actually |also |ever )?"
                           rf"{CAUSING} {_Y}$")),
        # "does imatinib inhibit ABL1?", "is aspirin an inhibitor of COX-1?": how the drug acts on the protein, if it does
        (Intent.RELATION, (rf"^(?:does|do|can|could|will|would|might|may) {_YES_NO_SUBJECT}{_X} (?:really |actually |also |directly |"
                           rf"{_HOW_BOUND} )?{_ACTS_ON}(?: {_HOW_BOUND}(?: to)?)? {_T}$")),
        (Intent.RELATION, rf"^(?:is|are) {_YES_NO_SUBJECT}{_X} (?:an? )?(?:inhibitors?|blockers?|antagonists?|agonists?|activators?) of {_T}$"),
        (Intent.RELATION, rf"^(?:is|are) {_YES_NO_SUBJECT}{_X} (?:an? )(?!.* of ){_T} (?:inhibitors?|blockers?|antagonists?|agonists?|activators?)$"),
        # "is KIT a target of imatinib?" (told what imatinib is connected to), "is ABL1 inhibited by imatinib?"
        (Intent.RELATION, (rf"^(?:is|are) {_YES_NO_SUBJECT}{_T} (?:(?:an?|the|one of the) (?:(?:main|known|direct|molecular) )?"
                           rf"targets? of|(?:targeted|bound|inhibited|blocked|activated|acted on) by) {_X}$")),
        # "does aspirin raise histamine?", "can sertraline increase serotonin?" (lowering is asked as a mechanism)
        (Intent.RELATION, (rf"^(?:does|do|can|could|will|would|might|may) {_YES_NO_SUBJECT}{_X} (?:really |actually |also )?"
                           rf"(?:raise|increase|boost|elevate) {_T}$")),
        # "is there a link between NSAIDs and kidney disease?", "what connects metformin and cancer?" (it dropped "cancer")
        (Intent.RELATION, (rf"^(?:(?:is there|are there|what(?:'s|’s| is| are)|{_ASK})\s*(?:an?y? |the |some )?(?:known )?(?:link|connection|"
                           rf"relationship|relation|association)s? between|what (?:connects|links|ties)) {_X} (?:and|to|with) {_Y}$")),
        (Intent.RELATION, (rf"^(?:how )?(?:is|are) {_X} (?:really |actually )?(?:linked|related|connected|associated|tied) "
                           rf"(?:to|with) {_Y}$")),
        (Intent.RELATION, rf"^how (?:is|are) {_X} and {_Y} (?:linked|related|connected|associated|tied)(?: to each other)?$"),
        # "I have gout. What should I take?", "I've just been diagnosed with asthma, what are my options?": the disease
        (Intent.TREATS, (rf"^{_SUFFERER}(?:'ve|’ve)? (?:(?:(?:was|were|am|is|are|have|has) )?(?:just |recently |newly )?(?:been )?"
                         rf"diagnosed with|have|has|had|got|suffers? from|am suffering from|is suffering from) {_Y}\s*[.,;:!-]?\s*(?:so |and )?(?:what|which)(?: drugs?| medications?| medicines?| "
                         rf"treatments?| pills?)? (?:(?:should|can|could|might|may|would|do|does|will) (?:i|he|she|we|they|you|the doctor|my doctor) "
                         rf"(?:take|use|try|prescribe|recommend|give)(?: (?:me|him|her|them|us))?(?: for (?:it|that|this))?|helps?|works?|can help|"
                         rf"(?:are|is) (?:my|his|her|their|our|the) (?:options?|choices?|treatment options?))$")),
        # "what causes gout?", "what worsens gout?", "what could cause gout?" (the last two listed its drugs): what raises it
        (Intent.CAUSES, (rf"^what(?: else)? (?:usually |commonly |typically |(?:can|could|may|might|would|will|do|does) )?(?:causes?|"
                         rf"triggers?|leads? to|brings? on|is behind|{_RISK}|worsens|aggravates|exacerbates) {_Y}$")),  # "what could …"
        (Intent.CAUSES, rf"^what(?: else)? (?:can |could |may |might |usually |often )?makes? {_Y} worse$"),
        (Intent.CAUSES, (rf"^{_ASK}(?:the |some |any )?(?:main |common |most common |usual |known |underlying |possible )?"
                         rf"(?:root )?(?:causes?|triggers?|risk factors?|drivers?|pathophysiology|pathogenesis|a?etiology) (?:of|for) {_Y}$")),
        (Intent.CAUSES, rf"^(?:why|how) (?:do|does|did|would|can|could) {_PERSON} (?:get|develop|catch|end up with) {_Y}$"),
        (Intent.CAUSES, rf"^what (?:else )?(?:is|are) {_Y} caused by$"),
        # "what drugs cause gout?" listed the drugs for gout: what raises it, beside a word that side effects are not held
        (Intent.CAUSES, (rf"^(?:what|which) (?:drugs?|medications?|medicines?|meds|pills) (?:can |could |may |might |do |does )?"
                         rf"(?:cause|induce|trigger|bring on|lead to|worsen|aggravate|exacerbate)s? {_Y}$")),
        (Intent.CAUSES, rf"^(?:what|which) (?:drugs?|medications?|medicines?|meds|pills) (?:can |could |may |might )?makes? {_Y} worse$"),
        # "how does inhalation anthrax develop?" (free text: it listed the drugs for it)
        (Intent.CAUSES, rf"^how (?:does|do|did|can|could) {_NOT_PRONOUN}(?!(?:drug )?(?:resistance|tolerance)\b){_Y} (?:develop|start|arise|come about|get started|begin)$"),
        (Intent.CAUSES, rf"^what makes {_PERSON} (?:get|develop) {_Y}$"),
        (Intent.TARGETS, (rf"^(?:what|which)(?: (?:kinds? of |types? of |sorts? of )?{_TARGET_NOUN}| pathways?)? (?:does|do|can) {_X} "
                          rf"(?:target|bind(?: to)?|inhibit|act on|interact with|block|activate|hit|modulate)$")),
        # "what targets does imatinib hit besides BCR-ABL?": X's targets, the second left out (it was read as the target)
        (Intent.TARGETS, (rf"^(?:what|which)(?: else| other)?(?: {_TARGET_NOUN}| pathways?)?(?: else)? (?:does|do|can) {_X} (?:also )?"
                          rf"(?:target|bind(?: to)?|inhibit|act on|block|hit) (?:besides|other than|apart from|aside from|except(?: for)?) {_T}$")),
        # "what targets does warfarin have?" (it linked "does warfarin have" and found no path)
        (Intent.TARGETS, rf"^(?:what|which) (?:kinds? of |known |molecular |main )?{_TARGET_NOUN} (?:does|do) {_NOT_PRONOUN}{_X} have$"),
        # a drug's mechanism with no disease named: what it acts on ("how does sildenafil work?")
        (Intent.TARGETS, rf"^(?:what(?:'s|’s| is| are)|explain|describe)?\s*(?:the )?(?:mechanisms? of action|moa|mode of action|mechanisms?) (?:of|for) {_NOT_PRONOUN}{_X}$"),
        (Intent.TARGETS, rf"^(?:what(?:'s|’s| is| are)|explain|describe)?\s*{_NOT_PRONOUN}{_X}(?:'s|’s) (?:mechanisms? of action|moa|mode of action|mechanisms?)$"),
        (Intent.TARGETS, rf"^how (?:does|do|will) {_NOT_PRONOUN}{_X} (?:work|act)$"),
        (Intent.TARGETS, rf"^how (?!(?:does|do|did|is|are|can|could|would|will|it|they|long|quickly|fast|soon|much|often)\b){_X} (?:works?|acts?)$"),  # "explain how statins work"
        (Intent.TARGETS, rf"^what (?:does|do) {_NOT_PRONOUN}{_X} (?:do|actually do)(?: in the body)?$"),
        # "what happens when you block ACE?" (it listed the drugs that inhibit ACE): what ACE does, as asked that way
        (Intent.TARGETS, (rf"^what happens (?:when|if) (?:you |we |one |i |doctors |a drug )?(?:block|inhibit|take|stop|"
                          rf"activate|switch off|turn off)s?(?: (?:taking|using))? {_NOT_PRONOUN}(?!too much|too many|an overdose|more than)\b{_X}$")),
        # "what are the targets of tamoxifen in breast cancer?": how it acts there (it linked "tamoxifen in breast cancer")
        (Intent.MECHANISM, rf"^{_ASK}(?:the )?(?:molecular |main |known |protein )?targets? of {_X} (?:in|for|against) {_Y}$"),
        (Intent.TARGETS, rf"^{_ASK}(?:the )?(?:molecular |main |known |protein )?targets? of {_X}$"),
        # "what is the enzyme that aspirin inhibits?", "which receptors are targeted by X?", "the receptor for X"
        (Intent.TARGETS, (rf"^(?:what|which) (?:is|are) the {_TARGET_NOUN} (?:that |which )?{_NOT_PRONOUN}{_X} "
                          rf"(?:targets?|binds?(?: to)?|inhibits?|blocks?|activates?|acts? on)$")),
        (Intent.TARGETS, rf"^(?:what|which) (?:is|are)(?: the)? {_TARGET_NOUN} (?:targeted|bound|inhibited|blocked|activated|acted on) by {_X}$"),
        (Intent.TARGETS, rf"^(?:what|which) {_TARGET_NOUN} (?:is|are) (?:targeted|bound|inhibited|blocked|activated|acted on) by {_X}$"),
        (Intent.TARGETS, rf"^{_ASK}the (?:receptors?|enzymes?) (?:of|for) {_NOT_PRONOUN}{_X}$"),
        (Intent.TARGETS, rf"^{_ASK}{_X}{_POSS} (?:molecular |main |known |protein )?targets?$"),
        (Intent.TARGETS, rf"^{_X} (?:molecular |protein )?targets$"),
        # "what is the best drug for Y?", "what is the drug of choice for Y?" (before "what are the drugs of X?")
        (Intent.TREATS, (rf"^(?:what|which) (?:is|are) (?:the |a |an |some |my |your |our )?{_QUALITY}{_REMEDY}"
                         rf"(?: of choice| options?)? (?:for|of|against|in|to treat) {_Y}$")),
        # "is there anything better for Y?" (what a follow-up asks after a drug: it linked the words and told what Y is connected to)
        (Intent.TREATS, rf"^(?:is|are) there (?:anything|something)(?: (?:better|else|stronger|newer|safer|good))? (?:for|against|to treat) {_Y}$"),
        # "what drugs for Y are there?", "which painkillers are safe?" (``agents.everyday``: "drugs for pain")
        (Intent.TREATS, (rf"^(?:what|which) {_QUALITY}{_REMEDY} (?:for|against|to treat) {_Y} (?:are|is) (?:there|available|"
                         r"(?:the )?(?:safe|safest|safer|best|good|effective|ok|okay))$")),
        # "what is the drug that treats Y?", "which are the medications used for Y?"
        (Intent.TREATS, (rf"^(?:what|which) (?:is|are) the {_QUALITY}{_REMEDY} (?:that |which )?(?:treats?|cures?|helps? with|"
                         rf"(?:is |are )?used (?:to treat|for|against)|(?:is |are )?given for|(?:is |are )?prescribed for) {_Y}$")),
        # "which genes are involved in gout?", "proteins linked to CML" (before "what is linked to" a cause)
        (Intent.INVOLVED, (rf"^(?:{_ASK}(?:the |some |any )?|(?:what|which) )?(?:known |main |key )?{_PROTEINS} (?:(?:are|is) )?"
                           rf"(?:involved in|linked to|associated with|implicated in|related to|connected to|behind|in) {_Y}$")),
        (Intent.INVOLVED, rf"^(?:what|which) {_PROTEINS} (?:does|do) {_Y} (?:involve|affect)$"),
        # "which genes are mutated in CML?", "what gene causes CML?" (they listed the drugs for CML)
        (Intent.INVOLVED, (rf"^(?:what|which) {_PROTEINS} (?:(?:is|are) )?(?:(?:mutated|altered|defective|abnormal|"
                           rf"overactive|overexpressed) in|responsible for|causes?|drives?|underlies|underlie) {_Y}$")),
        (Intent.TARGETED_BY, rf"^{_WHICH_DRUG} (?:targets?|binds?(?: to)?|inhibits?|blocks?|activates?|hits?|acts? (?:on|at)|works? (?:on|at)|antagoni[sz]es?|agoni[sz]es?) {_Y}$"),
        # "which medicines are agonists of the mu opioid receptor?"
        (Intent.TARGETED_BY, (rf"^(?:what|which) (?:drugs?|medications?|medicines?|compounds?) (?:is|are) (?:an? |the |known )?"
                              rf"(?:inhibitors?|blockers?|agonists?|antagonists?|activators?|ligands?) (?:of|for|at) {_Y}$")),
        # "which drugs raise dopamine?": what acts on it that way (lowering is asked as a treatment, "lower blood pressure")
        (Intent.TARGETED_BY, rf"^{_WHICH_DRUG} (?:raises?|increases?|boosts?|elevates?|can (?:raise|increase|boost|elevate)) {_Y}$"),
        # "list drugs that inhibit COX-2", "is there a drug that blocks TNF?", "do any drugs target EGFR?"
        (Intent.TARGETED_BY, (rf"^(?:(?:is|are) there |do |does )?{_ASK}(?:the |some |any |an? )?(?:other |known )?(?:drugs?|medications?|medicines?|compounds?|ligands?|inhibitors?|blockers?|"
                              rf"agonists?|antagonists?|activators?) (?:that |which )?(?:targets?|targeting|hits?|hitting|binds?(?: to)?|binding|"
                              rf"inhibits?|inhibiting|blocks?|blocking|acts? on|acting on|of) {_Y}$")),
        (Intent.INDICATIONS, (rf"^(?:what|which)(?: else| other)?(?: (?:kinds? of |types? of |sorts? of )?{_ILLNESS}|(?<=which) ones)?(?: else)? (?:does|do|can|could|is|are) {_X}(?: be)? "
                              rf"(?:(?:mostly|mainly|primarily|usually|typically|commonly|generally|normally) )?(?:treat|cure|help(?: with)?|"
                              rf"used (?:to treat|for|against)|prescribed (?:for|against)|indicated (?:for|in)|good for|given for|approved for)$")),
        # "which cancers is imatinib involved in?" (of a drug; of anything else, ``agents.diseases_of``)
        (Intent.INDICATIONS, (rf"^(?:what|which)(?: other)? {_ILLNESS} (?:is|are) {_NOT_PRONOUN}{_X} (?:involved in|linked to|"
                              rf"associated with|connected to|related to|tied to|implicated in)$")),
        (Intent.INDICATIONS, (rf"^{_ASK}(?:the )?(?:main |known |approved |clinical |other )?(?:indications?|uses?) (?:of|for) {_X}"
                              rf"(?: (?:besides|other than|apart from|aside from|except(?: for)?) {_Y})?$")),  # Y left out
        (Intent.INDICATIONS, rf"^{_ASK}{_X}{_POSS} (?:main |known |approved |clinical |other )?(?:indications?|uses?)$"),
        (Intent.INDICATIONS, rf"^(?:(?:does|do) )?{_X} (?:(?:has|have) (?:any |many |other |more |some )*)?(?:indications?|uses)$"),
        (Intent.INDICATIONS, rf"^what (?:is|are) {_NOT_PRONOUN}{_X} (?:usually |mainly |typically )?for$"),
        # "what is the disease treated by allopurinol?", "which are the conditions that X treats?"
        (Intent.INDICATIONS, (rf"^(?:what|which) (?:is|are)(?: the)? {_ILLNESS} (?:that |which )?{_NOT_PRONOUN}{_X} "
                              rf"(?:treats?|cures?|is used for|is indicated for)$")),
        (Intent.INDICATIONS, rf"^(?:what|which) (?:is|are)(?: the)? {_ILLNESS} (?:treated|cured|helped) (?:with|by) {_X}$"),
        # "list 10 diseases imatinib treats", "what are the top 20 diseases that …" (``agents.wording`` drops the count)
        (Intent.INDICATIONS, (rf"^{_ASK}(?:the |some |a few |all (?:the )?)?{_ILLNESS} (?:that |which )?{_NOT_PRONOUN}{_X} "
                              rf"(?:treats?|cures?|helps?(?: with)?|(?:is|are|can be) (?:used|prescribed|indicated|given) "
                              rf"(?:for|to treat|in|against))$")),
        (Intent.INDICATIONS, rf"^(?:what|which)(?: {_ILLNESS})? (?:can|could|is|are) (?:be )?(?:treated|helped|managed) (?:with|by) {_X}$"),
        (Intent.INDICATIONS, (rf"^(?:what|which) (?:other )?(?:(?:kind|type)s? of )?{_ILLNESS} (?:is|are) {_X} (?:usually |mainly |"
                              rf"typically |mostly )?(?:(?:used|indicated|prescribed|given|taken) )?for$")),  # "… is it for?"
        (Intent.TREATS, (rf"^{_WHICH_DRUG} (?:treats?|is used (?:to treat|for|against)|are used (?:to treat|for|against)|helps?(?: with| in)?|"
                        rf"cures?|can treat|could treat|is effective (?:for|against)|works?(?: best)? (?:for|against)|lowers?|reduces?|controls?|"
                        rf"relieves?|prevents?|decreases?|dissolves?|breaks? up|kills?|fights?|can (?:lower|reduce|decrease|control|"
                        rf"relieve|prevent|dissolve|kill)) {_Y}$")),
        (Intent.TREATS, rf"^how (?:is|are|can|do you) {_Y} (?:be )?treated$"),
        # "gout treatment", "asthma medications", "what is the best diabetes treatment?"
        (Intent.TREATS, (rf"^(?:{_ASK}(?:about )?(?:the |some |a |an )?)?{_QUALITY}{_NOT_PRONOUN}(?=\w)"
                         rf"(?!(?:what|which|how|why|who|is|are|the|a|an|all|any|some|about|of|for|on|with|more|my|your|"
                         rf"tell|show|give|list|name|find|suggest|recommend|me|{_REMEDY})\b){_Y} (?:management|pills?|{_REMEDY})"
                         rf"(?: of choice| options?)?$")),
        (Intent.TREATS, (rf"^{_WHICH_DRUG} (?:is|are|can be|could be|may be|should be|would be|gets?)"
                        rf"(?: usually| commonly| typically| often| normally| mostly| most(?: commonly| often| frequently)?)? (?:given|prescribed|indicated|recommended|"
                        rf"used|approved|taken|available|effective|good|best|suggested) (?:to (?:treat|manage|control)|for|against|in) {_Y}$")),
        (Intent.TREATS, (rf"^{_WHICH_DRUG} (?:can|could|should|do|does|may|might|would|will) (?:{_PERSON}|he|she|they) "
                        rf"(?:take|use|try|get|give|prescribe|recommend|be given|be prescribed)(?: me| us| them| him| her| you)? (?:for|against|to (?:treat|manage)|in) {_Y}$")),
        (Intent.TREATS, (rf"^{_WHICH_DRUG} (?:can|could|should|do|does|may|might|would|will) {_PERSON}"
                        rf"(?: who (?:has|have)| with| suffering from) {_Y} (?:take|use|try|get|receive|be given|be prescribed|be treated with)$")),
        (Intent.TREATS, _NOMINAL + _Y + "$"),
    )
)

SLOT_TYPES: dict[str, dict[str, float]] = {
    "drug": {"Drug": 1.0, "ChemicalSubstance": 0.97, "Protein": 0.7, "GeneFamily": 0.7},
    "target": {"Protein": 1.0, "GeneFamily": 0.97, "MacromolecularComplex": 0.95, "ChemicalSubstance": 0.7},
    "disease": {"Disease": 1.0, "PhenotypicFeature": 0.9, "BiologicalProcess": 0.7, "OrganismTaxon": 0.8},
    "via": {"Protein": 1.0, "GeneFamily": 0.97, "MacromolecularComplex": 0.95, "ChemicalSubstance": 0.9, "Pathway": 0.85,
            "MolecularActivity": 0.85, "BiologicalProcess": 0.85},
}
"""Type preference of each slot; types not listed weigh 0.6."""

for _w in SLOT_TYPES.values():
    _w.setdefault("*", 0.6)


@dataclass(frozen=True)
class ParsedQuestion:
    """Intent and the raw text of each slot."""

    intent: Intent
    drug: str = ""
    disease: str = ""
    among: str = ""
    """The words between "which" and the verb of a "which drug" question ("beta blockers"): a drug class when the
    linker knows them as one, which the answer is then kept to."""
    left_out: tuple[str, ...] = ()
    """Further diseases "what does X treat besides Y" leaves out ("besides pain and fever": "fever")."""
    also_of: tuple[str, ...] = ()
    """Further diseases "which drugs treat both Y and Z?" asks about: the drugs listed must treat each."""
    y_slot: str = ""
    """The slot the second name fills when the rule says: "target" for "does imatinib inhibit ABL1?"."""
    via: str = ""
    """What the drugs of a treatment question should act through ("… hypertension by inhibiting ACE": "ACE";
    ``agents.via``)."""
    via_sign: int = 0
    """The direction they should act on it: -1 "by inhibiting", +1 "by activating", 0 "by targeting"."""


_SLOT_NOUN = {"x": "drug|medication|medicine|compound", "y": "disease|condition|illness|disorder"}
"""The nouns before a name in its slot ("the drug imatinib", "the disease CML"): not part of the name."""
_CARE_OF = (r"(?:(?:the |your |my )?(?:treatment|management|therapy|prevention|control|relief|risk|chances?|odds|likelihood|"
            r"incidence|recurrence|progression|symptoms) (?:of|for)\s+|(?:an? |the )?(?:first|second|third)[- ]line(?: (?:treatment|"
            r"therapy|drug|medication|choice|option|agent))? (?:for|in|against|of)\s+|(?:preventing|treating|managing|controlling|"
            r"fighting|relieving|curing)\s+|(?:used |given |taken )?(?:after|following) (?:an? |the )?)")
"""What a treatment question may put before the disease ("used in the treatment of gout", "first line for diabetes",
"reduce the risk of stroke", "in preventing stroke", "used after a heart attack")."""


def _clean(span: str, slot: str = "") -> str:
    span = span.strip().strip("\"'“”")
    noun = rf"(?:the|this|that) (?:{_SLOT_NOUN[slot]})\s+(?=\S)|" if slot in _SLOT_NOUN else ""
    care = rf"{_CARE_OF}(?=\S)|" if slot == "y" else ""
    span = re.sub(rf"^(?:{noun}{care}(?:the|a|an|my|your|his|her|their|our|patients? with|people with)\s+)", "", span, flags=re.IGNORECASE)
    if slot == "x":  # "how does taking metformin improve diabetes?": the drug, not "taking metformin"
        span = re.sub(r"^(?:taking|using|giving|the use of|use of)\s+(?=\S)", "", span, flags=re.IGNORECASE)
    if slot == "y":  # "CML patients", "used in diabetes treatment"
        span = re.sub(r"(?<=\S)\s+(?:patients|sufferers|treatment|therapy|management|risk|symptoms|prevention|prophylaxis)$", "",
                      span, flags=re.IGNORECASE)  # "… for migraine prevention?"
        span = re.sub(r"(?<=\S)\s+(?:and|but) (?:are|is) (?:also )?(?:safe|safer|ok|okay|fine)$", "", span, flags=re.IGNORECASE)  # "gout
        # and are safe (in kidney disease)": the scope note says the graph holds no safety
    span = re.sub(r"(?<=\S)\s+(?:too|as well|also|(?:(?:taken|prescribed|given) )?(?:every day|every night|every morning|daily|"
                  r"nightly)|taken|prescribed)$", "", span.strip(), flags=re.IGNORECASE)  # "… treat it too?", "… aspirin every day?"
    return span.strip()


_MEASURE_REMEDY = re.compile(rf"(?<!high )\b(?P<measure>{'|'.join(LOWERED)})(?=\s+(?:management|pills?|{_REMEDY})\b)|\b(?P<pre>for|"
                             rf"helps?|treats?|with) (?:my|your|his|her|their|our) (?P<own>{'|'.join(LOWERED)})\b", re.IGNORECASE)
"""A measure named before a remedy ("blood pressure medications", "cholesterol drugs"), or someone's after "for" ("how
does lisinopril work for my blood pressure?", which linked the measure Blood pressure): what treats it when high."""


def _lowered(q: str) -> str:
    """"lowers blood pressure" → "lowers high blood pressure", "blood pressure pills" → "high blood pressure pills"
    (:data:`LOWERED`), and everyday words for what drugs do ("thins the blood", "painkillers": ``agents.everyday``)."""
    q = everyday(q)
    q = _LOWERS.sub(lambda m: f"{m['verb']} high {m['measure']}", q)
    return _MEASURE_REMEDY.sub(lambda m: f"high {m['measure']}" if m["measure"] else f"{m['pre']} high {m['own']}", q)


TEMPLATES = {
    "mechanism": "How does {drug} treat {disease}?",
    "relation": "Is there a link between {drug} and {disease}?",
    "targets": "What does {drug} target?",
    "indications": "What does {drug} treat?",
    "treats": "What drug treats {disease}?",
    "targeted_by": "Which drugs act on {disease}?",
    "causes": "What causes {disease}?",
    "signs": "What are the symptoms of {disease}?",
    "involved": "Which proteins are involved in {disease}?",
    "metabolites": "What does {drug} become?",
    "amounts": "What does {drug} raise or lower?",
    "products": "What does {disease} make?",
    "similar": "Which diseases are similar to {disease}?", "disease_kinds": "What types of {disease} are there?",
}
"""The plain question of each intent, its slots to fill: what a follow-up is rewritten into ("what about gout?"
→ "How does imatinib treat Gout?")."""


def parse_question(question: str) -> ParsedQuestion | None:
    """Match the question against the rules; None when no rule fits (free-text scan follows)."""
    q = _lowered(plain_wording(question))
    for intent, rx in _RULES:
        m = rx.match(q)
        if m:
            groups = m.groupdict()
            y = groups.get("y") or groups.get("t") or ""
            if intent is Intent.TREATS and _NO_DISEASE.fullmatch(y + " "):
                continue  # "what are the best medication options?": praise and remedies, no disease
            parsed = ParsedQuestion(intent, _clean(groups.get("x") or "", "x"), _clean(y, "y"), groups.get("c") or "",
                                    y_slot="target" if groups.get("t") else "")
            return with_via(parsed, q)
    return None


REFERENCE = "PRONOUNREF"
"""The placeholder name :func:`parse_with_reference` puts where a reference was."""


def parse_with_reference(question: str, span: tuple[int, int]) -> ParsedQuestion | None:
    """``question`` parsed with :data:`REFERENCE` in place of the reference at ``span`` ("it", "these drugs"): the
    slot that holds it (upper-cased) is the slot the reference fills."""
    return parse_question(question[: span[0]] + REFERENCE + question[span[1]:])


_CLASS_REQUEST = re.compile(
    r"^(?:(?:list|name|show|give|suggest|recommend|tell)(?: me| us)?(?: some| the| a few| all| any| a| an| one)?\s+|"
    r"(?:what|which) (?:are|is) (?:the |some )?|any |the |some )?"
    r"(?P<c>[\w-]+(?: [\w-]+){0,2}?) (?:(?:that|which) (?:can )?(?:treats?|helps?(?: with)?|lowers?|reduces?)|to treat|for|"
    rf"against|used (?:to treat|for|against|in)) {_Y}$", re.IGNORECASE)


def class_request(question: str) -> ParsedQuestion | None:
    """A request for a drug class's members without a question word ("statins for high cholesterol", "list beta
    blockers for hypertension"): the treats intent with ``among`` set to the words before the verb. Whether they name
    a class is the linker's to say; the planner asks this only when no rule read the question."""
    m = _CLASS_REQUEST.match(_lowered(" ".join(question.strip().split()).rstrip("?.! ")))
    return ParsedQuestion(Intent.TREATS, "", _clean(m["y"]), m["c"]) if m else None


_LISTED = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,|\s(?:and|or|&|vs\.?|versus)\s|/)\s*", re.IGNORECASE)
"""What joins names in a slot that lists several: "imatinib and dasatinib", "CML, GIST or ALL", "X vs Y"."""


_BOTH = re.compile(r"^(?:both|either)\s+", re.IGNORECASE)
"""The word that opens a listing slot ("what drugs treat both gout and hypertension?")."""


def both_listed(parsed: ParsedQuestion) -> bool:
    """Whether the disease slot opens with "both" ("what drugs treat both gout and hypertension?")."""
    return parsed.disease.casefold().startswith("both ")


def split_listed(parsed: ParsedQuestion, names: Callable[[str], bool]) -> tuple[ParsedQuestion, str, list[str]]:
    """A question whose drug or disease slot lists several names ("How does imatinib and dasatinib treat CML?",
    "… both gout and hypertension?"): the question about the first, the slot ("drug" or "disease") and the other
    names. Unchanged (slot "") when no slot lists names that ``names`` all accepts, or when the whole slot is one
    ("Hepatitis C, Chronic")."""
    for slot in ("drug", "disease"):
        text = _BOTH.sub("", getattr(parsed, slot))
        parts = [x.strip() for x in _LISTED.split(text) if x.strip()] if text else []
        if len(parts) >= 2 and not names(text) and all(names(x) for x in parts):
            return replace(parsed, **{slot: _clean(parts[0])}), slot, [_clean(x) for x in parts[1:]]
    return parsed, "", []
