""""What is an agonist?", "what does 'decreases activity of' mean?": answered from the hand-written glossary. They were
NOT_FOUND ("no known entity in the question", '"a prodrug" is not in the knowledge graph')."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.glossary import GLOSSARY, glossary_question, read_glossary
from agents.state import Intent, Status


def test_the_glossary_s_relations_are_the_graph_s_and_its_words_name_no_entity(resources) -> None:
    glossary = read_glossary()
    terms = {term for term, _ in glossary.values()}
    relations = set(resources.kg.relations)
    written_as_relations = {t for t in terms if t.endswith((" with", " of", " in", " for", " to")) or t in relations}
    assert written_as_relations <= relations, written_as_relations - relations  # a typo would never be asked
    assert {"decreases activity of", "positively correlated with", "causes"} <= terms
    # the README's "23 words and the 29 relations on 30 or more edges each"
    counts: dict[str, int] = {}
    for eid in resources.kg.entities:
        for e in resources.kg.out_edges(eid):
            counts[e.relation] = counts.get(e.relation, 0) + 1
    assert written_as_relations == {r for r, n in counts.items() if n >= 30} and len(written_as_relations) == 29
    assert len(terms - written_as_relations) == 23
    # a word the linker names exactly keeps its entity's reading ("what is gout?")
    assert not [form for form in glossary if resources.linker.exact(form)]


@pytest.mark.parametrize(("question", "read"), [
    ("What is an agonist?", True), ("what are antagonists?", True), ("What does \"decreases activity of\" mean?", True),
    ("define selectivity", True), ("What's the difference between an agonist and an antagonist?", True),
    # the thread's target, an entity, a drug's mechanism, a word the glossary lacks
    ("what is the target?", False), ("what is gout?", False), ("What is the mechanism of action of aspirin?", False),
    ("what is a unicorn?", False), ("what's the difference between an agonist and gout?", False),
])
def test_only_glossary_words_are_read_as_a_request_for_a_meaning(question: str, read: bool) -> None:
    assert (glossary_question(question, None) is not None) is read


def test_a_missing_or_malformed_glossary_adds_nothing(tmp_path: Path) -> None:
    assert read_glossary(tmp_path / "none.tsv") == {}
    bad = tmp_path / "g.tsv"
    bad.write_text("# a comment\nno tabs here\nagonist\t\t\nprodrug\tprodrugs\tacts after a change\n", encoding="utf-8")
    assert read_glossary(bad) == {"prodrug": ("prodrug", "acts after a change"), "prodrugs": ("prodrug", "acts after a change")}
    assert GLOSSARY.is_file()


@pytest.mark.parametrize(("question", "said"), [
    ("What is a prodrug?", "Prodrug: a drug that acts only after the body turns it into another compound"),
    ("What does \"decreases activity of\" mean?", "\"decreases activity of\" (one of the 67 relations of the knowledge graph): "),
    # the word's own meaning says what the graph lacks: no scope note before it
    ("What is pharmacokinetics?", "Pharmacokinetics: what the body does to a drug"),
])
def test_a_meaning_is_answered_from_the_glossary_without_a_walk(run_graph, question: str, said: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == Intent.GLOSSARY.value, out["answer"]
    assert out["answer"].startswith("From medpath's glossary (hand-written, not the knowledge graph): "), out["answer"]
    assert said in out["answer"] and not out["evidence"] and not out["candidates"], out["answer"]
