"""Benchmark ``eud enhance`` on the shared treebanks: gold basic trees in, enhanced graphs out.

For every shared treebank with an enhanced layer and each split asked for,
DEPS and empty nodes are stripped from the gold file, the enhancer runs with
the treebank's profile (``--lang <treebank>``), and ``eud.evaluate`` scores the
output against gold, beside baseline1 (the basic tree copied into DEPS).  It
also measures the precision of the shared-dependent rule on its own, checks
every output with ``udvalidate --level 2`` (``--validate``), times en_ewt test
against the copy baseline, and with ``--write`` records the macro ELAS of each
split under eval/results/enhance/ (``python -m eval.report`` puts it on eval/RESULTS.md).

    nice python -m eval.enhance.benchmark --splits dev test --validate test --write
"""

from __future__ import annotations

import argparse
import io
import lzma
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from eud.conllu import format_sentence, read_conllu, write_conllu
from eud.enhance import Enhancer, find_profile
from eud.evaluate import evaluate_files
from eud.graph import EnhancedGraph, Sentence
from eval.common import record

REPO = Path(__file__).resolve().parents[2]
UD = REPO.parent / "shared" / "data" / "ud"
TREEBANKS = [
    "en_ewt", "en_gum", "bg_btb", "cs_cac", "cs_fictree", "et_edt", "et_ewt", "fi_tdt", "it_isdt",
    "lt_alksnis", "lv_lvtb", "nl_alpino", "nl_lassysmall", "pl_lfg", "pl_pdb", "sk_snk",
    "sv_talbanken", "ta_ttb", "uk_iu",
]
BY_TYPE = ["en_ewt", "cs_cac", "nl_lassysmall", "lv_lvtb"]
NOTES = """\
How: DEPS and empty nodes are stripped from each gold file, `eud enhance` runs with
the treebank's profile (`converters/<treebank>.toml` or `<language>.toml`; all
learned by `eud profile learn` on **dev** only, see `eval/enhance/profiles.py`, then
reviewed by hand), and `eud.evaluate` (official IWPT semantics: empty nodes
collapsed) scores it.  baseline1 copies the basic tree into DEPS.  The last
column runs `udvalidate --level 2` on every output file.  French has no gold
enhanced layer and is not scored; `converters/fr.toml`, `ru.toml` and `ar.toml`
are written by hand from the guidelines and are unverified."""


def strip(sentence: Sentence) -> Sentence:
    """The sentence without DEPS and empty nodes: what the enhancer gets."""
    sentence.enhanced = EnhancedGraph()
    sentence.empty_nodes = []
    return sentence


def gold_edges(sentence: Sentence) -> set[tuple[int, int, str]]:
    """Word-to-word edges of the gold graph."""
    return {(h[0], d[0], lab) for h, d, lab in sentence.enhanced if h[1] == 0 and d[1] == 0}


def shared_precision(path: Path, code: str) -> tuple[int, int]:
    """(correct, proposed) edges that the shared-dependent rule alone adds."""
    profile = find_profile(code)
    if "shared" not in profile.rules:
        return 0, 0
    with_shared = Enhancer(profile, repair=False)
    profile_without = find_profile(code)
    profile_without.rules = tuple(r for r in profile.rules if r != "shared")
    without = Enhancer(profile_without, repair=False)
    correct = proposed = 0
    for gold in read_conllu(path):
        truth = gold_edges(gold)
        a = with_shared.enhance(strip(gold.copy()))
        b = without.enhance(strip(gold.copy()))
        added = {(h[0], d[0], lab) for h, d, lab in a.enhanced if h[1] == 0 and d[1] == 0} - {
            (h[0], d[0], lab) for h, d, lab in b.enhanced if h[1] == 0 and d[1] == 0
        }
        proposed += len(added)
        correct += len(added & truth)
    return correct, proposed


