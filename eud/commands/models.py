"""``eud models``: the shipped models, the languages each serves, and their test figures.

Figures come from each model's ``scores.json`` (written by ``eval/parser/iwpt.py``: raw text
in, official scorer); a model without one shows ``-``.  Reads no weights, so it is instant.

``eud models --store int8 FOLDER...`` rewrites packages' weights in another storage (int8 rows
with a scale each: about half the size of fp16; see :mod:`eud.nn.package`); with
``--drop-graph-scorer`` a package whose graphs come from the rules loses the scorer it never runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from eud.registry import helper_languages, model_config, model_languages, models_dir, shipped_models

COLUMNS = ("LAS", "ELAS")


def scores_of(folder: Path) -> dict[str, Any]:
    """A model's ``scores.json`` (``{}`` when absent or unreadable)."""
    try:
        return dict(json.loads((folder / "scores.json").read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def listing(folder: Path | None = None) -> list[str]:
    """The lines ``eud models`` prints."""
    folder = folder or models_dir()
    lines = [f"models in {folder}:"]
    for name in shipped_models(folder):
        config = model_config(folder / name)
        languages = model_languages(folder / name)
        encoder = config.get("encoder", {})
        kind = encoder.get("transformer") or encoder.get("type", "?")
        if config.get("members"):
            kind += f" x{1 + len(config['members'])}, an ensemble"
        helpers = helper_languages(folder / name)
        learned = f" (learned with {', '.join(helpers)})" if helpers else ""
        lines.append(f"  {name}  [{kind}]  languages: {', '.join(languages) or '?'}{learned}")
        scores = scores_of(folder / name)
        for treebank, sc in sorted(scores.get("test", {}).items()):
            figures = "  ".join(f"{k} {sc[k]:.2f}" if isinstance(sc.get(k), (int, float)) else f"{k} -"
                                for k in COLUMNS)
            lines.append(f"      test {treebank:<16} {figures}  (from {scores.get('input', 'raw text')})")
        if not scores.get("test"):
            lines.append("      test figures: - (none recorded)")
    if len(lines) == 1:
        lines.append("  (none)")
    lines.append("parse with: eud parse --lang CODE FILE   (or --model FOLDER)")
    return lines


def store(storage: str | None, folders: list[Path], drop_graph_scorer: bool = False) -> int:
    """``--store``: rewrite each package's weights; a folder that is not a package is an error."""
    if not storage or not folders:
        print("eud models: --store needs a storage and at least one model folder", file=sys.stderr)
        return 2
    from eud.nn.package import PackageError, store_package_weights

    for folder in folders:
        before = (folder / "model.safetensors").stat().st_size if (folder / "model.safetensors").is_file() else 0
        try:
            store_package_weights(folder, storage, drop_graph_scorer=drop_graph_scorer)
        except (PackageError, OSError) as err:
            print(f"eud models: {err}", file=sys.stderr)
            return 2
        after = (folder / "model.safetensors").stat().st_size
        print(f"{folder}: weights {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB ({storage})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``eud models``."""
    ap = argparse.ArgumentParser(prog="eud models", description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", help="models folder (default: $EUD_MODELS or the repository's models/)")
    ap.add_argument("--store", choices=("fp32", "fp16", "int8"),
                    help="rewrite the weights of the package FOLDERs in this storage (needs the nn extra)")
    ap.add_argument("--drop-graph-scorer", action="store_true",
                    help="with --store: leave out the enhanced-graph scorer of packages whose graphs come from "
                         "the rules (graph_mode = rules), which never run it")
    ap.add_argument("folders", nargs="*", type=Path, help="model packages for --store")
    args = ap.parse_args(argv)
    if args.store or args.folders:
        return store(args.store, args.folders, args.drop_graph_scorer)
    folder = Path(args.dir) if args.dir else None
    if folder is not None and not folder.is_dir():
        print(f"eud models: {folder}: no such folder", file=sys.stderr)
        return 2
    print("\n".join(listing(folder)))
    return 0
