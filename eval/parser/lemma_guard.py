"""Which guess for a word the lexicon lacks: the guard's ending and the suffix analogy, by cross-validation.

The lemmatizer (:mod:`eud.nn.lexicon`) takes the classifier's edit script for a form it has not seen
only when the result is *plausible*; one test is that its last ``ending`` characters end some
training lemma of the same UPOS.  With 3, Russian *возросло* became *возрость* (``-сть`` ends
*есть*), a non-word (issue 36).  A longer ending refuses more such guesses, but also more right
ones, which then fall back to the suffix analogy or the form.  The analogy itself (the script that
training forms with the longest shared ending take: *выросло* → *вырасти* gives *возросло* → *возрасти*)
could also go first when that shared ending is long; both settings are candidates.

Words the guard judges are words the lexicon does not hold, so this benchmark measures it on such
words: each slice-tuned model's held-apart tuning slices (:mod:`eval.parser.slices`), with the
lexicon rebuilt from its training files *without* those slices (the shipped lexicon was built from
the whole files).  Each slice is parsed once from gold tokens; the network's UPOS and edit script
of every word the rebuilt lexicon lacks are kept, and each candidate ``ending`` gives a lemma.  The
utility is the macro average over languages of lemma accuracy on those words; 5-fold
cross-validation over contiguous blocks of each language's slices (choose on four, score the
fifth) gives the held-fold mean, spread and optimism.  Tuning figures: the slices picked the
parsers' epochs.

    python -m eval.parser.lemma_guard
"""

from __future__ import annotations

import argparse
import statistics

from eud.conllu import read_conllu
from eud.nn.lexicon import ENDING, TRUST_SUFFIX, Lemmatizer, build_lexicon
from eud.recipe import Run
from eval.common import REPO, SHARED, command_line, record
from eval.crossval import cross_validate
from eval.parser.slices import split_files

ENDINGS = (2, 3, 4, 5)
TRUSTS = (None, 6, 5, 4)  # the suffix analogy before the classifier from this shared ending on (None: never)
FOLDS = 5
MODELS = ("bg_btb", "cs_cac", "fi_tdt", "fr_sequoia", "it_isdt", "lt_alksnis", "lv_lvtb", "nl_alpino", "pl_pdb",
          "sk_snk", "sv_talbanken", "ta_ttb", "uk_iu")


def unseen_words(model: str, threads: int) -> tuple[str, list[tuple[str, str, str, str]], dict]:
    """The model's language, its slice words unknown to a lexicon without the slices (form, UPOS,
    script, gold lemma, in text order), and that lexicon."""
    import copy

    from eud.pipeline import Pipeline

    language, parts = split_files(Run(REPO / "recipes" / f"{model}.toml", shared=SHARED))
    held = [s for part in parts for s in part.held]
    lexicon = build_lexicon(s for part in parts for s in part.trained)
    lang = language.split("_")[0]
    pipe = Pipeline.load(REPO / "models" / model, lang=lang, threads=threads)
    decoded = pipe.predictor.decode_all(copy.deepcopy(held))
    guard = Lemmatizer(lexicon)
    words = []
    for sentence, d in zip(held, decoded):
        for i, w in enumerate(sentence.words):
            upos, script = d.tags["upos"][i], d.tags["lemma"][i]
            if guard.known(w.form, upos) is None:
                words.append((w.form, upos, script, w.lemma))
    return lang, words, lexicon


def english_check(threads: int, settings: list[tuple]) -> dict:
    """Lemmas and ELAS of ``models/en_ewt`` on en_ewt dev from gold tokens under each setting (one network pass)."""
    import copy

    from eud.nn.scoring import quick_scores
    from eud.pipeline import Pipeline

    gold = list(read_conllu(SHARED / "ud" / "en_ewt" / "en_ewt-ud-dev.conllu.xz"))
    pipe = Pipeline.load(REPO / "models" / "en_ewt", lang="en", threads=threads)
    decoded = pipe.predictor.decode_all(copy.deepcopy(gold))
    lexicon = pipe.predictor.lemmatizer.lexicon
    out = {}
    for ending, trust in settings:
        pipe.predictor.lemmatizer = Lemmatizer(lexicon, ending=ending, trust_suffix=trust)
        scores = quick_scores(gold, pipe.predictor.write_all(copy.deepcopy(gold), decoded))
        out[name((ending, trust))] = {k: round(scores[k], 2) for k in ("Lemmas", "ELAS")}
    return out


