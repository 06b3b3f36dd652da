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
first conjunct are shared by a later conjunct (and which dependents of the
last conjunct, after it, by earlier ones: "buy and sell stocks").  Every such
candidate has a key "KIND RELATION SIDE" (see :func:`share_candidates`): the
receiving conjunct is nominal, verbal or other; the dependent's basic
relation; and whether it stands before the coordination, inside it, after it
attached to the first conjunct, or after it attached to the last ("rnr").  A
conjunct never receives a relation it has itself (for subjects: any subject,
expletive or ``mark``, also inside its own ``xcomp``), nor anything when it is
gapped.  The profile lists the keys to share (``conj_share``); ``eud profile
learn`` keeps the keys that gold data shares at least half the time, so the
evidence the rule uses (position, the conjunct's own arguments) is weighed
per treebank.  A shared subject becomes ``nsubj:pass``/``nsubj`` by the
receiving conjunct's own auxiliary when it has one; conjoined subjects
("Mary and John came and left") are shared together.

Cannot: tell shared modifiers of nouns ("old men and women") from unshared
ones beyond what position and the key's statistics say; see subjects inside
a conjunct's own subordinate clause; undo a wrong basic attachment of the
shared word.
"""

from __future__ import annotations

from collections.abc import Iterator

from eud.enhance.context import Context
from eud.enhance.profiles import Profile, profile_style
from eud.graph import NodeId

_NOMINAL = frozenset(("NOUN", "PROPN", "PRON", "NUM", "DET"))
# never shared: the coordination's own machinery
_NEVER = frozenset(("conj", "cc", "punct", "parataxis", "root", "orphan", "reparandum", "goeswith"))
_OWN_SUBJECT_BLOCKERS = frozenset(("nsubj", "csubj", "expl", "orphan"))


class Coordination:
    """Give each conjunct the incoming edges of its first conjunct."""

    name = "coordination"

    def __init__(self, profile: Profile) -> None:
        self.skip = frozenset(profile.conj_skip)
        self.to_empty = profile_style(profile).propagate

    def apply(self, ctx: Context) -> None:
        """Propagate incoming edges to conjuncts, nearest chains first."""
        graph = ctx.sentence.enhanced
        for c in ctx.conj_words:
            w = ctx.words[c]
            first = ctx.first_conjunct(w.id)
            if first == w.id:
                continue
            node = self._target(ctx, w)
            if node is None or (node[1] and not self.to_empty):
                continue
            for head, _, label in graph.heads((first, 0)):
                if head == node or label in self.skip or label == "ref":
                    continue
                graph.add(head, node, label)

    @staticmethod
    def _target(ctx: Context, w) -> NodeId | None:
        """The node that stands for conjunct ``w``: an empty node when gapping replaced it."""
        graph = ctx.sentence.enhanced
        node = (w.id, 0)
        head = (w.head or 0, 0)
        if graph.has(head, node):
            return node
        for _, dep, label in graph.dependents(head):
            if dep[1] and label.startswith("conj") and any(d == node for _, d, _ in graph.dependents(dep)):
                return dep
        if any(h[1] for h, _, _ in graph.heads(node)):
            # A remnant whose clause gapping restored under another head (the parser hung
            # *Mary* in *ate an apple and Mary a pear* on *apple*): nothing to propagate.
            return None
        return node


def conjunct_kind(ctx: Context, i: int) -> str:
    """"nominal", "verbal" or "other": what kind of conjunct word ``i`` is, for sharing."""
    w = ctx.words[i]
    if ctx.kids(i, "cop"):
        return "verbal"
    if w.upos in _NOMINAL:
        return "nominal"
    if w.upos in ("VERB", "AUX"):
        return "verbal"
    return "other"


def coordinations(ctx: Context) -> Iterator[list[int]]:
    """Each coordination of the sentence as its conjuncts in word order, first conjunct first."""
    words = ctx.words
    firsts = {words[c].head for c in ctx.conj_words}
    for first in sorted(f for f in firsts if f and not words[f].deprel.startswith("conj")):
        out = [first]
        stack = ctx.conjuncts(first)
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(ctx.conjuncts(c))
        yield sorted(out)


def share_candidates(ctx: Context, conjs: list[int]) -> Iterator[tuple[int, int, str]]:
    """Every (conjunct, dependent, key) that could be a shared dependent of a coordination.

    ``key`` is "KIND RELATION SIDE": the receiving conjunct's kind, the
    dependent's basic relation, and where the dependent is: "before" the
    first conjunct, "inside" the coordination, "after" the last conjunct
    (attached to the first), or "rnr" (after the last conjunct and attached
    to it, shared backwards).  A conjunct that has a dependent of the same
    universal relation (for subjects: any subject, expletive or ``mark``) is
    no candidate, nor is a gapped one.  The profile lists the keys to share.
    """
    words = ctx.words
    first, last = conjs[0], conjs[-1]
    own = {c: {words[k].deprel.partition(":")[0] for k in ctx.children[c]} for c in conjs}
    for c in conjs:
        # a subject inside the conjunct's own xcomp ("tās var paslēpt") is its own too
        for k in ctx.children[c]:
            if words[k].udeprel == "xcomp" and ctx.kids(k, "nsubj", "csubj"):
                own[c].add("nsubj")
    for c in conjs[1:]:
        if "orphan" in own[c]:
            continue
        kind = conjunct_kind(ctx, c)
        for k in ctx.children[first]:
            u = words[k].udeprel
            if u in _NEVER or k in conjs or _blocked(u, own[c]):
                continue
            side = "before" if k < first else ("after" if k > last else "inside")
            yield c, k, f"{kind} {words[k].deprel} {side}"
    for k in ctx.children[last]:
        u = words[k].udeprel
        if k < last or u in _NEVER:
            continue
        for c in conjs[:-1]:
            if "orphan" not in own[c] and not _blocked(u, own[c]):
                yield c, k, f"{conjunct_kind(ctx, c)} {words[k].deprel} rnr"


def _blocked(udeprel: str, own: set[str]) -> bool:
    if udeprel in ("nsubj", "csubj"):
        return bool(own & _OWN_SUBJECT_BLOCKERS) or "mark" in own
    return udeprel in own


class SharedDependents:
    """Share the dependents the profile lists (by conjunct kind, relation and side)."""

    name = "shared"

    def __init__(self, profile: Profile) -> None:
        keys = set()
        for item in profile.conj_share:
            parts = item.split()
            # a bare relation means a verbal conjunct sharing it from before the first conjunct
            keys.add(item if len(parts) == 3 else f"verbal {item} before")
        self.keys = frozenset(keys)
        self.label_map = profile.label_map

    def apply(self, ctx: Context) -> None:
        """Add the shared-dependent edges for every coordination in the sentence."""
        if not self.keys:
            return
        words = ctx.words
        graph = ctx.sentence.enhanced
        for conjs in coordinations(ctx):
            for c, k, key in share_candidates(ctx, conjs):
                if key not in self.keys:
                    continue
                label = self.label_map.get(words[k].deprel, words[k].deprel)
                if label.startswith("nsubj") and "aux" in {words[x].udeprel for x in ctx.children[c]}:
                    # its own auxiliary decides the voice; otherwise it shares the first's
                    passive = any(words[x].deprel == "aux:pass" for x in ctx.children[c])
                    label = "nsubj:pass" if passive else "nsubj"
                node = (c, 0)
                graph.add(node, (k, 0), label)
                for j in ctx.conjuncts(k):  # "Mary and John came and left"
                    graph.add(node, (j, 0), label)
