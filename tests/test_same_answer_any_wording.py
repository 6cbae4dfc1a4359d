"""A question about one drug or one disease gets the same ranked answer however it is worded.

The walk, the ranker and the triple scorer are steered by the question's embedding. "What does amlodipine treat?"
and "what is amlodipine prescribed for?" listed different diseases, and "what medications are used for duodenal
ulcer disease?" other drugs than "What drug treats Duodenal ulcer disease?" (over 40 seeded check-half drugs and
40 diseases, three wordings each: 106 and 104 of 120 lists matched the plain wording's top five; now 120 of 120).
They are steered by the plain wording now (``agents.answer_paths.steering_text``), as mechanism questions were.
"""

from __future__ import annotations

import pytest

from agents.answer_paths import steering_text
from agents.state import Intent, State


def _top(run_graph, question: str) -> list[str]:
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False)
    return [a["id"] for a in out["ranked_answers"]][:5]


@pytest.mark.parametrize(("plain", "reworded"), [
    ("What does Amlodipine treat?", "what is amlodipine prescribed for?"),
    ("What does Amlodipine treat?", "uses of amlodipine"),
    ("What drug treats Duodenal ulcer disease?", "what medications are used for duodenal ulcer disease?"),
    ("What drug treats Duodenal ulcer disease?", "what can I take for duodenal ulcer disease?"),
])
def test_a_reworded_question_lists_what_the_plain_one_lists(run_graph, plain: str, reworded: str) -> None:
    listed = _top(run_graph, plain)
    assert listed and _top(run_graph, reworded) == listed


def test_a_question_that_says_more_is_steered_by_its_own_words(resources) -> None:
    """A class, a way of acting or a disease left out changes what is asked: those keep their words."""
    kg, gout = resources.kg, "MESH:D006073"
    plain = State(question="what can I take for gout?", intent=Intent.TREATS.value, targets=[gout])
    assert steering_text(plain, kg) == f"What drug treats {kg.name(gout)}?"
    for more in ({"drug_class": "NSAIDs"}, {"via": ["UniProt:P47989"]}, {"excluded": ["MESH:D000493"]}):
        state = State(question="which drugs for gout inhibit xanthine oxidase?", intent=Intent.TREATS.value,
                      targets=[gout], **more)
        assert steering_text(state, kg) == state.asked
