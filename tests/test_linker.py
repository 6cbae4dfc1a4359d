"""Entity linking on the real KG."""

from __future__ import annotations

import pytest

from agents.intent import SLOT_TYPES, parse_question
from agents.state import Intent
from tools.acronyms import acronyms_in
from tools.linker import EntityLinker, LinkStatus, fold, read_alike
from tools.word_forms import eponyms, guessed, salts, unpossessed


def test_fold() -> None:
    assert fold("CML (Ph+)") == "cml ph"
    assert fold("  Acetaminophen!! ") == "acetaminophen"


def test_exact_and_folded(resources) -> None:
    out = resources.linker.link("IMATINIB", SLOT_TYPES["drug"])
    assert out.status is LinkStatus.LINKED and out.best.id == "MESH:D000068877"
    out = resources.linker.link("cml ph+", SLOT_TYPES["disease"])
    assert out.best.id == "MESH:D015464"


def test_type_preference_breaks_name_ties(resources) -> None:
    # "Fever" names both a Disease (MESH) and a PhenotypicFeature (HP); the disease slot prefers Disease.
    out = resources.linker.link("Fever", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.LINKED and out.best.id == "MESH:D005334"


def test_partial_mention_is_ambiguous(resources) -> None:
    out = resources.linker.link("diabetes", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.AMBIGUOUS
    assert {"MESH:D003922", "MESH:D003924"} <= {c.id for c in out.candidates}


def test_unknown_and_embedding_fallback(resources) -> None:
    assert resources.linker.link("zorblaxin", SLOT_TYPES["drug"]).status is LinkStatus.UNKNOWN
    out = resources.linker.link("chronic myelogenous leukaemia", SLOT_TYPES["disease"])
    assert out.best is not None and out.best.id == "MESH:D015464"


def test_suggestions_share_spelling_or_rare_words_and_fit_the_slot(resources) -> None:
    def near(mention: str, slot: str) -> list[str]:
        return [c.name for c in resources.linker.suggest(mention, type_weight=SLOT_TYPES[slot])]

    assert near("diabetes insipidus", "disease")[0] == "Diabetes mellitus"  # not "lipid", a part of one word
    assert near("long covid", "disease")[0] == "covid-19"  # not Long-term memory
    assert near("sickle cell", "disease")[0] == "Anemia, Sickle Cell"
    assert "T cell" not in near("sickle cell", "disease")  # "cell" is a common word
    assert near("posaconazol", "drug")[0] == "Posaconazole"
    assert "Posaconazole" not in near("posaconazol", "disease")  # a drug is never offered for a disease
    assert near("PCOS", "disease") == []


def test_one_name_listed_twice_as_one_type_links_without_asking(resources) -> None:
    # Histamine (MESH, 34 edges) and histamine (ChEBI, 3): one thing in two vocabularies, the most connected first
    out = resources.linker.link("histamine", SLOT_TYPES["drug"])
    assert out.status is LinkStatus.LINKED and [c.id for c in out.candidates] == ["MESH:D006632", "CHEBI:18295"]
    assert resources.linker.link("diabetes", SLOT_TYPES["disease"]).status is LinkStatus.AMBIGUOUS  # names differ


def test_a_plural_links_to_the_singular_name(resources) -> None:
    # "allergies" named nothing as written and was asked about among Allergens and Vomiting
    for mention, expected in (("allergies", "Allergy"), ("migraines", "Migraine"), ("Peptic ulcers", "Peptic ulcer")):
        out = resources.linker.link(mention, SLOT_TYPES["disease"])
        assert out.status is LinkStatus.LINKED and out.best.name == expected and out.best.method == "singular", mention
    # a name that is plural as written stays exact, and a word with no singular entity stays unknown
    assert resources.linker.link("Seizures", SLOT_TYPES["disease"]).best.method == "exact"
    assert resources.linker.singular("hives") == []


def test_initials_of_names() -> None:
    from tools.linker import acronyms_in, initials

    assert initials("Epidermal growth factor receptor") == {"egfr"}
    assert initials("Angiotensin-converting enzyme") == {"ace"}
    assert initials("Pulmonary Disease, Chronic Obstructive") == {"copd", "cop", "pd"}  # inverted, and its head
    assert initials("Human immunodeficiency virus infection") == {"hivi", "hiv"}
    assert initials("Gout") == set() and initials("b c d e f g h") == set()
    assert acronyms_in("What drugs act on EGFR or DNA?") == {"egfr", "dna"}
    assert acronyms_in("WHAT TREATS GOUT") == set()  # a question in capitals says nothing about acronyms


def test_a_capitalised_acronym_links_to_the_names_it_abbreviates(resources) -> None:
    for mention, slot, expected in (("COPD", "disease", "Chronic obstructive lung disease"),
                                    ("ADHD", "disease", "Attention deficit hyperactivity disorder"),
                                    ("EGFR", "drug", "Epidermal growth factor receptor"),
                                    # not also Alpha-2A adrenergic receptor, which the graph gives the alias
                                    # "Tumor necrosis factor" (another entity's name)
                                    ("TNF", "target", "Tumor necrosis factor")):
        out = resources.linker.link(mention, SLOT_TYPES[slot])
        assert out.status is LinkStatus.LINKED and out.best.name == expected and out.best.method == "acronym", mention
    # several names share the initials: ask
    out = resources.linker.link("PE", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.AMBIGUOUS and "Pulmonary embolism" in {c.name for c in out.candidates}
    # only capitals read as an acronym, and a name or alias written that way wins over its initials
    assert resources.linker.acronym("copd") == [] and resources.linker.link("DNA", SLOT_TYPES["drug"]).best.method == "exact"
    # a last word such as "infection" may be left out; the disease slot prefers the disease to the virus
    assert resources.linker.link("HIV", SLOT_TYPES["disease"]).best.name == "Human immunodeficiency virus infection"
    assert [(m, [c.name for c in cs]) for m, cs in resources.linker.scan("What acts on the EGFR?")] == [
        ("egfr", ["Epidermal growth factor receptor"])]


def test_an_eponym_s_possessive_alone_names_its_disease(resources, run_graph) -> None:
    """"What medicines are there for Alzheimer's?" was NOT_FOUND ("no known entity in the question"): the scan
    read names only whole, and "Alzheimer's" is only the start of Alzheimer's disease."""
    for text, expected in (("My mother has Alzheimer's.", "Alzheimer's disease"), ("what helps crohn's?", "Crohn Disease"),
                           ("drugs for Wilson's", "Hepatolenticular Degeneration")):
        assert [[c.name for c in cs] for _, cs in resources.linker.scan(text)] == [[expected]], text
    assert not guessed("alzheimer s", "Alzheimer's disease", "ngram")  # read, so no "Read … as …: the closest name"
    assert guessed("wilson s", "Hepatolenticular Degeneration", "ngram")  # another name: said so
    out, _ = run_graph({"question": "What medicines are there for Alzheimer's?"}, interactive=False, memory=False)
    assert out["status"].value == "ANSWERED" and out["answer"].startswith("Drugs with a verified mechanism for Alzheimer's disease")
    # no possessive to read, or one that already names something else
    assert eponyms({"graves disease": ["x"], "parkinson s disease": ["p"], "parkinson s": ["q"]}) == {}


def test_an_acid_s_salt_name_links_to_the_acid(resources) -> None:
    """"alendronate" and "valproate" linked to no drug by their letters: the graph names them alendronic acid and
    valproic acid."""
    for text, expected in (("alendronate", "alendronic acid"), ("valproate", "valproic acid"), ("zoledronate", "zoledronic acid")):
        out = resources.linker.link(text)
        assert out.status is LinkStatus.LINKED and out.best.name == expected and out.best.method == "exact", (text, out)
    assert salts({"valproic acid": ["v"], "uric acid": ["u"], "urate": ["w"], "aspirin": ["a"]}) == {"valproate": ["v"]}


def test_a_name_with_a_possessive_inside_links_without_it(resources) -> None:
    """"What drugs treat non-Hodgkin lymphoma?" linked the phenotype Lymphoma (the longest name inside the mention)
    and listed drugs through inflammatory response; Non-Hodgkin's lymphoma has a possessive inside its name."""
    for text, expected in (("What drugs treat non-Hodgkin lymphoma?", "Non-Hodgkin's lymphoma"),
                           ("what treats Hodgkin disease", "Hodgkin's disease")):
        assert [[c.name for c in cs] for _, cs in resources.linker.scan(text)] == [[expected]], text
    assert not guessed("non hodgkin lymphoma", "Non-Hodgkin's lymphoma", "ngram")
    # a bare form that already names something keeps it
    assert unpossessed({"a s b": ["x"], "a b": ["y"], "c s d": ["z"]}) == {"c d": ["z"]}


def test_an_acronym_in_lower_case_links_when_no_name_is_spelt_like_it(resources, run_graph) -> None:
    """"what drugs treat copd?" was NOT_FOUND ("copd" is not in the knowledge graph; did you mean Common cold?): only
    capitals read as an acronym. A lower-case mention of 3–6 characters that names nothing and that no name is spelt
    like is now read by its initials; a pronoun or a common word of a question is not."""
    for mention, slot, expected in (("copd", "disease", "Chronic obstructive lung disease"),
                                    ("adhd", "disease", "Attention deficit hyperactivity disorder"),
                                    ("egfr", "target", "Epidermal growth factor receptor")):
        out = resources.linker.link(mention, SLOT_TYPES[slot])
        assert out.status is LinkStatus.LINKED and out.best.name == expected and out.best.method == "acronym", mention
    # spelt like an alias of the disease its letters name: read by its letters, so the answer does not open "Read
    # "cml" as Chronic myeloid leukemia: the closest name" (it was read by its spelling alone)
    cml = resources.linker.link("cml", SLOT_TYPES["disease"])
    assert cml.best.name == "Chronic myeloid leukemia" and cml.best.method == "acronym", cml
    # no letters, no likeness: "what is 2+2?" was asked which of 2'-deoxyadenosine, Bcl-2 or Interleukin-2 was meant
    assert resources.linker.link("2+2").status is LinkStatus.UNKNOWN
    assert all(resources.linker.link(w).best is None or resources.linker.link(w).best.method != "acronym"
               for w in ("she", "them", "this", "meds", "the"))
    out, _ = run_graph({"question": "what drugs treat copd?"}, interactive=False, memory=False)
    assert out["status"].value == "ANSWERED" and "Chronic obstructive lung disease" in out["answer"], out["answer"]


def test_a_roman_numeral_is_no_acronym_and_pcsk9_is_a_target(resources) -> None:
    """"topoisomerase II" was linked to Intraabdominal Infections by the initials of "II"; "PCSK9" was not in the
    knowledge graph (memory/gene_symbols.tsv had no row for it)."""
    assert acronyms_in("what drugs inhibit topoisomerase II or COX-2?") == {"cox"}
    out = resources.linker.link("topoisomerase II", SLOT_TYPES["target"])
    assert out.best is not None and "topoisomerase" in out.best.name.casefold(), out
    pcsk9 = resources.linker.link("PCSK9", SLOT_TYPES["target"])
    assert pcsk9.status is LinkStatus.LINKED and pcsk9.best.name == "Proprotein convertase subtilisin/kexin type 9"


def test_a_name_spelt_nearly_so_beats_an_acronym_read_alone(resources) -> None:
    """"HIV reverse transcriptase" was linked to Human immunodeficiency virus infection by "HIV" alone, so "which drugs
    inhibit HIV reverse transcriptase?" listed drugs for the infection. An alias spelt nearly so (HIV-1 reverse
    transcriptase) now comes first; an acronym with nothing near the whole mention still links ("EGFR tyrosine
    kinase")."""
    linker = resources.linker
    out = linker.link("HIV reverse transcriptase", SLOT_TYPES["target"])
    assert out.candidates and all(any("reverse transcriptase" in fold(n) for n in (c.name, *linker.aliases.get(c.id, ())))
                                  for c in out.candidates), out
    egfr = linker.link("EGFR tyrosine kinase", SLOT_TYPES["target"])
    assert egfr.status is LinkStatus.LINKED and egfr.best.name == "Epidermal growth factor receptor"


def test_a_mention_that_names_one_entity_links_to_it_before_its_aliases(resources) -> None:
    # it names one disease and is an alias of two others in nodes.tsv; the first by name used to be picked
    out = resources.linker.link("Pneumonia due to Mycoplasma pneumoniae", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.LINKED and out.best.id == "MESH:D011019"
    assert {c.method for c in resources.linker.exact("Bacterial conjunctivitis")} == {"exact"}


def test_everyday_names_link_to_the_graph_s_names(resources) -> None:
    for mention, slot, names in (("high blood pressure", "disease", {"Hypertensive disorder", "Hypertension"}),
                                 ("heart attacks", "disease", {"Myocardial infarction"}),
                                 ("UTIs", "disease", {"Urinary tract infectious disease"}),  # it was "did you mean Uveitis?"
                                 # an organ's cancer linked the organ ("colon cancer" → colon, "liver cancer" → liver)
                                 ("colon cancer", "disease", {"Malignant tumor of colon"}),
                                 ("liver cancer", "disease", {"Hepatocellular Carcinoma"}),
                                 ("stomach cancer", "disease", {"Malignant tumor of stomach"}),
                                 ("cold sores", "disease", {"Herpes labialis"}), ("the flu", "disease", {"Influenza"}),
                                 ("AIDS", "disease", {"Human immunodeficiency virus infection"}),
                                 ("scurvy", "disease", {"Ascorbic acid deficiency"}),
                                 ("bedwetting", "disease", {"Nocturnal enuresis"}),
                                 ("GIST", "disease", {"Gastrointestinal stromal tumor"}),
                                 ("AFib", "disease", {"Atrial fibrillation"}), ("HSV", "disease", {"Herpes simplex"}),
                                 ("dandruff", "disease", {"Seborrheic dermatitis"}),
                                 # "breast cancer" read the word "breast" (an anatomy node), "dry eye" the word "eye"
                                 ("breast cancer", "disease", {"Breast Neoplasms"}), ("dry eye", "disease", {"Keratoconjunctivitis sicca"}),
                                 ("lung cancer", "disease", {"Non-small cell lung cancer"}), ("pink eye", "disease", {"Conjunctivitis, Bacterial"}),
                                 # the symptom nodes (HPO "Headache", "Depressivity") end no curated mechanism: "what
                                 # should I take for a headache?" listed mepolizumab and theophylline
                                 ("headache", "disease", {"Headache disorder"}), ("depression", "disease", {"Depressive disorder"}),
                                 # "How does omeprazole reduce stomach acid?" was answered for the stomach
                                 ("stomach acid", "disease", {"Gastric Acid"}),
                                 # "How do proton pump inhibitors reduce acid?" was answered for Acetic Acid
                                 ("acid", "disease", {"Gastric Acid"}), ("URAT1", "target", {"Solute carrier family 22 member 12"}),
                                 # short names of well-known targets ("Does atorvastatin inhibit HMG-CoA reductase?")
                                 ("HMG-CoA reductase", "target", {"3-hydroxy-3-methylglutaryl-coenzyme A reductase"}),
                                 ("SERT", "target", {"Sodium-dependent serotonin transporter"}), ("PDE5", "target",
                                 {"cGMP-specific 3',5'-cyclic phosphodiesterase"}), ("SGLT2", "target", {"Sodium/glucose cotransporter 2"}),
                                 ("DPP-4", "target", {"Dipeptidyl peptidase 4"}), ("AMPK", "target", {"AMP-activated protein kinase activity"}),
                                 ("angiotensin II receptor", "target", {"Type-1 angiotensin II receptor"}),
                                 ("stomach ache", "disease", {"Abdominal pain"}),  # it was read as the stomach
                                 # "why does it cause low potassium?" after furosemide was read as Potassium
                                 ("low potassium", "disease", {"Hypokalemia"}), ("high potassium", "disease", {"Hyperkalemia"}),
                                 ("low sodium", "disease", {"Hyponatremia"}),
                                 # the longest name inside the mention won: Headache disorder
                                 ("migraine headache", "disease", {"Migraine"}), ("tension headaches", "disease",
                                 {"Tension-Type Headache"}), ("overweight", "disease", {"Obesity"}),
                                 ("heart disease", "disease", {"Myocardial Ischemia"}),  # it was Rheumatic Heart Disease
                                 ("deep vein thrombosis", "disease", {"Deep venous thrombosis"}),  # it was Thrombosis
                                 ("blood sugar", "disease", {"Blood Glucose"}),  # it was Blood ("What is blood sugar?")
                                 # it asked which was meant, and answered for "Pneumonia due to Streptococcus", whose
                                 # alias "Streptococcus pyogenes infection" the row was keyed by
                                 ("strep throat", "disease", {"Streptococcus pyogenes infection"})):
        out = resources.linker.link(mention, SLOT_TYPES[slot])
        assert out.status is LinkStatus.LINKED and out.best.name in names, mention
    # a lay term must not hide a real ambiguity: the graph has several tuberculoses, and the question asks which
    assert resources.linker.link("tuberculosis", SLOT_TYPES["disease"]).status is LinkStatus.AMBIGUOUS
    # "TB" was Trypanosoma brucei (its initials), "hair loss" and "baldness" named nothing
    tb = resources.linker.link("TB", SLOT_TYPES["disease"])
    assert tb.status is LinkStatus.AMBIGUOUS and all("uberculosis" in c.name for c in tb.candidates), tb
    hair = resources.linker.link("hair loss", SLOT_TYPES["disease"])
    assert hair.status is LinkStatus.AMBIGUOUS and {c.name for c in hair.candidates} == {"androgenic alopecia", "Alopecia Areata"}
    assert resources.linker.link("baldness", SLOT_TYPES["disease"]).best.name == "androgenic alopecia"


def test_every_row_of_the_lay_terms_table_names_an_entity(resources) -> None:
    from tools.name_tables import LAY_TERMS

    rows = [ln.split("\t", 1)[0] for ln in LAY_TERMS.read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]
    assert len(rows) >= 30
    assert [name for name in rows if not resources.linker.exact(name)] == []


def test_a_drug_s_other_generic_names_link_to_it(resources) -> None:
    """"How does albuterol help asthma?" was NOT_FOUND ("did you mean sterol, tulobuterol?") and "paracetamol" asked
    whether Acetaminophen, dobutamine or Histamine was meant: the graph names a drug by one adopted name only."""
    from tools.name_tables import DRUG_NAMES

    rows = [ln.split("\t") for ln in DRUG_NAMES.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(rows) >= 40
    kg = resources.kg
    own = {fold(x) for e in kg.entities.values() for x in (e.name, *kg.aliases.get(e.id, ()))}
    for name, others in rows:
        assert any(c.type in ("Drug", "ChemicalSubstance") for c in resources.linker.exact(name)), name
        for other in (x.strip() for x in others.split(",")):
            assert fold(other) not in own, other  # a row never takes a name from an entity that has it
            assert {c.id for c in resources.linker.exact(other)} == {c.id for c in resources.linker.exact(name)}, other
    for other, name in (("albuterol", "Salbutamol"), ("paracetamol", "Acetaminophen"), ("glyburide", "glibenclamide")):
        out = resources.linker.link(other, SLOT_TYPES["drug"])
        assert out.status is LinkStatus.LINKED and out.best.name == name, other


def test_a_vitamin_links_to_the_drug_it_names(resources) -> None:
    """"How does vitamin D treat rickets?" was answered for Vitamin E, one letter away: the graph names vitamins by
    their chemical names (Colecalciferol, cyanocobalamin)."""
    for vitamin, name in (("vitamin D", "Colecalciferol"), ("vitamin B12", "cyanocobalamin"), ("vitamin A", "Retinol"),
                          ("vitamin E", "Vitamin E")):
        out = resources.linker.link(vitamin, SLOT_TYPES["drug"])
        assert out.status is LinkStatus.LINKED and out.best.name == name, (vitamin, out.best)


def test_a_drug_class_asks_which_member(resources) -> None:
    out = resources.linker.link("statins", SLOT_TYPES["drug"])
    assert out.status is LinkStatus.AMBIGUOUS and len(out.candidates) == 5
    assert all(c.name.lower().endswith("vastatin") and c.method == "class" for c in out.candidates)
    assert "nystatin" not in {c.name for c in resources.linker.drug_class("statins")}  # an antifungal, not a statin
    degrees = [resources.kg.degree(c.id) for c in out.candidates]
    assert degrees == sorted(degrees, reverse=True)  # the most connected first
    assert resources.linker.drug_class("atorvastatin") == [] and resources.linker.drug_class("gout") == []
    # a class without a shared stem names its members ("=sertraline"), and a stem does not reach past its class
    assert {c.name.casefold() for c in resources.linker.drug_class("SSRIs")} >= {"sertraline", "fluoxetine"}
    steroids = {c.name.casefold() for c in resources.linker.drug_class("corticosteroids")}
    assert "prednisone" in steroids and "dapsone" not in steroids and "eperisone" not in steroids


def test_a_class_claims_a_name_the_table_marks_from_the_entity_of_that_name(resources) -> None:
    """"steroids" linked MeSH's chemical class Steroids (two edges, through aldosterone): "How do steroids treat
    asthma?" went through aldosterone and "Is prednisone a steroid?" told what prednisone is connected to. The table
    writes it "!steroids", so it is the class's; a class name no "!" claims stays the entity's."""
    out = resources.linker.link("steroids")
    assert out.status is LinkStatus.AMBIGUOUS and all(c.method == "class" for c in out.candidates), out
    assert {"prednisone", "testosterone"} <= {c.name.casefold() for c in resources.linker.drug_class("steroids")}
    assert resources.linker.class_name("steroid") == "steroids"
    entity = next(iter(resources.kg.entities.values()))
    named = EntityLinker({entity.id: entity}, {}, classes={entity.name: ("=x",)})
    assert named.link(entity.name).best.id == entity.id  # unclaimed: the entity keeps its name
    claimed = EntityLinker({entity.id: entity}, {}, classes={f"!{entity.name}": ("=x",)})
    assert claimed.exact(entity.name) == []


def test_chemotherapy_is_a_class_named_as_a_mass_noun(resources, run_graph) -> None:
    """"How does chemotherapy kill cancer?" was NOT_FOUND ("chemotherapy" is not in the knowledge graph). The class
    table lists chemotherapy drugs by stem (platin, rubicin, taxel) and by name; a class named by a mass noun is
    told as "chemotherapy drugs" ("Chemotherapy act on" would not read)."""
    members = {c.name.casefold() for c in resources.linker.drug_class("chemotherapy")}
    assert {"cisplatin", "doxorubicin", "paclitaxel", "methotrexate"} <= members and "imatinib" not in members
    assert resources.linker.class_name("chemo") == "chemo drugs" and resources.linker.class_name("statin") == "statins"
    out, _ = run_graph({"question": "how does chemo work?"}, interactive=False, memory=False)
    assert out["status"].value == "ANSWERED" and out["answer"].startswith("Chemo drugs in the knowledge graph act on: "), out["answer"]


def test_a_drug_named_after_a_protein_is_the_plainest_first(resources) -> None:
    """"How does insulin lower blood sugar?" answered for Insulin Glargine: the drugs headed by "insulin" tie, and the
    tie went by spelling. The plainest, Insulin human, comes first, as in a comparison (``drug_compare._plainest``)."""
    out = resources.linker.link("insulin", SLOT_TYPES["drug"])
    assert out.status is LinkStatus.AMBIGUOUS and out.candidates[0].name == "Insulin human", out.candidates


def test_a_measure_that_drugs_lower_is_read_as_its_high_form(resources) -> None:
    """"How does lisinopril lower blood pressure?" linked the graph's "Blood pressure" node, which no chain from
    lisinopril reaches; lowering a measure is treating its high form, a lay term of the table."""
    from agents.intent import LOWERED

    assert parse_question("How does lisinopril lower blood pressure?").disease == "high blood pressure"
    assert parse_question("What reduces your LDL cholesterol?").disease == "high LDL cholesterol"
    assert parse_question("How does timolol lower intraocular pressure?").disease == "intraocular pressure"
    assert parse_question("How does aspirin affect blood pressure?").disease == "blood pressure"  # not lowering
    for measure in LOWERED:
        out = resources.linker.link(f"high {measure}", SLOT_TYPES["disease"])
        assert out.status is LinkStatus.LINKED and out.best.method != "fuzzy", measure


def test_a_which_drug_question_keeps_the_words_that_may_name_a_class(resources) -> None:
    for q, among in (("Which beta blockers treat hypertension?", "beta blockers"),
                     ("What ACE inhibitors help with heart failure?", "ACE inhibitors"),
                     ("which proton pump inhibitors treat gastric ulcer", "proton pump inhibitors"),
                     ("Which beta blockers block ADRB1?", "beta blockers"), ("What else treats gout?", "")):
        parsed = parse_question(q)
        assert parsed is not None and parsed.among == among, q
    assert len(resources.linker.drug_class("statin")) == len(resources.linker.drug_class("statins")) > 1
    assert resources.linker.drug_class("drugs") == [] and resources.linker.drug_class("first-line medication") == []


def test_a_class_named_with_a_word_for_drugs_after_it_is_the_class(resources) -> None:
    """"what do beta blocker drugs target?" was NOT_FOUND ("beta blocker drugs" is not in the graph), and "what do
    ACE inhibitor drugs target?" was answered about ACE itself."""
    linker = resources.linker
    assert linker.drug_class("statin drugs") == linker.drug_class("statins") != []
    assert linker.class_name("beta blocker drugs") == "beta blockers"
    assert linker.class_name("ACE inhibitor medications") == "ACE inhibitors" and linker.class_name("SSRI meds") == "SSRIs"
    assert linker.drug_class("gout drugs") == [] and linker.class_name("gout drugs") == "" and linker.drug_class("drugs") == []


def test_a_class_is_named_as_the_class_table_writes_it(run_graph, resources) -> None:
    """"is it an nsaid?" after ibuprofen answered "Ibuprofen is one of the nsaids", as the question spelt it."""
    linker = resources.linker
    assert [linker.class_name(m) for m in ("nsaid", "ssris", "ace inhibitor", "beta-blockers", "beta blocker drugs")] == [
        "NSAIDs", "SSRIs", "ACE inhibitors", "beta-blockers", "beta blockers"]  # a name the table writes, kept as asked
    out, _ = run_graph({"question": "is ibuprofen an nsaid?"}, interactive=False, memory=False)
    assert "Ibuprofen is one of the NSAIDs by its name" in out["answer"], out["answer"]


def test_a_class_named_with_an_article_is_the_class(run_graph, resources) -> None:
    """"which drugs are the statins?" was answered with what statins act on, where "which drugs are statins?" lists
    them: the class table was read by "the statins", which names nothing."""
    linker = resources.linker
    assert linker.class_name("the statins") == "statins" and linker.drug_class("the beta blockers") == linker.drug_class("beta blockers") != []
    assert linker.class_name("the") == "" and linker.drug_class("the") == []
    out, _ = run_graph({"question": "which drugs are the statins?"}, interactive=False, memory=False)
    plain, _ = run_graph({"question": "which drugs are statins?"}, interactive=False, memory=False)
    assert out["answer"] == plain["answer"] and out["answer"].startswith("The class table lists "), out["answer"]


@pytest.mark.parametrize(("mention", "name"), [
    ("reumatoid arthritis", "Rheumatoid arthritis"),  # was Arthritis, the one word known
    ("parkinsons", "Parkinson's disease"),  # was Parkinsonism: the apostrophe left out
    ("crohns", "Crohn Disease"), ("sorisis", "Psoriasis"), ("athsma", "Asthma"),  # were unknown or a guess by meaning
    ("schizofrenia", "Schizophrenia"), ("high cholesterole", "Hypercholesterolemia"),
])
def test_a_misspelt_word_links_as_its_right_spelling(resources, mention: str, name: str) -> None:
    out = resources.linker.link(mention, SLOT_TYPES["disease"])
    assert out.status is LinkStatus.LINKED and out.best.name == name, (mention, out.candidates[:3])


def test_a_misspelling_of_a_word_that_several_names_hold_is_asked_like_the_word(resources) -> None:
    """"diabtes" named nothing; it is now what "diabetes" is: a question of which diabetes."""
    typo, right = (resources.linker.link(m, SLOT_TYPES["disease"]) for m in ("diabtes", "diabetes"))
    assert typo.status is right.status is LinkStatus.AMBIGUOUS
    assert [c.id for c in typo.candidates] == [c.id for c in right.candidates]


def test_words_are_respelt_only_when_unknown(resources) -> None:
    from tools.spelling import Respeller

    speller = Respeller(["asthma", "parkinson s disease", "rheumatoid arthritis"])
    assert speller.respell("asthma") == "" and speller.respell("athsma") == "asthma"
    assert speller.respell("parkinsons") == "parkinson s" and speller.respell("rheumatoid arthritiss") == "rheumatoid arthritis"
    assert speller.respell("gout") == "" and speller.respell("zorblaxin") == ""  # short, or nothing near


def test_every_drug_class_has_members(resources) -> None:
    from tools.name_tables import read_drug_classes

    classes = read_drug_classes()
    assert len(classes) >= 20
    assert [c for c in classes if len(resources.linker.drug_class(c)) < 2] == []


def test_intents() -> None:
    assert parse_question("How does imatinib treat CML (ph+)?").intent is Intent.MECHANISM
    p = parse_question("What drug treats bacterial pneumonia in the elderly?")
    assert p.intent is Intent.TREATS and p.disease == "bacterial pneumonia in the elderly"
    assert parse_question("What does imatinib target?").intent is Intent.TARGETS
    assert parse_question("What does aspirin treat?").intent is Intent.INDICATIONS
    assert parse_question("Tell me a joke") is None


@pytest.mark.parametrize("question", [
    "What drug treats {d}?", "what drug treats {d}", "Which drugs are used for {d}?", "What medication is given for {d}?",
    "What is prescribed for {d}?", "Which therapies are indicated for {d}?", "What drugs can be used to treat {d}?",
    "Which medicines help with {d}?", "What is the treatment of {d}?", "Treatment options for {d}?", "Drugs for {d}",
    "Best drug for {d}?", "List drugs that treat {d}.", "Is there a drug for {d}?", "What can I take for {d}?",
    "What should a patient with {d} take?", "How do you treat {d}?", "How to treat {d}", "How can {d} be treated?",
    "Which first-line drugs are recommended for {d}?", "What do doctors prescribe for {d}?",
    "What is the best drug for {d}?", "What's the best medicine for {d}?", "What is a good treatment for {d}?",
    "What are the most effective drugs for {d}?", "What is the drug of choice for {d}?",
    "What is the treatment of choice for {d}?", "What works best for {d}?", "What are my options for {d}?",
    "What's used to treat {d}?", "Which is the preferred medication for {d}?", "What can my doctor give me for {d}?",
    "What is the drug that treats {d}?", "Which are the medications used for {d}?",
    "I have {d}. What should I take?", "My mother was diagnosed with {d}, what can she take?", "I have {d}, what helps?",
    "What's the best treatment for my {d}?", "What is used in the management of {d}?",
    "{d} treatment", "{d} therapy options",
    # the whole opening sentence was read as the disease's name (a guess: "Read … as …")
    "I was just diagnosed with {d}. What are my options?", "I've just been diagnosed with {d}, what are my options?",
    "My son has just been diagnosed with {d}. What helps?", "I was recently diagnosed with {d}. What can I take?",
])
def test_which_drug_treats_in_many_wordings(question: str) -> None:
    # the wordings of bench/bench_wordings.py (treats) and a few more: each asks for drugs, and the slot is the disease
    p = parse_question(question.format(d="gouty arthritis"))
    assert p is not None and p.intent is Intent.TREATS and p.disease == "gouty arthritis" and not p.drug


@pytest.mark.parametrize("question", [
    "How does {x} treat {d}?", "What's the mechanism of {x} in {d}?", "Mechanism of {x} for {d}", "What does {x} do in {d}?",
    "How {x} works in {d}", "Explain {x}'s mechanism in {d}.", "MOA of {x} in {d}", "What is the role of {x} in {d}?",
    "By what pathway does {x} treat {d}?", "What makes {x} effective against {d}?", "{x} for {d} - how does it work?",
    "{d}: how does {x} help?", "Walk me through how {x} treats {d}.", "Can you explain how {x} helps with {d}?",
    "Explain how {x} works in {d}.", "In {d}, what does {x} do?", "Why would a doctor give {x} to someone with {d}?",
    "Why do physicians prescribe {x} to patients with {d}?",
    "Is it true that {x} treats {d}?", "I heard {x} helps with {d}", "How does the drug {x} treat {d}?",
    "How does this medication {x} treat the disease {d}?", "How does {x} work for my {d}?",
    "Explain how {x} reduces {d}", "Which protein does {x} inhibit in {d}?", "How can {x} help {d} patients?",
    "Explain how {x} treat {d}",  # a class's plural verb ("explain how statins lower cholesterol": what cholesterol is)
    "How does {x} reverse {d}?",  # "How does naloxone reverse an opioid overdose?" dropped the overdose
])
def test_mechanism_in_many_wordings(question: str) -> None:
    # the mechanism wordings of bench/bench_wordings.py that name both ends in a form a rule can read
    p = parse_question(question.format(x="imatinib", d="chronic myeloid leukemia"))
    assert p is not None and (p.intent, p.drug, p.disease) == (Intent.MECHANISM, "imatinib", "chronic myeloid leukemia")


@pytest.mark.parametrize("question", ["how to treat gout", "how often patients treat gout", "how much aspirin treats gout"])
def test_how_to_or_how_often_names_no_drug(question: str) -> None:
    p = parse_question(question)
    assert p is None or p.intent is not Intent.MECHANISM, p


@pytest.mark.parametrize("question", [
    "Does {x} work for {d}?", "Can {x} treat {d}?", "Would {x} help {d}?", "Is {x} used for {d}?",
    "Is {x} used to treat {d}?", "Is {x} good for {d}?", "Is {x} a good treatment for {d}?", "Can I take {x} for {d}?",
    "Does {x} really help with {d}?",
])
def test_a_yes_no_question_naming_both_ends_asks_the_mechanism(question: str) -> None:
    # they were free text: the mention scan found "imatinib" and nothing for an abbreviation such as "GIST"
    p = parse_question(question.format(x="imatinib", d="GIST"))
    assert p is not None and (p.intent, p.drug, p.disease) == (Intent.MECHANISM, "imatinib", "GIST")


@pytest.mark.parametrize("question", ["Is there a drug for {d}?", "Does anything treat {d}?", "Can you treat {d}?"])
def test_a_yes_no_question_without_a_drug_is_not_a_mechanism(question: str) -> None:
    p = parse_question(question.format(d="gout"))
    assert p is None or p.intent is not Intent.MECHANISM


@pytest.mark.parametrize("question", [
    "What does {x} target?", "What are {x}'s targets?", "{x} targets", "Which proteins does {x} bind?",
    "What is the target of {x}?", "Targets of {x}?", "Tell me the molecular targets of {x}.",
    "What is the enzyme that {x} inhibits?", "What is the protein targeted by {x}?", "Which receptors are targeted by {x}?",
    "What is the receptor for {x}?", "What does {x} do?",
])
def test_targets_in_many_wordings(question: str) -> None:
    p = parse_question(question.format(x="imatinib"))
    assert p is not None and (p.intent, p.drug) == (Intent.TARGETS, "imatinib")


@pytest.mark.parametrize("question", [
    "What does {x} treat?", "What is {x} prescribed for?", "What are the indications of {x}?", "Uses of {x}",
    "{x} indications", "What is {x} good for?", "What can {x} be used for?", "Which diseases does {x} help with?",
    "What is {x} indicated for?", "What are {x}'s uses?", "Which conditions can be treated with {x}?",
    "What is the disease treated by {x}?", "Which are the conditions that {x} treats?", "What are the diseases treated with {x}?",
    "What is {x} for?", "What's {x} usually for?",
    # a kind of disease: any disease is listed ("what cancers does X treat?" was read by no rule)
    "What cancers does {x} treat?", "Which infections can {x} treat?", "Which types of cancer can {x} treat?",
    "What symptoms does {x} help with?", "Which tumors are treated with {x}?", "What conditions is {x} used for?",
])
def test_indications_in_many_wordings(question: str) -> None:
    p = parse_question(question.format(x="aspirin"))
    assert p is not None and (p.intent, p.drug) == (Intent.INDICATIONS, "aspirin")


@pytest.mark.parametrize("question", ["What is the mechanism of action of {x}?", "How does {x} work?", "MOA of {x}",
                                      "Explain {x}'s mechanism of action."])
def test_a_drug_s_mechanism_without_a_disease_asks_what_it_acts_on(question: str) -> None:
    p = parse_question(question.format(x="sildenafil"))
    assert p is not None and (p.intent, p.drug) == (Intent.TARGETS, "sildenafil")


@pytest.mark.parametrize(("question", "disease"), [
    ("Why is allopurinol prescribed for gout?", "gout"),
    ("Why is allopurinol given to gout patients?", "gout"),
    ("Why are statins recommended for high cholesterol?", "high cholesterol"),
])
def test_why_a_drug_is_prescribed_asks_its_mechanism(question: str, disease: str) -> None:
    # "prescribed for gout" was taken for the disease and linked by spelling
    p = parse_question(question)
    assert p is not None and p.intent is Intent.MECHANISM and p.disease == disease


def test_the_person_who_prescribes_is_not_the_drug() -> None:
    p = parse_question("Why do doctors prescribe atorvastatin for high cholesterol?")
    assert p is not None and (p.intent, p.drug, p.disease) == (Intent.MECHANISM, "atorvastatin", "high cholesterol")


@pytest.mark.parametrize(("question", "drug", "disease"), [
    ("Why do doctors prescribe statins after a heart attack?", "statins", "heart attack"),
    ("Why would a doctor give aspirin after a heart attack?", "aspirin", "heart attack"),
    ("Why is my doctor giving me lisinopril for my kidneys?", "lisinopril", "kidneys"),
])
def test_why_someone_gives_a_drug_after_or_for_a_disease_asks_its_mechanism(question: str, drug: str, disease: str) -> None:
    """"after a heart attack" was not read as the disease ("statins after a heart attack" linked Myocardial infarction
    and was asked what it treats), and "my doctor giving me lisinopril" was read as a guessed name."""
    p = parse_question(question)
    assert p is not None and (p.intent, p.drug, p.disease) == (Intent.MECHANISM, drug, disease)


@pytest.mark.parametrize("question", ["Why is my doctor giving me lisinopril?", "why has my doctor been prescribing atorvastatin?"])
def test_why_my_doctor_gives_me_a_drug_asks_what_it_treats(question: str) -> None:
    p = parse_question(question)
    assert p is not None and p.intent is Intent.INDICATIONS and p.drug in question


@pytest.mark.parametrize("question", ["Can you explain that again?", "Explain the mechanism", "Tell me about gout",
                                      "What is the mechanism?", "How does it work?"])
def test_requests_without_both_ends_are_left_to_the_follow_up_resolver(question: str) -> None:
    # "explain …" is stripped only in front of a question that names what it asks about
    assert parse_question(question) is None


@pytest.mark.parametrize(("question", "intent", "drug", "disease"), [
    ("How does imatinib treat CML?", Intent.MECHANISM, "imatinib", "CML"),
    ("How does the drug treat gout?", Intent.MECHANISM, "drug", "gout"),
    ("imatinib for CML - how does it work?", Intent.MECHANISM, "imatinib", "CML"),
    ("Why is aspirin used for pain?", Intent.MECHANISM, "aspirin", "pain"),
    ("What is the mechanism of action of aspirin in pain?", Intent.MECHANISM, "aspirin", "pain"),
    ("What does aspirin treat?", Intent.INDICATIONS, "aspirin", ""),
    ("What diseases is aspirin used for?", Intent.INDICATIONS, "aspirin", ""),
])
def test_wider_treats_rules_leave_other_intents_alone(question: str, intent: Intent, drug: str, disease: str) -> None:
    p = parse_question(question)
    assert p is not None and (p.intent, p.drug, p.disease) == (intent, drug, disease)


@pytest.mark.parametrize("question", ["What is gout?", "What causes gout?", "Gout", "Tell me about drugs"])
def test_questions_that_do_not_ask_for_a_drug_are_not_treats(question: str) -> None:
    p = parse_question(question)
    assert p is None or p.intent is not Intent.TREATS


@pytest.mark.parametrize(("mention", "name", "alike"), [
    ("acetominophen", "Acetaminophen", True),  # a misspelling
    ("type 2 diabetes", "Diabetes mellitus type 2", True),  # the name's words, reordered
    ("mono", "Poly [ADP-ribose] polymerase 3", False),  # a word of one alias
    ("tylenl", "Acetaminophen", False),  # near an alias, not the name it reads
])
def test_a_fuzzy_link_reads_a_name_only_when_it_spells_it_or_holds_its_words(mention, name, alike) -> None:
    assert read_alike(mention, name) is alike


def test_a_noun_before_a_name_leaves_the_name_and_only_its_own_slot_s_noun() -> None:
    """"the drug imatinib" is imatinib; "drug" in the disease slot is a word of the name ("Drug resistant
    tuberculosis" is an entity)."""
    p = parse_question("How does isoniazid treat the drug resistant tuberculosis?")
    assert p is not None and (p.drug, p.disease) == ("isoniazid", "drug resistant tuberculosis")


def test_a_drug_slot_asks_which_drug_is_named_after_a_protein(resources) -> None:
    """"How does insulin treat diabetes?" linked "insulin" to the protein insulin; its walk starved and a dense seed
    answered for insulin glulisine without a word. A drug slot now asks which of the drugs named after it is meant,
    the name as written last; a slot that wants a protein keeps the protein."""
    out = resources.linker.link("insulin", SLOT_TYPES["drug"])
    names = [c.name for c in out.candidates]
    assert out.status is LinkStatus.AMBIGUOUS and "Insulin human" in names, names
    assert [c.type for c in out.candidates] == ["Drug"] * (len(names) - 1) + ["Protein"], out.candidates
    assert len(set(names)) == len(names)  # insulin detemir has two ids: listed once
    assert resources.linker.link("insulin", SLOT_TYPES["target"]).best.id == "UniProt:P01308"
    # a drug entry whose name only opens with the protein's ("TNF receptor-associated periodic fever syndrome …")
    # is no drug named after it
    assert resources.linker.link("TNF", SLOT_TYPES["drug"]).best.name == "Tumor necrosis factor"
    assert resources.linker.link("imatinib", SLOT_TYPES["drug"]).status is LinkStatus.LINKED


def test_a_class_in_the_singular_is_no_misspelt_drug(resources) -> None:
    """"statin" was respelled as nystatin before the class table was read; it names the statins, as "statins" does."""
    one, many = resources.linker.link("statin", SLOT_TYPES["drug"]), resources.linker.link("statins", SLOT_TYPES["drug"])
    assert one.status is LinkStatus.AMBIGUOUS and [c.id for c in one.candidates] == [c.id for c in many.candidates]
    assert all(c.name.lower().endswith("statin") and c.name != "nystatin" for c in one.candidates), one.candidates


def test_of_equal_partial_matches_the_one_named_so_comes_first(resources) -> None:
    """"angina" is in the name Angina pectoris and in an alias of Angina Pectoris, Variant: equal scores, and the
    variant came first by its capital P, so "What drugs are used for angina?" answered for variant angina."""
    out = resources.linker.link("angina", SLOT_TYPES["disease"])
    assert [c.name for c in out.candidates][:2] == ["Angina pectoris", "Angina Pectoris, Variant"], out


@pytest.mark.parametrize(("mention", "name"), [("vitamin k epoxide reductase", "Vitamin K epoxide reductase complex subunit 1"),
                                               ("insulin receptor substrate", "Insulin Receptor Substrate Proteins")])
def test_one_name_holding_every_word_beats_a_shorter_name_inside(resources, mention: str, name: str) -> None:
    """They linked vitamin K and Insulin receptor, the names inside the mention, and "What is vitamin K epoxide
    reductase?" after warfarin's target was answered about vitamin K."""
    out = resources.linker.link(mention)
    assert out.status is LinkStatus.LINKED and out.best is not None and out.best.name == name, out


def test_a_name_inside_longer_words_still_links_when_no_name_holds_them_all(resources) -> None:
    """A guard: "imatinib in cml" is imatinib, as before (no name holds all three words)."""
    assert resources.linker.link("imatinib in cml").best.name == "imatinib"


@pytest.mark.parametrize(("brand", "generic"), [("ProAir", "Salbutamol"), ("Toprol", "Metoprolol"), ("Flovent", "fluticasone propionate"),
                                                ("Depakote", "valproic acid"), ("Adderall", "Amphetamine"), ("Maxalt", "Rizatriptan"),
                                                ("Boniva", "ibandronic acid"), ("Spiriva", "tiotropium bromide")])
def test_more_brand_names_link_to_their_generic(resources, brand: str, generic: str) -> None:
    """They were unknown, or read as another drug by its letters or meaning (Flovent as Flecainide, Spiriva as
    Spiraprilat, Adderall asked between amphetamines)."""
    out = resources.linker.link(brand, SLOT_TYPES["drug"])
    assert out.status is LinkStatus.LINKED and out.best is not None and out.best.name == generic, out
