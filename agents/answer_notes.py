"""Notes after a ranked "which drug treats Y?" answer: what the list cannot tell apart, and where to ask instead;
and what two compared drugs act on, or how each acts on one disease.

"What drugs treat lymphoma?" links the HPO finding "Lymphoma", which the graph reaches only from inflammatory
response: every drug listed acts on it through that one process (mepolizumab, benzoyl peroxide, theophylline …).
The answer says so, and names the diseases the finding is a manifestation of (Hodgkin's disease, Non-Hodgkin's
lymphoma …), for which curated mechanisms exist.
"""

from __future__ import annotations

import re
from typing import Any

from agents.state import Intent, State
from tools.answers import manifested_in
from tools.linker import GUESSED_METHODS, fold, guessed

__all__ = [
    "CITED",
    "CURE",
    "EACH_ACTS",
    "EACH_CAUSES",
    "EACH_TREATS",
    "LISTED",
    "NARROWER_SHOWN",
    "NO_EVIDENCE",
    "OTHER_PATHS_SHOWN",
    "after_scope",
    "and_listed",
    "for_one_disease",
    "guessed_note",
    "listing",
    "sentence",
    "several_indicated",
    "sources_line",
    "steps",
    "thread_notes",
    "treats_notes",
    "two_compared",
]

NO_EVIDENCE = "No verified evidence"
"""How every answer without an accepted path begins."""
NARROWER_SHOWN = 3
"""Narrower diseases named by :func:`treats_notes`; the rest are counted."""
OTHER_PATHS_SHOWN = 3
"""Other accepted paths named by :func:`thread_notes`; the rest are counted."""

EACH_TREATS = re.compile(r"^(?:so |and |ok,? )?(?:does|do|can|could|will|would|might|is|are) (?:both |either )?[^,?]+?"
                         r"(?:,? (?:or|and|&) |, )[^?]+? (?:both |all |each |really |also )?(?:treat|help(?: with)?|"
                         r"cure|relieve|manage|prevent|lower|reduce|decrease|bring down|work (?:for|on|against|in)|(?:be )?(?:used|given|taken|prescribed) "
                         r"(?:for|to treat|in)|(?:good|effective|useful) (?:for|against|in)) [^?]+\?*$", re.IGNORECASE)
"""Whether either of two drugs, or each of several, treats a disease ("does allopurinol or colchicine treat gout?",
"do losartan and valsartan treat hypertension?", "is aspirin or clopidogrel used for stroke?"): each was answered for
the first drug, the others offered as the next questions, so the user did not learn which of them does. Such a
question is asked as a comparison for one disease (``agents.drug_compare.compared_for``), and its answer opens with a
verdict (:func:`for_one_disease`)."""
EACH_ACTS = re.compile(r"^(?:so |and |ok,? )?(?:does|do|can|could|will|would|might) (?:both |either )?[^,?]+?"
                       r"(?:,? (?:or|and|&) |, )[^?]+? (?:both |all |each |really |also )?(?P<v>target|act (?:on|upon)|"
                       r"work on|bind(?: to)?|affect|hit|inhibit|block|antagonize|antagonise) [^?]+\?*$", re.IGNORECASE)
"""The same of a target ("do atorvastatin and simvastatin both target HMG-CoA reductase?", "does aspirin or ibuprofen
inhibit COX-1?"): it was answered for atorvastatin, simvastatin offered as the next question. "inhibit", "block" and
"antagonize" ask for a chain that lowers the target; the other verbs for any chain into it."""
EACH_CAUSES = re.compile(r"^(?:so |and |ok,? )?(?:does|do|can|could|will|would|might) (?:both |either )?[^,?]+?"
                         r"(?:,? (?:or|and|&) |, )[^?]+? (?:both |all |each |really |also )?(?:cause|trigger|induce|give (?:you |me )?|"
                         r"lead to|bring on|result in) [^?]+\?*$", re.IGNORECASE)
"""The same of a disease or sign the drugs may cause ("do lisinopril and losartan cause cough?"): it was answered for
lisinopril, losartan offered as the next question. A chain that raises the disease answers it (the note on side effects
comes first: ``agents.chain_direction.side_effect_topic``)."""

def and_listed(names: list[str]) -> str:
    """Names as a sentence lists them: "Aspirin, Ibuprofen and naproxen" (one name alone as it is)."""
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else "".join(names)


