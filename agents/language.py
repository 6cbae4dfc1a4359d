"""Questions written in another language than English.

medpath's rules, names and lay terms are English. "¿cómo trata el imatinib la leucemia mieloide crónica?" was answered
with what imatinib is connected to, the disease dropped without a word; "comment fonctionne l'aspirine?" was NOT_FOUND,
the whole sentence looked up as a name. Such a question is now told that medpath reads English, with a question to
ask about the drug it names, when it names one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

__all__ = ["foreign", "in_english"]

_WORDS = {
    "Spanish": "cómo como qué cuál cuáles el los las del para por trata tratan tratar funciona sirve medicamento "
               "medicamentos enfermedad puedo tomar una es son y con sin la",
    "French": "comment quel quelle quels quelles le les des du pour traite traitent traiter fonctionne médicament "
              "médicaments maladie avec sans peut je est sont une et la",
    "German": "wie was welche welcher welches der das den dem für behandelt behandeln wirkt medikament medikamente "
              "krankheit mit ohne gegen bei ist sind ein eine und",
    "Portuguese": "como qual quais trata tratam funciona doença medicamento medicamentos para com sem é são uma os",
    "Italian": "come cosa quale quali il lo gli della per tratta trattano funziona malattia farmaco farmaci con senza è "
               "sono una",
}
"""Words of each language that English questions do not use (articles, question words, common verbs)."""
_WORD_SETS = {lang: frozenset(words.split()) for lang, words in _WORDS.items()}
_ENGLISH = frozenset(["how", "what", "which", "why", "who", "does", "do", "did", "is", "are", "can", "could", "the", "of", "for", "with", "treat", "treats", "work", "works", "drug", "drugs", "and", "or", "to", "in", "on"])
"""Words of English questions: one of them and the question is read as English, as before."""
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_ELIDED = re.compile(r"^(?:l|d|qu|j|n|s|c)['’]", re.IGNORECASE)
"""The elided article or pronoun before a French word ("l'aspirine")."""


def _latin(text: str) -> bool:
    """Whether most letters are Latin ones (not Chinese, Cyrillic, Arabic, …)."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum("LATIN" in unicodedata.name(ch, "") for ch in letters) * 2 >= len(letters)


def foreign(question: str) -> str:
    """The language ``question`` reads as when it is not English ("Spanish", "French", …, or "a language other than
    English" for another script), or "" for English: no English word among two or more of another language's."""
    if not _latin(question):
        return "a language other than English"
    tokens = [_ELIDED.sub("", t).casefold() for t in _TOKEN.findall(question)]
    if any(t in _ENGLISH for t in tokens) or len(tokens) < 2:
        return ""
    scores = {lang: len(words.intersection(tokens)) for lang, words in _WORD_SETS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    return best if scores[best] >= 2 or tokens[0] in ("cómo", "qué", "cuál", "comment", "wie", "welche") else ""


def in_english(question: str, language: str, linker: Any, drug_types: frozenset[str] | set[str]) -> str:
    """Why the question is not answered: it reads as ``language``, with a question to ask in English about the first
    drug it names ("How does imatinib work?"), when the linker finds one."""
    drug = next((cands[0].name for _, cands in linker.scan(question) if cands and cands[0].type in drug_types), "")
    ask = f"How does {drug} work?" if drug else "How does imatinib treat chronic myeloid leukemia?"
    return (f"the question reads as {language}, and medpath reads questions in English (its names, rules and everyday "
            f"terms are English); ask it in English, for example \"{ask}\"")
