"""The hybrid retrieval service: classifier, fan-out, serializer, patients, consent and PII, audit."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
import tiktoken

from core.errors import InputError, NotFoundError, RetrievalUnavailableError
from medpath.metrics import label_accuracy
from memory.patients import PII_FIELDS, PatientStore, synthesize, write_patients
from tools.classifier import QueryClassifier, Route
from tools.fanout import Item, StoreStatus, fan_out, merge
from tools.retrieval import open_retriever
from tools.serializer import Budget, redact, serialize
from tools.tokens import WhitespaceCounter, load_counter

FIXTURE = Path(__file__).parent / "fixtures" / "classifier_test_set.json"


@pytest.fixture(scope="module")
def patients(resources: Any, tmp_path_factory: pytest.TempPathFactory) -> PatientStore:
    path = tmp_path_factory.mktemp("patients") / "patients.json"
    write_patients(synthesize(resources.kg, 50, seed=7), path, 7)
    return PatientStore.load(path)


@pytest.fixture(scope="module")
def service(settings: Any, resources: Any, patients: PatientStore) -> Any:
    return open_retriever(settings, resources=resources, patients=patients, memory=False)


# -- classifier ---------------------------------------------------------------------------------------------
def test_classifier_fixture_accuracy_and_determinism(service: Any) -> None:
    rows = json.loads(FIXTURE.read_text())["queries"]
    assert len(rows) == 80 and {r["route"] for r in rows} == {"GRAPH", "AGGREGATION", "TEXT", "HYBRID"}
    got = [service.classify(r["query"]) for r in rows]
    accuracy, _ = label_accuracy([r["route"] for r in rows], [g.query_type for g in got])
    assert accuracy >= 0.9
    again = [service.classify(r["query"]) for r in rows]
    assert got == again


def test_classifier_rules_are_recorded() -> None:
    clf = QueryClassifier(lambda t: 2 if " and " in t else 0)
    assert clf.classify("").rule_id == "EMPTY-1" and clf.classify("  ").route is Route.HYBRID
    assert clf.classify("How many patients with gout take allopurinol?").rule_id == "AGG-1"
    assert clf.classify("What medications is PAT_001 on?").route is Route.GRAPH
    assert clf.classify("Why does metformin affect HbA1c?").route is Route.TEXT
    assert clf.classify("aspirin and warfarin").rule_id == "ENT-2"
    assert clf.classify("tell me about imatinib").rule_id == "DEF-1"
    with pytest.raises(ValueError, match="unknown route"):
        Route.parse("graphs")
    assert Route.parse("STRUCTURAL") is Route.GRAPH and Route.parse("Hybrid") is Route.HYBRID


def test_a_count_about_one_patient_reads_that_patient_s_record(service: Any, patients: PatientStore) -> None:
    """An HTTP /retrieve call with a patient and "how many medications is she on?" took the aggregation route, which
    reads no one record: "no medication visible", every patient's withheld facts counted. A count that names one
    patient (in the request or the query) and no people now reads that record; a count over people stays a count."""
    clf = QueryClassifier()
    assert clf.classify("how many medications is PAT_002 on?").rule_id == "PAT-0"
    assert clf.classify("how many medications is she on?", patient=True).route is Route.GRAPH
    assert clf.classify("how many medications is she on?").rule_id == "AGG-2"
    assert clf.classify("How many patients take aspirin?", patient=True).rule_id == "AGG-1"
    pid, p = next((k, v) for k, v in patients.patients.items()
                  if v.allows("medications") and sum(f.relation == "takes" for f in v.facts) >= 2)
    r = service.retrieve("how many medications is she on?", patient_id=pid)
    assert (r.route, r.classifier_rule_id) == ("graph", "PAT-0"), r.context.text
    shown = {f["name"] for f in r.patient_facts if f["kind"] == "medication"}
    assert shown == {f.object_name for f in p.facts if f.relation == "takes"} and shown, r.context.text
    assert service.retrieve("How many patients take aspirin?", patient_id=pid).route == "aggregation"


def test_a_patient_s_facts_lead_the_budgeted_context(service: Any, patients: PatientStore) -> None:
    """Naming many drugs filled the graph tier with their edges, and the record's medications were cut from the
    context (the answer said the record listed none); the record's facts come first now."""
    pid, p = next((k, v) for k, v in patients.patients.items()
                  if v.allows("medications") and sum(f.relation == "takes" for f in v.facts) >= 2)
    taken = {f.object_name for f in p.facts if f.relation == "takes"}
    r = service.retrieve("Is she taking polaprezinc, diphenidol, oxybutynin, alum, ipratropium or imatinib?", patient_id=pid)
    assert taken <= {f["name"] for f in r.patient_facts if f["kind"] == "medication"}, r.context.text


