"""AGRR files, the three metrics, tokens with offsets, orphan trees and answers, on hand-made rows."""

from __future__ import annotations

import pytest

from eud.agrr import AgrrError, AgrrRow, read_agrr, score, symbol_f1, write_agrr
from eud.agrr.answers import answer
from eud.agrr.files import parse_spans
from eud.agrr.tokens import sentence_from_text, tokenize
from eud.agrr.trees import is_tree, orphan_tree
from eud.enhance import Enhancer, find_profile
from eud.gapping.dashes import dash_gaps


def row(text: str, cls: int, **spans: str) -> AgrrRow:
    r = AgrrRow(text, cls)
    for column, cell in spans.items():
        r.spans[column] = parse_spans(cell)
    return r


def test_read_write_keeps_bytes(fixtures, tmp_path):
    source = fixtures / "agrr_rows.tsv"
    agrr = read_agrr(source)
    assert [r.cls for r in agrr.rows] == [1, 0, 1]
    assert agrr.rows[0].spans["V"] == [(28, 28)]
    assert agrr.rows[2].spans["R1"] == [(11, 13), (24, 26)]
    out = tmp_path / "out.csv"
    write_agrr(agrr, out)
    assert out.read_bytes() == source.read_bytes()


def test_text_only_file_reads(tmp_path):
    path = tmp_path / "blind.csv"
    path.write_bytes("text\nОн спит.\nОна — нет.\n".encode())
    agrr = read_agrr(path)
    assert [r.text for r in agrr.rows] == ["Он спит.", "Она — нет."]
    assert agrr.newline == "\n"
    write_agrr(agrr, tmp_path / "o.csv")
    assert (tmp_path / "o.csv").read_text().splitlines()[1] == "Он спит.\t0\t\t\t\t\t\t"


def test_bad_span_names_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes("text\tclass\tcV\nОн спит.\t1\t5-3\n".encode())
    with pytest.raises(AgrrError, match=r"bad.csv:2: bad span '5-3'"):
        read_agrr(path)


def test_symbol_f1():
    # The task's example: gold 10:15, predicted 8:14 → 4 TP, 1 FN, 2 FP.
    assert symbol_f1([(10, 15)], [(8, 14)]) == pytest.approx(2 * (4 / 6) * (4 / 5) / (4 / 6 + 4 / 5))
    # A zero-width span is one character: right position 1, wrong position 0.
    assert symbol_f1([(7, 7)], [(7, 7)]) == 1.0
    assert symbol_f1([(7, 7)], [(8, 8)]) == 0.0
    assert symbol_f1([], []) == 1.0
    assert symbol_f1([(1, 3)], []) == 0.0
    # Several spans in one cell count as one set of positions.
    assert symbol_f1([(1, 3), (9, 9)], [(1, 3)]) == pytest.approx(0.8)


def test_score_class_mismatch_and_skipped_negatives():
    gold = [
        row("a", 1, cV="0:2", V="5:5", R1="3:4", R2="5:6", cR1="0:1", cR2="2:3"),
        row("b", 1, cV="0:2", V="5:5", R1="3:4", R2="5:6", cR1="0:1", cR2="2:3"),
        row("c", 0),
        row("d", 0),
    ]
    pred = [
        row("a", 1, cV="0:2", V="6:6", R1="3:4", R2="5:6", cR1="0:1", cR2="2:3"),
        row("b", 0),
        row("c", 1, cV="0:1", V="2:2", R1="1:2", R2="2:3"),
        row("d", 0),
    ]
    s = score(gold, pred)
    assert s["binary"] == pytest.approx(0.5)  # P 1/2, R 1/2
    # Sentence a: cV 1, V 0; b and c: class mismatch, 0; d skipped.
    assert s["resolution"] == pytest.approx(1 / 6)
    assert s["full"] == pytest.approx(5 / 18)
    # The 2019 script counts d as all ones.
    assert score(gold, pred, negatives_count=True)["resolution"] == pytest.approx(3 / 8)


def test_score_refuses_different_texts():
    with pytest.raises(ValueError, match="line 2: the texts differ"):
        score([row("a", 0)], [row("b", 0)])


def test_tokens_offsets_and_spacing():
    text = "Маша\u00a0читает «Войну и мир», а Петя — что-то ещё."
    offsets = tokenize(text)
    assert [text[a:b] for a, b in offsets] == [
        "Маша", "читает", "«", "Войну", "и", "мир", "»", ",", "а", "Петя", "—", "что-то", "ещё", "."]
    sentence, _ = sentence_from_text(text)
    assert sentence.words[0].misc == "SpacesAfter=\\u00A0"
    assert sentence.words[2].misc == "SpaceAfter=No"
    assert sentence.text == text


def _tree(sentence, spec):
    """Set (head, deprel, upos) of each word from a list."""
    for w, (head, deprel, upos) in zip(sentence.words, spec):
        w.head, w.deprel, w.upos, w.lemma = head, deprel, upos, w.form.lower()
    return sentence


def test_orphan_tree_and_answer_round_trip(fixtures):
    gold = read_agrr(fixtures / "agrr_rows.tsv").rows[0]  # Маша читает книгу, а Петя — газету.
    sentence, offsets = sentence_from_text(gold.text)
    # A parse as a UD-only parser might give: Петя conj of книгу, газету appos.
    _tree(sentence, [
        (2, "nsubj", "PROPN"), (0, "root", "VERB"), (2, "obj", "NOUN"), (6, "punct", "PUNCT"),
        (6, "cc", "CCONJ"), (3, "conj", "PROPN"), (8, "punct", "PUNCT"), (6, "appos", "NOUN"),
        (2, "punct", "PUNCT"),
    ])
    sentence.words[0].feats = sentence.words[5].feats = "Case=Nom"
    sentence.words[2].feats = sentence.words[7].feats = "Case=Acc"
    assert orphan_tree(sentence, offsets, gold)
    assert is_tree(sentence)
    got = [(w.form, w.head, w.deprel) for w in sentence.words]
    assert got[3:8] == [(",", 6, "punct"), ("а", 6, "cc"), ("Петя", 2, "conj"), ("—", 6, "punct"),
                        ("газету", 6, "orphan")]
    Enhancer(find_profile("ru")).enhance(sentence)
    assert [(e.node, e.form) for e in sentence.empty_nodes] == [((7, 1), "читает")]
    predicted = answer(sentence, offsets, gold.text)
    assert predicted.cls == 1
    assert predicted.spans == gold.spans
    assert score([gold], [predicted])["full"] == 1.0


def test_orphan_tree_refuses_cycles():
    r = row("Маша спит, а Петя — нет.", 1, cV="5:9", cR1="0:4", V="20:20", R1="13:17", R2="20:23")
    sentence, offsets = sentence_from_text(r.text)
    # The verb sits under the remnant: promoting it above the verb would make a cycle.
    _tree(sentence, [(2, "nsubj", "PROPN"), (5, "parataxis", "VERB"), (2, "punct", "PUNCT"), (5, "cc", "CCONJ"),
                     (0, "root", "PROPN"), (5, "punct", "PUNCT"), (5, "advmod", "PART"), (5, "punct", "PUNCT")])
    before = [(w.head, w.deprel) for w in sentence.words]
    assert not orphan_tree(sentence, offsets, r)
    assert [(w.head, w.deprel) for w in sentence.words] == before


