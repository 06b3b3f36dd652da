"""Tests for the gapping rule: hand-written fixtures hold the expected output.

Each fixture under ``tests/fixtures/gapping_*.conllu`` is the *expected*
result: its DEPS column and empty-node lines are what the rule must produce
from the basic tree alone (the test strips them first).  Labels are plain
universal ones: the case rule, which runs later, is not applied here.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_UD, needs_shared, shared_files

from eud.conllu import format_sentence, parse_conllu, read_conllu
from eud.enhance.profiles import ProfileError, language_style, profile_from_dict, profile_style
from eud.gapping.correlates import (
    BasicTree,
    Pairing,
    align,
    label_from_correlate,
    label_from_form,
    pair_score,
    phrase_class,
    pos_class,
)
from eud.gapping.rule import Gapping, Style
from eud.graph import Sentence

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def enhance(sentence: Sentence, language: str | None = None, **options: Any) -> None:
    """Strip the enhanced layer, copy the basic tree and run the rule (in ``language``'s style, unless one is given)."""
    sentence.copy_basic_to_enhanced()
    if language is not None:
        options.setdefault("style", language_style(language))
    Gapping(**options).apply(sentence)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        # English: plain gapping, a remnant with a preposition, three conjuncts
        # (punctuation stays on the remnant and the empty node goes before the
        # remnants, as in EWT/GUM), an adverb with no correlate (advmod from
        # the remnant itself), a subject shared with the empty node because no
        # remnant replaces it (Case=Acc makes *her* the object), and a conjunct
        # of a noun that really contrasts with an argument of the verb above
        # (GUM also shares the antecedent's auxiliaries).
        ("gapping_en.conllu", {"language": "en_gum"}),
        # Czech: Case features beat word order (Janě↔Marii, Pavel↔Petr); the
        # promoted remnant is not the first one; the empty node follows the
        # comma closing an apposition.
        ("gapping_cs.conllu", {"language": "cs"}),
        # Latvian: the empty node goes after the promoted remnant and after the
        # dash standing for the verb; ellipsis with no antecedent gives 0:root
        # and an empty node with no copied columns; no CopyOf.
        ("gapping_lv.conllu", {"language": "lv", "copy_of": False}),
    ],
)
def test_fixture(name: str, options: dict) -> None:
    sentences = list(read_conllu(FIXTURES / name))
    assert sentences
    for sentence in sentences:
        expected = format_sentence(sentence)
        enhance(sentence, **options)
        assert format_sentence(sentence) == expected, sentence.sent_id


def test_default_style_expected_lines() -> None:
    """Spelled out, default style (the UD guidelines' example): Mary won gold and Peter bronze."""
    sentence = next(read_conllu(FIXTURES / "gapping_en.conllu"))
    enhance(sentence)
    assert [format_sentence(sentence).splitlines()[i] for i in (6, 7, 8)] == [
        "5\tPeter\tPeter\tPROPN\tNNP\tNumber=Sing\t2\tconj\t5.1:nsubj\t_",
        "5.1\twon\twin\tVERB\tVBD\tMood=Ind|Tense=Past|VerbForm=Fin\t_\t_\t2:conj\tCopyOf=2",
        "6\tbronze\tbronze\tNOUN\tNN\tNumber=Sing\t5\torphan\t5.1:obj\tSpaceAfter=No",
    ]
    assert sentence.deps((4, 0)) == "5.1:cc"
    assert sentence.deps((7, 0)) == "2:punct"


def test_english_style_goes_before_the_remnants() -> None:
    """EWT and GUM put the empty node before the first remnant: ``and 4.1 Peter bronze``."""
    sentence = next(read_conllu(FIXTURES / "gapping_en.conllu"))
    enhance(sentence, language="en_gum")
    assert [e.id for e in sentence.empty_nodes] == ["4.1"]
    assert sentence.deps((5, 0)) == "4.1:nsubj"
    assert sentence.deps((4, 0)) == "4.1:cc"


def test_ewt_style_keeps_the_promoted_remnants_edges() -> None:
    """EWT leaves the basic edges of the promoted remnant in place and copies them to the empty node."""
    sentence = next(read_conllu(FIXTURES / "gapping_en.conllu"))
    enhance(sentence, language="en_ewt")
    assert sentence.deps((5, 0)) == "2:conj|4.1:nsubj"
    assert sentence.deps((4, 0)) == "4.1:cc|5:cc"
    assert sentence.deps((6, 0)) == "4.1:obj"


def test_no_orphan_leaves_sentence_alone() -> None:
    text = "1\tMary\t_\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n2\twon\t_\tVERB\t_\t_\t0\troot\t0:root\t_\n\n"
    sentence = parse_conllu(text)[0]
    before = format_sentence(sentence)
    Gapping().apply(sentence)
    assert format_sentence(sentence) == before


