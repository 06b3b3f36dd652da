"""The viewer's figures: the README's screenshots, and render time for a whole treebank file.

    python -m eval.server.render_docs shots                     # docs/gapping.png, docs/compare.png (headless chromium)
    python -m eval.server.render_docs demo                      # docs/demo.png: eud serve's page at / (headless chromium)
    python -m eval.server.render_docs time ../shared/data/ud/en_ewt/en_ewt-ud-dev.conllu.xz

``time`` reads the file, renders the page (eud.render.render_page) and
reports sentences, page size and seconds for rendering alone (best of 3), then
loads the page in headless chromium and reports the load time and the DOM
counts.

A tool, not a benchmark: it makes the README's pictures and records no result.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from eud import read_conllu
from eud.render import render_page
from eval.helpers.browser import Browser

FIXTURES = REPO / "tests" / "fixtures"


def shots() -> None:
    """docs/gapping.png (the gapping fixture) and docs/compare.png (a basic-tree copy scored against it)."""
    gold = list(read_conllu(FIXTURES / "render_gapping.conllu"))
    system = list(read_conllu(FIXTURES / "render_system.conllu"))
    with tempfile.TemporaryDirectory() as tmp, Browser() as browser:
        for name, page in (("gapping", render_page(gold, title="eud render: gapping")),
                           ("compare", render_page(system, gold, title="eud render --compare: system vs gold"))):
            path = Path(tmp) / f"{name}.html"
            path.write_text(page, encoding="utf-8")
            browser.open(str(path))
            assert browser.errors() == [], browser.errors()
            browser.screenshot(REPO / "docs" / f"{name}.png", width=720)
            print(f"docs/{name}.png")


def demo() -> None:
    """docs/demo.png: a real ``eud serve`` on loopback, its page at / after parsing the gapping sentence."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, EUD_NO_PROGRESS="1", PYTHONPATH=str(REPO))
    server = subprocess.Popen([sys.executable, "-m", "eud", "serve", "--port", str(port), "--model", "en"],
                              cwd=REPO, env=env)
    try:
        url = f"http://127.0.0.1:{port}/"
        for _ in range(600):
            try:
                urllib.request.urlopen(url + "health", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        with Browser() as browser:
            browser.viewport(900)
            browser.open(url)
            browser.wait_until("document.getElementById('model').value === 'en_ewt'")
            browser.type("#text", "John ate an apple and Mary a pear.")
            browser.press("Enter")
            browser.wait_until("document.getElementById('graph').shadowRoot?.querySelector('svg') "
                               "&& !document.getElementById('parse').disabled", timeout=120)
            browser.evaluate("document.activeElement.blur()")
            assert browser.errors() == [], browser.errors()
            browser.screenshot(REPO / "docs" / "demo.png", width=900)
            print("docs/demo.png")
    finally:
        server.terminate()
        server.wait(timeout=30)


def timing(source: str) -> None:
    """Render time and chromium load time for one CoNLL-U file."""
    start = time.perf_counter()
    sentences = list(read_conllu(source))
    read_s = time.perf_counter() - start
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        page = render_page(sentences, title=Path(source).name)
        best = min(best, time.perf_counter() - start)
    words = sum(len(s.words) for s in sentences)
    print(f"{len(sentences)} sentences, {words} words: read {read_s:.2f} s, render {best:.2f} s "
          f"({len(sentences) / best:.0f} sentences/s), page {len(page.encode()) / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory() as tmp, Browser(timeout=300) as browser:
        path = Path(tmp) / "page.html"
        path.write_text(page, encoding="utf-8")
        start = time.perf_counter()
        browser.open(str(path))
        load_s = time.perf_counter() - start
        svgs = browser.evaluate("document.querySelectorAll('svg.sentence').length")
        arcs = browser.evaluate("document.querySelectorAll('g.arc').length")
        print(f"chromium: loaded in {load_s:.2f} s, {svgs} svgs, {arcs} arcs, console errors: {len(browser.errors())}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["shots"]:
        shots()
    elif sys.argv[1:2] == ["demo"]:
        demo()
    elif sys.argv[1:2] == ["time"] and len(sys.argv) == 3:
        timing(sys.argv[2])
    else:
        sys.exit(__doc__)