def listing(names: list[str]) -> str:
    """Names joined by commas, or by semicolons when a name holds a comma ("Chronic lymphoid leukemia, disease" read
    as two answers, the second "disease")."""
    return ("; " if any("," in n for n in names) else ", ").join(names)


def sentence(triples: list[dict[str, str]]) -> str:
    """A path's triples in words, joined by semicolons ("imatinib decreases activity of ABL1; ABL1 causes CML")."""
    return "; ".join(f"{t['head_name']} {t['relation']} {t['tail_name']}" for t in triples)


def treats_notes(state: State, ranked: list[dict[str, Any]], kg: Any, linker: Any) -> str:
    """For "which drug treats Y?" (not kept to a drug class): " All 5 reach Y through X." when every listed drug's
    path enters Y through one entity, and, when Y is a finding (``PhenotypicFeature``) that the graph names a
    manifestation of diseases, those diseases and the question that asks about the first; for a disease reached so,
    the diseases named as kinds of it. "" otherwise."""
    if state.intent != Intent.TREATS.value or state.among or not state.targets:
        return ""
    shared = _shared_entry(ranked, kg)
    return (_by_class(state, ranked, linker) + shared
            + (_narrower(state.targets[0], kg) or (_kinds(state.targets[0], kg, linker) if shared else "")))


_CLASSES_ASKED = re.compile(r"\b(?:(?:drug|medication|medicine) (?:classes|class|types|kinds|categories|groups|families)|"
                            r"(?:classes|types|kinds|categories|groups|families) of (?:drugs|medications|medicines))\b",
                            re.IGNORECASE)
"""A question for drug classes ("what drug classes treat hypertension?"), which was told the drugs alone."""


def _by_class(state: State, ranked: list[dict[str, Any]], linker: Any) -> str:
    """" By class (…): calcium channel blockers: Nicardipine, aranidipine; …" after the drugs, for a question that asks
    for drug classes: each listed drug under the classes the class table gives it, the largest class first; "" for
    any other question."""
    if not _CLASSES_ASKED.search(state.asked):
        return ""
    classes: dict[str, list[str]] = {}
    for a in ranked:
        for c in linker.classes_of(a["id"]):
            classes.setdefault(c, []).append(a["name"])
    how = "the class table lists a class's drugs by the stems of their names"
    if not classes:
        return f" The class table names no class for these drugs ({how})."
    listed = "; ".join(f"{c}: {', '.join(ds)}" for c, ds in sorted(classes.items(), key=lambda kv: -len(kv[1])))
    return f" By class ({how}): {listed}."


def _kinds(entity: str, kg: Any, linker: Any) -> str:
    """" Kinds of Arthritis named so in the knowledge graph: Rheumatoid arthritis, … and 2 more: ask "What drugs treat
    Rheumatoid arthritis?" for one of them." for a disease whose listed drugs all reach it through one generic entry
    ("What can she take?" for arthritis listed carbenoxolone and rebamipide, through Arthralgia); the most connected
    first. "" when no name opens with its own."""
    node = kg.node(entity)
    ids = dict.fromkeys(x for x in linker.headed_by(node.name, [node.type]) if x != entity) if node is not None else {}
    kinds = [kg.name(x) for x in sorted(ids, key=lambda x: -kg.degree(x))]
    return f" Kinds of {node.name} named so in the knowledge graph: {_ask_first(kinds)}" if kinds else ""


def _shared_entry(ranked: list[dict[str, Any]], kg: Any) -> str:
    """" All 5 reach Lymphoma through inflammatory response; the knowledge graph links nothing else into it." when
    at least three answers' paths of two or more steps share their last step's head."""
    lasts = [a["path"]["triples"] for a in ranked]
    if len(lasts) < 3 or any(len(t) < 2 for t in lasts) or len({t[-1]["head"] for t in lasts}) != 1:
        return ""
    last = lasts[0][-1]
    only = all(e.head == last["head"] for e in kg.in_edges(last["tail"]))
    return (f" All {len(lasts)} reach {last['tail_name']} through {last['head_name']}"
            + ("; the knowledge graph links nothing else into it." if only else "."))


def _narrower(entity: str, kg: Any) -> str:
    """" In the knowledge graph Lymphoma is a manifestation of Hodgkin's disease, … and 2 more: ask "What drugs
    treat Hodgkin's disease?" for one of them." for a finding; "" for anything else."""
    node = kg.node(entity)
    if node is None or node.type != "PhenotypicFeature":
        return ""
    diseases = [kg.name(d) for d in manifested_in(kg, entity)]
    return f" In the knowledge graph {node.name} is a manifestation of {_ask_first(diseases)}" if diseases else ""


