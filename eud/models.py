"""Finding a model package by path, language code or treebank code.

A model is a folder (see :mod:`eud.nn.package`).  :func:`find_model` takes an
existing folder as is; otherwise it looks among the shipped models, in
``$EUD_MODELS`` if set, else the repository's ``models/``.  A code matches,
in this order: a folder of that name; a model whose ``config.json``
``language`` is that code; the first model, by folder name, of the same
language (``en`` finds a model whose language is ``en_ewt``, and ``en_gum``
one whose language is ``en``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

REPO_MODELS = Path(__file__).resolve().parent.parent / "models"


class ModelNotFound(ValueError):
    """No model folder or shipped model for a name; the message lists what ships."""


def models_dir() -> Path:
    """Where the shipped models live: ``$EUD_MODELS`` or the repository's ``models/``."""
    return Path(os.environ.get("EUD_MODELS") or REPO_MODELS)


def shipped_models(folder: Path | None = None) -> dict[str, str]:
    """Shipped model folder name -> the language its config.json names (``""`` if none)."""
    folder = folder or models_dir()
    found: dict[str, str] = {}
    for config in sorted(folder.glob("*/config.json")):
        try:
            found[config.parent.name] = str(json.loads(config.read_text(encoding="utf-8")).get("language", ""))
        except (OSError, ValueError):
            continue  # not a readable package: not offered
    return found


def find_model(name_or_path: str | os.PathLike) -> Path:
    """The model folder for a path, a treebank code (``en_ewt``) or a language code (``en``)."""
    path = Path(name_or_path)
    if path.is_dir():
        return path
    name = str(name_or_path)
    folder = models_dir()
    shipped = shipped_models(folder)
    if name in shipped:
        return folder / name
    for model, language in shipped.items():
        if language == name:
            return folder / model
    for model, language in shipped.items():
        if language.split("_")[0] == name.split("_")[0]:
            return folder / model
    listing = ", ".join(f"{m} ({lang or '?'})" for m, lang in shipped.items()) or "none"
    raise ModelNotFound(f"{name}: no such model folder, and no shipped model for it in {folder} (shipped: {listing})")
