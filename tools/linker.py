"""Entity linking: exact names and aliases, case/punctuation folding, fuzzy and embedding fallback."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from core.datasets import DRUG_TYPES
from core.text import drop_article, fold, longest_run, word_overlap
from memory.protocols import Entity
from tools.acronyms import CAPS, acronyms_in, initials, lower_acronym
from tools.link_outcome import Candidate, LinkOutcome, LinkStatus
from tools.places import PLACE_TYPES, diseases_at, diseases_of_place, says_only_the_place
from tools.spelling import Respeller
from tools.word_forms import GUESSED_METHODS, SPELLING, guessed, plural, read_alike, singulars, stem_pattern, variants

if TYPE_CHECKING:  # numpy only types the embedding fallback; importing it here slows every CLI start
    import numpy as np

__all__ = ["GUESSED_METHODS", "KIND_HEAD", "Candidate", "EntityLinker", "LinkOutcome", "LinkStatus", "acronyms_in", "fold", "guessed", "initials", "read_alike"]

_STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "for", "to", "and", "or", "with", "by", "is", "are", "was", "be", "does", "do", "did", "how", "what", "which", "why", "who", "treat", "treats", "treated", "patients", "patient", "drug", "drugs", "disease", "elderly"]
)


ALIAS_FACTOR = 0.97
"""An alias match's score against a name match's: more than the ambiguity margin (0.02) apart, so a mention that
names one entity and is an alias of others links to the one it names."""
SUGGEST_FLOOR = 0.72
"""The least score of a "did you mean" name (a ``ratio`` of 72: two edits in seven letters; "PCOS" and actos: 67)."""
SUGGEST_TYPE_FLOOR = 0.7
"""The least weight a slot gives a type for its entities to be offered as "did you mean"."""


KIND_HEAD = re.compile(r"\b(?:channel|receptor|transporter|pump|enzyme|kinase)s?$")
_NAMED_ALSO = {"serotonin": ("hydroxytryptamine",), "gaba": ("aminobutyric",), "adrenaline": ("epinephrine",),
               "noradrenaline": ("norepinephrine",)}
"""The word a kind's members are named by, for a word they are not ("serotonin receptors": 5-hydroxytryptamine
receptor 1B, 1D, …; only the 5HT3 serotonin receptor was one of them, so no triptan acted on "serotonin receptors")."""
"""A mention whose last word names a kind of target ("sodium channels", "serotonin receptors"): a name inside it that
lacks that word ("Sodium") names what the target handles, not the target (:meth:`EntityLinker.family`)."""


_KIND_AFTER = re.compile(r"\s+(?:drugs?|medications?|medicines?|meds|agents?|class|group)$", re.IGNORECASE)


_WORDY = re.compile(r"[^\W\d_]{2}")
"""Two letters in a row: what a mention needs to be read as a name by likeness."""


class EntityLinker:
    """Links free-text mentions to KG entities.

    Order of methods: exact folded name or alias (then its singular, then the names a capitalised acronym
    abbreviates); n-gram scan inside a longer span; token
    containment and fuzzy string match; then embedding similarity over entity names.
    """

    def __init__(
        self,
        entities: dict[str, Entity],
        aliases: dict[str, tuple[str, ...]],
        name_vectors: tuple[list[str], np.ndarray] | None = None,
        embed: object | None = None,
        *,
        embed_link: float = 0.82, embed_suggest: float = 0.62,
        degree: Callable[[str], int] | None = None, classes: dict[str, tuple[str, ...]] | None = None,
        brands: dict[str, str] | None = None,
    ) -> None:
        """Index names and aliases; ``name_vectors`` are (entity ids, unit rows) for the fallback; ``degree`` (the
        graph's) orders the names an acronym may abbreviate, the most connected first; ``classes`` (folded class name →
        name stems, :func:`tools.name_tables.read_drug_classes`) lets a class name ask which of its members is meant;
        ``brands`` (folded brand → generic, :func:`tools.name_tables.read_brands`) names the generic of a brand the graph
        does not hold."""
        self._brands = dict(brands or {})
        self.entities = entities
        self.aliases = aliases
        self._degree = degree
        self._by_fold: dict[str, list[str]] = {}
        claimed = {fold(c) for c in classes or {} if c.startswith("!")}  # "!steroids": the drugs, not MeSH's Steroids
        for e in entities.values():
            for text in (e.name, *aliases.get(e.id, ())):
                key = fold(text)
                if key and key not in claimed and e.id not in self._by_fold.setdefault(key, []):
                    self._by_fold[key].append(e.id)
        self._by_fold.update(variants(self._by_fold))  # "Parkinson's" alone, "non-Hodgkin lymphoma"
        self._by_token: dict[str, set[str]] = {}
        for key in self._by_fold:
            for tok in key.split():
                if tok not in _STOPWORDS:
                    self._by_token.setdefault(tok, set()).add(key)
        self._max_ngram = max((len(k.split()) for k in self._by_fold), default=1)
        self._respeller = Respeller(self._by_fold, frozenset(_STOPWORDS))
        self._by_initials: dict[str, list[str]] = {}
        names = {fold(e.name) for e in entities.values()}
        for e in entities.values():  # not by an alias that is an entity's name: the graph gives Alpha-2A adrenergic
            # receptor the alias "Tumor necrosis factor", and "TNF" asked which of the two was meant
            for text in (e.name, *(a for a in aliases.get(e.id, ()) if fold(a) not in names)):
                for key in initials(text):
                    if key not in self._by_fold and e.id not in self._by_initials.setdefault(key, []):
                        self._by_initials[key].append(e.id)
        self._classes: dict[str, list[str]] = {}
        self._class_lines: dict[tuple[str, ...], tuple[str, list[str]]] = {}
        """A line of the class table, by its stems: its first name as written, and its members."""
        self._class_written: dict[str, list[str]] = {}
        """Each name of the class table, folded, as the table writes it ("nsaids": NSAIDs; "beta blockers": beta
        blockers, beta-blockers)."""
        for cls in classes or {}:
            self._class_written.setdefault(fold(cls), []).append(cls.lstrip("!"))
        if classes:
            first_words = [(e.id, fold(e.name).partition(" ")[0], e.type) for e in entities.values() if e.type in DRUG_TYPES]
            for cls, stems in classes.items():  # a chemical only by its whole name: "=morphine" (it was "not an opioid")
                stem, whole = stem_pattern(stems), {x[1:] for x in stems if x.startswith("=")}
                members = [eid for eid, word, kind in first_words if (stem.search(word) if kind == "Drug" else word in whole)]
                if members and fold(cls) not in self._by_fold:
                    self._classes[fold(cls)] = members
                    self._class_lines.setdefault(stems, (cls.lstrip("!"), members))
        self._name_vectors, self._embed, self.embed_link, self.embed_suggest = name_vectors, embed, embed_link, embed_suggest

    def _cands(self, keys: Iterable[tuple[str, float, str]]) -> list[Candidate]:
        """Candidates for matched keys; a key that is only an entity's alias scores :data:`ALIAS_FACTOR` of one that
        is its name ("Pneumonia due to Mycoplasma pneumoniae" names one disease and is an alias of two others). Of
        equal scores, a match on the name comes first ("angina" is in Angina pectoris and in an alias of Angina
        Pectoris, Variant, which came first by its capital P)."""
        best: dict[str, Candidate] = {}
        named: set[str] = set()
        for key, score, method in keys:
            for eid in self._by_fold.get(key, ()):
                e, own = self.entities[eid], fold(self.entities[eid].name) == key
                s = score if method == "fuzzy" or own else score * ALIAS_FACTOR
                if eid not in best or best[eid].score < s:
                    best[eid] = Candidate(eid, e.name, e.type, s, method)
                    named.discard(eid)
                if own and best[eid].score == s:
                    named.add(eid)
        return sorted(best.values(), key=lambda c: (-c.score, c.id not in named, c.name, c.id))

    def exact(self, mention: str) -> list[Candidate]:
        """Entities whose folded name or alias equals the folded mention."""
        return self._cands([(fold(mention), 1.0, "exact")])

    def singular(self, mention: str) -> list[Candidate]:
        """Entities named by the mention with its last word in the singular ("allergies" → Allergy), for a mention
        that names nothing as written; slightly below an exact match."""
        key = fold(mention)
        words = key.split()
        if not words or key in self._by_fold:
            return []
        return self._cands([(" ".join([*words[:-1], w]), 0.99, "singular") for w in singulars(words[-1])])

    def acronym(self, mention: str) -> list[Candidate]:
        """Entities whose name's initials are the mention, when it is one token written in capitals and names
        nothing as written ("EGFR" → Epidermal growth factor receptor); below an exact match and a singular."""
        key = fold(mention)
        if key in self._by_fold or not CAPS.fullmatch(mention.strip()):
            return []
        return self._initial_cands(key)

    def drug_class(self, mention: str) -> list[Candidate]:
        """The drugs of a class the mention names ("statins" → atorvastatin, …, by their names' stem; "statin drugs"
        too), the most connected first, always more than the ambiguity margin from an exact name; [] for anything
        else."""
        return self._ranked_by_degree(self._classes.get(self._class_key(mention)[0], []), "class")

    def class_name(self, mention: str) -> str:
        """The name of the drug class the mention names, in the plural and as the class table writes it ("penicillin"
        → "penicillins", "ace inhibitors" → "ACE inhibitors", "nsaid" → "NSAIDs", "beta blocker drugs" → "beta
        blockers"; "nsaid" was "nsaids" in the answer; a mass noun takes "drugs": "chemotherapy drugs"); "" for
        anything else."""
        key, written = self._class_key(mention)
        said = written if fold(written) == key else plural(written)
        names = self._class_written.get(key, [])  # the one written as the mention, in any case, or else the first
        name = "" if not key else next((n for n in names if n.casefold() == said.casefold()), names[0] if names else said)
        return name if name.endswith("s") or not name else f"{name} drugs"

    def _class_key(self, mention: str) -> tuple[str, str]:
        """The class table's key for a mention and the words that name it: as written, in the plural, or without a
        word after it that says what it is ("statin drugs", "ACE inhibitor medications"), an article before it dropped
        ("the statins"); ("", "") for none."""
        written = re.sub(r"(?<=[A-Za-z])['’]s$", "s", drop_article(mention.strip()))  # "the statins"; "SSRI's", a plural
        for text in (written, _KIND_AFTER.sub("", written)):
            key = fold(text)
            if key in self._classes or plural(key) in self._classes:  # "monoclonal antibody": … antibodies
                return (key if key in self._classes else plural(key)), text
        return "", ""

    def classmates(self, eid: str) -> list[str]:
        """The other drugs of every class ``eid`` belongs to by its name (atorvastatin: the other statins), once each."""
        return list(dict.fromkeys(m for members in self._classes.values() if eid in members for m in members if m != eid))

    def headed_by(self, mention: str, types: Iterable[str], *, ending: bool = False) -> list[str]:
        """Ids of the entities of ``types`` whose name opens with the mention's words and goes on ("insulin": insulin
        glulisine, Insulin human …, not the protein insulin itself); ``ending``: whose name ends with them after others."""
        key = fold(mention)
        keys = self._by_token.get(key.split()[-1], set()) if key else set()
        fits = (lambda k: k.endswith(" " + key)) if ending else (lambda k: k.startswith(key + " "))
        return sorted({eid for k in keys if fits(k) for eid in self._by_fold[k] if self.entities[eid].type in types})

    def generic_of(self, word: str) -> str:
        """The generic name of a brand the brand table lists ("Ozempic" → "semaglutide"), whether the graph holds it
        or not; "" for any other word."""
        return self._brands.get(fold(word), "")

    def classes_named_like(self, word: str) -> list[str]:
        """The classes whose stem a drug's name carries, held in the graph or not ("semaglutide" → GLP-1 agonists)."""
        first = fold(word).partition(" ")[0]
        return [name for stems, (name, _) in self._class_lines.items() if len(first) > 4 and stem_pattern(stems).search(first)]

    def classes_of(self, eid: str) -> list[str]:
        """The classes ``eid`` belongs to by its name, each by the first name its line of the class table gives, as
        written ("lisinopril" → ["ACE inhibitors"]), a mass noun with "drugs" ("chemotherapy drugs": "one of the
        chemotherapy" read wrong); [] for a drug of no class."""
        return [n if n.endswith("s") else f"{n} drugs" for n, members in self._class_lines.values() if eid in members]

    def _initial_cands(self, key: str) -> list[Candidate]:
        """Score 0.95 plus 0.0001 per edge up to 99: never more than the ambiguity margin apart, so names of one
        type stay a question to the user, listed the most connected first ("PE": Pulmonary embolism before
        Pedal edema)."""
        return self._ranked_by_degree(self._by_initials.get(key, []), "acronym")

    def _ranked_by_degree(self, ids: list[str], method: str) -> list[Candidate]:
        def score(eid: str) -> float:
            return 0.95 + 0.0001 * min(self._degree(eid), 99) if self._degree else 0.95

        cands = [Candidate(eid, self.entities[eid].name, self.entities[eid].type, score(eid), method) for eid in ids]
        return sorted(cands, key=lambda c: (-c.score, c.name, c.id))

    def scan(self, text: str) -> list[tuple[str, list[Candidate]]]:
        """Longest non-overlapping exact n-gram matches inside a text, left to right; a token in capitals that
        names nothing as written matches the names it abbreviates (:meth:`acronym`)."""
        toks = fold(text).split()
        caps = acronyms_in(text)
        out: list[tuple[str, list[Candidate]]] = []
        i = 0
        while i < len(toks):
            n = longest_run(toks, i, self._max_ngram, lambda key, n: key in self._by_fold and not (
                n == 1 and (key in _STOPWORDS or len(key) < 3)))
            if n:
                key = " ".join(toks[i : i + n])
                out.append((key, self._cands([(key, 0.95, "ngram")])))
            elif toks[i] in caps and (cands := self._initial_cands(toks[i])):
                out.append((toks[i], cands))
            i += n or 1
        return out

    def classes_in(self, text: str) -> list[str]:
        """The drug class names inside a text, as written, left to right ("SSRIs and depression" → ["SSRIs"]); a
        class named in the singular counts ("penicillin"), unless the word is an entity's own name ("tetracycline")."""
        toks = fold(text).split()
        longest = max((len(c.split()) for c in self._classes), default=0)
        out: list[str] = []
        i = 0
        while i < len(toks):
            n = longest_run(toks, i, longest, lambda key, _n: (key in self._classes or key + "s" in self._classes)
                         and key not in self._by_fold)
            if n:
                key = " ".join(toks[i : i + n])
                written = re.search(r"\W+".join(map(re.escape, key.split())), text, re.IGNORECASE)
                out.append(written.group(0) if written else key)
            i += n or 1
        return out

    def fuzzy(self, mention: str, limit: int = 8) -> list[Candidate]:
        """Token-containment and edit-distance matches, best first."""
        key = fold(mention)
        toks = [t for t in key.split() if t not in _STOPWORDS]
        scored: dict[str, float] = {}
        if toks:
            sets = [self._by_token.get(t, set()) for t in toks]
            for k in set.intersection(*sets) if all(sets) else set():
                scored[k] = 0.6 + 0.3 * len(toks) / len(k.split())
        for k, s, _ in process.extract(key, list(self._by_fold), scorer=fuzz.ratio, limit=limit):
            if s >= SPELLING:
                scored[k] = max(scored.get(k, 0.0), s / 100.0 * 0.95)
        return self._cands((k, s, "fuzzy") for k, s in scored.items())[:limit]

    def by_embedding(self, mention: str, limit: int = 5) -> list[Candidate]:
        """Entities whose name embedding is closest to the mention."""
        if self._name_vectors is None or self._embed is None:
            return []
        ids, mat = self._name_vectors
        q = self._embed.embed([mention])[0]  # type: ignore[attr-defined]
        sims = mat @ q
        order = (-sims).argsort()
        best: dict[str, Candidate] = {}
        for j in order[: limit * 4]:
            eid = ids[int(j)]
            if eid not in best:
                e = self.entities[eid]
                best[eid] = Candidate(eid, e.name, e.type, float(sims[j]), "embedding")
            if len(best) >= limit:
                break
        return list(best.values())

    def suggest(self, mention: str, limit: int = 5, type_weight: dict[str, float] | None = None, *,
                min_score: float = SUGGEST_FLOOR, min_embedding: float | None = None) -> list[Candidate]:
        """The nearest known entities for a mention that did not link ("did you mean"), best first.

        A misspelling is found by edit distance over every folded name and alias (rapidfuzz ``ratio``), a partial
        name by the words it shares with a name, each weighted by how rare it is (:meth:`_word_scores`: "sickle
        cell" finds Anemia, Sickle Cell and not T cell), and a synonym by the embedding of the names (from
        ``embed_suggest``, as :meth:`link` asks). A slot's ``type_weight`` keeps the types it weighs at
        :data:`SUGGEST_TYPE_FLOOR` or more (no drug is offered for a disease) and orders them by score times weight.
        """
        key = fold(mention)
        least = self.embed_suggest if min_embedding is None else min_embedding
        scored = self._word_scores(key)
        for k, s, _ in process.extract(key, list(self._by_fold), scorer=fuzz.ratio, limit=limit * 3) if key else ():
            scored[k] = max(scored.get(k, 0.0), s / 100.0)
        best: dict[str, Candidate] = {}
        for c in [*self._cands((k, s, "fuzzy") for k, s in scored.items() if s >= min_score),
                  *(c for c in self.by_embedding(mention, limit=limit) if c.score >= least)]:
            if c.id not in best or best[c.id].score < c.score:
                best[c.id] = c
        weight = (lambda c: type_weight.get(c.type, type_weight.get("*", 0.0))) if type_weight else (lambda c: 1.0)
        kept = [c for c in best.values() if weight(c) >= SUGGEST_TYPE_FLOOR]
        return sorted(kept, key=lambda c: (-c.score * weight(c), c.name, c.id))[:limit]

    def _word_scores(self, key: str) -> dict[str, float]:
        """Names sharing a whole word with the mention, scored by :func:`core.text.word_overlap`."""
        words = {t for t in key.split() if t not in _STOPWORDS}
        total = len(self._by_fold)

        def rarity(tok: str) -> float:
            return math.log(total / (1 + len(self._by_token.get(tok, ()))))

        hits = set().union(*(self._by_token.get(t, set()) for t in words)) if words else set()
        return {k: word_overlap(words, {t for t in k.split() if t not in _STOPWORDS}, rarity) for k in hits}

    def family(self, mention: str, inner: list[Candidate]) -> list[Candidate]:
        """The targets a mention that ends in a kind of target names (:data:`KIND_HEAD`) when the names inside it
        lack that word: every name holding all its words, a plural's singular too ("sodium channels": Voltage-Gated
        Sodium Channels, Sodium channel protein type 5 subunit alpha, …), the most connected first. [] otherwise."""
        key = fold(mention)
        head = KIND_HEAD.search(key)
        if head is None or any(head[0].rstrip("s") in fold(c.name) for c in inner):
            return []
        words = [t for t in key.split() if t not in _STOPWORDS]
        holding = [set().union(*(self._by_token.get(v, set()) for v in {w, w.removesuffix("s"), w + "s", *_NAMED_ALSO.get(w, ())}))
                   for w in words]
        keys = sorted(set.intersection(*holding)) if holding else []
        ids = [eid for k in keys for eid in self._by_fold[k] if fold(self.entities[eid].name) == k]
        return self._ranked_by_degree(list(dict.fromkeys(ids)), "words")

    def _at_place(self, mention: str, inner: list[Candidate], weigh: Callable[[list[Candidate]], list[Candidate]]
                  ) -> LinkOutcome | None:
        """The diseases a mention names by a kind and a place (:func:`tools.places.diseases_at`): the one whose name
        says only that, or a question among them or, with none, among the names that say more ("liver disease":
        Hepatic Veno-Occlusive Disease is one kind of it); None for none."""
        at = diseases_at(mention, [self.entities[c.id] for c in inner], self.entities.values(), self.aliases)
        if only := [Candidate(e.id, e.name, e.type, 0.99, "words") for e, said in at if said]:
            return self._decide(mention, weigh(only), margin=0.02)
        more = self._ranked_by_degree([e.id for e, _ in at], "words")
        return LinkOutcome(mention, LinkStatus.AMBIGUOUS, tuple(weigh(more)[:5])) if more else None

    def drugs_named_by(self, mention: str, exact: list[Candidate], type_weight: dict[str, float]) -> list[Candidate]:
        """For a slot that wants a drug, when the name as written is only something else, the drugs named after it,
        the most connected first, for :meth:`link` to ask about ("insulin": Insulin Glargine, Insulin human, …; a dense
        seed answered for insulin glulisine, without a word, when the protein insulin's walk starved); [] otherwise."""
        if type_weight.get("Drug", 0.0) < max(type_weight.values()) or any(c.type in DRUG_TYPES for c in exact):
            return []
        most = len(fold(mention).split()) + 2  # "Calcitonin (salmon synthetic)"; not "TNF receptor-associated periodic …"
        ids = [eid for eid in self.headed_by(mention, ("Drug",)) if len(fold(self.entities[eid].name).split()) <= most]
        named: dict[str, Candidate] = {}
        for c in self._ranked_by_degree(ids, "words"):  # two ids of one name (insulin detemir): the most connected
            named.setdefault(fold(c.name), c)
        return sorted(named.values(), key=lambda c: (-c.score, len(c.name)))  # then the plainest: Insulin human

    def link(self, mention: str, type_weight: dict[str, float] | None = None) -> LinkOutcome:
        """Resolve a mention, preferring entity types the slot expects.

        Args:
            mention: the text of the mention.
            type_weight: multiplier per entity type for this slot (missing types get the smallest).

        Returns:
            LINKED with one clear winner, AMBIGUOUS with the tied candidates, or UNKNOWN.
        """
        out = self._link(mention, type_weight)
        return self._place_diseases(out, type_weight) or out

    def _place_diseases(self, out: LinkOutcome, type_weight: dict[str, float] | None) -> LinkOutcome | None:
        """For a slot that wants a disease, when the mention names a place in the body ("which drugs are good for the
        heart?"), a question among the place's diseases, the most connected first, the place itself last, as
        :meth:`drugs_named_by` asks for a drug; None otherwise. They answered for the heart itself."""
        best = out.best
        if best is None or best.type not in PLACE_TYPES or not type_weight or type_weight.get("Disease", 0.0) < max(type_weight.values()):
            return None
        ids = ([e.id for e in diseases_of_place(place, self.entities.values(), self.aliases)]  # not "polycystic ovary syndrome"
               if says_only_the_place(out.mention, place := self.entities[best.id]) else [])
        floor = min(type_weight.values())  # diseases before findings ("Increased cardiac output"), then by degree
        ranked = sorted(self._ranked_by_degree(ids, "words"), key=lambda c: -c.score * type_weight.get(c.type, floor))
        return LinkOutcome(out.mention, LinkStatus.AMBIGUOUS, (*ranked[:4], best)) if ids else None

    def _link(self, mention: str, type_weight: dict[str, float] | None) -> LinkOutcome:
        """:meth:`link`, before a place in a disease's slot is asked about."""
        def weigh(cands: list[Candidate]) -> list[Candidate]:
            if not type_weight:
                return cands
            floor = min(type_weight.values())
            out = [
                Candidate(c.id, c.name, c.type, c.score * type_weight.get(c.type, floor), c.method) for c in cands
            ]
            return sorted(out, key=lambda c: -c.score)  # stable: equal scores keep their order (names first)

        exact = weigh(self.exact(mention) or self.singular(mention) or self.acronym(mention))
        if exact and type_weight and (drugs := self.drugs_named_by(mention, exact, type_weight)):
            return LinkOutcome(mention, LinkStatus.AMBIGUOUS, (*drugs[:4], exact[0]))  # or the name as written
        if exact:
            return self._decide(mention, exact, margin=0.02)
        if members := self.drug_class(mention):  # a class is never one drug: ask which member (non-interactive runs
            return LinkOutcome(mention, LinkStatus.AMBIGUOUS, tuple(members[:5]))  # take the first), before respelling
        again = self._respeller.respell(mention)  # "diabtes", "reumatoid arthritis", "parkinsons" (tools.spelling)
        respelled = self._link(again, type_weight) if again else None
        if respelled is not None and respelled.best is not None and respelled.best.method not in GUESSED_METHODS:
            return LinkOutcome(mention, respelled.status, tuple(  # read by its letters, not as written: "fuzzy"
                Candidate(c.id, c.name, c.type, c.score, "fuzzy" if c.method in ("exact", "singular") else c.method)
                for c in respelled.candidates))
        return self._by_parts(mention, weigh)

    def _by_parts(self, mention: str, weigh: Callable[[list[Candidate]], list[Candidate]]) -> LinkOutcome:
        """:meth:`link` for a mention that names nothing as written: a class, the names inside it, a misspelling
        of a whole name, or the nearest meaning."""
        if not _WORDY.search(mention):  # "2+2": no letters to read a name by (it was asked which of three names)
            return LinkOutcome(mention, LinkStatus.UNKNOWN, ())
        inner = [c for _, cs in self.scan(mention) for c in cs]
        fuzzy = self.fuzzy(mention)
        if fuzzy and fuzzy[0].score >= 0.9 and inner and all(c.method == "acronym" for c in inner):
            inner = []  # "HIV reverse transcriptase": the alias HIV-1 reverse transcriptase, not HIV read alone
        # an acronym inside is a word of the mention, as a name inside is ("both asthma and COPD" names two diseases)
        inner = [Candidate(c.id, c.name, c.type, c.score, "ngram") if c.method == "acronym" else c for c in inner]
        if fuzzy and fuzzy[0].method == "fuzzy" and len([c for c in fuzzy if c.score >= 0.6]) > 1 and not inner:
            # a partial mention such as "diabetes" that several names contain: ask
            return LinkOutcome(mention, LinkStatus.AMBIGUOUS, tuple(weigh(fuzzy)[:5]))
        if inner and all(c.type in PLACE_TYPES for c in inner) and (at := self._at_place(mention, inner, weigh)):
            return at  # "cancer of the lung": not the lung
        if inner and (family := self.family(mention, inner)):  # "sodium channels": not Sodium
            return LinkOutcome(mention, LinkStatus.LINKED, tuple(weigh(family)))
        asked = set(fold(mention).split())  # one name holds every word, and they are half its own ("vitamin k epoxide
        whole = [c for c in fuzzy if asked <= (own := set(fold(c.name).split())) and 2 * len(asked) >= len(own)]  # reductase")
        if len(whole) == 1 and inner and max(len(fold(c.name).split()) for c in inner) < len(asked):
            return self._decide(mention, weigh(whole), margin=0.03)
        if inner:
            longest = max(len(c.name) for c in inner)
            inner = [c for c in inner if len(c.name) == longest] or inner
            return self._decide(mention, weigh(inner), margin=0.02)
        key = lower_acronym(mention)
        short = weigh(self._initial_cands(key)) if key and key not in _STOPWORDS else []
        if fuzzy and not (short and short[0].id == weigh(fuzzy)[0].id):
            return self._decide(mention, weigh(fuzzy), margin=0.03)
        if short:  # "copd", "egfr": no name is spelt like them; "cml": the one spelt like it is what its letters say
            return self._decide(mention, short, margin=0.02)
        emb = weigh(self.by_embedding(mention))
        if emb and emb[0].score >= self.embed_link and (len(emb) < 2 or emb[0].score - emb[1].score >= 0.03):
            return LinkOutcome(mention, LinkStatus.LINKED, (emb[0],))
        suggest = [c for c in emb if c.score >= self.embed_suggest]
        if suggest:
            return LinkOutcome(mention, LinkStatus.AMBIGUOUS, tuple(suggest))
        return LinkOutcome(mention, LinkStatus.UNKNOWN, ())

    def _decide(self, mention: str, cands: list[Candidate], margin: float) -> LinkOutcome:
        """LINKED, or AMBIGUOUS with the candidates within ``margin`` of the best. Tied entries of one name and one
        type are one thing that two vocabularies list (uric acid: MESH:D014527 and CHEBI:27226), not a question:
        LINKED, the most connected first, the others after it for the planner to weigh."""
        if len(cands) > 1 and cands[0].score - cands[1].score < margin:
            tied = tuple(c for c in cands if cands[0].score - c.score < margin)
            if len({(fold(c.name), c.type) for c in tied}) == 1:
                return LinkOutcome(mention, LinkStatus.LINKED, tuple(sorted(tied, key=lambda c: -self._degree(
                    c.id) if self._degree else 0)))
            return LinkOutcome(mention, LinkStatus.AMBIGUOUS, tied[:5])
        return LinkOutcome(mention, LinkStatus.LINKED, (cands[0],))