def test_dep_correlate_is_never_copied() -> None:
    """A correlate labelled ``dep`` is no correlate: the remnant's own form decides."""
    text = (
        "1\tMary\t_\tPROPN\t_\t_\t2\tnsubj\t_\t_\n"
        "2\twon\t_\tVERB\t_\t_\t0\troot\t_\t_\n"
        "3\tgold\t_\tNOUN\t_\t_\t2\tdep\t_\t_\n"
        "4\tand\t_\tCCONJ\t_\t_\t5\tcc\t_\t_\n"
        "5\tPeter\t_\tPROPN\t_\t_\t2\tconj\t_\t_\n"
        "6\tbronze\t_\tNOUN\t_\t_\t5\torphan\t_\t_\n\n"
    )
    sentence = parse_conllu(text)[0]
    enhance(sentence)
    assert sentence.deps((5, 0)) == "5.1:nsubj"
    assert sentence.deps((6, 0)) == "5.1:obj"
    assert all(label != "dep" for head, _, label in sentence.enhanced if head[1])


@pytest.mark.parametrize(
    ("upos", "feats", "case_child", "rank", "expected"),
    [
        ("ADV", "_", False, 0, "advmod"),
        ("ADP", "_", False, 0, "obl"),  # an adposition left alone: its nominal is elided too
        ("NOUN", "_", True, 0, "obl"),
        ("NOUN", "Case=Nom", False, 1, "nsubj"),
        ("NOUN", "Case=Acc", False, 0, "obj"),
        ("NOUN", "Case=Dat", False, 0, "iobj"),
        ("NOUN", "Case=Loc", False, 0, "obl"),
        ("NOUN", "_", False, 0, "nsubj"),
        ("NOUN", "_", False, 1, "obj"),
        ("VERB", "VerbForm=Inf", False, 0, "xcomp"),
        ("VERB", "VerbForm=Conv", False, 0, "advcl"),
    ],
)
def test_label_from_form(upos: str, feats: str, case_child: bool, rank: int, expected: str) -> None:
    rows = f"1\tx\tx\t{upos}\t_\t{feats}\t0\troot\t_\t_\n"
    if case_child:
        rows = f"1\tin\tin\tADP\t_\t_\t2\tcase\t_\t_\n2\tx\tx\t{upos}\t_\t{feats}\t0\troot\t_\t_\n"
    sentence = parse_conllu(rows + "\n")[0]
    tree = BasicTree(sentence)
    assert label_from_form(tree, sentence.words[-1], rank) == expected


def test_bad_style_is_refused() -> None:
    with pytest.raises(ValueError, match="style.place"):
        Gapping(style=Style(place="somewhere"))


@pytest.mark.slow
def test_treebanks_no_orphan_or_dep_left() -> None:
    """On every gold dev set: each orphan ends up under an empty node, never as ``dep``."""
    paths = shared_files("*/*-ud-dev.conllu.xz")
    needs_shared(paths)
    orphans = 0
    for path in paths:
        rule = Gapping(style=language_style(path.parent.name))
        for sentence in read_conllu(path):
            if not any(w.deprel == "orphan" for w in sentence.words):
                continue
            enhance_with = sentence.copy()
            enhance_with.copy_basic_to_enhanced()
            rule.apply(enhance_with)
            for head, dep, label in enhance_with.enhanced:
                assert label != "orphan" and not (head[1] and label == "dep"), (sentence.sent_id, head, dep, label)
                # An empty node may sit before the first word (0.1), so look at words only.
                if dep[1] == 0 and sentence.word(dep[0]).deprel == "orphan":
                    assert head[1] > 0, (sentence.sent_id, dep)
                    orphans += 1
    assert orphans > 300


def test_style_lookup() -> None:
    """Styles come from the profiles' [gapping] tables: a treebank's own wins over its language's."""
    assert Gapping(style=language_style("lv_lvtb")).style == Style(place="promoted_word", unanchored=True)
    english = {"place": "before_first", "propagate": False, "skip_penalty": 0.5, "punct_after": False,
               "punct_embedded": False, "nested": True, "person_cost": 2.0,
               "contrasts": ("some/other", "one/other", "one/another", "former/latter"), "unstressed": ("it",)}
    assert Gapping(style=language_style("en")).style == Style(**english, share_obj=True, promoted=True)
    assert Gapping(style=language_style("en_ewt")).style == Style(**english, punct=False, keep=True)
    assert Gapping(style=language_style("en_gum")).style == Style(**{**english, "propagate": True}, punct=False, aux=True)
    assert Gapping(style=language_style("xx_foo")).style == Style()
    assert Gapping().style == Style()


