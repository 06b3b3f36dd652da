"""Sentences F1 and Lemmas, before and after the abbreviation list and the lemma lexicon (issue 11).

``segment``: each test set's raw text (``# text`` lines, paragraphs from
``# newpar``/``# newdoc``, as in ``eval/segment/score.py``) is segmented twice by
the same package, without and with its ``abbreviations.json``, and scored by
the official scorer (udeval): Tokens, Words, Sentences F1.

``lemmas``: the parser annotates each test set's gold tokenization once; the
classifier's lemmas (edit scripts alone, "before") and the lemmatizer's
(lexicon, guarded script, suffix analogy: :mod:`eud.nn.lexicon`, "after") are
compared with the gold lemmas, word by word (on gold tokens this equals
udeval's Lemmas).  The lexicon is the package's ``lexicon.json``.  Also
reported: how many words the lexicon knew, accuracy on the unseen ones before
and after, and how many classifier outputs the guard refused.

    python -m eval.segment.lemma segment --model models/en_ewt/segmenter --treebank en_ewt en_gum
    python -m eval.segment.lemma segment --segmenters models/segmenters
    python -m eval.segment.lemma lemmas --model models/en_ewt --treebank en_ewt en_gum

Each run writes its test sets' figures to ``eval/results/segment/lemma_segment.json`` or
``lemma_lemmas.json`` (test-scored-once).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from eud.conllu import read_conllu, write_conllu
from eval.common import command_line, record
from eval.segment.score import SHARED, raw_text, score, with_placeholder_tree

# Issue 11's test sets per language (en is scored with models/en_ewt/segmenter).
TEST_SETS = {
    "bg": ["bg_btb"], "cs": ["cs_cac", "cs_fictree"], "nl": ["nl_alpino", "nl_lassysmall"], "et": ["et_ewt", "et_edt"],
    "fi": ["fi_tdt"], "fr": ["fr_sequoia", "fr_fqb"], "it": ["it_isdt"], "lv": ["lv_lvtb"], "lt": ["lt_alksnis"],
    "pl": ["pl_lfg", "pl_pdb"], "ru": ["ru_taiga", "ru_gsd", "ru_poetry"], "sk": ["sk_snk"],
    "sv": ["sv_talbanken", "sv_lines"], "ta": ["ta_ttb"], "uk": ["uk_iu"],
}


def test_file(treebank: str) -> Path:
    """The test split of a treebank in the shared data."""
    return SHARED / treebank / f"{treebank}-ud-test.conllu.xz"


def segment_rows(model: Path, treebanks: list[str]) -> dict[str, str]:
    """Print a Markdown row per treebank (Tokens/Words/Sentences F1 without and with abbreviations); return them."""
    import eud.segment.segmenter as segmenter_module
    from eud.segment import Segmenter, split_paragraphs

    seg = Segmenter.load(model)
    learnt = seg.abbreviations
    # Both passes see the same character probabilities: compute them once per batch of text.
    cache: dict[tuple[str, ...], list] = {}
    predict = segmenter_module.predict_many

    def predict_once(net, vocab, texts, **options):
        key = tuple(texts)
        if key not in cache:
            cache[key] = predict(net, vocab, texts, **options)
        return cache[key]

    segmenter_module.predict_many = predict_once
    rows = {}
    for tb in treebanks:
        gold = test_file(tb)
        text = raw_text(gold)
        figures = []
        with tempfile.TemporaryDirectory() as tmp:
            gold_plain = Path(tmp) / "gold.conllu"
            write_conllu(read_conllu(gold), gold_plain)
            for abbreviations in (None, learnt):
                seg.abbreviations = abbreviations
                system = Path(tmp) / "system.conllu"
                write_conllu((with_placeholder_tree(s) for s in seg.segment(split_paragraphs(text), doc_id=tb)), system)
                figures.append(score(gold_plain, system))
        seg.abbreviations = learnt
        cache.clear()
        before, after = figures
        rows[tb] = ", ".join(f"{k} {before[k]:.2f} → {after[k]:.2f}" for k in ("Tokens", "Words", "Sentences"))
        print(f"| {tb} | `{model}` | " + " | ".join(
            f"{before[k]:.2f} → {after[k]:.2f}" for k in ("Tokens", "Words", "Sentences")) + " |", flush=True)
    segmenter_module.predict_many = predict
    return rows


def lemma_rows(model: Path, treebanks: list[str], show: int = 0, lang: str | None = None) -> dict[str, str]:
    """Print a Markdown row per treebank (Lemmas before/after, lexicon coverage, unseen words, refusals); return them."""
    from eud.nn.lemma import apply_script, edit_script
    from eud.pipeline import Pipeline

    predictor = Pipeline.load(model, threads=1, lang=lang).predictor
    lemmatizer = predictor.lemmatizer
    if lemmatizer is None:
        raise SystemExit(f"{model}: no lexicon.json (build it: python -m eud.nn.lexicon {model} TRAIN.conllu)")
    # "Before" is the classifier's scripts alone; the lemmatizer is applied to them afterwards.
    predictor.lemmatizer = None
    rows = {}
    for tb in treebanks:
        gold = list(read_conllu(test_file(tb)))
        system = list(read_conllu(test_file(tb)))
        predictor.annotate(system)
        n = before = after = known = unseen = unseen_before = unseen_after = refused = 0
        for gs, ps in zip(gold, system):
            for gw, pw in zip(gs.words, ps.words):
                script = edit_script(pw.form, pw.lemma)
                new = lemmatizer.lemma(pw.form, pw.upos, script)
                n += 1
                before += pw.lemma == gw.lemma
                after += new == gw.lemma
                if lemmatizer.known(pw.form, pw.upos) is not None:
                    known += 1
                else:
                    unseen += 1
                    unseen_before += pw.lemma == gw.lemma
                    unseen_after += new == gw.lemma
                    if not lemmatizer.plausible(pw.form, apply_script(pw.form, script), pw.upos):
                        refused += 1
                        if refused <= show:
                            print(f"refused: {pw.form} {pw.upos} classifier {pw.lemma!r} -> {new!r}, gold {gw.lemma!r}",
                                  file=sys.stderr)
        pct = 100.0 / max(1, n)
        upct = 100.0 / max(1, unseen)
        print(f"| {tb} | `{model}` | {before * pct:.2f} → {after * pct:.2f} | {known * pct:.1f} | "
              f"{unseen_before * upct:.2f} → {unseen_after * upct:.2f} | {refused} of {unseen} |", flush=True)
        rows[tb] = (f"Lemmas {before * pct:.2f} → {after * pct:.2f}, in lexicon {known * pct:.1f}%, "
                    f"unseen words {unseen_before * upct:.2f} → {unseen_after * upct:.2f}, refused {refused} of {unseen}")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the before/after table rows for a segmenter or a parser package, and record them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("segment", "lemmas"))
    parser.add_argument("--model", type=Path, help="segmenter package (segment) or parser package (lemmas)")
    parser.add_argument("--treebank", nargs="+", help="test sets, e.g. en_ewt en_gum")
    parser.add_argument("--segmenters", type=Path, help="segment: a folder of per-language segmenters "
                        "(models/segmenters), each scored on its language's test sets")
    parser.add_argument("--show", type=int, default=0, help="lemmas: print this many refused guesses to stderr")
    parser.add_argument("--lang", help="lemmas: the language of a multilingual parser package")
    args = parser.parse_args(argv)
    figures: dict[str, str] = {}
    if args.what == "segment":
        print("| test set | package | Tokens F1 | Words F1 | Sentences F1 |\n|---|---|---|---|---|")
        if args.segmenters:
            for lang, treebanks in TEST_SETS.items():
                if (args.segmenters / lang).is_dir():
                    figures.update(segment_rows(args.segmenters / lang, treebanks))
        else:
            figures = segment_rows(args.model, args.treebank)
    else:
        print("| test set | package | Lemmas | words in lexicon % | Lemmas of unseen words | guard refusals |\n"
              "|---|---|---|---|---|---|")
        figures = lemma_rows(args.model, args.treebank, args.show, args.lang)
    record("segment", f"lemma_{args.what}", figures, label="test-scored-once", command=command_line("eval.segment.lemma"),
           one_row=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