def name(setting: tuple) -> str:
    """``ending 3, analogy first from 5`` for (3, 5)."""
    ending, trust = setting
    return f"ending {ending}, analogy first " + ("never" if trust is None else f"from {trust}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", default=list(MODELS))
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)

    # correct[lang][(ending, trust)] = per word, whether that setting's lemma is the gold one
    settings = [(e, t) for e in ENDINGS for t in TRUSTS]
    correct: dict[str, dict[tuple, list[bool]]] = {}
    counts = {}
    for model in args.models:
        lang, words, lexicon = unseen_words(model, args.threads)
        correct[lang] = {}
        for ending, trust in settings:
            lemmatizer = Lemmatizer(lexicon, ending=ending, trust_suffix=trust)
            correct[lang][ending, trust] = [lemmatizer.lemma(form, upos, script) == gold
                                            for form, upos, script, gold in words]
        counts[lang] = len(words)
        print(lang, len(words), {name(c): round(100 * statistics.mean(v), 2) for c, v in correct[lang].items()},
              flush=True)

    items = [(lang, i) for lang in correct for i in range(counts[lang])]
    folds = [i * FOLDS // counts[lang] for lang, i in items]

    def accuracy(setting: tuple, indices: list[int]) -> float:
        by_lang: dict[str, list[bool]] = {}
        for index in indices:
            lang, i = items[index]
            by_lang.setdefault(lang, []).append(correct[lang][setting][i])
        return 100.0 * statistics.mean(statistics.mean(v) for v in by_lang.values())

    shipped = (ENDING, TRUST_SUFFIX)
    before = (3, None)  # the guard before this benchmark chose
    candidates = [before] + [c for c in settings if c != before]  # "gain" is over the guard before
    cv = cross_validate(folds, candidates, accuracy)

    # The second design: an ending per language, each chosen on the language's own words.
    def per_language(choice: tuple[tuple[str, tuple], ...], indices: list[int]) -> float:
        endings = dict(choice)
        by_lang: dict[str, list[bool]] = {}
        for index in indices:
            lang, i = items[index]
            by_lang.setdefault(lang, []).append(correct[lang][endings[lang]][i])
        return 100.0 * statistics.mean(statistics.mean(v) for v in by_lang.values())

    def choose_per_language(indices: list[int]) -> tuple[tuple[str, tuple], ...]:
        picks = []
        for lang in correct:
            mine = [k for k in indices if items[k][0] == lang]
            picks.append((lang, max(candidates, key=lambda e: sum(correct[lang][e][items[k][1]] for k in mine))))
        return tuple(picks)

    cv_lang = cross_validate(folds, [], per_language, choose=choose_per_language)
    figures = {
        "macro lemma accuracy on unseen words, held folds": cv.summary(),
        "the same, an ending per language": {k: v for k, v in cv_lang.summary().items() if k != "picks"},
        "by setting (all folds)": {name(c): round(accuracy(c, list(range(len(items)))), 2) for c in settings},
        "by language (all folds)": {lang: {"unseen words": counts[lang],
                                           **{name(c): round(100 * statistics.mean(correct[lang][c]), 2)
                                              for c in (shipped, cv.chosen_on_all)}} for lang in correct},
        "shipped": name(shipped),
    }
    figures["English, en_ewt dev (a check, not a choice)"] = english_check(args.threads, [shipped, before])
    print(figures)
    print("wrote", record("parser", "lemma_guard", figures, label="cross-validated",
                          command=command_line("eval.parser.lemma_guard"),
                          notes="held-apart tuning slices of the slice-tuned models' training files, gold tokens; "
                                "lexicons rebuilt without the slices; only words those lexicons lack are scored", one_row=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
