"""The graph viewer: the page's content, and the page in a real headless Chromium (counts, errors, screenshot)."""

from __future__ import annotations

import itertools

import pytest
from conftest import FIXTURES, needs_shared, shared_files

from eud import read_conllu
from eud.commands.render import main
from eud.render import Arc, assign_levels, expected_counts, render_page, sentence_svg

GOLD = FIXTURES / "render_gapping.conllu"
SYSTEM = FIXTURES / "render_system.conllu"

COUNT_JS = """(() => {
  const n = s => document.querySelectorAll(s).length;
  return {svgs: n('svg.sentence'), words: n('g.node.word'), empty: n('g.node.empty'), basic: n('g.arc.basic'),
          enhanced: n('g.arc.enhanced'), missing: n('g.arc.missing'), extra: n('g.arc.extra'),
          root_basic: n('g.arc.basic.root'), scripts: n('script')};
})()"""

# Label boxes of arcs per sentence and side, then every overlapping pair within one side.
OVERLAP_JS = """(() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.sentence')) {
    for (const side of ['enhanced', 'basic']) {
      const boxes = [...svg.querySelectorAll('g.arc.' + side + ' text')].map(t => t.getBBox());
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        if (a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5
            && b.y < a.y + a.height - 0.5) out.push(svg.parentNode.parentNode.id + ' ' + side);
      }
    }
  }
  return out;
})()"""


def test_page_is_self_contained_and_complete(tmp_path):
    out = tmp_path / "page.html"
    assert main([str(GOLD), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page
    assert "<script" not in page
    # the empty node of the gapping sentence, with its id and form
    assert 'class="node empty" data-id="5.1"' in page and ">ate</text>" in page
    assert page.count('class="arc enhanced') == 10 and page.count('class="arc basic') == 9


def test_compare_counts_missing_and_extra():
    system, gold = list(read_conllu(SYSTEM)), list(read_conllu(GOLD))
    counts = expected_counts(system[0], gold[0])
    # gold reconstructs the elided verb (5.1); the system copied the basic tree
    assert counts == {"words": 9, "empty": 1, "basic": 9, "enhanced": 13, "missing": 4, "extra": 3}
    page = render_page(system, gold)
    assert page.count('class="arc enhanced missing"') == 4 and page.count('class="arc enhanced extra"') == 3
    assert "6 correct, 4 missing, 3 extra" in page
    assert 'class="node empty missing"' in page


def test_compare_refuses_other_words(tmp_path, capsys):
    other = tmp_path / "other.conllu"
    other.write_text(GOLD.read_text(encoding="utf-8").replace("\tpear\tpear\t", "\tplum\tplum\t"), encoding="utf-8")
    assert main([str(SYSTEM), "--compare", str(other), "-o", str(tmp_path / "x.html")]) == 1
    err = capsys.readouterr().err
    assert "gapping-1" in err and "word 8" in err
    assert not (tmp_path / "x.html").exists()


def test_bad_input_names_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n2\tB\n\n", encoding="utf-8")
    assert main([str(bad), "-o", str(tmp_path / "x.html")]) == 1
    assert "bad.conllu:2" in capsys.readouterr().err


def test_levels_nest_and_do_not_collide():
    # a -> c spans b -> c; the outer arc must sit above; two disjoint short arcs share level 1
    arcs = [Arc((1, 0), (3, 0), "obj", "basic", x_head=10, x_dep=110), Arc((2, 0), (3, 0), "amod", "basic", x_head=60,
            x_dep=105), Arc((4, 0), (5, 0), "det", "basic", x_head=160, x_dep=210)]
    assign_levels(arcs)
    assert [a.level for a in arcs] == [2, 1, 1]


def test_repr_html_for_notebooks():
    sentence = next(read_conllu(GOLD))
    fragment = sentence._repr_html_()
    assert fragment.count("<svg") == 1 and "John" in fragment


def test_chromium_counts_nodes_and_arcs(browser, tmp_path):
    page = tmp_path / "compare.html"
    assert main([str(SYSTEM), "--compare", str(GOLD), "-o", str(page)]) == 0
    browser.open(str(page))
    assert browser.errors() == []
    counts = browser.evaluate(COUNT_JS)
    want = expected_counts(next(read_conllu(SYSTEM)), next(read_conllu(GOLD)))
    assert counts == {"svgs": 1, "words": want["words"], "empty": want["empty"], "basic": want["basic"],
                      "enhanced": want["enhanced"], "missing": want["missing"], "extra": want["extra"],
                      "root_basic": 1, "scripts": 0}
    shot = tmp_path / "compare.png"
    browser.screenshot(shot, width=800)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5000


def test_chromium_gapping_fixtures(browser, tmp_path):
    page = tmp_path / "gapping.html"
    files = sorted(FIXTURES.glob("gapping_*.conllu"))
    sentences = [s for f in files for s in read_conllu(f)]
    page.write_text(render_page(sentences), encoding="utf-8")
    browser.open(str(page))
    assert browser.errors() == []
    counts = browser.evaluate(COUNT_JS)
    assert counts["svgs"] == len(sentences)
    assert counts["empty"] == sum(len(s.empty_nodes) for s in sentences) > 0
    assert counts["enhanced"] == sum(len(s.enhanced) for s in sentences)
    assert browser.evaluate(OVERLAP_JS) == []


@pytest.mark.shared
def test_chromium_long_sentences_have_no_label_overlap(browser, tmp_path):
    """Every en_ewt dev sentence of 35 words or more: no two arc labels on one side overlap."""
    dev = shared_files("en_ewt/en_ewt-ud-dev.conllu.xz")
    needs_shared(dev)
    long = [s for s in read_conllu(dev[0]) if len(s.words) >= 35]
    assert len(long) > 20
    page = tmp_path / "long.html"
    page.write_text(render_page(long), encoding="utf-8")
    browser.open(str(page))
    assert browser.errors() == []
    assert browser.evaluate("document.querySelectorAll('svg.sentence').length") == len(long)
    assert browser.evaluate(OVERLAP_JS) == []


def test_svg_arcs_match_graph_sizes():
    for sentence in itertools.chain(read_conllu(GOLD), read_conllu(FIXTURES / "gapping_en.conllu")):
        svg = sentence_svg(sentence)
        assert svg.count('class="arc enhanced') == len(sentence.enhanced)
        assert svg.count('class="node word"') == len(sentence.words)