def test_profile_style_checks_the_table() -> None:
    assert profile_style(profile_from_dict({"gapping": {"dash": False}}, "t")) == Style(dash=False)
    with pytest.raises(ProfileError, match="unknown \\[gapping\\] key"):
        profile_style(profile_from_dict({"gapping": {"position": "x"}}, "t"))
    with pytest.raises(ProfileError, match="punct must be a bool"):
        profile_style(profile_from_dict({"gapping": {"punct": "no"}}, "t"))
    style = profile_style(profile_from_dict({"gapping": {"contrasts": ["Some/other"]}}, "t"))
    assert style.contrasts == ("Some/other",) and style.pairing.contrasts == {frozenset({"some", "other"})}
    for bad in ("some/other", ["some-other"], ["a/b/c"], [1]):
        with pytest.raises(ProfileError, match='contrasts must be a list of "lemma/lemma" strings'):
            profile_style(profile_from_dict({"gapping": {"contrasts": bad}}, "t"))
    style = profile_style(profile_from_dict({"gapping": {"unstressed": ["It"]}}, "t"))
    assert style.unstressed == ("It",) and style.pairing.unstressed == {"it"}
    for bad in ("it", ["some/other"], [1]):
        with pytest.raises(ProfileError, match="unstressed must be a list of lemma strings"):
            profile_style(profile_from_dict({"gapping": {"unstressed": bad}}, "t"))


def _objective(tree: BasicTree, remnants: list, correlates: list, choice: tuple) -> float | None:
    """align's objective for one assignment (None when it pairs an incompatible remnant)."""
    n, m = len(remnants), len(correlates)
    total = 0.0
    for i, j in enumerate(choice):
        if j is None:
            continue
        score = pair_score(tree, remnants[i], correlates[j])
        if score < 0:
            return None
        total += score + 0.5 * (1 - abs(i / max(n - 1, 1) - j / max(m - 1, 1)))
    picked = [j for j in choice if j is not None]
    total -= 1.5 * sum(1 for a in range(len(picked)) for b in range(a + 1, len(picked)) if picked[a] > picked[b])
    return total


def test_align_matches_brute_force() -> None:
    """The pruned search finds an assignment as good as trying every one."""
    rng = random.Random(7)
    upos = ["NOUN", "PRON", "ADV", "VERB", "ADJ"]
    cases = ["_", "Case=Nom", "Case=Acc", "Case=Dat"]
    for _ in range(200):
        n, m = rng.randint(1, 4), rng.randint(1, 4)
        rows = []
        for i in range(1, n + m + 1):
            rows.append(f"{i}\tw{i}\tl{rng.randint(1, 3)}\t{rng.choice(upos)}\t_\t{rng.choice(cases)}\t0\troot\t_\t_")
        sentence = parse_conllu("\n".join(rows) + "\n\n")[0]
        tree = BasicTree(sentence)
        correlates, remnants = sentence.words[:m], sentence.words[m:]
        got = align(tree, remnants, correlates)
        got_choice = tuple(None if c is None else correlates.index(c) for c in got)
        best = max(
            value
            for choice in itertools.product([None, *range(m)], repeat=n)
            if len([j for j in choice if j is not None]) == len({j for j in choice if j is not None})
            and (value := _objective(tree, remnants, correlates, choice)) is not None
        )
        assert _objective(tree, remnants, correlates, got_choice) == pytest.approx(best)


def test_random_trees_give_valid_graphs() -> None:
    """Parser-like garbage (orphans under orphans, orphans of the root's child...) never breaks the graph."""
    from eud.graph import Word
    from eud.validate import check_sentence

    rng = random.Random(11)
    upos = ["NOUN", "PRON", "VERB", "ADV", "ADJ", "ADP", "CCONJ", "PUNCT", "AUX"]
    deprels = ["nsubj", "obj", "obl", "advmod", "conj", "orphan", "orphan", "cc", "punct", "case", "det", "dep"]
    for _ in range(1500):
        n = rng.randint(2, 10)
        order = rng.sample(range(1, n + 1), n)
        heads = {order[0]: 0}
        for k, w in enumerate(order[1:], 1):
            heads[w] = order[rng.randrange(k)]
        words = [
            Word(i, f"w{i}", f"l{i}", rng.choice(upos), "_", rng.choice(["_", "Case=Nom", "Case=Acc"]),
                 heads[i], "root" if heads[i] == 0 else rng.choice(deprels))
            for i in range(1, n + 1)
        ]
        sentence = Sentence(words=words)
        language = rng.choice([None, "lv", "en_ewt", "nl", "fi"])
        enhance(sentence, language=language)
        assert check_sentence(sentence) == []
        for node in sentence.empty_nodes:  # an empty node copies a word (lv_lvtb: or stands for an unpronounced one)
            if node.misc == "_" and language == "lv":
                assert (node.form, node.lemma, node.upos) == ("_", "_", "VERB")
                continue
            assert node.form.startswith("w") and node.lemma.startswith("l") and "CopyOf=" in node.misc
        for head, dep, label in sentence.enhanced:
            assert not (head[1] and label == "dep")
            # Left only where the clause has no antecedent: between words, as the basic tree has it.
            assert label != "orphan" or (head[1] == 0 and dep[1] == 0)


