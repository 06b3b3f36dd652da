"""``eud train``: train a parser (or, with ``task = "segmenter"``, a segmenter) model package.

``--recipe recipes/<model>.toml`` rebuilds a shipped model with every stage that makes its
package (training, lexicon, settings, weight storage; :mod:`eud.recipe`), from the shared data
beside the repository; run again, it skips finished stages and resumes training from its checkpoint.
With ``--config``, the config is TOML or JSON; relative paths are relative to the config file.
Every epoch writes a resumable checkpoint to ``work_dir``; rerunning the same
command resumes from it.  The package in ``output`` is rewritten whenever the
dev score (ELAS, or LAS without an enhanced layer) improves; training stops
after ``patience`` epochs without improvement or at ``max_epochs``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eud.commands.errors import input_error
from eud.nn.config import load_train_config

EPILOG = """examples:
  eud train --recipe recipes/ta_ttb.toml        # rebuild models/ta_ttb into work/recipes/ta_ttb/package
  eud train --config eval/experiments/train_en_ewt_frozen.toml
  eud train --config eval/train_et.toml --threads 2
  eud train --config my.json --max-steps 2      # a smoke test

config keys (parser): train, dev, [test], output, work_dir, language, seed,
  threads, max_epochs, patience, batch_words, lr, encoder_lr, warmup_steps,
  graph_mode ("graph" | "rules" | "combined" | "best"), [encoder] table
  (type = "minilm" | "transformer" | "charlstm", transformer, pooling,
  finetune, chars, words, lstm_layers, ...), [model] table.
"""


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``eud train``."""
    ap = argparse.ArgumentParser(prog="eud train", description=__doc__.split("\n\n")[0],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", type=Path, help="training config (.toml or .json)")
    source.add_argument("--recipe", type=Path, help="a model's recipe (recipes/<model>.toml): every stage of its package")
    ap.add_argument("--shared", type=Path, help="with --recipe: the shared data folder (default ../shared/data)")
    ap.add_argument("--run-dir", type=Path, help="with --recipe: where stages write (default work/recipes/<model>)")
    ap.add_argument("--stage", help="with --recipe: run only this stage (again)")
    ap.add_argument("--threads", type=int, help="CPU threads (overrides the config)")
    ap.add_argument("--max-steps", type=int, help="stop after this many updates (smoke tests)")
    ap.add_argument("--max-epochs", type=int, help="override max_epochs")
    ap.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint and start over")
    ap.add_argument("--finish-only", action="store_true",
                    help="only redo the last step on the saved package: pick the graph mode on dev, score, write MODEL.md")
    ap.add_argument("--export-checkpoint", action="store_true",
                    help="with --finish-only: first write the last checkpoint's weights as the package")
    args = ap.parse_args(argv)
    if args.recipe is not None:
        return _recipe(args)
    try:
        config = load_train_config(args.config)
    except ValueError as err:
        print(f"eud train: {err}", file=sys.stderr)
        return 2
    if config.get("task", "parser") == "segmenter":
        if args.finish_only or args.export_checkpoint:
            print("eud train: --finish-only and --export-checkpoint apply to parser configs only", file=sys.stderr)
            return 2
        # The segmenter's own names for the shared switches.
        for key, value in (("threads", args.threads), ("epochs", args.max_epochs), ("max_steps", args.max_steps)):
            if value is not None:
                config[key] = value
        if args.fresh:
            config["resume"] = False
        try:
            from eud.segment.train import train_segmenter
        except ImportError as err:
            print(f"eud train: the segmenter needs torch and safetensors (pip install 'eud[nn]'): {err}",
                  file=sys.stderr)
            return 1
        try:
            return int(train_segmenter(config, args.config) or 0)
        except OSError as err:
            return input_error("eud train", err, str(args.config))
    for key, value in (("threads", args.threads), ("max_steps", args.max_steps), ("max_epochs", args.max_epochs)):
        if value is not None:
            config[key] = value
    try:
        from eud.nn.trainer import train_parser
    except ImportError as err:
        print(f"eud train: the neural parser needs torch, transformers and safetensors (pip install 'eud[nn]'): {err}",
              file=sys.stderr)
        return 1
    try:
        train_parser(config, args.config, fresh=args.fresh, argv=argv, finish_only=args.finish_only,
                     export_checkpoint=args.export_checkpoint)
    except ValueError as err:
        print(f"eud train: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # a data file the config names (relative to the config file) is missing or unreadable
        return input_error("eud train", err, str(args.config))
    return 0


def _recipe(args: argparse.Namespace) -> int:
    """``eud train --recipe``: run the recipe's stages."""
    from eud.recipe import RecipeError, Run

    try:
        run = Run(args.recipe, shared=args.shared, run_dir=args.run_dir, threads=args.threads,
                  max_steps=args.max_steps, max_epochs=args.max_epochs)
        package = run.run(only=args.stage, log=lambda m: print(f"eud train: {m}", file=sys.stderr))
    except RecipeError as err:
        print(f"eud train: {err}", file=sys.stderr)
        return 2
    except ImportError as err:
        print(f"eud train: the neural parser needs torch, transformers and safetensors (pip install 'eud[nn]'): {err}",
              file=sys.stderr)
        return 1
    except OSError as err:
        return input_error("eud train", err, str(args.recipe))
    print(f"eud train: package in {package}", file=sys.stderr)
    return 0
