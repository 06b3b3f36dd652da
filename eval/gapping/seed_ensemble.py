"""How far would an ensemble of parser runs move gapping found against false alarms?

Several runs of one training recipe (different seeds, same tables) are averaged
at inference: the tree's arc log-probabilities and the relation scores of the
chosen arcs are the members' means.  Everything else (tags, FEATS, the orphan
checks, margins and verifier, the enhancer) is the first package's.  The result
is scored as ``eval/gapping/label_bias_sweep.py`` scores one package, from gold tokens:

* GAPPING dev: gap-edge P/R/F1 and gapped sentences found;
* each ``--tune`` file: false alarms (sentences without a gold empty node in which
  the ensemble made one).

An ensemble is not something eud ships (each English member is 20 MB); this tells
whether averaging runs, or distilling them into one, is worth building.

    python -m eval.gapping.seed_ensemble models/en_ewt work/s14/gap_s4/ship work/s14/gap_s6/ship --bias 1 2 3

The table goes to ``eval/results/gapping/seed_ensemble.json`` (tuning: dev files and en_gum test,
all read to choose) unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from eud.conllu import parse_conllu, read_conllu
from eud.pipeline import Pipeline
from eval.common import command_line, record
from eval.gapping.benchmark import score_gapping, strip_deps

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
TUNE = [DATA / "ud" / f"{tb}/{tb}-ud-{split}.conllu.xz"
        for tb, split in (("en_ewt", "dev"), ("en_gum", "dev"), ("en_gum", "test"))]


def ensemble(nets: list[Any]) -> Any:
    """A module that scores a batch like :class:`eud.nn.network.Parser`, with the members' mean arcs and relations."""
    import torch

    class Ensemble(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.nets = torch.nn.ModuleList(nets)
            self.graph = None  # the rules build the graph
            self.precision = nets[0].precision

        def forward(self, batch: Any, graph: bool = False) -> dict[str, Any]:
            parts = [net(batch, graph=False) for net in self.nets]
            scores = dict(parts[0])
            scores["arc"] = torch.stack([torch.log_softmax(p["arc"], -1) for p in parts]).mean(0)
            scores["members"] = parts
            return scores

        def tree_labels(self, scores: dict[str, Any], index: Any) -> Any:
            return torch.stack([net.tree_labels(p, index) for net, p in zip(self.nets, scores["members"])]).mean(0)

    return Ensemble().eval()


def main(argv: list[str] | None = None) -> int:
    """Score the ensemble at every bias; print and record the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("members", nargs="+", type=Path, help="parser packages with the same tables; the first leads")
    ap.add_argument("--bias", type=float, nargs="+", default=[2.0], help="orphan biases to try")
    ap.add_argument("--tune", type=Path, nargs="+", default=TUNE, help="UD files for false alarms")
    ap.add_argument("--gapping-data", type=Path, default=DATA / "gapping")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = ap.parse_args(argv)
    from eud.nn.package import load_package

    pipe = Pipeline.load(args.members[0], threads=args.threads)
    tables = (args.members[0] / "vocab.json").read_text(encoding="utf-8")
    for m in args.members[1:]:
        if (m / "vocab.json").read_text(encoding="utf-8") != tables:
            ap.error(f"{m}: its tables differ from {args.members[0]}'s, so their scores cannot be averaged")
    pipe.predictor.model = ensemble([pipe.predictor.model] + [load_package(m)[0] for m in args.members[1:]])
    gap_gold = list(read_conllu(args.gapping_data / "gapping-enhanced.dev.conllu.xz"))
    gap_input = strip_deps(args.gapping_data / "gapping-orphan-basic.dev.conllu.xz")
    tune = [(list(read_conllu(f)), strip_deps(f)) for f in args.tune]
    print(f"{len(args.members)} members; false alarms on {', '.join(f.name for f in args.tune)}")
    print("| orphan bias | GAPPING dev P / R / F1 | found | false alarms |")
    print("|---|---|---|---|")
    figures: dict[str, object] = {"members": len(args.members)}
    for bias in args.bias:
        pipe.predictor.set_label_bias({"orphan": bias})
        gap = score_gapping(gap_gold, pipe.parse_sentences(list(parse_conllu(gap_input))))
        p = gap["match"] / max(1, gap["sys_edges"])
        r = gap["match"] / max(1, gap["gold_edges"])
        alarms = [score_gapping(gold, pipe.parse_sentences(list(parse_conllu(text))))["false_alarms"]
                  for gold, text in tune]
        print(f"| {bias:+.2f} | {100 * p:.1f} / {100 * r:.1f} / {200 * p * r / max(1e-9, p + r):.1f} "
              f"| {100 * gap['found'] / max(1, gap['gapped']):.1f}% ({gap['found']}/{gap['gapped']}) "
              f"| {' / '.join(map(str, alarms))} |", flush=True)
        figures[f"orphan bias {bias:+.2f}"] = {
            "GAPPING dev P/R/F1": f"{100 * p:.1f} / {100 * r:.1f} / {200 * p * r / max(1e-9, p + r):.1f}",
            "found": f"{gap['found']}/{gap['gapped']}",
            **{f"false alarms {f.name.split('.')[0]}": n for f, n in zip(args.tune, alarms)}}
    if not args.no_record:
        record("gapping", "seed_ensemble", figures, label="tuning", command=command_line("eval.gapping.seed_ensemble"),
               one_row=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
