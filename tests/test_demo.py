"""The demo page at ``/`` of ``eud serve``, used as a person would in a real headless Chromium.

A real server on loopback (the shipped English model, a 16 kB request
limit) and a real Chromium over DevTools: the page lists the server's models,
parses a typed gapping sentence on Enter, draws its graph with eud's renderer
(the elided verb as a marked empty node), shows and offers the CoNLL-U, compares
with an uploaded gold file, and shows the server's 413 and 400 as messages on
the page.  At a phone's width (375 px) nothing overflows sideways.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import FIXTURES

from eud import read_conllu
from eud.conllu import parse_conllu
from eud.render import expected_counts

httpx = pytest.importorskip("httpx")
from test_server import Running  # after the skips: the server needs its extras and models/en_ewt

LIMIT = 16384
GAPPING = "John ate an apple and Mary a pear."
GOLD = FIXTURES / "render_gapping.conllu"  # the same words, annotated by hand
COPY = FIXTURES / "render_system.conllu"  # the same words, the enhanced graph a copy of the basic tree

SHADOW = "document.getElementById('graph').shadowRoot"
COUNT_JS = f"""(() => {{
  const root = {SHADOW};
  const n = s => root ? root.querySelectorAll(s).length : 0;
  return {{svgs: n('svg.sentence'), words: n('g.node.word'), empty: n('g.node.empty'), basic: n('g.arc.basic'),
          enhanced: n('g.arc.enhanced'), missing: n('g.arc.missing'), extra: n('g.arc.extra')}};
}})()"""
ERROR_JS = "(() => { const e = document.getElementById('error'); return e.hidden ? '' : e.textContent; })()"
IDLE_JS = "!document.getElementById('parse').disabled"


@pytest.fixture(scope="module")
def served():
    running = Running("--workers", "1", "--max-bytes", str(LIMIT), "--model", "en")
    yield running
    assert running.stop() == [], "the server left worker processes behind"


@pytest.fixture
def page(browser, served):
    """The demo page, loaded afresh at desktop width with the server's models listed."""
    browser.viewport(1000, 800)
    browser.open(served.url + "/")
    browser.wait_until("document.getElementById('model').value === 'en_ewt'")
    return browser


def submit(browser, text: str, key_modifiers: int = 0) -> None:
    """Type ``text`` into the text box and press Enter; wait until the page is idle again."""
    browser.evaluate("document.getElementById('text').value = ''")
    browser.type("#text", text)
    browser.evaluate("document.getElementById('status').textContent = 'typed'")
    browser.press("Enter", key_modifiers)
    browser.wait_until(f"document.getElementById('status').textContent !== 'typed' && {IDLE_JS}", timeout=120)


def shown_conllu(browser) -> list:
    return parse_conllu(browser.evaluate("document.getElementById('conllu').textContent"), name="page")


def test_the_page_is_self_contained_and_labelled(served):
    answer = httpx.get(served.url + "/")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    page = answer.text
    assert "http://" not in page and "https://" not in page
    assert " src=" not in page and "@import" not in page
    assert page.count("<link") == 1 and '<link rel="icon" href="data:,">' in page  # no request for /favicon.ico
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert f'data-max-bytes="{LIMIT}"' in page
    for control in ("text", "model", "gold"):
        assert f'<label for="{control}">' in page and f'id="{control}"' in page


