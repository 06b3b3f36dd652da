"""Whitespace kept in MISC as UDPipe keeps it (eud.spaces), and the text rebuilt from it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO

from eud import spaces
from eud.conllu import format_sentence, parse_conllu


def test_escapes_round_trip_and_follow_udpipe():
    run = " \t\r\n|\\\u00a0"
    assert spaces.escape(run) == "\\s\\t\\r\\n\\p\\\\\\u00A0"
    assert spaces.unescape(spaces.escape(run)) == run
    assert spaces.after(" ") == "_"
    assert spaces.after("") == "SpaceAfter=No"
    assert spaces.after("\n\n") == "SpacesAfter=\\n\\n"
    assert spaces.with_attribute("Lang=en", "SpacesBefore=\\s") == "SpacesBefore=\\s|Lang=en"
    assert spaces.with_attribute("_", "_") == "_"


def test_rebuild_reads_every_attribute_and_multiword_tokens():
    text = (
        "# text = I don't know.\n"
        "1\tI\t_\t_\t_\t_\t_\t_\t_\tSpacesBefore=\\n\\s|SpacesAfter=\\t\n"
        "2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\tSpacesAfter=\\s\\s\n"
        "2\tdo\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n"
        "3\tn't\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "4\tknow\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n"
        "5\t.\t_\t_\t_\t_\t_\t_\t_\tSpacesAfter=\\n\\n\n\n"
        "# text = Yes.\n"
        "1\tYes\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n"
        "2\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    )
    assert spaces.rebuild(parse_conllu(text)) == "\n I\tdon't  know.\n\nYes."


@pytest.fixture(scope="module")
def segmenter():
    pytest.importorskip("torch")
    from eud.segment import Segmenter

    return Segmenter.load(REPO / "models" / "en_ewt" / "segmenter")


def test_the_shipped_segmenter_keeps_the_text(segmenter):
    text = ("  Hello  world.\tThis is\ta test.\nNew line\u00a0here, don't  stop.   \n\n\n"
            "   Second para.  It's fine.")
    sentences = list(segmenter.segment(text))
    # What CoNLL-U writes and reads back gives the text again: blank lines between paragraphs
    # count as one.
    written = "".join(format_sentence(s) + "\n" for s in sentences)
    assert spaces.rebuild(parse_conllu(written)) == text.replace("\n\n\n", "\n\n")
    assert [s.text for s in sentences][:2] == ["Hello world.", "This is a test."]
    assert sentences[0].words[0].misc == "SpacesBefore=\\s\\s|SpacesAfter=\\s\\s"


def test_a_parse_of_spaced_text_passes_udvalidate(tmp_path):
    pytest.importorskip("torch")
    validator = subprocess.run(["udvalidate", "--help"], capture_output=True, check=False)
    if validator.returncode:
        pytest.skip("udvalidate (the udtools package) is not installed")
    source = tmp_path / "in.txt"
    source.write_text("Tabs\tand  spaces | pipes.\r\nA\u00a0line.\n\n\n  Next paragraph.\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    subprocess.run([sys.executable, "-m", "eud", "parse", "--model", str(REPO / "models" / "en_ewt"), "-q",
                    str(source), "-o", str(out)], check=True)
    conllu = out.read_text(encoding="utf-8")
    assert "SpacesAfter=\\t" in conllu and "SpacesAfter=\\s\\s" in conllu and "SpacesAfter=\\n\\n\\s\\s" in conllu
    check = subprocess.run(["udvalidate", "--level", "2", "--lang", "en", str(out)], capture_output=True, text=True,
                           check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_token_ranges_skip_dropped_characters_and_stop_where_the_text_changed(segmenter):
    from eud.segment.text import DROPPED

    text = "Zero\u200bwidth here.  Cafe\u0301 closed."  # a dropped character inside a word; a decomposed accent
    sentences = list(segmenter.segment(text))
    count = spaces.add_token_ranges(text, sentences, DROPPED)
    lines = [line for s in sentences for line in spaces.token_lines(s)]
    assert lines[0].form == "Zerowidth" and "TokenRange=0:10" in lines[0].misc
    assert "TokenRange=11:15" in lines[1].misc
    # NFC made "Café" one character shorter than the input: no range from there on.
    assert count == 3 and lines[3].form == "Café" and "TokenRange" not in lines[3].misc


def test_presegmented_lines_and_normalized_spaces(segmenter):
    text = "One. Two on the same line\n\n  Next  line."
    sentences = list(segmenter.segment_lines(text))
    assert [s.text for s in sentences] == ["One. Two on the same line", "Next line."]
    assert [c for c in sentences[1].comments if c.startswith("# sent_id")] == ["# sent_id = 2"]
    assert sentences[0].words[-1].misc == "SpacesAfter=\\n\\n\\s\\s"
    assert spaces.rebuild(sentences) == text
    spaces.normalize(sentences)
    assert [w.misc for w in sentences[1].words] == ["_", "SpaceAfter=No", "_"]
    assert sentences[0].words[-1].misc == "_"


def test_a_parsed_document_gives_its_text_back():
    pytest.importorskip("torch")
    import eud

    nlp = eud.load(REPO / "models" / "en_ewt")
    text = "It rained.\tWe stayed  in,\nand read.\n\n  Later we went out."
    doc = nlp(text)
    assert doc.text == text
    assert len(doc) == 3 and doc[2].text == "Later we went out."


def test_eud_parse_presegmented_input_keeps_a_sentence_a_line(tmp_path):
    pytest.importorskip("torch")
    text = "It rained. We stayed in\n\n  Dr. Smith came at 5 p.m. and left\nThe end."
    source = tmp_path / "lines.txt"
    source.write_text(text + "\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    subprocess.run([sys.executable, "-m", "eud", "parse", "--model", str(REPO / "models" / "en_ewt"), "-q",
                    "--input-format", "presegmented", str(source), "-o", str(out)], check=True)
    sentences = list(parse_conllu(out.read_text(encoding="utf-8")))
    assert [s.text for s in sentences] == ["It rained. We stayed in", "Dr. Smith came at 5 p.m. and left", "The end."]
    assert spaces.rebuild(sentences) == text
    assert all(s.words[-1].head is not None for s in sentences)  # parsed