# -- fan-out ----------------------------------------------------------------------------------------------
def _items(source: str, *ids: str) -> list[Item]:
    return [Item(i, "text", f"text {i}", 1.0, source) for i in ids]


def test_fanout_partial_result_by_the_deadline_with_reasons() -> None:
    def fast(_q: Any) -> list[Item]:
        return _items("fast", "a", "b")

    def slow(_q: Any) -> list[Item]:
        time.sleep(0.5)
        return _items("slow", "c")

    def broken(_q: Any) -> list[Item]:
        raise ConnectionError("vault is down")

    async def also(_q: Any) -> list[Item]:
        return _items("async", "b", "d")

    t0 = time.perf_counter()
    res = asyncio.run(fan_out({"fast": fast, "slow": slow, "broken": broken, "async": also}, "q", deadline_s=0.05))
    elapsed = time.perf_counter() - t0
    assert elapsed < 0.4  # the slow store did not hold the answer back
    by = {o.name: o for o in res.outcomes}
    assert by["fast"].status is StoreStatus.OK and by["async"].status is StoreStatus.OK
    assert by["slow"].status is StoreStatus.TIMEOUT and "deadline" in by["slow"].reason
    assert by["broken"].status is StoreStatus.ERROR and "vault is down" in by["broken"].reason
    ids = [i.id for i in res.items]
    assert sorted(ids) == ["a", "b", "d"] and len(ids) == len(set(ids)) and res.partial
    assert sorted(next(i for i in res.items if i.id == "b").sources) == ["async", "fast"]
    assert res.items[0].id == "b"  # two stores agree on it


def test_fanout_per_store_timeout_and_empty_query() -> None:
    def slowish(_q: Any) -> list[Item]:
        time.sleep(0.2)
        return _items("s", "x")

    res = asyncio.run(fan_out({"s": slowish, "f": lambda q: _items("f", "y")}, "q", timeouts={"s": 0.02}, deadline_s=1.0))
    by = {o.name: o for o in res.outcomes}
    assert by["s"].status is StoreStatus.TIMEOUT and "store timeout" in by["s"].reason
    assert [i.id for i in res.items] == ["y"]
    assert asyncio.run(fan_out({"f": lambda q: _items("f", "y")}, "", empty=True)).items == []


def test_inline_store_over_its_timeout_is_reported() -> None:
    class Slowish:
        inline = True

        def __call__(self, _q: Any) -> list[Item]:
            time.sleep(0.03)
            return _items("inline", "i")

    res = asyncio.run(fan_out({"inline": Slowish()}, "q", timeouts={"inline": 0.01}, deadline_s=1.0))
    (o,) = res.outcomes
    assert o.status is StoreStatus.OK and "ran over its 10 ms timeout" in o.reason and [i.id for i in res.items] == ["i"]


def test_merge_normalises_per_store_and_sums_agreement() -> None:
    bm25 = [Item("shared", "graph", "x", 10.0, "bm25"), Item("b-only", "graph", "y", 20.0, "bm25")]
    walk = [Item("shared", "graph", "x", 0.5, "graph"), Item("w-only", "graph", "z", 1.0, "graph")]
    out = merge([("bm25", bm25), ("graph", walk)], {"bm25": 0.5, "graph": 1.0})
    by = {i.id: i for i in out}
    assert len(out) == 3 and by["shared"].sources == ["bm25", "graph"]
    assert by["b-only"].score == pytest.approx(0.5) and by["w-only"].score == pytest.approx(1.0)
    assert by["shared"].score == pytest.approx(0.25 + 0.5)  # 10/20·0.5 + 0.5/1·1.0
    assert [i.id for i in out] == ["w-only", "shared", "b-only"]


