"""Case-marked labels: ``obl:in``, ``nmod:v:loc``, ``nmod:gen``, ``advcl:if``, ``conj:and``.

Implements "Case information" and "Conjunction information" of the UD
enhanced-dependencies guidelines (universaldependencies.org/u/overview/
enhanced-syntax.html).  An edge whose full label is listed in the profile's
``compose`` table takes the lowercased lemma of the dependent's ``case``/``mark``
word (the one nearest before the dependent, or the first before it where the
profile says ``marker = "first"``; else the first after it, for postpositions); ``fixed`` words after the marker are joined with ``_``
(``obl:because_of``).  Depending on the profile the morphological ``Case`` is
added after the lemma (``obl:v:loc``) or alone when there is no marker
(``nmod:gen``).  ``conj`` takes the lemma of its ``cc`` (``conj:and``); a conjunct
without its own ``cc`` borrows the next conjunct's, as in "A, B and C".

Runs last, over every edge of the enhanced graph, so edges added by the
other rules (propagated conjuncts, relative antecedents, gapping) get their
markers too: a propagated conjunct without its own marker borrows its first
conjunct's ("in Paris and London"), and an antecedent uses its relative
pronoun's ("the house in which").

Cannot: choose between several markers the way a treebank's annotators did
when both precede the word ("out of" gives ``of``); recover markers that the
basic tree attaches elsewhere; spell markers that are not letters (``&``,
``/``), which are left out because the label syntax forbids them.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from eud.enhance.context import Context, label_ok
from eud.enhance.profiles import Profile
from eud.graph import Edge, NodeId


@lru_cache(maxsize=4096)
def _label_part(text: str) -> str | None:
    """``text`` as a label part (lowercase letters and marks, ``_`` between words), or None."""
    text = text.lower()
    for part in text.split("_"):
        if not part:
            return None
        for ch in part:
            cat = unicodedata.category(ch)
            if cat not in ("Ll", "Lm", "Lo") and cat[0] != "M":
                return None
    return text


class CaseLabels:
    """Add marker lemmas, Case values and cc lemmas to labels, as the profile says."""

    name = "case_labels"

    def __init__(self, profile: Profile) -> None:
        self.compose = profile.compose
        self.case_values = profile.case_values
        self.case_instead = profile.case_instead
        self.use_form = profile.fixed == "form"
        self.conj_cc = profile.conj_cc
        self.conj_cc_next = profile.conj_cc_next
        self.advmod_markers = profile.advmod_markers
        self.from_first = profile.conj_label_from_first
        self.first_marker = profile.marker == "first"

    def marker_word(self, ctx: Context, i: int, udeprels: tuple[str, ...]) -> int | None:
        """The marker word of word ``i``: nearest before it, else the first after it."""
        words = ctx.words
        kids = [c for c in ctx.children[i] if words[c].deprel.partition(":")[0] in udeprels]
        if not kids and self.advmod_markers and "mark" in udeprels:
            # "when they arrested ...": advcl:when, where the treebank counts such adverbs
            kids = [
                c for c in ctx.children[i]
                if c < i and words[c].udeprel == "advmod" and words[c].lemma.lower() in self.advmod_markers
            ]
        if not kids:
            return None
        before = [c for c in kids if c < i]
        if not before:
            return kids[0]
        # "for him to go": English labels the nearest marker, Dutch "om ... te" the first
        return before[0] if self.first_marker else before[-1]

    def spell(self, ctx: Context, k: int) -> str | None:
        """Marker word ``k`` (with its ``fixed`` words) as a label part, or None."""
        words = ctx.words
        marker = words[k]
        text = marker.lemma if marker.lemma != "_" else marker.form
        fixed = [c for c in ctx.children[k] if words[c].deprel == "fixed"]
        if fixed:
            first = marker.form if self.use_form else text
            rest = [words[c].form if self.use_form else words[c].lemma for c in fixed]
            text = "_".join([first] + rest)
        return _label_part(text)

    def marker(self, ctx: Context, i: int, udeprels: tuple[str, ...]) -> str | None:
        """The marker word of word ``i`` spelt as a label part, or None."""
        k = self.marker_word(ctx, i, udeprels)
        return None if k is None else self.spell(ctx, k)

    def compose_label(self, ctx: Context, edge: Edge) -> str | None:
        """The composed label of one edge, or None when it stays as it is."""
        head, dep, label = edge
        udeprel = label.partition(":")[0]
        if dep[1] != 0:
            if udeprel == "conj" and self.conj_cc and label == "conj":
                return self._empty_conj_label(ctx, dep)
            return None
        if udeprel == "conj":
            if not self.conj_cc or label != "conj":
                return None
            return self._conj_label(ctx, dep[0])
        spec = self.compose.get(label)
        if spec is None:
            return None
        words = ctx.words
        src = ctx.marker_source.get((head, dep), dep[0])
        propagated = src == dep[0] and words[src].head != head[0] and words[src].udeprel == "conj"
        if propagated:
            first = ctx.first_conjunct(src)
            if self.from_first and words[first].head == head[0] and first != src:
                # the treebank copies the first conjunct's label as it is ("v rozsahu, na úrovni")
                return self.compose_label(ctx, Edge(head, (first, 0), label))
        marked, unmarked = spec
        udeps = ("case", "mark")
        k = self.marker_word(ctx, src, udeps)
        if k is None and propagated:
            k = self.marker_word(ctx, ctx.first_conjunct(src), udeps)
        mark = None if k is None else self.spell(ctx, k)
        case = words[dep[0]].feat("Case")
        if case is None and k is not None:
            case = words[k].feat("Case")  # an indeclinable noun: the preposition's case
        if case is not None and case not in self.case_values.get(udeprel, self.case_values.get("", ())):
            case = None
        if mark is not None and case is not None and mark in self.case_instead:
            return f"{label}:{case.lower()}"
        if mark is not None and marked != "none":
            if marked == "lemma+case" and case is not None:
                return f"{label}:{mark}:{case.lower()}"
            return f"{label}:{mark}"
        if mark is None and unmarked == "case" and case is not None:
            return f"{label}:{case.lower()}"
        return None

    def _empty_conj_label(self, ctx: Context, node: NodeId) -> str | None:
        # an empty node (restored predicate) has its cc in the enhanced graph only
        for _, d, lab in ctx.sentence.enhanced.dependents(node):
            if lab == "cc" and d[1] == 0:
                w = ctx.words[d[0]]
                cc = _label_part(w.lemma if w.lemma != "_" else w.form)
                if cc:
                    return f"conj:{cc}"
        return None

    def _conj_label(self, ctx: Context, i: int) -> str | None:
        cc = self.marker(ctx, i, ("cc",))
        if cc is None and self.conj_cc_next:
            # "A, B and C": B takes the cc of a later conjunct of the same head
            head = ctx.words[i].head or 0
            for later in ctx.conjuncts(head):
                if later > i:
                    cc = self.marker(ctx, later, ("cc",))
                    if cc is not None:
                        break
        return f"conj:{cc}" if cc else None

    def apply(self, ctx: Context) -> None:
        """Relabel every edge of the enhanced graph that the profile composes."""
        graph = ctx.sentence.enhanced
        wanted = self.compose.keys() | ({"conj"} if self.conj_cc else set())
        for edge in [e for e in graph if e.label in wanted]:
            new = self.compose_label(ctx, edge)
            if new is not None and new != edge.label:
                if not label_ok(new):
                    ctx.risky = True
                graph.remove(*edge)
                graph.add(edge.head, edge.dep, new)
