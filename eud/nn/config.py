"""Training configs (defaults, reading, paths) and the run's logging and seeding, shared by the trainers."""

from __future__ import annotations

import json
import logging
import math
import random
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

log = logging.getLogger("eud.train")

DEFAULTS: dict[str, Any] = {
    "task": "parser", "seed": 1, "threads": 2, "max_epochs": 10, "patience": 3, "batch_words": 1000,
    "lr": 2e-3, "encoder_lr": 5e-5, "adam_betas": [0.9, 0.98], "warmup_steps": 300, "weight_decay": 0.0, "clip": 5.0,
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