def test_dash_gaps_makes_the_second_conjunct_an_orphan():
    text = "Медведева одобряют 64%, правительства — 58%."
    sentence, offsets = sentence_from_text(text)
    # Both remnants as conj of the verb, the dash between them: gapping without orphan.
    _tree(sentence, [(2, "obj", "PROPN"), (0, "root", "VERB"), (4, "nummod", "NUM"), (2, "obl", "SYM"),
                     (6, "punct", "PUNCT"), (2, "conj", "NOUN"), (6, "punct", "PUNCT"), (9, "nummod", "NUM"),
                     (2, "conj", "SYM"), (2, "punct", "PUNCT")])
    assert dash_gaps(sentence)
    assert (sentence.words[8].head, sentence.words[8].deprel) == (6, "orphan")
    assert is_tree(sentence)
    Enhancer(find_profile("ru")).enhance(sentence)
    predicted = answer(sentence, offsets, text)
    assert predicted.cls == 1 and predicted.spans["cV"] == [(10, 18)]
    assert predicted.spans["V"] == [(text.index("58"),) * 2]

    # The clause's "а", before the first remnant, hung from the second: still a gapped clause.
    sentence, _ = sentence_from_text("Программа выполнена за час, а для Java — за минуту.")
    _tree(sentence, [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"),
                     (11, "punct", "PUNCT"), (11, "cc", "CCONJ"), (8, "case", "ADP"), (2, "conj", "PROPN"),
                     (11, "punct", "PUNCT"), (11, "case", "ADP"), (2, "conj", "NOUN"), (2, "punct", "PUNCT")])
    assert dash_gaps(sentence)
    assert (sentence.words[10].head, sentence.words[10].deprel) == (8, "orphan")


def test_dash_gaps_with_the_first_remnant_hung_from_the_verb():
    # "в мае" hangs from the verb as obl, only "на 7%" as conj: the bracket opens the gapped clause.
    text = "Цены выросли на 5% (в мае — на 7%)."
    sentence, offsets = sentence_from_text(text)
    _tree(sentence, [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (5, "case", "ADP"), (5, "nummod", "NUM"),
                     (2, "obl", "SYM"), (8, "punct", "PUNCT"), (8, "case", "ADP"), (2, "obl", "NOUN"),
                     (12, "punct", "PUNCT"), (12, "case", "ADP"), (12, "nummod", "NUM"), (2, "conj", "SYM"),
                     (2, "punct", "PUNCT"), (2, "punct", "PUNCT")])
    assert dash_gaps(sentence)
    assert [(w.head, w.deprel) for w in (sentence.words[7], sentence.words[11])] == [(2, "conj"), (8, "orphan")]
    assert is_tree(sentence)
    Enhancer(find_profile("ru")).enhance(sentence)
    predicted = answer(sentence, offsets, text)
    assert predicted.cls == 1 and predicted.spans["V"] == [(text.index("на 7%"),) * 2]
    # Without the bracket (or comma, or conjunction) before it, "в мае" is the full clause's own.
    sentence, _ = sentence_from_text("Цены выросли на 5% в мае — на 7%.")
    _tree(sentence, [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (5, "case", "ADP"), (5, "nummod", "NUM"),
                     (2, "obl", "SYM"), (7, "case", "ADP"), (2, "obl", "NOUN"), (11, "punct", "PUNCT"),
                     (11, "case", "ADP"), (11, "nummod", "NUM"), (2, "conj", "SYM"), (2, "punct", "PUNCT")])
    assert not dash_gaps(sentence)


def test_dash_gaps_leaves_coordination_alone():
    # "и" coordinates the second conjunct: a coordination, not a gapped clause.
    sentence, _ = sentence_from_text("Он купил хлеб — и молоко.")
    _tree(sentence, [(2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "conj", "NOUN"), (3, "punct", "PUNCT"),
                     (6, "cc", "CCONJ"), (2, "conj", "NOUN"), (2, "punct", "PUNCT")])
    before = [(w.head, w.deprel) for w in sentence.words]
    assert not dash_gaps(sentence)
    assert [(w.head, w.deprel) for w in sentence.words] == before
    # No dash between the conjuncts: left alone too.
    sentence, _ = sentence_from_text("Он пришёл домой, сестра в школу.")
    _tree(sentence, [(2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "advmod", "ADV"), (5, "punct", "PUNCT"),
                     (2, "conj", "NOUN"), (7, "case", "ADP"), (2, "conj", "NOUN"), (2, "punct", "PUNCT")])
    assert not dash_gaps(sentence)


def test_answer_without_gap_is_class_0():
    sentence, offsets = sentence_from_text("Он спит.")
    _tree(sentence, [(2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "punct", "PUNCT")])
    Enhancer(find_profile("ru")).enhance(sentence)
    assert answer(sentence, offsets, "Он спит.").cls == 0


def test_command_scores_and_refuses_bad_input(fixtures, tmp_path, capsys):
    from eud.commands.agrr import main

    gold = str(fixtures / "agrr_rows.tsv")
    assert main(["--score", gold, gold]) == 0
    out = capsys.readouterr().out
    assert "binary      1.0000" in out and "full        1.0000" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("words\tclass\nОн спит.\t0\n", encoding="utf-8")
    assert main([str(bad), "-o", str(tmp_path / "o.csv")]) == 1
    assert "bad.csv:1: the header must start with 'text'" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


def test_command_with_the_shipped_model(fixtures, tmp_path):
    """Same rows, same texts, and graphs that pass udvalidate --level 2."""
    import shutil
    import subprocess

    from eud.commands.agrr import main
    from eud.registry import find_model

    pytest.importorskip("torch")
    try:
        find_model("ru_agrr")
    except ValueError:
        pytest.skip("models/ru_agrr is not there")
    out, graphs = tmp_path / "out.csv", tmp_path / "graphs.conllu"
    assert main([str(fixtures / "agrr_rows.tsv"), "-o", str(out), "--conllu", str(graphs), "--threads", "1"]) == 0
    gold, pred = read_agrr(fixtures / "agrr_rows.tsv"), read_agrr(out)
    assert [r.text for r in pred.rows] == [r.text for r in gold.rows]
    assert out.read_bytes().count(b"\r\n") == 4
    assert pred.rows[1].cls == 0
    validator = shutil.which("udvalidate")
    if validator:
        done = subprocess.run([validator, "--level", "2", "--lang", "ru", str(graphs)], check=False, capture_output=True, text=True)
        assert "PASSED" in done.stdout + done.stderr



