"""Whether a target is of a kind: "is ACE an enzyme?", "is that a kinase?" after a drug's targets."""

from __future__ import annotations

from agents.state import Intent, Status
from tests.conftest import in_thread


def test_a_target_s_kind_is_read_from_its_name(run_graph) -> None:
    """"Is ACE an enzyme?" told what ACE is connected to; "Is xanthine oxidase an enzyme?" was NOT_FOUND."""
    ace, xo, sert = in_thread(run_graph, "kinds", "Is ACE an enzyme?", "Is xanthine oxidase an enzyme?",
                              "Is the serotonin transporter a receptor?")
    assert ace["intent"] == Intent.CLASS_MEMBER.value and ace["status"] is Status.ANSWERED, ace["answer"]
    assert ace["answer"].startswith("Yes: by its name, Angiotensin-converting enzyme is an enzyme."), ace["answer"]
    assert xo["answer"].startswith("Yes: by its name, Xanthine dehydrogenase/oxidase is an enzyme."), xo["answer"]
    assert sert["answer"].startswith("No: its name does not say that Sodium-dependent serotonin transporter is a receptor; "
                                     "by its name it is a transporter."), sert["answer"]


def test_that_after_a_drug_s_targets_is_its_target(run_graph) -> None:
    """"Is that a kinase?" after "What does imatinib target?" was NOT_FOUND ("no known entity in the question")."""
    _, out = in_thread(run_graph, "that-kinase", "What does imatinib target?", "Is that a kinase?")
    assert out["understood_as"] == "Is Tyrosine-protein kinase ABL1 a kinase?", out["understood_as"]
    assert out["answer"].endswith('Yes: by its name, Tyrosine-protein kinase ABL1 is a kinase. For the drugs that act on '
                                  'it, ask "Which drugs act on Tyrosine-protein kinase ABL1?".'), out["answer"]
    _, drug = in_thread(run_graph, "it-protein", "How does imatinib treat CML?", "Is it a steroid?")
    assert "steroid" in drug["answer"] and "imatinib" in drug["answer"], drug["answer"]  # "it" after a mechanism: the drug


def test_a_kind_named_by_what_it_carries(run_graph) -> None:
    """"is that a calcium channel?" after amlodipine's targets was read as a question about Calcium ("Calcium is
    connected to: Hypoparathyroidism, …"); it asks it of the target, whose name must say both words."""
    listed, out = in_thread(run_graph, "calcium-channel", "What does amlodipine target?", "is that a calcium channel?")
    target = listed["answer"].split("acts on: ")[1].split(", ")[0]
    assert out["understood_as"] == f"Is {target} a calcium channel?", out["answer"]
    assert f"Yes: by its name, {target} is a calcium channel." in out["answer"], out["answer"]


def test_a_kind_of_the_wrong_substance_is_no(run_graph) -> None:
    out, _ = run_graph({"question": "is the serotonin transporter a dopamine transporter?"}, interactive=False, memory=False)
    assert out["answer"].startswith("No: its name does not say that Sodium-dependent serotonin transporter is a dopamine "
                                    "transporter; by its name it is a transporter."), out["answer"]
