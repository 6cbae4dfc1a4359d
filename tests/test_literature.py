"""The closest bundled study for a question the knowledge graph does not answer (``tools.literature``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core.datasets import load_passages
from core.errors import DataError
from tools.literature import QUOTE_WORDS, Literature, Study

MAMMOGRAPHY = "Can tailored interventions increase mammography use among HMO women?"


def _study(pmid: str, title: str, *sections: tuple[str, str], year: str = "2001") -> Study:
    return Study(pmid, title, year, tuple(sections))


def _filler(n: int) -> list[Study]:
    """Studies on other topics, so that the words of the studies under test are rare among them."""
    topics = ["knee arthroplasty transfusion", "pediatric fracture ultrasound", "vaginal wet mount",
              "colonoscopy diverticulitis", "leukocyte injury severity", "orchiopexy testis age"]
    return [_study(f"9{i:03d}", f"Study {i} of {topics[i % len(topics)]}?", ("RESULTS", f"Patients improved {i}."))
            for i in range(n)]


def test_a_study_is_close_only_when_it_holds_every_rare_word_of_the_question() -> None:
    both = _study("1", "Does telephone counseling raise mammography screening?",
                  ("BACKGROUND", "Mammography is underused."), ("RESULTS", "Telephone counseling raised screening."))
    one = _study("2", "Mammography in rural clinics", ("RESULTS", "Mammography rates were low in rural clinics."))
    lit = Literature([one, both, *_filler(40)])
    found = lit.closest("Does telephone counseling improve mammography?")
    assert found is not None and found.study.pmid == "1"
    # the one study that mentions the topic but not "telephone" is no match, though BM25 ranks it
    assert Literature([one, *_filler(40)]).closest("Does telephone counseling improve mammography?") is None
    # one rare word alone is a topic, not a study of the question
    assert lit.closest("What about mammography?") is None
    # words that ask for the literature are not the topic
    assert lit.closest("Tell me about the research evidence on mammography") is None


def test_a_study_that_names_the_words_only_in_passing_is_no_match() -> None:
    """"is penicillin an antibiotic?" pointed to a study of Staphylococcus aureus bacteraemia that names both words."""
    passing = _study("8", "Is leucocidin linked to Staphylococcus aureus bacteraemia?",
                     ("RESULTS", "Patients got penicillin or another antibiotic."))
    lit = Literature([passing, *_filler(40)])
    assert lit.closest("is penicillin an antibiotic?") is None
    assert lit.closest("leucocidin and penicillin").study.pmid == "8"  # a title word is enough


def test_greek_letters_and_hyphens_are_read_as_words() -> None:
    study = _study("7", "Does β-catenin have a role in sebaceous carcinoma?", ("RESULTS", "β-catenin was nuclear."))
    found = Literature([study, *_filler(40)]).closest("beta catenin in sebaceous carcinoma")
    assert found is not None and found.study.pmid == "7"


def test_a_letter_or_number_after_a_word_is_part_of_it() -> None:
    """"vitamin D" pointed to a study of vitamin C: the "D" was too short to count as a word."""
    vitamin_c = _study("5", "Can vitamin C prevent pain after wrist fractures?", ("RESULTS", "Vitamin C lowered pain."))
    lit = Literature([vitamin_c, *_filler(40)])
    assert lit.closest("Does vitamin D prevent wrist fractures?") is None
    assert lit.closest("Does vitamin C prevent wrist fractures?").study.pmid == "5"


def test_the_quote_comes_from_the_results_and_keeps_to_its_word_budget() -> None:
    long = " ".join(["word"] * (QUOTE_WORDS + 20)) + "."
    study = _study("3", "Is telephone counseling effective for mammography?",
                   ("BACKGROUND", "Telephone counseling and mammography were studied."),
                   ("RESULTS", f"Telephone counseling raised mammography use. Costs were low. {long}"))
    found = Literature([study, *_filler(40)]).closest("telephone counseling mammography")
    assert found is not None
    assert found.quote[0] == "Telephone counseling raised mammography use."
    assert all("studied" not in s for s in found.quote)  # not from the background
    assert sum(len(s.split()) for s in found.quote) <= QUOTE_WORDS
    only_long = _study("4", "Telephone counseling and mammography", ("RESULTS", long))
    cut = Literature([only_long, *_filler(40)]).closest("telephone counseling mammography")
    assert cut is not None and cut.quote[0].endswith(" …") and len(cut.quote[0].split()) == QUOTE_WORDS + 1


def test_the_bundled_abstracts_answer_their_own_study_and_nothing_off_topic(settings: Any) -> None:
    lit = Literature.load(settings.data_dir / "pubmedqa" / "pqal_dev.json")
    assert len(lit) == 500
    found = lit.closest(MAMMOGRAPHY)
    assert found is not None and (found.study.pmid, found.study.year) == ("10808977", "2000")
    assert lit.closest("Can you measure vaginal pH from a wet mount slide?").study.pmid == "19643525"
    for question in ("What is the capital of France?", "How does imatinib treat CML?", "What drugs treat gout?"):
        assert lit.closest(question) is None, question


def test_a_broken_abstracts_file_is_a_data_error(tmp_path: Path) -> None:
    bad = tmp_path / "pqal.json"
    bad.write_text('{"1": "not an object"}')
    with pytest.raises(DataError, match="PMID 1 is not an object"):
        load_passages(bad)
    bad.write_text("{not json")
    with pytest.raises(DataError, match="invalid JSON"):
        Literature.load(bad)


def test_a_question_the_graph_cannot_answer_points_to_the_closest_study(run_graph: Any) -> None:
    out, _ = run_graph({"question": MAMMOGRAPHY})
    assert out["status"] == "NOT_FOUND"
    assert "(PMID 10808977, 2000)" in out["answer"] and "Its results: \"" in out["answer"]
    assert [c["id"] for c in out["citations"]] == ["PMID:10808977"]
    assert out["citations"][0]["url"] == "https://pubmed.ncbi.nlm.nih.gov/10808977/"
    off, _ = run_graph({"question": "What is the capital of France?"}, thread="t2")
    assert off["status"] == "NOT_FOUND" and "PubMedQA" not in off["answer"] and not off["citations"]
    answered, _ = run_graph({"question": "How does imatinib treat CML?"}, thread="t3")
    assert answered["status"] == "ANSWERED" and "PubMedQA" not in answered["answer"]


def test_a_broken_abstracts_file_keeps_the_answer_and_records_the_fallback(run_graph: Any, resources: Any,
                                                                           tmp_path: Path) -> None:
    (tmp_path / "pubmedqa").mkdir()
    (tmp_path / "pubmedqa" / "pqal_dev.json").write_text(json.dumps(["not", "keyed", "by", "PMID"]))
    broken = replace(resources, settings=replace(resources.settings, data_dir=tmp_path), _literature=None)
    out, _ = run_graph({"question": MAMMOGRAPHY}, resources=broken)
    assert out["status"] == "NOT_FOUND" and out["answer"].startswith("No verified evidence")
    assert "PubMedQA" not in out["answer"]
    fallback = [f for f in out["fallbacks"] if f["component"] == "explainer.literature"]
    assert fallback and "expected an object keyed by PMID" in fallback[0]["reason"]


def test_the_sources_after_a_study_pointer_are_the_study(run_graph: Any) -> None:
    """"show me the sources" after a pointer to a study asked what "the sources" referred to: the thread had no
    answered question, so there was nothing to ask again."""
    from tests.conftest import in_thread

    _, out = in_thread(run_graph, "lit-sources", MAMMOGRAPHY, "show me the sources")
    assert out["understood_as"] == MAMMOGRAPHY and [c["id"] for c in out["citations"]] == ["PMID:10808977"], out["answer"]
    assert out["answer"].endswith(f"Sources: {MAMMOGRAPHY} (PMID:10808977)."), out["answer"]
    _, _, again = in_thread(run_graph, "lit-later", "How does imatinib treat CML?", MAMMOGRAPHY, "where does that come from?")
    assert again["understood_as"] == MAMMOGRAPHY, again["answer"]  # the later of the two turns
