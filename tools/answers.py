"""Ranked entity answers ("which drug treats Y?"): the best-ranked path per answer entity."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from core.text import fold
from memory.protocols import Edge
from tools.path_ranker import effect
from tools.walker import CandidatePath

__all__ = [
    "ANSWERS_K",
    "BECOMES",
    "DISEASE_KINDS",
    "FUSE_DEPTH",
    "HUB_DAMPING",
    "INDICATION_DAMPING",
    "INDICATION_TRANSFER_WEIGHT",
    "MANIFESTING",
    "METABOLITE",
    "PAGERANK_ALPHA",
    "PAGERANK_EPS",
    "PAGERANK_WEIGHT",
    "RAISING",
    "ROUTE_SHARE",
    "TARGET_KINDS",
    "TARGET_TYPES",
    "TRANSFER_WEIGHT",
    "acting_on",
    "asked_sign",
    "asked_verb",
    "by_type_preference",
    "class_routes",
    "class_share",
    "direct_chains",
    "disease_mates",
    "fuse",
    "in_direction",
    "joins",
    "lowers",
    "manifested_in",
    "of_kind",
    "of_target_kind",
    "place_of",
    "preference",
    "rank_endpoints",
    "route_step",
    "same_named",
    "shared_targets",
    "sign_verb",
    "starts_by_type_preference",
    "target_mates",
    "types_of",
    "upstream_links",
]

ANSWERS_K = 5
"""Answers listed per question."""
METABOLITE = "has metabolite"
"""The relation by which a prodrug acts through what it becomes (:func:`shared_targets`)."""
FUSE_DEPTH = 20
"""Entries of each ranking that :func:`fuse` reads."""
PAGERANK_WEIGHT = 3.0
"""Weight of PageRank from Y against the drugs' best paths (weight 1) in "which drug treats Y". Chosen on the tune
half's 524 diseases, drugs listed before chemicals: MRR 0.399 at 1, 0.424 at 2, 0.425 at 3 and 4, 0.419 at 6
(``docs/ranking.md``, "Which drug treats Y?")."""
PAGERANK_ALPHA = 0.9
"""PageRank from Y for "which drug treats Y" continues a walk with this probability (the path ranker's PageRank
columns use 0.5). Curated chains run 3–6 steps, and at 0.5 PageRank rarely reaches a drug more than two steps away:
"What drug treats migraine?" listed camphor (camphor → Pain → Migraine) before any triptan. Chosen on the tune half's
524 diseases with :data:`HUB_DAMPING` (MRR 0.426 at 0.5 without damping, 0.443 at 0.85, 0.449 at 0.9;
``docs/ranking.md``)."""
PAGERANK_EPS = 3e-5
"""Push threshold of that PageRank (residual per unit of degree). At 1e-5 the push reached about twice as many
nodes (a median of 3,208 against 1,773 a disease), for the same answers to within 0.002 MRR on the tune half."""
INDICATION_DAMPING = 0.0
""""What does X treat?" ranks diseases by PageRank downstream from X, their mass divided by their degree to this
power: none. Chosen on 400 tune-half drugs: MRR 0.500 at 0, 0.462 at 0.25 (``docs/ranking.md``)."""
INDICATION_TRANSFER_WEIGHT = 4.0
"""Weight of :func:`disease_mates` in "what does X treat?", beside the diseases its paths lower (weight 1) and
PageRank downstream from X (:data:`PAGERANK_WEIGHT`). Chosen on the tune half, half of its drugs learned from and 324
of the other half's drugs asked (``bench/bench_answer_transfer.py``): MRR 0.512 without, 0.546 at 1, 0.597 at 3, 0.598 at 4, 0.599 at 5, 0.589 at 10
(``docs/ranking.md``)."""
BECOMES = frozenset({METABOLITE, "produces"})
"""A drug's first step to what it becomes in the body, before it acts (:func:`class_routes`)."""
ROUTE_SHARE = 0.25
"""How a drug class acts on a disease (:func:`class_routes`) lists a route that at least this share of the most
taken route's drugs take."""
TRANSFER_WEIGHT = 2.0
"""Weight of :func:`target_mates` (the drugs that share a target with the curated drugs for Y) in "which drug treats
Y", beside the drugs' best paths (weight 1) and PageRank (:data:`PAGERANK_WEIGHT`). Chosen on the tune half, half
of its drugs learned from and the other half's diseases answered (``bench/bench_answer_transfer.py``): MRR on the
unlearned drugs 0.517 without, 0.541 at 1, 0.561 at 2, 0.561 at 3, 0.554 at 5 (``docs/ranking.md``; before e03bb23
counted a learned drug in its share, 0.537, 0.550, 0.542 and 0.537)."""
HUB_DAMPING = 0.25
"""A drug's PageRank mass is divided by its degree to this power before ranking, so that a drug linked to many
things does not outrank the drugs whose mechanisms end at Y."""


