"""Reviewer node: accepts or rejects candidate paths (PET-style pattern + verbalizer scoring)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from langgraph.runtime import Runtime

from agents.context import Context
from agents.state import State, forward_one_sided, stand_ins, two_ended
from core.errors import LLMError
from core.tracing import span
from memory.records import GateDecision
from tools.answers import joins
from tools.gate import ClaimGate, contradictions
from tools.judge import CLAIM_PATTERN, VERBALIZER, LLMJudge

__all__ = ["answer_of", "judge_features", "question_sim", "review", "review_claims"]

REVIEW_TOP = 3


def question_sim(cand: dict[str, Any]) -> float:
    """How close the path's inner entities are to the question: the ranker's ``question_sim`` feature (entity-name
    vectors from the index against the question's vector, which the walk already computed; nothing is embedded)."""
    return float(cand.get("features", {}).get("question_sim", 0.0))


def answer_of(state: State) -> Callable[[dict[str, Any]], str] | None:
    """What a candidate answers, where candidates may answer differently: for a question that names one end ("What
    does X treat?", "What drugs treat Y?"), the entity at the path's other end. ``None`` for a two-ended question,
    whose candidates all explain the one pair it names."""
    if two_ended(state):
        return None
    if state.sources and not state.targets:
        return lambda c: c["triples"][-1]["tail"] if c["triples"] else ""
    if state.targets and not state.sources:
        return lambda c: c["triples"][0]["head"] if c["triples"] else ""
    return None


def judge_features(cands: list[dict[str, Any]], i: int, sources: list[str], targets: list[str], qsim: float,
                   answer: Callable[[dict[str, Any]], str] | None = None) -> dict[str, float]:
    """Features of candidate ``i`` for the embedded judge. Its share of the ranker's mass and its lead over the next
    candidate are taken among the candidates that give the same ``answer`` (all of them when it is ``None``): paths
    to different answers of a one-sided question do not compete, and three equally good diseases that a drug treats
    are not three doubtful paths."""
    c = cands[i]
    rivals = [x for x in cands if answer is None or answer(x) == answer(c)]
    scores = [x["score"] for x in rivals]
    z = [math.exp(s - max(scores)) for s in scores]
    k = next(j for j, x in enumerate(rivals) if x is c)
    nodes = {t["head"] for t in c["triples"]} | {t["tail"] for t in c["triples"]}
    need = set(sources) | set(targets)
    connects = 1.0 if need and need <= nodes else (0.5 if need & nodes else 0.0)
    nxt = scores[k + 1] if k + 1 < len(scores) else scores[k] - 2.0
    return {
        "share": z[k] / sum(z),
        "score_gap": c["score"] - nxt,
        "mean_log_conf": c["features"].get("mean_log_conf", 0.0),
        "hops": float(c["hops"]),
        "connects": connects,
        "question_sim": qsim,
        "type_loglik": c["features"].get("type_loglik", 0.0),
    }


def review(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Score the top candidates; accept those at or above the calibrated threshold."""
    t0 = time.perf_counter()
    ctx = runtime.context or Context()
    res = ctx.get_resources()
    cands = state.candidates[:REVIEW_TOP]
    llm = _llm_judge(ctx, res) if cands else None
    with span("tool.reviewer.judge", **{"medpath.review.candidates": len(cands)}) as sp:
        judgments, backend, fallbacks = _judge_all(state, res, cands, llm)
        sp.set_attribute("medpath.review.backend", backend)
        sp.set_attribute("medpath.review.accepted", sum(1 for j in judgments if j["decision"] == "accept"))
    _check_passages(state, res, cands, judgments)
    _check_ends(state, res, cands, judgments)
    accepted = [j["rank"] for j in judgments if j["decision"] == "accept"]
    return {
        "review": {
            "backend": backend,
            "judgments": judgments,
            "accepted": accepted,
            "decision": "accept" if accepted else "reject",
            "score": judgments[accepted[0]]["score"] if accepted else (judgments[0]["score"] if judgments else 0.0),
        },
        "fallbacks": fallbacks,
        "timings": {"reviewer": (time.perf_counter() - t0) * 1000},
    }


def _check_passages(state: State, res: Any, cands: list[dict[str, Any]], judgments: list[dict[str, Any]]) -> None:
    """Reject a candidate whose edge a retrieved passage contradicts ("X does not inhibit Y"), with the reason."""
    passages = (state.hybrid or {}).get("context", {}).get("text_lines", [])
    if not passages:
        return
    for j, c in zip(judgments, cands, strict=True):
        against = contradictions(lambda: res.gate().reader, c["triples"], passages, lambda x: res.kg.aliases.get(x, ()))
        if against:
            j.update(decision="reject", verbalizer=VERBALIZER["reject"], contradicted_by=against)


def _check_ends(state: State, res: Any, cands: list[dict[str, Any]], judgments: list[dict[str, Any]]) -> None:
    """Reject a candidate that does not answer the question's shape, with the reason. A path from X that never
    reaches the Y it names (what the dense back-off finds when the walk starves) is not how X treats Y, and a path
    from X to a protein does not say what X treats, whatever their scores."""
    if two_ended(state):
        sources = [*state.sources, *stand_ins(state.dense)]
        for j, c in zip(judgments, cands, strict=True):
            nodes = {t["head"] for t in c["triples"]} | {t["tail"] for t in c["triples"]}
            if not joins(nodes, sources, state.targets, res.kg.name):
                j.update(decision="reject", verbalizer=VERBALIZER["reject"], unjoined=True)
    elif forward_one_sided(state):
        for j, c in zip(judgments, cands, strict=True):
            end = res.kg.node(c["triples"][-1]["tail"]) if c["triples"] else None
            if end is None or end.type not in state.goal_types:
                j.update(decision="reject", verbalizer=VERBALIZER["reject"], unjoined=True)


def _judge_all(
    state: State, res: Any, cands: list[dict[str, Any]], llm: LLMJudge | None
) -> tuple[list[dict[str, Any]], str, list[dict[str, str]]]:
    """Judge each candidate (LLM if configured, falling back to the embedded judge)."""
    fallbacks: list[dict[str, str]] = []
    backend = "embedded"
    judgments: list[dict[str, Any]] = []
    answer = answer_of(state)
    for i, c in enumerate(cands):
        feats = judge_features(cands, i, state.sources, state.targets, question_sim(c), answer)
        prob = None
        if llm is not None:
            try:
                prob = llm.probability(state.asked, c["text"])
                backend = "llm"
            except LLMError as exc:
                fallbacks.append({"component": "reviewer.llm", "reason": str(exc), "fallback": "embedded"})
                llm = None
        threshold = llm.threshold if llm is not None and prob is not None else res.judge.threshold
        if prob is None:
            prob = res.judge.probability(feats)
        decision = "accept" if prob >= threshold else "reject"
        judgments.append({"rank": i, "score": round(prob, 4), "decision": decision,
                          "verbalizer": VERBALIZER[decision], "threshold": threshold})
    return judgments, backend, fallbacks


def _llm_judge(ctx: Context, res: Any) -> LLMJudge | None:
    settings = res.settings.llm
    if not (ctx.use_llm and settings.enabled):
        return None
    from tools.llm import LLMClient

    return LLMJudge(LLMClient(settings))


def review_claims(
    claims: Sequence[dict[str, Any]], gate: ClaimGate, llm_settings: Any = None
) -> list[GateDecision]:
    """The Reviewer's gate for remembered claims (``memory ingest``, ``eval memory``), one decision per claim.

    Each claim has ``relation``, ``claim`` (the triple in words), ``evidence`` and ``object_names``.
    First the assertion status of the object's mention in the evidence, against the relation's
    policy (``tools.gate``): a negated, hypothetical, hearsay, allergy or someone-else's mention is
    rejected with its reason, whatever judges the rest. Then support: embedded, the evidence names
    the object; with an LLM configured, P(yes) of the cloze pattern (falling back to the embedded
    decision if it fails). Nothing is embedded.
    """
    if not claims:
        return []
    client = None
    if llm_settings is not None and getattr(llm_settings, "enabled", False):
        from tools.llm import LLMClient

        client = LLMClient(llm_settings)
    out: list[GateDecision] = []
    for c in claims:
        d = gate.decide(str(c["evidence"]), c.get("object_names", ()), str(c.get("relation", "")), c.get("subject_names", ()))
        if client is not None and d.accepted:
            try:
                p = client.yes_probability(CLAIM_PATTERN.replace("___", "").format(evidence=c["evidence"], claim=c["claim"]))
                d = GateDecision("accept" if p >= 0.5 else "reject", round(p, 4), "llm", {**d.reason, "llm_p_yes": round(p, 4)})
            except LLMError:
                client = None
        out.append(d)
    return out
