"""Data files a parser package learns from its training treebank: ``lexicon.json``, ``feats.json``.

Each file holds one table, ``{"format": F, KEY: table}``, or in a multilingual package one
table per language, ``{"format": F, "languages": {lang: table}}``.  Their modules
(:mod:`eud.nn.lexicon`, :mod:`eud.nn.morphology`) build the tables; this one reads and writes
the files and gives both the same command line (``python -m eud.nn.lexicon DIR TRAIN...``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from eud.atomic import write_text_atomically
from eud.graph import Sentence


def write_table(path: Path, fmt: str, key: str, table: dict, lang: str | None = None) -> Path:
    """Write one table; with ``lang``, that language's table of a multilingual file (the others are kept)."""
    if lang is None:
        data: dict = {"format": fmt, key: table}
    else:
        old = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        data = {"format": fmt, "languages": {**old.get("languages", {}), lang: table}}
    write_text_atomically(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
    return path


def read_table(path: Path, fmt: str, key: str, lang: str | None = None) -> dict | None:
    """The file's table (``lang``'s in a multilingual file); None without the file or that language's table.

    ValueError naming the file when it is no JSON, of another format, or without its table.
    """
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not a JSON file ({err})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        found = data.get("format") if isinstance(data, dict) else None
        raise ValueError(f"{path}: unknown format {found!r} (expected {fmt!r})")
    if "languages" in data:
        return data["languages"].get(lang) if lang else None
    table = data.get(key)
    if isinstance(table, dict):
        return table
    raise ValueError(f"{path}: no {key!r} table")


def command_parser(prog: str, description: str | None, conllu_nargs: str = "+") -> argparse.ArgumentParser:
    """The shared arguments: a package folder, its training CoNLL-U files and ``--lang``."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("package", type=Path, help="parser package folder")
    parser.add_argument("conllu", type=Path, nargs=conllu_nargs, help="training CoNLL-U files (.xz ok)")
    parser.add_argument("--lang", help="a multilingual package: write this language's table (keeps the others)")
    return parser


def is_package(folder: Path, name: str) -> bool:
    """Whether ``folder`` is a model package; says why not on stderr."""
    if (folder / "config.json").is_file():
        return True
    print(f"{name}: {folder}: not a model package (no config.json)", file=sys.stderr)
    return False


def run_command(args: argparse.Namespace, name: str,
                write: Callable[[Path, Iterable[Sentence], str | None], Path]) -> int:
    """Build the file from ``args.conllu`` into ``args.package``; exit status 2 on unreadable input."""
    from eud.conllu import ConlluError, read_conllu

    try:
        path = write(args.package, (s for p in args.conllu for s in read_conllu(p)), args.lang)
    except (OSError, ConlluError) as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    print(f"{path}: {path.stat().st_size / 1e6:.2f} MB", file=sys.stderr)
    return 0