def test_parataxis_echo_takes_its_head_as_antecedent() -> None:
    """*Mary won gold; Peter bronze.*: the parataxis clause copies *won* and keeps its relation."""
    rows = [
        "1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t_\t_",
        "2\twon\twin\tVERB\t_\tTense=Past\t0\troot\t_\t_",
        "3\tgold\tgold\tNOUN\t_\t_\t2\tobj\t_\t_",
        "4\t;\t;\tPUNCT\t_\t_\t5\tpunct\t_\t_",
        "5\tPeter\tPeter\tPROPN\t_\t_\t2\tparataxis\t_\t_",
        "6\tbronze\tbronze\tNOUN\t_\t_\t5\torphan\t_\t_",
    ]
    sentence = parse_conllu("\n".join(rows) + "\n\n")[0]
    enhance(sentence)
    empty = sentence.node((5, 1))
    assert (empty.lemma, empty.upos, empty.misc) == ("win", "VERB", "CopyOf=2")
    assert sentence.deps((5, 1)) == "2:parataxis"
    assert [sentence.deps((i, 0)) for i in (4, 5, 6)] == ["5.1:punct", "5.1:nsubj", "5.1:obj"]


def test_english_profile_through_the_whole_enhancer() -> None:
    """converters/en.toml's [gapping] choices, as the GAPPING corpus annotates (expected DEPS written out).

    The empty node gets only its conj edge, not the antecedent's ccomp (propagate = false); the
    antecedent's auxiliary stays off it while its subject is shared; the comma before the remnants
    goes to it when the antecedent is the main verb, not under an embedded one (punct_embedded); a
    bare nominal before an oblique pairs with the object, the subject being shared
    (skip_penalty); a possessive remnant (*Beta's 3 %*) is a subject, not an oblique.  A parser's
    tree that hangs the promoted remnant on the object (*ate an apple and Mary a pear*) still gives
    Mary the subject of the empty node, and not the object of *ate* by conjunct propagation.
    A name repeated in another role is no contrast (*Does Ann trust Ben more, or Ben Ann?*: Ben is
    the subject, not paired with the object Ben for their same lemma).  An expletive is no
    correlate of a content word (*In the north there is rain, and in the south sun*: sun is the
    subject, not ``expl``), and a first-person pronoun is shared rather than contrasted (*Paul
    informed me that cats purr, and Ann that dogs bark*: Ann is the subject).
    """
    from eud.enhance import Enhancer, find_profile

    enhancer = Enhancer(find_profile("en"))
    for sentence in read_conllu(FIXTURES / "gapping_en_profile.conllu"):
        expected = format_sentence(sentence)
        sentence.empty_nodes = []
        sentence.enhanced = type(sentence.enhanced)()
        assert format_sentence(enhancer.enhance(sentence)) == expected, sentence.sent_id


def _enhance_en(name: str) -> list[tuple[str, Sentence]]:
    """Each sentence of a fixture as expected (its text) and as the whole enhancer with converters/en.toml makes it."""
    from eud.enhance import Enhancer, find_profile

    enhancer = Enhancer(find_profile("en"))
    out = []
    for sentence in read_conllu(FIXTURES / name):
        expected = format_sentence(sentence)
        sentence.empty_nodes = []
        sentence.enhanced = type(sentence.enhanced)()
        out.append((expected, enhancer.enhance(sentence)))
    return out


def test_nested_ellipsis_gets_an_empty_node_per_elided_predicate() -> None:
    """The guidelines' *Mary wants to buy a book and Jenny E E a CD*, in the English profile (nested = true).

    *Kim wants to paint the kitchen and Lee the hall*: *hall* contrasts with *kitchen*, the object
    of *paint* (wants' xcomp), so both verbs are elided: E1 copies *wants*, E2 copies *paint*.
    *Lee* fits *Kim* at the top and stays on E1.  *Ann relaxes by reading novels and Ben poems*: the
    same through an advcl.
    """
    results = _enhance_en("gapping_en_nested.conllu")[:2]
    for expected, sentence in results:
        assert format_sentence(sentence) == expected, sentence.sent_id
    (_, kim), (_, ann) = results
    assert [e.id for e in kim.empty_nodes] == ["7.1", "7.2"]
    assert [kim.deps((7, 1)), kim.deps((7, 2))] == ["2:conj:and", "7.1:xcomp"]
    assert [kim.node((7, 1)).misc, kim.node((7, 2)).misc] == ["CopyOf=2", "CopyOf=4"]
    assert [kim.deps((i, 0)) for i in (7, 8, 10)] == ["7.1:cc", "7.1:nsubj", "7.2:obj"]
    assert [ann.deps((6, 1)), ann.deps((6, 2))] == ["2:conj:and", "6.1:advcl"]
    assert [ann.deps((i, 0)) for i in (7, 8)] == ["6.1:nsubj", "6.2:obj"]


