"""The udapi blocks, run by the real ``udapy`` command: ``.eud.udapi.Enhance`` and ``.eud.udapi.Parse``."""

from __future__ import annotations

import lzma
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO, needs_shared, shared_files

from eud.conllu import format_sentence, parse_conllu

UDAPY = shutil.which("udapy", path=str(Path(sys.executable).parent)) or shutil.which("udapy")
pytestmark = pytest.mark.skipif(UDAPY is None, reason="the udapy command (pip install udapi) is not installed")


def udapy(*scenario: str, cwd: Path) -> str:
    """Run a udapy chain; its standard output."""
    env = dict(os.environ, EUD_NO_PROGRESS="1", OMP_NUM_THREADS="1")
    run = subprocess.run([UDAPY, "-q", *scenario], check=False, cwd=cwd, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def eud(*args: str, cwd: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "eud", *args], check=False, cwd=cwd, capture_output=True, text=True,
                         env=dict(os.environ, EUD_NO_PROGRESS="1", OMP_NUM_THREADS="1"))
    assert run.returncode == 0, run.stderr[-2000:]


def deps_column(text: str) -> list[tuple[str, str]]:
    """(ID, DEPS) of every word and empty-node line."""
    return [tuple(line.split("\t")[0:9:8]) for line in text.splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize(("fixture", "lang"), [
    ("enhance_coordination", "en"), ("enhance_control", "en"), ("enhance_relative", "en"),
    ("enhance_case_en", "en"), ("enhance_case_cs", "cs"), ("gapping_en", "en"), ("gapping_cs", "cs"),
    ("gapping_lv", "lv"),
])
def test_enhance_block_equals_eud_enhance(fixture: str, lang: str, tmp_path: Path):
    src = FIXTURES / f"{fixture}.conllu"
    chain = udapy("read.Conllu", f"files={src}", ".eud.udapi.Enhance", f"lang={lang}", "write.Conllu", cwd=tmp_path)
    eud("enhance", str(src), "--lang", lang, "-o", "cli.conllu", cwd=tmp_path)
    cli = (tmp_path / "cli.conllu").read_text(encoding="utf-8")
    assert deps_column(chain) == deps_column(cli)
    assert chain == cli  # on these fixtures udapi's writer even gives the same bytes


def test_enhanced_edges_and_empty_nodes_reach_the_next_block(tmp_path: Path):
    out = udapy("read.Conllu", f"files={FIXTURES / 'gapping_en.conllu'}", ".eud.udapi.Enhance", "lang=en",
                "util.Eval", "tree=print(tree.sent_id, [str(e.ord) for e in tree.empty_nodes])",
                "node=print(node.ord, node.raw_deps, sorted((d['parent'].ord, d['deprel']) for d in node.deps))",
                cwd=tmp_path)
    lines = out.splitlines()
    first = lines[:lines.index(next(x for x in lines[1:] if x.startswith("gap-en-2")))]
    # "Mary bought apples and John pears": John and pears hang from the empty copy of "bought".
    assert first[0] == "gap-en-1 ['4.1']"
    assert "5 4.1:nsubj [(4.1, 'nsubj')]" in first
    assert "6 4.1:obj [(4.1, 'obj')]" in first
    assert "2 0:root [(0, 'root')]" in first


def test_profile_file_and_bad_arguments(tmp_path: Path):
    src = FIXTURES / "enhance_case_cs.conllu"
    by_file = udapy("read.Conllu", f"files={src}", ".eud.udapi.Enhance", f"profile={REPO / 'converters/cs.toml'}",
                    "write.Conllu", cwd=tmp_path)
    by_lang = udapy("read.Conllu", f"files={src}", ".eud.udapi.Enhance", "lang=cs", "write.Conllu", cwd=tmp_path)
    assert by_file == by_lang
    run = subprocess.run([UDAPY, "-q", "read.Conllu", f"files={src}", ".eud.udapi.Enhance", "write.Conllu"],
                         check=False, cwd=tmp_path, capture_output=True, text=True)
    # udapy itself exits 0 after a block fails to start; the message and the empty output tell.
    assert "eud.udapi.Enhance needs lang=CODE or profile=FILE" in run.stderr and run.stdout == ""


@pytest.mark.parametrize(("fixture", "options"), [
    ("eval_gold", ["lang=en"]), ("gapping_en", ["lang=en"]),
    ("gapping_en", [f"model={REPO / 'models' / 'en_ewt'}", "lang=en"]),
])
def test_parse_block_equals_eud_parse(fixture: str, options: list[str], tmp_path: Path):
    pytest.importorskip("torch")
    src = FIXTURES / f"{fixture}.conllu"
    chain = udapy("read.Conllu", f"files={src}", ".eud.udapi.Parse", *options, "write.Conllu", cwd=tmp_path)
    eud("parse", "--model", str(REPO / "models" / "en_ewt"), "--input-format", "conllu", str(src), "-q",
        "-o", "cli.conllu", cwd=tmp_path)
    assert chain == (tmp_path / "cli.conllu").read_text(encoding="utf-8")


def test_parse_block_tokenizes_raw_sentences_like_eud_parse_presegmented(tmp_path: Path):
    pytest.importorskip("torch")
    lines = ["I don't know what Dr. Smith said.", "John ate an apple and Mary a pear.", "", "Tabs\there  and\u00a0there."]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    chain = udapy("read.Sentences", f"files={src}", "ignore_empty_lines=1", ".eud.udapi.Parse", "lang=en",
                  "tokenize=1", "write.Conllu", cwd=tmp_path)
    eud("parse", "--model", str(REPO / "models" / "en_ewt"), "--input-format", "presegmented", str(src), "-q",
        "-o", "cli.conllu", cwd=tmp_path)
    ours = list(parse_conllu(chain))
    cli = list(parse_conllu((tmp_path / "cli.conllu").read_text(encoding="utf-8")))
    assert [s.text for s in ours] == [" ".join(line.split()) for line in lines if line]
    assert [w.misc for w in ours[-1].words][:3] == ["SpacesAfter=\\t", "SpacesAfter=\\s\\s", "SpacesAfter=\\u00A0"]
    assert [t.form for t in ours[0].tokens] == ["don't"]  # a multiword token, as the segmenter makes it
    # The same words, tags, trees and graphs as eud parse on the same lines (MISC aside: each
    # udapi tree's text stands alone, the file's line breaks are the CLI's SpacesAfter).
    def without_misc(sentences):
        return [line.rsplit("\t", 1)[0] for s in sentences for line in format_sentence(s).splitlines()
                if line and not line.startswith("#")]

    assert without_misc(ours) == without_misc(cli)
    assert any(s.empty_nodes for s in ours)  # the gapped sentence has its empty node
    check = subprocess.run(["udvalidate", "--level", "2", "--lang", "en"], input=chain, capture_output=True,
                           text=True, check=False)
    assert check.returncode == 0, check.stdout[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize("treebank", ["en_ewt", "cs_cac", "lv_lvtb"])
def test_enhance_block_equals_eud_enhance_on_dev(treebank: str, tmp_path: Path):
    files = shared_files(f"{treebank}/{treebank}-ud-dev.conllu.xz")
    needs_shared(files)
    src = tmp_path / "dev.conllu"
    src.write_bytes(lzma.decompress(files[0].read_bytes()))
    chain = udapy("read.Conllu", f"files={src}", ".eud.udapi.Enhance", f"lang={treebank}", "write.Conllu",
                  cwd=tmp_path)
    eud("enhance", str(src), "--lang", treebank, "-o", "cli.conllu", cwd=tmp_path)
    assert deps_column(chain) == deps_column((tmp_path / "cli.conllu").read_text(encoding="utf-8"))


def test_ten_and_more_empty_nodes_after_one_word_reach_udapi_intact():
    # udapi keeps x.10 and later as its OrdTuple, which its own constructor (udapi 0.5.2) and its
    # DEPS serializer cannot handle; eud hands such a sentence over anyway, and udapi writes it back.
    import contextlib
    import io

    from udapi.block.write.conllu import Conllu
    from udapi.core.root import Root

    from eud.udapi.trees import add_words, write_basic, write_enhanced

    rows = ["1\tGo\tgo\tVERB\t_\t_\t0\troot\t0:root\t_"]
    rows += [f"1.{i}\tgo\tgo\tVERB\t_\t_\t_\t_\t{'1' if i == 1 else f'1.{i - 1}'}:conj\tCopyOf=1" for i in range(1, 12)]
    rows.append("2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t1:punct\t_")
    (sentence,) = parse_conllu("# sent_id = many\n" + "\n".join(rows) + "\n\n")
    root = Root()
    add_words(root, sentence)
    write_basic(root, sentence)
    write_enhanced(root, sentence)
    assert [str(e.ord) for e in root.empty_nodes][-3:] == ["1.9", "1.10", "1.11"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        Conllu().process_tree(root)
    assert [line for line in out.getvalue().splitlines() if line and not line.startswith("#")] == rows
