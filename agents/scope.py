"""What a question asks about that the knowledge graph does not hold ("side effects", "dosing"), and the words of a
question that compares or ranks the drugs it names."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["ALSO_TAKING", "ANTIDOTES", "COMBINED", "COMPARING", "CONTRAINDICATIONS", "DIET", "HOW_OFTEN", "INTERACTIONS", "KEY_STEP", "NO_RESPONSE", "PROGNOSES", "RANKING_DRUGS", "RELATING", "REVERSING", "SAFETY", "SET_AGAINST", "SUBSTITUTES", "elided_topic", "out_of_scope", "typed"]

_DOSE_FOR_DOES = re.compile(r"^(how|why|what|which|where|when|who)\s+dose\b(?=\s+\w)(?!\s+(?:of|for|should|is|are|do|does|"
                            r"would|can|could|to|and|per|in|range|schedule|regimen|levels?|i|you|we)\b)", re.IGNORECASE)
""""how dose imatinib treat CML": "does" mistyped, read as "does" (it was a question about dosing)."""
_MISTYPED = {"what": r"waht|wat|whta|wht|hwat", "how": r"hwo|hw|haw", "which": r"wich|whcih|whihc|wihch"}
_MISTYPED_OPENER = re.compile("|".join(rf"^(?P<{w}>{typos})\b" for w, typos in _MISTYPED.items()), re.IGNORECASE)
""""waht does metformin treat": a question word mistyped (it was read as keywords, "Metformin is connected to …")."""

_SET_BESIDE = r"compare[ds]?|comparing|comparison|vs\.?|versus"
"""The words that compare and may ask which drug is better ("compare aspirin and ibuprofen", "aspirin vs ibuprofen"):
the answer says the graph holds no such comparisons. How two drugs differ asks what each does, which the graph holds
("How do febuxostat and pegloticase differ?" opened with that note)."""
_COMPARE = rf"{_SET_BESIDE}|differences? between|differ"
_MECHANISMS_NEXT = r"(?! (?:the |their )?(?:mechanisms?|modes? of action|targets?|pathways?|how)\b)"
_RANKS_BESIDE = (rf"compare[ds]?{_MECHANISMS_NEXT}|comparing{_MECHANISMS_NEXT}|comparison(?! of (?:the |their )?(?:mechanisms?|"
                 rf"modes? of action|targets?|pathways?)\b)|vs\.?|versus")
""":data:`_SET_BESIDE` when it may ask which drug is better: "compare the mechanisms of aspirin and clopidogrel" and
"compare how they work" ask what the graph holds (they opened with the note on comparisons of how well drugs work)."""
"""Words that compare what a question names, in :data:`COMPARING`."""
ALSO_TAKING = r"(?:can|could|may|should) (?:i|we|you|he|she|they) (?:also|still) (?:take|use|have)"
"""Another drug taken beside one ("can I also take ibuprofen?"): its interactions (``agents.conversation`` reads the
drug it names)."""
_MEDS = r"(?:drugs?|medications?|medicines?|meds|pills?)"
"""Drugs named as such: to avoid them with a drug is about its interactions, not what to eat."""
RANKING_DRUGS = "comparisons of how well drugs work"
"""What :func:`out_of_scope` says a question that ranks drugs asks about ("is allopurinol better than colchicine?")."""
SUBSTITUTES = "whether one drug can replace another"
"""What :func:`out_of_scope` says "can I take ibuprofen instead of aspirin for a heart attack?" asks about: the two
drugs are compared (it was answered "Yes: Ibuprofen acts on Myocardial infarction …", the words "instead of aspirin"
read into the drug's name)."""
PROGNOSES = "symptoms or prognoses of diseases"
"""What a question about a disease's course asks ("is gout serious?"): "it" there is the thread's disease."""
HOW_OFTEN = "how often drugs are prescribed or things occur"
"""What :func:`out_of_scope` says "what is the most common drug for Y?" asks about (the patient records can count it)."""
COMBINED = "why drugs are given together"
"""What :func:`out_of_scope` says "why is levodopa combined with carbidopa?" asks about: the two are compared."""
INTERACTIONS = "drug interactions"
CONTRAINDICATIONS = "contraindications"
"""What :func:`out_of_scope` says "does warfarin interact with aspirin?" asks about: the two are compared."""
NOT_CAUSING = r"(?:don't|don’t|do not|won't|won’t|will not) (?:cause|give (?:you|me|them)|lead to)"
"""A side effect a drug is asked to spare ("drugs that don't cause cough"): ``agents.everyday`` reads the question as
the drugs for the disease."""
HOW_MUCH_ASKED = r"how (?:much|far) (?=(?:does|do|can|will|would|did) (?![^?]*\bcost))"
"""How much a drug changes something ("how much does atorvastatin lower LDL?"), not what it costs: ``agents.everyday``
reads it as how it does."""
EFFECT_SIZES = "how much a drug changes something"
"""What :func:`out_of_scope` says "how much does atorvastatin lower LDL?" or "how much?" asks about."""
EFFECTIVE_ASKED = (r"^(?:(?:is|are) (?P<x>.+?) (?:really |actually |even |very )?(?:effective|efficacious|any good|working)|"
                   r"(?:does|do) (?P<d>.+?) (?:really |actually |even )?work)(?=\W*$)")
"""Whether a drug works well, and nothing more ("Is imatinib effective?", "is it working?", "does it work?" after a
drug): ``agents.everyday`` reads it as what the drug treats."""
WHY_NOT = "why a drug does not work"
"""What :func:`out_of_scope` says "why don't antibiotics work on viruses?" asks about: ``agents.everyday`` reads it as
how they act on it, and the graph holds a chain or none."""
NOT_WORKING = (r"why (?:doesn't|doesn’t|does not|don't|don’t|do not|won't|won’t|will not|can't|can’t|cannot|isn't|isn’t|"
               r"aren't|aren’t)")
"""The words of a question why a drug does not work ("why doesn't aspirin treat gout?")."""
ADDICTION = "whether drugs are addictive"
"""What :func:`out_of_scope` says "is morphine addictive?" asks about (it was answered "Yes: morphine acts on Addictive
behavior …", by a chain that lowers it)."""
DIET = "what to eat or avoid"
"""What :func:`out_of_scope` says "what should I avoid while taking warfarin?" asks about: asked of the thread's drug
("what foods should I avoid?" after warfarin), or else of its disease, and never a list to leave out."""
SAFETY = "safety"
NO_RESPONSE = "what to do when a drug does not work"
"""What :func:`out_of_scope` says "what if it doesn't work?" asks about (``agents.alternatives`` answers it with the
drug's alternatives, or the other drugs for the thread's disease)."""
KEY_STEP = "which step of a mechanism matters most"
"""What :func:`out_of_scope` says "which step is the most important?" asks about (``agents.last_answer`` answers it
with the first step, where the drug acts)."""
"""What :func:`out_of_scope` says "is metformin safe in pregnancy?" asks about."""
ANTIDOTES = "antidotes or how to reverse a drug"
REVERSING = re.compile(r"\b(?:revers(?:e|es|ed|ing)|counteract(?:s|ed|ing)?|neutrali[sz](?:e|es|ed|ing)|undo(?:es)?|"
                       r"antagoni[sz](?:e|es|ed|ing))\b", re.IGNORECASE)
"""A question whether one drug undoes another ("why does vitamin K reverse it?" after warfarin): its "it" is the drug,
not the protein the thread turned to (it was asked of VKORC1, warfarin's target)."""
_LONG_USE = r"(?:long[- ]term|prolonged|chronic) (?:\w+ )?(?:use|usage)"
"""Use of a drug for long ("what are the risks of long term prednisone use?" was read as a disease's complications)."""
_OF_TOO_MUCH = r"(?: and (?:signs|symptoms))? (?:of|from) (?:an? )?(?:\w+ ){0,2}?(?:toxicity|overdos\w*)"
"""Symptoms of too much of a drug ("what are the symptoms of digoxin toxicity?" was read as a disease's)."""
_OUT_OF_SCOPE = {
    # "should I take levothyroxine on an empty stomach?" was read as advice on which drug to take; first, as it starts where
    # that does ("… with food?" stays a question of drug interactions)
    "when to take a drug (on an empty stomach, before or after meals, at what time of day)": (
        r"(?:(?:should|can|could|do|must) (?:i|we|you|he|she|they) |is it (?:ok|okay|better|best|fine) to )?(?:take|taking|give|"
        r"giving)\b[^?]*?\b(?:on an? empty stomach|(?:before|after) "
        r"(?:meals?|food|eating|breakfast|dinner|bed(?:time)?)|at (?:night|bedtime)|in the (?:morning|evening)|time of (?:the )?day)\b|"
        r"(?:what|which) time(?: of (?:the )?day)? (?:should|do|can|must) (?:i|we|you|he|she|they) (?:take|give)\b|"
        r"^(?:and |so )?when (?:should|do|must) (?:i|we|you|he|she|they) take\b"),
    "side effects": (rf"side[- ]effects?|adverse (?:drug )?(?:effects?|events?|reactions?)|(?:that|which|drugs|medications|medicines|meds|pills) {NOT_CAUSING}|"
                     r"(?:drugs?|medications?|medicines?|meds|pills) (?:that |which )?(?:can |could |may |might |do |does )?"
                     r"(?:(?:cause|induce|trigger|bring on|worsen|aggravate|exacerbate)s?|makes? (?:\w+ ){1,3}?worse)|makes? (?:you|me|people|someone|him|her|them) "
                     r"(?:\w+ )?(?:drowsy|sleepy|tired|dizzy|nauseous|sick|gain weight|fat|hungry|bleed)|non[- ]?drowsy|"
                     r"(?:non[- ])?sedating|(?:damage|damages|damaging|harm|harms|hurt|hurts) (?:the |your |my |his |her )?"
                     r"(?:kidneys?|liver|heart|stomach|lungs?)|bad for (?:the |your |my |his |her )?(?:kidneys?|liver|heart|"
                     r"stomach|lungs?)|(?:nephro|hepato|cardio|oto)toxic\w*|(?:easier|easiest|gentler|gentlest|kinder|harder|hardest|tougher|"
                     r"rougher) (?:on|to) (?:the |your |my |his |her )?(?:kidneys?|liver|heart|stomach|gut|lungs?)|"
                     r"(?:better|best|well|worse) tolerated|tolerability|(?:gentler|milder|kinder) (?:alternatives?|options?|"
                     r"substitutes?|drugs?|medications?|medicines?)"),  # "drugs for Y that don't cause cough"; "does
    # metformin damage the kidneys?" was told what metformin is connected to
    # "too much" of a drug taken, not of a substance ("what diseases are caused by too much uric acid?")
    "dosing": (r"dos(?:e|es|age|ages|ing)|therapeutic (?:range|level|window)s?|how (?:much|often)\b[^?]*\b(?:take|taken|give|given|use|used)|"
               r"(?:take|taking|use|using) (?:\w+ ){0,2}?(?:(?:every|each) (?:day|night|morning|evening)|daily)|"
               r"(?:take|takes|taking|took|taken|give|given|gave|use|used|using|swallow(?:ed)?|overdo(?:ne)?) (?:\w+ )?too "
               r"(?:much|many)|too (?:much|many)(?: of (?:it|this|that|them)| pills| tablets| doses)?(?=\s*[?.!]*$)|"
               r"(?:for )?how long (?:should|do|does|must|can|will|would) (?:i|you|we|he|she|they|one|patients?) "
               r"(?:need to |have to )?(?:take|be on|stay on|keep taking|continue)\b|^(?:(?:and|so|but|ok),? )?(?:for )?how long(?= *[?.!]*$)|"
               r"(?:once|twice|three times|how many times) (?:a|per|each) (?:day|week)\b"),  # "how many times a day?" after metformin
    EFFECT_SIZES: (rf"{HOW_MUCH_ASKED}|\bby how much\b|how (?:strong|big|large|"
                   r"potent|powerful|great) (?:is|are) (?:the |its |their )?effects?|^(?:and |so |but )?how much(?: (?:does|do|"
                   r"can|will) (?:it|they|that)(?: \w+)?(?: (?:it|them))?)?(?=\W*$)"),
    DIET: (r"\bfoods?\b[^?]*\b(?:avoid|eat|drink|trigger|triggers|cause|causes|worsen|worsens)\b|\b(?:avoid|eat|drink)\b[^?]*\bfoods?\b|\bdiet\b|"
           r"\b(?:can|should|what (?:can|should)) (?:i|we|you) (?:eat|drink)\b|\b(?:alcohol|coffee|caffeine)\b[^?]*\b(?:with|while|on)\b|"
           r"\b(?:alcohol|coffee|caffeine|beer|wine|sugar|salt|red meat|seafood|dairy)(?: is| are)? (?:bad|good|ok|okay|safe|harmful|fine) "
           r"(?:for|in)\b|"
           rf"^(?:(?:so |and |ok,? )?(?:what|anything|things?|is there anything)(?: else)? (?:(?!{_MEDS}\b)\w+ ){{0,4}}?(?:avoid|"
           rf"stay away from|keep away from|steer clear of))\b(?! (?:\w+ )?{_MEDS}\b)"),
    INTERACTIONS: (r"(?:drug[- ])?interactions?|interacts? with|interact(?= *[?.!]*$)|(?:risks?|dangers?) (?:with|of combining (?:it|them) "
                   r"with) (?:\w+(?:'s)? ){0,2}?(?:other )?(?:meds|medications|medicines|drugs|pills)\b|"
                   r"(?:an? |any )?(?:problems?|issues?|concerns?|conflicts?) (?:\w+ ){0,2}?together|(?:problematic|bad|fine) together|"
                   r"(?:can|could|may|should) (?:\w+ ){1,4}?be (?:taken|used|"
                          r"combined|mixed|given) together|(?:safe|ok|okay|risky|dangerous|harmful) (?:to (?:take|use|combine|mix)"
                          r"(?: \w+){0,3} )?(?:with|together)|(?:safe|ok|okay|risky|dangerous|harmful) to (?:combine|mix)\b|(?:take|taking|use|using|combine|combining|mix|mixing) \w+(?: \w+)? "
                          r"(?:with|together with)|(?:take|taking|use|using|combine|combining|mix|mixing) (?:\w+ ){1,3}?together|"
                          r"be (?:taken|used|combined|mixed|given) (?:together )?with|grapefruit|"
                          rf"{_MEDS} (?:\w+ ){{0,3}}?(?:avoid|stay away from)|avoid (?:\w+ ){{0,2}}?{_MEDS}|"
                          rf"{ALSO_TAKING}|(?:takes?|taking|"
                          r"on) [\w' -]+? and [\w' -]+?,? (?:is|are) (?:that|this|it|they|those|both) (?:ok|okay|safe|fine|alright)"),
    # "what drugs don't treat gout?" listed the drugs that do, with no word
    "which drugs do not treat a disease": (r"(?:drugs?|medications?|medicines?|meds|pills|what|which) (?:do|does|can|will)"
                                           r"(?: not|n['’]t) (?:treat|help|cure|work for|work on)"),
    # "what should I not take with gout?" listed the drugs for gout; "which drugs should be avoided in asthma?" was
    # "Asthma is connected to: Cough"
    "which drugs to avoid (contraindications and interactions)": (
        r"(?:should|must|can) (?:i|you|we|he|she|they|one|people|patients) (?:not|never) (?:take|use|be given)|"
        r"(?:should|must) (?:not |never )?be avoided (?:in|with|by|for|if)"),
    CONTRAINDICATIONS: r"contraindicat\w*",
    # "I'm allergic to penicillin. What antibiotics can I take for pneumonia?": not "allergic rhinitis", a disease
    "allergies to drugs": r"allergic (?:to|reactions? to)|allerg(?:y|ies) to|(?:drug|penicillin|sulfa|medication) allerg(?:y|ies)",
    "how well drugs work": EFFECTIVE_ASKED,
    WHY_NOT: rf"{NOT_WORKING}|why (?:is|are|does|do) \S+(?: \S+){{0,3}}? not (?:(?:be )?used|work|treat|help|cure|prevent|act)\b",
    ADDICTION: r"addictive|addicting|habit[- ]forming|(?:get|getting|become|becoming|be) (?:\w+ )?(?:addicted|hooked)",
    "monitoring (blood tests while on a drug)": (r"\bmonitor(?:ing|ed|s)?\b|\bINR\b|(?:need|needs|needing|require|requires|"
                                                 r"get|gets|have|has) (?:\w+ )?(?:blood tests?|blood work|levels? checked)"),
    # "why does lithium need blood tests?" read "carbonate need blood tests" as Blood
    SAFETY: (r"safe|safer|safest|safety|unsafe|dangerous|risky|riskier|harmful|(?:what are|are there|any) (?:the |some |any )?(?:main |big |biggest )?"
               rf"(?:risks|dangers)(?=\W*$| of (?:taking|using|being on|{_LONG_USE})\b)"),  # "what are the risks?": not "the risk of gout"
    PROGNOSES: (r"(?:what|which) (?:are|is) (?:the |its |their )?(?:common |main |usual |early |first |"
                rf"typical )?(?:signs?|symptoms?)(?!{_OF_TOO_MUCH})|signs and symptoms(?!{_OF_TOO_MUCH})|prognos(?:is|es)|"
                r"life expectancy|survival rates?|(?:is|are) (?:it|that|this|they|\w+(?: \w+)?) (?:(?:very|so|a) )?"
                r"(?:serious|deadly|fatal|life[- ]threatening)|how (?:serious|deadly|fatal) (?:is|are)|"
                rf"(?:complications?|risks|dangers) (?:of|from|with) (?!(?:taking|using|being on|{_LONG_USE})\b)"),
    "who discovered drugs or when they were approved": (r"who (?:discovered|invented|developed|created|first made|makes|"
                                                        r"manufactures)|when (?:was|were|did) \w+(?: \w+)? (?:discovered|"
                                                        r"invented|approved|developed|introduced|come out|first used)|"
                                                        r"(?<!patients )(?<!people )(?:is|are|'s|’s) (?:the )?(?:older|oldest|newer|"
                                                        r"newest)\b|"  # "how many patients are older than 60?": their age
                                                        r"\b(?:latest|most recent|newer|newest) (?:drugs?|medications?|medicines?|"
                                                        r"treatments?|therap(?:y|ies)|options?)\b|\b(?:approved|introduced) most "
                                                        r"recently\b|\bmost recently approved\b"),
    # "is imatinib approved for CML?" was answered "Yes: imatinib acts on …"
    "which drugs regulators have approved": r"(?:is|are|was|were) (?:[\w'-]+ ){1,3}?(?:fda[- ]|ema[- ])?approved\b|approval (?:status|for)|"
                                            r"(?:was|were) (?:fda[- ]|ema[- ])?approved (?:last|this|in|since|before|after|recently|lately)\b",
    # "What drugs for diabetes were approved last year?" was NOT_FOUND, '"diabetes were approved last year" is not in …'
    "how diseases are diagnosed": (r"how (?:is|are|do|does|can|would|should) (?:\w+ ){0,4}?(?:be )?diagnosed|how to diagnose|"
                                   r"diagnostic (?:tests?|criteria)|(?:what|which) tests? (?:\w+ ){0,3}?(?:diagnose|confirm|detect)"),
    "stopping a drug": (r"(?:stop|stops|stopped|stopping|quit|quits|quitting) (?:taking|using)|(?:come|coming|go|going) off|"
                        r"discontinu(?:e|es|ed|ing|ation)\b|(?:if|when) (?:i|we|you|he|she|they|(?:a|the) patients?|patients) "
                        r"(?:\w+ )?(?:stops?|stopped|quits?)\b(?! (?:respond|work|help|get)\w*)|"
                        r"(?:can|could|should|may|must) (?:i|we|he|she|they|you) (?:ever )?(?:stop|quit)(?= *(?:it|them|now|that)? *[?.!]*$)|"
                        # "can I stop it suddenly?" was told what sertraline is connected to, with no note
                        r"(?:stop|stops|stopped|stopping|quit|quits|quitting) (?:\w+ ){0,2}?(?:suddenly|abruptly|cold turkey|all at once)"),
    "use in pregnancy or breastfeeding": (r"(?:while|whilst|when|if|during|am|is|are|i'm|i’m|she's|she’s|get|getting|"
                                          r"become|becoming|trying to get) (?:\w+ ){0,2}?(?:pregnant|pregnancy|nursing)|"
                                          r"breast[- ]?feed(?:ing)?|(?<!in )(?:pregnant|nursing|expectant) (?:women|woman|mothers?|"
                                          r"patients?|people|ladies)"),  # "in pregnancy", "in pregnant women": a population
    # (agents.ellipsis); "can pregnant women take lisinopril?" had no note
    "who may take a drug by age": (r"(?:can|could|may|should) (?:kids|children|a child|an? (?:infant|baby|toddler|teenager|"
                                   r"elderly (?:person|patient))|babies|infants|toddlers|teenagers|teens|adolescents|the elderly|"
                                   r"elderly (?:people|patients)|older (?:people|adults|patients)|seniors|my (?:kid|child|son|"
                                   r"daughter|baby|toddler|teenager|grandmother|grandfather|grandma|grandpa)) (?:take|use|have|be given|"
                                   r"be on)|(?:give|giving) (?:\w+ )?to (?:kids|children|a child|babies|infants|toddlers|my (?:kid|"
                                   r"child|son|daughter|baby))"),  # "in children": a population (agents.ellipsis)
    "whether a disease is inherited or catching": (r"(?:is|are) (?:it|they|\w+(?: \w+){0,3}) (?:genetic|hereditary|inherited|"
                                                   r"contagious|infectious|catching)(?=\W*$)|(?:can|do) (?:you|i) (?:catch|inherit)|"
                                                   r"(?:runs?|running) in (?:the |my |your )?famil(?:y|ies)"),
    # "is gout an autoimmune disease?", "is CML a type of leukemia?" listed the disease's drugs with no word on it
    "how diseases are classified": (r"(?:is|are) (?:it|they|\w+(?: \w+){0,3}) (?:an? |considered (?:an? )?)(?:autoimmune|"
                                    r"inflammatory|genetic|chronic|acute|metabolic|viral|bacterial|fungal|neurological|"
                                    r"neurodegenerative|psychiatric|mental|cardiovascular|heart|lung|skin|blood|rare) "
                                    r"(?:diseases?|disorders?|conditions?|illness(?:es)?)(?=\W*$)|(?:is|are) (?:it|they|\w+(?: \w+){0,3}) "
                                    r"(?:an? )?(?:type|kind|form|subtype) of (?:\w+ )?(?:cancer|leuka?emia|lymphoma|diabetes|"
                                    r"arthritis|disease|disorder|infection|anemia|anaemia)(?=\W*$)"),
    # "which genes are mutated in CML?": the proteins on the paths into it, not which of them carry mutations
    "mutations": r"\bmutat(?:ed|ions?|ing|es)\b",
    "counts of a disease's drugs or a drug's indications": (
        r"how many (?:other )?(?:drugs|medications|medicines|treatments|therapies|options)(?: \w+){0,4}? (?:treat|cure|for|against|"
        r"used (?:for|to treat|in)|approved (?:for|to treat))|how many (?:other )?(?:diseases|conditions|illnesses|disorders|"
        r"indications) (?:does|do|can|is|are)"),
    "treatment guidelines (which drug comes first)": (r"(?:first|second|third)[- ]line|drugs? of choice|(?:treatment )?guidelines?|"
                                                       r"(?:is|are) (?:[\w'-]+ ){1,3}?recommended\b|recommendations?"),
    "advice on which drug a person should take": (
        r"(?:should|must|ought to) (?:i|we|he|she|they|you|my \w+|the patient) (?:take|use|choose|pick|try|start|go with|be (?:on|taking))"
        r"(?! (?:\w+ ){1,3}?(?:with|together)\b)|"  # "should I take it with ibuprofen?" asks whether two go together
        r"(?:would|do|can) you (?:recommend|suggest|advise)|what (?:should|must|can) (?:i|we|he|she|they|my \w+|the patient) do\b(?! if\b)|(?:is|are) (?:\w+ )?right for (?:me|him|her|us|them)|"
        r"(?:will|would|could|can|does) (?:it|this|that|[\w'-]+) (?:really |actually )?(?:help|work for|cure|fix) (?:me|my|him|his|her|us|our|them|their)\b"),
    # "what is the most common target of NSAIDs?" is what most of them act on, which the class's answer counts
    HOW_OFTEN: (r"most (?:common(?:ly (?:used|prescribed|given|taken))?(?! (?:targets?|mechanisms?|pathways?|receptors?|"
                r"enzymes?|proteins?|way))|popular|"
                                                       r"(?:widely|frequently|often) (?:used|prescribed|given|taken)|prescribed)|"
                r"(?:main|primary|principal|chief) (?:uses?|indications?)"),
    COMBINED: (r"combined with|(?:given|used|paired|taken|prescribed) (?:together )?with|in combination(?: with)?|"
               r"(?:work|works|act|acts|working|acting) (?:well )?together|"
               r"combination (?:therapy|therapies|of)|(?:given|used|taken|prescribed) together|"
               r"why (?:is|are) (?:\w+(?: \w+){0,2}) added"),  # "why is carbidopa added?" was NOT_FOUND
    "routes of administration (by mouth, inhaled or injected)": (
        r"inhaled|inhalers?|injections?|by mouth|orally|oral (?:forms?|tablets?|pills?|versions?|formulations?|drugs?|medications?|"
        r"medicines?|meds|ones?|options?|agents?)|(?:is|are|be) (?:an? )?oral(?=\s*[?.!]*$)|by injection|injected|"
        r"injectables?|(?:taken|given|used|comes?|available) (?:as|in) (?:an? )?(?:pills?|tablets?|capsules?|injections?|shots?|"
        r"infusions?|sprays?|creams?|patch(?:es)?|inhalers?)|intravenous(?:ly)?|topical(?:ly)?|nasal sprays?|suppositor(?:y|ies)|"
        r"routes? of administration|how (?:is|are) (?:it|they|\w+) (?:given|taken|administered)"),
    "prices": r"price|prices|cost|costs|costly|cheap|cheaper|cheapest|expensive|afford\w*",
    NO_RESPONSE: (r"what (?:if|happens if|(?:should|do|can|could) (?:i|we|you|he|she|they) do if|to do if|are the options if) "
                  r"(?:\w+ ){1,3}?(?:(?:doesn'?t|doesn’t|does not|don'?t|don’t|do not|didn'?t|did not|stops?|stopped|isn'?t|is not)"
                  r" (?:work|working|help|helping)|fails?|failed)\b"),
    KEY_STEP: (r"(?:most important|key|main|crucial|critical|essential|central) (?:step|link|part)(?=(?: of (?:it|that|this|"
               r"them|the (?:mechanism|path|chain|steps)))?(?: here)?\W*$)|(?:step|link|part)(?: of (?:it|that|this|the (?:mechanism|"
               r"path|chain)))? (?:is )?(?:the )?(?:most important|key|main|crucial|critical|essential|central)|(?:step|link|part) "
               r"matters (?:the )?most"),
    "generics, brands on sale or whether drugs need a prescription": (
        r"(?:is there|are there|is it|are they|comes? (?:in|as)|available (?:as|in))(?: \w+){0,2}? generics?(?: versions?| forms?|"
        r" equivalents?)?|over[- ]the[- ]counter|without (?:a )?prescription|"
        r"prescription[- ]only|need (?:a )?prescription"),
    "overdoses": r"overdos\w*|\btoxicity\b|toxic (?:dose|doses|levels?|amounts?)",  # not "poisoning": Methanol poisoning
    # "is clopidogrel reversible?" read "reversible" as Reversible airflow obstruction; the word alone before a noun
    # is left to names ("what drugs treat reversible airflow obstruction?")
    "how drugs bind (reversibly or not, how tightly)": (
        r"(?:is|are) (?:it|they|that|this|\w+(?: \w+)?) (?:an? )?(?:ir)?reversible(?: (?:inhibitors?|blockers?|antagonists?|"
        r"binders?|ones?|drugs?))?(?=\W*$)|(?:ir)?reversibl[ey] (?:binds?|binding|bound|inhibit\w*|block\w*|antagoni\w*)|"
        r"(?:binds?|bound|binding|inhibits?|blocks?|inhibition of) (?:\w+ ){0,3}?(?:ir)?reversibly|covalent(?:ly)?|"
        r"binding affinity|affinity (?:for|to)|how (?:tightly|strongly) (?:does|do|can) (?:\w+ ){1,3}?bind"),
    ANTIDOTES: (r"antidotes?|reversal agents?|(?:what|which \w+|how (?:do|can) (?:you|i|we|doctors)"
                r"|how to) (?:can |could |will )?(?:reverses?|undoes|undo|counteracts?)"),
    # "how is metformin excreted?", "which drugs are metabolized by the liver?" were told what the names are connected to
    "pharmacokinetics": (r"half[- ]li(?:fe|ves)|pharmacokinetic\w*|bioavailab\w*|(?:stay|stays|last|lasts) in (?:the|your|my) "
                         r"(?:body|system|blood)|lasts? longer|metaboli[sz]ed (?:by|in|through)|"
                         # "how long does it last?" after aspirin was told what aspirin is connected to, with no note
                         r"how long (?:does|do|will|would|can) (?:(?:its|their|the) effects?|(?!(?:the )?(?:symptoms?|signs?|pain|infections?|"
                         r"illness|diseases?|fevers?|colds?|flu|attacks?|episodes?)\b)\w+) (?:last|stay)(?= *(?:for)? *[?.!]*$)|"
                         # "what enzymes metabolize warfarin?" was told what warfarin is connected to, its target
                         r"(?:what|which)(?: [\w-]+){0,3}? metaboli[sz]es?|metaboli[sz]ing enzymes?|excret(?:ed|ion)|"
                         r"(?:renal|hepatic) clearance|clearance of|how (?:is|are) (?:\w+ ){1,3}?(?:cleared|eliminated)|"
                         # "does ibuprofen cross the blood brain barrier?" was answered with a chain to the brain
                         r"(?:cross|crosses|crossing|get through|gets through|pass|passes|penetrate|penetrates) (?:the )?"
                         r"(?:blood[- ](?:brain|placental?)[- ]barrier|placenta)|\bbbb\b|absorbed (?:by|from|in|into|through)|"
                         r"how (?:is|are) (?:\w+ ){1,3}?absorbed|(?:gets?|go|goes|pass|passes) into (?:the )?breast ?milk|"
                         r"(?:get|gets|getting) into (?:the )?(?:brain|blood(?:stream)?|body|(?:\w+ )?cells?)\b|"
                         r"(?:plasma )?protein binding|volume of distribution"),
    "how soon drugs act": (r"how (?:long|quickly|fast|soon)\b[^?]*\b(?:work|works|act|acts|kick in|take effect|help|helps)|"
                           r"onset of action|(?:works?|acts?|kicks? in|helps?) (?:the )?(?:faster|fastest|quicker|quickest|more quickly|"
                           r"sooner|most quickly)|fast[- ]acting"),
    SUBSTITUTES: (r"instead of|in place of|rather than|switch(?:ed|ing)? (?:\w+ )?(?:from|to)|(?:replace|substitute)[sd]? "
                  r"(?:\w+ ){0,2}?(?:with|for)|replacement for"),
    RANKING_DRUGS: (r"(?:which|what)(?: one| drug| medication| of them| of the two)? (?:is|would be|works) better(?! tolerated)|"
                    r"(?:better|more effective|stronger) (?:alternatives?|substitutes?|options?)|"  # "is there a better alternative?"
                    # a choice ("which is best, aspirin or ibuprofen?", "which of them is best?"); "the best drug for
                    # gout" asks what treats it
                    r"(?:which|what)(?: one| of them| of the two| of these| of those)?(?:'s| is| would be| works) best"
                    r"(?=[,:]? [\w' -]+,? (?:or|vs\.?|versus) |\s*[?.!]*$)|"
                    # "is thalidomide the best option for peptic ulcer?" was answered "Yes: thalidomide acts on …"
                    r"(?:is|are|was|would be) (?:[\w'-]+ ){1,3}?(?:the|an?) (?:best|ideal|optimal|top|first[- ]line|"
                    r"most appropriate|right|better) (?:option|choice|drug|treatment|medication|medicine|therapy|pick|one)s?|"
                    rf"better than|more (?:effective|potent)|superior to|preferred (?:over|to)|work better|better for|{_RANKS_BESIDE}|"
                    r"(?:treats?|works?|helps?)(?: \w+){1,3} (?:better|best)(?=\s*[,:;]\s*\w+,? (?:or|vs\.?|versus) )|"
                    r"strongest|stronger|weaker|most (?:effective|potent)|(?:most|more|less|least|highly) selective|selectivity|"
                    r"selective (?:for|to|towards?|at)|(?:is|are) (?:it|they|that|this|\w+) (?:very |really |more |less )?selective"
                    r"(?=\s*[?.!]*$)"),  # "is it selective?" after a drug: was told what it is connected to
}
_SCOPE = re.compile("|".join(f"(?P<t{i}>\\b(?:{rx})\\b)" for i, rx in enumerate(_OUT_OF_SCOPE.values())), re.IGNORECASE)


def typed(question: str) -> str:
    """The question with its spaces collapsed, its emoji and other symbols dropped ("How does imatinib treat CML 🙂"
    read "CML 🙂" as the closest name) and a mistyped "does" ("how dose …") or question word ("waht does …") mended."""
    text = "".join(ch for ch in question if unicodedata.category(ch) != "So")
    text = _MISTYPED_OPENER.sub(lambda m: str(m.lastgroup), " ".join(text.strip().split()))
    return _DOSE_FOR_DOES.sub(r"\1 does", text)


def out_of_scope(question: str) -> str:
    """What a question asks about that the knowledge graph does not hold ("side effects", "dosing"), or "".
    DrugMechDB curates mechanisms: how a drug acts on its targets and, through them, on a disease."""
    m = _SCOPE.search(typed(question))
    return list(_OUT_OF_SCOPE)[int(m.lastgroup[1:])] if m and m.lastgroup else ""


_ELIDED = re.compile(r"\b(?:likely|liable|apt|prone) to\s*[?.!]*$|^(?:and |so |but |ok,? )?(?:which|what)(?: ones?| drugs?| of "
                     r"(?:them|those|these))? (?:do|does|did|don't|doesn't|didn't|do not|does not|did not)(?: not)?\s*[?.!]*$",
                     re.IGNORECASE)
"""A question whose verb is left to the one before it ("which one is least likely to?", "which ones don't?")."""
_CAUSING = re.compile(r"\b(?:cause[sd]?|causing|give[sn]?|trigger(?:s|ed)?|lead(?:s)? to|bring(?:s)? on|result(?:s)? in)\b",
                      re.IGNORECASE)


def elided_topic(question: str, previous: str) -> str:
    """What the graph does not hold that a question asks about when its verb is the last question's: "which one is
    least likely to?" after "do statins cause muscle pain?" asks about side effects (it got the note on comparisons of
    how well drugs work); "" for any other question."""
    if not _ELIDED.search(question) or not previous:
        return ""
    return out_of_scope(previous) or ("side effects" if _CAUSING.search(previous) else "")


COMPARING = re.compile(rf"\b(?:{_COMPARE}|differences?|differs|different|similar(?:ities|ity)?|in common|alike|share[sd]?|"
                       r"sharing|(?:work|act|function)s? (?:in )?(?:exactly |just )?(?:the same(?: way)?|like))\b", re.IGNORECASE)
"""Words of a question that compares what it names ("compare aspirin and ibuprofen", "how do they differ?", "do they
share a target?": it was asked as "Do fluoxetine share a target?", and naming both, as a chain from one to the other;
"do ibuprofen and naproxen work the same way?", "does ibuprofen work like naproxen?": a chain from one to the other,
`NOT_FOUND`)."""
RELATING = re.compile(r"\b(?:related|connected|linked|relationship|relation|connection)\b", re.IGNORECASE)
"""Words of a question that asks how what it names is related ("how are aspirin and warfarin related?"): for two drugs,
a comparison of what they act on (there was no chain from one drug to the other to walk: NOT_FOUND)."""
SET_AGAINST = re.compile(r"\b(?:(?:better|worse|stronger|weaker|safer|faster|slower|quicker|more \w+|less \w+|(?:better|worse) "
                         r"tolerated) than|compared? (?:to|with)|vs\.?|versus)\b", re.IGNORECASE)
"""What sets a drug a question names against another one ("is it better than colchicine?": "it" refers back)."""
