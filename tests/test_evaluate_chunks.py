"""Scoring in chunks (eud.evaluate.chunks) gives the counts of whole-file scoring, to the last one.

Whole-file scoring is ``evaluate_loaded(read_for_scoring(gold), read_for_scoring(system))``:
both files read whole and aligned at once, as the official scorer does.  The
streamed scorer behind ``evaluate_files`` runs here with ``chunk_words=1``, so
it cuts at every place it may; hand-made pairs put those places where they
are tricky (multiword tokens, sentence splits that differ, empty nodes), and a
Hypothesis property tries random re-tokenizations against both whole-file
scoring and the official scorer.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eud.collapse import collapse_empty_nodes
from eud.conllu import ConlluError, format_sentence, parse_conllu
from eud.evaluate import evaluate_files, evaluate_loaded, evaluate_sentences
from eud.evaluate import sources as sources_module
from eud.evaluate.chunks import aligned_chunks
from eud.evaluate.data import Builder, ScoringError, read_for_scoring
from eud.evaluate.sources import rows_from_file


def counts(evaluation) -> dict:
    """Every count of an evaluation: official metrics, ELAS by type, empty nodes (with their order)."""
    return {
        "metrics": {k: (s.correct, s.gold, s.system, s.aligned) for k, s in evaluation.scores.items()},
        "by_type": [(k, t.gold, t.gold_correct, t.system, t.system_correct) for k, t in evaluation.by_type.items()],
        "empty": [(k, s.correct, s.gold, s.system) for k, s in evaluation.empty_nodes.items()],
    }


def whole(gold: Path, system: Path, levels: str = "") -> dict:
    return counts(evaluate_loaded(read_for_scoring(gold, levels), read_for_scoring(system, levels)))


def streamed(gold: Path, system: Path, levels: str = "", chunk_words: int = 1) -> dict:
    return counts(evaluate_files(gold, system, enhancements=levels, chunk_words=chunk_words))


def chunk_sizes(gold: Path, system: Path, chunk_words: int = 1) -> list[tuple[int, int]]:
    """(gold sentences, system sentences) of each chunk the streamed scorer makes."""
    chunks = aligned_chunks(rows_from_file(gold), rows_from_file(system), Builder("g", ""), Builder("s", ""),
                            min_words=chunk_words)
    return [(g.n_sentences, s.n_sentences) for g, s in chunks]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def word(i: int, form: str, head: int, rel: str = "dep", deps: str | None = None, upos: str = "X") -> str:
    """One word line; DEPS default to the basic edge."""
    return f"{i}\t{form}\t{form.lower()}\t{upos}\t_\t_\t{head}\t{rel}\t{deps or f'{head}:{rel}'}\t_\n"


def flat(*forms: str) -> str:
    """A sentence whose first word is the root and every other word hangs on it."""
    return "".join(word(i, f, 0 if i == 1 else 1, "root" if i == 1 else "dep") for i, f in enumerate(forms, 1)) + "\n"


def mwt(first: int, last: int, form: str) -> str:
    return f"{first}-{last}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_\n"


# -- the fixtures ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("levels", ["", "1", "4", "6", "123456"])
def test_fixture_pair_streamed_equals_whole(fixtures, levels):
    gold, system = fixtures / "eval_gold.conllu", fixtures / "eval_system.conllu"
    got = streamed(gold, system, levels)
    assert got == whole(gold, system, levels)
    assert got == streamed(gold, system, levels, chunk_words=5000)
    # A cut after sentence 1 only: gold's third sentence starts with the multiword token "Don't".
    assert chunk_sizes(gold, system) == [(1, 1), (2, 2)]
    if not levels:
        metrics = got["metrics"]
        assert metrics["Words"] == (20, 21, 22, None)
        assert metrics["LAS"] == (18, 21, 22, 20)
        assert metrics["ELAS"] == (16, 23, 23, None)
        assert metrics["EULAS"] == (18, 23, 23, None)
        assert got["by_type"][0] == ("basic", 16, 14, 18, 14)
        assert got["empty"] == [("EmptyNodes", 1, 1, 1), ("EmptyEdges", 3, 4, 4), ("EmptyUEdges", 4, 4, 4)]


@pytest.mark.parametrize("name", sorted(p.name for p in Path(__file__).parent.joinpath("fixtures").glob("*.conllu")))
def test_every_fixture_against_itself(fixtures, name):
    path = fixtures / name
    try:
        expected = whole(path, path)
    except (ScoringError, ConlluError) as err:
        # Not scorable (no HEAD, broken on purpose): the same error.
        with pytest.raises(type(err)) as streamed_err:
            streamed(path, path)
        assert str(streamed_err.value) == str(err)
        return
    assert streamed(path, path) == expected
    sizes = chunk_sizes(path, path)
    assert sum(g for g, _ in sizes) == read_for_scoring(path).n_sentences


# -- hand-made cuts ---------------------------------------------------------------------------------------------


def test_no_cut_before_a_multiword_token_the_official_lcs_reaches_across(tmp_path):
    # Gold "xab" is one token; system has "x" "a" "b".  Gold's next sentence starts with the
    # multiword token "bd" = "b" + "d".  The official scorer opens a multiword span there that takes in
    # system "a" "b" of the sentence before, and its LCS aligns system "b" with gold word "b":
    # one aligned word, across the sentence end.  Cutting there would lose it.
    gold = write(tmp_path, "g.conllu", flat("xab") + mwt(1, 2, "bd") + word(1, "b", 0, "root") + word(2, "d", 1)
                 + "\n")
    system = write(tmp_path, "s.conllu", flat("x", "a", "b") + flat("bd"))
    got = streamed(gold, system)
    assert got == whole(gold, system)
    assert got["metrics"]["Words"] == (1, 3, 4, None)
    assert got["metrics"]["Tokens"] == (1, 2, 4, None)
    assert got["metrics"]["Sentences"] == (2, 2, 2, None)
    assert chunk_sizes(gold, system) == [(2, 2)]
    udeval = pytest.importorskip("udtools.udeval")
    official = udeval.evaluate(*(udeval.load_conllu(io.StringIO(p.read_text()), "x", {}) for p in (gold, system)))
    assert (official["Words"].correct, official["Words"].gold_total, official["Words"].system_total) == (1, 3, 4)


def test_system_multiword_token_after_the_sentence_end_blocks_the_cut_too(tmp_path):
    gold = write(tmp_path, "g.conllu", flat("x", "a", "b") + flat("bd"))
    system = write(tmp_path, "s.conllu", flat("xab") + mwt(1, 2, "bd") + word(1, "b", 0, "root") + word(2, "d", 1)
                   + "\n")
    got = streamed(gold, system)
    assert got == whole(gold, system)
    assert got["metrics"]["Words"] == (1, 4, 3, None)
    assert chunk_sizes(gold, system) == [(2, 2)]


def test_sentence_splits_that_differ_leave_no_cut_until_they_meet_again(tmp_path):
    # Gold sentences end after "ab", "cd", "e"; system after "a", "bc", "de": the ends meet only after "e".
    gold = write(tmp_path, "g.conllu", flat("a", "b") + flat("c", "d") + flat("e") + flat("f", "g") + flat("h"))
    system = write(tmp_path, "s.conllu", flat("a") + flat("b", "c") + flat("d", "e") + flat("f", "g") + flat("h"))
    got = streamed(gold, system)
    assert got == whole(gold, system)
    assert chunk_sizes(gold, system) == [(3, 3), (1, 1), (1, 1)]
    assert got["metrics"]["Sentences"] == (2, 5, 5, None)
    assert got["metrics"]["Words"] == (8, 8, 8, None)
    # Heads: a (root) and b in gold's first sentence; the system makes b a root of its own.
    assert got["metrics"]["UAS"] == (4, 8, 8, 8)
    assert chunk_sizes(gold, system, chunk_words=4) == [(3, 3), (2, 2)]


def test_multiword_tokens_inside_chunks_and_after_plain_sentences(tmp_path):
    # Italian-like: "della" = "di" + "la" in the middle of a sentence; the next sentence starts plain.
    gold = write(tmp_path, "g.conllu",
                 word(1, "casa", 0, "root") + mwt(2, 3, "della") + word(2, "di", 4, "case") + word(3, "la", 4, "det")
                 + word(4, "nonna", 1, "nmod") + "\n" + flat("Ciao") + flat("a", "b"))
    system = write(tmp_path, "s.conllu",
                   word(1, "casa", 0, "root") + mwt(2, 3, "della") + word(2, "de", 4, "case") + word(3, "la", 4, "det")
                   + word(4, "nonna", 1, "nmod") + "\n" + flat("Ciao") + flat("ab"))
    got = streamed(gold, system)
    assert got == whole(gold, system)
    assert chunk_sizes(gold, system) == [(1, 1), (1, 1), (1, 1)]
    # "di" vs "de" inside the multiword token: not aligned (LCS of forms); "a" "b" vs "ab": not aligned.
    assert got["metrics"]["Words"] == (4, 7, 6, None)
    assert got["metrics"]["Tokens"] == (4, 6, 5, None)
    assert got["metrics"]["LAS"] == (4, 7, 6, 4)


def test_empty_nodes_in_chunks(tmp_path):
    gold_text = (
        flat("I", "ate")
        + word(1, "Mary", 0, "root", "0:root") + word(2, "rice", 1, "obj", "1:obj")
        + word(3, "and", 4, "cc", "3.1:cc") + "3.1\tate\t_\t_\t_\t_\t_\t_\t1:conj\t_\n"
        + word(4, "Tom", 1, "conj", "3.1:nsubj") + word(5, "beans", 4, "orphan", "3.1:obj") + "\n"
        + flat("ok")
    )
    # The system puts its empty node after "Tom" and calls one edge obl; its second sentence is split in two.
    system_text = (
        flat("I", "ate")
        + word(1, "Mary", 0, "root", "0:root") + word(2, "rice", 1, "obj", "1:obj") + "\n"
        + word(1, "and", 2, "cc", "2.1:cc") + word(2, "Tom", 0, "root", "2.1:nsubj")
        + "2.1\tate\t_\t_\t_\t_\t_\t_\t0:root\t_\n" + word(3, "beans", 2, "orphan", "2.1:obl") + "\n"
        + flat("ok")
    )
    gold, system = write(tmp_path, "g.conllu", gold_text), write(tmp_path, "s.conllu", system_text)
    got = streamed(gold, system)
    assert got == whole(gold, system)
    assert chunk_sizes(gold, system) == [(1, 1), (1, 2), (1, 1)]
    assert got["empty"] == [("EmptyNodes", 0, 1, 1), ("EmptyEdges", 0, 4, 4), ("EmptyUEdges", 0, 4, 4)]
    assert got["metrics"]["ELAS"] == (5, 8, 8, None)  # collapsed: conj>cc, conj>nsubj, conj>obj
    assert got["metrics"]["Sentences"] == (2, 3, 4, None)


def test_one_system_sentence_for_everything_is_one_chunk(tmp_path):
    gold = write(tmp_path, "g.conllu", flat("a", "b") + flat("c") + flat("d", "e"))
    system = write(tmp_path, "s.conllu", flat("a", "b", "c", "d", "e"))
    assert chunk_sizes(gold, system) == [(3, 1)]
    got = streamed(gold, system)
    assert got == whole(gold, system)
    assert got["metrics"]["Sentences"] == (0, 3, 1, None)
    assert got["metrics"]["UAS"] == (2, 5, 5, 5)


def test_chunks_stay_small_on_a_long_input(fixtures):
    # 300 copies of the fixture pair: chunks of at least 30 gold words, each cut at the first place allowed.
    gold = list(parse_conllu((fixtures / "eval_gold.conllu").read_text())) * 300
    system = list(parse_conllu((fixtures / "eval_system.conllu").read_text())) * 300
    from eud.evaluate.sources import rows_from_sentences

    sizes = [g.n_words for g, _ in aligned_chunks(rows_from_sentences(gold), rows_from_sentences(system),
                                                  Builder("g", ""), Builder("s", ""), min_words=30)]
    assert max(sizes) <= 30 + 21 and sum(sizes) == 21 * 300
    ev = evaluate_sentences(gold, system, chunk_words=30)
    assert (ev["ELAS"].correct, ev["ELAS"].gold, ev["LAS"].correct) == (16 * 300, 23 * 300, 18 * 300)
    assert ev.empty_nodes["EmptyEdges"].correct == 3 * 300


# -- texts that differ: the same error as whole-file scoring ----------------------------------------------------


def whole_error(gold: Path, system: Path) -> str:
    with pytest.raises(ScoringError) as err:
        evaluate_loaded(read_for_scoring(gold), read_for_scoring(system))
    return str(err.value)


def streamed_error(gold: Path, system: Path) -> str:
    with pytest.raises(ScoringError) as err:
        evaluate_files(gold, system, chunk_words=1)
    return str(err.value)


LONG = [flat("alpha", "beta"), flat("gamma"), flat("delta", "epsilon"), flat("zeta", "eta", "theta"), flat("iota")]


@pytest.mark.parametrize(
    ("gold_text", "system_text", "at"),
    [
        # A changed letter in the fourth sentence, after three cuts; the snippet runs into the next sentence.
        ("".join(LONG), "".join(LONG[:3]) + flat("zeta", "eta", "thetA") + LONG[4], 37),
        # The difference is the first character of a sentence that starts right at a cut.
        ("".join(LONG), "".join(LONG[:2]) + flat("Delta", "epsilon") + "".join(LONG[3:]), 14),
        # The system stops early (gold is longer), at a sentence end, and in the middle of gold's sentence.
        ("".join(LONG), "".join(LONG[:2]), 14),
        ("".join(LONG), "".join(LONG[:2]) + flat("del"), 17),
        # The system is longer.
        ("".join(LONG[:2]), "".join(LONG), 14),
        # One file has no sentences.
        ("", "".join(LONG), 0),
        ("".join(LONG), "", 0),
        # Different sentence splits, then a difference.
        ("".join(LONG), flat("alpha") + flat("betagamma") + flat("delta", "epsilonX") + "".join(LONG[3:]), 26),
    ],
)
def test_texts_that_differ_give_the_whole_file_error(tmp_path, gold_text, system_text, at):
    gold, system = write(tmp_path, "g.conllu", gold_text), write(tmp_path, "s.conllu", system_text)
    message = streamed_error(gold, system)
    assert message == whole_error(gold, system)
    assert message.startswith(f"the texts differ at non-space character {at}: ")


def test_the_difference_is_found_without_reading_on(tmp_path):
    # A broken sentence far after the difference is not reached: the text error comes first.
    gold = write(tmp_path, "g.conllu", "".join(LONG) + "1\tx\n\n")
    system = write(tmp_path, "s.conllu", flat("beta"))
    assert streamed_error(gold, system).startswith(
        "the texts differ at non-space character 0: gold 'alphabetagammadeltae'")


# -- reading lines in pieces ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", "\n", "a", "a\n", "a\nb", "a\n\nb\n\n", "\ufeffa\r\nb\r\n", "x\ry\n", "\n\n\nabc\n\n\n", "é" * 20 + "\n" * 3,
])
@pytest.mark.parametrize("size", [1, 2, 3, 7, 1 << 20])
def test_lines_split_at_newline_only_whatever_the_read_size(monkeypatch, text, size):
    monkeypatch.setattr(sources_module, "_READ_SIZE", size)
    expected = text.removeprefix("\ufeff").split("\n")
    if expected[-1] == "":
        expected.pop()
    assert list(sources_module._lines(io.StringIO(text))) == expected


def test_small_reads_give_the_same_scores(monkeypatch, fixtures):
    gold, system = fixtures / "eval_gold.conllu", fixtures / "eval_system.conllu"
    expected = whole(gold, system)
    monkeypatch.setattr(sources_module, "_READ_SIZE", 5)
    assert streamed(gold, system) == expected


# -- random re-tokenizations ------------------------------------------------------------------------------------

LABELS = ["nsubj", "obj", "conj", "case", "det", "acl:relcl", "xcomp", "obl:in", "nmod:of", "aux", "cc"]


@st.composite
def tokenization(draw: st.DrawFn, text: str) -> str:
    """A CoNLL-U file whose non-space text is ``text``: random tokens, multiword tokens, sentences, trees,
    extra enhanced edges and empty nodes."""
    cuts = sorted(draw(st.sets(st.integers(1, len(text) - 1), max_size=len(text)))) if len(text) > 1 else []
    tokens = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    ends = sorted(draw(st.sets(st.integers(1, len(tokens) - 1), max_size=len(tokens)))) if len(tokens) > 1 else []
    out = []
    for a, b in zip([0, *ends], [*ends, len(tokens)]):
        out.append(draw(_sentence(tokens[a:b])))
    return "".join(out)


@st.composite
def _sentence(draw: st.DrawFn, tokens: list[str]) -> str:
    words: list[str] = []
    # Multiword token lines, by the id of their first word.
    lines_before: dict[int, str] = {}
    for token in tokens:
        if draw(st.integers(0, 3)) == 0:
            parts = draw(st.lists(st.text("abAB", min_size=1, max_size=2), min_size=2, max_size=3))
            first = len(words) + 1
            lines_before[first] = f"{first}-{first + len(parts) - 1}\t{token}\t_\t_\t_\t_\t_\t_\t_\t_\n"
            words.extend(parts)
        else:
            words.append(token)
    n = len(words)
    order = draw(st.permutations(range(1, n + 1)))
    heads = {order[0]: 0}
    for k, w in enumerate(order[1:], 1):
        heads[w] = order[draw(st.integers(0, k - 1))]
    labels = {i: "root" if heads[i] == 0 else draw(st.sampled_from(LABELS)) for i in range(1, n + 1)}
    deps: dict[int, set[tuple[tuple[int, int], str]]] = {i: {((heads[i], 0), labels[i])} for i in range(1, n + 1)}
    for i in range(1, n + 1):
        if n > 1 and draw(st.integers(0, 2)) == 0:
            other = draw(st.integers(1, n).filter(lambda h, i=i: h != i))
            deps[i].add(((other, 0), draw(st.sampled_from(LABELS))))
    empty = ""
    empty_after = None
    if n > 1 and draw(st.integers(0, 3)) == 0:
        empty_after = draw(st.integers(1, n))
        target = draw(st.integers(1, n))
        parent = heads[target] if heads[target] else target
        empty = f"{empty_after}.1\tE\t_\t_\t_\t_\t_\t_\t{parent}:conj\t_\n"
        deps[target].add(((empty_after, 1), draw(st.sampled_from(LABELS))))
    upos = ["NOUN", "VERB", "ADP"]
    lines = []
    for i, form in enumerate(words, 1):
        lines.append(lines_before.get(i, ""))
        cell = "|".join(f"{h}{'.' + str(m) if m else ''}:{lab}" for (h, m), lab in sorted(deps[i]))
        u = upos[draw(st.integers(0, 2))]
        lines.append(f"{i}\t{form}\t{form.lower()}\t{u}\t_\t_\t{heads[i]}\t{labels[i]}\t{cell}\t_\n")
        if i == empty_after:
            lines.append(empty)
    return "".join(lines) + "\n"


@st.composite
def pair(draw: st.DrawFn) -> tuple[str, str]:
    text = draw(st.text("abAB", min_size=1, max_size=24))
    return draw(tokenization(text)), draw(tokenization(text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair(), st.sampled_from(["", "1", "6", "123456"]))
def test_random_tokenizations_streamed_equals_whole_and_official(files, levels):
    with tempfile.TemporaryDirectory() as tmp:
        gold, system = write(Path(tmp), "g.conllu", files[0]), write(Path(tmp), "s.conllu", files[1])
        got = streamed(gold, system, levels)
        assert got == whole(gold, system, levels)
        assert got == streamed(gold, system, levels, chunk_words=5000)
    udeval = pytest.importorskip("udtools.udeval")
    keys = {"no_gapping": "1", "no_case_info": "6", "no_shared_parents_in_coordination": "2", "no_control": "4",
            "no_external_arguments_of_relative_clauses": "5"}
    treebank_type = {k: int(v in levels) for k, v in keys.items()}
    collapsed = ["".join(format_sentence(collapse_empty_nodes(s)) for s in parse_conllu(f)) for f in files]
    official = udeval.evaluate(*(udeval.load_conllu(io.StringIO(t), "x", treebank_type) for t in collapsed))
    for metric, score in official.items():
        assert got["metrics"][metric] == (score.correct, score.gold_total, score.system_total, score.aligned_total), metric
