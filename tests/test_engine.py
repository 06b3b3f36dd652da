"""``--workers``/``--cluster`` on a real local Dask cluster: outputs byte-identical to a single-process run."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, REPO

from eud.commands.enhance import main as enhance_main

pytest.importorskip("distributed")

from eud import engine

ENHANCE_FILES = sorted(FIXTURES.glob("enhance_*_en.conllu")) + [FIXTURES / "enhance_control.conllu",
                                                                FIXTURES / "enhance_coordination.conllu",
                                                                FIXTURES / "gapping_en.conllu"]


@pytest.fixture(scope="module")
def client():
    c = engine.local_client(2)
    assert len(c.scheduler_info()["workers"]) == 2
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


def single(tmp_path, path):
    out = tmp_path / f"single-{path.name}"
    assert enhance_main([str(path), "--lang", "en", "-o", str(out)]) == 0
    return out.read_bytes()


def test_enhance_on_two_workers_is_byte_identical(client, tmp_path):
    job = engine.Job("enhance", lang="en")
    report = engine.run(job, [str(p) for p in ENHANCE_FILES], client, output_dir=str(tmp_path / "out"), chunk=2)
    assert report.failures == []
    assert report.sentences == sum(f.read_text(encoding="utf-8").count("\n\n") for f in ENHANCE_FILES)
    for path in ENHANCE_FILES:
        assert (tmp_path / "out" / path.name).read_bytes() == single(tmp_path, path)
    # one stream: the same bytes, concatenated in input order
    stream = tmp_path / "all.conllu"
    engine.run(job, [str(p) for p in ENHANCE_FILES], client, output=str(stream), chunk=3)
    assert stream.read_bytes() == b"".join(single(tmp_path, p) for p in ENHANCE_FILES)


def test_failed_chunks_are_reported_and_nothing_half_written(client, tmp_path):
    # a profile the workers cannot read: every chunk fails, after its retries, and is named
    job = engine.Job("enhance", profile=str(tmp_path / "missing.toml"))
    with pytest.raises(ValueError, match="could not load"):  # the worker plugin fails first, when it loads
        engine.run(job, [str(ENHANCE_FILES[0])], client, output_dir=str(tmp_path / "out"), chunk=2, retries=1)
    assert not (tmp_path / "out" / ENHANCE_FILES[0].name).exists()


def test_unreadable_input_leaves_no_half_written_file(client, tmp_path):
    good = (FIXTURES / "gapping_en.conllu").read_text(encoding="utf-8")
    path = tmp_path / "mixed.conllu"
    path.write_text(good + "1\tA\ta\tNOUN\t_\t_\t7\tnsubj\t_\t_\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="HEAD 7 out of range"):
        engine.run(engine.Job("enhance", lang="en"), [str(path)], client, output_dir=str(tmp_path / "out"), chunk=2)
    assert list((tmp_path / "out").iterdir()) == []


def test_inputs_file_directory_glob(tmp_path):
    for name in ("b.conllu", "a.txt", "skip.json"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert engine.expand_inputs([str(tmp_path)]) == [str(tmp_path / "a.txt"), str(tmp_path / "b.conllu")]
    assert engine.expand_inputs([str(tmp_path / "*.conllu")]) == [str(tmp_path / "b.conllu")]
    with pytest.raises(FileNotFoundError):
        engine.expand_inputs([str(tmp_path / "nothing*")])
    assert engine.output_name("x/en_ewt-ud-dev.conllu.xz") == "en_ewt-ud-dev.conllu"
    assert engine.output_name("story.txt") == "story.conllu"


@pytest.mark.filterwarnings("error::UserWarning")  # a second cluster beside the fixture's takes its own port
def test_parse_on_two_workers_is_byte_identical(client, tmp_path):
    """``eud parse --workers 2`` on a directory of raw texts: each output equals ``eud parse`` of that file."""
    pytest.importorskip("torch")
    if not (REPO / "models" / "en_ewt" / "segmenter").is_dir():
        pytest.skip("models/en_ewt with its segmenter is not there")
    from eud.commands.parse import main as parse_main

    texts = tmp_path / "texts"
    texts.mkdir()
    (texts / "one.txt").write_text("John ate an apple and Mary a pear. The dog barked.\n\nIt rained all day.\n",
                                   encoding="utf-8")
    (texts / "two.txt").write_text("Prices rose by three percent last year. Send me the report.\n", encoding="utf-8")
    (texts / "three.conllu").write_text((FIXTURES / "render_gapping.conllu").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    out = tmp_path / "out"
    assert parse_main([str(texts), "--model", "en", "--workers", "2", "-q", "-o", f"{out}/"]) == 0
    for name in ("one", "two", "three"):
        source = next(texts.glob(f"{name}.*"))
        expected = tmp_path / f"{name}.single.conllu"
        assert parse_main([str(source), "--model", "en", "-q", "-o", str(expected)]) == 0
        assert (out / f"{name}.conllu").read_bytes() == expected.read_bytes()