DISEASE_KINDS: dict[str, re.Pattern[str]] = {
    "blood cancer": re.compile(r"leuk(?:a)?emi|lymphom|hodgkin|myelom|plasmacytom|myelodysplas|myeloprolif|waldenstr|"
                               r"macroglobulin|mycosis fungoides|blast crisis|polycyth(?:a)?emia vera", re.IGNORECASE),
    "cancer": re.compile(r"cancer|carcinom|leuk(?:a)?emi|lymphom|hodgkin|myelom|sarcom|melanom|tumou?r|neoplas|blastoma|"
                         r"gliom|mesotheliom|malignan|metasta|mycosis fungoides|waldenstr", re.IGNORECASE),
    "infection": re.compile(r"infect|sepsis|septic|pneumonia|tubercul|malaria|abscess|gonorrh|syphilis|leprosy|"
                            r"candidiasis|mycosis(?! fungoides)|mycoses|worm|helminth|viral|bacterial|fungal|parasit", re.IGNORECASE),
    "diabetes": re.compile(r"diabet", re.IGNORECASE),
}
"""The kinds of disease a question may ask for ("What cancers does imatinib treat?"), by words of the graph's names."""

TARGET_KINDS: dict[str, re.Pattern[str]] = {
    "receptor": re.compile(r"receptor", re.IGNORECASE),
    "enzyme": re.compile(r"ase\b|\benzyme\b", re.IGNORECASE),  # synthase, reductase, ATPase, Angiotensin-converting enzyme
    "kinase": re.compile(r"kinase", re.IGNORECASE),
    "channel": re.compile(r"channel", re.IGNORECASE),
    "transporter": re.compile(r"transporter|symporter|antiporter|exchanger|pump|transporting", re.IGNORECASE),
}
"""The kinds of target a question may ask for ("Which receptor does propranolol block?"), by words of the graph's
names."""


def of_target_kind(name: str, kind: str) -> bool:
    """Whether a target's name says it is of ``kind`` ("" is any): "Beta-1 adrenergic receptor" is a receptor."""
    return not kind or bool(TARGET_KINDS[kind].search(name))


def of_kind(kg: Any, entity: str, kind: str) -> bool:
    """Whether the entity is a disease of ``kind`` ("" is any): its name says so ("Chronic myeloid leukemia"), or, for
    an infection, the graph links an organism into it ("Staphylococcus aureus —causes→ Impetigo")."""
    if not kind:
        return True
    if DISEASE_KINDS[kind].search(kg.name(entity)):
        return True
    type_of = types_of(kg)
    return kind == "infection" and any(type_of(e.head) == "OrganismTaxon" for e in kg.in_edges(entity))


def types_of(kg: Any) -> Callable[[str], str]:
    """The type of an entity id in ``kg`` ("" for an unknown id): what the rankings below read."""
    def type_of(x: str) -> str:
        e = kg.node(x)
        return e.type if e is not None else ""

    return type_of


def rank_endpoints(paths: Sequence[CandidatePath], side: str, wanted: Collection[str], type_of: Callable[[str], str],
                   exclude: Collection[str] = (), k: int = ANSWERS_K,
                   keep: Callable[[CandidatePath], bool] = lambda _p: True,
                   key: Callable[[str], str] = lambda n: n) -> list[tuple[str, CandidatePath]]:
    """``(entity id, its best path)`` for the ``k`` best distinct end entities of ``wanted`` types.

    ``paths`` are ranked best first; ``side`` is ``"start"`` (the path's first node, e.g. the drug of "what treats Y")
    or ``"end"`` (its last node, e.g. the target of "what does X target"). Entities in ``exclude`` (the question's own
    seeds) are never answers; a path that ``keep`` refuses is never an entity's best path. Entities with the same
    ``key`` are one answer ("Anemia" is both an HPO and a MeSH id: keyed by name, it is listed once), in the place of
    the first, by the one whose type comes first in ``wanted`` (the MeSH disease before the HPO phenotype).
    """
    out: list[tuple[str, CandidatePath]] = []
    excluded = {key(x) for x in exclude}
    rank = preference(wanted, type_of)
    for p in paths:
        if not p.edges:
            continue
        node = p.nodes[0] if side == "start" else p.nodes[-1]
        if key(node) in excluded or type_of(node) not in wanted or not keep(p):
            continue
        takes, twin = place_of(node, [x for x, _ in out], key, rank)
        if twin is not None and takes:
            out[twin] = (node, p)
        elif takes:
            out.append((node, p))
        if len(out) >= k:
            break
    return out


