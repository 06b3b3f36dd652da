"""Does a training file help?  k-fold cross-validation over a dev split, one parser per fold and design.

Issue 36 adds training files a language did not have (the lt_alksnis r2.4 train, the lv_lvtb r2.0
train).  Whether a file helps is a choice, so it is made the way every choice is made here
(``eval/crossval.py``): the dev split that the shipped model trains on is cut into k folds by
document (``# newdoc``; contiguous blocks where there are none), and for each fold and each design a
parser is trained on the other folds plus the design's files and scores the held fold from gold
tokens.  The designs are the recipe's own training data ("without") and the same plus ``--add``
("with"), which can also have settings of its own (``--with-config``): a shared encoder for a
language and a close neighbour's treebanks is ``--add`` the neighbour's files with ``--add-option
tune_every=0 --with-config encoder.lang_dim=32``; a design with other settings on the same data is
``--with-config`` alone.  Each parser picks its epoch on its own tuning
slice (``tune_every`` of the recipe), which comes from its training files, so the held fold decides
nothing inside a run.

The choice between designs is then cross-validated over the folds (choose on k-1, score the held
one) and reported with the held-fold mean, spread and optimism.  Models and fold files are written
under ``--work``; a rerun resumes unfinished trainings from their checkpoints and reuses finished
ones.  One result: ``eval/results/parser/data_cv_<lang>.json`` (or ``--name``).

usage (from the repository root, ``../shared`` beside it):
  python -m eval.parser.data_cv --recipe recipes/lt_alksnis.toml \\
      --folds-of ud/lt_alksnis/lt_alksnis-ud-dev.conllu.xz --add ud/lt_alksnis/lt_alksnis-ud-train.conllu.xz \\
      --k 2 --max-epochs 40 --work work/data_cv/lt
  python -m eval.parser.data_cv --recipe recipes/lv_lvtb.toml \\
      --folds-of ud/lv_lvtb/lv_lvtb-ud-dev.conllu.xz --add ud/lv_lvtb/lv_lvtb-ud-train-r2.0.conllu.xz \\
      --add-option upgrade=lv_r2.0 --add-option tune_every=0 --add-option enhanced=false --k 2 --max-epochs 40 \\
      --same-updates
  python -m eval.parser.data_cv --recipe recipes/sk_snk.toml --folds-of ud/sk_snk/sk_snk-ud-dev.conllu.xz \\
      --add ud/cs_cac/cs_cac-ud-dev.conllu.xz ... --add-option tune_every=0 \\
      --with-config encoder.lang_dim=32 --with-config max_epochs=20 --k 2 --name data_cv_sk_shared
  python -m eval.parser.data_cv --recipe recipes/ta_ttb.toml --folds-of ud/ta_ttb/ta_ttb-ud-train.conllu.xz \\
      --with-config encoder.char_encoder=bilstm --with-config ema=0.999 --k 2 --name data_cv_ta_bilstm
"""

from __future__ import annotations

import argparse
import copy
import json
import lzma
import statistics
from collections.abc import Callable
from pathlib import Path

from eud.recipe import RecipeError, Run
from eval.common import REPO, SHARED, command_line, record
from eval.crossval import cross_validate

DESIGNS = ("without", "with")
COLUMNS = ("UPOS", "Lemmas", "LAS", "ELAS")


