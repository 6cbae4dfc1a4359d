"""A question for a kind of disease ("What cancers does methotrexate treat?") lists only that kind; one that leaves a
disease out ("What does ibuprofen treat besides pain?") leaves it out."""

from __future__ import annotations

from agents.kinds import disease_kind
from agents.state import Status
from tests.conftest import in_thread
from tools.answers import of_kind


def test_the_kind_a_question_names() -> None:
    assert [disease_kind(q) for q in ("What cancers does imatinib treat?", "which tumours does X help?",
                                      "What infections does amoxicillin treat?", "What does imatinib treat?",
                                      "What diseases does imatinib treat?")] == ["cancer", "cancer", "infection", "", ""]


def test_which_type_of_diabetes_lists_only_diabetes(run_graph, resources) -> None:
    """"What type of diabetes is it used for?" after insulin was told what Insulin human is connected to, and "which
    type of diabetes does metformin treat?" what metformin is: no rule read "type of diabetes" as a kind (stop 97)."""
    assert [disease_kind(q) for q in ("which type of diabetes does metformin treat?", "What drugs treat diabetes?")] == \
        ["diabetes", ""]
    _, out = in_thread(run_graph, "diabetes-kind", "How does insulin work?", "what type of diabetes is it used for?")
    assert out["status"] is Status.ANSWERED and out["disease_kind"] == "diabetes", out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith("Insulin human has verified mechanisms for these kinds of diabetes: ")
    assert all(of_kind(resources.kg, a["id"], "diabetes") for a in out["ranked_answers"]), out["ranked_answers"]


def test_which_of_those_are_types_of_diabetes_names_the_kind(run_graph) -> None:
    """The kind's noun is "kinds of diabetes" wherever a kind is put in the plural: "which of those are types of
    diabetes?" after a drug's diseases asked 'Which "diabetess does" do you mean?'."""
    _, out = in_thread(run_graph, "diabetes-of-those", "What does Insulin human treat?", "which of those are types of diabetes?")
    assert out["understood_as"] == "What kinds of diabetes does Insulin human treat?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["disease_kind"] == "diabetes", out["answer"]


def test_a_disease_s_kind_by_its_name_or_the_organism_linked_into_it(resources) -> None:
    kg = resources.kg
    by_name = {kg.name(x): x for x in kg.entity_ids()}
    assert of_kind(kg, by_name["Chronic myeloid leukemia"], "cancer")
    assert of_kind(kg, by_name["Gastrointestinal stromal tumor"], "cancer")
    # "-blastomycosis" is a fungal infection, not a "-blastoma"
    assert not of_kind(kg, by_name["Chromoblastomycosis"], "cancer") and of_kind(kg, by_name["Chromoblastomycosis"], "infection")
    assert of_kind(kg, by_name["Cholera"], "infection")  # no word says so: Vibrio cholerae —causes→ Cholera
    # mycosis fungoides is a lymphoma
    assert of_kind(kg, by_name["Mycosis Fungoides"], "cancer") and not of_kind(kg, by_name["Mycosis Fungoides"], "infection")
    assert not of_kind(kg, by_name["Gout"], "infection") and not of_kind(kg, by_name["Gout"], "cancer")
    assert of_kind(kg, by_name["Gout"], "")