def place_of(x: str, listed: Sequence[str], key: Callable[[str], str], rank: Callable[[str], int]
             ) -> tuple[bool, int | None]:
    """Whether ``x`` joins the ``listed`` answers, and the index of the one with its ``key`` (its twin) that it
    replaces: no twin, it is added; a twin of a type ``rank`` places after its own, it replaces it; else it is not."""
    twin = next((i for i, y in enumerate(listed) if key(y) == key(x)), None)
    return twin is None or rank(x) < rank(listed[twin]), twin


def preference(types: Collection[str], type_of: Callable[[str], str]) -> Callable[[str], int]:
    """An entity's place by its type in ``types`` (a goal's types, the preferred first), after them for any other."""
    rank = {t: i for i, t in enumerate(types)}
    return lambda x: rank.get(type_of(x), len(rank))


def fuse(*rankings: Sequence[str], depth: int = FUSE_DEPTH, weights: Sequence[float] = ()) -> list[str]:
    """Weighted reciprocal-rank fusion: ``Σ weight / rank`` over the rankings' first ``depth`` entries (weight 1 for
    a ranking without one), best first (ties: the order of first appearance). "Which drug treats Y" fuses the
    drugs' best mechanism paths with PageRank from Y, the latter weighted :data:`PAGERANK_WEIGHT`
    (``docs/ranking.md``)."""
    score: dict[str, float] = {}
    for j, ranking in enumerate(rankings):
        w = weights[j] if j < len(weights) else 1.0
        for i, x in enumerate(list(dict.fromkeys(ranking))[:depth]):
            score[x] = score.get(x, 0.0) + w / (i + 1)
    return sorted(score, key=lambda x: -score[x])


def by_type_preference(ids: Sequence[str], types: Sequence[str], type_of: Callable[[str], str]) -> list[str]:
    """``ids`` reordered by the position of their type in ``types`` (the preferred first), keeping the order
    within a type; an id of another type goes last. "Which drug treats Y" lists drugs before chemicals, so that an
    endogenous substance on a path to Y ("acetylated histones", "Prostaglandins") never displaces a drug."""
    return sorted(ids, key=preference(types, type_of))


def starts_by_type_preference(paths: Sequence[CandidatePath], types: Sequence[str], type_of: Callable[[str], str]
                              ) -> list[CandidatePath]:
    """``paths`` reordered by their first node's type, as :func:`by_type_preference` orders entities: "which drug
    treats Y" shows and reviews the drugs' paths before a chemical's ("Capsid Proteins" for Influenza)."""
    rank = preference(types, type_of)
    return sorted(paths, key=lambda p: rank(p.nodes[0]) if p.edges else len(types))


NOT_TREATING = frozenset({"contraindicated for"})
"""Relations that no treatment passes through: "Paclitaxel —contraindicated for→ Hypertensive disorder" made
paclitaxel the second answer to "What drug treats hypertension?"."""


def lowers(p: CandidatePath) -> bool:
    """False for a path whose signed relations say the start *raises* the end ("uric acid —positively correlated
    with→ gout"): that is a cause, not a treatment; and for a path through a contraindication. Paths with no signed
    relation pass."""
    if any(e.relation in NOT_TREATING for e in p.edges):
        return False
    return effect([e.relation for e in p.edges]) <= 0


