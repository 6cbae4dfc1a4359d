""""hi", "thanks", "what can you do?": answered with what medpath answers (they were NOT_FOUND, "no known entity")."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from agents.small_talk import EXAMPLES, small_talk, without_small_talk
from agents.state import Status
from medpath.cli import cli


@pytest.mark.parametrize("question, kind", [
    ("hi", "greeting"), ("Hello there!", "greeting"), ("good morning", "greeting"),
    ("thanks!", "thanks"), ("ok, thank you so much.", "thanks"), ("cheers", "thanks"),
    ("what can you do?", "help"), ("Help", "help"), ("what kinds of questions can I ask?", "help"),
    ("thanks, that's all", "goodbye"), ("bye", "goodbye"), ("ok thanks bye", "goodbye"),  # were NOT_FOUND
    ("Hi! What can you do?", "help"), ("hello, thanks", "thanks"),  # a greeting before small talk was NOT_FOUND
    ("hi, how does imatinib treat CML?", ""), ("how does imatinib work?", ""), ("ok", ""), ("HIV", ""),
])
def test_small_talk_is_only_the_whole_question(question: str, kind: str) -> None:
    assert small_talk(question) == kind


@pytest.mark.parametrize("question, rest", [
    ("Hello there. What drugs treat gout?", "What drugs treat gout?"),
    ("thanks! and what about dasatinib?", "what about dasatinib?"),
    ("hey what causes gout", "what causes gout"),
    ("thanks", "thanks"), ("HIV drugs", "HIV drugs"),
    # who the asker is: "I'm a nurse. How does heparin work?" told what heparin is connected to
    ("Hi, I'm a nurse. How does heparin work?", "How does heparin work?"),
    ("I am a medical student. What does imatinib target?", "What does imatinib target?"),
    ("I'm a patient with gout. What can I take?", "I'm a patient with gout. What can I take?"),  # a preamble's
])
def test_a_greeting_or_thanks_before_a_question_is_left_out(question: str, rest: str) -> None:
    assert without_small_talk(question) == rest


def test_small_talk_in_a_thread_keeps_its_focus_and_stays_out_of_the_recap(run_graph) -> None:
    out, _ = run_graph({"question": "hi"}, thread="chat", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("Hello. I answer questions about how drugs act")
    assert out["evidence"] == [] and all(q in out["answer"] for q in EXAMPLES)
    run_graph({"question": "How does imatinib treat CML?"}, thread="chat", interactive=False, memory=False)
    out, _ = run_graph({"question": "thanks!"}, thread="chat", interactive=False, memory=False)
    assert out["answer"].startswith("You're welcome. Ask a follow-up")
    out, _ = run_graph({"question": "thanks, that's all"}, thread="chat", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("You're welcome. Goodbye"), out["answer"]
    out, _ = run_graph({"question": "ok thanks, and what about dasatinib?"}, thread="chat", interactive=False, memory=False)
    assert out["understood_as"] == "How does Dasatinib treat Chronic myeloid leukemia?", out["understood_as"]
    out, _ = run_graph({"question": "what did I ask before?"}, thread="chat", interactive=False, memory=False)
    assert "asked 2 questions" in out["answer"] and '"hi"' not in out["answer"] and "thanks!" not in out["answer"]
    assert "that's all" not in out["answer"]
    out, _ = run_graph({"question": "Hello there. What drugs treat gout?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats"


def test_the_help_answer_s_examples_are_answered(run_graph) -> None:
    for question in EXAMPLES:
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED, (question, out["answer"])


def test_the_cli_answers_small_talk(settings, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MEDPATH_HOME", str(tmp_path))  # checkpoints go to a temporary home, beside the index
    (tmp_path / "index").symlink_to(settings.index_dir)
    res = CliRunner().invoke(cli, ["ask", "what can you do?"])
    assert res.exit_code == 0 and "status: ANSWERED" in res.output and "Try:" in res.output, res.output


@pytest.mark.parametrize("question", ["what else should I know?", "what else can you tell me?",
                                      "anything else I should know about it?"])
def test_what_else_to_know_offers_the_thread_s_questions(run_graph, question: str) -> None:
    """"what else should I know?" after warfarin's targets was `NOT_FOUND` ("no known entity in the question", after
    "Leaving out those already named"); it offers what the graph can add about warfarin, not the question just asked,
    and the thread keeps its drug."""
    thread = f"more-{question}"
    run_graph({"question": "What does warfarin target?"}, thread=thread, interactive=False, memory=False)
    out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    assert small_talk(question) == "more" and out["status"] is Status.ANSWERED, out["answer"]
    assert '"What does warfarin treat?"' in out["answer"] and '"What does warfarin target?"' not in out["answer"], out["answer"]
    after, _ = run_graph({"question": "what does it treat?"}, thread=thread, interactive=False, memory=False)
    assert after["understood_as"] == "What does warfarin treat?", after["answer"]


def test_what_else_to_know_with_nothing_asked_is_the_help_answer(run_graph) -> None:
    out, _ = run_graph({"question": "what else should I know?"}, thread="more-empty", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("I answer questions about how drugs act"), out["answer"]


def test_what_else_to_know_after_a_record_offers_the_record_s_questions(run_graph) -> None:
    """After "What is PAT_003 taking?" it was the help answer: the thread had no drug or disease to offer."""
    run_graph({"question": "What is PAT_003 taking?"}, thread="more-record", interactive=False, memory=False)
    out, _ = run_graph({"question": "what else should I know?"}, thread="more-record", interactive=False, memory=False)
    assert out["answer"].startswith("What the patient records hold about PAT_003 is in answers to: "), out["answer"]
    assert '"What conditions does PAT_003 have?"' in out["answer"] and '"What is PAT_003 taking?"' not in out["answer"]


def test_thanks_after_a_question_is_left_out(run_graph) -> None:
    """"can you explain how warfarin works? thanks" was read as one sentence naming warfarin, and told what warfarin is
    connected to, not what it acts on."""
    out, _ = run_graph({"question": "hi! can you explain how warfarin works? thanks"}, interactive=False, memory=False)
    assert out["intent"] == "targets" and out["answer"].startswith("warfarin acts on: "), out["answer"]
    thanks, _ = run_graph({"question": "thanks"}, interactive=False, memory=False)  # alone: still small talk
    assert thanks["answer"].startswith("You're welcome."), thanks["answer"]
