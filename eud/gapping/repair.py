"""The gapping repairs of a parser's tree, run once in the order of :data:`REPAIRS` before its graph is built.

The first undo gapped clauses the parser posited where nothing was elided (:mod:`eud.gapping.checks`);
the others build gapped clauses the parser did not see, where its tree allows no other reading:
those a dash marks (:mod:`eud.gapping.dashes`), and the shapes below.
A parser that learnt gapping from a few hundred sentences reads some textbook cases as noun
phrases, and :func:`rebuild_unseen_gapping` rebuilds them: a subject pronoun after a conjunction
with no verb of its own (*He likes tea and she coffee*), two conjuncts with nothing between them
(*The children wanted cake and the adults wine*; *and IBM 's $68.8 million*; *and my cousin
medicine*; *and Jane pasta*; *, others poems*), a verbless conjunct followed by a phrase that
mirrors one of the full clause (*promote TPA for heart patients and streptokinase for other
purposes*; *, my brother in Madrid*), and a noun that repeats the
subject's with a modifier of its own (*, the Hungarian fund with $40 million*).  Each rebuilt
clause must pass the shape checks a parsed one passes (:func:`eud.gapping.checks.unsound`), or it is
put back as the parser had it.  It is the opposite repair of :mod:`eud.gapping.checks`, which undoes
gapped clauses the parser posited where nothing was elided.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from eud.gapping.checks import (
    ARGUMENTS,
    FUNCTION_RELATIONS,
    PREDICATE_MARKERS,
    demote_orphans,
    demote_without_correlates,
    lowercase_lemma,
    phrase_shape,
    unsound,
)
from eud.gapping.correlates import FUNCTION_UPOS, BasicTree, possessive
from eud.gapping.dashes import chain_gaps, dash_gaps
from eud.gapping.rule import Alignment, Gapping
from eud.graph import Sentence, Word

# The relations of a verb's phrase that may be a gapped clause's second remnant (mirrored_phrases).
TRAILING = frozenset({"obl", "obj", "iobj", "advmod", "advcl", "xcomp"})
# What a subject remnant's clause may hold: phrases of these parts of speech, no verb.
REMNANT_UPOS = frozenset({"NOUN", "PROPN", "NUM", "PRON", "DET", "ADJ", "ADP", "ADV", "PART", "SYM"})
# Relations by which a clause hangs on a word (_in_clause_of).
CLAUSAL = frozenset({"acl", "advcl", "ccomp", "csubj", "xcomp", "parataxis"})
NOMINAL_HEADS = frozenset({"NOUN", "PROPN", "NUM", "PRON", "SYM"})
# Modifiers before a noun by which it contrasts with the subject whose noun it repeats (echoed_subjects).
CONTRASTING = frozenset({"amod", "nmod", "nummod", "compound"})


@dataclass(frozen=True)
class Evidence:
    """What the parser knows of one sentence beyond its tree, for the repairs that undo orphans.

    ``fallback[i]``: word i+1's best relation other than ``orphan``; ``margins[i]``: its ``orphan``
    score minus that relation's (None: not computed); ``verify``: the learned judges' last word on a
    gapped clause (:mod:`eud.nn.verifier`, :mod:`eud.nn.parallelism`), None without them.
    """

    fallback: list[str]
    margins: list[float] | None = None
    verify: Callable[[Alignment], bool] | None = None


# The package config's table of parser-side gapping settings (config.json, next to "language").
BLOCK = "gapping"
# A package from before the block kept these at the top level, with other names.
LEGACY_KEYS = {"orphan_check": "orphan_check", "orphan_margins": "orphan_margins",
               "gapping_verifier": "verifier", "gapping_parallelism": "parallelism"}
REBUILDS = ("verbless_subjects", "bare_remnants", "mirrored_phrases", "echoed_subjects")
# Before the block the rebuilds were switched on by the language's enhancer profile: a package
# without the block gets them as that profile had them.
LEGACY_REBUILDS: dict[str, tuple[str, ...]] = {"en": REBUILDS}


class SettingsError(ValueError):
    """A package's ``gapping`` block that cannot be used (names the key and the problem)."""