def test_without_nested_the_remnants_stay_on_one_empty_node() -> None:
    """The default style (the UD treebanks: no nested empty nodes) hangs *hall* from the single E as obj."""
    sentence = next(read_conllu(FIXTURES / "gapping_en_nested.conllu"))
    enhance(sentence, style=Style(place="before_first"))
    assert [e.id for e in sentence.empty_nodes] == ["7.1"]
    assert [sentence.deps((i, 0)) for i in (8, 10)] == ["7.1:nsubj", "7.1:obj"]


def test_function_words_do_not_count_as_skipped_correlates() -> None:
    """*Tom is expected to win gold in Oslo and Kim in Rome*: Kim pairs with the subject Tom.

    Pairing Kim with *gold* leaves no content correlate out between the pairs; pairing it with
    *Tom* leaves out *gold* and, counted before, the function words *is* and *to*, which no
    content remnant can match (skip_penalty), so Kim became the object of *win*.
    """
    expected, sentence = _enhance_en("gapping_en_nested.conllu")[2]
    assert format_sentence(sentence) == expected
    assert [sentence.deps((i, 0)) for i in (10, 12)] == ["9.1:nsubj:pass", "9.2:obl:in"]
    assert sentence.deps((1, 0)) == "3:nsubj:pass|5:nsubj:xsubj"
    assert sentence.deps((6, 0)) == "5:obj|9.2:obj"  # share_obj, at the nested node (Kim is to win gold too)


def test_same_lemma_bonus() -> None:
    """The same lemma (the form where LEMMA is ``_``) adds 1.5, except for proper names."""
    rows = [
        "1\tto\t_\tPART\t_\t_\t2\tmark\t_\t_",
        "2\tplay\t_\tVERB\t_\t_\t0\troot\t_\t_",
        "3\tto\t_\tPART\t_\t_\t4\tmark\t_\t_",
        "4\tPlay\t_\tVERB\t_\t_\t2\txcomp\t_\t_",
        "5\tsing\t_\tVERB\t_\t_\t2\txcomp\t_\t_",
        "6\tAnn\tAnn\tPROPN\t_\t_\t2\tnsubj\t_\t_",
        "7\tAnn\tAnn\tPROPN\t_\t_\t2\tobj\t_\t_",
    ]
    sentence = parse_conllu("\n".join(rows) + "\n\n")[0]
    tree = BasicTree(sentence)
    play, other_play, sing, ann, other_ann = (sentence.words[i] for i in (1, 3, 4, 5, 6))
    assert pair_score(tree, other_play, play) == pytest.approx(7.0)  # V=V 2, VERB=VERB 0.5, to=to 3, same form 1.5
    assert pair_score(tree, sing, play) == pytest.approx(1.0)  # V=V 2, VERB=VERB 0.5, a marker on one side only -1.5
    assert pair_score(tree, other_ann, ann) == pytest.approx(3.0)  # N=N 2, PROPN=PROPN 0.5, no markers 0.5, no name bonus


def test_a_first_or_second_person_pronoun_is_shared_not_contrasted() -> None:
    """*Paul informed me that cats purr, and Ann that dogs bark*: *Ann* contrasts with *Paul*, not with *me*."""
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-15")
    tree = BasicTree(sentence)
    paul, me, ann = sentence.words[0], sentence.words[2], sentence.words[8]
    # Only the shared UPOS (a name for a name) tells them apart, by less than word order can.
    assert pair_score(tree, ann, paul) == pytest.approx(pair_score(tree, ann, me) + 0.5)
    cost = Pairing(person_cost=2)
    assert pair_score(tree, ann, paul, pairing=cost) == pytest.approx(pair_score(tree, ann, me, pairing=cost) + 2.5)
    enhance(sentence, language="en")  # converters/en.toml: person_cost = 2.0
    assert [sentence.deps((i, 0)) for i in (9, 12)] == ["8.1:nsubj", "8.1:ccomp"]
    assert sentence.deps((3, 0)) == "2:obj|8.1:obj"  # shared (share_obj): no remnant replaces it