def read_blocks(path: Path) -> list[str]:
    """The sentence blocks of a CoNLL-U file (``.xz`` or plain), each without its trailing blank line."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        text = f.read()
    return [b.strip("\n") for b in text.split("\n\n") if b.strip()]


def document_folds(blocks: list[str], k: int) -> list[int]:
    """Each block's fold: whole documents (``# newdoc``) dealt to the fold with fewest sentences so far.

    A file with fewer documents than folds is cut into k contiguous blocks instead.
    """
    docs: list[list[int]] = []
    for i, block in enumerate(blocks):
        if not docs or any(line.startswith("# newdoc") for line in block.splitlines()):
            docs.append([])
        docs[-1].append(i)
    if len(docs) < k:
        size = -(-len(blocks) // k)
        return [i // size for i in range(len(blocks))]
    folds = [0] * len(blocks)
    sizes = [0] * k
    for doc in sorted(docs, key=len, reverse=True):
        fold = min(range(k), key=lambda f: (sizes[f], f))
        sizes[fold] += len(doc)
        for i in doc:
            folds[i] = fold
    return folds


def train_config(recipe_config: dict, train: list, work: Path, overrides: dict) -> dict:
    """The recipe's training config with other training files, its own work folder and the overrides."""
    config = {k: v for k, v in recipe_config.items() if k not in ("dev", "extra_dev", "test", "init_from")}
    config.update(train=train, output=str(work / "model"), work_dir=str(work), **overrides)
    return config


def path_of(entry: str | dict) -> str:
    """The path of a training-file entry (a path or a table)."""
    return entry if isinstance(entry, str) else entry["path"]


def other_files(train: list, folds_of: str, added: list[str]) -> list:
    """A recipe's training entries besides the one cut into folds and the ones the 'with' design adds."""
    return [t for t in train if path_of(t) != folds_of and path_of(t) not in added]


def count_sentences(entry: str | dict) -> int:
    """The sentences of a training-file entry (a path or a table), repeats included."""
    if isinstance(entry, dict):
        return len(read_blocks(Path(entry["path"]))) * int(entry.get("repeat", 1))
    return len(read_blocks(Path(entry)))


def _value(text: str) -> int | float | bool | str:
    """A setting's value: a whole number, a decimal, true/false, or the text itself."""
    if text.isdigit():
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return float(text)
    except ValueError:
        return text


def file_options(pairs: list[str]) -> dict:
    """``KEY=VALUE`` pairs as a table: numbers and true/false become numbers and booleans."""
    options: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{pair!r}: expected KEY=VALUE")
        options[key] = _value(value)
    return options


def with_settings(config: dict, pairs: list[str]) -> dict:
    """``config`` with the ``KEY=VALUE`` settings of ``--with-config`` (``encoder.lang_dim=32`` reaches into a table)."""
    out = copy.deepcopy(config)
    for key, value in file_options(pairs).items():
        *tables, last = key.split(".")
        target = out
        for table in tables:
            target = target.setdefault(table, {})
        target[last] = value
    return out


def write_fold(blocks: list[str], folds: list[int], fold: int, path: Path, *, held: bool = False) -> Path:
    """Write the blocks of every fold but ``fold`` (or, ``held``, of ``fold`` alone) to ``path``; return it."""
    path.write_text("\n\n".join(b for b, f in zip(blocks, folds) if (f == fold) == held) + "\n\n", encoding="utf-8")
    return path


def train_unless_finished(folder: Path, train: Callable[[], int | None], *, smoke: bool = False) -> bool:
    """Run ``train`` unless the marker ``folder/finished`` says an earlier run finished it (an unfinished one
    resumes from its checkpoint); mark it after, unless a smoke run.  False when ``train`` returned an error code."""
    if (folder / "finished").exists():
        return True
    if train():
        return False
    if not smoke:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "finished").write_text("", encoding="utf-8")
    return True


def train_run(config: dict, folder: Path, config_path: Path, *, smoke: bool = False) -> Path:
    """Train a parser with ``config`` into ``folder`` (its config written to ``config_path``), unless finished; its package."""
    from eud.nn.trainer import train_parser

    folder.mkdir(parents=True, exist_ok=True)
    config_path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    train_unless_finished(folder, lambda: train_parser(config, config_path, argv=[]), smoke=smoke)
    return folder / "model"


