"""Relative clauses: the pronoun becomes a ``ref`` of its antecedent, which takes its role.

Implements "Relative clauses" of the UD enhanced guidelines
(universaldependencies.org/u/overview/enhanced-syntax.html).  For a clause
attached by one of the profile's relative-clause relations (``acl:relcl`` by
default), the relative word is the leftmost word of the clause, found among
the clause head and its dependents (and their dependents, for "whose dog",
"in which"), that is ``PronType=Rel`` or listed in the profile's relative
words and is not used as ``mark`` ("that" as a complementizer) nor marked
``PronType=Int`` alone.  Each enhanced edge into the relative word moves to
the antecedent (the intended cycle: "the man who left" gives
``left -nsubj-> man``) and the antecedent gets ``ref`` to the word.  A clause
coordinated with a relative clause uses the same antecedent.  The case rule
later spells the antecedent's new ``obl``/``nmod`` label with the relative
word's preposition ("the house in which I live" gives ``obl:in``).

A clause without a relative word ("the book I read") gets, where the profile
has a ``relative_gap`` table, an edge to its antecedent labelled by what the
clause lacks: the table maps "subj obj" / "subj -" / "- -" (whether the
clause has its own subject and object) to a role, learned from gold data
(English: ``obj`` when only the object is missing).

Cannot: find the real gap of a clause without a relative word (a stranded
preposition's ``obl:in`` comes out as plain ``obl``, an adjunct gap as ``obj``); handle free relatives ("what you
said"), which have no antecedent; see relative words nested deeper than
two levels.
"""

from __future__ import annotations

from eud.enhance.context import Context
from eud.enhance.profiles import Profile


class Relative:
    """Turn relative words into ``ref`` edges and give their roles to antecedents."""

    name = "relative"

    def __init__(self, profile: Profile) -> None:
        self.relcl = frozenset(profile.relcl)
        self.words = profile.relative_words
        self.no_ref = frozenset(profile.relative_skip)
        self.gap = profile.relative_gap  # "subj obj" signature of a clause -> role of its antecedent
        self.role = profile.relative_role  # pronoun's relation -> antecedent's ("where": advmod -> obl)

    def is_relative(self, ctx: Context, i: int) -> bool:
        """Whether word ``i`` can be a relative word by its features or the profile's list."""
        w = ctx.words[i]
        if w.deprel.partition(":")[0] in ("mark", "cc", "punct", "fixed", "case"):
            return False
        prontype = w.feat("PronType")
        if prontype is not None:
            kinds = prontype.split(",")
            if "Rel" in kinds:
                return True
            if "Int" in kinds:
                return False
        return w.lemma.lower() in self.words or w.form.lower() in self.words

    def find(self, ctx: Context, clause: int) -> int | None:
        """The relative word of the clause headed by ``clause``, or None."""
        found = []
        if self.is_relative(ctx, clause):
            found.append(clause)
        words = ctx.words
        for k in ctx.children[clause]:
            if words[k].deprel in self.relcl or words[k].udeprel in ("conj", "parataxis", "ccomp", "advcl", "acl"):
                continue
            if self.is_relative(ctx, k):
                found.append(k)
            for g in ctx.children[k]:
                if self.is_relative(ctx, g) and words[g].udeprel in ("nmod", "det", "obl", "advmod"):
                    found.append(g)
        if not found:
            return None
        return min(found)

    def apply(self, ctx: Context) -> None:
        """Rewire every relative clause that has a relative word."""
        words = ctx.words
        graph = ctx.sentence.enhanced
        for w in ctx.sentence.words:
            clause = w.id
            if w.deprel in self.relcl:
                antecedent = w.head
            elif w.udeprel == "conj" and words[ctx.first_conjunct(clause)].deprel in self.relcl:
                antecedent = words[ctx.first_conjunct(clause)].head
            else:
                continue
            if not antecedent:
                continue
            pron = self.find(ctx, clause)
            if pron is None:
                if self.gap:
                    self._fill_gap(ctx, clause, antecedent)
                continue
            if pron == antecedent or words[pron].deprel in self.no_ref:
                continue
            a, p = (antecedent, 0), (pron, 0)
            ctx.risky = True  # edges are removed here: let the full check look
            for head, _, label in graph.heads(p):
                if head == a:
                    continue
                graph.remove(head, p, label)
                graph.add(head, a, self.role.get(label, label))
                ctx.marker_source[(head, a)] = pron
            graph.add(a, p, "ref")

    def _fill_gap(self, ctx: Context, clause: int, antecedent: int) -> None:
        """A relative clause without a relative word: give the antecedent the role the clause lacks."""
        words = ctx.words
        own = {words[k].udeprel for k in ctx.children[clause]}
        key = ("subj" if own & {"nsubj", "csubj", "expl"} else "-") + " " + ("obj" if own & {"obj", "ccomp", "xcomp"} else "-")
        label = self.gap.get(key)
        if not label:
            return
        if label == "nsubj" and any(words[k].deprel == "aux:pass" for k in ctx.children[clause]):
            label = "nsubj:pass"
        ctx.sentence.enhanced.add((clause, 0), (antecedent, 0), label)
