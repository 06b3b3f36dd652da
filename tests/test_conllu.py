"""Reading and writing CoNLL-U: lossless round trips and clear errors."""

from __future__ import annotations

import io
import lzma

import pytest
from conftest import FIXTURES, needs_shared, shared_files

from eud.conllu import ConlluError, ConlluReader, format_sentence, parse_conllu, read_conllu, write_conllu


def test_fixture_round_trip_is_byte_identical():
    text = (FIXTURES / "core_mixed.conllu").read_text(encoding="utf-8")
    sentences = parse_conllu(text)
    assert "".join(format_sentence(s) for s in sentences) == text


def test_reader_builds_the_model():
    first, second = read_conllu(FIXTURES / "core_mixed.conllu")
    assert first.sent_id == "demo-1"
    assert first.text == "I won't go, and Mary bronze."
    assert [w.form for w in first.words] == ["I", "wo", "n't", "go", ",", "and", "Mary", "bronze", "."]
    assert [(t.first, t.last, t.form) for t in first.tokens] == [(2, 3, "won't")]
    assert [e.node for e in first.empty_nodes] == [(8, 1)]
    assert first.word(8).head == 7 and first.word(8).deprel == "orphan"
    assert sorted(first.enhanced.heads((7, 0))) == [((8, 1), (7, 0), "nsubj")]
    assert first.enhanced.heads((8, 1)) == [((4, 0), (8, 1), "conj:and")]
    assert first.nodes()[-2:] == [(8, 1), (9, 0)]
    assert not second.enhanced and second.word(1).head == 0


def test_deps_are_written_sorted_by_head_then_label():
    (sentence,) = parse_conllu("1\ta\t_\t_\t_\t_\t0\troot\t0:root\t_\n2\tb\t_\t_\t_\t_\t1\tdep\t1:dep\t_\n\n")
    sentence.enhanced.add((1, 0), (2, 0), "conj")
    sentence.enhanced.add((0, 0), (2, 0), "root")
    assert sentence.deps((2, 0)) == "0:root|1:conj|1:dep"


def test_compressed_round_trip(tmp_path):
    sentences = list(read_conllu(FIXTURES / "core_mixed.conllu"))
    target = tmp_path / "out.conllu.xz"
    assert write_conllu(sentences, target) == 2
    with lzma.open(target, "rt", encoding="utf-8") as stream:
        assert stream.read() == (FIXTURES / "core_mixed.conllu").read_text()


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\n\n", 1, "expected 10 tab-separated columns, found 9"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\nx\tb\t_\t_\t_\t_\t1\tdep\t_\t_\n\n", 2, "bad word id 'x'"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n3\tb\t_\t_\t_\t_\t1\tdep\t_\t_\n\n", 2, "out of sequence"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t7\tdep\t_\t_\n\n", 2, "HEAD 7 out of range"),
        ("1\ta\t_\t_\t_\t_\tx\troot\t_\t_\n\n", 1, "bad HEAD 'x'"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t0root\t_\n\n", 1, "malformed DEPS entry '0root'"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t0:root|3:dep\t_\n\n", 1, "points to 3, which is not in the sentence"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t1.x:dep\t_\n\n", 1, "bad head id '1.x'"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n1.2\tb\t_\t_\t_\t_\t_\t_\t_\t_\n\n", 2, "expected 1.1"),
        ("1-1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n", 1, "span at least two words"),
        ("# c\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n# late\n\n", 3, "comment line inside a sentence"),
        ("# only a comment\n\n", 1, "comments with no sentence"),
        ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\r\n\r\n", 1, "line ends with CR LF"),
        ("# c\n1\ta\t_\t_\t_\t_\t0\troot\t_\tSpaceAfter=No\r\n\n", 2, "CoNLL-U lines end with LF alone"),
    ],
)
def test_errors_name_file_line_and_problem(text, line, fragment):
    with pytest.raises(ConlluError) as info:
        parse_conllu(text, name="bad.conllu")
    assert info.value.line == line
    assert str(info.value).startswith(f"bad.conllu:{line}: ")
    assert fragment in str(info.value)


def test_invalid_utf8_names_the_byte_offset():
    data = b"1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n1\t\xff\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
    with pytest.raises(ConlluError, match=r"x.conllu:3: invalid UTF-8 at byte offset 26 of the file"):
        list(ConlluReader(io.BytesIO(data), name="x.conllu"))


def test_lenient_skips_and_counts_broken_sentences():
    good = "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
    broken = "1\ta\t_\t_\t_\t_\t5\troot\t_\t_\n\n"
    reader = ConlluReader(io.StringIO(good + broken + good), lenient=True, name="x")
    with pytest.warns(UserWarning, match="x:3: HEAD 5 out of range"):
        sentences = list(reader)
    assert len(sentences) == 2 and reader.skipped == 1


@pytest.mark.shared
def test_every_shared_treebank_round_trips_byte_identically():
    paths = shared_files("*/*-dev.conllu.xz") + shared_files("*/*-test.conllu.xz")
    needs_shared(paths)
    for path in paths:
        with lzma.open(path, "rt", encoding="utf-8", newline="") as stream:
            original = stream.read()
        written = "".join(format_sentence(s) for s in read_conllu(path))
        assert written == original, path.name