def _correlate_cases():
    """The hand-made orphan trees of fixtures/agrr_correlates.conllu, with the cV, cR1 and cR2 each should give."""
    from pathlib import Path

    from eud.conllu import read_conllu

    fixture = Path(__file__).parent / "fixtures" / "agrr_correlates.conllu"
    for sentence in read_conllu(fixture):
        notes = dict(c[2:].split(" = ", 1) for c in sentence.comments)
        expected = [[] if notes[c] == "_" else notes[c].split(" | ") for c in ("cV", "cR1", "cR2")]
        yield pytest.param(sentence, expected, id=notes["sent_id"])


@pytest.mark.parametrize(("sentence", "expected"), list(_correlate_cases()))
def test_correlate_spans(sentence, expected):
    """Each case's ``# note`` says what it checks (the predicate of a copula clause, a Case tag gone wrong, ...)."""
    text = sentence.text
    offsets = tokenize(text)
    assert len(offsets) == len(sentence.words) and is_tree(sentence)
    Enhancer(find_profile("ru")).enhance(sentence)
    spans = answer(sentence, offsets, text).spans
    assert [[text[a:b] for a, b in spans[c]] for c in ("cV", "cR1", "cR2")] == expected


def _answer_of(text, spec, feats=None):
    """Enhance a hand-made tree of ``text`` (``spec`` as for :func:`_tree`, ``feats`` by word id) and read its answer."""
    sentence, offsets = sentence_from_text(text)
    assert len(sentence.words) == len(spec)
    _tree(sentence, spec)
    for i, f in (feats or {}).items():
        sentence.words[i - 1].feats = f
    assert is_tree(sentence)
    Enhancer(find_profile("ru")).enhance(sentence)
    spans = answer(sentence, offsets, text).spans
    return {c: [text[a:b] if b > a else text[a:] for a, b in spans[c]] for c in spans}


def test_remnant_takes_its_conjuncts_but_not_a_clause():
    # The promoted remnant's conj is part of its phrase (gold: "богатство и слава").
    got = _answer_of("Жизнь зависит от судьбы, а богатство и слава — от неба.", [
        (2, "nsubj", "NOUN"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "conj", "NOUN"), (9, "cc", "CCONJ"), (7, "conj", "NOUN"), (7, "punct", "PUNCT"),
        (12, "case", "ADP"), (7, "orphan", "NOUN"), (2, "punct", "PUNCT")])
    assert got["R1"] == ["богатство и слава"] and got["R2"] == ["от неба"]
    assert got["V"] == ["от неба."]
    # A conj with a subject and a copula of its own is the next clause, not part of R2.
    got = _answer_of("Он вернул товар, а мне деньги, ответ был отрицательным.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "NOUN"), (7, "punct", "PUNCT"), (7, "cc", "CCONJ"),
        (7, "orphan", "PRON"), (2, "conj", "NOUN"), (11, "punct", "PUNCT"), (11, "nsubj", "NOUN"), (11, "cop", "AUX"),
        (7, "conj", "ADJ"), (2, "punct", "PUNCT")])
    assert got["R1"] == ["мне"] and got["R2"] == ["деньги"]


def test_first_remnant_without_conjunction_and_with_abbreviation_dot():
    # "а" hangs from the first remnant (an orphan); AGRR's R1 starts after it, and takes the dot of "г."
    text = "В 2005 г. цены выросли на 5%, а в 2006 г. - на 7%."
    got = _answer_of(text, [
        (3, "case", "ADP"), (3, "amod", "ADJ"), (6, "obl", "NOUN"), (6, "punct", "PUNCT"), (6, "nsubj", "NOUN"),
        (0, "root", "VERB"), (9, "case", "ADP"), (9, "nummod", "NUM"), (6, "obl", "SYM"), (19, "punct", "PUNCT"),
        (14, "cc", "CCONJ"), (14, "case", "ADP"), (14, "amod", "ADJ"), (19, "orphan", "NOUN"), (19, "punct", "PUNCT"),
        (19, "punct", "PUNCT"), (19, "case", "ADP"), (19, "nummod", "NUM"), (6, "conj", "SYM"), (6, "punct", "PUNCT")])
    assert got["R1"] == ["в 2006 г."] and got["R2"] == ["на 7%"]
    assert got["V"] == [text[text.index("на 7%"):]]
    # The sentence's full stop is no abbreviation's dot.
    got = _answer_of("Ты любишь его, а он тебя.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "PRON"), (6, "punct", "PUNCT"), (6, "cc", "CCONJ"),
        (2, "conj", "PRON"), (6, "orphan", "PRON"), (2, "punct", "PUNCT")])
    assert got["R1"] == ["он"] and got["R2"] == ["тебя"]


def test_dash_parts_the_remnants():
    # The parser hung "устойчивыми" on the second remnant; the dash standing for the verb parts them.
    text = "Наиболее стабильными оказались одни, наименее устойчивыми — другие."
    got = _answer_of(text, [
        (2, "advmod", "ADV"), (3, "xcomp", "ADJ"), (0, "root", "VERB"), (3, "nsubj", "ADJ"), (9, "punct", "PUNCT"),
        (9, "orphan", "ADV"), (9, "amod", "ADJ"), (9, "punct", "PUNCT"), (3, "conj", "ADJ"), (3, "punct", "PUNCT")])
    assert got["R1"] == ["наименее устойчивыми"] and got["R2"] == ["другие"]
    assert got["V"] == ["другие."]


def test_remnants_split_by_the_parser_join_up_to_the_dash():
    # Three remnants for one gap: those before the dash make R1.
    text = "Из буфета я достал кружки, а из ящика и шкафа - ложки."
    got = _answer_of(text, [
        (2, "case", "ADP"), (4, "obl", "NOUN"), (4, "nsubj", "PRON"), (0, "root", "VERB"), (4, "obj", "NOUN"),
        (13, "punct", "PUNCT"), (13, "cc", "CCONJ"), (9, "case", "ADP"), (13, "orphan", "NOUN"), (11, "cc", "CCONJ"),
        (13, "orphan", "NOUN"), (13, "punct", "PUNCT"), (4, "conj", "NOUN"), (4, "punct", "PUNCT")])
    assert got["R1"] == ["из ящика и шкафа"] and got["R2"] == ["ложки"]
    assert got["V"] == ["ложки."]


def test_chain_gaps_restores_one_verb_per_clause():
    from eud.gapping.dashes import chain_gaps

    text = "Цена А снизилась на 1%, Б - на 2%, В - на 3%."
    sentence, offsets = sentence_from_text(text)
    # The third clause's remnants hang from the second clause's promoted remnant.
    _tree(sentence, [
        (3, "nsubj", "NOUN"), (1, "nmod", "PROPN"), (0, "root", "VERB"), (6, "case", "ADP"), (6, "nummod", "NUM"),
        (3, "obl", "SYM"), (12, "punct", "PUNCT"), (12, "orphan", "PROPN"), (12, "punct", "PUNCT"), (12, "case", "ADP"),
        (12, "nummod", "NUM"), (3, "conj", "SYM"), (12, "punct", "PUNCT"), (12, "orphan", "PROPN"), (12, "punct", "PUNCT"),
        (18, "case", "ADP"), (18, "nummod", "NUM"), (12, "orphan", "SYM"), (3, "punct", "PUNCT")])
    assert chain_gaps(sentence)
    assert is_tree(sentence)
    assert [(w.head, w.deprel) for w in sentence.words[12:18]] == [
        (18, "punct"), (18, "orphan"), (18, "punct"), (18, "case"), (18, "nummod"), (3, "conj")]
    assert not chain_gaps(sentence)
    Enhancer(find_profile("ru")).enhance(sentence)
    spans = answer(sentence, offsets, text).spans
    assert [text[a:] for a, _ in spans["V"]] == ["на 2%, В - на 3%.", "на 3%."]
    assert [text[a:b] for a, b in spans["R1"]] == ["Б", "В"]


