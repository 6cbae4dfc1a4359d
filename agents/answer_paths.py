"""The answer entities of a question that asks for them ("which drug treats Y", "what does X treat"), each with its
best path, and the JSON form of a candidate path: what the retriever node hands on."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agents.answer_notes import raising
from agents.context import Context
from agents.kinds import target_kind
from agents.state import DISEASE_TYPES, Intent, State, class_mechanism, targeted_all, treats_all
from agents.steering import steering_text
from agents.walking import walk_question
from core.tracing import span
from tools.answers import (
    ANSWERS_K,
    BECOMES,
    FUSE_DEPTH,
    HUB_DAMPING,
    INDICATION_DAMPING,
    INDICATION_TRANSFER_WEIGHT,
    PAGERANK_ALPHA,
    PAGERANK_EPS,
    PAGERANK_WEIGHT,
    TRANSFER_WEIGHT,
    asked_sign,
    by_type_preference,
    class_routes,
    class_share,
    disease_mates,
    fuse,
    in_direction,
    lowers,
    of_kind,
    of_target_kind,
    place_of,
    preference,
    rank_endpoints,
    same_named,
    shared_targets,
    starts_by_type_preference,
    target_mates,
    types_of,
)
from tools.judge import verbalize_path
from tools.linker import fold
from tools.path_ranker import effect
from tools.walker import SHORTEST_CHAIN, CandidatePath, GraphWalker

CLASS_WALKS = 12
"""A question naming a drug class ("which statins …"): at most this many of its drugs get a walk of their own."""

BOTH_WALKS = 24
"""A question naming several diseases at once ("which drugs treat both …"): at most this many walks of their own find
a candidate's path into a disease the pool has none into."""

__all__ = ["BOTH_WALKS", "CLASS_WALKS", "answers_and_top", "drug_candidates", "own_list", "pagerank_answers", "path_record", "steering_text"]


def path_record(p: CandidatePath, kg: Any) -> dict[str, Any]:
    """JSON form of a candidate path."""
    names = [kg.name(n) for n in p.nodes]
    return {
        "triples": [
            {"head": e.head, "head_name": kg.name(e.head), "relation": e.relation, "tail": e.tail, "tail_name": kg.name(e.tail)}
            for e in p.edges
        ],
        "text": verbalize_path(names, [e.relation for e in p.edges]),
        "confs": [round(c, 4) for c in p.confs],
        "score": round(p.score, 4),
        "hops": p.hops,
        "features": {k: round(v, 4) for k, v in p.features.items()},
    }


def answers_and_top(state: State, ctx: Context, res: Any, ranked: list[CandidatePath]
                     ) -> tuple[list[dict[str, Any]], list[CandidatePath]]:
    """The ranked answer entities (for a question that asks for entities of a type) and the candidates to review.
    For a question answered by drugs, the ranked drugs' paths are what the reviewer judges and the answer tells,
    before any chemical's path."""
    state = _same_names_excluded(state, res, ranked)
    ranked = _through_first(state, ranked)  # "… by inhibiting ACE": the paths through ACE first
    if state.intent == Intent.TARGETED_BY.value:  # "which drugs block X?": no drug that activates it
        ranked = in_direction(ranked, asked_sign(state.asked))
    if state.intent == Intent.INDICATIONS.value:  # "what does X treat?": the diseases X's paths lower come first
        ranked = sorted(ranked, key=lambda p: not lowers(p))
    if state.intent == Intent.TARGETS.value:  # "which receptor does X block?": the receptors it blocks first
        shared = class_share(res.kg, res.linker.classmates(state.sources[0])) if len(state.sources) == 1 and not state.among else {}
        ranked = _asked_targets_first(ranked, res.kg, target_kind(state.asked), asked_sign(state.asked), shared)
    found = _answer_paths(state, ctx, res, ranked) if state.goal_types or class_mechanism(state) else []
    type_of = types_of(res.kg)
    answers = [{"id": x, "name": res.kg.name(x), "type": type_of(x), "rank": i + 1, "score": round(p.score, 4),
                "path": path_record(p, res.kg)} for i, (x, p) in enumerate(found)]
    if state.excluded and state.goal_types:  # "what else does it treat?": no path to what was named is evidence
        end = 0 if state.intent in (Intent.TREATS.value, Intent.TARGETED_BY.value, Intent.CAUSES.value, Intent.SIGNS.value,
                                    Intent.INVOLVED.value) else -1
        ranked = [p for p in ranked if p.nodes and p.nodes[end] not in state.excluded]
    if state.intent in (Intent.INDICATIONS.value, Intent.INVOLVED.value) or (state.among and state.intent == Intent.TARGETS.value):
        # the listed entities' paths are the evidence, whoever found them; so are the edges of what a class acts on
        return answers, list({id(p): p for p in [*(p for _, p in found), *ranked]}.values())[: ctx.top_k]
    if treats_all(state) or targeted_all(state):  # "… both X and Y": only the drugs for each are evidence
        return answers, [p for _, p in found][: ctx.top_k]
    if class_mechanism(state):  # the best path of each route the class takes, then the rest
        first = [p for _, p in found]
        seen = {p.edges for p in first}
        return answers, [*first, *(p for p in ranked if p.edges not in seen)][: ctx.top_k]
    if state.intent not in (Intent.TREATS.value, Intent.TARGETED_BY.value):  # a class subject walks from its drugs
        return answers, (_routes(ranked) if _other_paths(state) else ranked)[: ctx.top_k]
    ranked = starts_by_type_preference(ranked, state.goal_types, type_of)
    if state.among:  # "which statins …": no other drug's path is evidence for the answer
        ranked = [p for p in ranked if p.nodes and p.nodes[0] in state.among]
    return answers, list({id(p): p for p in [*(p for _, p in found), *ranked]}.values())[: ctx.top_k]