def test_a_remnant_pairs_with_a_correlate_of_its_own_part_of_speech() -> None:
    """*He gave Mary a book and Sue a pen*: the name contrasts with the name, the noun with the noun.

    Order alone ties *Sue*/*He* + *pen*/*Mary* with *Sue*/*Mary* + *pen*/*book*; the first made
    *book* a shared object of a clause whose indirect object was *pen*.
    """
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-16")
    tree = BasicTree(sentence)
    he, mary, book, sue, pen = (sentence.words[i] for i in (0, 2, 4, 6, 8))
    assert pair_score(tree, sue, mary) == pytest.approx(pair_score(tree, sue, he) + 0.5)
    assert pair_score(tree, pen, book) == pytest.approx(pair_score(tree, pen, mary) + 0.5)
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (7, 9)] == ["6.1:iobj", "6.1:obj"]
    assert sentence.deps((1, 0)) == "2:nsubj|6.1:nsubj"  # the subject is shared
    assert sentence.deps((5, 0)) == "2:obj"  # contrasted with pen, not shared


def test_an_adjective_heading_its_own_noun_phrase_contrasts_with_a_nominal() -> None:
    """*One of them went to Oslo and the other to Rome*: *the other* stands for a noun, the subject."""
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-17")
    tree = BasicTree(sentence)
    one, other = sentence.words[0], sentence.words[8]
    assert (pos_class(other), phrase_class(tree, other)) == ("ADJ", "N")
    assert pair_score(tree, other, one) > 0
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (9, 11)] == ["7.1:nsubj", "7.1:obl"]


def test_share_obj_gives_the_empty_node_the_particle_of_a_phrasal_verb() -> None:
    """*He gave up tea and she coffee*: she gave up coffee, so *up* belongs to the empty node too."""
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-18")
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (3, 4, 6, 7)] == ["2:compound:prt|5.1:compound:prt", "2:obj", "5.1:nsubj",
                                                             "5.1:obj"]
    enhance(sentence, language="en_ewt")  # a profile without share_obj leaves the particle to its verb
    assert sentence.deps((3, 0)) == "2:compound:prt"


def test_words_a_profile_makes_contrast_pair_up_first() -> None:
    """*Some dated it to May, others to June*: *others* answers *Some*; *it* is shared, not replaced.

    Without the profile's ``contrasts`` the skip penalty pairs *others* with the adjacent *it*.
    """
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-19")
    tree = BasicTree(sentence)
    some, it, others = sentence.words[0], sentence.words[2], sentence.words[6]
    english = Gapping(style=language_style("en")).style.pairing
    contrasts = Pairing(contrasts=english.contrasts)
    assert pair_score(tree, others, some) == pair_score(tree, others, it)
    assert pair_score(tree, others, some, pairing=contrasts) == pytest.approx(
        pair_score(tree, others, it, pairing=contrasts) + 3.0)
    assert pair_score(tree, others, it, pairing=english) < 0  # and English *it* contrasts with nothing (unstressed)
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (1, 3, 7, 9)] == ["2:nsubj", "2:obj|6.1:obj", "6.1:nsubj", "6.1:obl"]


def test_expletive_correlates_only_an_expletive() -> None:
    """*there* (expl) pairs with a remnant *there*, never with a noun; the noun then takes the subject."""
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-7")
    tree = BasicTree(sentence)
    there, sun = sentence.words[3], sentence.words[11]
    assert pair_score(tree, sun, there) < 0
    assert pair_score(tree, there, there) > 0
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (11, 12)] == ["8.1:obl", "8.1:nsubj"]
    assert sentence.deps((4, 0)) == "5:expl|8.1:expl"  # shared (share_obj): no remnant is expl


def test_share_obj_gives_the_empty_node_the_object_no_remnant_replaces() -> None:
    """*The clerk filed the papers in Boston on Monday and in Denver on Friday*: E files the papers too.

    With share_obj (converters/en.toml, the GAPPING corpus) the object, like the subject, hangs from
    the empty node; EWT and GUM keep it on the antecedent only.
    """
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-8")
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (2, 5, 12, 14)] == ["3:nsubj|10.1:nsubj", "3:obj|10.1:obj", "10.1:obl", "10.1:obl"]
    enhance(sentence, language="en_gum")
    assert [sentence.deps((i, 0)) for i in (2, 5)] == ["3:nsubj|10.1:nsubj", "3:obj"]


def test_share_obj_shares_an_xcomp_no_remnant_replaces() -> None:
    """*Sue asked Tom to cook dinner, and Ann Ben*: Ann asked Ben to cook dinner, so E takes the xcomp too.

    The remnants replace the subject and the object; the complement *cook* is shared (share_obj),
    unlike a predicate that has its own nested empty node.
    """
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-13")
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (1, 3, 5, 9, 10)] == ["2:nsubj", "2:obj", "2:xcomp|8.1:xcomp", "8.1:nsubj", "8.1:obj"]
    kim = next(read_conllu(FIXTURES / "gapping_en_nested.conllu"))
    enhance(kim, language="en")
    assert kim.deps((4, 0)) == "2:xcomp"  # wants' xcomp paint is elided (7.2), not shared


