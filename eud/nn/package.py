"""Model packages: a folder of plain data, loaded without unpickling code.

A package holds ``config.json`` (the resolved training config and format
version), ``vocab.json`` (every label table), ``model.safetensors`` (the
weights) and ``MODEL.md`` (the model card).

Weights are stored as the config's ``weights`` says: ``fp16`` (the default), ``fp32``, or
``int8``: every matrix with at least :data:`INT8_MIN_ROW` columns as int8 rows, each with its
own scale (the row's largest absolute value / 127) in a companion tensor ``<name>:scale``;
vectors and narrow matrices stay fp16.  Loading turns every kind back into fp32, so a
package's arithmetic does not depend on how it was stored; :func:`store_package_weights`
rewrites a finished package in another storage.  A transformer named by a
shortcut (``minilm``) is rebuilt from its pip package, so weights that never
changed (frozen embeddings) are left out; any other transformer's config and
tokenizer are copied into ``encoder/`` so the package stands alone.

An ensemble (:mod:`eud.nn.ensemble`) is a package whose ``config.json`` lists ``members``: more
weight files beside ``model.safetensors`` (``member-2.safetensors``, ...), each the same recipe
trained with another seed, sharing the config and ``vocab.json``.  :func:`add_members` makes one.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import torch

from eud.atomic import temporary_name, write_text_atomically
from eud.nn.encoders import named_transformer
from eud.nn.ensemble import Ensemble
from eud.nn.network import Parser
from eud.nn.vocab import Vocab, vocabs_from_json, vocabs_to_json

FORMAT = "eud-parser/1"
SHORTCUTS = ("minilm",)
WEIGHTS = ("fp32", "fp16", "int8")
INT8_MIN_ROW = 16
SCALE = ":scale"


class PackageError(ValueError):
    """A model folder that cannot be loaded (missing file, wrong format)."""


def _prefix_of_frozen(model: Parser) -> list[str]:
    enc = model.encoder.transformer
    if enc is None or model.config["encoder"].get("transformer") not in SHORTCUTS:
        return []
    return ["encoder.transformer.model." + name for name in enc.frozen_prefixes()]


def weights_storage(config: dict[str, Any]) -> str:
    """How a package stores its weights: the ``weights`` key, else the older ``fp16_weights`` flag."""
    storage = config.get("weights") or ("fp16" if config.get("fp16_weights", True) else "fp32")
    if storage not in WEIGHTS:
        raise PackageError(f"unknown weights storage {storage!r} (expected one of {', '.join(WEIGHTS)})")
    return str(storage)


def encode_weights(state: dict[str, torch.Tensor], storage: str) -> dict[str, torch.Tensor]:
    """fp32 tensors -> the tensors written to model.safetensors for ``storage``."""
    out: dict[str, torch.Tensor] = {}
    for name, value in state.items():
        value = value.detach()
        if value.is_floating_point() and storage != "fp32":
            if storage == "int8" and value.dim() >= 2 and value.shape[-1] >= INT8_MIN_ROW:
                value = value.float()
                scale = value.abs().amax(dim=-1, keepdim=True).clamp_min(1e-12) / 127.0
                out[name + SCALE] = scale.squeeze(-1).contiguous().clone()
                value = torch.round(value / scale).clamp(-127, 127).to(torch.int8)
            else:
                value = value.half()
        out[name] = value.contiguous().clone()
    return out


def decode_weights(stored: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The tensors of model.safetensors, in any storage -> fp32 (integer buffers stay as they are)."""
    state: dict[str, torch.Tensor] = {}
    for name, value in stored.items():
        if name.endswith(SCALE):
            continue
        scale = stored.get(name + SCALE)
        if scale is not None:
            value = value.float() * scale.float().unsqueeze(-1)
        elif value.is_floating_point():
            value = value.float()
        state[name] = value
    return state