def _nearest_acting_on(ranked: list[CandidatePath], targets: list[str]) -> Callable[[CandidatePath], tuple[int, int, int]]:
    """The fewest steps first; among several targets (every target of a kind: "calcium channels"), the drugs that act
    directly on the most of them ("what drugs block calcium channels?" listed Metharbital and chlorzoxazone, which act
    on one generic entry each, before mibefradil and felodipine, which block four to seven channel subunits); then the
    fewest steps that only correlate ("Which drugs lower TNF?" listed benzydamine, "negatively correlated with", before
    the antibodies that decrease its activity)."""
    reached: dict[str, set[str]] = {}
    for p in ranked if len(targets) > 1 else []:
        if p.hops == 1 and p.nodes[-1] in targets:
            reached.setdefault(p.nodes[0], set()).add(p.nodes[-1])

    def key(p: CandidatePath) -> tuple[int, int, int]:
        return p.hops, -len(reached.get(p.nodes[0], ())), sum(e.relation.endswith("correlated with") for e in p.edges)
    return key


def _asked_targets_first(ranked: list[CandidatePath], kg: Any, kind: str, sign: int, shared: Mapping[str, int]
                         ) -> list[CandidatePath]:
    """What a drug acts on, ordered by four keys in turn:
    1. those of the asked ``kind`` ("Which receptor does propranolol block?" listed Vascular endothelial growth
       factor A first);
    2. what it acts on directly or through what it becomes, before what it reaches further on ("What does bortezomib
       target?" opened with C-reactive protein, three steps away, before the proteasome subunits it inhibits);
    3. those it acts on in the asked direction, then those without a signed relation, then those it acts on the other
       way ("what enzymes does atorvastatin inhibit?" listed Lipoprotein lipase, which it raises, before HMG-CoA
       reductase);
    4. those the most of its class act on (``shared``, ``tools.answers.class_share``: "What does atorvastatin
       target?" opened with lipoprotein lipase, which no other statin acts on).
    Nothing is left out; the order is stable."""

    def key(p: CandidatePath) -> tuple[bool, bool, int, int]:
        s = effect([e.relation for e in p.edges]) if sign else 0
        end = p.nodes[-1] if p.nodes else ""
        direct = len(p.edges) == 1 or (len(p.edges) == 2 and p.edges[0].relation in BECOMES)
        return (not (end and of_target_kind(kg.name(end), kind)), not direct, 0 if s == sign else 1 if not s else 2,
                -shared.get(end, 0))
    return sorted(ranked, key=key)


