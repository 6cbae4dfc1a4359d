"""The closest study in the bundled PubMedQA abstracts, for a question the knowledge graph does not answer.

"Can tailored interventions increase mammography use among HMO women?" names nothing in DrugMechDB, yet one of the
500 bundled abstracts is that study. Each abstract (its title and sections, without the conclusion, which PubMedQA
keeps apart as an answer) is indexed with BM25. A study is *close* only when it holds every rare word of the question
(a word in fewer than :data:`RARE_SHARE` of the abstracts, or in none), at least :data:`MIN_RARE` of them, and one of
them in its title: with 500 abstracts on scattered topics, a study that shares the common words but lacks a rare one
is about something else, and so is one that names the question's words only in passing. The match is read, never
judged: medpath quotes the study's results and leaves the conclusion to the reader.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from core.datasets import Passage, load_passages, sentences
from memory.factory import keyword_index

__all__ = ["MIN_RARE", "RARE_SHARE", "Finding", "Literature", "Study", "study_url"]

RARE_SHARE = 0.05
"""A question word in fewer than this share of the abstracts is rare: the study must hold it."""
MIN_RARE = 2
"""The fewest rare question words a close study holds (one shared word is a topic, not a study of the question)."""
QUOTE_SENTENCES = 2
"""Sentences quoted from the study's results, at most."""
QUOTE_WORDS = 60
"""The quote's length in words: a second sentence only when both fit; a first sentence longer is cut with "…"."""
_SEARCH_K = 20
_WORD = re.compile(r"[a-z0-9]+")
_GREEK = str.maketrans({"α": " alpha ", "β": " beta ", "γ": " gamma ", "δ": " delta ", "κ": " kappa ", "-": " "})
_STOP = frozenset(_WORD.findall(
    "a about after all also an and any are as at be been before between but by can could did do does during each "
    "for from had has have how i in into is it its me more most my no not of on or our should so than that the their "
    "then there these this those to was we were what when whether which who why will with would yes you your "
    # words that ask for the literature rather than name its topic
    "article articles evidence know known literature paper papers research say says show shows studies study tell "
    "trial trials"))


def _words(text: str) -> set[str]:
    """Content words of a text, cut to six letters ("mammography" and "mammograms" meet at "mammog"), and each one
    with the letter or number of at most two characters after it ("vitamin D" → "vitami_d", "type 2" → "type_2":
    a study of vitamin C is no study of vitamin D)."""
    toks = _WORD.findall(text.casefold().translate(_GREEK))
    out = {w[:6] for w in toks if len(w) >= 3 and w not in _STOP}
    return out | {f"{a[:6]}_{b}" for a, b in pairwise(toks)
                  if len(a) >= 3 and a not in _STOP and len(b) <= 2 and b not in _STOP}


def study_url(pmid: str) -> str:
    """The study's PubMed page."""
    return f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/"


@dataclass(frozen=True)
class Study:
    """One abstract: its PMID, title (PubMedQA's question), year, and labelled sections in order."""

    pmid: str
    title: str
    year: str
    sections: tuple[tuple[str, str], ...]

    def text(self) -> str:
        """The title and every section, as indexed."""
        return " ".join([self.title, *(t for _, t in self.sections)])

    def results(self) -> str:
        """The section that reports results (its label names them), else the last one."""
        found = [t for label, t in self.sections if "RESULT" in label.upper() or "FINDING" in label.upper()]
        return found[-1] if found else (self.sections[-1][1] if self.sections else "")


@dataclass(frozen=True)
class Finding:
    """A close study, the question's rare words it holds, and the sentences of its results that the answer quotes."""

    study: Study
    matched: tuple[str, ...]
    quote: tuple[str, ...]


class Literature:
    """BM25 over whole abstracts, and the rule that says which hit is close enough to point to."""

    def __init__(self, studies: Sequence[Study]) -> None:
        """Index the studies (about 70 ms for the 500 bundled ones)."""
        self.studies = {s.pmid: s for s in studies}
        texts = [s.text() for s in studies]
        self._words = {s.pmid: _words(t) for s, t in zip(studies, texts, strict=True)}
        self._titles = {s.pmid: _words(s.title) for s in studies}
        self._df = Counter(w for ws in self._words.values() for w in ws)
        self._index = keyword_index(list(self.studies), texts) if studies else None

    @classmethod
    def load(cls, path: Path) -> Literature:
        """The studies of a PubMedQA file (``pqal_*.json``); DataError when it cannot be read."""
        by_pmid: dict[str, list[Passage]] = {}
        for p in load_passages(path):
            by_pmid.setdefault(p.pmid, []).append(p)
        return cls([Study(pmid, ps[0].title, ps[0].year, tuple((p.label, p.text) for p in ps)) for pmid, ps in by_pmid.items()])

    def __len__(self) -> int:
        """How many studies are indexed."""
        return len(self.studies)

    def rare(self, question: str) -> set[str]:
        """The question's rare words (see :data:`RARE_SHARE`)."""
        n = max(len(self.studies), 1)
        return {w for w in _words(question) if self._df.get(w, 0) / n < RARE_SHARE}

    def closest(self, question: str) -> Finding | None:
        """The best BM25 hit that holds every rare word of the question, at least :data:`MIN_RARE`, and one of them in
        its title; else None."""
        rare = self.rare(question)
        if len(rare) < MIN_RARE or self._index is None:
            return None
        for pmid, _ in self._index.search(question, _SEARCH_K):
            if rare <= self._words[pmid] and rare & self._titles[pmid]:
                study = self.studies[pmid]
                return Finding(study, tuple(sorted(rare)), _quote(study.results(), _words(question)))
        return None


def _quote(results: str, asked: set[str]) -> tuple[str, ...]:
    """Up to :data:`QUOTE_SENTENCES` sentences of the results, those sharing the most words with the question
    (earlier first on a tie), in the study's order."""
    sents = sentences(results)
    order = sorted(range(len(sents)), key=lambda i: (-len(_words(sents[i]) & asked), i))
    if not order:
        return ()
    first = sents[order[0]].split()
    if len(first) > QUOTE_WORDS:
        return (" ".join(first[:QUOTE_WORDS]) + " …",)
    kept = [order[0]]
    for i in order[1:QUOTE_SENTENCES]:
        if sum(len(sents[j].split()) for j in (*kept, i)) <= QUOTE_WORDS:
            kept.append(i)
    return tuple(sents[i] for i in sorted(kept))
