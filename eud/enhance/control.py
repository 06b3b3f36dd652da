"""Controlled and raised subjects: ``nsubj:xsubj`` edges into ``xcomp`` predicates.

Implements "Controlled/raised subjects" of the UD enhanced guidelines
(universaldependencies.org/u/overview/enhanced-syntax.html).  For every
``xcomp`` edge of the enhanced graph (so conjoined xcomps, propagated by the
coordination rule, are covered) whose predicate has no subject of its own,
the controller is

* the matrix ``obj`` (else ``iobj``) when the matrix lemma is an
  object-control verb of the profile, or when the matrix has an object and
  its lemma is not listed as subject control ("asked him to leave",
  "made him leave", "consider him a fool");
* otherwise every subject of the matrix (``nsubj*``/``csubj*``), including
  subjects the matrix itself got by control, so chains of nested xcomps
  ("wants to try to leave") reach the top.

The new edge is ``nsubj:xsubj`` (or plain ``nsubj``, as the profile says), with
``:pass`` when the xcomp is passive ("wants to be paid"), and ``csubj`` when
the controller is a clausal subject.

Cannot: find controllers that are not dependents of the matrix in the tree
(arbitrary control, "it is hard to leave"), tell object from subject control
for verbs the profile does not list, or see through ``ccomp`` boundaries.
"""

from __future__ import annotations

from eud.enhance.context import Context
from eud.enhance.profiles import Profile
from eud.graph import NodeId


class Control:
    """Link the subject of each xcomp predicate to its controller."""

    name = "control"

    def __init__(self, profile: Profile) -> None:
        self.object_control = profile.object_control
        self.subject_control = profile.subject_control
        self.no_control = profile.no_control
        self.xsubj = profile.xsubj.endswith(":xsubj")
        self.by_xcomp = profile.xsubj_by_xcomp

    def apply(self, ctx: Context) -> None:
        """Add controlled subjects, resolving matrix subjects first."""
        graph = ctx.sentence.enhanced
        if not any(w.deprel.startswith("xcomp") for w in ctx.sentence.words):
            return
        pending = [e for e in graph if e.label.partition(":")[0] == "xcomp" and e.dep[1] == 0 and e.head != (0, 0)]
        if not pending:
            return
        done: set[tuple[NodeId, NodeId]] = set()

        def resolve(head: NodeId, dep: NodeId, depth: int = 0) -> None:
            if (head, dep) in done or depth > 10:
                return
            done.add((head, dep))
            # a matrix that is itself a controlled xcomp must get its subject first
            for e in pending:
                if e.dep == head:
                    resolve(e.head, e.dep, depth + 1)
            self._link(ctx, head, dep)

        for e in pending:
            resolve(e.head, e.dep)

    def _link(self, ctx: Context, head: NodeId, dep: NodeId) -> None:
        graph = ctx.sentence.enhanced
        words = ctx.words
        if any(lab.startswith(("nsubj", "csubj")) for _, _, lab in graph.dependents(dep)) or any(
            words[c].udeprel in ("nsubj", "csubj") for c in ctx.children[dep[0]]
        ):
            return
        matrix = ctx.sentence.node(head)
        lemma = matrix.lemma
        if lemma in self.no_control:
            return
        out = graph.dependents(head)
        objects = [e for e in out if e.label == "obj"] or [e for e in out if e.label == "iobj"]
        use_object = bool(objects) and (lemma in self.object_control or lemma not in self.subject_control)
        if use_object:
            controllers = [(e.dep, "nsubj") for e in objects]
        else:
            controllers = [
                (e.dep, e.label.partition(":")[0]) for e in out if e.label.startswith(("nsubj", "csubj")) and e.dep != dep
            ]
        if not controllers:
            return
        passive = dep[1] == 0 and any(words[c].deprel == "aux:pass" for c in ctx.children[dep[0]])
        special = self.by_xcomp.get(words[dep[0]].deprel) if dep[1] == 0 else None
        for node, base in controllers:
            if node == dep:
                continue
            label = base + (":pass" if passive else "") + (":xsubj" if self.xsubj else "")
            if special and base == "nsubj" and not passive:
                label = special  # e.g. Ukrainian xcomp:pred -> nsubj:pred
            graph.add(dep, node, label)