def _same_names_excluded(state: State, res: Any, ranked: list[CandidatePath]) -> State:
    """The state with every candidate end that shares a name with an excluded entity excluded too: the answer lists
    one entry per name, so "what else does it treat?" must not bring back a second "Hyperuricemia" (HPO after MeSH)."""
    if not state.excluded:
        return state
    names = {fold(res.kg.name(x)) for x in state.excluded}
    same = {n for p in ranked if p.nodes for n in (p.nodes[0], p.nodes[-1]) if fold(res.kg.name(n)) in names}
    words = [" ".join(w.removesuffix("s") for w in fold(m["mention"]).split()) for m in state.mentions
             if state.intent == Intent.TARGETS.value and m.get("slot") == "target" and m.get("mention")]
    if words:  # "… besides BCR-ABL?": "Fusion Proteins, bcr-abl" too; "other than dopamine receptors": each of them
        same |= {n for p in ranked if p.nodes for n in p.nodes[1:]
                 if any(w in " ".join(x.removesuffix("s") for x in fold(res.kg.name(n)).split()) for w in words)}
    return dataclasses.replace(state, excluded=list(dict.fromkeys([*state.excluded, *same])))


def _answer_paths(state: State, ctx: Context, res: Any, ranked: list[CandidatePath]) -> list[tuple[str, CandidatePath]]:
    """The best distinct answer entities of the question's goal types, each with its best path.

    "Which drug treats Y": drugs ranked by fusing their best paths' ranks with PageRank upstream from Y; "what does
    X treat": diseases by fusing theirs with PageRank downstream from X. An answer PageRank brings in without a path
    in the pool gets its own walk, and is dropped when that finds none that lowers the disease. A question that
    names a drug class ("which statins …", ``State.among``) lists only its drugs: those neither list ranks come
    after, the most connected first, each by its own walk (at most ``CLASS_WALKS`` walks). "What do statins
    target?" lists what the most of the class's drugs act on directly (``tools.answers.shared_targets``), and "How do
    statins lower cholesterol?" the routes into the disease the most of them take (``tools.answers.class_routes``).
    """
    type_of = types_of(res.kg)
    seeds = [*(x for x in state.sources if x not in state.among), *state.targets, *state.excluded]  # never answers; the
    # drugs compared for one disease walk from themselves ("is ibuprofen or acetaminophen better for pain?")
    same = _name_key(res.kg)
    if state.among and state.intent == Intent.TARGETS.value:  # "what do statins target?"
        return shared_targets(res.kg, state.among, state.goal_types, type_of)
    if class_mechanism(state):  # "how do statins lower cholesterol?"
        return class_routes(ranked, state.among, same_named(res.kg, state.targets), key=same)  # "… lower blood sugar?":
        # the Hyperglycemia of the curated chains is the phenotype, not the disease the linker read
    if state.among:
        ranked = [p for p in ranked if p.nodes and p.nodes[0] in state.among]
    if state.intent == Intent.SIGNS.value:  # a sign or symptom before a process ("Wheezing" before "inflammatory response")
        ranked = starts_by_type_preference(ranked, state.goal_types, type_of)
    if state.intent in (Intent.CAUSES.value, Intent.SIGNS.value):  # in the order of tools.answers.upstream_links
        return rank_endpoints(ranked, "start", state.goal_types, type_of, exclude=seeds, k=_k(state), key=same)
    if state.intent in (Intent.TARGETED_BY.value, Intent.INVOLVED.value):  # the nearest first (drugs before chemicals)
        return _acting_on_each(state, res, ranked, seeds) if targeted_all(state) else \
            _acting_on(state, res, ranked, state.targets, seeds)
    if state.intent == Intent.INDICATIONS.value and state.compared:  # "what do imatinib and dasatinib treat?"
        return _shared_indications(state, ctx, res, seeds)
    if state.intent == Intent.INDICATIONS.value and state.drug_class and len(state.sources) > 1:  # "what are statins for?"
        return _class_indications(state, ctx, res, seeds)
    if state.intent == Intent.INDICATIONS.value:
        return _indications(state, ctx, res, ranked, seeds)
    if state.intent != Intent.TREATS.value:
        return rank_endpoints(ranked, "end", state.goal_types, type_of, exclude=seeds, k=_k(state), key=same)
    if treats_all(state):  # "what drugs treat both gout and hypertension?"
        return _treats_all(state, ctx, res, ranked, seeds)
    if state.compared and state.among and len(state.targets) == 1 and not state.via:  # "is X or Y better for Z?"
        return _each_as_asked(state, ctx, res)
    order, by_path = drug_candidates(state, res, ranked, state.targets, seeds)
    order = by_type_preference(order, state.goal_types, type_of)
    if state.via:  # "… by blocking TNF": the drugs that act on it with a path in the pool, then the others; each
        # part nearest and most specific first (agents.via)
        order = sorted((d for d in state.among if d not in seeds), key=lambda d: d not in by_path)
    elif state.among:
        order = [*(d for d in order if d in state.among), *(d for d in state.among if d not in order and d not in seeds)]
    found = _with_paths(order, by_path, lambda d: _own_walk(state, ctx, res, [d], state.targets),
                        CLASS_WALKS if state.among else len(order), same, preference(state.goal_types, type_of), _k(state))
    return sorted(found, key=lambda a: not set(state.via) & set(a[1].nodes)) if state.via else found


