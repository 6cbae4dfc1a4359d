""""What are beta blockers used for?" walked from the class's drugs at once and listed labetalol's diseases alone (its
short paths filled the pool): Open-angle glaucoma, Ocular hypertension, Increased cardiac output, then Obesity and
Pheochromocytoma. A class's diseases are now those the most of its drugs' own "What does X treat?" lists hold, each
with its count (stop 97)."""

from __future__ import annotations

from agents.state import Status


def _ask(run_graph, question: str) -> dict:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    return out


def test_a_class_s_diseases_are_counted_over_its_drugs_own_lists(run_graph, resources) -> None:
    out = _ask(run_graph, "what do statins treat?")
    assert out["status"] is Status.ANSWERED and out["drug_class"] == "statins", out["answer"]
    counts = [int(a["path"]["features"]["class_drugs"]) for a in out["ranked_answers"]]
    assert counts == sorted(counts, reverse=True) and all(0 < c <= len(out["sources"]) for c in counts), counts
    name = resources.kg.name
    own = [{a["name"].casefold() for a in _ask(run_graph, f"What does {name(d)} treat?")["ranked_answers"]}
           for d in out["sources"]]
    for a, count in zip(out["ranked_answers"], counts, strict=True):
        assert count == sum(a["name"].casefold() in names for names in own), (a["name"], count)
    first = out["ranked_answers"][0]["name"]
    assert out["answer"].startswith(f"Statins in the knowledge graph have verified mechanisms for: {first} ({counts[0]} of "
                                    f"{len(out['sources'])})"), out["answer"]


def test_a_class_counted_over_its_most_connected_drugs_says_so(run_graph) -> None:
    out = _ask(run_graph, "What are beta blockers used for?")
    assert out["status"] is Status.ANSWERED and len(out["among"]) > len(out["sources"]), out["answer"]
    assert f"(counted over the {len(out['sources'])} most connected, of {len(out['among'])})" in out["answer"], out["answer"]
    names = [a["name"] for a in out["ranked_answers"]]
    assert "Hypertensive disorder" in names[:5], names  # it was labetalol's Obesity and Pheochromocytoma