def _ask_first(diseases: list[str]) -> str:
    """"Hodgkin's disease, … and 2 more: ask "What drugs treat Hodgkin's disease?" for one of them." (the first
    :data:`NARROWER_SHOWN` named, the rest counted; "Avitaminosis and Vitamin A deficiency" for two)."""
    shown, more = diseases[:NARROWER_SHOWN], len(diseases) - NARROWER_SHOWN
    last = f"{more} more" if more > 0 else shown.pop()
    named = f"{listing(shown)} and {last}" if shown else last
    return f"{named}: ask \"What drugs treat {diseases[0]}?\" for {'one of them' if len(diseases) > 1 else 'it'}."


def two_compared(state: State, ends: list[dict[str, str]], shared: dict[str, int]) -> str:
    """"Compare aspirin and ibuprofen" (``State.compared``): what both act on directly, then what only one does, from
    the targets listed (``shared``: how many of the two act on each; a target one acts on is its path's first drug).
    "Aspirin and Ibuprofen both act on: Prostaglandin G/H synthase 2, Prostaglandin G/H synthase 1." """
    first = {a["id"]: a["path"]["triples"][0]["head"] for a in state.ranked_answers}
    both = [e["name"] for e in ends if shared.get(e["id"]) == 2]
    parts = [f"{state.drug_class} both act on: {listing(both)}." if both else
             f"{state.drug_class} act on no target in common in the knowledge graph."]
    named = {m["entity"]["id"]: m["entity"]["name"] for m in state.mentions if m.get("entity")}
    none: list[str] = []
    for drug, name in ((x, named.get(x, x)) for x in state.among):
        own = [e["name"] for e in ends if shared.get(e["id"]) == 1 and first.get(e["id"]) == drug]
        if own:
            parts.append(f"Only {name} acts on: {listing(own)}.")
        elif not both:
            # pegloticase acts on uric acid, a chemical: "none of them" read as if it had targets the others lacked
            none.append(f"{_capitalized(name)} acts directly on no protein, gene family or macromolecular complex in the "
                        "knowledge graph.")
    return " ".join(parts + none)


_IN_COMMON = re.compile(r"\b(?:both|same|in common|shared?|all of them)\b", re.IGNORECASE)
"""A question for what drugs have in common ("what do X and Y both treat?", "… the same diseases?")."""


def several_indicated(state: State) -> tuple[str, list[dict[str, str]]]:
    """"What do lisinopril and metformin treat?" (``State.compared``; ``agents.answer_paths`` gives each listed
    disease with ``features["class_drugs"]``, how many of the drugs' own lists hold it, and ``features["listed_by"]``,
    which): each drug's diseases as "What does X treat?" lists them, those all of them have marked ("… Metformin has a
    verified mechanism for: Diabetes mellitus type 2, …, Hypocalcemia (both)."). A question for what they share ("… both treat?", "… the same diseases?") gets those first: "Imatinib and
    Dasatinib both have a verified mechanism for: Chronic myeloid leukemia; …. Listed for imatinib alone: …", and so
    does a list whose every disease all of them have. The diseases, in the order told, are the answer's items ("the
    second one" next turn)."""
    named = {m["entity"]["id"]: m["entity"]["name"] for m in state.mentions if m.get("entity")}
    n = len(state.among)
    held = [(a, int(a["path"]["features"].get("class_drugs", 0)), a["path"]["triples"][0]["head"]) for a in state.ranked_answers]
    common = [a for a, k, _ in held if k == n]
    mark = " (both)" if n == 2 else " (all)"
    parts, told = [], []
    first = bool(_IN_COMMON.search(state.question)) or len(common) == len(held)  # every one shared: said once
    if first:
        parts.append(f"{_capitalized(state.drug_class)} {'both' if n == 2 else 'all'} have a verified mechanism for: "
                     f"{listing([a['name'] for a in common])}." if common else
                     f"{_capitalized(state.drug_class)} share none of the diseases listed for them.")
        told = list(common)
    for i, drug in enumerate(state.among):
        name = named.get(drug, drug)
        if common and first:
            mine = [a for a, k, head in held if k == 1 and head == drug]
            words = [a["name"] for a in mine]
            lead = f"Listed for {name} alone"
        else:
            mine = sorted((a for a, _, _ in held if int(a["path"]["features"].get("listed_by", 0)) >> i & 1),
                          key=lambda a, i=i: a["path"]["features"].get(f"rank_{i}", 0.0))  # as "What does X treat?" lists them
            words = [a["name"] + (mark if a in common else "") for a in mine]
            lead = f"{_capitalized(name)} has a verified mechanism for"
        told += [a for a in mine if a not in told]
        if mine:
            parts.append(f"{lead}: {listing(words)}.")
        elif not common:
            parts.append(f"{_capitalized(name)} has none in the knowledge graph.")
    return " ".join(parts), [{"id": a["id"], "name": a["name"], "type": a["type"]} for a in told]


