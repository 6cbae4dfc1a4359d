""""gout", typed alone, is read as "What is gout?" is: the drugs with a mechanism for it. It was NOT_FOUND ("no
candidate path was found within the walk budget"): the walk went forward from the disease."""

from __future__ import annotations

from agents.described import about
from agents.state import Status


def test_a_bare_name_is_a_request_for_a_description() -> None:
    assert [about(q) for q in ("gout", "Gout?", "chronic myeloid leukemia", "What is gout?", "define gout",
                               "definition of CML")] == ["gout", "Gout", "chronic myeloid leukemia", "gout", "gout", "CML"]
    # a question, a list of names, or a long text is not a bare name
    assert [about(q) for q in ("how does imatinib work?", "and gout?", "does it work?",
                               "gout pain in the big toe at night")] == [""] * 4


def test_a_disease_typed_alone_lists_what_treats_it(run_graph) -> None:
    for q in ("gout", "Gout?"):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["understood_as"] == "What drugs treat Gout?", q
        assert out["ranked_answers"] and out["answer"].startswith('Understood as: "What drugs treat Gout?" The knowledge graph')
    drug, _ = run_graph({"question": "imatinib"}, interactive=False, memory=False)  # a drug: what it is connected to
    assert drug["status"] is Status.ANSWERED and drug["understood_as"] == "" and drug["intent"] == "entity"


def test_a_description_of_a_name_several_entities_hold_asks_which(run_graph, resources) -> None:
    """"What is reverse transcriptase?" holds no whole name, and was NOT_FOUND ("no known entity in the question"). The
    words are linked as written: several entities hold them, so an interactive run asks which, and a run that cannot
    ask answers for the first. Words that link nothing stay NOT_FOUND."""
    from langgraph.types import Command

    def holds(c: dict) -> bool:
        return any("reverse transcriptase" in n.casefold() for n in (c["name"], *resources.linker.aliases.get(c["id"], ())))

    _out, snap = run_graph({"question": "what is reverse transcriptase?"}, thread="rt", interactive=True, memory=False)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and pending[0]["mention"] == "reverse transcriptase", pending
    assert len(pending[0]["candidates"]) > 1 and all(holds(c) for c in pending[0]["candidates"])
    out, _ = run_graph(Command(resume="2"), thread="rt", interactive=True, memory=False)
    assert out["status"] is Status.ANSWERED and out["sources"] == [pending[0]["candidates"][1]["id"]], out["answer"]
    none, _ = run_graph({"question": "what is blorptazine?"}, interactive=False, memory=False)
    assert none["status"] is Status.NOT_FOUND