def _problems(path: Path, lang: str) -> Counter[tuple[str, str]] | None:
    """udvalidate --level 2 problems as (sentence, test id) counts; None when the file passes."""
    run = subprocess.run(
        ["udvalidate", "--level", "2", "--lang", lang, str(path)], capture_output=True, text=True, check=False
    )
    if run.returncode == 0:
        return None
    found: Counter[tuple[str, str]] = Counter()
    for line in (run.stdout + run.stderr).splitlines():
        m = re.match(r"\[Line \d+(?: Sent (\S+))?\]: \[L\d \w+ ([\w-]+)\]", line)
        if m:
            found[(m.group(1) or "", m.group(2))] += 1
    return found


def validate(path: Path, gold: Path, lang: str) -> str:
    """"yes" when udvalidate --level 2 passes; "yes*" when its only complaints are the gold file's own."""
    ours = _problems(path, lang)
    if ours is None:
        return "yes"
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "gold.conllu"
        with lzma.open(gold, "rt", encoding="utf-8") as src:
            plain.write_text(src.read(), encoding="utf-8")
        theirs = _problems(plain, lang) or Counter()
    if ours and not ours - theirs:
        return "yes*"
    return "**NO**"


def throughput(path: Path, code: str) -> tuple[float, float]:
    """Words per second, reading to writing in memory: (copy baseline, enhancer)."""
    enhancer = Enhancer(find_profile(code))
    rates = []
    for job in ("copy", "enhance"):
        start = time.perf_counter()
        words = 0
        out = io.StringIO()
        for s in read_conllu(path):
            words += len(s.words)
            if job == "copy":
                s.copy_basic_to_enhanced()
            else:
                enhancer.enhance(s)
            out.write(format_sentence(s))
        rates.append(words / (time.perf_counter() - start))
    return rates[0], rates[1]


def run(splits: list[str], treebanks: list[str], check: list[str], tmp: Path,
        means: dict[str, tuple[int, float]] | None = None) -> str:
    """Run everything; return the Markdown report, and fill ``means`` with each split's (treebanks, macro ELAS)."""
    rows: dict[str, list[str]] = {}
    by_type: dict[str, dict] = {}
    macro: dict[str, list[float]] = {}
    invalid: list[str] = []
    inherited: list[str] = []
    shared_lines: dict[str, list[str]] = {}
    for split in splits:
        rows[split] = []
        for tb in treebanks:
            gold = UD / tb / f"{tb}-ud-{split}.conllu.xz"
            if not gold.exists():
                continue
            base_file, sys_file = tmp / f"{tb}-{split}.base.conllu", tmp / f"{tb}-{split}.sys.conllu"
            write_conllu((_copy(s) for s in read_conllu(gold)), base_file)
            enhancer = Enhancer(find_profile(tb))
            write_conllu((enhancer.enhance(strip(s)) for s in read_conllu(gold)), sys_file)
            extras = tb in BY_TYPE and split == "test"
            try:
                ev = evaluate_files(gold, sys_file, extras=extras)
            except ImportError:  # the by-type scorer is not there yet
                ev, extras = evaluate_files(gold, sys_file), False
            bl = evaluate_files(gold, base_file)
            ok = "" if split not in check else " " + validate(sys_file, gold, tb.split("_")[0])
            if "NO" in ok:
                invalid.append(f"{tb} {split}")
            if "*" in ok:
                inherited.append(f"{tb} {split}")
            e, u, be, bu = ev["ELAS"].f1 * 100, ev["EULAS"].f1 * 100, bl["ELAS"].f1 * 100, bl["EULAS"].f1 * 100
            macro.setdefault(split, []).append(e)
            rows[split].append(f"| {tb} | {e:.2f} | {u:.2f} | {be:.2f} | {bu:.2f} |{ok or ' –'} |")
            print(f"{split} {tb}: ELAS {e:.2f} EULAS {u:.2f} (baseline1 {be:.2f} / {bu:.2f}){ok}", file=sys.stderr)
            if extras and ev.by_type:
                by_type[tb] = ev.by_type
            c, p = shared_precision(gold, tb)
            if p:
                shared_lines.setdefault(tb, []).append(f"{c}/{p} = {100 * c / p:.1f}")
    out = []
    for split in splits:
        mean = sum(macro[split]) / len(macro[split])
        if means is not None:
            means[split] = (len(macro[split]), round(mean, 2))
        out += [
            f"**{split}** (macro ELAS over {len(macro[split])} treebanks: **{mean:.2f}**)", "",
            "| treebank | ELAS | EULAS | baseline1 ELAS | baseline1 EULAS | udvalidate --level 2 |",
            "|---|---|---|---|---|---|", *rows[split], "",
        ]
    if shared_lines:
        out += [("Precision of the shared-dependent rule on its own (edges it adds, beyond the other rules, "
                 "that are in gold; correct/added = %):"), "",
                "| treebank | " + " | ".join(splits) + " |", "|---|" + "---|" * len(splits),
                *[f"| {tb} | " + " | ".join(cells) + " |" for tb, cells in shared_lines.items()], ""]
    if by_type:
        tbs = list(by_type)
        types = sorted({t for scores in by_type.values() for t in scores})
        out += ["ELAS (F1) by enhancement type of the edge, test; in brackets the number of gold edges of the type:", "",
                "| type | " + " | ".join(tbs) + " |", "|---|" + "---|" * len(tbs)]
        for t in types:
            cells = []
            for tb in tbs:
                sc = by_type[tb].get(t)
                cells.append(f"{sc.f1 * 100:.1f} ({sc.gold})" if sc is not None and (sc.gold or sc.system) else "–")
            out.append(f"| {t} | " + " | ".join(cells) + " |")
        out.append("")
    if invalid:
        out += ["Failing udvalidate: " + ", ".join(invalid), ""]
    if inherited:
        out += ["yes* (" + ", ".join(inherited) + "): udvalidate's only complaints are ones the gold input file "
                "itself gets (e.g. a MISC value in et_ewt test), which the enhancer passes through unchanged "
                "by design; the enhanced graphs are valid.", ""]
    return "\n".join(out)


