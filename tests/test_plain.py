""""can you explain that more simply?" after an answer: the last answer in plain words (it was NOT_FOUND, "no known
entity in the question")."""

from __future__ import annotations

import re

import pytest

from agents.plain import plain_words
from agents.state import Status
from tests.conftest import in_thread

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _t(head: str, relation: str, tail: str) -> dict[str, str]:
    return {"head": head, "head_name": head, "relation": relation, "tail": tail, "tail_name": tail}


def test_a_path_in_plain_words() -> None:
    kinds = {"ABL1": "Protein", "proliferation": "BiologicalProcess"}.get
    two = [_t("imatinib", "decreases activity of", "ABL1"), _t("ABL1", "causes", "CML")]
    assert plain_words(two, kinds) == ("In plain words: imatinib blocks ABL1 (a protein). From there, one more step "
                                       "leads to CML; taken together, the relations say imatinib works against it.")
    three = [_t("X", "increases activity of", "ABL1"), _t("ABL1", "positively regulates", "proliferation"),
             _t("proliferation", "positively correlated with", "CML")]
    assert plain_words(three, kinds) == ("In plain words: X switches on ABL1 (a protein). From there, two more steps, "
                                         "through proliferation, lead to CML; taken together, the relations say X raises it.")
    assert plain_words([_t("X", "correlated with", "Y")], kinds) == "In plain words: X acts on Y, directly."


@pytest.mark.parametrize("ask", ["can you explain that more simply?", "in plain English please", "I don't understand",
                                 "explain it like I'm five"])
def test_explain_that_more_simply(run_graph, ask: str) -> None:
    first, simple = in_thread(run_graph, "plain", "How does imatinib treat CML?", ask)
    assert simple["status"] is Status.ANSWERED and simple["understood_as"] == "How does imatinib treat CML?", simple["answer"]
    plain = simple["answer"].split('" ', 1)[1]
    assert plain.startswith("In plain words: imatinib ") and "Chronic myeloid leukemia" in plain, simple["answer"]
    assert len(plain) < len(first["answer"]) + 60 and "decreases activity of" not in plain, simple["answer"]
    assert simple["evidence"] == first["evidence"]  # the same path, told otherwise


@pytest.mark.parametrize("ask", ["is there a shorter explanation?", "tl;dr", "can you make it shorter?", "that's too long",
                                 "short version please", "sum it up"])
def test_a_shorter_answer_is_the_plain_one(run_graph, ask: str) -> None:
    """They were NOT_FOUND ("no known entity in the question")."""
    first, short = in_thread(run_graph, f"shorter-{ask}", "How does propranolol treat migraine?", ask)
    assert short["status"] is Status.ANSWERED and short["evidence"] == first["evidence"], short["answer"]
    plain = short["answer"].split('" ', 1)[1]
    assert plain.startswith("In plain words: ") and len(plain) < len(first["answer"]), short["answer"]


def test_a_list_more_simply_keeps_its_first_sentence(run_graph) -> None:
    """Since stop 98 the list's best evidence follows in plain words ("what does lisinopril target?", retold, was
    "lisinopril acts on: Angiotensin-converting enzyme." alone); a request for it shorter keeps the list alone."""
    first, simple = in_thread(run_graph, "plain", "what drugs treat gout?", "that's too technical")
    lead = first["answer"].split(" Best evidence:", 1)[0]
    drug = first["evidence"][0]["head_name"]
    assert f'" {lead} Its best evidence in plain words: {drug} ' in simple["answer"], (first["answer"], simple["answer"])
    assert "decreases activity of" not in simple["answer"] and "Ranked:" not in simple["answer"], simple["answer"]
    _, short = in_thread(run_graph, "plain-short", "what drugs treat gout?", "tl;dr")
    assert short["answer"].endswith(f'" {lead}'), short["answer"]
    _, target = in_thread(run_graph, "plain-target", "what does lisinopril target?", "in plain english please")
    assert target["answer"].endswith("Its best evidence in plain words: lisinopril holds back Angiotensin-converting "
                                     "enzyme (a protein), directly."), target["answer"]


@pytest.mark.parametrize("ask", ["what are the steps?", "walk me through it step by step", "list the steps",
                                 "how many steps are there?"])
def test_the_steps_of_the_last_path_in_order(run_graph, ask: str) -> None:
    """"what are the steps?" after an answer was NOT_FOUND ("no known entity in the question")."""
    first, steps = in_thread(run_graph, "steps", "how does colchicine treat gout?", ask)
    told = " ".join(f"{i}. {t['head_name']} {t['relation']} {t['tail_name']}." for i, t in enumerate(first["evidence"], 1))
    assert steps["understood_as"] == "How does colchicine treat gout?", steps["answer"]
    n = len(first["evidence"])
    assert steps["answer"].split('" ', 1)[1].startswith(f"The path has {_WORDS[n]} step{'s' if n > 1 else ''}: {told}"), \
        steps["answer"]
    _, best = in_thread(run_graph, "steps2", "what drugs treat gout?", ask)
    assert re.match(r"The best evidence has \w+ steps?: 1\. ", best["answer"].split('" ', 1)[1]), best["answer"]