@dataclass(frozen=True)
class Settings:
    """A parser package's gapping settings: which repairs run, and the learned judges' settings.

    ``orphan_check`` undoes gapped clauses where nothing was elided (:mod:`eud.gapping.checks`) and
    lets the rebuilds run; ``orphan_margins`` holds the least margins of :func:`~eud.gapping.checks.unsure`.
    Each rebuild has its own switch: ``verbless_subjects`` (the language has no verbless clauses:
    :func:`stranded_subjects`), ``bare_remnants`` (:func:`adjacent_conjuncts`), ``mirrored_phrases``
    (:func:`mirrored_phrases`) and ``echoed_subjects`` (:func:`echoed_subjects`).  The repairs of
    gapped clauses a dash marks need no orphan checks and have switches of their own:
    ``dash_remnants`` (:func:`eud.gapping.dashes.dash_gaps`) and ``remnant_chains``
    (:func:`eud.gapping.dashes.chain_gaps`).  ``verifier``
    (``{"threshold": t}``) and ``parallelism`` (``{"encoder": ..., "threshold": t}``) configure the
    learned judges of :mod:`eud.nn.verifier` and :mod:`eud.nn.parallelism`; None: not used.
    """

    orphan_check: bool = False
    orphan_margins: dict[str, float] = field(default_factory=dict)
    # The language has no verbless clauses (English; not Russian, whose present tense drops the copula).
    verbless_subjects: bool = False
    bare_remnants: bool = False
    mirrored_phrases: bool = False
    echoed_subjects: bool = False
    # The language writes a dash where a gapped clause elides its verb (Russian).
    dash_remnants: bool = False
    remnant_chains: bool = False
    verifier: dict | None = None
    parallelism: dict | None = None

    def enabled(self, name: str) -> bool:
        """Whether repair ``name`` of :data:`REPAIRS` runs."""
        if name in DASH_REPAIRS:
            return bool(getattr(self, name))
        return self.orphan_check and (name in UNDOING or bool(getattr(self, name)))

    @classmethod
    def from_config(cls, config: dict, language: str | None = None) -> Settings:
        """A package config's ``gapping`` block; without one, its older top-level keys.

        ``language`` (default: the config's) picks the rebuilds of a package without the block.
        """
        block = config.get(BLOCK)
        if block is None:
            block = {new: config[old] for old, new in LEGACY_KEYS.items() if config.get(old) is not None}
            block["orphan_check"] = bool(block.get("orphan_check", False))
            code = (language or config.get("language") or "").split("_")[0]
            block.update(dict.fromkeys(LEGACY_REBUILDS.get(code, ()), True))
        if not isinstance(block, dict):
            raise SettingsError(f"config.json: {BLOCK!r} must be a table, not {block!r}")
        known = cls.__dataclass_fields__
        unknown = sorted(set(block) - set(known))
        if unknown:
            raise SettingsError(f"config.json: unknown {BLOCK!r} key(s) {', '.join(unknown)} "
                                f"(known: {', '.join(known)})")
        for key, value in block.items():
            want = dict if key in ("orphan_margins", "verifier", "parallelism") else bool
            if not (isinstance(value, want) or (want is dict and value is None and key != "orphan_margins")):
                raise SettingsError(f"config.json: {BLOCK}.{key} must be a {'table' if want is dict else 'boolean'}, "
                                    f"not {value!r}")
        return cls(**block)


def set_setting(config: dict, key: str, value: object) -> None:
    """Set ``key`` of a package config's ``gapping`` block (a package without one gets it, its older keys moved in)."""
    if BLOCK not in config:
        legacy = Settings.from_config(config)
        config[BLOCK] = {k: v for k, v in vars(legacy).items() if v != getattr(Settings(), k)}
        for old in LEGACY_KEYS:
            config.pop(old, None)
    if key not in Settings.__dataclass_fields__:
        raise SettingsError(f"unknown {BLOCK!r} key {key!r}")
    if value is None:
        config[BLOCK].pop(key, None)
    else:
        config[BLOCK][key] = value


def _antecedents(sentence: Sentence, gapping: Gapping, settings: Settings, evidence: Evidence) -> int:
    return demote_orphans(sentence, evidence.fallback)


def _correlates(sentence: Sentence, gapping: Gapping, settings: Settings, evidence: Evidence) -> int:
    return demote_without_correlates(sentence, evidence.fallback, gapping, evidence.margins,
                                     settings.orphan_margins, evidence.verify)


def _rewriting(rewrite: Callable[[Sentence], int]) -> Repair:
    def repair(sentence: Sentence, gapping: Gapping, settings: Settings, evidence: Evidence) -> int:
        return rewrite(sentence)
    repair.__doc__ = rewrite.__doc__
    return repair


def _rebuilding(rebuild: Callable[[Sentence, Gapping], int]) -> Repair:
    def repair(sentence: Sentence, gapping: Gapping, settings: Settings, evidence: Evidence) -> int:
        return rebuild(sentence, gapping)
    repair.__doc__ = rebuild.__doc__
    return repair


def rebuild_unseen_gapping(sentence: Sentence, gapping: Gapping, settings: Settings) -> int:
    """Rebuild gapped clauses the parser read as something no grammar allows; returns how many.

    A parser that saw little gapping reads some textbook cases as noun phrases.  Four shapes
    cannot well be anything else, each switched on by a setting of the same name:
    :func:`stranded_subjects` (``verbless_subjects``), :func:`adjacent_conjuncts`
    (``bare_remnants``), :func:`mirrored_phrases` (``mirrored_phrases``) and
    :func:`echoed_subjects` (``echoed_subjects``).
    """
    return sum(repair(sentence, gapping, settings, Evidence([])) for name, repair in REPAIRS
               if name in REBUILDS and settings.enabled(name))


