"""eval.gapping.folds: the fixed GAPPING folds and the document folds of the negatives."""

import lzma

import pytest

from eval.gapping.folds import FOLDS, block_folds, document, document_fold, gapping_paths


def test_blocks_are_contiguous_and_balanced():
    folds = block_folds(243)
    assert folds == sorted(folds)
    sizes = [folds.count(f) for f in range(FOLDS)]
    assert sizes == [49, 49, 48, 49, 48]
    assert folds[:49] == [0] * 49 and folds[-48:] == [4] * 48
    assert block_folds(243) == folds  # fixed: no randomness


def test_document_folds_keep_documents_together():
    assert document("GUM_academic_art-12") == "GUM_academic_art"
    assert document("weblog-blogspot.com_x_ENG_20041117_172713-0001") == "weblog-blogspot.com_x_ENG_20041117_172713"
    assert document("no-number-here") == "no-number-here"
    assert document_fold("GUM_academic_art-1") == document_fold("GUM_academic_art-40")
    # Fixed values (CRC-32), so a fold never moves between runs or machines.
    assert [document_fold(f"GUM_doc{i}-1") for i in range(6)] == [document_fold(f"GUM_doc{i}-2") for i in range(6)]
    assert {document_fold(f"doc{i}-1") for i in range(50)} == set(range(FOLDS))


def test_the_corpus_has_243_sentences_without_document_ids():
    paths = gapping_paths("enhanced") + gapping_paths("orphan-basic")
    if not all(p.exists() for p in paths):
        pytest.skip("the GAPPING corpus is not under ../shared/data/gapping")
    counts = []
    for path in paths:
        with lzma.open(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
        assert not any(line.startswith("#") for line in text.splitlines())  # no sent_id to group by
        counts.append(len([b for b in text.split("\n\n") if b.strip()]))
    assert counts == [164, 79, 164, 79]
    assert len(block_folds(sum(counts[:2]))) == 243
