"""An ``orphan`` label bias for a character model, chosen by 5-fold cross-validation.

Treebanks hold few ``orphan`` relations, so a parser trained on them rarely predicts one, and the
gapping rule then never makes an empty node.  A bias added to the ``orphan`` score before the label
is chosen (the package key ``label_bias``) trades that shyness against false gaps and lost labels.

The model parses files with gold empty nodes from their gold tokens once per candidate bias.  Each
sentence keeps its counts: gap edges (collapsed enhanced edges through an empty node, each path
segment cut to its universal part: matched, predicted, gold) and labelled attachments.  Five folds
of contiguous blocks: on four, the bias with the best gap-edge F1 among those that keep LAS within
``--las-drop`` of no bias is chosen; the fifth scores it.  The result holds the held-fold mean and
spread, the optimism (choosing-fold score minus held-fold score), and the bias chosen on all folds,
which ``--write`` puts into the package's ``config.json``.

Where the model was trained on the files scored, the figures are tuning figures (the result says so).

usage (from the repository root):
  python -m eval.parser.orphan_bias --model models/lv_lvtb --files ../shared/data/ud/lv_lvtb/lv_lvtb-ud-dev.conllu.xz
"""

from __future__ import annotations

import argparse
import json
import lzma
import statistics
from collections import Counter
from pathlib import Path

from eud.collapse import collapsed_edges
from eud.conllu import parse_conllu
from eud.graph import Sentence
from eud.progress import progress
from eval.common import command_line, record

BIASES = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
FOLDS = 5


def _text(path: str) -> str:
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return fh.read()


def gap_edges(sentence: Sentence) -> set[tuple[int, int, str]]:
    """(dependent, head, path) of each collapsed edge through an empty node, segments cut to their universal part."""
    return {(dep[0], head[0], ">".join(seg.split(":")[0] for seg in label.split(">")))
            for head, dep, label in collapsed_edges(sentence) if ">" in label}


def counts(gold: Sentence, system: Sentence) -> Counter:
    """One sentence's gap-edge and attachment counts (same tokens on both sides)."""
    ge, se = gap_edges(gold), gap_edges(system)
    las = sum(g.head == s.head and g.deprel.split(":")[0] == s.deprel.split(":")[0]
              for g, s in zip(gold.words, system.words))
    return Counter(match=len(ge & se), sys=len(se), gold=len(ge), las=las, words=len(gold.words),
                   gapped=bool(gold.empty_nodes), found=bool(gold.empty_nodes) and bool(system.empty_nodes),
                   false_alarms=not gold.empty_nodes and bool(system.empty_nodes))


def f1(c: Counter) -> float:
    """Gap-edge F1 in percent."""
    return 200 * c["match"] / (c["sys"] + c["gold"]) if c["sys"] + c["gold"] else 0.0


def _sum(rows: list[Counter], folds: list[int]) -> Counter:
    total: Counter = Counter()
    for f in folds:
        for c in rows[len(rows) * f // FOLDS: len(rows) * (f + 1) // FOLDS]:
            total.update(c)
    return total


def choose(per_bias: dict[float, list[Counter]], folds: list[int], las_drop: float) -> float:
    """The bias with the best gap-edge F1 on ``folds`` among those within ``las_drop`` LAS of no bias."""
    base = _sum(per_bias[0.0], folds)
    base_las = 100 * base["las"] / base["words"]
    allowed = [b for b in per_bias
               if 100 * _sum(per_bias[b], folds)["las"] / base["words"] >= base_las - las_drop]
    return max(allowed, key=lambda b: (round(f1(_sum(per_bias[b], folds)), 6), -b))


def main(argv: list[str] | None = None) -> int:
    """Parse the files at every bias, cross-validate the choice, and record (and optionally write) it."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--files", nargs="+", required=True, help="CoNLL-U files with gold empty nodes")
    ap.add_argument("--biases", nargs="+", type=float, default=list(BIASES))
    ap.add_argument("--las-drop", type=float, default=0.1, help="LAS a bias may cost on the choosing folds")
    ap.add_argument("--trained-on-files", action="store_true", help="the model was trained on these files")
    ap.add_argument("--write", action="store_true", help="put the bias chosen on all folds into config.json")
    args = ap.parse_args(argv)
    import eud

    pipe = eud.load(args.model)
    gold = [s for path in args.files for s in parse_conllu(_text(path))]
    text = "".join(_text(path) for path in args.files)
    biases = sorted({0.0, *args.biases})
    per_bias: dict[float, list[Counter]] = {}
    for b in progress(biases, desc="biases", total=len(biases), unit="bias"):
        pipe.predictor.set_label_bias({"orphan": b} if b else {})
        system = list(pipe.parse_conllu(text))
        per_bias[b] = [counts(g, s) for g, s in zip(gold, system)]
    held, choosing, picks = [], [], []
    for f in range(FOLDS):
        rest = [g for g in range(FOLDS) if g != f]
        b = choose(per_bias, rest, args.las_drop)
        picks.append(b)
        choosing.append(f1(_sum(per_bias[b], rest)))
        held.append(f1(_sum(per_bias[b], [f])))
    final = choose(per_bias, list(range(FOLDS)), args.las_drop)
    table = {}
    for b in biases:
        c = _sum(per_bias[b], list(range(FOLDS)))
        table[str(b)] = {"gap-edge F1": round(f1(c), 2), "LAS": round(100 * c["las"] / c["words"], 2),
                         "found": f"{c['found']}/{c['gapped']}", "false alarms": c["false_alarms"]}
    figures = {"model": args.model, "files": [Path(p).name for p in args.files],
               "held-fold gap-edge F1": {"mean": round(statistics.mean(held), 2), "sd": round(statistics.stdev(held), 2),
                                         "folds": [round(h, 2) for h in held], "picks": picks,
                                         "optimism": round(statistics.mean(choosing) - statistics.mean(held), 2)},
               "chosen on all folds": final, "by bias (all folds)": table}
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    name = "orphan_bias_" + Path(args.model).name
    record("parser", name, figures, label="tuning" if args.trained_on_files else "cross-validated",
           command=command_line("eval.parser.orphan_bias"),
           notes="the model was trained on the files scored" if args.trained_on_files else "", one_row=True)
    if args.write:
        config_path = Path(args.model) / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        bias = dict(config.get("label_bias") or {})
        if final:
            bias["orphan"] = final
        else:
            bias.pop("orphan", None)
        config["label_bias"] = bias
        config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