def test_chain_gaps_leaves_one_clause_alone():
    from eud.gapping.dashes import chain_gaps

    # A comma inside the clause, but no second remnant pair behind a dash.
    sentence, _ = sentence_from_text("Он привязан к демону, а тот, в свою очередь, — к душе.")
    _tree(sentence, [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "conj", "PRON"), (11, "punct", "PUNCT"), (11, "case", "ADP"), (11, "det", "DET"),
        (7, "parataxis", "NOUN"), (7, "punct", "PUNCT"), (7, "punct", "PUNCT"), (15, "case", "ADP"),
        (7, "orphan", "NOUN"), (2, "punct", "PUNCT")])
    assert not chain_gaps(sentence)


PASSIVE = "Aspect=Perf|Number=Plur|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass"


def test_gap_position_verb_groups():
    # An auxiliary the conj hangs from gives way to the participle it goes with.
    got = _answer_of("Одни письма были адресованы вам, а другие — ему.", [
        (2, "det", "DET"), (4, "nsubj:pass", "NOUN"), (4, "aux:pass", "AUX"), (0, "root", "VERB"), (4, "iobj", "PRON"),
        (8, "punct", "PUNCT"), (8, "cc", "CCONJ"), (3, "conj", "DET"), (8, "punct", "PUNCT"), (8, "orphan", "PRON"),
        (4, "punct", "PUNCT")], {4: PASSIVE})
    assert got["cV"] == ["адресованы"] and got["cR2"] == ["вам"]
    # A short adjective the tagger calls a participle keeps its auxiliary (AGRR: "были").
    got = _answer_of("Глаза были полны огня, а лицо - злобы.", [
        (3, "nsubj:pass", "NOUN"), (3, "aux:pass", "AUX"), (0, "root", "VERB"), (3, "obl", "NOUN"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "conj", "NOUN"), (7, "punct", "PUNCT"), (7, "orphan", "NOUN"), (3, "punct", "PUNCT")],
        {3: PASSIVE})
    assert got["cV"] == ["были"]
    # A predicative modal is the verb, not its copula.
    got = _answer_of("Она должна была нести сумку, а он чемодан.", [
        (2, "nsubj", "PRON"), (0, "root", "ADJ"), (2, "cop", "AUX"), (2, "xcomp", "VERB"), (4, "obj", "NOUN"),
        (8, "punct", "PUNCT"), (8, "cc", "CCONJ"), (2, "conj", "PRON"), (8, "orphan", "NOUN"), (2, "punct", "PUNCT")])
    assert got["cV"] == ["должна"]


def test_perhaps_and_a_participle():
    # "может быть" + a short passive participle: AGRR marks the participle; the correlates stay.
    spec = [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (2, "xcomp", "AUX"), (2, "advmod", "ADV"), (6, "case", "ADP"),
            (2, "obl", "NOUN"), (6, "nummod", "NUM"), (10, "punct", "PUNCT"), (10, "cc", "CCONJ"), (2, "conj", "NOUN"),
            (10, "orphan", "NOUN"), (11, "nummod", "NUM"), (2, "punct", "PUNCT")]
    got = _answer_of("Звук может быть задано в канал 1, а свет канал 2.", spec)
    assert got["cV"] == ["задано"] and got["cR1"] == ["Звук"]
    # "может быть нужен": the short adjective leaves "может".
    got = _answer_of("Звук может быть нужен в канал 1, а свет канал 2.", spec)
    assert got["cV"] == ["может"]


def test_a_modal_group_is_marked_by_its_modal():
    # The parser hung the gapped clause on the participle; AGRR marks the modal ("могут"), as it does
    # in the training four fifths 36 times of 36.
    spec = [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (2, "xcomp", "AUX"), (2, "xcomp", "VERB"), (6, "case", "ADP"),
            (4, "obl", "NOUN"), (9, "punct", "PUNCT"), (9, "cc", "CCONJ"), (4, "conj", "NOUN"), (9, "punct", "PUNCT"),
            (12, "case", "ADP"), (9, "orphan", "NOUN"), (2, "punct", "PUNCT")]
    got = _answer_of("Колонны могут быть связаны с небом, а Сфирот — с землёй.", spec, {4: PASSIVE})
    assert got["cV"] == ["могут"] and got["V"] == ["с землёй."]
    # The same under the frozen "может быть" ("perhaps"): the participle is the verb.
    got = _answer_of("Колонна может быть связана с небом, а Сфирот — с землёй.", spec, {4: PASSIVE})
    assert got["cV"] == ["связана"]


@pytest.mark.parametrize("introductory, member, spec, r1, r2", [
    # "точнее" taken for the first remnant: with it gone one remnant is left, so there is no gap.
    ("Сделал несчастного более счастливым, точнее, менее несчастным.",
     "Сделал несчастного более счастливым, счастливого, менее несчастным.", [
         (0, "root", "VERB"), (1, "obj", "ADJ"), (4, "advmod", "ADV"), (1, "xcomp", "ADJ"), (6, "punct", "PUNCT"),
         (1, "conj", "ADJ"), (9, "punct", "PUNCT"), (9, "advmod", "ADV"), (6, "orphan", "ADJ"), (1, "punct", "PUNCT")],
     "счастливого", "менее несчастным"),
    # "по мне" ("to my mind") is introductory, like "по-моему".
    ("Все любят море, а по мне — горы.", "Все любят море, а по ним — горы.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "NOUN"), (7, "punct", "PUNCT"), (7, "cc", "CCONJ"),
        (7, "case", "ADP"), (2, "conj", "PRON"), (9, "punct", "PUNCT"), (7, "orphan", "NOUN"), (2, "punct", "PUNCT")],
     "по ним", "горы"),
    # "в меньшей степени" set off by a dash is introductory too.
    ("Успех зависит от труда, а в меньшей степени — от удачи.", "Успех зависит от труда, а в нашей работе — от удачи.", [
        (2, "nsubj", "NOUN"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"), (9, "punct", "PUNCT"),
        (9, "cc", "CCONJ"), (9, "case", "ADP"), (9, "amod", "ADJ"), (2, "conj", "NOUN"), (12, "punct", "PUNCT"),
        (12, "case", "ADP"), (9, "orphan", "NOUN"), (2, "punct", "PUNCT")],
     "в нашей работе", "от удачи"),
    # "при необходимости" qualifies the whole gapped clause and contrasts with nothing.
    ("Отчёт проверяет бухгалтер, а при необходимости — аудитор.", "Отчёт проверяет бухгалтер, а при директоре — аудитор.", [
        (2, "obj", "NOUN"), (0, "root", "VERB"), (2, "nsubj", "NOUN"), (7, "punct", "PUNCT"), (7, "cc", "CCONJ"),
        (7, "case", "ADP"), (2, "conj", "NOUN"), (9, "punct", "PUNCT"), (7, "orphan", "NOUN"), (2, "punct", "PUNCT")],
     "при директоре", "аудитор"),
])
def test_introductory_word_is_no_remnant(introductory, member, spec, r1, r2):
    got = _answer_of(introductory, spec)
    assert got["V"] == [] and got["R1"] == []
    # The same tree with a clause member in its place is a gap.
    got = _answer_of(member, spec)
    assert got["R1"] == [r1] and got["R2"] == [r2]