_LOWER = r"lower(?:s|ed|ing)?|reduc(?:e|es|ed|ing)|decreas(?:e|es|ed|ing)"
_RAISE = r"rais(?:e|es|ed|ing)|increas(?:e|es|ed|ing)|boost(?:s|ed|ing)?|elevat(?:e|es|ed|ing)"
"""Verbs of amount, spelled out: "reductase" names an enzyme, not a direction."""
_LOWERING_VERB = re.compile(rf"\b(?:inhibit|block|antagoni[sz]|suppress|downregulat|deactivat|inactivat)\w*|\b(?:{_LOWER})\b"
                            r"|\bantagonists?\b", re.IGNORECASE)
_RAISING_VERB = re.compile(rf"\b(?:activat|stimulat|agoni[sz]|upregulat|potentiat|enhanc)\w*|\b(?:{_RAISE})\b|\bagonists?\b",
                           re.IGNORECASE)
_AMOUNT_VERB = re.compile(rf"\b(?:{_LOWER}|{_RAISE})\b", re.IGNORECASE)
"""Verbs of amount ("lower histamine"), named back as "lower" and "raise" rather than "inhibit" and "activate"."""


def asked_sign(question: str) -> int:
    """The direction a "which drugs … X" question asks for: -1 for "inhibit", "block", "lower", "antagonists of";
    +1 for "activate", "stimulate", "raise", "agonists of"; 0 for "target", "act on", "bind" (or both kinds of
    word)."""
    down, up = bool(_LOWERING_VERB.search(question)), bool(_RAISING_VERB.search(question))
    return -1 if down and not up else 1 if up and not down else 0


def asked_verb(question: str) -> str:
    """How an answer names what the listed drugs do, by :func:`asked_sign`: "inhibit", "activate", or, for a
    question that asks about an amount ("Which drugs lower histamine?"), "lower" and "raise"; "act on" without a
    direction."""
    return sign_verb(asked_sign(question), amount=bool(_AMOUNT_VERB.search(question)))


def sign_verb(sign: int, *, amount: bool = False) -> str:
    """The verb for a direction: "inhibit" (-1), "activate" (+1), "act on" (0); of an amount, "lower" and "raise"."""
    if not sign:
        return "act on"
    return ("lower" if amount else "inhibit") if sign < 0 else ("raise" if amount else "activate")


def in_direction(paths: Sequence[CandidatePath], sign: int) -> list[CandidatePath]:
    """``paths`` whose signed relations act on their end in the direction ``sign`` asks for, then those with no
    signed relation; those acting the other way are left out ("Which drugs block the beta-2 adrenergic receptor?"
    listed salbutamol, which activates it). All of ``paths`` when ``sign`` is 0."""
    if not sign:
        return list(paths)
    signs = [effect([e.relation for e in p.edges]) for p in paths]
    return [p for p, s in zip(paths, signs, strict=True) if s == sign] + [p for p, s in zip(paths, signs, strict=True) if not s]


RAISING = ("causes", "contributes to", "affects risk for", "positively regulates", "positively correlated with")
"""Relations by which an entity raises a disease, the most direct first: what "What causes Y?" lists. "correlated
with" has no sign and "manifestation of" is a symptom, not a cause, so neither is listed."""
MANIFESTING = ("manifestation of", "phenotype of")
"""Relations by which a sign or symptom shows a disease ("Wheezing —manifestation of→ Asthma"): what "What are the
symptoms of Y?" lists."""


def upstream_links(kg: Any, diseases: Sequence[str], uses: Callable[[Edge], int] = lambda _e: 0,
                   k: int | None = None, relations: Sequence[str] = RAISING) -> list[CandidatePath]:
    """What the graph links into ``diseases`` as raising them ("What causes gout?" → "uric acid —positively
    correlated with→ Gout"): one path per entity, its one edge of a :data:`RAISING` relation into a disease (or of
    ``relations``: :data:`MANIFESTING` for its signs and symptoms).

    They come in the order of ``relations`` (a cause before a correlate), then by how many curated mechanisms use
    the edge (``uses``: the curated chains other questions learned from), then the most connected entity first.
    The graph is the union of curated drug mechanisms, so these are the upstream links those mechanisms pass
    through, not a full account of a disease's causes (the answer says so)."""
    tier = {r: i for i, r in enumerate(relations)}
    best: dict[str, tuple[tuple[int, int, int, str], Edge]] = {}
    for disease in dict.fromkeys(diseases):
        for e in kg.in_edges(disease):
            if e.relation in tier and e.head not in diseases:
                key = (tier[e.relation], -uses(e), -kg.degree(e.head), e.head)
                if e.head not in best or key < best[e.head][0]:
                    best[e.head] = (key, e)
    order = sorted(best.values(), key=lambda x: x[0])[:k]
    return [CandidatePath((e,), (1.0,), score=-float(key[0])) for key, e in order]