def _acting_on(state: State, res: Any, ranked: list[CandidatePath], targets: list[str], seeds: list[str]
               ) -> list[tuple[str, CandidatePath]]:
    """"Which drugs block X?": the drugs (before chemicals) whose paths into ``targets`` the pool holds, the nearest
    first."""
    type_of = types_of(res.kg)
    closest = starts_by_type_preference(sorted(ranked, key=_nearest_acting_on(ranked, targets)), state.goal_types, type_of)
    return rank_endpoints(closest, "start", state.goal_types, type_of, exclude=seeds, k=_k(state), key=_name_key(res.kg))


def _acting_on_each(state: State, res: Any, ranked: list[CandidatePath], seeds: list[str]
                    ) -> list[tuple[str, CandidatePath]]:
    """"Which drugs inhibit both COX-1 and COX-2?": :func:`_acting_on` for each target's paths, kept to the drugs in
    every list, in the first one's order, each with its path into the first target."""
    each = [_acting_on(state, res, [p for p in ranked if p.nodes and p.nodes[-1] == y], [y], seeds) for y in state.targets]
    others = [{d for d, _ in found} for found in each[1:]]
    return [a for a in each[0] if all(a[0] in drugs for drugs in others)]


def drug_candidates(state: State, res: Any, ranked: list[CandidatePath], diseases: list[str], seeds: list[str]
                     ) -> tuple[list[str], dict[str, CandidatePath]]:
    """"Which drug treats Y": the drugs whose best lowering paths into ``diseases`` ``ranked`` holds, fused with
    PageRank upstream from them and with the drugs sharing a target with the curated drugs for them
    (``tools.answers.target_mates``; weights 1, ``PAGERANK_WEIGHT`` and ``TRANSFER_WEIGHT``), and each such drug's
    best path."""
    by_path = dict(rank_endpoints(ranked, "start", state.goal_types, types_of(res.kg), exclude=seeds, k=FUSE_DEPTH,
                                  keep=lowers, key=_name_key(res.kg)))
    pagerank = pagerank_answers(res, diseases, state.goal_types, set(seeds), "in", HUB_DAMPING)
    curation = res.ranker.curation
    treating = set().union(*(curation.drugs_for(y) for y in diseases))
    mates = [d for d in target_mates(res.kg, curation.drugs, treating, state.goal_types[:1]) if d not in seeds]
    return fuse(list(by_path), pagerank, mates, weights=(1.0, PAGERANK_WEIGHT, TRANSFER_WEIGHT)), by_path


def _treats_all(state: State, ctx: Context, res: Any, ranked: list[CandidatePath], seeds: list[str]
                ) -> list[tuple[str, CandidatePath]]:
    """"What drugs treat both gout and hypertension?": the drugs with a lowering path into each of the question's
    diseases. Each disease's candidates are ranked as for one (its paths fused with PageRank upstream from it), the
    lists fused; a drug is kept when the pool, or a walk of its own (``BOTH_WALKS`` at most in all), has a path into
    every disease. The path into the first disease is the one listed."""
    each = [drug_candidates(state, res, [p for p in ranked if p.nodes and p.nodes[-1] == y], [y], seeds)
            for y in state.targets]
    orders, pools = [order for order, _ in each], [by_path for _, by_path in each]
    found: list[tuple[str, CandidatePath]] = []
    walks = 0
    for drug in by_type_preference(fuse(*orders), state.goal_types, types_of(res.kg)):
        paths: list[CandidatePath] = []
        for y, by_path in zip(state.targets, pools, strict=True):
            path = by_path.get(drug)
            if path is None and walks < BOTH_WALKS:
                walks += 1
                path = _own_walk(state, ctx, res, [drug], [y])
            if path is None:
                break
            paths.append(path)
        if len(paths) == len(state.targets):
            found.append((drug, paths[0]))
        if len(found) >= ANSWERS_K or walks >= BOTH_WALKS:
            break
    return found


