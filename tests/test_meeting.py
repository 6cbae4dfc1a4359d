""""Can I take aspirin with warfarin?" said only that they act on no target in common: both chains reach blood
coagulation within two steps, and the answer now says where their mechanisms meet and how each acts on it
(``tools.meeting``, ``agents.safe_with._where_they_meet``)."""

from __future__ import annotations

import pytest

from agents.state import Status
from memory.protocols import Edge, Entity
from memory.public_kg import PublicKG
from tests.conftest import in_thread
from tools.meeting import meeting_of


def _kg(hub_edges: int = 0) -> PublicKG:
    """a blocks T, which takes part in P; b blocks U, which raises P; c blocks T too (a target shared with a, past
    which they meet); H is a hub both reach in two steps; d reaches P only in three."""
    types = {"a": "Drug", "b": "Drug", "c": "Drug", "d": "Drug", "T": "Protein", "U": "Protein", "V": "Protein",
             "W": "Protein", "P": "BiologicalProcess", "H": "BiologicalProcess"}
    types.update({f"x{i}": "Protein" for i in range(hub_edges)})
    edges = [Edge("a", "decreases activity of", "T"), Edge("T", "participates in", "P"), Edge("b", "decreases activity of", "U"),
             Edge("U", "positively regulates", "P"), Edge("c", "decreases activity of", "T"), Edge("T", "positively regulates", "H"),
             Edge("U", "positively regulates", "H"), Edge("d", "increases activity of", "V"), Edge("V", "positively regulates", "W"),
             Edge("W", "positively regulates", "P")]
    edges += [Edge(f"x{i}", "positively regulates", "H") for i in range(hub_edges)]
    return PublicKG({x: Entity(x, x, t) for x, t in types.items()}, {}, edges)


def test_two_drugs_meet_at_the_least_connected_node_both_reach() -> None:
    met = meeting_of(_kg(), ["a", "b"])
    assert met is not None and met.node == "H", met  # H (2 edges) before P (3 edges), both two steps from each
    assert [e.tail for e in met.first] == ["T", "H"] and [e.tail for e in met.second] == ["U", "H"]
    assert met.signs() == (-1, -1)


def test_a_hub_is_no_meeting_and_neither_is_a_shared_target_or_a_far_node() -> None:
    met = meeting_of(_kg(hub_edges=200), ["a", "b"])
    assert met is not None and met.node == "P" and met.signs() == (-1, -1), met  # H has over 150 edges
    assert meeting_of(_kg(), ["a", "c"]) is None  # they share T, which the answer names already
    assert meeting_of(_kg(), ["a", "d"]) is None  # P is three steps from d


@pytest.mark.parametrize("question", ["Can I take aspirin with warfarin?", "can I take clopidogrel with aspirin?"])
def test_two_drugs_taken_together_are_told_where_their_mechanisms_meet(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "not drug interactions" in out["answer"], out["answer"]
    assert "Their mechanisms meet at blood coagulation: " in out["answer"], out["answer"]
    assert out["answer"].endswith("Along these chains both lower blood coagulation."), out["answer"]


def test_drugs_that_share_a_target_or_meet_nowhere_near_are_told_as_before(run_graph) -> None:
    for question in ("is it safe to take sertraline with tramadol?", "can I take ibuprofen with lisinopril?"):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and "meet at" not in out["answer"], out["answer"]


@pytest.mark.parametrize(("message", "understood"), [
    ("my mom is on warfarin - is it safe for her to take aspirin?", "Can she take aspirin with warfarin?"),
    ("my dad takes lisinopril. can he take ibuprofen for back pain?", "Can he take ibuprofen with lisinopril?"),
    ("I'm taking lisinopril. Can I take ibuprofen for back pain?", "Can I take ibuprofen with lisinopril?"),
])
def test_who_takes_the_drugs_is_kept(run_graph, message: str, understood: str) -> None:
    """It was "Can I take aspirin with warfarin?" for her mother's drugs."""
    [out] = in_thread(run_graph, f"person-{message}", message)
    assert out["understood_as"] == understood, out["answer"]
    if "warfarin" in message:
        assert "Their mechanisms meet at blood coagulation" in out["answer"], out["answer"]
