"""Check enhanced graphs the way UD's level-2 validation (``udvalidate --level 2``) does.

:func:`check_sentence` checks a :class:`~eud.graph.Sentence` (what every writer
in eud calls on its output): self-loops, relation labels, empty-node numbering
and columns, heads that point nowhere, the two root-label rules, and that every
node is reachable from the root through the enhanced graph.

The reader keeps the graph but not the raw DEPS cells, so what only the text
shows (DEPS syntax and order, repeated entries, empty-node placement) is checked
on the raw lines by :mod:`eud.validate.rows`; :mod:`eud.validate.files` checks
whole files and is ``eud validate``.

Test ids are udvalidate's own, so results can be compared one to one.  The two
root rules (``enhanced-0-is-not-root``, ``enhanced-root-is-not-0``) are level 3
in udvalidate; they are checked here too (``Problem.level`` says so) because
every graph eud writes must satisfy them.  ``edeps-only-sometimes`` needs the
whole file and is checked by :func:`eud.validate.files.check_file`.  The basic
tree, features, MISC and sentence metadata are not checked here: this module is
about the enhanced layer (``eud validate`` gets the rest from UD's own checks,
:mod:`eud.validate.official`).
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from eud.graph import ROOT, NodeId, Sentence, format_id

# The 37 universal relations, plus "ref", which only the enhanced graph uses.
UNIVERSAL_RELATIONS = frozenset(
    ["acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "clf", "compound", "conj", "cop", "csubj", "dep", "det", "discourse", "dislocated", "expl", "fixed", "flat", "goeswith", "iobj", "list", "mark", "nmod", "nsubj", "nummod", "obj", "obl", "orphan", "parataxis", "punct", "reparandum", "root", "vocative", "xcomp", "ref"]
)

# Test ids that concern the enhanced layer (the ones eud checks), with their udvalidate level.
ENHANCED_TESTIDS: dict[str, int] = {
    "invalid-deps": 2,
    "invalid-ehead": 2,
    "unknown-ehead": 2,
    "unsorted-deps": 2,
    "unsorted-deps-2": 2,
    "repeated-deps": 2,
    "deps-self-loop": 2,
    "invalid-edeprel": 2,
    "unknown-eudeprel": 2,
    "empty-node-nonempty-field": 2,
    "misplaced-empty-node": 1,
    "unconnected-egraph": 2,
    "edeps-only-sometimes": 2,
    "enhanced-0-is-not-root": 3,
    "enhanced-root-is-not-0": 3,
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One validation finding: udvalidate's test id, a message, and where it is."""

    testid: str
    message: str
    node: NodeId | None = None
    line: int | None = None
    udlevel: int | None = None  # set on udvalidate's own findings (eud.validate.official)

    @property
    def level(self) -> int:
        """The udvalidate level of this test (eud-only tests count as level 2)."""
        return self.udlevel or ENHANCED_TESTIDS.get(self.testid, 2)

    def format(self, source: str | None) -> str:
        """``file:line: [testid] message``, as ``eud validate`` prints it."""
        return f"{source or '<input>'}:{self.line if self.line is not None else '?'}: [{self.testid}] {self.message}"


# -- labels ------------------------------------------------------------------

_LETTER_CATEGORIES = frozenset(("Ll", "Lm", "Lo", "Mn", "Mc", "Me"))


def _is_ascii_lower(part: str) -> bool:
    return bool(part) and part.isascii() and part.isalpha() and part.islower()


def _is_unicode_part(part: str) -> bool:
    # Lowercase/caseless letters and marks, single underscores between them.
    if not part:
        return False
    for chunk in part.split("_"):
        if not chunk or any(unicodedata.category(c) not in _LETTER_CATEGORIES for c in chunk):
            return False
    return True


def edeprel_is_valid(label: str) -> bool:
    """Whether an enhanced relation is well formed: ``udeprel[:subtype][:prep][:case]``.

    The universal part and the subtype and case are ASCII lowercase; the one
    optional lexical part (a preposition or case marker) may hold any lowercase or
    caseless letters with single underscores inside, as UD's validator allows.
    """
    first, *rest = label.split(":")
    if not _is_ascii_lower(first) or len(rest) > 3:
        return False
    if len(rest) <= 1:
        return not rest or _is_unicode_part(rest[0])
    if len(rest) == 2:
        return (_is_ascii_lower(rest[0]) and _is_unicode_part(rest[1])) or (
            _is_unicode_part(rest[0]) and _is_ascii_lower(rest[1])
        )
    return _is_ascii_lower(rest[0]) and _is_unicode_part(rest[1]) and _is_ascii_lower(rest[2])


@functools.lru_cache(maxsize=8192)
def label_problem(label: str) -> str | None:
    """The test id that an enhanced relation label fails, or None when it is fine."""
    # Cached: a treebank uses a few hundred labels, and this runs on every edge eud writes.
    if not edeprel_is_valid(label):
        return "invalid-edeprel"
    if label.partition(":")[0] not in UNIVERSAL_RELATIONS:
        return "unknown-eudeprel"
    return None


# -- the graph -----------------------------------------------------------------


