"""``eud train``: train a parser (or, with ``task = "segmenter"``, a segmenter) model package.

The config is TOML or JSON; relative paths are relative to the config file.
Every epoch writes a resumable checkpoint to ``work_dir``; rerunning the same
command resumes from it.  The package in ``output`` is rewritten whenever the
dev score (ELAS, or LAS without an enhanced layer) improves; training stops
after ``patience`` epochs without improvement or at ``max_epochs``.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import random
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

EPILOG = """examples:
  eud train --config eval/train_en_ewt.toml
  eud train --config eval/train_et_ewt.toml --threads 2
  eud train --config my.json --max-steps 2      # a smoke test

config keys (parser): train, dev, [test], output, work_dir, language, seed,
  threads, max_epochs, patience, batch_words, lr, encoder_lr, warmup_steps,
  graph_mode ("graph" | "rules" | "combined" | "best"), [encoder] table
  (type = "minilm" | "transformer" | "charlstm", transformer, pooling,
  finetune, chars, words, lstm_layers, ...), [model] table.
"""

log = logging.getLogger("eud.train")

DEFAULTS: dict[str, Any] = {
    "task": "parser", "seed": 1, "threads": 2, "max_epochs": 10, "patience": 3, "batch_words": 1000,
    "lr": 2e-3, "encoder_lr": 5e-5, "warmup_steps": 300, "weight_decay": 0.0, "clip": 5.0,
    "graph_mode": "best", "language": "", "max_steps": 0, "min_word_count": 2, "precision": "fp32",
}


def load_train_config(path: Path) -> dict[str, Any]:
    """Read a TOML or JSON config (clear one-line errors for bad files)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(f"{path}: cannot read config: {err.strerror}") from None
    try:
        return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: bad config: {err}") from None


def _resolve(base: Path, value: str | None) -> Path | None:
    if not value:
        return None
    p = Path(value)
    return p if p.is_absolute() else (base / p)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``eud train``."""
    ap = argparse.ArgumentParser(prog="eud train", description=__doc__.split("\n\n")[0],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True, type=Path, help="training config (.toml or .json)")
    ap.add_argument("--threads", type=int, help="CPU threads (overrides the config)")
    ap.add_argument("--max-steps", type=int, help="stop after this many updates (smoke tests)")
    ap.add_argument("--max-epochs", type=int, help="override max_epochs")
    ap.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint and start over")
    ap.add_argument("--finish-only", action="store_true",
                    help="only redo the last step on the saved package: pick the graph mode on dev, score, write MODEL.md")
    ap.add_argument("--export-checkpoint", action="store_true",
                    help="with --finish-only: first write the last checkpoint's weights as the package")
    args = ap.parse_args(argv)
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
        return int(train_segmenter(config, args.config) or 0)
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
    return 0


def full_config(config: dict[str, Any], config_path: Path) -> dict[str, Any]:
    """The config with defaults filled in and paths made absolute."""
    from eud.nn.encoders import resolve_encoder_config

    out = {**DEFAULTS, **config}
    base = config_path.resolve().parent
    for key in ("train", "dev", "test", "output", "work_dir"):
        path = _resolve(base, out.get(key))
        out[key] = str(path) if path else None
    if not out["train"] or not out["output"]:
        raise ValueError(f"{config_path}: the config needs 'train' and 'output'")
    if not out["work_dir"]:
        out["work_dir"] = out["output"] + ".work"
    out["encoder"] = resolve_encoder_config(dict(out.get("encoder", {})))
    return out


def seconds(t: float) -> str:
    """A duration as h:mm:ss."""
    n = math.ceil(t)
    return f"{n // 3600}:{n % 3600 // 60:02d}:{n % 60:02d}"


def seed_everything(seed: int) -> None:
    """Fix every random generator the training uses."""
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def setup_logging(work_dir: Path) -> None:
    """Log to work_dir/train.log and to stderr."""
    work_dir.mkdir(parents=True, exist_ok=True)
    log.setLevel(logging.INFO)
    log.handlers.clear()
    fmt = logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S")
    for handler in (logging.FileHandler(work_dir / "train.log"), logging.StreamHandler(sys.stderr)):
        handler.setFormatter(fmt)
        log.addHandler(handler)
    _ = time  # keep the import for callers that time steps