def repair_tree(sentence: Sentence, gapping: Gapping, settings: Settings, evidence: Evidence) -> int:
    """Run the enabled repairs of :data:`REPAIRS` over a parsed tree, in order, once; returns how many changes."""
    return sum(repair(sentence, gapping, settings, evidence) for name, repair in REPAIRS if settings.enabled(name))


def stranded_subjects(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses around a subject pronoun the parser left without a verb; returns how many.

    In a language without verbless clauses, a nominative personal pronoun right after a
    conjunction, followed by phrases with no verb up to the next punctuation mark, can only be
    the subject remnant of a gapped clause: *He likes tea and she coffee*.  A parser that never
    saw that pattern makes *she* a ``compound`` of *coffee*, or both conjuncts of *likes*.  The
    pronoun is promoted (``conj`` of the nearest verb before the conjunction) and the head of
    each following phrase becomes its ``orphan`` (:func:`_rebuild`).
    """
    words = sentence.words
    rebuilt = 0
    for pronoun in words:
        if not _stranded(sentence, pronoun):
            continue
        cc = words[pronoun.id - 2]
        verb = next((w for w in reversed(words[:cc.id - 1]) if w.upos == "VERB"), None)
        span = _clause_after(sentence, pronoun)
        inside = {w.id for w in span}
        heads = [w for w in span if w.head not in inside]
        # Each phrase needs a content word at its head: the parser's function word there is garbage.
        if verb is None or not any(h.upos in NOMINAL_HEADS for h in heads) or any(h.upos in FUNCTION_UPOS for h in heads):
            continue
        rebuilt += _rebuild(sentence, gapping, pronoun, verb, cc, heads)
    return rebuilt


def adjacent_conjuncts(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses the parser read as two noun phrases with nothing between them; returns how many.

    Members of a list are separated by a conjunction or a comma.  In *The children wanted cake
    and the adults wine* the parser makes *adults* and *wine* conjuncts of *cake*, though nothing
    separates them; in *Sarah drinks wine and her husband beer* it glues *husband* to *beer* as a
    ``compound``, though a compound modifier takes no possessive of its own; in *Honeywell 's
    contract totaled $69.7 million, and IBM 's $68.8 million* it makes *IBM 's* the possessor of
    a conjunct of the verb, where it stands for *IBM 's contract* (a possessor remnant must pair
    with the subject's possessor); in *My brother studies law and my cousin medicine* (or *..., my
    cousin medicine*) it hangs *my* on *medicine*, where it belongs to *cousin*, mirroring the
    subject's (:func:`_lent_possessives`); in *Sam ordered pizza and Jane pasta* it reads a name,
    *Jane* with *pasta* as its ``flat`` part (:func:`_split_name`); in *Some students read novels,
    others poems* it hangs *poems* on *novels* as an apposition, with *others* between them
    (:func:`_juxtaposed`: a comma is the separator here).  In each case the two
    phrases are the remnants of a gapped clause that ends the sentence or its clause.  The first
    is promoted (``conj`` of the verb, or of the verb above the nominal they hung from) and the
    second becomes its ``orphan`` (:func:`_rebuild`), kept only when the first contrasts with the
    full clause's subject and both have correlates, and a common noun first has a determiner,
    possessor or numeral (:func:`_determined_subject`: *brought computers and television sets*).
    """
    words = sentence.words
    if not any(w.udeprel in ("conj", "appos", "parataxis") and w.upos in NOMINAL_HEADS for w in words):
        return 0  # most sentences: no tree to build
    tree = BasicTree(sentence)
    candidates = []
    juxtaposed: set[tuple[int, int]] = set()
    for x in words:
        conjuncts = [words[c - 1] for c in tree.children[x.id]
                     if words[c - 1].udeprel == "conj" and words[c - 1].upos in NOMINAL_HEADS]
        verb = x if x.upos == "VERB" else None
        if verb is None and x.head and x.udeprel in ARGUMENTS and words[x.head - 1].upos == "VERB":
            verb = words[x.head - 1]
        if verb is None:
            continue
        pairs = list(itertools.pairwise(conjuncts))
        pairs += [(words[c - 1], z) for z in conjuncts for c in tree.children[z.id]
                  if c < z.id and words[c - 1].udeprel == "compound" and _has_possessive(tree, words[c - 1])]
        if x is verb:
            pairs += [(words[c - 1], z) for z in conjuncts for c in tree.children[z.id]
                      if c < z.id and _possessor(tree, words[c - 1])]
        lent = _lent_possessives(tree, x, verb)
        pairs += [(compound, words[compound.head - 1]) for compound in lent]
        if x is verb:
            after_comma = _juxtaposed(tree, verb)
            juxtaposed.update((first.id, second.id) for first, second in after_comma)
            pairs += after_comma
        pairs += [(z, words[c - 1]) for z in conjuncts for c in tree.children[z.id] if _split_name(tree, verb, z, words[c - 1])]
        for first, second in pairs:
            start = tree.span(first.id, set(), skip_cc=True)[0]
            if start < 2:
                continue
            cc, end = words[start - 2], tree.span(first.id, {second.id})[1]
            own = lent.get(first)
            if own is not None:  # the possessive right before the compound is its own
                cc, end = words[own.id - 2], first.id
            after = tree.span(second.id, {first.id} | ({own.id} if own else set()), skip_cc=True)
            inside = words[cc.id:after[1]]
            separator = ((cc.upos == "CCONJ" and cc.udeprel == "cc")
                         or (cc.form == "," and ((own is not None and second.udeprel == "appos")
                                                 or (first.id, second.id) in juxtaposed)))
            if (not separator or cc.head not in (first.id, second.id)
                    or end + 1 != after[0] or any(w.upos in ("CCONJ", "PUNCT", "VERB", "AUX") for w in inside)
                    or (after[1] < len(words) and words[after[1]].upos != "PUNCT")):
                continue
            candidates.append((first, verb, cc, second, own))
    rebuilt = 0
    contrasting = frozenset().union(*gapping.style.pairing.contrasts)

    def accept(clause: Alignment, tree: BasicTree) -> bool:
        return _determined_subject(clause, tree, contrasting)

    for first, verb, cc, second, own in candidates:
        if own is not None:
            own.head = first.id
        if _rebuild(sentence, gapping, first, verb, cc, [second], accept=accept):
            rebuilt += 1
        elif own is not None:
            own.head = second.id
    return rebuilt


def _juxtaposed(tree: BasicTree, verb: Word) -> list[tuple[Word, Word]]:
    """Two bare nominals after a comma, the first hung on ``verb``, the second right after it on the verb or an argument.

    *Some students read novels, others poems*: the parser makes *others* a conjunct of *read* and
    *poems* an apposition of *novels*, or both juxtaposed to the verb (*prefer tea, others coffee*),
    though nothing separates them.  Returns (first, second) pairs for :func:`adjacent_conjuncts`.
    """
    words = tree.sentence.words
    pairs = []
    for c in tree.children[verb.id]:
        first = words[c - 1]
        if first.udeprel not in ("conj", "parataxis") or first.upos not in NOMINAL_HEADS or first.id < 3:
            continue
        comma = words[first.id - 2]
        if comma.form != "," or comma.head != first.id:
            continue
        end = tree.span(first.id, set())[1]
        if end >= len(words):
            continue
        second = words[end]
        if second.upos not in NOMINAL_HEADS or not second.head or second.head == first.id:
            continue
        anchor = words[second.head - 1]
        if anchor is verb or (anchor.id < first.id and anchor.head == verb.id and anchor.udeprel in ARGUMENTS):
            pairs.append((first, second))
    return pairs


def _lent_possessives(tree: BasicTree, argument: Word, verb: Word) -> dict[Word, Word]:
    """Compound modifiers that take the possessive right before them from their head, by the subject's pattern.

    In *My brother studies law and my cousin medicine* (or *..., my cousin medicine*) the parser
    reads *my cousin medicine* as one noun phrase, *my* on *medicine* and *cousin* its compound.
    That is a possible noun phrase (*my university library*), so the compound takes the possessive
    only where the full clause's subject has a possessive of its own to mirror (*My brother*); the
    noun phrase hangs on ``argument`` (an argument of ``verb``) as a conjunct or, after a comma, an
    apposition.  Returns {compound: possessive}.
    """
    words = tree.sentence.words
    subject = next((words[c - 1] for c in tree.children[verb.id] if words[c - 1].udeprel == "nsubj"), None)
    if subject is None or not _has_possessive(tree, subject) or _has_possessive(tree, argument):
        return {}  # no possessive to mirror, or one of the argument's own: like with like (*his job and my ...*)
    lent = {}
    for c in tree.children[argument.id]:
        head = words[c - 1]
        if head.udeprel not in ("conj", "appos") or head.upos not in NOMINAL_HEADS or head.id < 4:
            continue
        compound, owner = words[head.id - 2], words[head.id - 3]
        if (compound.head == head.id and compound.udeprel == "compound" and compound.upos in NOMINAL_HEADS
                and owner.head == head.id and owner.deprel == "nmod:poss" and owner.upos in ("PRON", "DET")):
            lent[compound] = owner
    return lent


def _split_name(tree: BasicTree, verb: Word, name: Word, part: Word) -> bool:
    """Whether ``part``, the ``flat`` word after the name ``name``, is a remnant of its own.

    The parser reads *Sam ordered pizza and Jane pasta* and *Ann visited Rome and Bob Paris* as
    conjoined names, *pasta* and *Paris* the second words of *Jane* and *Bob*.  A name ends on no
    lowercase word, so *Jane pasta* is two remnants; a capitalised second word is one only where
    the full clause has a subject and an argument that are bare one-word names, mirrored word for
    word (*Ann* and *Rome*; *Ann met Carl and Bob Smith* is split too, a cost of the rule).  The name
    may have no other dependent than its conjunction.
    """
    words = tree.sentence.words
    if part.deprel != "flat" or part.id != name.id + 1 or name.upos != "PROPN" or not part.form.isalpha():
        return False
    if [c for c in tree.children[name.id] if words[c - 1].udeprel not in ("cc", "punct")] != [part.id]:
        return False
    if part.form.islower():
        return True

    def bare_name(w: Word) -> bool:
        # Its own conjunct aside: *Rome* has *Bob* under it.
        return w.upos == "PROPN" and all(words[c - 1].upos == "PUNCT" or c == name.id for c in tree.children[w.id])

    arguments = [words[c - 1] for c in tree.children[verb.id] if words[c - 1].udeprel in ARGUMENTS]
    return (part.form[0].isupper() and any(a.udeprel == "nsubj" and bare_name(a) for a in arguments)
            and any(a.udeprel != "nsubj" and a.id > verb.id and bare_name(a) for a in arguments))


def _determined_subject(clause: Alignment, tree: BasicTree, contrasting: frozenset[str] = frozenset()) -> bool:
    """:func:`_contrasts_with_subject`, for a promoted remnant that can stand as a subject by itself.

    A bare common noun right before another noun is a compound modifier or a verb the tagger
    read as a noun (*brought computers and television sets*, *follows the Way and honours
    harmony*); a subject remnant has a determiner, possessor or numeral, or is a name or pronoun
    (*and the adults wine*, *and her husband beer*, *and IBM 's $68.8 million*), or is a noun the
    profile's ``contrasts`` name (``contrasting``: *Some students read novels, others poems*).
    """
    promoted = clause.promoted
    determined = promoted.upos != "NOUN" or lowercase_lemma(promoted) in contrasting or bool(_determiners(tree, promoted))
    return determined and _contrasts_with_subject(clause, tree)


def _determiners(tree: BasicTree, word: Word) -> tuple[str, ...]:
    """The kinds of determiner ``word`` has: ``det``, ``nmod:poss`` (a possessive clitic counts) and ``nummod``, sorted."""
    words = tree.sentence.words
    return tuple(sorted({"nmod:poss" if possessive(words[c - 1]) else words[c - 1].deprel for c in tree.children[word.id]
                         if words[c - 1].deprel in ("det", "nmod:poss", "nummod") or possessive(words[c - 1])}))


def _contrasts_with_subject(clause: Alignment, tree: BasicTree) -> bool:
    """Whether every remnant has a correlate, the promoted one a subject.

    A possessor stands for the noun it modifies (*Honeywell 's contract totaled $69.7 million, and
    IBM 's $68.8 million*: *IBM 's* is the elided *IBM 's contract*), so a possessive remnant
    contrasts with the subject's possessor, and with nothing else.
    """
    words = tree.sentence.words
    subject = clause.correlates[clause.remnants.index(clause.promoted)]
    if subject is not None and _possessor(tree, subject) and subject.head:
        subject = words[subject.head - 1]
    if subject is None or subject.udeprel not in ("nsubj", "csubj") or None in clause.correlates:
        return False
    return not _owns(tree, clause.promoted) or any(_possessor(tree, words[c - 1]) for c in tree.children[subject.id])


def _possessor(tree: BasicTree, word: Word) -> bool:
    """Whether ``word`` is a possessor marked by a possessive clitic (*IBM* in *IBM 's $68.8 million*)."""
    return word.deprel == "nmod:poss" and _owns(tree, word)


def _owns(tree: BasicTree, word: Word) -> bool:
    """Whether ``word`` has a possessive clitic (*'s*) of its own."""
    words = tree.sentence.words
    return any(possessive(words[c - 1]) for c in tree.children[word.id])


def mirrored_phrases(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses whose second remnant the parser hung on the full clause's verb; returns how many.

    In *promote TPA for heart patients and streptokinase for other purposes* the parser makes
    *streptokinase* a ``conj`` of *promote*, a noun with no verb of its own, and hangs *for other
    purposes* on *promote* as well, a modifier shared by both conjuncts.  But the first conjunct
    already has its own phrase of that shape (*for heart patients*) between the promoted remnant's
    correlate (*TPA*) and the conjunction, so the trailing one mirrors it: it is the gapped clause's
    second remnant (*3,040,000 shares will be sold by the company and 210,000 by a holder*).  The
    trailing phrase must follow the conjunct directly and end its clause, and it is made the
    conjunct's ``orphan`` (:func:`_rebuild`) only when both remnants have correlates in that order,
    the second marked by the same adposition or subordinator as its correlate and of its category.
    In *My sister lives in Berlin, my brother in Madrid* the conjunct follows a comma (``parataxis``)
    and the trailing phrase hangs on it as an ``nmod``; there the conjunct must also mirror the
    subject and both correlates depend on the verb (:func:`_mirrors_with_subject`).
    """
    words = sentence.words
    if not any(w.udeprel in ("conj", "parataxis") and w.upos in NOMINAL_HEADS for w in words):
        return 0
    tree = BasicTree(sentence)
    candidates = []
    for verb in words:
        if verb.upos != "VERB":
            continue
        dependents = [words[c - 1] for c in tree.children[verb.id]]
        for conjunct in dependents:
            if conjunct.udeprel not in ("conj", "parataxis") or conjunct.upos not in NOMINAL_HEADS:
                continue
            own = [words[c - 1] for c in tree.children[conjunct.id]]
            cc = next((w for w in own if w.udeprel == "cc" and w.id < conjunct.id), None)
            if cc is None and conjunct.udeprel == "parataxis":
                start = tree.span(conjunct.id, set())[0]
                cc = next((w for w in own if w.id == start - 1 and w.form == ","), None)
            if cc is None or any(w.udeprel in PREDICATE_MARKERS | {"mark", "orphan"} for w in own):
                continue
            # The phrase hung on the verb, or on the conjunct itself (*, my brother [in Madrid]*).
            nested = next((w for w in own if w.id > conjunct.id and w.udeprel == "nmod" and w.upos in NOMINAL_HEADS), None)
            end = tree.span(conjunct.id, {nested.id} if nested else set())[1]
            phrase = nested or next((w for w in dependents if w.id > end and w.udeprel in TRAILING), None)
            if phrase is None or not tree.marker(phrase.id):
                continue
            first, last = tree.span(phrase.id, set())
            if first != end + 1 or (last < len(words) and words[last].upos != "PUNCT"):
                continue
            accept = _mirrors_with_subject if nested or cc.upos == "PUNCT" else _mirrors
            candidates.append((conjunct, verb, cc, phrase, accept))
    return sum(_rebuild(sentence, gapping, conjunct, verb, cc, [phrase], accept=accept)
               for conjunct, verb, cc, phrase, accept in candidates)


def echoed_subjects(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses whose subject remnant repeats the full clause's subject noun; returns how many.

    In *The Polish fund would be seeded with $160 million, the Hungarian fund with $40 million*
    the parser hangs *the Hungarian fund* on *$160 million* as an apposition.  But an apposition
    names what its anchor names, and *fund* repeats the subject's noun, not the anchor's: with a
    modifier of its own it contrasts with the subject (*Red figures ... indicated falling stocks;
    blue figures, rising stocks*).  Such a common noun with a modifier of its own before it (a
    repeated name is no contrast), after a conjunction, comma or semicolon, is made
    the promoted remnant (``conj`` of the verb) and the one phrase after it, up to the end of the
    sentence or its clause and with no verb of its own, its ``orphan`` (:func:`_rebuild`), kept
    only when that phrase mirrors a dependent of the verb (adposition and category) and both
    remnants have correlates, the first the subject.
    """
    words = sentence.words
    nouns = [w for w in words if w.upos == "NOUN"]
    if not any(s.udeprel == "nsubj" and any(n.id > s.id and lowercase_lemma(n) == lowercase_lemma(s) for n in nouns) for s in nouns):
        return 0  # most sentences: no subject noun said again later, no tree to build
    tree: BasicTree | None = None
    rebuilt = 0
    for verb in words:
        if verb.upos != "VERB":
            continue
        tree = tree or BasicTree(sentence)
        subject = next((words[c - 1] for c in tree.children[verb.id]
                        if words[c - 1].udeprel == "nsubj" and words[c - 1].upos == "NOUN"), None)
        if subject is None or subject.id > verb.id:
            continue
        for noun in words[verb.id:]:
            if (noun.upos != "NOUN" or lowercase_lemma(noun) != lowercase_lemma(subject) or noun.head == verb.id
                    or not _in_clause_of(tree, verb, noun)
                    or not any(words[c - 1].udeprel in CONTRASTING for c in tree.children[noun.id] if c < noun.id)):
                continue
            clause = _echo_clause(tree, verb, noun)
            if clause is None:
                continue
            separator, phrase = clause
            if _rebuild(sentence, gapping, noun, verb, separator, [phrase], accept=_contrasts_with_subject):
                rebuilt += 1
                tree = None
                break
    return rebuilt


def _echo_clause(tree: BasicTree, verb: Word, noun: Word) -> tuple[Word, Word] | None:
    """The separator before ``noun`` and the one verbless phrase after it that mirrors a dependent of ``verb``."""
    words = tree.sentence.words
    own = [words[c - 1] for c in tree.children[noun.id]]
    if any(w.udeprel in PREDICATE_MARKERS | {"orphan", "cop", "mark"} for w in own):
        return None
    start = tree.span(noun.id, set(), skip_cc=True)[0]
    separator = words[start - 2] if start > 1 else None
    if separator is None or not (separator.upos == "CCONJ" or separator.form in (",", ";")):
        return None
    # Without the phrases it heads that come after it: *the Hungarian fund [with $40 million]*.
    end = max([noun.id] + [i for c in tree.children[noun.id] if c < noun.id for i in tree.subtree(c, set())])
    first = end + 1
    if first <= len(words) and words[first - 1].form == ",":
        first += 1  # a comma where the verb would be (*blue figures, rising stocks*)
    last = first
    while last <= len(words) and words[last - 1].upos != "PUNCT":
        last += 1
    region = words[first - 1:last - 1]
    inside = {w.id for w in region}
    tops = [w for w in region if w.head not in inside]
    if (len(tops) != 1 or (last <= len(words) and words[last - 1].form not in (".", ";", "!", "?"))
            or any(w.upos in ("VERB", "AUX") and w.udeprel not in ("amod", "acl") for w in region)):
        return None
    phrase = tops[0]
    shape = phrase_shape(tree, phrase)
    mirrored = any(phrase_shape(tree, words[c - 1]) == shape
                   for c in tree.children[verb.id] if words[c - 1].udeprel not in FUNCTION_RELATIONS | {"nsubj"})
    return (separator, phrase) if mirrored else None


def _mirrors(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a two-remnant clause's orphan mirrors a phrase of the full clause before the conjunction (or comma)."""
    pairs = [(r, c) for r, c in zip(clause.remnants, clause.correlates) if c is not None]
    if len(clause.remnants) != 2 or len(pairs) != 2:
        return False
    (_, promoted_correlate), (orphan, correlate) = sorted(pairs, key=lambda pair: pair[0] is not clause.promoted)
    words = tree.sentence.words
    start = tree.span(clause.promoted.id, set(), skip_cc=True)[0]
    # A conjunction of its own, or a comma before it (which the rebuild hung on the verb).
    joined = (any(words[c - 1].udeprel == "cc" for c in tree.children[clause.promoted.id])
              or (start > 1 and words[start - 2].form == ","))
    return (joined and promoted_correlate.id < correlate.id < start
            and phrase_shape(tree, orphan) == phrase_shape(tree, correlate))


def _mirrors_with_subject(clause: Alignment, tree: BasicTree) -> bool:
    """:func:`_mirrors`, for a promoted remnant that must also contrast with the subject.

    A noun after a comma, or one with a phrase of its own, may be an afterthought about the
    object (*studied in Paris, a city in France*) or a conjunct of it (*equipped with mirrors for
    correcting ..., and a barre for practicing*): a subject remnant mirrors the subject, as a
    pronoun, a name or a noun with the same kinds of determiner (:func:`_nominal_shape`), and the
    orphan a dependent of the verb itself (*lives in Berlin, my brother in Madrid*).
    """
    antecedent = clause.antecedent
    if antecedent is None or not _mirrors(clause, tree) or not _determined_subject(clause, tree):
        return False
    subject = clause.correlates[clause.remnants.index(clause.promoted)]
    return (all(c is not None and c.head == antecedent.id for c in clause.correlates)
            and _nominal_shape(tree, clause.promoted) == _nominal_shape(tree, subject))


def _nominal_shape(tree: BasicTree, word: Word) -> tuple[str, ...]:
    """A noun phrase's kind, to tell a subject remnant from an afterthought: pronoun, name, or
    the determiner, possessor and numeral relations of a common noun (*my brother* / *My sister*,
    *the girls* / *The boys*; not *a city* / *She*)."""
    return (word.upos,) if word.upos in ("PRON", "PROPN") else _determiners(tree, word)


def _has_possessive(tree: BasicTree, word: Word) -> bool:
    """Whether ``word`` has a possessive determiner or pronoun of its own (*her* in *her husband*)."""
    words = tree.sentence.words
    return any(words[c - 1].deprel == "nmod:poss" and words[c - 1].upos in ("PRON", "DET") for c in tree.children[word.id])


def _rebuild(sentence: Sentence, gapping: Gapping, promoted: Word, verb: Word, cc: Word, orphans: list[Word],
             accept: Callable[[Alignment, BasicTree], bool] | None = None) -> bool:
    """Make ``promoted`` a ``conj`` of ``verb`` with ``cc`` and ``orphans`` under it; whether the clause stays.

    ``cc`` is the conjunction, or the punctuation mark that stands for one (*, the Hungarian fund
    with $40 million*), which goes to the verb, as the GAPPING corpus has it; after a semicolon the
    clause is juxtaposed (``parataxis``), not coordinated.  The rebuilt clause is put back as the
    parser had it when it fails the shape checks a parsed clause must pass (:func:`eud.gapping.checks.unsound`) or
    the shape's own test ``accept``.
    """
    if _dominates(sentence, {promoted.id, *(o.id for o in orphans)}, verb.id):
        return False  # the parser hung the verb inside the clause; rebuilding would make a cycle
    saved = {w.id: (w.head, w.deprel) for w in (promoted, cc, *orphans)}
    promoted.head, promoted.deprel = verb.id, "parataxis" if cc.form == ";" else "conj"
    if cc.upos == "PUNCT":
        cc.head, cc.deprel = verb.id, "punct"
    else:
        cc.head, cc.deprel = promoted.id, "cc"
    for o in orphans:
        o.head, o.deprel = promoted.id, "orphan"
    clause = next((c for c in gapping.alignments(sentence) if c.promoted is promoted), None)
    tree = BasicTree(sentence)
    fails = clause is None or unsound(clause, tree) or (accept is not None and not accept(clause, tree))
    if fails:
        for i, (head, deprel) in saved.items():
            sentence.words[i - 1].head, sentence.words[i - 1].deprel = head, deprel
    return not fails


def _stranded(sentence: Sentence, word: Word) -> bool:
    """Whether ``word`` is a nominative personal pronoun right after a conjunction, not yet in a gapped clause."""
    if word.upos != "PRON" or word.feat("Case") != "Nom" or word.feat("PronType") != "Prs" or word.id < 3:
        return False
    if sentence.word(word.id - 1).upos != "CCONJ" or word.deprel == "orphan":
        return False
    return not any(w.head == word.id and w.deprel == "orphan" for w in sentence.words)


def _clause_after(sentence: Sentence, pronoun: Word) -> list[Word]:
    """The words after ``pronoun`` up to the next punctuation mark or conjunction, if none is a verb (else [])."""
    span = []
    for w in sentence.words[pronoun.id:]:
        if w.upos in ("PUNCT", "CCONJ"):
            break
        if w.upos not in REMNANT_UPOS:
            return []
        span.append(w)
    return span


def _in_clause_of(tree: BasicTree, verb: Word, word: Word) -> bool:
    """Whether ``word`` hangs under ``verb`` with no other predicate between them.

    A word on the way up that heads a clause of its own (a clausal relation, or a subject or copula
    among its dependents) puts ``word`` in that clause: in *got into an argument about who was the
    brightest, the fastest, and the best chess player*, *player* belongs to *was the brightest*.
    """
    words = tree.sentence.words
    i = word.head
    while i and i != verb.id:
        above = words[i - 1]
        if above.udeprel in CLAUSAL or any(words[c - 1].udeprel in ("nsubj", "csubj", "cop") for c in tree.children[i]):
            return False
        i = above.head
    return i == verb.id


def _dominates(sentence: Sentence, tops: set[int], word_id: int) -> bool:
    """Whether one of ``tops`` is ``word_id`` or above it in the basic tree."""
    seen: set[int] = set()
    i = word_id
    while i and i not in seen:
        if i in tops:
            return True
        seen.add(i)
        i = sentence.word(i).head or 0
    return False


Repair = Callable[[Sentence, Gapping, Settings, Evidence], int]
# The repairs that undo gapped clauses the parser posited; the others build clauses it missed.
UNDOING = frozenset({"antecedents", "correlates"})
# The repairs of gapped clauses a dash marks (eud.gapping.dashes): on by their own settings, orphan checks or not.
DASH_REPAIRS = frozenset({"dash_remnants", "remnant_chains"})
# The tree repairs, first to last, each named by the setting that enables it: first undo orphans
# without a predicate antecedent (eud.gapping.checks.demote_orphans), then gapped clauses that
# fail their checks or the learned judges (demote_without_correlates), then build the clauses a
# parser misses: those a dash marks, pairs before chains (a pair made by dash_gaps may run on into
# the next clause), then the shapes without a dash.  A parser's output goes through them once,
# before its graph is built.
REPAIRS: tuple[tuple[str, Repair], ...] = (
    ("antecedents", _antecedents),
    ("correlates", _correlates),
    ("dash_remnants", _rewriting(dash_gaps)),
    ("remnant_chains", _rewriting(chain_gaps)),
    ("verbless_subjects", _rebuilding(stranded_subjects)),
    ("bare_remnants", _rebuilding(adjacent_conjuncts)),
    ("mirrored_phrases", _rebuilding(mirrored_phrases)),
    ("echoed_subjects", _rebuilding(echoed_subjects)),
)