def same_named(kg: Any, ids: Collection[str]) -> set[str]:
    """``ids`` and every entity whose name is one of theirs, case folded: the graph holds 145 names under two or more ids
    (Hyperglycemia is HP:0003074, a phenotype, and MESH:D006943, a disease; the curated chains of SGLT2 inhibitors
    reach the first, and the linker reads the name as the second)."""
    out = set(ids)
    for x in ids:
        name = fold(kg.name(x))
        out.update(e.id for e in kg.lookup(kg.name(x)) if fold(e.name) == name)
    return out


def joins(nodes: Collection[str], sources: Collection[str], targets: Collection[str], name: Callable[[str], str]) -> bool:
    """True when a path's ``nodes`` hold one of the question's sources and one of its targets, by id or by name (the
    disease the question named may be the one of that name that the dense back-off found)."""
    names = {fold(name(x)) for x in nodes}

    def holds(ends: Collection[str]) -> bool:
        return any(x in nodes or fold(name(x)) in names for x in ends)

    return holds(sources) and holds(targets)


def shared_targets(kg: Any, drugs: Sequence[str], wanted: Collection[str], type_of: Callable[[str], str],
                   k: int = ANSWERS_K) -> list[tuple[str, CandidatePath]]:
    """What a drug class acts on ("What do statins target?"): the entities of ``wanted`` types that the most of
    ``drugs`` act on directly or through a metabolite (simvastatin —has metabolite→ simvastatin hydroxy acid
    —decreases activity of→ HMG-CoA reductase), each with the path of the first of them (``drugs`` come most
    connected first). The path's ``features["class_drugs"]`` is how many of the drugs act on it, and its score that
    share."""
    heads: dict[str, list[tuple[Edge, ...]]] = {}
    for drug in drugs:
        for chain in direct_chains(kg, drug):
            t = chain[-1].tail
            if type_of(t) in wanted and all(x[0].head != drug for x in heads.get(t, [])):
                heads.setdefault(t, []).append(chain)
    order = sorted(heads, key=lambda t: (-len(heads[t]), -kg.degree(t), t))[:k]
    return [(t, CandidatePath(heads[t][0], (1.0,) * len(heads[t][0]), score=len(heads[t]) / len(drugs),
                              features={"class_drugs": float(len(heads[t]))})) for t in order]


def direct_chains(kg: Any, drug: str) -> list[tuple[Edge, ...]]:
    """What ``drug`` acts on directly, and through what it becomes (its edges, and those of what it has as a metabolite
    or produces: :data:`BECOMES`, as the target order reads "direct")."""
    chains: list[tuple[Edge, ...]] = [(e,) for e in kg.out_edges(drug)]
    return chains + [(m, e) for m, in chains if m.relation in BECOMES for e in kg.out_edges(m.tail)]


def class_share(kg: Any, drugs: Sequence[str]) -> Counter[str]:
    """How many of ``drugs`` act on each entity directly or through a metabolite: what a drug's class shares
    (atorvastatin's fellow statins act on HMG-CoA reductase, none on lipoprotein lipase)."""
    return Counter(t for drug in drugs for t in {chain[-1].tail for chain in direct_chains(kg, drug)})


TARGET_TYPES = frozenset({"Protein", "GeneFamily", "MacromolecularComplex"})
"""What a drug acts on directly: an entity of another type (a chemical, a process) it may act on through one of these."""
PROCESS_TYPES = frozenset({"BiologicalProcess", "MolecularActivity", "Pathway"})
"""What a target acts on a chemical through ("urate salt excretion"): a drug acting on the target acts on the chemical
(:func:`acting_on`: "which drugs treat gout but not by lowering uric acid?" listed lesinurad, a uricosuric)."""
FEW_TARGETS = 3
"""The most targets a process may have for a drug to act through it (:func:`acting_on`): "inflammatory response" would
bring in most drugs."""
_AMOUNT_RELATIONS = frozenset({"increases abundance of", "decreases abundance of", "increases activity of", "decreases activity of"})
"""How a process changes a chemical's amount (not "positively correlated with": muscarinic antagonists do not lower
acetylcholine)."""