def steps(hops: int) -> str:
    """"a 4-step mechanism", "an 8-step mechanism"."""
    return f"{'an' if hops in (8, 11, 18) else 'a'} {hops}-step mechanism"


def for_one_disease(state: State) -> tuple[str, list[dict[str, str]]]:
    """"Which is better for pain, ibuprofen or acetaminophen?" (``State.compared`` for one disease): each drug's
    mechanism in the order the question named them, a drug without one said to have none, then the steps all of them
    pass through. The drugs are the answer's items ("the second one" next turn). A drug whose only chains into the
    disease do not lower it by their signs is said to have those, or else none that lowers it ("Compare metformin and
    insulin glulisine for Diabetes mellitus type 1" said metformin had no verified mechanism, right after its mechanism
    was told)."""
    paths = {a["id"]: a["path"]["triples"] for a in state.ranked_answers}
    named = {m["entity"]["id"]: m["entity"]["name"] for m in state.mentions if m.get("entity")}
    disease = named.get(state.targets[0], "it") if state.targets else "it"
    reaching = {c["triples"][0]["head"] for c in state.candidates if c.get("triples") and c["triples"][-1]["tail"] in state.targets}
    parts, inner = [_each_verdict(state, [named.get(x, x) for x in state.among if x in paths],
                                  [named.get(x, x) for x in state.among if x not in paths and x in reaching])], []
    alike = _alike(state.among, paths)
    none = [named.get(x, x) for x in state.among if x not in paths and x not in reaching]
    up = raising(state)  # "do lisinopril and losartan cause cough?": chains that raise it
    for drug in state.among:
        t, name = paths.get(drug), _capitalized(named.get(drug, drug))
        if t is None and drug in reaching:  # not "no verified mechanism": the walk may have found chains that raise it
            ask = f"Does {name} cause {disease}?" if up else f"How does {name} treat {disease}?"
            parts.append(f"{name} reaches {disease} in the knowledge graph only by chains whose signs do not "
                         f"{'raise' if up else 'lower'} it (ask \"{ask}\" for the best of them).")
        if t is None and drug not in reaching and named.get(drug, drug) == none[0]:  # every drug with none, at once
            parts.append(f"{_capitalized(and_listed(none))} ha{'s' if len(none) == 1 else 've'} no chain in the knowledge graph "
                         f"{'into' if _any_chain(state) else 'that raises' if up else 'that lowers'} {disease}.")
        if t is None:
            continue
        inner.append([x["tail_name"] for x in t[:-1]])
        if len(group := alike[drug]) > 1 and group[0] == drug:  # "Nebivolol, Propranolol and Sotalol act on …"
            parts.append(f"{_capitalized(and_listed([named.get(x, x) for x in group]))} act on {t[-1]['tail_name']} through "
                         f"the same {steps(len(t)).split(' ', 1)[1]} (shown for {name}): {sentence(t)}.")
        elif len(group) == 1:
            parts.append(f"{name} acts on {t[-1]['tail_name']} through {steps(len(t))}: {sentence(t)}.")
    if len(inner) >= 2 and len({tuple(g) for g in alike.values()}) > 1:
        shared = [n for n in inner[0] if all(n in other for other in inner[1:])]
        who = "Both" if len(inner) == 2 else f"All {len(inner)}"
        parts.append(f"{who} pass through: {listing(shared)}." if shared else "Their mechanisms share no step in between.")
    return " ".join(p for p in parts if p), [{"id": x, "name": named.get(x, x)} for x in state.among if x in paths]