def _indications(state: State, ctx: Context, res: Any, ranked: list[CandidatePath], seeds: list[str]
                 ) -> list[tuple[str, CandidatePath]]:
    """"What does X treat?": the diseases X's paths lower, fused with PageRank downstream from X and with the diseases
    of the curated drugs that act on X's targets alike (``tools.answers.disease_mates``; a disease only these lists
    propose gets a walk of its own); then, while fewer than ``ANSWERS_K``, the diseases its paths raise
    ("Acetaminophen —decreases activity of→ PTGS1 —increases abundance of→ Prostaglandin E2 —treats→ Gastric ulcer"
    takes away what treats the ulcer). A question for a kind of disease ("What cancers does X treat?",
    ``State.disease_kind``) lists only those."""
    type_of = types_of(res.kg)
    same = _name_key(res.kg)
    def kind(y: str) -> bool:
        return of_kind(res.kg, y, state.disease_kind)

    by_path = dict(rank_endpoints(ranked, "end", state.goal_types, type_of, exclude=seeds, k=FUSE_DEPTH,
                                  keep=lambda p: lowers(p) and kind(p.nodes[-1]), key=same))
    pagerank = pagerank_answers(res, state.sources, state.goal_types, set(seeds), "out", INDICATION_DAMPING, kind)
    curation = res.ranker.curation
    mates = [y for x in state.sources[:1] for y in disease_mates(res.kg, x, curation.drugs, curation.diseases_of)
             if y not in seeds and type_of(y) in state.goal_types and kind(y)]
    order = fuse(list(by_path), pagerank, mates, weights=(1.0, PAGERANK_WEIGHT, INDICATION_TRANSFER_WEIGHT))
    found = _with_paths(order, by_path, lambda y: _own_walk(state, ctx, res, state.sources, [y]), len(order), same,
                        preference(state.goal_types, type_of), _k(state))
    if len(found) < _k(state):
        listed = [*seeds, *(x for x, _ in found)]
        found += rank_endpoints(ranked, "end", state.goal_types, type_of, exclude=listed, k=_k(state) - len(found),
                                keep=lambda p: kind(p.nodes[-1]), key=same)
    return found


def _shared_indications(state: State, ctx: Context, res: Any, seeds: list[str]) -> list[tuple[str, CandidatePath]]:
    """"What do imatinib and dasatinib treat?" (``State.compared``): each drug's diseases as "What does X treat?"
    lists them (a walk of its own from the drug alone, ranked for that question). A disease is theirs in common when
    every one of their own lists holds it: those come first, then those of one drug's list alone, in the drugs' order;
    each with the first such drug's path, its ``features["class_drugs"]`` how many of the lists hold it, and
    ``features["listed_by"]`` which (bit i: the i-th drug of ``among``; ``rank_i``: its place there).

    It used to count a disease as common when the other drug had any path into it that lowers it, by a walk of its
    own: "Metformin and lisinopril both have a verified mechanism for: Cystic fibrosis of the lung". On 136 pairs of
    tune-half drugs, 9 % of those claims were diseases the question file lists for both drugs; held by both lists,
    34 % (``docs/ranking.md``, "What do X and Y treat?")."""
    listed = _own_lists(state, ctx, res, seeds, state.among)
    everyone = len(state.among)
    order = sorted(listed.values(), key=lambda lists: (len(lists) < everyone, lists[0][0]))
    return [(lists[0][2], _held(lists)) for lists in order if len(lists) in (1, everyone)]