def test_promoted_remnant_takes_the_relation_of_the_elided_nominal() -> None:
    """*The first team scored in May and the second in June*: *second* contrasts with *first*, a
    modifier of the subject *team*, whose noun is elided too; promoted over it, *second* is the
    subject.  *Lee spent more money on books and less on food*: *less* is the object.  Without
    ``promoted`` (GUM's profile) *second*, which heads its own noun phrase (*the second*), pairs
    with *team* itself (:func:`phrase_class`); before that it was taken for a predicative
    adjective (xcomp) and the subject *team* was shared with the empty node as well.
    """
    first, money = (
        next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == sent_id)
        for sent_id in ("gap-profile-9", "gap-profile-10")
    )
    enhance(first, language="en")
    assert [first.deps((i, 0)) for i in (3, 9, 11)] == ["4:nsubj", "7.1:nsubj", "7.1:obl"]
    enhance(money, language="en")
    assert [money.deps((i, 0)) for i in (1, 4, 8, 10)] == ["2:nsubj|7.1:nsubj", "2:obj", "7.1:obj", "7.1:obl"]
    enhance(first, language="en_gum")
    assert [first.deps((i, 0)) for i in (3, 9)] == ["4:nsubj", "7.1:nsubj"]


def test_modifier_label_follows_the_remnants_category() -> None:
    """A nominal remnant of an advcl correlate is obl, a clausal remnant of an obl correlate advcl.

    *Kim was fined in Ohio for speeding and in Utah for fraud*: *fraud* (NOUN) contrasts with
    *speeding* (advcl) and is ``obl``; *Ann left after the war, and Ben after prices rose*: *rose*
    (a clause) contrasts with *war* (obl) and is ``advcl``.
    """
    fined, left = (
        next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == sent_id)
        for sent_id in ("gap-profile-11", "gap-profile-12")
    )
    speeding, fraud = fined.words[6], fined.words[11]
    assert label_from_correlate(speeding) == "advcl"
    assert label_from_correlate(speeding, fraud) == "obl"
    assert label_from_correlate(left.words[4], left.words[10]) == "advcl"
    enhance(fined, language="en")
    assert [fined.deps((i, 0)) for i in (10, 12)] == ["8.1:obl", "8.1:obl"]
    enhance(left, language="en")
    assert [left.deps((i, 0)) for i in (8, 11)] == ["7.1:nsubj", "7.1:advcl"]


def test_adposition_remnant_is_oblique() -> None:
    """*The red team sat near the stage and the blue team behind*: *behind* is obl, not an object."""
    sentence = next(s for s in read_conllu(FIXTURES / "gapping_en_profile.conllu") if s.sent_id == "gap-profile-14")
    enhance(sentence, language="en")
    assert [sentence.deps((i, 0)) for i in (11, 12)] == ["8.1:nsubj", "8.1:obl"]


def test_a_remnant_contrasting_with_a_predicate_keeps_it_out_of_the_elided_chain() -> None:
    """*Prices closed higher in Stockholm and lower in Zurich*, with *Stockholm* on *higher* (as a parser may have it).

    *Zurich* fits *Stockholm* best below *higher*, but *lower* contrasts with *higher* itself, so
    only *closed* was elided: one empty node, *lower* its xcomp, *Zurich* its obl (not two nested
    nodes with *lower* left without a correlate).
    """
    from eud.enhance import Enhancer, find_profile

    rows = [
        "1\tPrices\tprice\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t_\t_",
        "2\tclosed\tclose\tVERB\tVBD\tMood=Ind|Tense=Past|VerbForm=Fin\t0\troot\t_\t_",
        "3\thigher\thigh\tADJ\tJJR\tDegree=Cmp\t2\txcomp\t_\t_",
        "4\tin\tin\tADP\tIN\t_\t5\tcase\t_\t_",
        "5\tStockholm\tStockholm\tPROPN\tNNP\tNumber=Sing\t3\tobl\t_\t_",
        "6\tand\tand\tCCONJ\tCC\t_\t7\tcc\t_\t_",
        "7\tlower\tlow\tADJ\tJJR\tDegree=Cmp\t2\tconj\t_\t_",
        "8\tin\tin\tADP\tIN\t_\t9\tcase\t_\t_",
        "9\tZurich\tZurich\tPROPN\tNNP\tNumber=Sing\t7\torphan\t_\tSpaceAfter=No",
        "10\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_",
    ]
    sentence = Enhancer(find_profile("en")).enhance(parse_conllu("\n".join(rows) + "\n\n")[0])
    assert [(e.id, e.misc) for e in sentence.empty_nodes] == [("6.1", "CopyOf=2")]
    assert [sentence.deps((i, 0)) for i in (7, 9)] == ["6.1:xcomp", "6.1:obl:in"]
    # Zurich's relation comes from its own form: Stockholm is no dependent of the antecedent.
    (clause,) = Gapping(style=language_style("en")).alignments(sentence)
    assert [c.form if c else None for c in clause.correlates] == ["higher", None]


