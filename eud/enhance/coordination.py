"""Coordination: conjuncts inherit the parent of the first conjunct, and share dependents.

Implements "Propagation of incoming dependencies to conjuncts" and
"Propagation of outgoing dependencies from conjuncts" of the UD enhanced
guidelines (universaldependencies.org/u/overview/enhanced-syntax.html).

:class:`Coordination` gives every later conjunct each incoming enhanced edge
of its first conjunct, with the same label (the case rule, which runs later,
re-derives ``obl:*``/``nmod:*`` suffixes from each conjunct's own markers).
Labels listed in the profile's ``conj_skip`` (``root`` for treebanks that do
not propagate it) are left alone.

:class:`SharedDependents` decides from the basic tree which dependents of the
first conjunct are shared by a later verbal conjunct:

* a subject (``nsubj``, ``nsubj:pass``, ``csubj``) that precedes the first
  conjunct goes to every later conjunct that has no subject of its own (and no
  ``expl``, ``mark`` or ``orphan``); it becomes ``nsubj:pass`` when the later
  conjunct is passive (has ``aux:pass``) and ``nsubj`` when the first was
  passive and the later is not;
* an object that follows the last conjunct ("buy and sell stocks") goes to
  every earlier verbal conjunct without an object of its own;
* other relations listed in ``conj_share`` (``aux`` in some treebanks) go to
  a later conjunct that lacks that relation, when they precede the first
  conjunct.

Cannot: tell shared modifiers of nouns ("old men and women") from unshared
ones, so it does not share them; see subjects inside a conjunct's own
subordinate clause; undo a wrong basic attachment of the shared word.
"""

from __future__ import annotations

from eud.enhance.context import Context
from eud.enhance.profiles import Profile
from eud.graph import NodeId

_SUBJECTS = ("nsubj", "csubj")
_OWN_SUBJECT_BLOCKERS = frozenset(("nsubj", "csubj", "expl", "orphan"))


class Coordination:
    """Give each conjunct the incoming edges of its first conjunct."""

    name = "coordination"

    def __init__(self, profile: Profile) -> None:
        self.skip = frozenset(profile.conj_skip)

    def apply(self, ctx: Context) -> None:
        """Propagate incoming edges to conjuncts, nearest chains first."""
        graph = ctx.sentence.enhanced
        for w in ctx.sentence.words:
            if w.udeprel != "conj":
                continue
            first = ctx.first_conjunct(w.id)
            if first == w.id:
                continue
            node = self._target(ctx, w)
            for head, _, label in graph.heads((first, 0)):
                if head == node or label in self.skip or label == "ref":
                    continue
                graph.add(head, node, label)

    @staticmethod
    def _target(ctx: Context, w) -> NodeId:
        """The node that stands for conjunct ``w``: an empty node when gapping replaced it."""
        graph = ctx.sentence.enhanced
        node = (w.id, 0)
        head = (w.head or 0, 0)
        if graph.has(head, node):
            return node
        for _, dep, label in graph.dependents(head):
            if dep[1] and label.startswith("conj") and any(d == node for _, d, _ in graph.dependents(dep)):
                return dep
        return node


class SharedDependents:
    """Share subjects, objects and listed relations between verbal conjuncts."""

    name = "shared"

    def __init__(self, profile: Profile) -> None:
        self.share = frozenset(profile.conj_share)
        self.subjects = {"nsubj", "nsubj:pass", "csubj", "csubj:pass"} & self.share or set()
        self.share_obj = "obj" in self.share
        self.others = self.share - {"nsubj", "nsubj:pass", "csubj", "csubj:pass", "obj"}

    def apply(self, ctx: Context) -> None:
        """Add the shared-dependent edges for every coordination in the sentence."""
        words = ctx.words
        graph = ctx.sentence.enhanced
        for w in ctx.sentence.words:
            if w.udeprel == "conj" or not ctx.kids(w.id, "conj"):
                continue
            first = w.id
            conjs = self._chain(ctx, first)
            first_kids = ctx.children[first]
            # enhanced, so that conjoined subjects ("Mary and John came and left") all count
            subjects = [
                (d[0], lab) for _, d, lab in graph.dependents((first, 0))
                if lab in self.subjects and d[1] == 0 and d[0] < first
            ]
            objects = []
            if self.share_obj:
                last = conjs[-1]
                objects = [k for k in ctx.children[last] if words[k].deprel == "obj" and k > last]
                objects += [k for k in first_kids if words[k].deprel == "obj" and k > last]
            for c in conjs[1:]:
                node = (c, 0)
                if words[c].upos in ("NOUN", "PROPN", "PRON", "NUM") and not ctx.kids(c, "cop"):
                    continue  # nominal conjuncts share nothing here
                own_kids = ctx.children[c]
                own = {words[k].deprel.partition(":")[0] for k in own_kids}
                if "orphan" in own:
                    continue  # a gapped conjunct: its remnants are its own dependents
                if subjects and not own & _OWN_SUBJECT_BLOCKERS and "mark" not in own:
                    has_aux = "aux" in own
                    passive = any(words[k].deprel == "aux:pass" for k in own_kids)
                    for s, label in subjects:
                        if has_aux and label.startswith("nsubj"):
                            # its own auxiliary decides the voice; otherwise it shares the first's
                            label = "nsubj:pass" if passive else "nsubj"
                        graph.add(node, (s, 0), label)
                for o in self.others:
                    if o in own:
                        continue
                    for k in first_kids:
                        if words[k].deprel == o and k < first:
                            graph.add(node, (k, 0), o)
            for o in objects:
                for c in conjs:
                    if c == words[o].head or words[c].upos != "VERB" or ctx.kids(c, "obj", "ccomp", "xcomp"):
                        continue
                    graph.add((c, 0), (o, 0), "obj")

    @staticmethod
    def _chain(ctx: Context, first: int) -> list[int]:
        """The first conjunct and all conjuncts below it, in word order."""
        out = [first]
        stack = ctx.conjuncts(first)
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(ctx.conjuncts(c))
        return sorted(out)