# -- serializer -----------------------------------------------------------------------------------------
def test_tiktoken_is_bundled_and_the_fallback_counts_words(settings: Any, tmp_path: Path) -> None:
    counter = load_counter(settings.data_dir / "tiktoken" / "cl100k_base.tiktoken.gz", tmp_path / "tk")
    assert counter.name == "cl100k_base" and counter.count("hello world") == 2
    broken = tmp_path / "broken.gz"
    broken.write_bytes(b"not gzip")
    assert load_counter(broken, tmp_path / "tk2").name == "whitespace"
    assert WhitespaceCounter().truncate("a b c d", 2) == "a b"


def test_token_counter_matches_tiktoken_and_rebuilds_a_broken_cache(settings: Any, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = settings.data_dir / "tiktoken" / "cl100k_base.tiktoken.gz"
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken-own"))
    (tmp_path / "tiktoken-own").mkdir()
    # tiktoken's own loader, fed the bundled file under the name its cache looks for
    raw = gzip.decompress(bundle.read_bytes())
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    (tmp_path / "tiktoken-own" / hashlib.sha1(url.encode()).hexdigest()).write_bytes(raw)
    reference = tiktoken.get_encoding("cl100k_base")
    texts = ["How does imatinib treat CML (ph+)?", "  naïve café — 12345678 tokens\n\nIt's", "日本語のテキスト", ""]
    first = load_counter(bundle, tmp_path / "tk")
    cached = list((tmp_path / "tk").glob("*.marshal"))
    assert len(cached) == 1
    second = load_counter(bundle, tmp_path / "tk")  # from the cache
    for text in texts:
        want = len(reference.encode_ordinary(text))
        assert first.count(text) == second.count(text) == want, text
    cached[0].write_bytes(b"garbage")  # a broken cache is rebuilt, not trusted
    assert load_counter(bundle, tmp_path / "tk").count(texts[0]) == len(reference.encode_ordinary(texts[0]))
    assert len(cached[0].read_bytes()) > 1000


def test_serializer_budgets_and_truncation(settings: Any) -> None:
    counter = load_counter(settings.data_dir / "tiktoken" / "cl100k_base.tiktoken.gz", settings.home / "tiktoken")
    graph = [Item(f"g{i}", "graph", f"Drug: d{i} → inhibits → Protein: p{i} with a fairly long descriptive tail", 1.0, "g")
             for i in range(60)]
    text = [Item(f"t{i}", "text", "word " * 80, 1.0, "t", cite=f"PMID {i}") for i in range(20)]
    ctx = serialize(graph, text, patient=False, budget=Budget(graph=100, text=150, total=220), counter=counter)
    assert ctx.truncated and ctx.tokens["graph"] <= 100 and ctx.tokens["text"] <= 150 and ctx.tokens["total"] <= 220
    assert counter.count(ctx.text + "\n") <= 220
    assert ctx.text.startswith("=== GRAPH ===") and "=== SUPPORTING TEXT ===" in ctx.text
    small = serialize(graph[:2], [], patient=True, budget=Budget(), counter=counter)
    assert not small.truncated and small.text.startswith("=== PATIENT GRAPH ===") and "SUPPORTING" not in small.text


def test_budgets_are_configurable(settings: Any, resources: Any, patients: PatientStore,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from core.errors import ConfigError
    from tools.serializer import DEFAULT_BUDGETS, parse_budgets

    b = parse_budgets("text=500,hybrid:total=1200")
    assert b["graph"].text == 500 and b["hybrid"].total == 1200 and b["text"].total == DEFAULT_BUDGETS["text"].total
    with pytest.raises(ValueError, match="bad budget"):
        parse_budgets("hybrid:size=3")
    monkeypatch.setenv("MEDPATH_CONTEXT_BUDGETS", "graph=60")
    small = open_retriever(settings, resources=resources, patients=patients, memory=False)
    r = small.retrieve("What does imatinib target?")
    assert r.truncated and r.context.tokens["graph"] <= 60
    monkeypatch.setenv("MEDPATH_CONTEXT_BUDGETS", "graph=lots")
    with pytest.raises(ConfigError):
        open_retriever(settings, resources=resources, patients=patients, memory=False)


def test_redact_strips_values_and_identifier_patterns() -> None:
    out = redact("Jo Doe (MRN1234567, born 1950-01-02) call 555-123-4567", {"name": "Jo Doe", "dob": "1950-01-02"})
    assert "Jo Doe" not in out and "1950-01-02" not in out and "1234567" not in out and "555-123-4567" not in out


# -- patients: consent and PII --------------------------------------------------------------------------
def test_broken_patients_file_is_a_clear_error(tmp_path: Path) -> None:
    from core.errors import StoreError

    bad = tmp_path / "p.json"
    bad.write_text('{"format": "something-else", "patients": []}')
    with pytest.raises(StoreError, match="format"):
        PatientStore.load(bad)
    with pytest.raises(NotFoundError, match="patients synth"):
        PatientStore.load(tmp_path / "missing.json")


def test_patients_are_seeded_and_use_kg_drugs(resources: Any, patients: PatientStore) -> None:
    again = synthesize(resources.kg, 50, seed=7)
    assert [p.pii for p in again] == [p.pii for p in patients.patients.values()]
    assert list(patients.patients)[:2] == ["PAT_001", "PAT_002"]
    meds = [f for p in patients.patients.values() for f in p.facts if f.relation == "takes"]
    assert meds and all(resources.kg.node(f.object_id).type == "Drug" for f in meds)
    assert any(f.relation == "has_lab" for p in patients.patients.values() for f in p.facts)
    with pytest.raises(InputError):
        synthesize(resources.kg, 0)
    from memory.protocols import PatientGraphStore

    assert isinstance(patients, PatientGraphStore)


def test_no_pii_value_reaches_any_context(service: Any, patients: PatientStore) -> None:
    leaks = []
    for pid, p in patients.patients.items():
        for query, route in (("clinical notes seen for reports call", "text"), (f"What medications is {pid} on?", None),
                             ("why is the patient seen", "hybrid")):
            r = service.retrieve(query, patient_id=pid, force_route=route, depth=4)
            for field in PII_FIELDS:
                if p.pii[field].lower() in r.context.text.lower():
                    leaks.append((pid, field))
            assert "MRN" not in r.context.text
    assert leaks == []
    # the notes were really shown (with their PII stripped), so the test could have failed
    sharer = next(p for p in patients.patients.values() if p.allows("notes"))
    shown = service.retrieve("clinical notes seen for reports call", patient_id=sharer.id, force_route="text")
    assert "[redacted]" in shown.context.text and shown.text_chunks_count > 0


def test_consent_filter_withholds_and_counts(service: Any, patients: PatientStore) -> None:
    refused = [p for p in patients.patients.values() if not p.allows("labs")]
    assert refused, "the seeded patients include some who refuse lab sharing"
    p = refused[0]
    labs = sum(1 for f in p.facts if f.category == "labs")
    r = service.retrieve(f"What are the labs of {p.id}?", patient_id=p.id, force_route="graph")
    assert "Lab:" not in r.context.text and r.consent_filtered_count >= labs > 0
    allowed = next(q for q in patients.patients.values() if q.allows("labs") and any(f.category == "labs" for f in q.facts))
    r2 = service.retrieve(f"What are the labs of {allowed.id}?", patient_id=allowed.id, force_route="graph")
    assert "Lab:" in r2.context.text


def test_aggregation_counts_only_consenting_patients(service: Any, patients: PatientStore) -> None:
    # a condition one of whose patients refused research use, so the filter has something to withhold
    cond = next(f for p in patients.patients.values() if not p.allows("research") for f in p.facts
                if f.relation == "has_condition")
    r = service.retrieve(f"How many patients with {cond.object_name} are there, by medication?")
    assert r.route == "aggregation" and r.classifier_rule_id.startswith("AGG")
    cohort = [p for p in patients.patients.values()
              if any(f.relation == "has_condition" and f.object_id == cond.object_id for f in p.facts)]
    consenting = [p for p in cohort if p.allows("research")]
    assert len(consenting) < len(cohort) and r.consent_filtered_count > 0
    if len(consenting) < 5:  # k-anonymity: a small cohort is not reported
        assert "too few to report" in r.context.text and len(r.context.graph_lines) == 1
        return
    assert f"(research consent): {len(consenting)}" in r.context.text
    counts = [int(line.rsplit(": ", 1)[1].split(" of ")[0]) for line in r.context.graph_lines[1:]]
    assert counts == sorted(counts, reverse=True)


def test_aggregations_count_only_the_callers_patients_and_only_cohorts_of_five(service: Any, patients: PatientStore) -> None:
    """Aggregations leaked out-of-scope patients ("1 of 1 patients") and reported cohorts of any size."""
    counts: dict[str, list[str]] = {}
    for p in patients.patients.values():
        if p.allows("research"):
            for f in p.facts:
                if f.relation == "has_condition":
                    counts.setdefault(f.object_name, []).append(p.id)
    name, ids = max(counts.items(), key=lambda kv: len(kv[1]))
    assert len(ids) >= 5, "the synthetic patients should hold one cohort of five"
    everyone = service.retrieve(f"How many patients with {name} are there?", force_route="aggregation")
    assert f"(research consent): {len(ids)}" in everyone.context.text
    one = service.retrieve(f"How many patients with {name} are there?", force_route="aggregation",
                           patient_scope=lambda pid: pid == ids[0])
    assert "too few to report" in one.context.text and " of 1 patients" not in one.context.text
    five = set(ids[:5])
    scoped = service.retrieve(f"How many patients with {name} are there?", force_route="aggregation",
                              patient_scope=five.__contains__)
    assert "(research consent): 5" in scoped.context.text


# -- the service --------------------------------------------------------------------------------------------
def test_routes_and_forced_route_are_recorded(service: Any) -> None:
    r = service.retrieve("What does imatinib target?", depth=2)
    assert r.route == "graph" and r.query_type == "GRAPH" and not r.force_route_used and r.graph_edges_count > 0
    assert any("imatinib" in line for line in r.context.graph_lines)
    f = service.retrieve("What does imatinib target?", force_route="text")
    assert f.route == "text" and f.force_route_used and f.classifier_rule_id == "FORCED"
    h = service.retrieve("How does imatinib treat CML?")
    assert h.route == "hybrid" and {s.name for s in h.stores} >= {"graph", "bm25"}
    assert len(h.entities_referenced) == len(set(h.entities_referenced))


def test_threads_answer_alike_and_the_audit_runs_on_the_services_pool(service: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls from several threads at once answer as one thread does. The audit write runs on the service's own
    store pool with the caller's context, not on a default executor that each ``asyncio.run`` would start and join."""
    import threading

    from opentelemetry import trace

    from tools import retrieval

    questions = ["What does imatinib target?", "How does imatinib treat CML?", "What does aspirin target?"]
    want = [service.retrieve(q).context.text for q in questions]
    seen: list[tuple[str, bool]] = []
    inner = retrieval.audit

    def spy(settings: Any, record: dict[str, Any]) -> None:
        seen.append((threading.current_thread().name, trace.get_current_span().get_span_context().is_valid))
        inner(settings, record)

    monkeypatch.setattr(retrieval, "audit", spy)
    got: dict[int, list[str]] = {}

    def ask(k: int) -> None:
        got[k] = [service.retrieve(q).context.text for q in questions[k % 3:] + questions[: k % 3]]

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(sorted(v) == sorted(want) for v in got.values()) and len(got) == 4
    assert len(seen) == 12 and all(name.startswith("medpath-store") and in_span for name, in_span in seen), seen


def test_empty_query_bad_input_unknown_patient(service: Any) -> None:
    r = service.retrieve("   ")
    assert r.context.text == "" and r.graph_edges_count == 0 and r.classifier_rule_id == "EMPTY-1"
    with pytest.raises(InputError):
        service.retrieve("x", depth=5)
    with pytest.raises(InputError):
        service.retrieve("x", force_route="nowhere")
    with pytest.raises(InputError):
        service.retrieve("x", mode="telepathy")
    with pytest.raises(NotFoundError):
        service.retrieve("x", patient_id="PAT_999")


def test_disabled_and_stores_down(service: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYBRID_RETRIEVAL_ENABLED", "false")
    with pytest.raises(RetrievalUnavailableError, match="disabled"):
        service.retrieve("What does imatinib target?")
    monkeypatch.delenv("HYBRID_RETRIEVAL_ENABLED")

    def down(_q: Any) -> list[Item]:
        raise ConnectionError("graph store unreachable")

    with pytest.raises(RetrievalUnavailableError, match="unreachable"):
        service.retrieve("What does imatinib target?", extra_stores={"graph": down})
    # one store down among several: a partial answer, with the reason
    r = service.retrieve("How does imatinib treat CML?", extra_stores={"graph": down})
    assert r.partial and any(s.name == "graph" and s.status == "error" and "unreachable" in s.reason for s in r.stores)


def test_audit_record_has_counts_and_no_entity_list(settings: Any, resources: Any, patients: PatientStore,
                                                    tmp_path: Path) -> None:
    from dataclasses import replace

    local = replace(settings, traces_dir=tmp_path)
    svc = open_retriever(local, resources=resources, patients=patients, memory=False)
    r = svc.retrieve("How does imatinib treat CML?", patient_id="PAT_002", actor_id="Alice Smith", auth_source="jwt:clinician")
    rows = [json.loads(line) for line in (tmp_path / "audit" / "audit.jsonl").read_text().splitlines()]
    rec = rows[-1]
    assert rec["action"] == "memory.retrieval.hybrid" and rec["auth_source"] == "jwt:clinician"
    pay = rec["payload"]
    assert pay["entities_referenced_count"] == len(r.entities_referenced) > 0
    assert pay["graph_edges_count"] == r.graph_edges_count and pay["text_chunks_count"] == r.text_chunks_count
    assert "entities_referenced" not in pay and "entities_referenced" not in rec
    raw = json.dumps(rec)
    assert not any(e in raw for e in r.entities_referenced if e != "PAT_002")
    assert "imatinib" not in raw.lower() and "Alice" not in raw and rec["actor_hash"]


# -- the pipeline goes through the same service ------------------------------------------------------------
def test_pipeline_answers_a_patient_question_through_the_service(run_graph: Any, service: Any, patients: PatientStore) -> None:
    p = next(x for x in patients.patients.values() if x.allows("medications") and any(f.relation == "takes" for f in x.facts))
    out, _ = run_graph({"question": f"What medications is {p.id} on?"}, thread="pat", retrieval=service)
    assert out["status"] == "ANSWERED" and out["intent"] == "patient"
    assert out["hybrid"]["route"] == "graph" and out["hybrid"]["classifier_rule_id"] == "PAT-1"
    for f in p.facts:
        if f.relation == "takes":
            assert f.object_name in out["answer"]
    assert p.pii["name"] not in out["answer"]
    refused = next(x for x in patients.patients.values() if not x.allows("medications"))
    out, _ = run_graph({"question": f"Which drugs does {refused.id} take?"}, thread="pat2", retrieval=service)
    assert out["status"] == "NOT_FOUND" and "withheld by the patient's consent" in out["answer"]
    out, _ = run_graph({"question": "What medications is PAT_999 on?"}, thread="pat3", retrieval=service)
    assert out["status"] == "NOT_FOUND" and "PAT_999" in out["answer"]


def test_pipeline_mechanism_question_records_the_hybrid_route(run_graph: Any, service: Any) -> None:
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"}, thread="mech", retrieval=service)
    assert out["status"] == "ANSWERED"
    hybrid = out["hybrid"]
    assert hybrid["route"] in ("hybrid", "graph") and "graph" in {s["name"] for s in hybrid["stores"]}
    assert hybrid["graph_edges_count"] > 0 and "entities_referenced" not in hybrid


def test_pipeline_walks_alone_when_the_service_is_off(run_graph: Any, service: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYBRID_RETRIEVAL_ENABLED", "false")
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"}, thread="off", retrieval=service)
    assert out["status"] == "ANSWERED" and "disabled" in out["hybrid"]["error"]
    assert any(f["component"] == "hybrid" and f["fallback"] == "walk only" for f in out["fallbacks"])
