"""Finding a model package by path, language code or treebank code.

A model is a folder (see :mod:`eud.nn.package`).  :func:`find_model` takes an
existing folder as is; otherwise it looks among the shipped models, in
``$EUD_MODELS`` if set, else the repository's ``models/``.  A code matches,
in this order: a folder of that name; a model whose ``config.json``
``language`` is that code; the first model, by folder name, of the same
language (``en`` finds a model whose language is ``en_ewt``, and ``en_gum``
one whose language is ``en``).

A multilingual model lists its languages in ``config.json`` (``"languages": ["bg", "cs", ...]``);
it serves each of them, after any model made for that language alone.  :func:`resolve_model` also
says which language a multilingual model should parse (the code the user gave).  A language
with no model here (Arabic: no training data ships) gets a :class:`ModelNotFound` naming the
language and how to train a model with ``eud train``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO_MODELS = Path(__file__).resolve().parent.parent / "models"
# Language names for messages; NO_DATA: IWPT languages for which no training data shipped.
LANGUAGE_NAMES = {"ar": "Arabic", "bg": "Bulgarian", "cs": "Czech", "nl": "Dutch", "en": "English", "et": "Estonian",
                  "fi": "Finnish", "fr": "French", "it": "Italian", "lv": "Latvian", "lt": "Lithuanian",
                  "pl": "Polish", "ru": "Russian", "sk": "Slovak", "sv": "Swedish", "ta": "Tamil", "uk": "Ukrainian"}


class ModelNotFound(ValueError):
    """No model folder or shipped model for a name; the message lists what ships."""


NO_DATA = frozenset({"ar"})


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


def model_config(folder: Path) -> dict[str, Any]:
    """A model folder's config.json as a dict (``{}`` when unreadable); no weights are read."""
    try:
        return dict(json.loads((folder / "config.json").read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def shared_encoder_language(config: dict[str, Any]) -> str:
    """The language a package was made for when it learned with the help of others' treebanks (a shared
    encoder: its ``language`` is among its ``languages``); ``""`` for any other package."""
    own = str(config.get("language", ""))
    return own if own and own.split("_")[0] in (config.get("languages") or []) else ""


def model_languages(folder: Path) -> list[str]:
    """The languages a model serves: its ``languages`` list, else its one ``language``.

    A shared-encoder package (:func:`shared_encoder_language`) serves its own language alone;
    :func:`helper_languages` lists the others.
    """
    config = model_config(folder)
    own = shared_encoder_language(config)
    if own:
        return [own]
    return [str(x) for x in config.get("languages") or [config.get("language", "")] if x]


def helper_languages(folder: Path) -> list[str]:
    """The languages a shared-encoder model learned from besides its own (none for other models)."""
    config = model_config(folder)
    own = shared_encoder_language(config).split("_")[0]
    return [str(x) for x in config["languages"] if x != own] if own else []


def find_model(name_or_path: str | os.PathLike) -> Path:
    """The model folder for a path, a treebank code (``en_ewt``) or a language code (``en``)."""
    return resolve_model(name_or_path)[0]


def resolve_model(name_or_path: str | os.PathLike) -> tuple[Path, str]:
    """The model folder and the language code it should parse, for a path, a treebank or a language code.

    The language is the code asked for (``cs`` or ``cs_cac``) when a multilingual model serves it
    or its language, else the model's own ``language``.
    """
    path = Path(name_or_path)
    if path.is_dir():
        return path, str(model_config(path).get("language", ""))
    name = str(name_or_path)
    folder = models_dir()
    shipped = shipped_models(folder)
    if name in shipped:
        return folder / name, shipped[name]
    for model, language in shipped.items():
        if language == name:
            return folder / model, language
    prefix = name.split("_")[0]
    # A model made for the language comes before a multilingual one that also serves it.
    for model, language in shipped.items():
        if language.split("_")[0] == prefix:
            return folder / model, language
    for model in shipped:
        served = model_languages(folder / model)
        if len(served) > 1 and (name in served or prefix in served):
            return folder / model, name  # a treebank code keeps its own enhancer profile (cs_cac)
    listing = ", ".join(f"{m} ({', '.join(model_languages(folder / m)) or '?'})" for m in shipped) or "none"
    if prefix in LANGUAGE_NAMES or (len(name) in (2, 3) and name.isalpha() and name.islower()):
        language = LANGUAGE_NAMES.get(prefix, repr(prefix))
        why = (" (there was no training data for it to train one)" if prefix not in LANGUAGE_NAMES or prefix in NO_DATA
               else "")
        raise ModelNotFound(
            f"{name}: no {language} model ships with eud{why}; "
            f"shipped: {listing}. To parse {language}, train a model on a UD treebank of your own: copy "
            "eval/train_et.toml, point train/dev at your .conllu files, set language, and run "
            "`eud train --config your.toml`; then `eud parse --model <its output folder>`")
    raise ModelNotFound(f"{name}: no such model folder, and no shipped model for it in {folder} (shipped: {listing})")
