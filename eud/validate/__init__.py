"""Validation of CoNLL-U as UD's validator does (levels 1 and 2), and repair of enhanced graphs.

Modules: :mod:`~eud.validate.official` (UD's own level-1/2 checks, run
in-process through udtools), :mod:`~eud.validate.checks` (one sentence's graph: DEPS order,
labels, connectivity, roots), :mod:`~eud.validate.rows` (the raw lines, for
sentences too broken to read), :mod:`~eud.validate.files` (whole files, and
graphs in all sentences or none) and :mod:`~eud.validate.repair` (the fixes
every eud writer applies).  ``eud validate`` is :mod:`eud.commands.validate`.
"""

from eud.validate.checks import (
    ENHANCED_TESTIDS,
    UNIVERSAL_RELATIONS,
    Problem,
    check_sentence,
    edeprel_is_valid,
    has_enhanced_layer,
    label_problem,
    node_lines,
    reachable,
)
from eud.validate.files import Checked, RunState, check_file
from eud.validate.repair import repair_sentence
from eud.validate.rows import UNREADABLE_IDS, check_raw_rows, read_with_empty_labels, salvage_lines

__all__ = [
    "ENHANCED_TESTIDS",
    "UNIVERSAL_RELATIONS",
    "UNREADABLE_IDS",
    "Checked",
    "Problem",
    "RunState",
    "check_file",
    "check_raw_rows",
    "check_sentence",
    "edeprel_is_valid",
    "has_enhanced_layer",
    "label_problem",
    "node_lines",
    "reachable",
    "read_with_empty_labels",
    "repair_sentence",
    "salvage_lines",
]