def test_orphans_before_the_promoted_remnant_make_r1():
    # Two orphans before the promoted remnant: pieces of R1, and R1's correlate pairs with the first of them.
    got = _answer_of("Вчера было 39,9, а сегодня утром 36,7.", [
        (2, "advmod", "ADV"), (0, "root", "AUX"), (2, "nsubj", "NUM"), (8, "punct", "PUNCT"), (8, "cc", "CCONJ"),
        (8, "orphan", "ADV"), (8, "orphan", "NOUN"), (2, "conj", "NUM"), (2, "punct", "PUNCT")])
    assert got["R1"] == ["сегодня утром"] and got["R2"] == ["36,7"]
    assert got["V"] == ["36,7."]
    assert got["cR1"] == ["Вчера"] and got["cR2"] == ["39,9"]


def test_correlate_takes_the_words_the_remnant_repeats():
    # "слишком" hung from the copula: the remnant "слишком глубокой" repeats it, so the correlate takes it in.
    got = _answer_of("Момент был слишком долгим, а тишина – слишком глубокой.", [
        (4, "nsubj", "NOUN"), (4, "cop", "AUX"), (2, "advmod", "ADV"), (0, "root", "ADJ"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (4, "conj", "NOUN"), (10, "punct", "PUNCT"), (10, "advmod", "ADV"), (7, "orphan", "ADJ"),
        (4, "punct", "PUNCT")], {1: "Case=Nom", 4: "Case=Ins", 7: "Case=Nom", 10: "Case=Ins"})
    assert got["cV"] == ["был"] and got["cR1"] == ["Момент"] and got["cR2"] == ["слишком долгим"]
    # Another correlate's words are not taken (the remnant "папка с изображениями" against "Папка | с документами").
    got = _answer_of("Папка с документами открылась в окне, а папка с изображениями — с другими параметрами.", [
        (4, "nsubj", "NOUN"), (3, "case", "ADP"), (4, "obl", "NOUN"), (0, "root", "VERB"), (6, "case", "ADP"),
        (4, "obl", "NOUN"), (9, "punct", "PUNCT"), (9, "cc", "CCONJ"), (4, "conj", "NOUN"), (11, "case", "ADP"),
        (9, "nmod", "NOUN"), (15, "punct", "PUNCT"), (15, "case", "ADP"), (15, "amod", "ADJ"), (9, "orphan", "NOUN"),
        (4, "punct", "PUNCT")], {1: "Case=Nom", 3: "Case=Ins", 6: "Case=Loc", 9: "Case=Nom", 11: "Case=Ins", 15: "Case=Ins"})
    assert got["R1"] == ["папка с изображениями"] and got["cR1"] == ["Папка"]


def test_framing_adverbial_of_a_bracketed_aside_is_no_remnant():
    # No phrase with "в" in the full clause: "в мае" only frames the aside, and AGRR names one remnant.
    got = _answer_of("Цены выросли на 5% (в мае — на 7%).", [
        (2, "nsubj", "NOUN"), (0, "root", "VERB"), (5, "case", "ADP"), (5, "nummod", "NUM"), (2, "obl", "SYM"),
        (8, "punct", "PUNCT"), (8, "case", "ADP"), (2, "conj", "NOUN"), (12, "punct", "PUNCT"), (12, "case", "ADP"),
        (12, "nummod", "NUM"), (8, "orphan", "SYM"), (8, "punct", "PUNCT"), (2, "punct", "PUNCT")])
    assert got["R1"] == ["на 7%"] and got["R2"] == [] and got["V"] == ["на 7%)."]
    assert got["cR1"] == ["на 5%"] and got["cR2"] == []
    # With "в апреле" in the full clause, "в мае" contrasts with it: two remnants.
    got = _answer_of("Цены в апреле выросли на 5% (в мае — на 7%).", [
        (4, "nsubj", "NOUN"), (3, "case", "ADP"), (4, "obl", "NOUN"), (0, "root", "VERB"), (7, "case", "ADP"),
        (7, "nummod", "NUM"), (4, "obl", "SYM"), (10, "punct", "PUNCT"), (10, "case", "ADP"), (4, "conj", "NOUN"),
        (14, "punct", "PUNCT"), (14, "case", "ADP"), (14, "nummod", "NUM"), (10, "orphan", "SYM"), (10, "punct", "PUNCT"),
        (4, "punct", "PUNCT")])
    assert got["R1"] == ["в мае"] and got["R2"] == ["на 7%"] and got["cR1"] == ["в апреле"]


def test_letter_tagged_punctuation_stays_in_the_phrase():
    # The tagger calls the variable "х" punctuation and hangs it as punct: it is no edge punctuation to trim.
    got = _answer_of("Обозначим через А матрицу, а через х вектор.", [
        (0, "root", "VERB"), (3, "case", "ADP"), (1, "obl", "PROPN"), (1, "obj", "NOUN"), (9, "punct", "PUNCT"),
        (9, "cc", "CCONJ"), (9, "orphan", "ADP"), (7, "punct", "PUNCT"), (1, "conj", "NOUN"), (1, "punct", "PUNCT")])
    assert got["R1"] == ["через х"] and got["R2"] == ["вектор"]
    # The same with the letter hung from the promoted remnant.
    got = _answer_of("Назовем форму линейной, а подпространство F областью.", [
        (0, "root", "VERB"), (1, "obj", "NOUN"), (1, "xcomp", "ADJ"), (6, "punct", "PUNCT"), (6, "cc", "CCONJ"),
        (1, "conj", "NOUN"), (6, "punct", "PUNCT"), (6, "orphan", "NOUN"), (1, "punct", "PUNCT")])
    assert got["R1"] == ["подпространство F"] and got["R2"] == ["областью"]


def test_relative_clause_on_the_whole_clause_leaves_the_remnant():
    # ", что соответствует ..." comments on the whole gapped clause: not part of R2.
    spec = [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"), (6, "nummod", "NUM"),
            (2, "obj", "NOUN"), (10, "punct", "PUNCT"), (10, "cc", "CCONJ"), (10, "case", "ADP"), (2, "conj", "NOUN"),
            (13, "punct", "PUNCT"), (13, "nummod", "NUM"), (10, "orphan", "NOUN"), (16, "punct", "PUNCT"),
            (16, "mark", "SCONJ"), (13, "acl:relcl", "VERB"), (16, "obj", "NOUN"), (2, "punct", "PUNCT")]
    got = _answer_of("Пособие составило в мае 25 рублей, а в июне - 30 рублей, что соответствует минимуму.", spec)
    assert got["R1"] == ["в июне"] and got["R2"] == ["30 рублей"]
    # A clause on "что" that completes a pronoun stays: "все, что он любит".
    spec = [(2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "NOUN"), (6, "punct", "PUNCT"), (6, "cc", "CCONJ"),
            (2, "conj", "PRON"), (10, "punct", "PUNCT"), (10, "obj", "PRON"), (10, "nsubj", "PRON"), (6, "acl:relcl", "VERB"),
            (12, "punct", "PUNCT"), (6, "orphan", "NOUN"), (2, "punct", "PUNCT")]
    got = _answer_of("Я отдам сердце, а все, что он любит, овцам.", spec)
    assert got["R1"] == ["все, что он любит"] and got["R2"] == ["овцам"]


def test_antecedent_verb_whose_dependents_parallel_the_remnants():
    # The gapped clause hangs from "стимулирует" in the bracket; "добавьте" has the parallel dependents.
    got = _answer_of("Для женщины добавьте две капли масла (он стимулирует сон), а для мужчины - три капли масла.", [
        (2, "case", "ADP"), (3, "obl", "NOUN"), (0, "root", "VERB"), (5, "nummod", "NUM"), (3, "obj", "NOUN"),
        (5, "nmod", "NOUN"), (9, "punct", "PUNCT"), (9, "nsubj", "PRON"), (3, "parataxis", "VERB"), (9, "obj", "NOUN"),
        (9, "punct", "PUNCT"), (15, "punct", "PUNCT"), (15, "cc", "CCONJ"), (15, "case", "ADP"), (9, "conj", "NOUN"),
        (18, "punct", "PUNCT"), (18, "nummod", "NUM"), (15, "orphan", "NOUN"), (18, "nmod", "NOUN"), (3, "punct", "PUNCT")],
        {2: "Case=Gen", 5: "Case=Acc", 6: "Case=Gen", 8: "Case=Nom", 10: "Case=Acc", 15: "Case=Gen", 18: "Case=Acc",
         19: "Case=Gen"})
    assert got["cV"] == ["добавьте"] and got["cR1"] == ["Для женщины"] and got["cR2"] == ["две капли масла"]


def test_conjunction_after_the_first_remnant_stays_in_the_phrase():
    # The tagger calls the initial "П" a conjunction and the parser hangs it from the promoted remnant as cc:
    # the clause's conjunction comes before its first remnant, so this one belongs to R2.
    spec = [(2, "obl", "NOUN"), (0, "root", "VERB"), (5, "flat", "PROPN"), (3, "punct", "PUNCT"), (2, "nsubj", "PROPN"),
            (11, "punct", "PUNCT"), (11, "orphan", "NOUN"), (11, "punct", "PUNCT"), (11, "cc", "CCONJ"),
            (11, "punct", "PUNCT"), (2, "conj", "PROPN"), (2, "punct", "PUNCT")]
    got = _answer_of("Председателем избран К. Левин, заместителем — П. Бирюков.", spec)
    assert got["R1"] == ["заместителем"] and got["R2"] == ["П. Бирюков"] and got["V"] == ["П. Бирюков."]
    # The clause's own conjunction before the first remnant stays out of R1.
    spec = [(2, "obl", "NOUN"), (0, "root", "VERB"), (5, "flat", "PROPN"), (3, "punct", "PUNCT"), (2, "nsubj", "PROPN"),
            (12, "punct", "PUNCT"), (12, "cc", "CCONJ"), (12, "orphan", "NOUN"), (12, "punct", "PUNCT"),
            (12, "cc", "CCONJ"), (12, "punct", "PUNCT"), (2, "conj", "PROPN"), (2, "punct", "PUNCT")]
    got = _answer_of("Председателем избран К. Левин, а заместителем — П. Бирюков.", spec)
    assert got["R1"] == ["заместителем"] and got["R2"] == ["П. Бирюков"]


def test_correlate_on_chem_takes_its_comparative():
    # "более" hangs from the verb, but "чем на 5%" completes it: the correlate is "более чем на 5%".
    spec = [(2, "nsubj", "NOUN"), (0, "root", "VERB"), (2, "advmod", "ADV"), (7, "case", "SCONJ"), (7, "case", "ADP"),
            (7, "nummod", "NUM"), (2, "obl", "SYM"), (10, "punct", "PUNCT"), (10, "cc", "CCONJ"), (2, "conj", "NOUN"),
            (14, "punct", "PUNCT"), (14, "case", "ADP"), (14, "nummod", "NUM"), (10, "orphan", "SYM"), (2, "punct", "PUNCT")]
    got = _answer_of("Цены выросли более чем на 5%, а зарплаты — на 3%.", spec, {1: "Case=Nom", 10: "Case=Nom"})
    assert got["cR1"] == ["Цены"] and got["cR2"] == ["более чем на 5%"]


@pytest.mark.parametrize("text, spec, r1, r2", [
    # "в свою очередь" hangs from the promoted remnant: it is no part of R1.
    ("Он привязан к отцу, а тот, в свою очередь, — к матери.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "conj", "DET"), (7, "punct", "PUNCT"), (11, "case", "ADP"), (11, "det", "DET"),
        (7, "obl", "NOUN"), (7, "punct", "PUNCT"), (7, "punct", "PUNCT"), (15, "case", "ADP"), (7, "orphan", "NOUN"),
        (2, "punct", "PUNCT")], "тот", "к матери"),
    # A closing "и так далее" carries the row of clauses on: no part of R2.
    ("Оно летело от камня к горе, от нее — к реке и так далее.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "NOUN"), (6, "case", "ADP"),
        (2, "obl", "NOUN"), (9, "punct", "PUNCT"), (9, "case", "ADP"), (2, "conj", "PRON"), (12, "punct", "PUNCT"),
        (12, "case", "ADP"), (9, "orphan", "NOUN"), (15, "cc", "CCONJ"), (15, "advmod", "ADV"), (12, "conj", "ADV"),
        (2, "punct", "PUNCT")], "от нее", "к реке"),
])
def test_introductory_phrase_and_so_on_leave_the_remnant(text, spec, r1, r2):
    got = _answer_of(text, spec)
    assert got["R1"] == [r1] and got["R2"] == [r2]


