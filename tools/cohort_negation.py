"""What a count over patients asks to be absent: "How many patients are not on metformin?", "… don't have gout?",
"… don't take any medication?", "… have no conditions recorded?".

Each was counted as if it were present ("Metformin: 0 of 43 patients" for the patients not on it), or broken down by
condition. :func:`negation` reads which of the names a question gives stand after a negating word, and whether it
asks for patients with nothing of a kind recorded; ``tools.aggregate`` counts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Negation", "negation", "positions"]

_NOT = r"(?:(?:do|does|did|are|is|were|was|have|has|had)(?:\s+not|n['’]?t)|not|never)"
_CUE = re.compile(
    rf"\b(?:{_NOT}\s+(?:currently\s+|yet\s+|ever\s+|even\s+|been\s+)?(?P<take>take|taking|taken|on|using|use|used|prescribed|"
    r"receiving|given|treated\s+with)"
    rf"|{_NOT}\s+(?:been\s+|ever\s+)?(?P<have>have|having|had|diagnosed\s+with|suffer\s+from|suffering\s+from)"
    r"|(?P<either>without|(?:take|takes|taking|have|has|having|with|on)\s+no|(?:but|and|yet)\s+not(?!\s+(?:currently|yet|ever|even|been|take|taking|taken|on|using|use|used|"
    r"prescribed|receiving|given|treated|have|having|had|diagnosed|suffer|suffering)\b)))\b",
    re.IGNORECASE)
"""A negating word and the verb it negates: taking, having, or either ("without gout", "without medication", and
"take metformin but not insulin", whose verb is the clause's before it: it counted the patients on insulin)."""
_KINDS = {
    "takes": re.compile(r"(?:any\s+|a\s+single\s+)?(?:medications?|medicines?|drugs?|meds|prescriptions?|pills|treatment|"
                        r"anything)\b", re.IGNORECASE),
    "has_condition": re.compile(r"(?:any\s+|a\s+)?(?:conditions?|diagnos[ie]s|diseases?|illness(?:es)?|health\s+problems?|"
                                r"anything)\b(?:\s+(?:recorded|diagnosed|listed))?", re.IGNORECASE),
}
_REACH = 4
"""Words between a negating word and the name it negates, at most ("doesn't have type 2 diabetes")."""
_BREAK = re.compile(r"[,;]|\b(?:and|but|who|that|which|while|take|takes|taking|took|have|has|had|having|using|uses?|"
                    r"prescribed|receiving|are|is|were|was)\b", re.IGNORECASE)
"""Where a negation ends: "patients not on metformin who have gout" still have gout, and so do "patients without
asthma (who) have gout" ("or" does not end it: "without gout or asthma" have neither)."""


@dataclass
class Negation:
    """What a count question asks to be absent."""

    absent: set[str] = field(default_factory=set)
    """The named ids (conditions, medications, labs) that the counted patients must not have, take or have a result
    of ("… have not had an HbA1c test this year?")."""
    nothing: set[str] = field(default_factory=set)
    """The kinds (``takes``, ``has_condition``) that the counted patients must have none of recorded."""


def negation(text: str, named: Mapping[str, tuple[str, int]]) -> Negation:
    """What ``text`` asks to be absent. ``named``: each id the question names, with its kind (``takes`` or
    ``has_condition`` or ``has_lab``) and where its name starts in ``text`` (-1 when no word of it is there: a brand, a linked
    synonym, which a lone negation of its kind then covers)."""
    out = Negation()
    cues = list(_CUE.finditer(text))
    for cue in cues:
        kinds = ("takes",) if cue["take"] else ("has_condition", "has_lab") if cue["have"] else ("takes", "has_condition", "has_lab")
        rest = text[cue.end():]
        for kind in kinds:
            if kind in _KINDS and _KINDS[kind].match(rest.lstrip()):
                out.nothing.add(kind)
        for oid, (kind, at) in named.items():
            if kind in kinds and at >= cue.end() and _near(text[cue.end():at]):
                out.absent.add(oid)
    for oid, (kind, at) in named.items():  # a name placed by no word of it: negated when its kind's one negation is
        of_kind = [c for c in cues if kind == "takes" and not c["have"] or kind != "takes" and not c["take"]]
        if at < 0 and len(of_kind) == 1 and not any(k == kind and a >= 0 for k, a in named.values()):
            out.absent.add(oid)
    return out


def _near(between: str) -> bool:
    return len(between.split()) <= _REACH and not _BREAK.search(between)


def positions(text: str, names: Iterable[tuple[str, str, set[str]]]) -> dict[str, tuple[str, int]]:
    """``negation``'s ``named`` from (id, kind, 6-letter stems of its name): the first word of ``text`` whose stem is
    one of them."""
    words = [(m.start(), m[0][:6]) for m in re.finditer(r"[a-z0-9]+", text.casefold())]
    return {oid: (kind, min((i for i, stem in words if stem in stems), default=-1)) for oid, kind, stems in names}
