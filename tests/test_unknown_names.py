"""A name the graph lacks is named as missing: asked alone or after a follow-up's opening word ("and hirsutism?"),
and when a later question refers back to it ("what does it target?" after "what does ondansetron do?")."""

from __future__ import annotations

import pytest

from agents.free_text import unnamed_words
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("turns", "name"), [
    (("what does spironolactone treat?", "and hirsutism?"), "hirsutism"),
    (("hirsutism",), "hirsutism"),
    (("tell me about qwzx",), "qwzx"),
    (("how does imatinib work?", "and blorptazine?"), "blorptazine"),
])
def test_a_question_that_is_only_an_unknown_name_names_it(run_graph, turns: tuple[str, ...], name: str) -> None:
    """They were NOT_FOUND with "no known entity in the question"."""
    *_, out = in_thread(run_graph, f"bare-{name}-{len(turns)}", *turns)
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert f'"{name}" is not in the knowledge graph' in out["answer"], out["answer"]


def test_only_a_few_words_that_link_nothing_are_named(resources) -> None:
    assert unnamed_words(resources, "and hirsutism?")[0]["mention"] == "hirsutism"
    assert unnamed_words(resources, "what about qwzx?")[0]["mention"] == "qwzx"
    for question in ("why?", "and what else?", "and gout?", "how does it work for people with a rare disease?",
                     "what about them?"):
        assert unnamed_words(resources, question) == [], question


@pytest.mark.parametrize(("last", "ref"), [
    ("what does it target?", '"it" would be "ondansetron"'),
    ("what are its side effects?", '"its" would be "ondansetron"'),
    ("what are the side effects?", 'the question would be about "ondansetron"'),
])
def test_a_reference_to_the_last_question_s_unknown_name_is_not_the_turn_before_s(run_graph, last: str, ref: str) -> None:
    """"what does it target?" after "what does ondansetron do?" (NOT_FOUND) was answered for imatinib, the drug of the
    turn before."""
    first, unknown, out = in_thread(run_graph, f"unknown-ref-{last}", "how does imatinib work?",
                                    "what does ondansetron do?", last)
    assert first["status"] is Status.ANSWERED and unknown["status"] is Status.NOT_FOUND
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert f"{ref} from the last question, which is not in the knowledge graph" in out["answer"], out["answer"]
    assert "imatinib" not in out["answer"]


def test_a_reference_after_an_unknown_drug_beside_a_known_disease_is_the_disease(run_graph, resources) -> None:
    """"How does zorblaxin treat asthma?" named asthma, which the graph holds: "it" is asthma."""
    *_, out = in_thread(run_graph, "unknown-beside", "How does zorblaxin treat asthma?", "what else treats it?")
    assert out["status"] is Status.ANSWERED and [resources.kg.name(x) for x in out["targets"]] == ["Asthma"], out["answer"]


def test_it_with_nothing_but_an_unknown_name_before_is_that_name(run_graph) -> None:
    """An interactive run asked what "it" meant: "This conversation has not named a drug, disease or patient yet."."""
    out, _ = run_graph({"question": "what does ondansetron do?"}, thread="unknown-first", memory=False)
    assert out["status"] is Status.NOT_FOUND
    out, _ = run_graph({"question": "is it used for nausea?"}, thread="unknown-first", memory=False)
    assert out["status"] is Status.NOT_FOUND and not out.get("clarification"), out
    assert '"it" would be "ondansetron" from the last question' in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["compare statins and qwzx", "statins vs qwzx"])
