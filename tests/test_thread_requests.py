"""Follow-ups that name nothing, read against the thread.

- "what are the treatment options?" after "Tell me about asthma" linked the word "treatment" by spelling to
  Megaloblastic anemia (an alias says "Methotrexate Treatment") and listed drugs for it; "what are the drugs?" and
  "which medications?" were NOT_FOUND ("no known entity in the question").
- "why is the second one used?" after "What drugs treat gout?" was NOT_FOUND ("used" is not in the knowledge graph),
  and so was "why is lesinurad used?" on its own.
- "any other drugs that target it?" after "What does lesinurad target?", in a thread about gout, asked for drugs for
  gout; it is about the target the last answer named.
- "which one works faster?" and "does ibuprofen work faster than acetaminophen?" were not said to be about what the
  graph does not hold; the second looked for a chain from one drug to the other (NOT_FOUND).
"""

from __future__ import annotations

import re

import pytest
from conftest import in_thread

from agents.intent import out_of_scope, parse_question
from agents.state import Status


@pytest.mark.parametrize("ask", ["what are the treatment options?", "what are the drugs?", "which medications?",
                                 "what treatments are there?", "what is the best treatment?",
                                 # they were NOT_FOUND ("no known entity in the question")
                                 "what drugs help?", "what helps?", "which medicines work for it?",
                                 "what drugs are used?", "which medications are usually prescribed for it?"])
def test_a_request_for_remedies_is_about_the_thread_disease(run_graph, ask: str) -> None:
    _first, out = in_thread(run_graph, f"remedies-{ask}", "Tell me about asthma", ask)
    assert out["understood_as"] == "What drug treats Asthma?" and out["status"] is Status.ANSWERED, out["answer"]


@pytest.mark.parametrize("question", ["what are the treatment options?", "what are the best medication options?",
                                      "what is the best treatment?"])
def test_remedy_words_alone_name_no_disease(question: str) -> None:
    assert parse_question(question) is None
    assert parse_question("asthma treatment options").disease == "asthma"


def test_why_a_listed_drug_is_used_is_its_mechanism_for_the_thread_disease(run_graph) -> None:
    listed, out, would = in_thread(run_graph, "why-used", "What drugs treat gout?", "why is the second one used?",
                                 "why would you use the second one?")
    second = listed["ranked_answers"][1]["name"]
    assert out["understood_as"] == would["understood_as"] == f"How does {second} treat Gout?", out["answer"]
    p = parse_question("why is lesinurad used?")
    assert p is not None and (p.intent.value, p.drug) == ("indications", "lesinurad")


def test_drugs_that_target_it_after_a_drug_s_targets_is_about_its_target(run_graph) -> None:
    _gout, targets, out = in_thread(run_graph, "target-it", "What drugs treat gout?", "what does lesinurad target?",
                                  "any other drugs that target it?")
    first = targets["answer"].split("acts on: ", 1)[1].split(", ")[0]
    assert out["understood_as"] == f"Any other drugs that target {first}?", out["answer"]
    _cml, _t, treats = in_thread(run_graph, "treats-it", "How does imatinib treat CML?", "What does it target?",
                               "what else treats it?")  # a disease's verb keeps the disease
    assert treats["understood_as"] == "What else treats Chronic myeloid leukemia?"


def test_how_fast_a_drug_acts_is_out_of_scope_and_two_drugs_are_compared(run_graph) -> None:
    assert out_of_scope("which one works faster?") == out_of_scope("Is ibuprofen fast-acting?") == "how soon drugs act"
    out, _ = run_graph({"question": "Does ibuprofen work faster than acetaminophen?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not how soon drugs act.")


def test_what_other_diseases_a_drug_treats_leaves_out_the_thread_s_disease(run_graph) -> None:
    """"What other diseases does imatinib treat?" parsed as nothing and was answered with what imatinib targets."""
    _first, out = in_thread(run_graph, "other-diseases", "How does imatinib treat CML?", "what other diseases does it treat?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications", out["answer"]
    assert out["ranked_answers"] and "Chronic myeloid leukemia" not in [a["name"] for a in out["ranked_answers"]]
    for question in ("What other conditions is imatinib used for?", "which other cancers does imatinib treat?"):
        p = parse_question(question)
        assert p is not None and (p.intent.value, p.drug) == ("indications", "imatinib"), question


def test_what_about_a_protein_that_names_drugs_asks_for_the_drugs(run_graph) -> None:
    """"and what about insulin?" after how metformin treats a diabetes was "How does insulin act on …?": the protein,
    answered for insulin glulisine through the walk, with no word that several drugs are named insulin. It is now asked
    as a direct question would be: the drugs named insulin, the plainest (Insulin human) first."""
    _first, out = in_thread(run_graph, "what-about-insulin", "How does metformin treat Diabetes mellitus type 1?",
                            "and what about insulin?")
    assert out["understood_as"] == "How does insulin treat Diabetes mellitus type 1?", out["understood_as"]
    assert out["status"] is Status.ANSWERED and out["sources"] == ["MESH:D007328"], out["answer"]
    # the drugs named insulin have the same relations, and the answer says so (test_clarify_answers)
    assert re.search(r'"insulin" names \d drugs with the same relations in the knowledge graph \(Insulin human, .*\); '
                     "answered for Insulin human", out["answer"]), out["answer"]


@pytest.mark.parametrize(("turns", "understood"), [
    (("What does methotrexate target?", "is that why it's used for RA?"), "Why is methotrexate used for RA?"),
    (("How does allopurinol treat gout?", "so that's why it is given for gout?"), "Why is allopurinol given for gout?"),
])
def test_is_that_why_asks_why_the_thread_s_drug_is_used(run_graph, turns: tuple[str, str], understood: str) -> None:
    """"is that why it's used for RA?" listed the drugs for rheumatoid arthritis: the question matched no rule, and "it"
    was left alone, since an initial of a drug's name is RA too."""
    _first, out = in_thread(run_graph, f"that-why-{turns[0]}", *turns)
    assert out["understood_as"] == understood and out["intent"] == "mechanism", out["answer"]


def test_ranking_a_drug_s_listed_uses_repeats_them_after_the_note(run_graph) -> None:
    """"which of those is the most common use?" after "What does ibuprofen treat?" was refused: it "sets two or more
    drugs side by side, and this conversation has named one". Those are the listed diseases, which the graph does not
    rank by how common they are."""
    _first, out = in_thread(run_graph, "most-common-use", "What does ibuprofen treat?", "which of those is the most common use?")
    assert out["understood_as"] == "What does ibuprofen treat?" and out["status"] is Status.ANSWERED, out["answer"]
    told = "not how often drugs are prescribed or things occur. What it holds: Ibuprofen has a verified mechanism for: "
    assert told in out["answer"], out["answer"]