# The promoted remnant is the root (a fragment): nothing pronounced to copy.
NO_ANTECEDENT = """# sent_id = root-remnant
# text = And Mary a pear.
1	And	and	CCONJ	CC	_	2	cc	_	_
2	Mary	Mary	PROPN	NNP	Number=Sing	0	root	_	_
3	a	a	DET	DT	Definite=Ind|PronType=Art	4	det	_	_
4	pear	pear	NOUN	NN	Number=Sing	2	orphan	_	SpaceAfter=No
5	.	.	PUNCT	.	_	2	punct	_	_

"""

# An adverbial clause of contrast echoes its head: the head is the antecedent.
ADVCL_GAP = """# sent_id = advcl-remnant
# text = The first is marked by loss, while the second by gain.
1	The	the	DET	DT	_	2	det	_	_
2	first	first	ADJ	JJ	Degree=Pos	4	nsubj:pass	_	_
3	is	be	AUX	VBZ	_	4	aux:pass	_	_
4	marked	mark	VERB	VBN	Tense=Past|VerbForm=Part|Voice=Pass	0	root	_	_
5	by	by	ADP	IN	_	6	case	_	_
6	loss	loss	NOUN	NN	Number=Sing	4	obl	_	SpaceAfter=No
7	,	,	PUNCT	,	_	10	punct	_	_
8	while	while	SCONJ	IN	_	10	mark	_	_
9	the	the	DET	DT	_	10	det	_	_
10	second	second	ADJ	JJ	Degree=Pos	4	advcl	_	_
11	by	by	ADP	IN	_	12	case	_	_
12	gain	gain	NOUN	NN	Number=Sing	10	orphan	_	SpaceAfter=No
13	.	.	PUNCT	.	_	4	punct	_	_

"""


def test_no_antecedent_no_empty_node() -> None:
    """An empty node copies a pronounced predicate: with none to copy, none is made, and the graph still validates."""
    from eud.pipeline import enhance as enhance_all
    from eud.validate import check_sentence

    sentences = enhance_all(parse_conllu(NO_ANTECEDENT), "en")
    for sentence in sentences:
        assert sentence.empty_nodes == [], sentence.sent_id
        assert check_sentence(sentence) == [], sentence.sent_id
        orphan = next(w for w in sentence.words if w.deprel == "orphan")
        # The basic tree's orphan edge stays: nothing else says where the remnant belongs.
        assert [(h, label) for h, _, label in sentence.enhanced.heads(orphan.node)] == [((orphan.head, 0), "orphan")]
    text = "".join(format_sentence(s) for s in sentences)
    assert "CopyOf" not in text and "\n1.1\t" not in text


def test_every_empty_node_copies_a_word() -> None:
    """On the GAPPING corpus's gold orphan trees, every empty node the enhancer writes copies a word: CopyOf, its form and lemma."""
    path = SHARED_UD.parent / "gapping" / "gapping-orphan-basic.dev.conllu.xz"
    if not path.exists():
        pytest.skip(f"GAPPING corpus not found at {path.parent}")
    from eud.conllu import open_text
    from eud.nn.data import strip_enhanced
    from eud.pipeline import enhance as enhance_all

    with open_text(path) as f:
        trees = parse_conllu(strip_enhanced(f.read()))
    nodes = 0
    for sentence in enhance_all(trees, "en"):
        for node in sentence.empty_nodes:
            nodes += 1
            copied = re.search(r"(?:^|\|)CopyOf=(\d+)(?:\||$)", node.misc)
            assert copied is not None, (sentence.sent_id, node)
            word = sentence.word(int(copied.group(1)))
            # The lemma is the copied word's, "_" where the file gives that word none.
            assert node.form == word.form != "_" and node.lemma == word.lemma, (sentence.sent_id, node)
    assert nodes > 80


def test_an_adverbial_clause_of_contrast_copies_its_head() -> None:
    """*A is marked by loss, while B by gain*: the gapped advcl restores its head verb, with CopyOf."""
    from eud.pipeline import enhance as enhance_all

    (sentence,) = enhance_all(parse_conllu(ADVCL_GAP), "en")
    (node,) = sentence.empty_nodes
    assert (node.form, node.lemma, node.misc) == ("marked", "mark", "CopyOf=4")
    heads = {sentence.word(i).form: [(h, label.split(":")[0]) for h, _, label in sentence.enhanced.heads((i, 0))]
             for i in (10, 12)}
    assert heads["second"] == [(node.node, "nsubj")] and heads["gain"] == [(node.node, "obl")]
    assert (4, 0) in [h for h, _, label in sentence.enhanced.heads(node.node) if label.startswith("advcl")]