def _alike(drugs: list[str], paths: dict[str, list[dict[str, str]]]) -> dict[str, list[str]]:
    """For each drug with a path, the drugs (in the question's order) whose paths are the same after the drug itself:
    ten beta blockers compared for migraine each told the same four steps through the Beta-1 adrenergic receptor."""
    def rest(t: list[dict[str, str]]) -> tuple[Any, ...]:
        return (t[0]["relation"], t[0]["tail"], *((x["relation"], x["tail"]) for x in t[1:]))
    keys = {d: rest(paths[d]) for d in drugs if d in paths}
    return {d: [x for x in drugs if keys.get(x) == k] for d, k in keys.items()}


CURE = re.compile(r"\b(?:cure[sd]?|curing|heal(?:s|ed)?|get rid of|eliminate[sd]?|reverse[sd]?)\b", re.IGNORECASE)
"""A question about a cure, which a path that lowers the disease does not answer ("does donepezil cure Alzheimer's?")."""


_LOWERING = ("inhibit", "block", "antagonize", "antagonise")
"""The verbs of :data:`EACH_ACTS` that only a chain lowering the target answers."""


def _any_chain(state: State) -> bool:
    """Whether the question asks for any chain into its target, whatever its signs ("do … both target …?")."""
    acts = EACH_ACTS.match(" ".join(state.asked.split()))
    return acts is not None and acts["v"].lower() not in _LOWERING


def _each_verdict(state: State, lowering: list[str], reaching: list[str]) -> str:
    """Whether the drugs asked about treat the disease, before each one's mechanism: "Yes, both:" ("do losartan and
    valsartan treat hypertension?", "does allopurinol or colchicine treat gout?"), "Only Aspirin, of the two:" when
    some have no chain that lowers it (each one's sentence says which); it was told each drug's mechanism with no
    answer to the question asked. A question about a cure is told what a chain says; "" for a comparison, or when
    none has a chain. ``reaching``: the drugs whose only chains into it do not lower it, which "do … both target …?"
    counts too."""
    n, asked = len(state.among), " ".join(state.asked.split())
    if _any_chain(state):
        lowering = [*lowering, *reaching]
    if not (EACH_ACTS.match(asked) or EACH_TREATS.match(asked) or EACH_CAUSES.match(asked)) or not lowering:
        return ""
    if CURE.search(state.asked):
        return "The knowledge graph records how a drug lowers a disease, not whether it cures it:"
    if len(lowering) == n:
        return "Yes, both:" if n == 2 else f"Yes, all {n}:"
    return f"Only {and_listed([_capitalized(x) for x in lowering])}, of the {'two' if n == 2 else n}:"


def raising(state: State) -> bool:
    """Whether the drugs compared for one disease are asked whether they cause it (:data:`EACH_CAUSES`): each one's
    chain must raise it, not lower it."""
    return bool(state.compared and EACH_CAUSES.match(" ".join(state.asked.split())))


def _capitalized(name: str) -> str:
    """A name opening a sentence ("allopurinol" → "Allopurinol"), the rest as written ("cGMP" stays)."""
    return f"{name[:1].upper()}{name[1:]}"


CITED = ("sources", "sure")
"""The follow-ups (``Resolution.references``' "how") whose answer ends with its sources in the text: "show me the
sources", and "are you sure?", which says first what the answer rests on."""


def sources_line(citations: list[dict[str, Any]]) -> str:
    """The citations in the answer's text, for "show me the sources" (every client also shows them apart)."""
    return " Sources: " + "; ".join(f"{c['title']} ({c.get('id') or c['url']})" for c in citations) + "."


def thread_notes(state: State, accepted: list[dict[str, Any]], citations: list[dict[str, Any]]) -> str:
    """What a follow-up about the last answer asks for after it: its sources in the text ("show me the sources"), or
    the other paths the Reviewer accepted ("is that the only mechanism?", "are there other paths?"; they were
    NOT_FOUND, "no known entity in the question")."""
    hows = {r.get("how") for r in state.references}
    if "sure" in hows:  # "are you sure?": what the answer rests on
        return (" It rests on these curated DrugMechDB relations, which the Reviewer checked against the graph; they are"
                " not a clinical judgement." + sources_line(citations))
    if hows & set(CITED):
        return sources_line(citations)
    if "other paths" not in hows:
        return ""
    routes: dict[tuple[str, ...], str] = {}  # one path per route (its nodes); the first, the answer's, is left out
    for p in accepted:
        routes.setdefault(_nodes(p), p["text"])
    others, variants = list(routes.values())[1:], len({p["text"] for p in accepted}) - len(routes)
    same = (f" {variants} other accepted path{'s take' if variants > 1 else ' takes'} the same steps with another relation "
            "between some of them.") if variants else ""
    if not others:
        return " The Reviewer accepted no other route for this question." + same
    more = f" ({len(others) - OTHER_PATHS_SHOWN} more)" if len(others) > OTHER_PATHS_SHOWN else ""
    return (f" Other routes the Reviewer accepted{more}: " + " ".join(f"{i}. {t}." for i, t in
                                                                      enumerate(others[:OTHER_PATHS_SHOWN], 2)) + same)