def target_mates(kg: Any, learned: Collection[str], treating: Collection[str], types: Collection[str]) -> list[str]:
    """Drugs of ``types`` ranked by how much their targets say they treat a disease, learnt from other drugs: for
    each target a drug acts on, and the direction it acts in (``effect`` of the relation: blocking ACE is not
    activating it), the share of the ``learned`` drugs (those whose curated chains were counted) acting on it so that
    ``treating`` holds (the learned drugs with a chain into the disease), summed over its targets: k / (n + 1), n the
    learned drugs acting on it so, k those of them that treat, the drug itself never among the k. A drug is never
    its own mate, so its own chain does not lift it; and whether it was learned does not change its share (n counts it
    then: with n the others alone, a learned drug curated for other diseases, azelastine, outranked the unlearned
    famotidine for reflux on the same H2 receptor). "Which drug treats hypertension?" learns from the curated
    calcium channel blockers that another drug blocking those channels is one. Targets are read in a fixed order, so
    that the sums, and the order of drugs whose sums tie, do not depend on the process's string hashing."""
    type_of = types_of(kg)
    learned, treating = set(learned), set(treating)
    score: dict[str, float] = {}
    for key in sorted({_aim(e) for drug in treating for e in kg.out_edges(drug) if type_of(e.tail) in TARGET_TYPES}):
        acting = _acting_alike(kg, *key, becoming=False)
        mates = acting & learned
        for d in acting:
            if type_of(d) in types and (others := mates - {d}):
                score[d] = score.get(d, 0.0) + len(others & treating) / (len(mates) + 1)
    return sorted((d for d in score if score[d] > 0), key=lambda d: (-score[d], d))


def disease_mates(kg: Any, drug: str, learned: Collection[str], diseases_of: Callable[[str], Collection[str]]
                  ) -> list[str]:
    """"What does X treat?" mirrored from :func:`target_mates`: diseases ranked, for each target ``drug`` acts on
    and its direction, by the share of the other ``learned`` drugs acting on it alike that have a curated chain into
    them (``diseases_of``), summed over its targets. The drug's own chains never count. Here a drug and its mates act
    on what they become acts on (:func:`_aims`); in :func:`target_mates` that measured worse (docs/ranking.md)."""
    learned = set(learned) - {drug}
    score: dict[str, float] = {}
    for key in sorted(_aims(kg, drug)):
        mates = _acting_alike(kg, *key) & learned
        for y, n in Counter(y for m in mates for y in diseases_of(m)).items():
            score[y] = score.get(y, 0.0) + n / (len(mates) + 1)
    return sorted(score, key=lambda y: (-score[y], y))


def _aim(e: Edge) -> tuple[str, int]:
    """What an edge from a drug acts on, and in which direction."""
    return e.tail, effect([e.relation])


def _aims(kg: Any, drug: str) -> set[tuple[str, int]]:
    """What ``drug`` and what it becomes act on, each with its direction (prednisone, through prednisolone)."""
    type_of = types_of(kg)
    acting = [drug, *(e.tail for e in kg.out_edges(drug) if e.relation in BECOMES)]
    return {_aim(e) for x in acting for e in kg.out_edges(x) if type_of(e.tail) in TARGET_TYPES}


def _acting_alike(kg: Any, target: str, sign: int, becoming: bool = True) -> set[str]:
    """Whatever acts on ``target`` in the direction ``sign``: directly, or also through what it becomes."""
    direct = {e.head for e in kg.in_edges(target) if effect([e.relation]) == sign}
    return direct | {e.head for x in direct for e in kg.in_edges(x) if e.relation in BECOMES} if becoming else direct