def save_package(folder: Path, model: Parser, vocabs: dict[str, Vocab], config: dict[str, Any]) -> None:
    """Write config.json, vocab.json, model.safetensors (and encoder/ when needed) into ``folder``."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    skip = set(_prefix_of_frozen(model))
    state = {name: value for name, value in model.state_dict().items() if name not in skip}
    save_file(encode_weights(state, weights_storage(config)), str(folder / "model.safetensors"),
              metadata={"format": FORMAT})
    enc = model.encoder.transformer
    if enc is not None and config["encoder"].get("transformer") not in SHORTCUTS:
        if hasattr(enc.tokenizer, "save_pretrained"):  # a transformers model
            enc.tokenizer.save_pretrained(str(folder / "encoder"))
            enc.model.config.save_pretrained(str(folder / "encoder"))
        else:  # eud.nn.bert
            from eud.nn.bert import copy_files

            copy_files(enc.source, folder / "encoder")
    (folder / "config.json").write_text(json.dumps({"format": FORMAT, **config}, indent=2, ensure_ascii=False) + "\n")
    (folder / "vocab.json").write_text(json.dumps(vocabs_to_json(vocabs), ensure_ascii=False) + "\n")


def store_package_weights(folder: str | Path, storage: str, *, drop_graph_scorer: bool = False) -> None:
    """Rewrite a finished package's weights in another storage (``int8`` to ship it smaller).

    The weights are read back to fp32 first, so converting an fp16 package to int8 quantizes
    the fp16 values; config.json records the new storage.  Each file is replaced atomically.
    With ``drop_graph_scorer`` the enhanced-graph scorer goes too (``model.graph = false``):
    only for a package whose graphs come from the rules (``graph_mode = "rules"``), which
    never runs it.
    """
    from safetensors.torch import load_file, save_file

    folder = Path(folder)
    config = load_config(folder)
    _check_files(folder, config)
    if drop_graph_scorer and config.get("graph_mode") != "rules":
        raise PackageError(f"{folder}: graph_mode is {config.get('graph_mode')!r}, not 'rules': "
                           "its graphs need the graph scorer")
    config.pop("fp16_weights", None)
    config["weights"] = storage
    weights_storage(config)
    if drop_graph_scorer:
        config["model"] = {**config.get("model", {}), "graph": False}
    for name in weight_files(config):
        weights = folder / name
        state = decode_weights(load_file(str(weights)))
        if drop_graph_scorer:
            state = {key: value for key, value in state.items() if not key.startswith("graph.")}
        tmp = temporary_name(weights)
        try:
            save_file(encode_weights(state, storage), tmp, metadata={"format": FORMAT})
            os.replace(tmp, weights)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    write_text_atomically(folder / "config.json", json.dumps(config, indent=2, ensure_ascii=False) + "\n")


def load_config(folder: Path) -> dict[str, Any]:
    """The config.json of a package, checked for format."""
    path = folder / "config.json"
    if not path.is_file():
        raise PackageError(f"{folder}: not a model package (no config.json)")
    config = json.loads(path.read_text())
    if config.get("format") != FORMAT:
        raise PackageError(f"{path}: unknown model format {config.get('format')!r} (expected {FORMAT})")
    return config


def weight_files(config: dict[str, Any]) -> list[str]:
    """The package's weight files: ``model.safetensors``, then an ensemble's other members."""
    return ["model.safetensors", *config.get("members", [])]


def _check_files(folder: Path, config: dict[str, Any] | None = None) -> None:
    for name in ("vocab.json", *weight_files(config or {})):
        if not (folder / name).is_file():
            raise PackageError(f"{folder}: model package has no {name}")


def load_package(folder: str | Path) -> tuple[Parser | Ensemble, dict[str, Vocab], dict[str, Any]]:
    """Rebuild a parser (an :class:`~eud.nn.ensemble.Ensemble` when the config lists ``members``) from a package folder, ready for prediction."""
    from safetensors.torch import load_file

    folder = Path(folder)
    config = load_config(folder)
    _check_files(folder, config)
    vocabs = vocabs_from_json(json.loads((folder / "vocab.json").read_text()))
    enc = config["encoder"]
    source, from_config = None, False
    if enc.get("transformer"):
        if enc["transformer"] in SHORTCUTS:
            source = named_transformer(enc["transformer"])
        else:
            source, from_config = str(folder / "encoder"), True
    models = []
    for name in weight_files(config):
        model = Parser(config, vocabs, transformer_source=source, from_config=from_config)
        state = decode_weights(load_file(str(folder / name)))
        missing, unexpected = model.load_state_dict(state, strict=False)
        allowed = set(_prefix_of_frozen(model))
        bad = [k for k in missing if k not in allowed]
        if bad or unexpected:
            raise PackageError(f"{folder / name}: weights do not match the model (missing {bad[:3]}, unexpected {unexpected[:3]})")
        models.append(model.eval())
    if len(models) == 1:
        return models[0], vocabs, config
    return Ensemble(models).eval(), vocabs, config


def add_members(folder: str | Path, others: list[str | Path]) -> None:
    """Make the package in ``folder`` an ensemble with the packages ``others`` (the same recipe, other seeds).

    Their label tables must be the package's (same training files and settings); their weights are
    copied in as ``member-2.safetensors``, ... and listed in ``config.json``.
    """
    import shutil

    folder = Path(folder)
    config = load_config(folder)
    _check_files(folder, config)
    if config.get("members"):
        raise PackageError(f"{folder}: already an ensemble")
    if config.get("model", {}).get("graph", True):
        raise PackageError(f"{folder}: only packages without a graph scorer (graph = false) make an ensemble")
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    names = []
    for n, other in enumerate(map(Path, others), 2):
        other_config = load_config(other)
        _check_files(other, other_config)
        if json.loads((other / "vocab.json").read_text(encoding="utf-8")) != vocab:
            raise PackageError(f"{other}: its label tables differ from {folder}'s (not the same training data and settings)")
        if weights_storage(other_config) != weights_storage(config):
            raise PackageError(f"{other}: weights stored as {weights_storage(other_config)}, "
                               f"not {weights_storage(config)} as in {folder}")
        names.append(f"member-{n}.safetensors")
        shutil.copyfile(other / "model.safetensors", folder / names[-1])
    config["members"] = names
    write_text_atomically(folder / "config.json", json.dumps(config, indent=2, ensure_ascii=False) + "\n")