def parse_held(package: Path, lang: str, threads: int, gold: list, held: list[int], into: list) -> dict[str, float]:
    """Parse the gold sentences ``held`` from gold tokens with ``package``, put each parse in ``into`` at its
    index, and return the quick scores of the held fold."""
    from eud.nn.scoring import quick_scores
    from eud.pipeline import Pipeline

    parsed = Pipeline.load(package, lang=lang, threads=threads).parse_sentences(copy.deepcopy([gold[i] for i in held]))
    for i, sentence in zip(held, parsed):
        into[i] = sentence
    return quick_scores([gold[i] for i in held], parsed)


def scores_on(gold: list, parsed: list, indices: list[int]) -> dict[str, float]:
    """Quick scores of the parses of the sentences ``indices``."""
    from eud.nn.scoring import quick_scores

    return quick_scores([gold[i] for i in indices], [parsed[i] for i in indices])


def per_fold_scores(gold: list, parsed: list, folds: list[int], k: int) -> list[dict[str, float]]:
    """Quick scores of each fold's parses, fold by fold."""
    return [scores_on(gold, parsed, [i for i, f in enumerate(folds) if f == fold]) for fold in range(k)]


def held_fold_figures(per_fold: dict[str, list[dict[str, float]]], columns: tuple[str, ...]) -> dict:
    """Each design's held-fold mean, spread and per-fold figure of each column, keyed ``"<design>: held-fold <column>"``."""
    return {f"{d}: held-fold {c}": {"mean": round(statistics.mean(s[c] for s in folds), 2),
                                    "sd": round(statistics.stdev(s[c] for s in folds), 2) if len(folds) > 1 else 0.0,
                                    "folds": [round(s[c], 2) for s in folds]}
            for d, folds in per_fold.items() for c in columns}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recipe", required=True, help="the shipped model's recipe (its 'train' stage gives the data and settings)")
    ap.add_argument("--stage", default="parser", help="the recipe's training stage (default: parser)")
    ap.add_argument("--folds-of", required=True, help="the training file cut into folds (a path under ../shared/data)")
    ap.add_argument("--add", nargs="+", default=[], help="the file(s) the 'with' design adds (none: 'with' differs by "
                    "its --with-config settings alone)")
    ap.add_argument("--add-option", action="append", default=[], metavar="KEY=VALUE",
                    help="a training-file option for each added file (eud/nn/data.py), e.g. upgrade=lv_r2.0, tune_every=0")
    ap.add_argument("--k", type=int, default=2)
    ap.add_argument("--only-fold", type=int, help="train and score this fold only, record nothing (folds can run side by side; "
                    "a run without it then reuses the finished ones)")
    ap.add_argument("--max-epochs", type=int, help="override the recipe's max_epochs (the same for both designs)")
    ap.add_argument("--same-updates", action="store_true",
                    help="give 'with' as many updates as 'without': its max_epochs scaled by the ratio of their "
                         "training sentences (for a large added file, whose epochs cost more)")
    ap.add_argument("--with-config", action="append", default=[], metavar="KEY=VALUE",
                    help="a training setting for the 'with' design only (dotted keys reach into tables), e.g. "
                         "encoder.lang_dim=32 for a shared encoder with a language vector, max_epochs=20")
    ap.add_argument("--name", help="the result's name (default: data_cv_<lang>)")
    ap.add_argument("--max-steps", type=int, help="a smoke run: stop each training after this many steps, record nothing")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--work", default=None, help="models and fold files (default: work/data_cv/<lang>)")
    args = ap.parse_args(argv)
    if not args.add and not args.with_config:
        ap.error("the 'with' design needs --add, --with-config or both")

    run = Run(args.recipe, shared=SHARED)
    recipe = run.recipe
    stage = next((s for s in recipe["stage"] if s["name"] == args.stage and s["kind"] == "train"), None)
    if stage is None:
        ap.error(f"{args.recipe}: no training stage named {args.stage!r}")
    base = dict(stage["config"])
    lang = str(base.get("language", recipe["model"].split("_")[0]))
    work = Path(args.work or REPO / "work" / "data_cv" / lang).resolve()
    if args.folds_of not in [path_of(t) for t in base["train"]]:
        ap.error(f"{args.folds_of} is not a training file of {args.recipe}")
    try:
        # The recipe's other training files, as given (a table keeps its repeat, augment, ... keys); a
        # recipe that already ships with the added files (after this benchmark chose them) leaves them out,
        # so that the recorded command means the same comparison before and after.
        others = run.data(other_files(base["train"], args.folds_of, args.add))
        added = [run.data({"path": path, **file_options(args.add_option)}) for path in args.add]
        with_settings(base, args.with_config)  # a malformed setting fails here, before any training
        folds_of = Path(run.data(args.folds_of))
    except (RecipeError, ValueError) as err:
        ap.error(str(err))
    overrides = {"threads": args.threads, **({"max_epochs": args.max_epochs} if args.max_epochs else {}),
                 **({"max_steps": args.max_steps} if args.max_steps else {})}

    blocks = read_blocks(folds_of)
    folds = document_folds(blocks, args.k)
    work.mkdir(parents=True, exist_ok=True)
    from eud.conllu import read_conllu

    gold = list(read_conllu(str(folds_of)))
    if len(gold) != len(blocks):
        raise SystemExit(f"{args.folds_of}: {len(gold)} sentences read but {len(blocks)} blocks")
    pred: dict[str, list] = {d: [None] * len(gold) for d in DESIGNS}
    if args.same_updates:  # the sentences each design trains on besides the folds, counted once
        others_size, added_size = (sum(count_sentences(p) for p in files) for files in (others, added))
    for fold in range(args.k) if args.only_fold is None else [args.only_fold]:
        # named after the treebank, so that the trainer reads its language from the name
        rest = write_fold(blocks, folds, fold, work / f"{Path(args.folds_of).name.split('-')[0]}-fold{fold}-rest.conllu")
        held = [i for i, f in enumerate(folds) if f == fold]
        for design in DESIGNS:
            run = work / f"fold{fold}" / design
            train = [str(rest), *others, *(added if design == "with" else [])]
            design_overrides = dict(overrides)
            if design == "with" and args.same_updates:
                epochs = int(overrides.get("max_epochs", base.get("max_epochs", 1)))
                without = sum(f != fold for f in folds) + others_size
                design_overrides["max_epochs"] = max(1, round(epochs * without / (without + added_size)))
            config = train_config(base, train, run, design_overrides)
            if design == "with":
                config = with_settings(config, args.with_config)
            package = train_run(config, run, run.parent / f"{design}.json", smoke=bool(args.max_steps))
            scores = parse_held(package, lang.split("_")[0], args.threads, gold, held, pred[design])
            print(f"fold {fold} {design}: " + ", ".join(f"{c} {scores[c]:.2f}" for c in COLUMNS), flush=True)

    if args.only_fold is not None:
        return 0
    cv = cross_validate(folds, list(DESIGNS), lambda design, indices: scores_on(gold, pred[design], indices)["ELAS"])
    per_fold = {d: per_fold_scores(gold, pred[d], folds, args.k) for d in DESIGNS}
    figures = {
        "choice (ELAS)": cv.summary(),
        "folds": args.k, "fold of": args.folds_of, "added": args.add, "added options": file_options(args.add_option),
        **({"with settings": file_options(args.with_config)} if args.with_config else {}),
        "max epochs": {d: json.loads((work / "fold0" / f"{d}.json").read_text(encoding="utf-8")).get("max_epochs")
                       for d in DESIGNS},
        "sentences per fold": [folds.count(f) for f in range(args.k)],
        **held_fold_figures(per_fold, COLUMNS),
    }
    print(json.dumps(figures, indent=1))
    if args.max_steps:
        return 0
    path = record("parser", args.name or f"data_cv_{lang.split('_')[0]}", figures, label="cross-validated",
                  command=command_line("eval.parser.data_cv"),
                  notes=f"{args.k} folds by document of {Path(args.folds_of).name}; gold tokens; quick scores "
                        "(eud.nn.scoring); each parser picks its epoch on its own tuning slice.")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
