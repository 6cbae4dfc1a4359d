""""Why is she on the first one?" after a patient's medications asks how that medication treats what it is listed
for, as "how does the first one work?" does; "why does she take it?" takes "it" for the drug."""

from __future__ import annotations

from typing import Any

from agents.followup import resolve_followup


def _turn(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False)
    return dict(snap.values)


def test_why_a_patient_takes_a_listed_medication(run_graph) -> None:
    """"why is she on the first one?" was NOT_FOUND: "she" is not in the knowledge graph."""
    for i, (first_q, why) in enumerate((("What is PAT_001 taking?", "why is she on the first one?"),
                                        ("What is PAT_001 taking?", "why is PAT_001 on the first one?"),
                                        ("What medications is PAT_003 on?", "what is she taking the second one for?"))):
        first = _turn(run_graph, f"why{i}", first_q)
        items = first["messages"][-1]["items"]
        item = items[1] if "second" in why else items[0]
        assert item["for"], items
        out = _turn(run_graph, f"why{i}", why)
        assert out["understood_as"] == f"How does {item['name']} treat {item['for']['name']}?", why
        assert str(out["status"]) == "ANSWERED" and out["sources"] == [item["id"]]
        if i == 2:  # "it" after a mechanism is the drug a patient takes, not the disease
            again = _turn(run_graph, f"why{i}", "why does she take it?")
            assert again["understood_as"] == out["understood_as"]


def test_taking_it_is_the_drug(resources) -> None:
    drug = {"id": "MESH:D000068877", "name": "imatinib", "type": "Drug"}
    cml = {"id": "MESH:D015464", "name": "Chronic myeloid leukemia", "type": "Disease"}
    messages = [{"role": "user", "content": "How does imatinib treat CML?"},
                {"role": "assistant", "intent": "mechanism", "drug": drug, "disease": cml, "items": []}]
    for question in ("why does he take it?", "why is she taking it?"):
        res = resolve_followup(question, messages, resources.linker)
        assert res.understood == "How does imatinib treat Chronic myeloid leukemia?", question