def test_typed_gapping_sentence_is_parsed_and_drawn(page, served):
    submit(page, GAPPING)
    assert page.evaluate(ERROR_JS) == ""
    assert page.errors() == []
    sentences = shown_conllu(page)
    assert len(sentences) == 1 and sentences[0].text == GAPPING
    # the parse is the hand-annotated gapping graph: the elided verb is 5.1, a copy of "ate"
    gold = next(read_conllu(GOLD))
    assert set(sentences[0].enhanced) == set(gold.enhanced)
    counts = page.evaluate(COUNT_JS)
    assert counts == {"svgs": 1, "words": 9, "empty": 1, "basic": 9, "enhanced": 10, "missing": 0, "extra": 0}
    want = expected_counts(sentences[0])
    assert {k: counts[k] for k in want if k in counts} == {k: want[k] for k in want if k in counts}
    empty = page.evaluate(f"""(() => {{
      const g = {SHADOW}.querySelector('g.node.empty');
      const rect = g.querySelector('rect'), form = g.querySelector('text.form'), box = g.getBoundingClientRect();
      return {{id: g.dataset.id, form: form.textContent, dashed: rect.getAttribute('stroke-dasharray'),
              italic: getComputedStyle(form).fontStyle, width: box.width, height: box.height,
              legend: {SHADOW}.querySelector('.legend').textContent}};
    }})()""")
    assert empty["id"] == "5.1" and empty["form"] == "ate" and empty["dashed"] and empty["italic"] == "italic"
    assert empty["width"] > 10 and empty["height"] > 10 and "empty node" in empty["legend"]
    # the arcs into the empty node: conj from "ate", nsubj to Mary and obj to pear from it
    arcs = page.evaluate(f"[...{SHADOW}.querySelectorAll('g.arc.enhanced title')].map(t => t.textContent)")
    assert {"2 → 5.1 conj:and", "5.1 → 6 nsubj", "5.1 → 8 obj"} <= {a.split(" (")[0] for a in arcs}


def test_download_gives_the_shown_conllu(page, tmp_path):
    submit(page, GAPPING)
    link = page.evaluate("(() => { const a = document.getElementById('download');"
                         " return {href: a.href, name: a.getAttribute('download')}; })()")
    assert link["href"].startswith("blob:") and link["name"] == "eud.conllu"
    got = page.call("Runtime.evaluate", awaitPromise=True, returnByValue=True,
                    expression="fetch(document.getElementById('download').href).then(r => r.text())")
    downloaded = got["result"]["value"]
    assert downloaded == page.evaluate("document.getElementById('conllu').textContent")
    assert parse_conllu(downloaded, name="download")[0].empty_nodes
    assert page.errors() == []
    if shutil.which("udvalidate"):  # UD's validator (the udtools package, a dependency of eud)
        path = tmp_path / "eud.conllu"
        path.write_text(downloaded, encoding="utf-8")
        check = subprocess.run(["udvalidate", "--level", "2", "--lang", "en", str(path)], capture_output=True,
                               text=True, check=False)
        assert check.returncode == 0, check.stdout + check.stderr


def test_ctrl_enter_submits_and_shift_enter_does_not(page):
    page.type("#text", GAPPING)
    page.press("Enter", 8)  # shift: a new line, no parse
    assert page.evaluate("document.getElementById('text').value.endsWith('\\n')")
    assert page.evaluate("document.getElementById('conllu-section').hidden")
    page.press("Enter", 2)  # ctrl
    page.wait_until("!document.getElementById('conllu-section').hidden", timeout=120)
    page.wait_until(IDLE_JS, timeout=120)
    assert page.evaluate(COUNT_JS)["empty"] == 1 and page.errors() == []


def test_gold_upload_shows_the_comparison(page):
    page.choose_files("#gold", [COPY])
    submit(page, GAPPING)
    assert page.evaluate(ERROR_JS) == ""
    system, copy = shown_conllu(page)[0], next(read_conllu(COPY))
    want = expected_counts(system, copy)
    counts = page.evaluate(COUNT_JS)
    assert {k: counts[k] for k in want} == want
    # the copy lacks the empty node and its edges: they are extra; the copy's own edges to "pear" are missing
    assert counts["extra"] >= 3 and counts["missing"] >= 3
    summary = page.evaluate(f"{SHADOW}.querySelector('.summary').textContent")
    assert f"{want['missing']} missing, {want['extra']} extra" in summary
    assert "compared with the gold file" in page.evaluate("document.getElementById('status').textContent")
    assert page.errors() == []


