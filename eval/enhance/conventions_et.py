"""Should Estonian recognise et_ewt's enhanced convention from the text?  Decided by cross-validation.

et_ewt spells the enhanced graph more sparsely than et_edt (``converters/et_ewt.toml``: most
relations are not shared between conjuncts, no controlled subjects): on gold et_ewt dev trees the
language profile, which follows et_edt and the guidelines, scores ELAS 95.7 and the et_ewt profile
99.7.  At parse time only the language is known, so a text's convention must be read off the text.
:mod:`eud.enhance.conventions` does that for Polish from the parser's relations; here the same
mechanism is tried for Estonian with the default ``et_edt`` and the marked ``et_ewt``.

No relation is et_ewt's alone.  The marked relations are learned from the gold *training* trees: the
relations whose share of sentences is at least ``ratio`` times higher in et_ewt train than in et_edt
train (web text: ``discourse``, ``vocative``, ...).  The ratio, the window and the share are the
candidates; "never mark" (today's behaviour, the et_edt convention everywhere) is the baseline.

The IWPT dev splits of both treebanks, which the parser did not train on (they picked its epoch), are
parsed from gold tokens; each sentence's graph is built under both conventions and a candidate is
scored by the ELAS of the convention it picks for each sentence (windows run over each file in text
order).  5-fold cross-validation over contiguous blocks of each file: choose on four, score the
fifth; mean, spread, optimism and the gain over never marking are recorded.

    python -m eval.enhance.conventions_et
"""

from __future__ import annotations

import argparse
import itertools

from eud.conllu import read_conllu
from eud.enhance import find_profile
from eud.enhance.conventions import Conventions
from eval.common import SHARED, command_line, record
from eval.crossval import cross_validate
from eval.enhance.conventions import Parsed, frequent_in

DEFAULT, MARKED = "et_edt", "et_ewt"
RATIOS = (1.5, 2.0, 3.0, 5.0)
WINDOWS = (5, 10, 20, 40, 100)
SHARES = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)


def main(argv: list[str] | None = None) -> int:
    """Parse both dev splits, cross-validate whether and how to mark et_ewt text, record it."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="models/et_edt")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    from eud.pipeline import Pipeline

    pipe = Pipeline.load(args.model, lang="et", threads=args.threads)
    profiles = {name: find_profile(name) for name in (DEFAULT, MARKED)}
    train = {tb: list(read_conllu(SHARED / "ud" / tb / f"{tb}-ud-train.conllu.xz")) for tb in (MARKED, DEFAULT)}
    sets = {ratio: frequent_in(train[MARKED], train[DEFAULT], ratio) for ratio in RATIOS}
    del train
    golds = {tb: list(read_conllu(SHARED / "ud" / tb / f"{tb}-ud-dev.conllu.xz")) for tb in (MARKED, DEFAULT)}
    parsed = Parsed.of(pipe, golds, profiles)
    relations = parsed.relations

    # A candidate is (ratio, window, share); ratio 0 means "never mark": every sentence et_edt.
    never = (0.0, 0, 1.0)
    candidates = [never] + list(itertools.product(RATIOS, WINDOWS, SHARES))
    cache: dict[tuple, list[str]] = {}

    def choices(tb: str, c: tuple) -> list[str]:
        if c[0] == 0.0:
            return [DEFAULT] * len(relations[tb])
        if (tb, c) not in cache:
            cache[tb, c] = Conventions(DEFAULT, MARKED, sets[c[0]], c[2], c[1]).choose(relations[tb])
        return cache[tb, c]

    def elas(c: tuple, indices: list[int]) -> float:
        return parsed.elas(lambda tb: choices(tb, c), indices)

    cv = cross_validate(parsed.folds(), candidates, elas)
    pick = cv.chosen_on_all
    figures: dict = {
        "held-fold ELAS of the chosen setting": cv.summary(),
        "chosen on all folds": ({"mark et_ewt": False} if pick == never else
                                {"mark et_ewt": True, "ratio": pick[0], "window": pick[1], "share": pick[2],
                                 "relations": sorted(sets[pick[0]])}),
    }
    for tb in (MARKED, DEFAULT):
        idx = parsed.of_text(tb)
        figures[f"{tb} dev"] = {
            "sentences": len(idx), **{f"ELAS, all {name}": round(parsed.elas_all(tb, name), 2) for name in profiles},
            "ELAS, chosen": round(elas(pick, idx), 2),
            "sentences given their own convention, chosen": round(
                sum(ch == tb for ch in choices(tb, pick)) / len(idx), 3)}
    print(figures)
    record("enhance", "conventions_et", figures, label="cross-validated",
           command=command_line("eval.enhance.conventions_et"),
           notes="et_edt and et_ewt dev (which picked models/et_edt's epoch, so tuning data for the parser), "
                 "gold tokens; marked relations learned from the gold train files; 5 contiguous folds per file.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