def acting_on(kg: Any, node: str, drug_types: Collection[str], sign: int = 0) -> list[str]:
    """The drugs that act on ``node`` ("drugs that block ACE"): directly, through what they become (enalapril —has
    metabolite→ enalaprilat —decreases activity of→ ACE), or, for a ``node`` that is no target (uric acid), through a
    target (allopurinol → xanthine dehydrogenase → uric acid), and for a chemical through a target and a process
    (lesinurad → URAT1 → urate salt excretion → uric acid). With ``sign``, only those whose chain acts in that
    direction or has no signed relation. The nearest first, then the most specific (the fewest relations: infliximab,
    which acts on TNF alone, before lenalidomide)."""
    type_of = types_of(kg)
    last = list(kg.in_edges(node))
    beyond = type_of(node) not in TARGET_TYPES  # a chemical or a process: through a target too
    chains: list[tuple[Edge, ...]] = [(e,) for e in last]
    chains += [(m, e) for e in last for m in kg.in_edges(e.head)
               if m.relation in BECOMES or (beyond and type_of(e.head) in TARGET_TYPES)]
    if beyond and type_of(node) == "ChemicalSubstance":  # lesinurad → URAT1 → urate salt excretion → uric acid
        for e in last:  # a process few targets act on
            into = [m for m in kg.in_edges(e.head) if type_of(m.head) in TARGET_TYPES] \
                if type_of(e.head) in PROCESS_TYPES and e.relation in _AMOUNT_RELATIONS else []
            chains += [(t, m, e) for m in into for t in kg.in_edges(m.head)] if len(into) <= FEW_TARGETS else []
    hops: dict[str, int] = {}
    for c in chains:
        if type_of(c[0].head) in drug_types and (not sign or effect([e.relation for e in c]) in (sign, 0)):
            hops[c[0].head] = min(hops.get(c[0].head, len(c)), len(c))
    return sorted(hops, key=lambda d: (hops[d], kg.degree(d), d))


def route_step(relations: Sequence[str]) -> int:
    """Where a drug's path into a disease meets what the drug acts on (:func:`class_routes`): its second node, or its
    third after a step to what the drug becomes (enalapril —produces→ enalaprilat —decreases activity of→ ACE); 0 for
    a path with no step between that and the disease."""
    step = 2 if len(relations) > 2 and relations[0] in BECOMES else 1
    return step if len(relations) > step else 0


def class_routes(paths: Sequence[CandidatePath], drugs: Collection[str], into: Collection[str], k: int = ANSWERS_K, *,
                 key: Callable[[str], str] = lambda x: x) -> list[tuple[str, CandidatePath]]:
    """How a drug class acts on a disease ("How do statins lower cholesterol?"): the first entities its drugs act on
    on the ranked ``paths`` into the disease (``into``) that lower it (after a step to what the drug becomes: enalapril
    —produces→ enalaprilat —decreases activity of→ ACE), the one the most of ``drugs`` go through first (ties: the
    better-ranked path first), each with the best-ranked path through it. The path's ``features["class_drugs"]`` is
    how many of the drugs' paths go through it. When the relations' signs say no path lowers the disease (antihistamines
    into Allergy), every path counts. A route that fewer than ``ROUTE_SHARE`` of the first one's drugs take
    is left out, and so is a single step from a drug to the disease. Entities with one ``key`` (the name: five
    "30S ribosomal protein S4") are one route, under the first seen."""
    through: dict[str, set[str]] = {}
    best: dict[str, tuple[str, CandidatePath]] = {}
    joined = [p for p in paths if p.edges and p.nodes[0] in drugs and p.nodes[-1] in into]
    for p in [p for p in joined if lowers(p)] or joined:  # every path, when the signs say none lowers it
        step = route_step([e.relation for e in p.edges])
        if not step:
            continue
        through.setdefault(key(p.nodes[step]), set()).add(p.nodes[0])
        best.setdefault(key(p.nodes[step]), (p.nodes[step], p))
    if not through:
        return []
    order = sorted(through, key=lambda t: -len(through[t]))  # stable: the better-ranked first among equals
    kept = [t for t in order if len(through[t]) >= ROUTE_SHARE * len(through[order[0]])][:k]
    return [(best[t][0], replace(best[t][1], features={**best[t][1].features, "class_drugs": float(len(through[t]))}))
            for t in kept]


def manifested_in(kg: Any, entity: str) -> list[str]:
    """The diseases the graph names ``entity`` a manifestation of ("Lymphoma —manifestation of→ Hodgkin's disease"),
    the most connected first: for a symptom or a finding, the narrower diseases whose drugs the curated mechanisms
    hold ("What drugs treat lymphoma?" links the HPO finding, which only inflammatory response leads into)."""
    found = {e.tail for e in kg.out_edges(entity) if e.relation == "manifestation of" and (n := kg.node(e.tail)) is not None
             and n.type == "Disease"}
    return sorted(found, key=lambda x: (-kg.degree(x), kg.name(x)))