def test_a_class_compared_with_an_unknown_name_names_it(run_graph, question: str) -> None:
    """"compare statins and qwzx" was answered with what the statins act on, "qwzx" dropped without a word."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and '"qwzx" is not in the knowledge graph' in out["answer"], out["answer"]
    for asked in ("tell me about statins", "compare ARBs and ACE inhibitors"):  # a class alone, or two, as before
        out, _ = run_graph({"question": asked}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED, out["answer"]


@pytest.mark.parametrize(("question", "name", "klass"), [("how does semaglutide treat diabetes?", "semaglutide", "GLP-1 agonists"),
                                                         ("what does trastuzumab target?", "trastuzumab", "monoclonal antibodies"),
                                                         ("how does apixaban work?", "apixaban", "anticoagulants")])
def test_an_unknown_drug_of_a_known_class_offers_the_class(run_graph, resources, question: str, name: str, klass: str) -> None:
    """"semaglutide" was "did you mean Albiglutide, Dulaglutide, Liraglutide?", with nothing to say why."""
    (out,) = in_thread(run_graph, f"unknown-class-{name}", question)
    held = [c.name for c in resources.linker.drug_class(klass)[:3]]
    assert out["status"] is Status.NOT_FOUND and len(held) == 3, out["answer"]
    assert (f'"{name}" is not in the knowledge graph; by its name it is one of the {klass}, of which the knowledge graph '
            f'holds {", ".join(held)} (ask "How do {klass} work?")') in out["answer"], out["answer"]
    (plain,) = in_thread(run_graph, "unknown-class-none", "how does zorblaxin treat fever?")
    assert "by its name" not in plain["answer"], plain["answer"]


@pytest.mark.parametrize(("question", "unknown", "held"), [
    ("How does amoxicillin treat an ear infection?", "ear infection",
     ("What the knowledge graph holds on Amoxicillin: it acts on Penicillin-binding protein 1A and Penicillin-binding "
      'protein, transpeptidase (ask "What does Amoxicillin treat?")')),
    ("how does imatinib treat qwerty disease?", "qwerty disease",
     "holds on imatinib: it acts on Fusion Proteins, bcr-abl; Mast/stem cell growth factor receptor Kit; "),
    # through what it becomes, and not what it becomes nor the diseases it treats ("it acts on prednisolone, Addison …")
    ("How does prednisone treat zorblaxitis?", "zorblaxitis",
     "holds on prednisone: it acts on Glucocorticoid receptor and 25-hydroxyvitamin D-1 alpha hydroxylase, mitochondrial ("),
])
def test_an_unknown_disease_beside_a_known_drug_says_what_the_drug_acts_on(run_graph, question: str, unknown: str,
                                                                          held: str) -> None:
    """"How does amoxicillin treat an ear infection?" said only that "ear infection" is not in the knowledge graph, and
    nothing of what it holds on amoxicillin."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert f'"{unknown}" is not in the knowledge graph' in out["answer"] and held in out["answer"], out["answer"]
    unknown_drug, _ = run_graph({"question": "How does zorblax treat gout?"}, interactive=False, memory=False)
    assert "holds on" not in unknown_drug["answer"], unknown_drug["answer"]  # gout is no drug


@pytest.mark.parametrize(("question", "brand", "generic", "klass"), [
    ("what does ozempic do?", "ozempic", "semaglutide", "GLP-1 agonists"),
    ("how does mounjaro work?", "mounjaro", "tirzepatide", ""),
    ("is eliquis safer than warfarin?", "eliquis", "apixaban", "anticoagulants"),
])
def test_a_brand_of_a_drug_the_graph_lacks_names_its_generic(run_graph, question: str, brand: str, generic: str,
                                                              klass: str) -> None:
    """"What does ozempic do?" was NOT_FOUND with "did you mean ozagrel?"; "is eliquis safer than warfarin?" told what
    warfarin is connected to, Eliquis dropped without a word (since stop 100)."""
    (out,) = in_thread(run_graph, f"brand-{brand}", question)
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert (f'"{brand}" is not in the knowledge graph: it is a brand of {generic}, which the knowledge graph does not hold '
            "either") in out["answer"], out["answer"]
    assert "did you mean" not in out["answer"] and (not klass or f"by its name it is one of the {klass}" in out["answer"]), out["answer"]


def test_an_unknown_drug_set_against_a_known_one_is_named(run_graph) -> None:
    """"Is apixaban better than warfarin?" told what warfarin is connected to, apixaban dropped without a word."""
    (out,) = in_thread(run_graph, "better-than-unknown", "is apixaban better than warfarin?")
    assert out["status"] is Status.NOT_FOUND and '"apixaban" is not in the knowledge graph' in out["answer"], out["answer"]
