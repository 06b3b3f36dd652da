"""Every shipped model from raw text on every IWPT test set here, scored with the official procedure.

For each test set the raw text is rebuilt from its ``# text`` lines (paragraphs from
``# newpar``/``# newdoc``, as ``eval/parser/raw_eval.py`` does) and parsed by one
``eud.load(<language>)`` pipeline (what ``eud parse --lang`` runs; one process for all, so
each model loads once): a system knows only the language, never the treebank, as in IWPT 2020.  Gold and system are then collapsed (empty nodes → path
labels, ``eud.collapse``) and scored by the official scorer, ``udeval`` from udtools
(``--no-enhanced`` where the gold has no enhanced layer: fr, ru and en_gum's missing
parts are not guessed).  Every output is checked with ``udvalidate --level 2``.

Below the per-treebank table comes the coarse macro average of IWPT 2020 Table 3:
a language's test sets concatenated and scored once, then the mean over the 14
languages with enhanced gold here, with the IWPT 2020 anchors beside it.

usage (from the repository root):
  python -m eval.parser.iwpt                       # every language (about 30 min on a busy 2-core machine)
  python -m eval.parser.iwpt --lang cs sk --threads 1 --write-scores
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

from eud.collapse import collapse_empty_nodes
from eud.conllu import format_sentence, read_conllu
from eud.registry import find_model
from eval.common import RESULTS, command_line, record
from eval.segment.score import raw_text  # the IWPT raw input: # text lines, paragraphs from newpar/newdoc

SHARED = HERE.parents[2] / "shared" / "data" / "ud"
# The table: language → IWPT test sets here (fr and ru: LAS only, no enhanced gold).
TEST_SETS = {
    "bg": ["bg_btb"], "cs": ["cs_cac", "cs_fictree"], "nl": ["nl_alpino", "nl_lassysmall"],
    "en": ["en_ewt", "en_gum"], "et": ["et_ewt", "et_edt"], "fi": ["fi_tdt"], "fr": ["fr_sequoia", "fr_fqb"],
    "it": ["it_isdt"], "lv": ["lv_lvtb"], "lt": ["lt_alksnis"], "pl": ["pl_lfg", "pl_pdb"],
    "ru": ["ru_taiga", "ru_gsd", "ru_poetry"], "sk": ["sk_snk"], "sv": ["sv_talbanken", "sv_lines"],
    "ta": ["ta_ttb"], "uk": ["uk_iu"],
}
NO_ENHANCED_GOLD = {"fr", "ru"}
NO_ENHANCED_TREEBANKS = {"sv_lines"}  # in the table for LAS; IWPT's Swedish test set was sv_talbanken alone
METRICS = ("Tokens", "Words", "Sentences", "UPOS", "Lemmas", "LAS", "ELAS", "EULAS")
# IWPT 2020 overview: best coarse ELAS per language from raw text; macro averages of some systems.
IWPT_BEST = {"bg": 90.73, "cs": 87.51, "nl": 85.14, "en": 88.94, "et": 84.54, "fi": 89.49, "it": 91.54,
             "lv": 84.94, "lt": 77.64, "pl": 84.64, "sk": 88.56, "sv": 85.64, "ta": 64.23, "uk": 87.22}
IWPT_MACRO = {"baseline2 (UDPipe 1.2, tree copied)": 61.07, "FASTPARSE": 74.04, "Emory NLP": 79.84,
              "TurkuNLP (best)": 84.50}


def collapsed(path: Path) -> str:
    """A CoNLL-U file with empty nodes collapsed: what the official scorer reads."""
    return "".join(format_sentence(collapse_empty_nodes(s) if s.empty_nodes else s) for s in read_conllu(path))


def udeval(gold: Path, system: Path, enhanced: bool) -> dict[str, float]:
    """F1 (percent) of each metric from ``udeval -v`` (enhanced metrics only with enhanced gold)."""
    cmd = ["udeval", "-v"] + ([] if enhanced else ["--no-enhanced"]) + [str(gold), str(system)]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if run.returncode:
        return {"error": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "udeval failed"}
    out = {}
    for name in METRICS:
        m = re.search(rf"^{name}\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)", run.stdout, re.MULTILINE)
        if m and (enhanced or name not in ("ELAS", "EULAS")):
            out[name] = float(m.group(3))
    return out


def parse(lang: str, text: Path, out: Path, threads: int) -> dict[str, float]:
    """Raw text → CoNLL-U with the shipped model for ``lang`` (in this process: models load once).

    words/s counts segmentation, parsing, enhancing and writing (model loading apart);
    peak MiB is this process's peak so far (an upper bound for one model).
    """
    from eud.pipeline import Pipeline

    t0 = time.time()
    pipe = Pipeline.load(lang, threads=threads)
    pipe.segmenter  # noqa: B018 - load the segmenter before timing
    loaded = time.time() - t0
    t1 = time.time()
    words = 0
    with out.open("w", encoding="utf-8") as f:
        for sentence in pipe.parse_file(text, "text"):
            words += len(sentence.words)
            f.write(format_sentence(sentence))
    took = time.time() - t1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"words/s": round(words / max(took, 1e-9)), "load s": round(loaded, 1), "peak MiB": peak}


def valid(path: Path, lang: str) -> bool:
    """Whether ``udvalidate --level 2`` passes the file."""
    run = subprocess.run(["udvalidate", "--lang", lang, "--level", "2", str(path)], capture_output=True, text=True,
                         check=False)
    return "*** PASSED ***" in run.stdout + run.stderr


def fmt(x: object) -> str:
    """A table cell."""
    return f"{x:.2f}" if isinstance(x, float) else str(x) if x is not None else "-"


def main() -> int:
    """Parse and score every test set of the chosen languages; print the markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", nargs="+", default=list(TEST_SETS), help="languages (default: all in the table)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out-dir", type=Path, default=Path("work/iwpt_eval"))
    ap.add_argument("--reuse", action="store_true", help="score outputs already in --out-dir instead of parsing")
    ap.add_argument("--write-scores", action="store_true",
                    help="write each model's scores.json (the test figures `eud models` shows)")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rows, per_lang = [], {}
    started = time.time()
    for lang in args.lang:
        model = find_model(lang).name
        gold_all, sys_all = [], []
        for tb in TEST_SETS[lang]:
            gold = SHARED / tb / f"{tb}-ud-test.conllu.xz"
            if not gold.is_file():
                print(f"skipped {tb}: {gold} not found", file=sys.stderr)
                continue
            text = args.out_dir / f"{tb}.txt"
            text.write_text(raw_text(gold), encoding="utf-8")
            out = args.out_dir / f"{tb}.parsed.conllu"
            if args.reuse and out.is_file():
                speed = {"words/s": 0, "load s": 0.0, "peak MiB": 0.0}  # scored again, not parsed again
            else:
                speed = parse(lang, text, out, args.threads)
            gold_c, sys_c = args.out_dir / f"{tb}.gold.collapsed.conllu", args.out_dir / f"{tb}.sys.collapsed.conllu"
            gold_c.write_text(collapsed(gold), encoding="utf-8")
            sys_c.write_text(collapsed(out), encoding="utf-8")
            enhanced = lang not in NO_ENHANCED_GOLD and tb not in NO_ENHANCED_TREEBANKS
            if enhanced or lang in NO_ENHANCED_GOLD:
                gold_all.append(gold_c.read_text(encoding="utf-8"))
                sys_all.append(sys_c.read_text(encoding="utf-8"))
            scores = udeval(gold_c, sys_c, enhanced)
            row = {"lang": lang, "treebank": tb, "model": model, **scores, **speed, "valid": valid(out, lang)}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
        if gold_all:
            g, s = args.out_dir / f"{lang}.gold.all.conllu", args.out_dir / f"{lang}.sys.all.conllu"
            g.write_text("".join(gold_all), encoding="utf-8")
            s.write_text("".join(sys_all), encoding="utf-8")
            per_lang[lang] = udeval(g, s, lang not in NO_ENHANCED_GOLD)
    print("| lang | test set | model | " + " | ".join(METRICS) + " | words/s (load apart) | peak MiB | valid |")
    print("|---|---|---|" + "---|" * (len(METRICS) + 3))
    for r in rows:
        print(f"| {r['lang']} | {r['treebank']} | {r['model']} | " + " | ".join(fmt(r.get(k)) for k in METRICS)
              + f" | {r['words/s']} | {r['peak MiB']:.0f} | {'yes' if r['valid'] else 'NO'} |")
    print()
    print("Per language (test sets concatenated, as IWPT 2020 scored them):")
    print()
    print("| lang | LAS | ELAS | EULAS | IWPT 2020 best ELAS |")
    print("|---|---|---|---|---|")
    for lang, sc in per_lang.items():
        print(f"| {lang} | {fmt(sc.get('LAS'))} | {fmt(sc.get('ELAS'))} | {fmt(sc.get('EULAS'))} "
              f"| {fmt(IWPT_BEST.get(lang))} |")
    enhanced_langs = [lang for lang in per_lang if lang in IWPT_BEST and "ELAS" in per_lang[lang]]
    if enhanced_langs:
        macro = sum(per_lang[lang]["ELAS"] for lang in enhanced_langs) / len(enhanced_langs)
        print()
        print(f"Coarse macro ELAS over {len(enhanced_langs)} languages ({', '.join(enhanced_langs)}): {macro:.2f}")
        print("IWPT 2020 anchors (coarse ELAS from raw text, 17 languages): "
              + "; ".join(f"{k} {v:.2f}" for k, v in IWPT_MACRO.items()))
    print(f"\n(all {len(rows)} outputs valid: {all(r['valid'] for r in rows)}; took {time.time() - started:.0f} s)")
    (args.out_dir / "results.json").write_text(json.dumps({"rows": rows, "per_language": per_lang}, indent=1))
    if args.write_scores:
        write_results(rows, per_lang, command_line("eval.parser.iwpt"))
    return 0


