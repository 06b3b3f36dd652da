"""Model packages: a folder of plain data, loaded without unpickling code.

A package holds ``config.json`` (the resolved training config and format
version), ``vocab.json`` (every label table), ``model.safetensors`` (the
weights) and ``MODEL.md`` (the model card).  A transformer named by a
shortcut (``minilm``) is rebuilt from its pip package, so weights that never
changed (frozen embeddings) are left out; any other transformer's config and
tokenizer are copied into ``encoder/`` so the package stands alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eud.nn.encoders import named_transformer
from eud.nn.model import Parser
from eud.nn.vocab import Vocab, vocabs_from_json, vocabs_to_json

FORMAT = "eud-parser/1"
SHORTCUTS = ("minilm",)


class PackageError(ValueError):
    """A model folder that cannot be loaded (missing file, wrong format)."""


def _prefix_of_frozen(model: Parser) -> list[str]:
    enc = model.encoder.transformer
    if enc is None or model.config["encoder"].get("transformer") not in SHORTCUTS:
        return []
    return ["encoder.transformer.model." + name for name in enc.frozen_prefixes()]


def save_package(folder: Path, model: Parser, vocabs: dict[str, Vocab], config: dict[str, Any]) -> None:
    """Write config.json, vocab.json, model.safetensors (and encoder/ when needed) into ``folder``."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    skip = set(_prefix_of_frozen(model))
    half = bool(config.get("fp16_weights", True))
    tensors = {}
    for name, value in model.state_dict().items():
        if name in skip:
            continue
        value = value.detach()
        if half and value.is_floating_point():
            value = value.half()
        tensors[name] = value.contiguous().clone()
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": FORMAT})
    enc = model.encoder.transformer
    if enc is not None and config["encoder"].get("transformer") not in SHORTCUTS:
        enc.tokenizer.save_pretrained(str(folder / "encoder"))
        enc.model.config.save_pretrained(str(folder / "encoder"))
    (folder / "config.json").write_text(json.dumps({"format": FORMAT, **config}, indent=2, ensure_ascii=False) + "\n")
    (folder / "vocab.json").write_text(json.dumps(vocabs_to_json(vocabs), ensure_ascii=False) + "\n")


def load_config(folder: Path) -> dict[str, Any]:
    """The config.json of a package, checked for format."""
    path = folder / "config.json"
    if not path.is_file():
        raise PackageError(f"{folder}: not a model package (no config.json)")
    config = json.loads(path.read_text())
    if config.get("format") != FORMAT:
        raise PackageError(f"{path}: unknown model format {config.get('format')!r} (expected {FORMAT})")
    return config


def load_package(folder: str | Path) -> tuple[Parser, dict[str, Vocab], dict[str, Any]]:
    """Rebuild a parser from a package folder, ready for prediction."""
    from safetensors.torch import load_file

    folder = Path(folder)
    config = load_config(folder)
    for name in ("vocab.json", "model.safetensors"):
        if not (folder / name).is_file():
            raise PackageError(f"{folder}: model package has no {name}")
    vocabs = vocabs_from_json(json.loads((folder / "vocab.json").read_text()))
    enc = config["encoder"]
    source, from_config = None, False
    if enc.get("transformer"):
        if enc["transformer"] in SHORTCUTS:
            source = named_transformer(enc["transformer"])
        else:
            source, from_config = str(folder / "encoder"), True
    model = Parser(config, vocabs, transformer_source=source, from_config=from_config)
    state = {k: v.float() if v.is_floating_point() else v for k, v in load_file(str(folder / "model.safetensors")).items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    allowed = set(_prefix_of_frozen(model))
    bad = [k for k in missing if k not in allowed]
    if bad or unexpected:
        raise PackageError(f"{folder}: weights do not match the model (missing {bad[:3]}, unexpected {unexpected[:3]})")
    model.eval()
    return model, vocabs, config