def _class_indications(state: State, ctx: Context, res: Any, seeds: list[str]) -> list[tuple[str, CandidatePath]]:
    """"What are beta blockers used for?": the diseases the most of the class's drugs (``State.sources``, the most
    connected first) have in their own "What does X treat?" lists, each with its count (``features["class_drugs"]``),
    ties in the order of the drugs and their lists. One walk from them all listed labetalol's diseases alone, Open-angle
    glaucoma first: its short paths filled the pool."""
    listed = _own_lists(state, ctx, res, seeds, state.sources)
    order = sorted(listed.values(), key=lambda lists: (-len(lists), lists[0][0], lists[0][1]))
    return [(lists[0][2], _held(lists)) for lists in order]


def _own_lists(state: State, ctx: Context, res: Any, seeds: list[str], drugs: Sequence[str]
               ) -> dict[str, list[tuple[int, int, str, CandidatePath]]]:
    """Each of ``drugs``' diseases as "What does X treat?" lists them (that question's walk for the drug alone, its
    dense back-off and shortest chains included, ``agents.walking``), by name: (the drug's place in ``drugs``, the
    disease's place in its list, id, path). A bare walk gave a starved drug no paths of its own, so that "What do
    atorvastatin and simvastatin treat?" marked a disease "both" that "What does simvastatin treat?" did not list."""
    same = _name_key(res.kg)
    listed: dict[str, list[tuple[int, int, str, CandidatePath]]] = {}
    for i, drug in enumerate(drugs):
        one = dataclasses.replace(state, intent=Intent.INDICATIONS.value, sources=[drug], targets=[], among=[],
                                  compared=False, drug_class="", understood_as=f"What does {res.kg.name(drug)} treat?")
        ranked = sorted(walk_question(one, ctx, res)[0], key=lambda p: not lowers(p))
        for k, (y, path) in enumerate(_indications(one, ctx, res, ranked, [drug, *seeds])):
            listed.setdefault(same(y), []).append((i, k, y, path))
    return listed


def _each_as_asked(state: State, ctx: Context, res: Any) -> list[tuple[str, CandidatePath]]:
    """Drugs compared for one disease ("is pegloticase better than colchicine for gout?"): each drug's path is the one
    "How does X treat Z?" tells (that question's walk and ranking, the drug alone), the first that lowers the disease
    (not a shortest chain found beyond the walk's reach: "does metformin or aspirin treat gout?" is "Only Aspirin").
    One walk from all of them ranked each drug's paths among the others', so that the comparison told pegloticase's
    2-step mechanism right after "How does pegloticase treat Gout?" had told a 3-step one."""
    found: list[tuple[str, CandidatePath]] = []
    up = raising(state)  # "do lisinopril and losartan cause cough?": a chain that raises it (a chain beyond the walk's
    for drug in state.among[:CLASS_WALKS]:  # reach is no mechanism)
        one = dataclasses.replace(state, intent=Intent.MECHANISM.value, sources=[drug], among=[], compared=False,
                                  drug_class="", goal_types=[], answers_wanted=0,
                                  understood_as=f"How does {res.kg.name(drug)} treat {res.kg.name(state.targets[0])}?")
        ranked = walk_question(one, ctx, res)[0]
        path = next((p for p in ranked if p.nodes and p.nodes[0] == drug and p.nodes[-1] in state.targets and SHORTEST_CHAIN
                     not in p.features and (effect([e.relation for e in p.edges]) > 0 if up else lowers(p))), None)
        if path is not None:
            found.append((drug, path))
    return found


def own_list(state: State, ctx: Context, res: Any, drug: str, k: int) -> list[str]:
    """The first ``k`` diseases "What does X treat?" lists for ``drug`` (ids, in order), as :func:`_own_lists` walks
    for one drug of a comparison."""
    one = dataclasses.replace(state, answers_wanted=k, goal_types=sorted(DISEASE_TYPES), disease_kind="", excluded=[])
    return [y for _i, _k, y, _p in sorted((x for lists in _own_lists(one, ctx, res, [], [drug]).values() for x in lists),
                                            key=lambda x: x[1])]


def _held(lists: list[tuple[int, int, str, CandidatePath]]) -> CandidatePath:
    """The first list's path, its features saying how many of the drugs' lists hold the disease (``class_drugs``),
    which (``listed_by``, bit i for the i-th drug) and where (``rank_i``)."""
    path = lists[0][3]
    return dataclasses.replace(path, features={**path.features, "class_drugs": float(len(lists)),
                                               "listed_by": float(sum(1 << i for i, *_ in lists)),
                                               **{f"rank_{i}": float(k) for i, k, *_ in lists}})