def _copy(s: Sentence) -> Sentence:
    s.copy_basic_to_enhanced()
    return s


def write_results(means: dict[str, tuple[int, float]], command: str) -> None:
    """Record each split's macro ELAS under eval/results/enhance/ (dev chose the profiles: tuning)."""
    for split, (count, mean) in means.items():
        if split == "dev":
            figures = {f"dev macro ELAS, {count} treebanks (profiles learned on dev)": mean}
        else:
            figures = {f"{split} macro ELAS, {count} treebanks": mean}
        record("enhance", f"benchmark_{split}", figures, command=command,
               label="tuning" if split == "dev" else "test-scored-once")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--splits", nargs="+", default=["dev"], choices=["dev", "test"])
    parser.add_argument("--treebanks", nargs="+", default=TREEBANKS)
    parser.add_argument("--validate", nargs="*", choices=["dev", "test"], default=None, metavar="SPLIT",
                        help="run udvalidate --level 2 on every output (of these splits only, if given)")
    parser.add_argument("--write", action="store_true", help="record the macro figures under eval/results/enhance/")
    parser.add_argument("--throughput-only", action="store_true", help="only time en_ewt test (3 runs, best of each)")
    args = parser.parse_args(argv)
    if args.throughput_only:
        path = UD / "en_ewt" / "en_ewt-ud-test.conllu.xz"
        runs = [throughput(path, "en_ewt") for _ in range(3)]
        base, ours = max(r[0] for r in runs), max(r[1] for r in runs)
        print(f"en_ewt test, reading to writing, best of 3: enhancer {ours:,.0f} words/s, "
              f"copy baseline {base:,.0f} words/s (ratio {ours / base:.2f})")
        return 0
    command = "nice python -m eval.enhance.benchmark " + " ".join(argv if argv is not None else sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        check = [] if args.validate is None else (args.validate or args.splits)
        means: dict[str, tuple[int, float]] = {}
        body = run(args.splits, args.treebanks, check, Path(tmp), means)
    path = UD / "en_ewt" / "en_ewt-ud-test.conllu.xz"
    if path.exists():
        base, ours = throughput(path, "en_ewt")
        body += (f"\nThroughput on en_ewt test, one process, reading to writing: enhancer {ours:,.0f} words/s, "
                 f"copy baseline {base:,.0f} words/s in the same run (ratio {ours / base:.2f}).\n")
    body = f"Produced by `{command.strip()}`.\n\n{NOTES}\n\n" + body
    print(body)
    if args.write:
        write_results(means, command.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
