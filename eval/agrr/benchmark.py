"""AGRR-2019 gapping in Russian: the fixed split, training trees, scores and an error analysis.

AGRR dev (../shared/data/agrr/dev.csv.xz, 4,142 rows) is split once: rows
whose 0-based index is a multiple of 5 are held apart for tuning and
reporting (:func:`eud.agrr.held_apart`), the other four fifths are for
training.  Subcommands, run from the repository root:

    python -m eval.agrr.benchmark split -o work/agrr
        writes work/agrr/train.csv and work/agrr/heldout.csv (never commit them)
    python -m eval.agrr.benchmark trees --model work/ru_ud_model -o work/agrr [--orphan-bias -100]
        parses the training rows and writes work/agrr/gapped.conllu (gold spans
        turned into orphan trees, eud.agrr.trees) and work/agrr/plain.conllu
        (every second class-0 row as parsed, when the parse has no orphan)
    python -m eval.agrr.benchmark score --model models/ru_agrr [--part heldout|train] [--csv OUT] [--conllu OUT]
        runs eud on the rows and prints binary / resolution / full; with the shipped
        models/ru_agrr on the held-apart fifth as shipped (no --orphan-bias, no
        --no-dashes), also writes eval/results/agrr/heldout.json (tuning: that fifth
        chose the epoch and the bias, and the answer rules were developed against it)
    python -m eval.agrr.benchmark watch work/ru_agrr_continue/train/train.log work/ru_agrr_continue/model -o work/ru_agrr_continue
        while a training runs without a dev file (its package is written after
        every epoch), copies each epoch's package to OUT/epochN and scores it
        on the held-apart fifth (OUT/epochN.csv, OUT/epochN.conllu, OUT/scores.tsv)
    python -m eval.agrr.benchmark restart-checkpoint work/ru_agrr_train/checkpoint.pt
        makes a parser checkpoint start a new stage (eval/experiments/train_ru_agrr.toml)
    python -m eval.agrr.benchmark errors work/agrr/heldout.csv OUT.csv [-n 30]
        sorts the first N misses into: no gap found, false gap, wrong gap
        position, wrong remnant span, wrong correlate
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from eud.agrr import AgrrFile, held_apart, read_agrr, score, write_agrr
from eud.agrr.scoring import symbol_f1
from eud.agrr.system import parse_rows, predict_rows
from eud.agrr.trees import orphan_tree
from eud.conllu import write_conllu
from eval.common import REPO, command_line, record

DEV = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "agrr" / "dev.csv.xz"
SHIPPED = REPO / "models" / "ru_agrr"


def part_rows(part: str) -> AgrrFile:
    """The rows of AGRR dev in one part of the fixed split (``heldout`` or ``train``)."""
    agrr = read_agrr(DEV)
    agrr.rows = [r for k, r in enumerate(agrr.rows) if held_apart(k) == (part == "heldout")]
    return agrr


def load_parser(model: str, threads: int = 1, orphan_bias: float = 0.0, dashes: bool = True):
    """A model package's parse function, building the graph with the rules (and so the gapping rule).

    ``dashes``: whether the parser repairs gapped clauses a dash marks (:mod:`eud.gapping.dashes`),
    whatever the package says (an epoch's package from training has no ``gapping`` block).
    """
    from eud.pipeline import Pipeline

    pipe = Pipeline.load(model, graph_mode="rules", threads=threads)
    # AGRR asks whether a sentence has gapping at all; a positive bias on orphan trades precision for recall.
    pipe.predictor.set_label_bias({"orphan": orphan_bias})
    pipe.predictor.set_repairs(dash_remnants=dashes, remnant_chains=dashes)
    return pipe.parse_sentences


def cmd_split(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    for part in ("train", "heldout"):
        agrr = part_rows(part)
        write_agrr(agrr, args.out / f"{part}.csv")
        print(f"{part}: {len(agrr.rows)} rows, {sum(r.cls for r in agrr.rows)} with gapping")
    return 0


def cmd_trees(args: argparse.Namespace) -> int:
    from eud.agrr.answers import answer
    from eud.enhance import Enhancer, find_profile

    rows = part_rows("train").rows[: args.limit or None]
    # A negative orphan bias (-100) parses as a parser that never says orphan (as the stage-1
    # model did), so that no class-0 row is left out of the plain trees for a predicted orphan;
    # nor are gapped clauses repaired: the gold answer places the gap.
    parser = load_parser(args.model, args.threads, args.orphan_bias, dashes=False)
    enhancer = Enhancer(find_profile("ru"))
    gapped, plain, refused = [], [], 0
    # The ceiling of the answers: the gold spans' trees read back through the gapping rule.
    golds, ceiling = [], []
    for r, (sentence, offsets) in zip(rows, parse_rows(parser, rows)):
        if sentence is None:
            continue
        predicted_orphans = [w for w in sentence.words if w.deprel == "orphan"]
        if r.cls:
            # Only the gold gapped clauses carry orphan in the training trees.
            for w in predicted_orphans:
                w.deprel = "dep"
            if orphan_tree(sentence, offsets, r):
                gapped.append(sentence)
                golds.append(r)
                ceiling.append(answer(enhancer.enhance(sentence), offsets, r.text))
            else:
                refused += 1
        elif not predicted_orphans:
            plain.append(sentence)
    # Every second plain tree: enough negatives, half the training time.
    plain = plain[::2]
    for sentence in gapped + plain:
        sentence.empty_nodes = []
        sentence.enhanced = type(sentence.enhanced)()
    args.out.mkdir(parents=True, exist_ok=True)
    write_agrr(AgrrFile(golds), args.out / "ceiling_gold.csv")
    write_agrr(AgrrFile(ceiling), args.out / "ceiling_pred.csv")
    c = score(golds, ceiling)
    columns = ", ".join(f"{col} {sum(symbol_f1(g.spans[col], p.spans[col]) for g, p in zip(golds, ceiling) if p.cls) / max(1, len(golds)):.3f}"
                        for col in ("cV", "V", "R1", "R2", "cR1", "cR2"))
    print(f"ceiling on the {len(golds)} converted rows: resolution {c['resolution']:.3f}, full {c['full']:.3f}; {columns}")
    write_conllu(gapped, args.out / "gapped.conllu")
    write_conllu(plain, args.out / "plain.conllu")
    print(f"{len(gapped)} gapped trees ({refused} gapped rows refused), {len(plain)} plain trees in {args.out}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    gold = part_rows(args.part)
    parser = load_parser(args.model, args.threads, args.orphan_bias, dashes=not args.no_dashes)
    t0 = time.time()
    answers, sentences = [], []
    for answer, sentence in predict_rows(parser, gold.rows):
        answers.append(answer)
        if sentence is not None:
            sentences.append(sentence)
    took = time.time() - t0
    if args.csv:
        write_agrr(AgrrFile(answers, gold.header, gold.newline), args.csv)
    if args.conllu:
        write_conllu(sentences, args.conllu)
    s = score(gold.rows, answers)
    print(f"AGRR dev {args.part} ({len(gold.rows)} rows), model {args.model}, orphan bias {args.orphan_bias}: binary {s['binary']:.3f} "
          f"(P {s['binary_precision']:.3f} R {s['binary_recall']:.3f}), resolution {s['resolution']:.3f}, "
          f"full {s['full']:.3f}; {took:.0f} s")
    if (Path(args.model).resolve() == SHIPPED and args.part == "heldout" and args.orphan_bias == 0
            and not args.no_dashes):
        figures = {"binary F1": s["binary"], "binary P": s["binary_precision"], "binary R": s["binary_recall"],
                   "resolution": s["resolution"], "full": s["full"]}
        record("agrr", "heldout", {k: round(v, 4) for k, v in figures.items()}, label="tuning",
               command=command_line("eval.agrr.benchmark"),
               notes=f"AGRR-2019 dev, held-apart fifth ({len(gold.rows)} rows); the answer rules were developed "
                     "against it")
    return 0


def miss_type(gold, pred) -> str | None:
    """Why a gapped row (gold or predicted) is not fully right, or None when it is."""
    if gold.cls and not pred.cls:
        return "no gap found"
    if pred.cls and not gold.cls:
        return "false gap"
    if not gold.cls:
        return None
    if symbol_f1(gold.spans["V"], pred.spans["V"]) < 1 or symbol_f1(gold.spans["cV"], pred.spans["cV"]) < 1:
        return "wrong gap position"
    if any(symbol_f1(gold.spans[c], pred.spans[c]) < 1 for c in ("R1", "R2")):
        return "wrong remnant span"
    if any(symbol_f1(gold.spans[c], pred.spans[c]) < 1 for c in ("cR1", "cR2")):
        return "wrong correlate"
    return None


def cmd_errors(args: argparse.Namespace) -> int:
    gold, pred = read_agrr(args.gold).rows, read_agrr(args.pred).rows
    counts: dict[str, int] = {}
    shown = 0
    for k, (g, p) in enumerate(zip(gold, pred), 2):
        kind = miss_type(g, p)
        if kind is None:
            continue
        counts[kind] = counts.get(kind, 0) + 1
        if shown < args.n:
            shown += 1
            if args.show:
                print(f"line {k}: {kind}\n  gold {g.cells()[1:]}\n  pred {p.cells()[1:]}")
        if shown >= args.n and not args.all:
            break
    total = sum(counts.values())
    scope = "all misses" if args.all else f"the first {total} misses"
    print(f"{scope} (file order): " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    import re
    import shutil

    args.out.mkdir(parents=True, exist_ok=True)
    gold = part_rows("heldout")
    table = args.out / "scores.tsv"
    done = {line.split("\t")[0] for line in table.read_text().splitlines()[1:]} if table.exists() else set()
    if not table.exists():
        table.write_text("epoch\tbinary\tprecision\trecall\tresolution\tfull\n")
    while True:
        log = args.log.read_text(encoding="utf-8") if args.log.exists() else ""
        # "epoch N done" then "saved PACKAGE": the package on disk is epoch N's.
        epochs = [int(m.group(1)) for m in re.finditer(r"epoch (\d+) done:.*\n.*saved ", log)]
        # Only the latest epoch's package is on disk (an epoch missed while scoring stays unscored).
        if epochs and str(epochs[-1]) not in done:
            epoch = epochs[-1]
            target = args.out / f"epoch{epoch}"
            shutil.copytree(args.package, target, dirs_exist_ok=True)
            # Two parses: with the repairs of gapped clauses a dash marks, then the parser's trees as they are.
            answers, sentences = [], []
            for answer, sentence in predict_rows(load_parser(str(target), args.threads), gold.rows):
                answers.append(answer)
                if sentence is not None:
                    sentences.append(sentence)
            plain = [a for a, _ in predict_rows(load_parser(str(target), args.threads, dashes=False), gold.rows)]
            write_agrr(AgrrFile(answers, gold.header, gold.newline), args.out / f"epoch{epoch}.csv")
            write_conllu(sentences, args.out / f"epoch{epoch}.conllu")
            with table.open("a") as f:
                for name, rows in (("", answers), (" without dashes", plain)):
                    s = score(gold.rows, rows)
                    f.write(f"{epoch}{name}\t{s['binary']:.4f}\t{s['binary_precision']:.4f}\t{s['binary_recall']:.4f}\t"
                            f"{s['resolution']:.4f}\t{s['full']:.4f}\n")
                    print(f"epoch {epoch}{name}: binary {s['binary']:.3f} (P {s['binary_precision']:.3f} "
                          f"R {s['binary_recall']:.3f}), resolution {s['resolution']:.3f}, full {s['full']:.3f}", flush=True)
            done.add(str(epoch))
            continue
        if "training finished" in log:
            return 0
        time.sleep(30)


def cmd_restart(args: argparse.Namespace) -> int:
    import json

    import torch

    ckpt = torch.load(args.checkpoint, weights_only=True)
    state = json.loads(ckpt["state"])
    # A new stage: the next epoch starts at its first batch and its score is the new best.
    state.update(batch_in_epoch=0, bad_epochs=0, best=-1.0)
    ckpt["state"] = json.dumps(state)
    torch.save(ckpt, args.checkpoint)
    print(f"{args.checkpoint}: restarts after epoch {state['epoch']} (step {state['step']})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=1, help="CPU threads for the parser (default 1)")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("split")
    p.add_argument("-o", "--out", type=Path, required=True)
    p = sub.add_parser("trees")
    p.add_argument("--model", required=True)
    p.add_argument("--limit", type=int, default=0, help="only the first N training rows (a quick check)")
    p.add_argument("--orphan-bias", type=float, default=0.0,
                   help="added to the orphan label's score when parsing (-100: no predicted orphan)")
    p.add_argument("-o", "--out", type=Path, required=True)
    p = sub.add_parser("score")
    p.add_argument("--model", required=True)
    p.add_argument("--part", choices=("heldout", "train"), default="heldout")
    p.add_argument("--orphan-bias", type=float, default=0.0, help="added to the orphan label's score")
    p.add_argument("--no-dashes", action="store_true", help="answer from the parser's trees as they are (no eud.gapping.dashes repairs)")
    p.add_argument("--csv", type=Path)
    p.add_argument("--conllu", type=Path)
    p = sub.add_parser("errors")
    p.add_argument("gold", type=Path)
    p.add_argument("pred", type=Path)
    p.add_argument("-n", type=int, default=30)
    p.add_argument("--all", action="store_true", help="count every miss, not just the first N")
    p.add_argument("--show", action="store_true", help="print each of the first N misses")
    p = sub.add_parser("watch", help="score each epoch's package of a running training on the held-apart fifth")
    p.add_argument("log", type=Path, help="the training's train.log")
    p.add_argument("package", type=Path, help="the training's output package")
    p.add_argument("-o", "--out", type=Path, required=True)
    p = sub.add_parser("restart-checkpoint", help="start a new training stage from a checkpoint")
    p.add_argument("checkpoint", type=Path)
    args = ap.parse_args(argv)
    return {"split": cmd_split, "trees": cmd_trees, "score": cmd_score, "errors": cmd_errors, "watch": cmd_watch,
            "restart-checkpoint": cmd_restart}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
