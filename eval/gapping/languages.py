"""Empty nodes for ellipsis beyond English: the shipped models from raw text, scored with the gap-edge metric.

UD treebanks of four more languages annotate elided predicates with empty nodes
(`UD guidelines on ellipsis <https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis>`_,
`empty nodes <https://universaldependencies.org/format.html#words-tokens-and-empty-nodes>`_):
Czech (cs_cac, cs_fictree), Estonian (et_edt, et_ewt), Latvian (lv_lvtb) and Dutch
(nl_lassysmall).  Their profiles in ``converters/`` enable the gapping rule, and ``eud parse
--lang xx`` runs it after the parser.

For each treebank the raw text is rebuilt from the gold ``# text`` lines (paragraphs from
``# newpar``/``# newdoc``, as :mod:`eval.parser.iwpt` does) and parsed by the language's shipped
pipeline (``eud.load(lang)``, what ``eud parse --lang`` runs).  System words are then aligned to
gold words on their non-space characters, as ``eud evaluate`` does
(:func:`eud.evaluate.align.align_words`), and scored with the **gap-edge** metric of
:mod:`eval.gapping.benchmark`: both graphs are collapsed (``eud collapse``); every enhanced edge
whose path label runs through an empty node (``conj>obj``) is a (dependent, head, path) triple,
each path segment cut to its universal part; a system triple counts when its dependent and head
are aligned to the gold triple's words.  Micro P/R/F1 per treebank and per language (treebanks
pooled), and the unlabelled F1 (dependent and head only: the Czech gold labels most remnants
``dep``, which the rule never writes).  Beside them: gold and system empty nodes, the ``EmptyNodes`` F1 of ``eud evaluate``
(empty nodes matched by position), and the ``orphan`` relations in the gold and system trees,
since the gapping rule only makes an empty node over an ``orphan``.

The dev figures are *tuning* figures: dev chose the epochs of these models, and the cs, lv
and nl models were trained on these very dev splits, so for them dev is training data.  ``--split test``
scores the IWPT test sets; it is run once, at the end.

usage (from the repository root)::

    python -m eval.gapping.languages                     # dev, all four languages (about 3 min on 2 busy cores)
    python -m eval.gapping.languages --lang lv --reuse   # score parses already in --out-dir again
    python -m eval.gapping.languages --split test        # once, at the end
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from eud.conllu import format_sentence, read_conllu
from eud.evaluate.align import align_words
from eud.evaluate.data import ROOT_HEAD, ScoringFile, load_for_scoring
from eud.evaluate.empty_nodes import empty_node_scores
from eud.evaluate.evaluation import check_same_text
from eud.graph import Sentence
from eval.common import REPO, command_line, record
from eval.gapping.folds import UD
from eval.segment.score import raw_text

# Language → treebanks whose gold has empty nodes for ellipsis (the IWPT test sets of issue 35, part 4).
TREEBANKS = {"cs": ["cs_cac", "cs_fictree"], "et": ["et_edt", "et_ewt"], "lv": ["lv_lvtb"], "nl": ["nl_lassysmall"]}
LABEL = {"dev": "tuning", "test": "test-scored-once"}


def gap_edges(file: ScoringFile, to_gold: list[int] | None = None) -> Counter:
    """Collapsed edges through an empty node as (dependent, head, universal path), in gold word numbers.

    ``to_gold`` maps this file's word numbers to gold ones (None: this is the gold file).  An edge
    with an unaligned end gets a key of its own, so it counts as system output and never matches.
    """
    edges: Counter = Counter()
    for dep, deps in enumerate(file.deps):
        for head, _full, label in deps:
            if ">" not in label:
                continue
            d, h = dep, head
            if to_gold is not None:
                d = to_gold[dep]
                h = to_gold[head] if head != ROOT_HEAD else ROOT_HEAD
                if d < 0 or (h < 0 and head != ROOT_HEAD):
                    edges[("unaligned", dep, head, label)] += 1
                    continue
            edges[(d, h, label)] += 1
    return edges


def unlabelled(edges: Counter) -> Counter:
    """Gap edges without their path labels: (dependent, head) pairs (unaligned ones stay apart)."""
    out: Counter = Counter()
    for key, n in edges.items():
        out[key[:-1]] += n
    return out


def prf(match: int, system: int, gold: int) -> dict[str, float]:
    """Precision, recall and F1 in percent (0 when undefined)."""
    p = 100 * match / system if system else 0.0
    r = 100 * match / gold if gold else 0.0
    return {"P": round(p, 2), "R": round(r, 2), "F1": round(2 * p * r / (p + r), 2) if p + r else 0.0}


def score(gold: list[Sentence], system: list[Sentence]) -> Counter:
    """Gap-edge, empty-node and orphan counts of one system output against its gold (same text, any segmentation)."""
    g_file, s_file = load_for_scoring(gold, "gold"), load_for_scoring(system, "system")
    check_same_text(g_file, s_file)
    alignment = align_words(g_file.spans, s_file.spans)
    g_edges, s_edges = gap_edges(g_file), gap_edges(s_file, alignment)
    c: Counter = Counter()
    c["gold_edges"], c["sys_edges"] = sum(g_edges.values()), sum(s_edges.values())
    c["match"] = sum((g_edges & s_edges).values())
    c["unlabelled_match"] = sum((unlabelled(g_edges) & unlabelled(s_edges)).values())
    c["gold_empty"] = sum(len(s.empty_nodes) for s in gold)
    c["sys_empty"] = sum(len(s.empty_nodes) for s in system)
    nodes = empty_node_scores(g_file, s_file, alignment).get("EmptyNodes")
    c["empty_match"] = nodes.correct if nodes is not None else 0
    c["gold_orphan"] = sum(w.deprel == "orphan" for s in gold for w in s.words)
    c["sys_orphan"] = sum(w.deprel == "orphan" for s in system for w in s.words)
    c["gold_sentences"], c["sys_sentences"] = len(gold), len(system)
    return c


def figures(c: Counter) -> dict:
    """The reported figures of one set of counts."""
    return {"gap-edge": prf(c["match"], c["sys_edges"], c["gold_edges"]),
            "unlabelled gap-edge F1": prf(c["unlabelled_match"], c["sys_edges"], c["gold_edges"])["F1"],
            "gap edges gold": c["gold_edges"], "gap edges system": c["sys_edges"], "gap edges matched": c["match"],
            "empty nodes gold": c["gold_empty"], "empty nodes system": c["sys_empty"],
            "EmptyNodes F1": prf(c["empty_match"], c["sys_empty"], c["gold_empty"])["F1"],
            "orphan gold": c["gold_orphan"], "orphan system": c["sys_orphan"]}


def parse(lang: str, text: Path, out: Path, threads: int) -> float:
    """Raw text → CoNLL-U with the shipped pipeline of ``lang`` (loaded once per process); seconds taken."""
    from eud.pipeline import Pipeline

    t0 = time.time()
    pipe = Pipeline.load(lang, threads=threads)
    with out.open("w", encoding="utf-8") as f:
        for sentence in pipe.parse_file(text, "text"):
            f.write(format_sentence(sentence))
    return time.time() - t0


def table(rows: Iterable[tuple[str, dict]]) -> str:
    """A markdown table of per-treebank / per-language figures."""
    head = ("| set | gap-edge P / R / F1 | unlabelled F1 | gap edges gold / system | empty nodes gold / system "
            "| EmptyNodes F1 | orphan gold / system |")
    lines = [head, "|---|---|---|---|---|---|---|"]
    for name, f in rows:
        g = f["gap-edge"]
        lines.append(f"| {name} | {g['P']:.1f} / {g['R']:.1f} / {g['F1']:.1f} | {f['unlabelled gap-edge F1']:.1f} "
                     f"| {f['gap edges gold']} / {f['gap edges system']} "
                     f"| {f['empty nodes gold']} / {f['empty nodes system']} "
                     f"| {f['EmptyNodes F1']:.1f} | {f['orphan gold']} / {f['orphan system']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse every chosen treebank's split from raw text, score it, print the table and record the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", nargs="+", choices=list(TREEBANKS), default=list(TREEBANKS))
    ap.add_argument("--split", choices=list(LABEL), default="dev",
                    help="dev (tuning figures) or test (the IWPT test sets: run once, at the end)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--data", type=Path, default=UD, help="the UD folder of the shared data")
    ap.add_argument("--out-dir", type=Path, default=REPO / "work" / "gapping_languages")
    ap.add_argument("--reuse", action="store_true", help="score parses already in --out-dir instead of parsing")
    ap.add_argument("--no-record", action="store_true", help="print only; write nothing under eval/results/")
    args = ap.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    per_set: dict[str, dict] = {}
    per_lang: dict[str, dict] = {}
    seconds: dict[str, float] = {}
    for lang in args.lang:
        total: Counter = Counter()
        for tb in TREEBANKS[lang]:
            gold_path = args.data / tb / f"{tb}-ud-{args.split}.conllu.xz"
            if not gold_path.is_file():
                print(f"skipped {tb}: {gold_path} not found", file=sys.stderr)
                continue
            out = args.out_dir / f"{tb}-{args.split}.parsed.conllu"
            if not (args.reuse and out.is_file()):
                text = args.out_dir / f"{tb}-{args.split}.txt"
                text.write_text(raw_text(gold_path), encoding="utf-8")
                seconds[tb] = round(parse(lang, text, out, args.threads), 1)
            c = score(list(read_conllu(gold_path)), list(read_conllu(out)))
            total += c
            per_set[tb] = figures(c)
            print(f"{tb}: {json.dumps(per_set[tb])}", file=sys.stderr, flush=True)
        if total:
            per_lang[lang] = figures(total)
    print(table(per_set.items()))
    print()
    print(table(per_lang.items()))
    if not args.no_record and per_lang:
        label = LABEL[args.split]
        notes = ("dev chose the epochs of these models, and the cs, lv and nl models were trained on these dev "
                 "splits (recipes/cs_cac.toml, lv_lvtb.toml, nl_alpino.toml): their dev figures are training-data "
                 "figures, far above what unseen text gets (see languages_test)" if args.split == "dev"
                 else "IWPT test sets, scored once at the end")
        record("gapping", f"languages_{args.split}",
               {"split": args.split, "per language": per_lang, "per treebank": per_set, "parse seconds": seconds},
               label=label, command=command_line("eval.gapping.languages"), notes=notes, rows="per language")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