def test_what_cancers_a_drug_treats_lists_only_cancers(run_graph, resources) -> None:
    """"What cancers does methotrexate treat?" listed what "What does methotrexate treat?" lists, "Abnormal cell
    proliferation" and Falciparum malaria among them."""
    out, _ = run_graph({"question": "What cancers does methotrexate treat?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["disease_kind"] == "cancer"
    ranked = out["ranked_answers"]
    assert len(ranked) == 5 and all(of_kind(resources.kg, a["id"], "cancer") for a in ranked), [a["name"] for a in ranked]
    assert out["answer"].startswith("methotrexate has verified mechanisms for these cancers: ")
    listed = out["answer"].split(": ", 1)[1].split(". Best evidence")[0]
    assert all(n.strip() in {a["name"] for a in ranked} for n in listed.split(", ")), listed
    plain, _ = run_graph({"question": "What does methotrexate treat?"}, interactive=False, memory=False)
    assert plain["disease_kind"] == "" and not all(of_kind(resources.kg, a["id"], "cancer") for a in plain["ranked_answers"])


def test_a_drug_that_treats_no_disease_of_the_kind_is_told_so(run_graph) -> None:
    out, _ = run_graph({"question": "What cancers does amoxicillin treat?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["ranked_answers"] == []
    assert out["answer"].startswith("The knowledge graph links Amoxicillin to no cancer, by the diseases' names; ")


def test_which_of_the_listed_diseases_are_of_a_kind(run_graph) -> None:
    """"Which of those are cancers?" after "What does imatinib treat?" was NOT_FOUND ("no known entity")."""
    first, _ = run_graph({"question": "What does imatinib treat?"}, thread="kinds", interactive=False)
    assert first["status"] is Status.ANSWERED
    out, _ = run_graph({"question": "which of those are cancers?"}, thread="kinds", interactive=False)
    assert out["understood_as"] == "What cancers does imatinib treat?" and out["disease_kind"] == "cancer"
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(
        'Understood as: "What cancers does imatinib treat?" imatinib has verified mechanisms for these cancers: ')


def test_a_yes_no_question_about_any_disease_of_a_kind_lists_them(run_graph) -> None:
    """"Is imatinib used for any infections?" was NOT_FOUND: "any infections" was read as a disease's name."""
    from agents.intent import parse_question

    for q in ("Is imatinib used for any infections?", "Does imatinib treat any cancers?", "can imatinib be used for any kind of cancer"):
        parsed = parse_question(q)
        assert parsed is not None and parsed.intent.value == "indications" and parsed.drug == "imatinib", q
    out, _ = run_graph({"question": "Does imatinib treat any cancers?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["disease_kind"] == "cancer"
    assert out["answer"].startswith("Yes: imatinib has verified mechanisms for these cancers: ")  # a yes since stop 102
    none, _ = run_graph({"question": "is metformin used for any cancers?"}, interactive=False, memory=False)
    assert none["answer"].startswith("No: the knowledge graph links Metformin to no cancer"), none["answer"]
    listed, _ = run_graph({"question": "what cancers does metformin treat?"}, interactive=False, memory=False)
    assert listed["answer"].startswith("The knowledge graph links Metformin to no cancer"), listed["answer"]


def test_a_kind_named_alone_asks_for_the_diseases_of_that_kind(run_graph) -> None:
    """"Does methotrexate treat cancer?" was read as Malignant tumor of colon, the closest name; "which cancers?" after
    what it treats was NOT_FOUND (since stop 102)."""
    out, _ = run_graph({"question": "does methotrexate treat cancer?"}, interactive=False, memory=False)
    assert out["intent"] == "indications" and out["disease_kind"] == "cancer", out["answer"]
    assert out["answer"].startswith("Yes: methotrexate has verified mechanisms for these cancers: "), out["answer"]
    _, too = in_thread(run_graph, "kind-too", "How does methotrexate treat rheumatoid arthritis?", "does it treat cancer too?")
    assert too["disease_kind"] == "cancer" and too["intent"] == "indications", too["answer"]
    _, which = in_thread(run_graph, "kind-which", "what does methotrexate treat?", "which cancers?")
    assert which["understood_as"] == "What cancers does methotrexate treat?", which["answer"]


def test_what_a_drug_treats_besides_a_disease_leaves_it_out(run_graph) -> None:
    """"What does ibuprofen treat besides pain?" listed the drugs that treat pain ("besides pain" read as Pain)."""
    out, _ = run_graph({"question": "What does ibuprofen treat besides pain?"}, interactive=False, memory=False)
    assert out["intent"] == "indications" and out["status"] is Status.ANSWERED and out["targets"] == []
    pain = next(m["entity"]["id"] for m in out["mentions"] if m["slot"] == "disease")
    assert out["excluded"] == [pain] and out["ranked_answers"]
    assert all(a["name"].casefold() != "pain" for a in out["ranked_answers"])
    assert out["answer"].startswith("Leaving out Pain, as asked. Ibuprofen has a verified mechanism for: ")
    # several left out: all of them, none of them a question to ask next; in the same thread, "other than" left out
    # every disease the first answer had listed too
    out, _ = run_graph({"question": "What does aspirin treat other than pain and fever?"}, interactive=False, memory=False)
    assert out["intent"] == "indications" and len(out["excluded"]) == 2 and out["also_asked"] == [], (out["excluded"], out["also_asked"])
    assert out["answer"].startswith("Leaving out Pain and Fever, as asked. ")
    assert not {a["name"] for a in out["ranked_answers"]} & {"Pain", "Fever"}


def test_which_of_the_listed_drugs_are_of_a_kind_is_refused_with_what_to_ask(run_graph) -> None:
    """"Which of them are cancers?" after a list of drugs was NOT_FOUND: "no known entity in the question"."""
    first, _ = run_graph({"question": "What drugs treat lymphoma?"}, thread="drug-kinds", interactive=False)
    assert first["status"] is Status.ANSWERED
    top = first["ranked_answers"][0]["name"]
    out, _ = run_graph({"question": "which of them are cancers?"}, thread="drug-kinds", interactive=False)
    assert out["status"] is Status.NOT_FOUND
    assert out["answer"] == (f"No verified evidence: the last answer lists drugs, and cancers are diseases; ask "
                             f"\"What cancers does {top} treat?\" for one of them.")
    then, _ = run_graph({"question": "which of them treat asthma?"}, thread="drug-kinds", interactive=False)
    assert then["understood_as"] == "Which of the listed drugs treat asthma?"  # the list is still the thread's


def test_which_of_the_listed_drugs_are_used_for_a_disease_is_no_kind(run_graph) -> None:
    """"which of them are used for lung cancer?" after the drugs that target EGFR was refused ("cancers are diseases"):
    "used for lung cancer" names a disease, not a kind."""
    run_graph({"question": "what drugs target EGFR"}, thread="egfr-used", interactive=False)
    out, _ = run_graph({"question": "which of them are used for lung cancer"}, thread="egfr-used", interactive=False)
    assert out["understood_as"] == "Which of the listed drugs are used for lung cancer?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["disease_kind"] == "", out["answer"]


def test_blood_cancers_are_a_kind_of_their_own() -> None:
    assert [disease_kind(q) for q in ("Which of these is a blood cancer?", "which cancers of the blood does X treat?",
                                      "any haematological malignancies?", "What cancers does X treat?")] == [
        "blood cancer", "blood cancer", "blood cancer", "cancer"]


def test_which_of_the_listed_diseases_is_a_blood_cancer(run_graph, resources) -> None:
    """"Which of these is a blood cancer?" after "What does imatinib treat?" listed Carcinoma, Renal Cell and
    Gastrointestinal stromal tumor as blood cancers; "What blood cancers does imatinib treat?" was NOT_FOUND, a chain
    looked for from imatinib to Blood."""
    run_graph({"question": "What does imatinib treat?"}, thread="blood", interactive=False)
    out, _ = run_graph({"question": "Which of these is a blood cancer?"}, thread="blood", interactive=False)
    assert out["understood_as"] == "What blood cancers does imatinib treat?" and out["disease_kind"] == "blood cancer"
    names = [a["name"] for a in out["ranked_answers"]]
    assert out["status"] is Status.ANSWERED and "Chronic myeloid leukemia" in names, out["answer"]
    assert all(of_kind(resources.kg, a["id"], "blood cancer") for a in out["ranked_answers"]), names
    assert "imatinib has verified mechanisms for these blood cancers: " in out["answer"], out["answer"]
    assert not any("Carcinoma" in n or "stromal" in n for n in names), names
    kg = resources.kg
    by_name = {kg.name(x): x for x in kg.entity_ids()}
    assert of_kind(kg, by_name["Mycosis Fungoides"], "blood cancer") and not of_kind(kg, by_name["Gastrointestinal stromal tumor"], "blood cancer")