def test_correlate_takes_the_degree_adverb_before_it():
    # "почти" hangs from the verb, but it grades "в два раза": the correlate is "почти в два раза".
    got = _answer_of("Цены выросли почти в два раза, а зарплаты — в полтора.", [
        (2, "nsubj", "NOUN"), (0, "root", "VERB"), (2, "advmod", "ADV"), (6, "case", "ADP"), (6, "nummod", "NUM"),
        (2, "obl", "NOUN"), (9, "punct", "PUNCT"), (9, "cc", "CCONJ"), (2, "conj", "NOUN"), (12, "punct", "PUNCT"),
        (12, "case", "ADP"), (9, "orphan", "NUM"), (2, "punct", "PUNCT")], {1: "Case=Nom", 9: "Case=Nom"})
    assert got["cR1"] == ["Цены"] and got["cR2"] == ["почти в два раза"]
    # "очень" hung from the verb grades "тихо" and is no correlate of its own: "тихо" pairs with "громко".
    got = _answer_of("Он говорил очень тихо, а она — очень громко.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "advmod", "ADV"), (2, "advmod", "ADV"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "conj", "PRON"), (10, "punct", "PUNCT"), (10, "advmod", "ADV"), (7, "orphan", "ADV"),
        (2, "punct", "PUNCT")], {1: "Case=Nom|Person=3", 7: "Case=Nom|Person=3"})
    assert got["cR1"] == ["Он"] and got["cR2"] == ["очень тихо"]