def write_results(rows: list[dict], per_lang: dict, command: str) -> None:
    """Record the figures under eval/results/ (merged with earlier runs of other languages), then regenerate
    every page that quotes them: each model's scores.json (what `eud models` shows), its card, the README."""
    by_model: dict[str, dict[str, dict[str, float]]] = {}
    for r in rows:
        by_model.setdefault(r["model"], {})[r["treebank"]] = {k: r[k] for k in METRICS if k in r}
    for model, test in by_model.items():
        old = RESULTS / "models" / model / "raw_text.json"
        merged = {**(json.loads(old.read_text())["figures"] if old.is_file() else {}), **test}
        record(f"models/{model}", "raw_text", merged, label="test-scored-once", command=command)
    old = RESULTS / "parser" / "iwpt.json"
    figures = json.loads(old.read_text())["figures"] if old.is_file() else {}
    figures["per_language"] = {**figures.get("per_language", {}),
                               **{lang: {k: v for k, v in s.items() if k in ("LAS", "ELAS")} for lang, s in per_lang.items()}}
    enhanced = [lang for lang, s in figures["per_language"].items() if lang in IWPT_BEST and "ELAS" in s]
    figures[f"coarse macro ELAS, {len(enhanced)} languages with enhanced gold"] = round(
        sum(figures["per_language"][lang]["ELAS"] for lang in enhanced) / len(enhanced), 2)
    record("parser", "iwpt", figures, label="test-scored-once", command=command)
    from eval import report

    report.main([])


if __name__ == "__main__":
    raise SystemExit(main())
