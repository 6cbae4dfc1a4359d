""""What did I ask before?" was NOT_FOUND ("no known entity in the question"): a thread can now be asked about itself,
from its own messages, and the follow-up after such a question resolves as if it had not been asked."""

from __future__ import annotations

from typing import Any

import pytest

from agents.history import HISTORY_SHOWN, asks_history, history_answer


def _ask(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    return out


@pytest.mark.parametrize("question", ["what did I ask before?", "What have we talked about so far?", "recap",
                                      "summarize our conversation", "what was my first question?", "show my questions",
                                      "can you summarize our conversation?", "give me a summary of our conversation",
                                      "what did I ask first?"])  # since stop 101 (it was NOT_FOUND)
def test_wordings_that_ask_about_the_thread(question: str) -> None:
    assert asks_history(question)


def test_questions_that_only_look_like_it_are_not() -> None:
    for q in ("what did imatinib treat?", "what was the first drug?", "How does imatinib treat CML?", "what did I take?"):
        assert not asks_history(q), q


def test_a_thread_recaps_its_questions_as_asked_and_understood(run_graph) -> None:
    assert _ask(run_graph, "h", "what did I ask before?")["answer"] == "This conversation has no earlier questions."
    _ask(run_graph, "h", "How does imatinib treat CML?")
    _ask(run_graph, "h", "what does it target?")
    _ask(run_graph, "h", "How does zorblaxin treat fever?")
    out = _ask(run_graph, "h", "what did I ask before?")
    assert out["intent"] == "history" and out["candidates"] == [] and out["status"] == "ANSWERED"
    assert out["answer"] == ('In this conversation you asked 3 questions: 1. "How does imatinib treat CML?" (answered); '
                             '2. "what does it target?", understood as "What does imatinib target?" (answered); '
                             '3. "How does zorblaxin treat fever?" (nothing verified found).')
    assert _ask(run_graph, "h", "what was my first question?")["answer"] == (
        'Your first question was "How does imatinib treat CML?" (answered).')
    assert _ask(run_graph, "h", "what was my last question?")["answer"].startswith(  # not a question about the thread
        'Your last question was "How does zorblaxin treat fever?"')
    after = _ask(run_graph, "h", "how does it treat GIST?")  # "it" is still imatinib
    assert after["understood_as"] == "How does imatinib treat GIST?", after["answer"]


def test_a_long_thread_shows_its_latest_questions() -> None:
    messages = []
    for k in range(HISTORY_SHOWN + 3):
        messages += [{"role": "user", "content": f"q{k}"}, {"role": "assistant", "status": "ANSWERED", "question": f"q{k}"}]
    answer = history_answer("recap", messages)["answer"]
    assert answer.startswith(f"In this conversation you asked {HISTORY_SHOWN + 3} questions (3 earlier ones not shown): 4. \"q3\"")
    assert answer.endswith(f'{HISTORY_SHOWN + 3}. "q{HISTORY_SHOWN + 2}" (answered).')


def test_what_was_said_about_a_name_gives_those_answers(run_graph) -> None:
    """"What did you tell me about imatinib?" was answered with what imatinib is connected to, as a new question."""
    first = _ask(run_graph, "told", "How does imatinib treat CML?")
    _ask(run_graph, "told", "What drugs treat gout?")
    third = _ask(run_graph, "told", "what does it target?")  # understood as "What does imatinib target?"
    out = _ask(run_graph, "told", "what did you tell me about imatinib?")
    assert out["intent"] == "history" and out["candidates"] == []
    assert out["answer"] == (f'About imatinib, I answered 1. to "How does imatinib treat CML?": {first["answer"]}; '
                             f'2. to "what does it target?": {third["answer"]}')
    assert _ask(run_graph, "told", "What did you say about asthma earlier?")["answer"] == (
        "This conversation has no earlier answer about asthma.")
    assert asks_history("what did you tell me?") and not asks_history("what did you find about aspirin and gout?")


def test_what_was_said_about_it_is_about_the_thread_s_drug(run_graph) -> None:
    first = _ask(run_graph, "told-it", "How does imatinib treat CML?")
    out = _ask(run_graph, "told-it", "what did you tell me about it?")
    assert out["answer"] == f'About imatinib, I answered 1. to "How does imatinib treat CML?": {first["answer"]}'


@pytest.mark.parametrize(("question", "which"), [("what was your first answer?", 0), ("repeat your last answer", 1),
                                                 ("can you repeat the previous response?", 1)])
def test_an_earlier_answer_is_given_again(run_graph, question: str, which: int) -> None:
    """"What was your first answer?" was read as the first item of the latest list ("What was your Tyrosine-protein
    kinase ABL1?")."""
    thread = f"answer-again-{question}"
    earlier = [_ask(run_graph, thread, q) for q in ("How does imatinib treat CML?", "What does aspirin target?")]
    out = _ask(run_graph, thread, question)
    asked = ("How does imatinib treat CML?", "What does aspirin target?")[which]
    assert out["answer"].endswith(f"answer, to \"{asked}\": {earlier[which]['answer']}"), out["answer"]
    assert asks_history(question)


@pytest.mark.parametrize("again", ["what was the answer?", "what was your answer?", "what did you say?", "say that again",
                                   "can you repeat that?"])
def test_the_last_answer_asked_again(run_graph, again: str) -> None:
    """"What was the answer?" was NOT_FOUND ("no known entity in the question"), and "what did you say?" listed the
    questions asked. Both give the last answer again, as "repeat your last answer" does; "what did you tell me?" is
    still the recap."""
    _ask(run_graph, f"again-{again}", "How does imatinib treat CML?")
    out = _ask(run_graph, f"again-{again}", again)
    assert out["answer"].startswith('My last answer, to "How does imatinib treat CML?": imatinib acts on'), out["answer"]
    assert asks_history("what did you tell me?")


def test_going_back_to_an_earlier_question_asks_it_again(run_graph) -> None:
    """"Go back to the first question" was `NOT_FOUND`, "no known entity in the question" (since stop 101)."""
    assert _ask(run_graph, "back-none", "go back to the first question")["answer"] == (
        "No verified evidence: this conversation has no earlier question to go back to.")
    _ask(run_graph, "back", "How does imatinib treat CML?")
    _ask(run_graph, "back", "what does dasatinib target?")
    out = _ask(run_graph, "back", "let's go back to the first question")
    assert out["understood_as"] == "How does imatinib treat CML?" and out["status"] == "ANSWERED", out["answer"]
    assert out["answer"].startswith('Understood as: "How does imatinib treat CML?" imatinib acts on Chronic myeloid'), \
        out["answer"]