def test_quantifier_correlate_takes_its_partitive():
    # "из них" hangs from the verb, but it names the set "Один" is taken from: the correlate is "Один из них".
    got = _answer_of("Один из них стал врачом, а другой — учителем.", [
        (4, "nsubj", "NUM"), (3, "case", "ADP"), (4, "obl", "PRON"), (0, "root", "VERB"), (4, "obl", "NOUN"),
        (8, "punct", "PUNCT"), (8, "cc", "CCONJ"), (4, "conj", "ADJ"), (10, "punct", "PUNCT"), (8, "orphan", "NOUN"),
        (4, "punct", "PUNCT")], {1: "Case=Nom", 3: "Case=Gen", 5: "Case=Ins", 8: "Case=Nom", 10: "Case=Ins"})
    assert got["cR1"] == ["Один из них"] and got["cR2"] == ["врачом"]


def test_subject_correlate_takes_its_postposed_possessive():
    # "его" hangs from the verb as its object, but it is the possessive of "Голова": the correlate is "Голова его".
    got = _answer_of("Голова его болела сильно, а спина — слабо.", [
        (3, "nsubj", "NOUN"), (3, "obj", "PRON"), (0, "root", "VERB"), (3, "advmod", "ADV"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (3, "conj", "NOUN"), (9, "punct", "PUNCT"), (7, "orphan", "ADV"), (3, "punct", "PUNCT")],
        {1: "Case=Nom", 2: "Case=Acc|Person=3", 7: "Case=Nom"})
    assert got["cR1"] == ["Голова его"] and got["cR2"] == ["сильно"]


def test_prepositional_correlate_leaves_the_next_argument_out():
    # "капитал" after "В феврале" is the subject, not a postmodifier: "в январе" mirrors only "В феврале".
    got = _answer_of("В феврале капитал вырос на 2%, а в январе — на 1%.", [
        (2, "case", "ADP"), (4, "obl", "NOUN"), (4, "nsubj", "NOUN"), (0, "root", "VERB"), (7, "case", "ADP"),
        (7, "nummod", "NUM"), (4, "obl", "SYM"), (11, "punct", "PUNCT"), (11, "cc", "CCONJ"), (11, "case", "ADP"),
        (4, "conj", "NOUN"), (15, "punct", "PUNCT"), (15, "case", "ADP"), (15, "nummod", "NUM"), (11, "orphan", "SYM"),
        (4, "punct", "PUNCT")], {2: "Case=Loc", 3: "Case=Nom", 11: "Case=Loc"})
    assert got["cR1"] == ["В феврале"] and got["cR2"] == ["на 2%"]
    # A genitive there is the noun's postmodifier and stays (*На входе канала*).
    got = _answer_of("На входе канала стоит шлюз, а на выходе — насос.", [
        (2, "case", "ADP"), (4, "obl", "NOUN"), (4, "nsubj", "NOUN"), (0, "root", "VERB"), (4, "nsubj", "NOUN"),
        (9, "punct", "PUNCT"), (9, "cc", "CCONJ"), (9, "case", "ADP"), (4, "conj", "NOUN"), (11, "punct", "PUNCT"),
        (9, "orphan", "NOUN"), (4, "punct", "PUNCT")], {2: "Case=Loc", 3: "Case=Gen", 5: "Case=Nom", 9: "Case=Loc",
                                                         11: "Case=Nom"})
    assert got["cR1"] == ["На входе канала"] and got["cR2"] == ["шлюз"]


def test_symbol_correlate_takes_the_genitive_hung_from_the_verb():
    # "%" is tagged SYM but reads as the noun "процентов": "студентов", hung from the verb, is its genitive.
    got = _answer_of("Летом 60% студентов работают в кафе, а 30% — в офисах.", [
        (5, "obl", "NOUN"), (3, "nummod:gov", "NUM"), (5, "nsubj", "SYM"), (5, "obl", "NOUN"), (0, "root", "VERB"),
        (7, "case", "ADP"), (5, "obl", "NOUN"), (11, "punct", "PUNCT"), (11, "cc", "CCONJ"), (11, "nummod:gov", "NUM"),
        (5, "conj", "SYM"), (14, "punct", "PUNCT"), (14, "case", "ADP"), (11, "orphan", "NOUN"), (5, "punct", "PUNCT")],
        {1: "Case=Ins", 4: "Case=Gen", 7: "Case=Loc", 14: "Case=Loc"})
    assert got["cR1"] == ["60% студентов"] and got["cR2"] == ["в кафе"]


def test_correlate_takes_its_relative_clause_and_participial_phrase():
    # The parser hung the relative clause and the participial phrase from the verb; both belong to the noun before.
    got = _answer_of("Отец продал дом, который построил дед, а мать — машину.", [
        (2, "nsubj", "NOUN"), (0, "root", "VERB"), (2, "obj", "NOUN"), (6, "punct", "PUNCT"), (6, "obj", "PRON"),
        (2, "advcl", "VERB"), (6, "nsubj", "NOUN"), (10, "punct", "PUNCT"), (10, "cc", "CCONJ"), (2, "conj", "NOUN"),
        (12, "punct", "PUNCT"), (10, "orphan", "NOUN"), (2, "punct", "PUNCT")],
        {1: "Case=Nom|Animacy=Anim", 3: "Case=Acc", 7: "Case=Nom|Animacy=Anim", 10: "Case=Nom|Animacy=Anim",
         12: "Case=Acc"})
    assert got["cR1"] == ["Отец"] and got["cR2"] == ["дом, который построил дед"]
    got = _answer_of("Мальчик, сидящий у окна, читал книгу, а девочка — журнал.", [
        (7, "nsubj", "NOUN"), (3, "punct", "PUNCT"), (7, "advcl", "VERB"), (5, "case", "ADP"), (3, "obl", "NOUN"),
        (3, "punct", "PUNCT"), (0, "root", "VERB"), (7, "obj", "NOUN"), (11, "punct", "PUNCT"), (11, "cc", "CCONJ"),
        (7, "conj", "NOUN"), (13, "punct", "PUNCT"), (11, "orphan", "NOUN"), (7, "punct", "PUNCT")],
        {1: "Case=Nom|Animacy=Anim", 3: "Case=Nom|VerbForm=Part", 5: "Case=Gen", 8: "Case=Acc",
         11: "Case=Nom|Animacy=Anim", 13: "Case=Acc"})
    assert got["cR1"] == ["Мальчик, сидящий у окна"] and got["cR2"] == ["книгу"]


def test_secondary_predicate_is_a_candidate_correlate():
    # "умным" hangs from "брата" as amod, but an instrumental after an accusative is no attribute: it is the
    # secondary predicate the remnant "глупой" contrasts with.
    got = _answer_of("Она считает брата умным, а сестру — глупой.", [
        (2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "NOUN"), (3, "amod", "ADJ"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "conj", "NOUN"), (9, "punct", "PUNCT"), (7, "orphan", "ADJ"), (2, "punct", "PUNCT")],
        {1: "Case=Nom|Person=3", 3: "Case=Acc|Animacy=Anim", 4: "Case=Ins", 7: "Case=Acc|Animacy=Anim", 9: "Case=Ins"})
    assert got["cR1"] == ["брата"] and got["cR2"] == ["умным"]


def test_first_adjective_remnant_takes_the_whole_noun_phrase():
    # The first remnant "зеленые" (an orphan of the promoted "столе") stands for "зеленые яблоки": its correlate is
    # "Красные яблоки", not "Красные".
    got = _answer_of("Красные яблоки лежат в корзине, а зеленые — на столе.", [
        (2, "amod", "ADJ"), (3, "nsubj", "NOUN"), (0, "root", "VERB"), (5, "case", "ADP"), (3, "obl", "NOUN"),
        (11, "punct", "PUNCT"), (11, "cc", "CCONJ"), (11, "orphan", "ADJ"), (11, "punct", "PUNCT"), (11, "case", "ADP"),
        (3, "conj", "NOUN"), (3, "punct", "PUNCT")], {1: "Case=Nom", 2: "Case=Nom", 5: "Case=Loc", 8: "Case=Nom",
                                                      11: "Case=Loc"})
    assert got["cR1"] == ["Красные яблоки"] and got["cR2"] == ["в корзине"]


def test_zero_copula_clause_is_no_gap():
    # A present-tense nominal sentence has a zero copula: "горячий" after the dash is a predicate, nothing is elided.
    got = _answer_of("Вода в озере холодная, а песок – горячий.", [
        (4, "nsubj", "NOUN"), (3, "case", "ADP"), (1, "nmod", "NOUN"), (0, "root", "ADJ"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (4, "conj", "NOUN"), (9, "punct", "PUNCT"), (7, "orphan", "ADJ"), (4, "punct", "PUNCT")],
        {1: "Case=Nom", 4: "Case=Nom|Degree=Pos", 7: "Case=Nom", 9: "Case=Nom|Degree=Pos"})
    assert got["V"] == [] and got["cV"] == []
    # A verb the tagger calls a noun keeps its gap: "вырос" has a past tense's ending.
    got = _answer_of("Экспорт вырос на 5%, а импорт — на 3%.", [
        (2, "nsubj", "NOUN"), (0, "root", "NOUN"), (5, "case", "ADP"), (5, "nummod", "NUM"), (2, "obl", "SYM"),
        (8, "punct", "PUNCT"), (8, "cc", "CCONJ"), (2, "conj", "NOUN"), (12, "punct", "PUNCT"), (12, "case", "ADP"),
        (12, "nummod", "NUM"), (8, "orphan", "SYM"), (2, "punct", "PUNCT")], {1: "Case=Nom", 2: "Case=Nom", 8: "Case=Nom"})
    assert got["cV"] == ["вырос"]


def test_past_be_hung_as_auxiliary_from_an_infinitive_is_the_verb():
    # "было" makes no analytic form with "Спать": it is the copula, and AGRR marks it.
    got = _answer_of("Спать было скучно, а в кино — весело.", [
        (0, "root", "VERB"), (1, "aux", "AUX"), (1, "advmod", "ADV"), (7, "punct", "PUNCT"), (7, "cc", "CCONJ"),
        (7, "case", "ADP"), (1, "conj", "NOUN"), (9, "punct", "PUNCT"), (7, "orphan", "ADV"), (1, "punct", "PUNCT")],
        {1: "VerbForm=Inf", 7: "Case=Loc"})
    assert got["cV"] == ["было"]


def test_short_participle_tagged_adverb_is_the_verb_above_a_copied_noun():
    # The gapped clause hangs from "заявок" (an appos, as the parser has it), whose head "принято" the tagger calls
    # an adverb: it is the verb.
    got = _answer_of("Вчера принято 20 заявок, а сегодня — 30.", [
        (2, "advmod", "ADV"), (0, "root", "ADV"), (4, "nummod", "NUM"), (2, "appos", "NOUN"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (4, "conj", "ADV"), (9, "punct", "PUNCT"), (7, "orphan", "NUM"), (2, "punct", "PUNCT")],
        {4: "Case=Gen"})
    assert got["cV"] == ["принято"]


def test_gap_without_antecedent_or_dash_is_no_gap():
    # The parser hangs "нам" from the verb as an oblique, not as a conjunct, and "радость" from it as orphan: no
    # antecedent, and no dash stands for a verb, so nothing but the orphan says a verb is elided.
    got = _answer_of("Шумит море, а нам с тобой в радость.", [
        (0, "root", "VERB"), (1, "nsubj", "NOUN"), (5, "punct", "PUNCT"), (5, "cc", "CCONJ"), (1, "obl", "PRON"),
        (7, "case", "ADP"), (5, "nmod", "PRON"), (9, "case", "ADP"), (5, "orphan", "NOUN"), (1, "punct", "PUNCT")],
        {5: "Case=Dat", 7: "Case=Ins", 9: "Case=Acc"})
    assert got["V"] == [] and got["cV"] == []
    # The same wrong attachment with a dash standing for the verb keeps the gap.
    got = _answer_of("Брат уехал в Москву, а сестра — в Тверь.", [
        (2, "nsubj", "NOUN"), (0, "root", "VERB"), (4, "case", "ADP"), (2, "obl", "PROPN"), (7, "punct", "PUNCT"),
        (7, "cc", "CCONJ"), (2, "nsubj", "NOUN"), (10, "punct", "PUNCT"), (10, "case", "ADP"), (7, "orphan", "PROPN"),
        (2, "punct", "PUNCT")],
        {1: "Case=Nom", 4: "Case=Acc", 7: "Case=Nom", 10: "Case=Acc"})
    assert got["cV"] == ["уехал"] and got["V"] == ["в Тверь."]
