"""The Reviewer's assertion gate: statuses per category, scope, sections, the policy, reasons, batched ingest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.errors import ConfigError
from medpath.cli import cli
from medpath.ingest import ingest_events, read_jsonl, review_events
from memory.mirix import Memory
from memory.records import MemoryFact
from memory.synth import StreamSpec, synth_stream
from tools.assertion import AssertionReader
from tools.gate import ClaimGate, GatePolicy, contradictions


@pytest.fixture(scope="module")
def gate() -> ClaimGate:
    return ClaimGate.load()


@pytest.mark.parametrize(("text", "concept", "status"), [
    ("Patient denies chest pain.", "chest pain", "negated"),
    ("No evidence of pleural effusion.", "pleural effusion", "negated"),
    ("No fever, chills, or cough.", "cough", "negated"),  # a list under one cue
    ("He is no longer taking warfarin.", "warfarin", "negated"),
    ("Patient denies any use of naproxen.", "naproxen", "negated"),  # the cue three words before the drug
    ("Consider starting atorvastatin if LDL stays high.", "atorvastatin", "hypothetical"),
    ("Return to the ED if the chest pain worsens.", "chest pain", "hypothetical"),
    ("If blood pressure remains elevated, add amlodipine.", "amlodipine", "hypothetical"),
    ("History of myocardial infarction in 2015.", "myocardial infarction", "historical"),
    ("I used to take omeprazole.", "omeprazole", "historical"),
    ("A neighbour says she is on warfarin now.", "warfarin", "uncertain"),
    ("Possible right lower lobe pneumonia.", "pneumonia", "possible"),
    ("Mother has breast cancer.", "breast cancer", "family"),
    ("His brother's LDL was 190.", "190", "family"),
    ("Allergic to penicillin (hives).", "penicillin", "allergy"),
    ("She was discharged home on metoprolol 25 mg twice daily.", "metoprolol", "affirmed"),
    ("A 67-year-old man with hypertension and diabetes.", "diabetes", "affirmed"),
    ("Mother reports the child has had diarrhea for three days.", "diarrhea", "affirmed"),
])
def test_each_category(gate: ClaimGate, text: str, concept: str, status: str) -> None:
    assert gate.reader.read(text, [concept]).status == status


@pytest.mark.parametrize(("text", "concept", "status"), [
    ("Metformin stopped, insulin glargine started.", "Metformin", "negated"),  # one cue, two drugs
    ("Metformin stopped, insulin glargine started.", "insulin glargine", "affirmed"),
    ("Warfarin was discontinued; apixaban was started instead.", "apixaban", "affirmed"),
    ("Warfarin was discontinued; apixaban was started instead.", "Warfarin", "negated"),
    ("Continue lisinopril; may adjust the dose next week.", "lisinopril", "affirmed"),  # a hedge about the dose
    ("Switched from lisinopril to losartan because of cough.", "losartan", "affirmed"),
    ("Switched from lisinopril to losartan because of cough.", "lisinopril", "historical"),
    ("Denies chest pain at rest. Chest pain on exertion for a week.", "chest pain", "affirmed"),
])
def test_a_cue_governs_only_its_own_mention(gate: ClaimGate, text: str, concept: str, status: str) -> None:
    assert gate.reader.read(text, [concept]).status == status


def test_sections_set_the_context(gate: ClaimGate) -> None:
    note = "ALLERGIES: penicillin (rash).\nFAMILY HISTORY: diabetes in mother.\nMEDICATIONS: amoxicillin daily.\nPLAN: start lisinopril."
    read = {c: gate.reader.read(note, [c]) for c in ("penicillin", "diabetes", "amoxicillin", "lisinopril")}
    assert read["penicillin"].status == "allergy" and read["diabetes"].status == "family"
    assert read["amoxicillin"].status == "affirmed" and read["lisinopril"].status == "hypothetical"
    assert read["penicillin"].cue_for("allergy")


def test_the_subject_ends_a_family_scope(gate: ClaimGate) -> None:
    text = "Family member thinks PAT_0007's HbA1c was maybe around 8.1?"
    assert gate.reader.read(text, ["8.1"]).status == "family"
    about = gate.reader.read(text, ["8.1"], ["PAT_0007"])
    assert about.status == "uncertain" and about.experiencer == "patient"
    assert gate.reader.read("Mother of PAT_0007: LDL 190 last month.", ["190"], ["PAT_0007"]).status == "family"


def test_policy_per_relation(gate: ClaimGate) -> None:
    hist = "She was on warfarin until last year."
    med = gate.decide(hist, ["warfarin"], "current_medication")
    assert not med.accepted and med.reason["status"] == "historical" and med.reason["fits"] == "past_medication"
    assert med.reason["rule"] == "current_medication" and med.reason["cue"]
    assert gate.decide("History of asthma as a child.", ["asthma"], "has_condition").accepted
    lab = gate.decide("His brother's LDL was 190.", ["190"], "lab:LDL")
    assert not lab.accepted and lab.reason["rule"] == "lab:*"
    allergy = gate.decide("Allergic to penicillin.", ["penicillin"], "current_medication")
    assert not allergy.accepted and allergy.reason["fits"] == "allergy"
    assert gate.decide("Allergic to penicillin.", ["penicillin"], "allergy").accepted
    unknown = gate.decide("Consider adding aspirin.", ["aspirin"], "some_relation")
    assert not unknown.accepted and unknown.reason["rule"] == "default"
    assert not gate.decide("Nothing about it here.", ["aspirin"], "current_medication").accepted


def test_a_negated_passage_does_not_support_the_edge(gate: ClaimGate) -> None:
    edge = [{"head": "A", "head_name": "imatinib", "relation": "decreases activity of", "tail": "B", "tail_name": "EGFR"}]
    against = contradictions(lambda: gate.reader, edge, ["Imatinib does not inhibit EGFR in these cells."])
    assert against and against[0]["status"] == "negated"
    assert not contradictions(lambda: gate.reader, edge, ["Imatinib inhibits EGFR."])
    # a negated association is not a negated edge
    assert not contradictions(lambda: gate.reader, edge, ["No association of imatinib use with EGFR mutations was seen."])
    assert not gate.decide("Imatinib does not inhibit EGFR.", ["EGFR"], "decreases activity of").accepted


@pytest.mark.parametrize("text, names, spans", [
    ("Imatinib inhibits KIT.", ["imatinib", "kit", "abl"], [(0, 8), (18, 21)]),
    ("mikit and kit-2", ["kit"], [(10, 13)]),  # whole words only
    ("\u212aRAS", ["kras"], [(0, 4)]),  # the Kelvin sign folds to k: non-ASCII text is matched by the pattern itself
    ("STAT5 and STAT5B", ["stat5b", "stat5"], [(0, 5), (10, 16)]),
])
def test_names_are_found_case_insensitively_as_whole_words(text: str, names: list[str], spans: list) -> None:
    assert AssertionReader.find(text, names) == spans


def test_broken_rule_files_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "rules.yaml"
    bad.write_bytes(b"\xff\xfe not yaml")
    with pytest.raises(ConfigError, match="rules.yaml"):
        AssertionReader.load(bad)
    bad.write_text("categories: {sarcastic: {preceding: [yeah right]}}")
    with pytest.raises(ConfigError, match="unknown category"):
        AssertionReader.load(bad)
    pol = tmp_path / "policy.yaml"
    pol.write_text("default: {accept: [maybe]}")
    with pytest.raises(ConfigError, match="unknown status"):
        GatePolicy.load(pol)


def _stream(tmp_path: Path, settings) -> tuple[list, list]:
    ev, _ = synth_stream(StreamSpec(users=4, patients=20, days=3, seed=3), settings.data_dir)
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in ev))
    return read_jsonl(path, ("ts", "owner", "subj", "rel", "obj", "evidence")), []


def test_batched_ingest_writes_what_fact_by_fact_commits_write(tmp_path: Path, settings, resources, gate: ClaimGate) -> None:
    rows, _ = _stream(tmp_path, settings)
    decisions = review_events(rows, gate, None, resources.kg)
    batched = Memory(tmp_path / "batched")
    ingest_events(batched, rows, decisions, batch=37)
    single = Memory(tmp_path / "single")
    for i in sorted(range(len(rows)), key=lambda i: rows[i]["_ts"]):
        e = rows[i]
        fact = MemoryFact(owner=e["owner"], subj=e["subj"], rel=e["rel"], obj=e["obj"], evidence=e["evidence"], t_start=e["_ts"])
        single.commit(decisions[i], [fact], supersede=bool(e.get("supersedes")), now=e["_ts"])

    def table(m: Memory) -> list[tuple]:
        keep = ("owner", "subj", "rel", "obj", "use_count", "confidence", "t_start", "t_end", "recorded_at")
        return sorted(tuple(f.to_json()[k] for k in keep) for o, _ in m.vault.owners() for f in m.vault.history(o))

    assert table(batched) and table(batched) == table(single)
    why = batched.gate_log.recent(rows[0]["owner"], rejected_only=True)
    assert why and all(r["reason"]["rule"] and r["reason"]["status"] for r in why)


def test_memory_show_why_and_eval_gate(settings, tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    (home).mkdir()
    (home / "index").symlink_to(settings.index_dir)
    monkeypatch.setenv("MEDPATH_HOME", str(home))
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "traces"))
    events = tmp_path / "e.jsonl"
    events.write_text("\n".join(json.dumps(e) for e in [
        {"ts": "2026-01-05T08:00:00Z", "owner": "u1", "subj": "PAT_1", "rel": "current_medication", "obj": "X1",
         "obj_name": "warfarin", "evidence": "PAT_1 denies taking warfarin."},
        {"ts": "2026-01-05T09:00:00Z", "owner": "u1", "subj": "PAT_1", "rel": "current_medication", "obj": "X2",
         "obj_name": "apixaban", "evidence": "Warfarin stopped, apixaban started for PAT_1."}]) + "\n")
    runner = CliRunner()
    res = runner.invoke(cli, ["memory", "ingest", "--quiet", str(events)])
    assert res.exit_code == 0 and "1 accepted, 1 rejected" in res.output and "events/s" in res.output
    why = runner.invoke(cli, ["memory", "show", "u1", "--why"]).output
    assert 'reject  PAT_1  current_medication  X1  [negated, cue "denies taking"' in why and "accept  PAT_1" in why
    audit = (tmp_path / "traces" / "audit" / "audit.jsonl").read_text()
    assert '"action": "memory.gate"' in audit and "warfarin" not in audit and "PAT_1" not in audit
    labelled = tmp_path / "g.jsonl"
    labelled.write_text("\n".join(json.dumps(r) for r in [
        {"sentence": "Denies chest pain.", "concept": "chest pain", "status": "negated"},
        {"sentence": "Chest pain since Monday.", "concept": "chest pain", "status": "affirmed"},
        {"sentence": "Chest pain since Monday.", "concept": "chest pain", "status": "negated"}]) + "\n")
    out = json.loads(runner.invoke(cli, ["eval", "gate", "--file", str(labelled), "--json"]).output)
    assert out["rows"] == 3 and out["per_status"]["negated"]["status_accuracy"] == 0.5
    assert out["confusion"]["negated"] == {"negated": 1, "affirmed": 1}


def test_the_reviewer_rejects_a_candidate_a_passage_negates(resources) -> None:
    from agents.reviewer import _check_passages
    from agents.state import State

    edge = {"head": "MESH:D000068877", "head_name": "imatinib", "relation": "decreases activity of",
            "tail": "UniProt:P00519", "tail_name": "Tyrosine-protein kinase ABL1"}
    cands = [{"triples": [edge]}, {"triples": [{**edge, "tail": "X", "tail_name": "Mast/stem cell growth factor receptor Kit"}]}]
    judgments = [{"rank": 0, "decision": "accept"}, {"rank": 1, "decision": "accept"}]
    state = State(question="q", hybrid={"context": {"text_lines": [
        "[PMID 1] Imatinib did not inhibit tyrosine-protein kinase ABL1 in these resistant cells."]}})
    _check_passages(state, resources, cands, judgments)
    assert judgments[0]["decision"] == "reject" and judgments[0]["contradicted_by"][0]["status"] == "negated"
    assert judgments[1]["decision"] == "accept"  # a passage about another edge does not touch it