def _name_key(kg: Any) -> Callable[[str], str]:
    """An entity's name, case-folded: two ids with one name ("Hyperglycemia", HPO and MeSH) are one answer."""
    return lambda x: fold(kg.name(x))


def _with_paths(order: Sequence[str], by_path: dict[str, CandidatePath], walk: Callable[[str], CandidatePath | None],
                most: int, key: Callable[[str], str], rank: Callable[[str], int], k: int = ANSWERS_K
                ) -> list[tuple[str, CandidatePath]]:
    """The first ``k`` entities of ``order`` that have a path: the pool's best (``by_path``), else one
    found by ``walk`` (at most ``most`` walks). An entity with the ``key`` (the name) of one listed takes its place
    when its type comes first (``rank``: the MeSH "Anemia" before the HPO one), else is left out."""
    found: list[tuple[str, CandidatePath]] = []
    walks = 0
    for x in order:
        takes, twin = place_of(x, [y for y, _ in found], key, rank)
        if not takes:
            continue
        path = by_path.get(x)
        if path is None and walks < most:
            walks += 1
            path = walk(x)
        if path is not None and twin is not None:
            found[twin] = (x, path)
        elif path is not None:
            found.append((x, path))
        if len(found) >= k:
            break
    return found


def _k(state: State) -> int:
    """How many answers the list gives: as many as the question asks for, else ``ANSWERS_K``."""
    return state.answers_wanted or ANSWERS_K


def _own_walk(state: State, ctx: Context, res: Any, sources: list[str], targets: list[str]) -> CandidatePath | None:
    """The best path from ``sources`` to ``targets`` that lowers the disease, by a walk of its own."""
    qv = res.embed_one(steering_text(state, res.kg))  # remembered: embedded once per ask
    with span("tool.walker.walk", **{"medpath.answer.sources": len(sources), "medpath.answer.targets": len(targets)}):
        paths = GraphWalker(res.kg, ctx.budget()).walk(sources, targets, res.predictor.conf_fn(qv)).paths
    ranked = _through_first(state, res.ranker.rank(paths, qv))
    return next((p for p in ranked if lowers(p)), None)


def _through_first(state: State, paths: list[CandidatePath]) -> list[CandidatePath]:
    """The paths through what the question says the drugs act through (``State.via``) first; all of them unchanged
    when it says nothing of the kind. The order is stable."""
    return sorted(paths, key=lambda p: not set(state.via) & set(p.nodes)) if state.via else paths


def pagerank_answers(res: Any, seeds: list[str], types: list[str], exclude: set[str], direction: str = "in",
                      damping: float = HUB_DAMPING, keep: Callable[[str], bool] = lambda _x: True) -> list[str]:
    """Entities of ``types`` that ``keep`` accepts, by personalized PageRank from ``seeds`` (local, push-based:
    ``tools.ppr``) walking ``direction`` ("in": upstream, "out": downstream), their mass divided by their degree to
    the power ``damping``, best first."""
    ppr = res.ranker.ppr
    if ppr is None or not seeds:
        return []
    mass = ppr.top(seeds, alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS, direction=direction)
    damped = {n: m / max(res.kg.degree(n), 1) ** damping for n, m in mass.items()}
    out: list[str] = []
    for x in sorted(damped, key=lambda n: -damped[n])[: 20 * FUSE_DEPTH]:
        if len(out) >= FUSE_DEPTH:
            break
        if x not in exclude and (e := res.kg.node(x)) is not None and e.type in types and keep(x):
            out.append(x)
    return out


def _other_paths(state: State) -> bool:
    """Whether the question asks for the other paths behind the last answer ("is that the only mechanism?")."""
    return any(r.get("how") == "other paths" for r in state.references)


def _routes(ranked: list[CandidatePath]) -> list[CandidatePath]:
    """The best path of each route (the entities it passes through), in rank order, then the rest: what the reviewer
    judges when the other paths are asked for, which were the answer's route again with another relation between two
    of its steps ("any other mechanisms?" after how lisinopril lowers blood pressure)."""
    seen: set[tuple[str, ...]] = set()
    first = [p for p in ranked if tuple(p.nodes) not in seen and not seen.add(tuple(p.nodes))]
    ids = {id(p) for p in first}
    return [*first, *(p for p in ranked if id(p) not in ids)]