def node_lines(sentence: Sentence) -> dict[NodeId, int]:
    """The file line of every word and empty node, as :func:`eud.conllu.format_sentence` writes them.

    Empty when the sentence does not know its line (it was built in code).
    """
    if sentence.line is None:
        return {}
    line = sentence.line + len(sentence.comments)
    token_starts = {t.first for t in sentence.tokens}
    out: dict[NodeId, int] = {}
    for node in sentence.nodes():
        if node[1] == 0 and node[0] in token_starts:
            line += 1
        out[node] = line
        line += 1
    return out


def reachable(sentence: Sentence, start: NodeId = ROOT, seen: set[NodeId] | None = None) -> set[NodeId]:
    """Every node reachable from ``start`` through the enhanced graph (``start`` included).

    With ``seen``, that set is extended in place (and returned): nodes already in
    it are not walked again.
    """
    graph = sentence.enhanced
    seen = set() if seen is None else seen
    seen.add(start)
    stack = [start]
    while stack:
        for edge in graph.dependents(stack.pop()):
            if edge.dep not in seen:
                seen.add(edge.dep)
                stack.append(edge.dep)
    return seen


def has_enhanced_layer(sentence: Sentence) -> bool:
    """Whether the sentence has any trace of an enhanced graph (edges or empty nodes)."""
    return bool(sentence.enhanced) or bool(sentence.empty_nodes)


def _check_empty_nodes(sentence: Sentence, add) -> None:
    n_words = len(sentence.words)
    expected: dict[int, int] = {}
    for empty in sorted(sentence.empty_nodes, key=lambda e: e.node):
        want = expected.get(empty.major, 0) + 1
        expected[empty.major] = want
        if not 0 <= empty.major <= n_words or empty.minor != want:
            add(
                "misplaced-empty-node",
                f"empty node {empty.id} is misnumbered: expected {empty.major}.{want} "
                f"(numbering restarts at 1 after each of the words 0..{n_words})",
                empty.node,
            )
        for column, value in (("HEAD", empty.head), ("DEPREL", empty.deprel)):
            if value != "_":
                add("empty-node-nonempty-field", f"empty node {empty.id} must have '_' in {column}, not {value!r}", empty.node)


def check_sentence(sentence: Sentence) -> list[Problem]:
    """Check the enhanced layer of one sentence; an empty list means it is valid.

    A sentence with neither enhanced edges nor empty nodes has no enhanced layer,
    which UD allows (but not in some sentences of a file only: see
    :func:`eud.validate.files.check_file`).
    """
    found: list[tuple[str, str, NodeId | None]] = []

    def add(testid: str, message: str, node: NodeId | None = None) -> None:
        found.append((testid, message, node))

    if sentence.empty_nodes:
        _check_empty_nodes(sentence, add)
    if has_enhanced_layer(sentence):
        _check_graph(sentence, add)
    if not found:
        return []
    # Line numbers only once something is wrong: this runs on every sentence eud writes.
    lines = node_lines(sentence)
    first_line = None if sentence.line is None else sentence.line + len(sentence.comments)
    problems = [Problem(t, m, n, lines.get(n, first_line) if n else first_line) for t, m, n in found]
    problems.sort(key=lambda p: (p.line if p.line is not None else -1))
    return problems


def _where(head: NodeId, dep: NodeId, label: str) -> str:
    return f"{format_id(head)}:{label} of {format_id(dep)}"


def _check_graph(sentence: Sentence, add) -> None:
    graph = sentence.enhanced
    nodes = sentence.nodes()
    known = set(nodes)
    known.add(ROOT)
    self_loops: list[NodeId] = []
    for head, dep, label in graph:
        if dep not in known:
            add("unknown-edep", f"edge {format_id(head)}→{format_id(dep)} ({label}) goes to a node not in the sentence")
            continue
        if head == dep:
            if dep not in self_loops:
                self_loops.append(dep)
        elif head not in known:
            add("unknown-ehead", f"enhanced head {format_id(head)} of {format_id(dep)} is not in the sentence", dep)
        bad = label_problem(label)
        if bad == "invalid-edeprel":
            add(bad, f"invalid enhanced relation {_where(head, dep, label)}", dep)
        elif bad:
            add(bad, f"unknown universal relation {label.partition(':')[0]!r} in {_where(head, dep, label)}", dep)
        is_root = label == "root" or label.startswith("root:")
        if head == ROOT and not is_root:
            add("enhanced-0-is-not-root", f"an edge from the root must be labelled root: {_where(head, dep, label)}", dep)
        elif head != ROOT and is_root:
            add("enhanced-root-is-not-0", f"only an edge from the root may be labelled root: {_where(head, dep, label)}", dep)
    for node in self_loops:
        add("deps-self-loop", f"{format_id(node)} is its own enhanced head", node)
    seen = reachable(sentence)
    if len(seen) <= len(nodes):
        unreachable = [node for node in nodes if node not in seen]
        ids = ", ".join(format_id(n) for n in unreachable)
        add("unconnected-egraph", f"enhanced graph is not connected: {ids} not reachable from the root", unreachable[0])
