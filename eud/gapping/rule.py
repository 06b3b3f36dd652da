"""Gapping and other ellipsis: restore the elided predicate as an empty node.

In a basic UD tree an elided predicate leaves its clause headless: one remnant
is promoted to head the clause and the others hang from it as ``orphan``
(https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis).
The enhanced representation undoes this
(https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis):
an empty node stands for the missing predicate, takes the relation the
predicate would have had, and every remnant hangs from it with the relation it
would have had, e.g. for *Mary won gold and Peter bronze*::

    1 Mary    2:nsubj              4 and    5.1:cc
    2 won     0:root               5 Peter  5.1:nsubj
    3 gold    2:obj                5.1 won  2:conj   (CopyOf=2)
                                   6 bronze 5.1:obj

For each word P with ``orphan`` children (the promoted remnant) this rule

* adds an empty node E copying FORM, LEMMA, UPOS, XPOS and FEATS of the
  pronounced predicate A (P's basic head when P is a ``conj``; for a chain of
  gapped conjuncts, the first pronounced one; the verb above that head when
  P conjoins a noun argument and the remnants fit the verb better, as in
  *seen in one study and in another after two years*; the head of a
  ``parataxis``, ``reparandum`` or ``advcl`` that echoes it), with ``CopyOf=A``.
  Without an antecedent (a promoted ``root``, ...) no empty node is made and the
  ``orphan`` edges stay, unless the profile's ``unanchored`` asks for a bare ``VERB``;
* gives E P's incoming edge (``A -conj-> E``, ``0 -root-> E``, ...);
* labels P and its orphans by aligning each with a *correlate* among A's
  dependents (:mod:`eud.gapping.correlates`): same UPOS class, same case/mark
  words, same ``Case`` feature (a different Case rules a pair out), same
  lemma, same relative order.  The label is the correlate's universal
  relation plus any subtype that is not a case marker (``nsubj:pass``,
  ``obl:arg``); the case rule, which runs later, adds ``obl:in`` and the
  like.  A remnant with no correlate gets a spare core relation of A (a bare
  nominal), or a label guessed from itself
  (:func:`~eud.gapping.correlates.label_from_form`: ADV → advmod, adposition
  or oblique case → obl, Nom → nsubj, Acc/Par → obj, Dat → iobj, non-finite
  verb → xcomp, ...).  ``dep`` is never emitted, not even where a correlate
  is itself ``dep``;
* with ``nested`` (English), adds one more empty node for each predicate
  between A and a remnant's correlate when that correlate is a dependent of
  A's ``xcomp``, ``advcl`` or ``ccomp`` (up to three levels down): *Mary wants
  to buy a book and Jenny a CD* gives ``E1 -xcomp-> E2 -obj-> CD``, as in the
  guidelines' second example (:meth:`Gapping._deeper`);
* with ``promoted`` (English), also aligns a remnant with a modifier
  (amod, nmod, nummod) of one of A's nominal arguments, the argument's noun
  being elided with the verb: the remnant is then promoted over that noun
  and takes its relation, as the guidelines promote a dependent over an
  elided head (*the first team scored in May and the second in June*:
  *second* is ``nsubj``);
* moves P's clause-level dependents (cc, punct, mark, discourse, vocative,
  verb conjuncts, and anything a predicate rather than a nominal takes) to E;
  P keeps its nominal dependents (det, amod, case, nmod, ...);
* shares A's subject with E when no remnant is a subject
  (*Mary met him in Rio and her in London*), in GUM's style A's
  auxiliaries too, and with ``share_obj`` (English) A's ``obj``, ``xcomp``
  and ``expl`` when no remnant takes their place, and its particle
  (``compound:prt``, *give up*), as the guidelines share
  the dependents of coordinated verbs (each nested empty node likewise from
  the predicate it copies).

Treebanks differ in where E goes and which edges move: the ``[gapping]`` table
of a language profile (``converters/lv.toml``) holds the conventions measured
on the gold data as :class:`Style` fields (``eud.enhance.profiles.language_style("lv")``
reads it); the default puts E after the first remnant's phrase, as the guidelines'
example does.

It cannot handle: ellipsis without ``orphan`` (a single remnant, as in *so did
Mary* or sluicing, or gapped nominals annotated with plain ``conj``), about a
third of the gold empty nodes; several elided words (GUM's copies of elided
auxiliaries, articles and prepositions); correlates below A without
``nested`` (the UD treebanks mostly annotate a single empty node there) or
in two branches below A at once; the controlled subject of a nested empty
node (the guidelines' *Jenny* is also ``nsubj`` of E2; the GAPPING corpus
leaves it out); and the roles of bare nominals with no case and no order cue
(*found the room nice and the staff kind*: *staff* is taken for a subject).
Czech and Slovak gold graphs label remnants ``dep``; this rule deliberately
does not.  Conjunct propagation (E's other incoming edges, conjuncts of a
remnant) is left to the coordination rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from eud.gapping.correlates import (
    CORE,
    STRUCTURAL,
    BasicTree,
    Pairing,
    align,
    alignment_score,
    label_from_correlate,
    label_from_form,
    pair_score,
    pos_class,
)
from eud.graph import NodeId, Sentence, Word

# Relations a clause head takes but a nominal does not: these dependents of
# the promoted remnant belong to the restored predicate.
CLAUSAL = {
    "cc", "punct", "mark", "orphan", "discourse", "vocative", "aux", "cop",
    "nsubj", "csubj", "obj", "iobj", "obl", "expl", "ccomp", "xcomp", "advcl",
    "parataxis", "dislocated", "reparandum",
}
# Dependents of the pronounced predicate that cannot be correlates of a remnant.
NOT_CORRELATE = {
    "conj", "cc", "punct", "parataxis", "root", "reparandum", "goeswith", "orphan", "dep",
    "compound", "flat", "fixed", "appos", "list",
}
OPENING = {'"', "'", "“", "„", "«", "‘", "‚", "(", "[", "{", "``", "`"}
# Dependents of the antecedent that the empty node shares when no remnant
# takes their place ("Mary won gold in Rio and silver in London").
SHARED = {"nsubj", "csubj"}
# With Style.share_obj, also the complements and the expletive.
SHARED_OBJ = {"obj", "xcomp", "expl"}
# With Style.share_obj, also a phrasal verb's particle: it is elided with the verb
# ("Brazil would give up 500,000 bags and Colombia 200,000 bags").
SHARED_PARTICLE = "compound:prt"
# Relations of a gapped clause that echoes its head's predicate: the head is the antecedent
# ("the X has 6400, the Y only 3200"; an adverbial clause of contrast or comparison,
# "A is marked by loss, while B by gain", "more apples than Mary pears").
ECHOING = {"parataxis", "reparandum", "advcl"}
# Relations by which a nominal antecedent can stand in a verb's clause.
ARGUMENTS = {"nsubj", "obj", "iobj", "obl", "xcomp", "advmod"}
# Dependents that make a nominal a predicate.
CLAUSE_MARKS = {"cop", "nsubj", "csubj", "aux", "obj", "iobj", "ccomp", "xcomp", "advcl", "expl"}
# Dependents of a nominal; correlates only when the antecedent is not verbal.
NOMINAL_DEPS = {"det", "amod", "nummod", "nmod", "case", "acl", "clf"}
# Punctuation that can stand in for the elided verb: the empty node goes after it.
VERB_PUNCT = {"-", "–", "—", ":", "--"}
# Relations of a predicate below the antecedent that can be elided with it
# ("Mary wants to buy a book and Jenny a CD": wants and buy), and how deep.
CHAIN = {"xcomp", "advcl", "ccomp"}
MAX_LEVELS = 3
# What pairing a remnant with a correlate below the antecedent costs in alignment score.
LEVEL_COST = 0.5
# A remnant may contrast with a modifier of the antecedent's nominal argument, the
# nominal being elided in the gapped clause with the verb: such modifiers, and
# the relations of the nominals they stand for.
PROMOTED = {"amod", "nmod", "nummod"}
PROMOTED_HEADS = {"nsubj", "obj", "iobj", "obl"}


@dataclass(frozen=True)
class Style:
    """Where a treebank puts the empty node and which edges it moves to it."""

    # "first_phrase": after the first remnant and its dependents; "first_word":
    # right after the first remnant; "promoted_word": right after the promoted
    # remnant; "before_first": just before the first remnant's phrase;
    # "mirror": where the antecedent's verb stands among its correlates.
    place: str = "first_phrase"
    # Also step over a dash or colon that stands where the verb would be.
    dash: bool = True
    # Clause-level dependents of the promoted remnant (and its own incoming
    # edge) are copied to the empty node rather than moved.
    keep: bool = False
    # Punctuation goes to the empty node (otherwise it stays on the remnant).
    punct: bool = True
    # With punct: also the punctuation after the promoted remnant (GAPPING keeps
    # that on the remnant: it closes an apposition or a parenthesis).
    punct_after: bool = True
    # With punct: also when the antecedent heads an embedded clause (GAPPING
    # moves it for a main-clause antecedent only: 33 of 41 vs 3 of 13).
    punct_embedded: bool = True
    # The antecedent's auxiliaries also hang from the empty node (GUM).
    aux: bool = False
    # Its object, xcomp and expletive too, when no remnant takes their place (the
    # GAPPING corpus: obj 14 of 16 in train+dev, xcomp 2 of 2, expl 6 of 6; GUM
    # train obj 0 of 3, lv_lvtb dev 0 of 4).
    share_obj: bool = False
    # Conjunct propagation also gives the empty node its antecedent's incoming
    # relations (``acl``, ``ccomp``, ...), not only ``conj`` (read by the
    # coordination rule).  EWT, GUM and the GAPPING corpus mostly do not.
    propagate: bool = True
    # Subtracted per correlate skipped between matched ones (see correlates.align).
    skip_penalty: float = 0.0
    # Subtracted from pairing a remnant that is no pronoun with a first- or second-person pronoun,
    # the speaker or the hearer being shared by both clauses (see correlates.pair_score).
    person_cost: float = 0.0
    # Lemma pairs made to contrast, written "some/other": a remnant and a correlate that make one
    # pair up first (see correlates.Pairing).
    contrasts: tuple[str, ...] = ()
    # Pronoun lemmas that cannot carry contrast, so pair with no remnant but their own lemma (see correlates.Pairing).
    unstressed: tuple[str, ...] = ()
    # Remnants whose correlates sit below the antecedent (in its xcomp, ...) hang
    # from one more empty node for each elided predicate (Gapping._deeper), as in
    # the guidelines and the GAPPING corpus; the UD treebanks mostly do not.
    nested: bool = False
    # A remnant may pair with a modifier of the antecedent's nominal argument and
    # take that argument's relation (the elided nominal's, to which it is promoted).
    promoted: bool = False
    # A clause with no antecedent still gets an empty node, with no form, lemma or CopyOf, for a
    # predicate the text never pronounced (lv_lvtb's *Kā tu tā?*); otherwise it gets none, since an
    # empty node copies a word, and its orphan edges stay.
    unanchored: bool = False

    @cached_property
    def pairing(self) -> Pairing:
        """The profile's additions to remnant-correlate scores (:class:`~eud.gapping.correlates.Pairing`)."""
        pairs = frozenset(frozenset(pair.lower().split("/")) for pair in self.contrasts)
        return Pairing(person_cost=self.person_cost, contrasts=pairs,
                       unstressed=frozenset(lemma.lower() for lemma in self.unstressed))