def test_gold_words_are_parsed_when_there_is_no_text(page):
    page.choose_files("#gold", [GOLD])
    page.evaluate("document.getElementById('parse').focus()")
    page.evaluate("document.getElementById('status').textContent = 'typed'")
    page.press("Enter")  # on the focused button
    page.wait_until(f"document.getElementById('status').textContent !== 'typed' && {IDLE_JS}", timeout=120)
    assert page.evaluate(ERROR_JS) == ""
    sentences = shown_conllu(page)
    assert [s.sent_id for s in sentences] == ["gapping-1"]
    assert page.evaluate(COUNT_JS)["missing"] == expected_counts(sentences[0], next(read_conllu(GOLD)))["missing"]


def network_errors_only(browser, status: int) -> list[str]:
    """The page's errors other than Chromium's own log line for a response of ``status`` (a fetch cannot hide it)."""
    return [e for e in browser.errors() if f"status of {status}" not in e]


def test_too_large_input_shows_the_413_on_the_page(page):
    submit(page, "word " * (LIMIT // 4))
    message = page.evaluate(ERROR_JS)
    assert message.startswith("The input is too large for this server") and str(LIMIT) in message, message
    assert f"request larger than {LIMIT} bytes (--max-bytes)" in message, message  # the server's own 413
    assert network_errors_only(page, 413) == []
    # the page still works after the refusal
    submit(page, GAPPING)
    assert page.evaluate(ERROR_JS) == "" and page.evaluate(COUNT_JS)["empty"] == 1


def test_gold_with_other_words_shows_the_400_and_still_draws(page, tmp_path):
    other = tmp_path / "other.conllu"
    other.write_text(GOLD.read_text(encoding="utf-8").replace("\tpear\tpear\t", "\tplum\tplum\t"), encoding="utf-8")
    page.choose_files("#gold", [other])
    submit(page, GAPPING)
    message = page.evaluate(ERROR_JS)
    assert message.startswith("The server refused the input") and "word 8" in message, message
    assert "drawn without the gold file" in message
    assert page.evaluate(COUNT_JS)["svgs"] == 1 and page.evaluate(COUNT_JS)["missing"] == 0
    assert network_errors_only(page, 400) == []
    # removing the gold file: the next parse draws the plain graph, without a message
    assert not page.evaluate("document.getElementById('clear-gold').hidden")
    page.evaluate("document.getElementById('clear-gold').click()")
    assert page.evaluate("document.getElementById('gold').files.length") == 0
    submit(page, GAPPING)
    assert page.evaluate(ERROR_JS) == "" and page.evaluate(COUNT_JS)["empty"] == 1


def test_phone_width_has_no_sideways_overflow(browser, served):
    browser.viewport(375, 740, mobile=True, scale=2)
    try:
        browser.open(served.url + "/")
        browser.wait_until("document.getElementById('model').value === 'en_ewt'")
        submit(browser, GAPPING)
        layout = browser.evaluate("""(() => {
          const right = id => document.getElementById(id).getBoundingClientRect().right;
          return {page: document.documentElement.scrollWidth, view: window.innerWidth,
                  controls: ['text', 'model', 'gold', 'parse', 'download', 'conllu', 'graph'].map(right)};
        })()""")
        assert layout["view"] == 375 and layout["page"] <= 375, layout
        assert max(layout["controls"]) <= 375, layout
        # the graph is wider than the phone: it scrolls inside its own box
        scroll = browser.evaluate(f"(() => {{ const s = {SHADOW}.querySelector('.scroll');"
                                  " return [s.scrollWidth, s.clientWidth, s.tabIndex]; })()")
        assert scroll[0] > scroll[1] and scroll[2] == 0
        assert browser.errors() == []
    finally:
        browser.viewport(1000, 800)


def test_models_listed_are_the_servers(page, served):
    listed = page.evaluate("[...document.getElementById('model').options].map(o => o.value)")
    assert listed == sorted(json.loads(httpx.get(served.url + "/models").text)["models"])
