"""The enhancer: copy the basic tree into DEPS, then run the rules in :data:`RULE_ORDER`.

Every rule reads the basic tree through a :class:`~eud.enhance.context.Context`
and edits ``sentence.enhanced``; rules later in the order see the edges that
earlier ones added (the case rule, last, spells labels of all of them).  Only
DEPS and empty nodes change; the validator's repair step runs on each output
sentence so the result passes ``udvalidate --level 2``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Protocol

from eud.enhance.case_labels import CaseLabels
from eud.enhance.context import Context, basic_tree_ok, label_ok
from eud.enhance.control import Control
from eud.enhance.coordination import Coordination, SharedDependents
from eud.enhance.profiles import Profile, ProfileError, find_profile, profile_style
from eud.enhance.relative import Relative
from eud.gapping.rule import Gapping
from eud.graph import ROOT, EnhancedGraph, Sentence
from eud.validate.repair import repair_sentence as _repair


def looks_valid(sentence: Sentence) -> bool:
    """A sufficient check: labels well formed, no self-loops, every node reachable from the root.

    When it says yes the validator's repair would change nothing, so the (slower)
    repair step is skipped; when it says no, repair runs.
    """
    succ: dict = {}
    for head, dep, label in sentence.enhanced:
        if head == dep or not label_ok(label):
            return False
        succ.setdefault(head, []).append(dep)
    seen = {ROOT}
    stack = [ROOT]
    while stack:
        for dep in succ.get(stack.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return len(seen) == len(sentence.words) + len(sentence.empty_nodes) + 1


class Rule(Protocol):
    """One enhancement: a name and an ``apply`` that edits the context's sentence."""

    name: str

    def apply(self, ctx: Context) -> None: ...  # pragma: no cover


class _GappingRule:
    """Adapter: the gapping rule works on the sentence and adds empty nodes."""

    name = "gapping"

    def __init__(self, profile: Profile) -> None:
        # The profile's own [gapping] table, so a profile given as a file (--profile) is obeyed too.
        self.rule = Gapping(copy_of=True, style=profile_style(profile))

    def apply(self, ctx: Context) -> None:
        self.rule.apply(ctx.sentence)


# The rule order, first to last.  Gapping goes first so that later rules treat
# its empty nodes like words; the case rule goes last so it labels every edge.
RULE_ORDER: tuple[tuple[str, Callable[[Profile], Rule]], ...] = (
    ("gapping", _GappingRule),
    ("coordination", Coordination),
    ("shared", SharedDependents),
    ("control", Control),
    ("relative", Relative),
    ("case_labels", CaseLabels),
)


class Enhancer:
    """Turn basic trees into enhanced graphs with the rules a profile enables."""

    def __init__(self, profile: Profile, *, repair: bool = True) -> None:
        self.profile = profile
        enabled = set(profile.rules)
        self.rules: list[Rule] = []
        for name, make in RULE_ORDER:
            if name not in enabled:
                continue
            self.rules.append(make(profile))
        self.repair = repair
        self.label_map = profile.label_map
        # A language whose treebanks differ: one enhancer per convention, chosen per stretch of text.
        conventions = profile.conventions
        self.conventions = conventions
        self.by_convention: dict[str, Enhancer] = {}
        for name in (conventions.default, conventions.marked) if conventions else ():
            chosen = find_profile(name)
            if chosen.conventions is not None:
                raise ProfileError(f"{profile.name}: convention {name!r} has [conventions] of its own")
            self.by_convention[name] = Enhancer(chosen, repair=repair)

    def choose(self, relations: Sequence[Iterable[str]]) -> list[Enhancer]:
        """The enhancer for each sentence of a text, given each sentence's basic relations in text order.

        Itself for every sentence, unless the profile has ``[conventions]``
        (:mod:`eud.enhance.conventions`).
        """
        if self.conventions is None:
            return [self] * len(relations)
        names = self.conventions.choose([set(rels) for rels in relations])
        return [self.by_convention[name] for name in names]

    def enhance_all(self, sentences: Sequence[Sentence]) -> list[Sentence]:
        """Enhance the sentences of one text in place (a convention is judged over neighbouring sentences)."""
        chosen = self.choose([[w.deprel for w in s.words] for s in sentences])
        return [enhancer.enhance(s) for enhancer, s in zip(chosen, sentences)]

    def enhance_stream(self, sentences: Iterable[Sentence], chunk: int = 1000) -> Iterator[Sentence]:
        """Enhanced sentences of a stream, in order, ``chunk`` at a time (memory stays flat)."""
        if self.conventions is None:
            yield from (self.enhance(s) for s in sentences)
            return
        it = iter(sentences)
        while part := list(islice(it, chunk)):
            yield from self.enhance_all(part)

    def copy_basic(self, sentence: Sentence) -> bool:
        """Start the enhanced graph as the basic tree, relabelled by the profile's map.

        Returns whether that start is valid (a tree with well-formed labels).
        """
        lmap = self.label_map
        graph = EnhancedGraph()
        add = graph.add
        labels = set()
        for w in sentence.words:
            if w.head is not None:
                label = lmap.get(w.deprel, w.deprel)
                labels.add(label)
                add((w.head, 0), (w.id, 0), label)
        sentence.enhanced = graph
        sentence.empty_nodes = []
        return all(label_ok(label) for label in labels) and basic_tree_ok(sentence)

    def enhance(self, sentence: Sentence) -> Sentence:
        """Replace the sentence's enhanced graph (and empty nodes) with the rules' output.

        With ``[conventions]`` a sentence alone is judged by its own relations; give a whole text
        to :meth:`enhance_all` or :meth:`enhance_stream` to judge it over its neighbours.
        """
        if self.conventions is not None:
            return self.choose([[w.deprel for w in sentence.words]])[0].enhance(sentence)
        sound = self.copy_basic(sentence)
        ctx = Context(sentence)
        for rule in self.rules:
            rule.apply(ctx)
        # Rules only add edges to a valid tree, or relabel with checked labels, unless
        # they say otherwise (ctx.risky) or gapping added empty nodes: only then is
        # the full check needed.
        if self.repair and (not sound or ctx.risky or sentence.empty_nodes) and not looks_valid(sentence):
            _repair(sentence)
        return sentence