def _nodes(path: dict[str, Any]) -> tuple[str, ...]:
    """The entities a path passes through, in order: two paths through the same ones are one route."""
    triples = path.get("triples") or []
    return tuple([str(t.get("head")) for t in triples] + [str(triples[-1].get("tail"))]) if triples else (str(path.get("text")),)


_NO_NAME = re.compile(r"^(?:are|is|was|were|be|can|could|do|does|that|which|who|not|also|has|have|may|might|will|would)\b",
                      re.IGNORECASE)
"""The first word of a clause after "and", which no name begins with ("what drugs treat gout and are safe in …?")."""
_EITHER = re.compile(r"^(?:both|either)\s+", re.IGNORECASE)
"""The word before two listed names ("both EGFR and HER2")."""
LISTED = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,|\s(?:and|or|&)\s)\s*", re.IGNORECASE)
"""What separates the names a text lists ("imatinib and foobarzumab", "gout, asthma and diabetes")."""


def _known_as(linker: Any, text: str, entity: str) -> bool:
    """Whether the linker takes ``text`` for ``entity`` by its letters (a name, an alias, a gene symbol), not by a guess."""
    best = linker.link(text).best
    return best is not None and best.id == entity and best.method not in GUESSED_METHODS


def guessed_note(state: State, linker: Any = None) -> str:
    """Say which names were linked by a guess, not by their letters: "dipyrone" is in no name of the graph, and its
    nearest meaning is Dipyridamole (``tools.linker``: embedding similarity, or a word n-gram of a longer mention; see
    ``tools.linker.guessed``). A name the free-text scan found ("tylenol vs advil for fever") is a whole name or alias as
    written, never a guess. Two names of which one is the entity's ("What do imatinib and foobarzumab treat?": each name
    a slot lists is split off only when all are known) say which the graph does not know; it was dropped without a
    word. A name is the entity's by its name or, with the ``linker``, by an alias ("which drugs target both EGFR and
    HER2?": EGFR is Epidermal growth factor receptor, and "both EGFR and HER2" was said to be read as it)."""
    read, told = [], []
    for m in state.mentions:
        if not (ent := m.get("entity")) or m.get("slot") == "free" or not guessed(m["mention"], ent["name"], ent.get("method", "")):
            continue
        parts = [x for x in LISTED.split(_EITHER.sub("", m["mention"])) if x.strip()]
        own = [x for x in parts if fold(x) == fold(ent["name"]) or linker is not None and _known_as(linker, x, ent["id"])]
        if len(parts) == 2 and len(own) == 1 and not _NO_NAME.match(other := next(x for x in parts if x != own[0])):
            told.append(f"\"{other}\" is not a name in the knowledge graph; answered for {ent['name']}. ")
        else:
            read.append(f"\"{m['mention']}\" as {ent['name']}")
    lead = "".join(told)
    if not read:
        return lead
    return f"{lead}Read {', '.join(read)}: the closest {'name' if len(read) == 1 else 'names'} in the knowledge graph. "


_SCOPE_LEAD = re.compile(r"^The knowledge graph holds curated drug mechanisms, not [^.]+\.(?: What it holds:)? ")
"""The note that opens an answer to a question the graph cannot answer (``agents.explainer._scoped``)."""


def after_scope(answer: str, lead: str) -> str:
    """``lead`` before ``answer``, after its note on what the graph lacks when it opens with one: "The knowledge graph
    holds curated drug mechanisms, not safety. What it holds: Alternatives by mechanism, Aspirin left out. …" (the
    lead came first, so that the note read as being about the alternatives)."""
    m = _SCOPE_LEAD.match(answer)
    return f"{answer[:m.end()]}{lead}{answer[m.end():]}" if m else f"{lead}{answer}"
