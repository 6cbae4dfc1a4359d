"""What a question about a patient's record asks, by its words: whether the record lists something, or what the
patient takes for a condition. The planner reads them before the intent rules (``agents.intent``), which would read
the patient as a drug."""

from __future__ import annotations

import re

__all__ = ["RECORD_CHECK", "TAKEN_FOR"]

TAKEN_FOR = re.compile(r"(?:\b(?:taking|takes?|on|prescribed|given|using|uses?)\b(?:\s+[\w-]+){0,2}?\s+for|\b(?:drugs?|medications?|"
                       r"medicines?|meds|pills)\s+(?:that |which )?(?:treats?|(?:are|is) (?:used |taken |given )?for))\s+"
                       r"(?P<y>[^?.!]+?)[?.!]*$", re.IGNORECASE)
"""What a patient takes for a condition ("what is PAT_002 taking for schizophrenia?", "which of PAT_003's drugs treat
hypertension?", ``y`` the condition)."""
RECORD_CHECK = re.compile(r"^(?P<why>why\s+)?(?:does|do|did|is|was|has|have|are)\s+.+?\s+(?:have|has|had|taking|takes?|take|on|"
                          r"prescribed|using|uses?|diagnosed with|diagnosed)\s+(?:any\s+|an?\s+|the\s+)?(?P<y>.+?)[?.!]*$",
                          re.IGNORECASE)
"""A yes/no question about what a patient's record lists ("does PAT_001 have diabetes?", "is PAT_001 on metformin?"),
``y`` what it names; or why it lists a medication ("why is PAT_001 on metformin?", ``why``): what the record says it
is taken for."""