PLACES = ("first_phrase", "first_word", "promoted_word", "before_first", "mirror")


class Alignment(NamedTuple):
    """One gapped clause as the rule reads it: ``correlates[i]`` is ``remnants[i]``'s (None: it has none).

    ``lifted``: the promoted remnant hangs on a nominal argument, and the elided predicate is
    that argument's verb (:meth:`Gapping._lift`); the argument is the promoted remnant's correlate.
    ``antecedent``: the predicate of the full clause that the empty node copies (None: not found).
    """

    promoted: Word
    remnants: list[Word]
    correlates: list[Word | None]
    lifted: bool
    antecedent: Word | None = None


def _crossings(matched: list[Word | None]) -> int:
    """Pairs of remnants whose correlates come in the opposite order."""
    ids = [c.id for c in matched if c is not None]
    return sum(1 for i, a in enumerate(ids) for b in ids[i + 1:] if b < a)


class Gapping:
    """Enhancer rule: an empty node for each predicate elided under ``orphan``."""

    name = "gapping"

    def __init__(self, *, copy_of: bool = True, style: Style | None = None) -> None:
        self.copy_of = copy_of
        # A language's style comes from its profile (eud.enhance.profiles.language_style).
        if style is None:
            style = Style()
        if style.place not in PLACES:
            raise ValueError(f"style.place must be one of {', '.join(PLACES)}, not {style.place!r}")
        self.style = style

    def apply(self, sentence: Sentence) -> None:
        """Rewrite ``sentence.enhanced`` (a copy of the basic tree) for every gapped clause."""
        words = sentence.words
        groups = self._groups(words)
        if not groups:
            return
        tree = BasicTree(sentence)
        restored: dict[int, NodeId] = {}
        # Outer clauses first, so that an inner one can hang from their empty node.
        for p in sorted(groups, key=lambda i: (self._depth(words, i), i)):
            node = self._restore(tree, words[p - 1], groups[p], restored)
            if node is not None:
                restored[p] = node

    @classmethod
    def _groups(cls, words: list[Word]) -> dict[int, list[Word]]:
        """The orphans of each gapped clause, by promoted remnant: their head, or for an
        orphan under an orphan (parser output), the first non-orphan above."""
        groups: dict[int, list[Word]] = {}
        for w in words:
            if w.deprel == "orphan" and w.head:
                groups.setdefault(cls._clause_head(words, w), []).append(w)
        groups.pop(0, None)
        return groups

    @staticmethod
    def _clause_head(words: list[Word], w: Word) -> int:
        """The promoted remnant an orphan belongs to (0 if the chain runs out)."""
        head = w.head or 0
        seen = {w.id}
        while head and words[head - 1].deprel == "orphan" and head not in seen:
            seen.add(head)
            head = words[head - 1].head or 0
        return head

    @staticmethod
    def _depth(words: list[Word], i: int) -> int:
        """How many heads lie between word ``i`` and the root (bounded, for broken trees)."""
        depth = 0
        while i and depth <= len(words):
            i = words[i - 1].head or 0
            depth += 1
        return depth

    def _antecedent(self, tree: BasicTree, head: Word) -> Word | None:
        """The pronounced predicate whose dependents are the correlates (None if none)."""
        # A conjunct whose first conjunct is itself gapped shares that one's predicate.
        seen = set()
        while head.id not in seen and any(
            tree.sentence.words[c - 1].deprel == "orphan" for c in tree.children[head.id]
        ):
            seen.add(head.id)
            if not head.head or head.udeprel != "conj":
                return None
            head = tree.sentence.words[head.head - 1]
        return head

    def alignments(self, sentence: Sentence) -> list[Alignment]:
        """For each gapped clause of the basic tree, the remnants and the correlates :meth:`apply` would use.

        Nothing is written.
        """
        groups = self._groups(sentence.words)
        if not groups:
            return []  # most sentences: no tree to build
        tree = BasicTree(sentence)
        out = []
        for p, orphans in groups.items():
            promoted = sentence.words[p - 1]
            remnants = sorted([promoted] + orphans, key=lambda w: w.id)
            antecedent, _, _, correlates, lifted = self._resolve(tree, promoted, remnants)
            out.append(Alignment(promoted, remnants, correlates, lifted, antecedent))
        return out

    def _resolve(
        self, tree: BasicTree, p: Word, remnants: list[Word]
    ) -> tuple[Word | None, list[Word], dict[int, str], list[Word | None], bool]:
        """The antecedent, the chain of predicates elided below it, labels, correlates, and whether P was lifted."""
        words = tree.sentence.words
        source = None
        if p.udeprel == "conj" and p.head:
            source = self._antecedent(tree, words[p.head - 1])
        elif p.udeprel in ECHOING and p.head and self._verbal(tree, words[p.head - 1]):
            source = words[p.head - 1]
        labels, matched = self._labels(tree, remnants, source)
        lifted = self._lift(tree, p, remnants, source, matched)
        if lifted is not None:
            source, labels, matched = lifted
            return source, [], labels, matched, True
        chain: list[Word] = []
        if source is not None and self.style.nested and self._verbal(tree, source):
            chain, labels, matched = self._deeper(tree, remnants, source, labels, matched)
        return source, chain, labels, matched, False

    def _restore(self, tree: BasicTree, p: Word, orphans: list[Word], restored: dict[int, NodeId]) -> NodeId | None:
        """The empty node of ``p``'s gapped clause, written into the graph; None when there is no
        antecedent to copy (unless the style is ``unanchored``): an empty node copies a pronounced
        predicate (its form, lemma and ``CopyOf``), and the clause's ``orphan`` edges stay as the
        basic tree has them."""
        remnants = sorted([p] + orphans, key=lambda w: w.id)
        source, chain, labels, matched, lifted = self._resolve(tree, p, remnants)
        if source is None and not self.style.unanchored:
            return None
        sentence = tree.sentence
        words = sentence.words
        graph = sentence.enhanced
        parent: NodeId = (p.head or 0, 0)
        # A gapped clause under another gapped clause's remnant hangs from that
        # clause's empty node when the remnant passed it on (conj, clausal relations).
        if parent[0] in restored and (p.udeprel == "conj" or self._moves(p, words[parent[0] - 1])):
            graph.discard(restored[parent[0]], p.node, p.deprel)
            parent = restored[parent[0]]
        if lifted:
            # The conjunct contrasts with an argument of a verb, not with a
            # noun's dependents: the verb is what was elided.
            parent, p_label = source.node, "conj"  # type: ignore[union-attr]
        else:
            p_label = p.deprel

        after = self._place(tree, remnants, p, source, matched)
        empty = sentence.add_empty_node(after=after, **self._columns(source))
        # One more empty node for each elided predicate between the antecedent
        # and the remnants' correlates, in the same place (E E in the guidelines).
        levels = {source.id: empty} if source is not None else {}
        above = empty
        for q in chain:
            below = sentence.add_empty_node(after=after, **self._columns(q))
            graph.add(above, below, label_from_correlate(q))
            levels[q.id] = above = below

        # E takes over P's place in the graph.
        style = self.style
        if not style.keep:
            graph.discard((p.head or 0, 0), p.node, p.deprel)
        graph.add(parent, empty, p_label)

        taken: dict[NodeId, set[str]] = {}  # the relations the remnants fill at each empty node
        for r, c in zip(remnants, matched):
            if r is not p:
                graph.discard((r.head or 0, 0), r.node, "orphan")
            node = self._level(words, c, levels) if c is not None else empty
            graph.add(node, r.node, labels[r.id])
            taken.setdefault(node, set()).add(labels[r.id].partition(":")[0])
        main_clause = source is None or not source.head
        for c in tree.children[p.id]:
            child = words[c - 1]
            if child.deprel != "orphan" and self._moves(child, p):
                if child.udeprel == "punct" and not (
                    style.punct and (style.punct_after or child.id < p.id) and (style.punct_embedded or main_clause)
                ):
                    continue
                if not style.keep:
                    graph.discard(p.node, child.node, child.deprel)
                graph.add(empty, child.node, child.deprel)
        for head, node in levels.items():
            self._share(tree, words[head - 1], node, taken.get(node, set()), set(levels))
        return empty

    @staticmethod
    def _level(words: list[Word], correlate: Word, levels: dict[int, NodeId]) -> NodeId:
        """The empty node for the predicate nearest above a correlate (the top one if none)."""
        head, seen = correlate.head or 0, set()
        while head and head not in levels and head not in seen:
            seen.add(head)
            head = words[head - 1].head or 0
        return levels.get(head, next(iter(levels.values())))

    def _columns(self, source: Word | None) -> dict[str, str]:
        """FORM to FEATS (and ``CopyOf``) of an empty node copying ``source``; a bare ``VERB`` without one (``unanchored``)."""
        columns = {"form": "_", "lemma": "_", "upos": "_", "xpos": "_", "feats": "_", "misc": "_"}
        if source is None:
            columns["upos"] = "VERB"
            return columns
        columns.update(form=source.form, lemma=source.lemma, upos=source.upos, xpos=source.xpos, feats=source.feats)
        if self.copy_of:
            columns["misc"] = f"CopyOf={source.id}"
        return columns

    def _deeper(
        self, tree: BasicTree, remnants: list[Word], source: Word, labels: dict[int, str], matched: list[Word | None]
    ) -> tuple[list[Word], dict[int, str], list[Word | None]]:
        """The predicates below the antecedent that were elided too, with labels, when the remnants fit there better.

        In *Mary wants to buy a book and Jenny a CD* the correlate of *CD* is
        *book*, a dependent of *buy*, itself the ``xcomp`` of the antecedent
        *wants*: both predicates are elided and the enhanced graph has one
        empty node for each, ``E1 -xcomp-> E2 -obj-> CD``
        (https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis).
        The candidates are the antecedent's dependents plus those of a chain
        of predicates below it (:data:`CHAIN` relations); a pair made below the
        antecedent costs :data:`LEVEL_COST`, so a remnant that fits as well at the
        top stays there.
        Returns the chain (empty when the top fits best), labels and correlates.
        """
        best = self._fit(tree, remnants, matched) - 1.5 * _crossings(matched)
        found: tuple[list[Word], dict[int, str], list[Word | None]] = ([], labels, matched)
        for chain in sorted(self._chains(tree, source, {r.id for r in remnants}), key=len):
            deep_labels, deep = self._labels(tree, remnants, source, chain=chain)
            if not any(c is not None and c.head == chain[-1].id for c in deep):
                continue  # the lowest predicate would govern no remnant
            pairing = self.style.pairing
            if any(c is None and any(pair_score(tree, r, q, pairing=pairing) > 0 for q in chain)
                   for r, c in zip(remnants, deep)):
                # A remnant contrasts with the predicate itself, which was not elided: *closed higher
                # in Stockholm and lower in Zurich* (a parser may hang *Stockholm* on *higher*).
                continue
            below = sum(1 for c in deep if c is not None and c.head != source.id)
            score = self._fit(tree, remnants, deep) - 1.5 * _crossings(deep) - LEVEL_COST * below
            if score > best:
                best, found = score, (chain, deep_labels, deep)
        return found

    def _chains(self, tree: BasicTree, source: Word, remnants: set[int]) -> list[list[Word]]:
        """Every chain of verbal :data:`CHAIN` dependents below ``source``, up to :data:`MAX_LEVELS` long."""
        words = tree.sentence.words
        out: list[list[Word]] = []
        todo: list[list[Word]] = [[]]
        while todo:
            chain = todo.pop()
            top = chain[-1] if chain else source
            for c in tree.children[top.id]:
                q = words[c - 1]
                if q.udeprel in CHAIN and q.id not in remnants and len(chain) < MAX_LEVELS and self._verbal(tree, q):
                    out.append(chain + [q])
                    todo.append(chain + [q])
        return out

    def _share(self, tree: BasicTree, source: Word, empty: NodeId, have: set[str], elided: set[int]) -> None:
        """Give the empty node the subject of the word it copies (and more, by style) when no remnant replaces it.

        ``have`` holds the universal relations the remnants already fill at the
        empty node, ``elided`` the predicates that have empty nodes of their own.
        Shared are ``nsubj`` and ``csubj``; with ``aux``, auxiliaries; with
        ``share_obj``, the complements ``obj`` and ``xcomp`` and ``expl``, and a
        phrasal verb's particle (``compound:prt``), elided with the verb.  The
        guidelines attach the subject and the complements that coordinated verbs
        share to every conjunct
        (https://universaldependencies.org/u/overview/enhanced-syntax.html#propagation-of-outgoing-dependencies-from-conjuncts):
        *he filed lawsuits in Ontario for X and E for Y* files lawsuits in both.
        """
        words = tree.sentence.words
        shared = SHARED | ({"aux"} if self.style.aux else set()) | (SHARED_OBJ if self.style.share_obj else set())
        for c in tree.children[source.id]:
            dep = words[c - 1]
            if c in elided:
                continue
            replaced = dep.udeprel in have or (dep.udeprel == "nsubj" and "csubj" in have)
            particle = self.style.share_obj and dep.deprel == SHARED_PARTICLE
            if (dep.udeprel in shared and not replaced) or particle:
                tree.sentence.enhanced.add(empty, dep.node, dep.deprel)

    def _place(
        self, tree: BasicTree, remnants: list[Word], promoted: Word, source: Word | None, matched: list[Word | None]
    ) -> int:
        """The word the empty node goes after."""
        words = tree.sentence.words
        ids = {r.id for r in remnants}
        first = remnants[0]
        place = self.style.place
        if place == "mirror" and source is not None:
            # Where the antecedent's verb stands among its correlates: after the
            # remnants whose correlates precede it (and unmatched adverbs before them).
            before = 0
            for r, c in zip(remnants, matched):
                if c is not None and c.id > source.id:
                    break
                if c is None and r.upos not in ("ADV", "PART"):
                    break
                before += 1
            if before == 0:
                place = "before_first"
            else:
                first = remnants[before - 1]
                place = "first_phrase"
        elif place == "mirror":
            place = "first_phrase"
        start, end = tree.span(first.id, ids - {first.id})
        if place == "before_first":
            start = tree.span(first.id, ids - {first.id}, skip_cc=True)[0]
            # Opening quotes and brackets belong to the phrase.
            while start > 1 and words[start - 2].form in OPENING and words[start - 2].upos == "PUNCT":
                start -= 1
            return start - 1
        if place == "first_word":
            end = first.id
        elif place == "promoted_word":
            end = promoted.id
        following = [tree.span(r.id, ids - {r.id})[0] for r in remnants if r.id > end]
        limit = min(following, default=len(words) + 1)
        # Punctuation closing the phrase (a quote, an apposition's comma) stays
        # inside it; placements after a single word do not take phrases.
        inside = tree.subtree(first.id, ids - {first.id})
        while place == "first_phrase" and end + 1 < limit and words[end].upos == "PUNCT" and words[end].form not in VERB_PUNCT and (
            end + 1 in inside or words[end].head == promoted.id
        ):
            end += 1
        if self.style.dash:
            while end + 1 < limit and words[end].upos == "PUNCT" and words[end].form in VERB_PUNCT:
                end += 1
        return end

    @staticmethod
    def _moves(child: Word, remnant: Word) -> bool:
        """Whether a dependent of the promoted remnant belongs to the elided predicate instead."""
        if child.udeprel in CLAUSAL:
            return True
        # A verb conjoined to a nominal remnant is conjoined to the elided verb.
        return child.udeprel == "conj" and pos_class(child) == "V" and pos_class(remnant) != "V"

    @staticmethod
    def _verbal(tree: BasicTree, word: Word) -> bool:
        """Whether ``word`` heads a clause (a verb, or a nominal predicate with a copula or subject)."""
        if pos_class(word) == "V" or word.upos in ("ADJ", "ADV"):
            return True
        words = tree.sentence.words
        return any(words[c - 1].udeprel in CLAUSE_MARKS for c in tree.children[word.id])

    def _lift(
        self, tree: BasicTree, p: Word, remnants: list[Word], source: Word | None, matched: list[Word | None]
    ) -> tuple[Word, dict[int, str], list[Word | None]] | None:
        """The verb above a nominal antecedent, with labels, when the remnants fit it better.

        In *observed in one study, and in another study after 2 years* the
        promoted remnant is a ``conj`` of the noun *study*, but the clause
        gapped is *observed*'s: *study* is P's correlate and the other
        remnants align with *observed*'s dependents.
        """
        if source is None or self._verbal(tree, source) or not source.head or source.udeprel not in ARGUMENTS:
            return None
        verb = tree.sentence.words[source.head - 1]
        if not self._verbal(tree, verb):
            return None
        others = [r for r in remnants if r is not p]
        labels, lifted = self._labels(tree, others, verb, skip=source.id)
        lifted.insert(remnants.index(p), source)
        labels[p.id] = label_from_correlate(source)
        here = self._fit(tree, remnants, matched)
        there = self._fit(tree, remnants, lifted)
        # A parser may hang the promoted remnant on the wrong argument (*ate an apple and
        # Mary a pear*: Mary as a conjunct of apple), so P may also align with any dependent.
        # Crossed pairs count against both, as in correlates.align.
        free_labels, free = self._labels(tree, remnants, verb)
        anywhere = self._fit(tree, remnants, free) - 1.5 * _crossings(free)
        if anywhere > max(here, there - 1.5 * _crossings(lifted)):
            return verb, free_labels, free
        return (verb, labels, lifted) if there > here else None

    def _fit(self, tree: BasicTree, remnants: list[Word], matched: list[Word | None]) -> float:
        """:func:`~eud.gapping.correlates.alignment_score` in this style (its ``pairing``)."""
        return alignment_score(tree, remnants, matched, pairing=self.style.pairing)

    def _align(
        self, tree: BasicTree, remnants: list[Word], correlates: list[Word], source: Word, aside: set[int]
    ) -> list[Word | None]:
        """:func:`~eud.gapping.correlates.align` in this style, correlates below ``source`` costing :data:`LEVEL_COST`."""
        if not correlates:
            return [None] * len(remnants)
        costs = [LEVEL_COST if c.head != source.id else 0.0 for c in correlates]
        return align(tree, remnants, correlates, skip_penalty=self.style.skip_penalty, costs=costs, aside=aside,
                     pairing=self.style.pairing)

    def _labels(
        self, tree: BasicTree, remnants: list[Word], source: Word | None, skip: int = 0, chain: list[Word] | None = None
    ) -> tuple[dict[int, str], list[Word | None]]:
        """The relation of each remnant to the restored predicate, and its correlate if any.

        The correlates are ``source``'s dependents, plus those of each predicate
        of ``chain`` (elided too, see :meth:`_deeper`) but the chain's own members,
        plus (``promoted``) the modifiers of their nominal arguments, which give
        the argument's relation.
        """
        words = tree.sentence.words
        matched: list[Word | None] = [None] * len(remnants)
        correlates: list[Word] = []
        stands: dict[int, Word] = {}  # a nominal's dependent → the nominal it stands for (see below)
        if source is not None:
            chain = chain or []
            taken = {r.id for r in remnants} | {skip} | {q.id for q in chain}
            for head in [source, *chain]:
                excluded = NOT_CORRELATE | (NOMINAL_DEPS if self._verbal(tree, head) else set())
                direct = [
                    words[c - 1]
                    for c in tree.children[head.id]
                    if c not in taken and words[c - 1].udeprel not in excluded
                ]
                correlates += direct
                if self.style.promoted and self._verbal(tree, head):
                    # A remnant may stand for an elided nominal whose modifier it
                    # contrasts with (*the second ship ... and the third in 1991*):
                    # promoted, it takes the nominal's relation.
                    for x in direct:
                        if x.udeprel in PROMOTED_HEADS and pos_class(x) == "N":
                            for c in tree.children[x.id]:
                                if c not in taken and words[c - 1].udeprel in PROMOTED:
                                    stands[c] = x
            correlates = sorted(correlates + [words[c - 1] for c in stands], key=lambda w: w.id)
            matched = self._align(tree, remnants, correlates, source, set(stands))
            if any(c is not None and c.id in stands and stands[c.id] in matched for c in matched):
                # A nominal and its own modifier cannot both be correlates.
                correlates = [c for c in correlates if c.id not in stands]
                matched = self._align(tree, remnants, correlates, source, set())
        # A bare nominal remnant whose case rules out every correlate (Finnic
        # object cases, say) still likely fills a core slot nobody else took.
        used = {stands.get(c.id, c).id for c in matched if c is not None}
        spare = [c for c in correlates if c.id not in used and c.udeprel in CORE and pos_class(c) == "N"]
        labels = {}
        rank = 0  # bare nominal remnants so far
        for r, c in zip(remnants, matched):
            if c is None and pos_class(r) == "N" and not tree.marker(r.id) and r.feat("Case") in STRUCTURAL:
                c = next((q for q in spare if not self.style.pairing.unfocused(r, q)), None)
                if c is not None:
                    spare.remove(c)
                    matched[remnants.index(r)] = c
            if c is not None:
                labels[r.id] = label_from_correlate(stands.get(c.id, c), r)
            else:
                labels[r.id] = label_from_form(tree, r, rank)
            if pos_class(r) == "N" and not tree.marker(r.id):
                rank += 1
        return labels, matched
