"""Training and dev files as configs name them: a path, or a table with per-file options.

A config's ``train`` (and ``extra_dev``) is a path or a list whose items are paths or tables::

    train = [
      "en_ewt-ud-train.conllu.xz",
      {path = "gapping-orphan-basic.train.conllu.xz", repeat = 5, enhanced = false},
      {path = "en_gum-ud-train.conllu.xz", augment = "gapping-any-verb"},
    ]

- ``repeat``: how many copies of the file one epoch holds (oversampling).
- ``enhanced = false``: drop the DEPS column and empty nodes while reading, for files whose
  enhanced layer is partial or points at nodes the file lacks; the graph scorer then
  skips these sentences instead of learning their missing edges as negatives.
- ``lang``: the language code the file trains (default: the file name up to its first ``_``,
  ``cs_cac-ud-dev.conllu`` → ``cs``); a multilingual model (``encoder.lang_dim`` > 0) embeds it.
- ``augment``: keep only synthetic copies made by :mod:`eud.gapping.augment`
  (``"gapping"``: same-lemma verbs; ``"gapping-any-verb"``: any two coordinated verbs;
  ``"gapping-any-verb-aux"``: the same, the second verb's auxiliaries elided with it).
- ``tune_every``: this file's share of the tuning slice, overriding the config's ``tune_every``
  (``0``: train on all of it; ``2``: hold every second sentence apart), so that a slice can come
  from one file (an in-domain dev split) while the others train whole.
- ``upgrade``: bring a file from an older UD release to today's conventions while reading it
  (:data:`eud.nn.releases.UPGRADES`, e.g. ``"lv_r2.0"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from eud.conllu import open_text, parse_conllu
from eud.gapping.augment import augment
from eud.graph import Sentence
from eud.nn.releases import UPGRADES

# name → options of eud.gapping.augment.augment
AUGMENTS = {
    "gapping": {"same_lemma": True},
    "gapping-any-verb": {"same_lemma": False},
    "gapping-any-verb-aux": {"same_lemma": False, "auxiliaries": True},
    "gapping-splice": {"splice": True},
}
KEYS = ("path", "repeat", "enhanced", "augment", "lang", "tune_every", "upgrade")


def file_entries(value: Any, base: Path, key: str) -> list[dict[str, Any]]:
    """Normalise a config value (path, table or list of them) to tables with absolute paths; ValueError if malformed."""
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        entry = {"path": item} if isinstance(item, str) else dict(item) if isinstance(item, dict) else None
        if entry is None or not isinstance(entry.get("path"), str):
            raise ValueError(f"{key}: each item is a path or a table with a 'path' key, not {item!r}")
        unknown = sorted(set(entry) - set(KEYS))
        if unknown:
            raise ValueError(f"{key}: unknown key(s) {', '.join(unknown)} (known: {', '.join(KEYS)})")
        if entry.get("augment") is not None and entry["augment"] not in AUGMENTS:
            raise ValueError(f"{key}: unknown augment {entry['augment']!r} (known: {', '.join(AUGMENTS)})")
        if entry.get("upgrade") is not None and entry["upgrade"] not in UPGRADES:
            raise ValueError(f"{key}: unknown upgrade {entry['upgrade']!r} (known: {', '.join(UPGRADES)})")
        repeat = entry.get("repeat", 1)
        if not isinstance(repeat, int) or repeat < 1:
            raise ValueError(f"{key}: repeat must be a whole number >= 1, not {repeat!r}")
        tune_every = entry.get("tune_every")
        if tune_every is not None and (not isinstance(tune_every, int) or tune_every < 0):
            raise ValueError(f"{key}: tune_every must be a whole number >= 0, not {tune_every!r}")
        p = Path(entry["path"])
        out.append({"path": str(p if p.is_absolute() else base / p), "repeat": repeat,
                    "enhanced": bool(entry.get("enhanced", True)), "augment": entry.get("augment"),
                    "lang": str(entry.get("lang") or language_of(p.name))}
                   | ({"tune_every": tune_every} if tune_every is not None else {})
                   | ({"upgrade": entry["upgrade"]} if entry.get("upgrade") else {}))
    return out


def language_of(filename: str) -> str:
    """The language code a treebank file name starts with (``cs_cac-ud-dev.conllu.xz`` → ``cs``)."""
    return filename.split("_")[0].split("-")[0].split(".")[0]


def strip_enhanced(text: str) -> str:
    """CoNLL-U text without empty-node lines and with DEPS ``_`` everywhere."""
    lines = []
    for line in text.split("\n"):
        if line and not line.startswith("#"):
            cols = line.split("\t")
            if "." in cols[0]:
                continue
            if len(cols) == 10:
                cols[8] = "_"
                line = "\t".join(cols)
        lines.append(line)
    return "\n".join(lines)


def read_entry(entry: dict[str, Any]) -> list[Sentence]:
    """The sentences of one file entry, once (``repeat`` is applied by :func:`read_entries`)."""
    path = entry["path"]
    with open_text(path) as f:
        text = f.read()
    if not entry.get("enhanced", True):
        text = strip_enhanced(text)
    sentences = parse_conllu(text, name=path)
    if entry.get("upgrade"):
        for sentence in sentences:
            UPGRADES[entry["upgrade"]](sentence)
    if entry.get("augment"):
        sentences = list(augment(sentences, **AUGMENTS[entry["augment"]]))
    return sentences


def read_entries(entries: list[dict[str, Any]]) -> list[Sentence]:
    """Every entry's sentences, each repeated ``repeat`` times (copies share the objects: training only reads them)."""
    out: list[Sentence] = []
    for entry in entries:
        out.extend(read_entry(entry) * int(entry.get("repeat", 1)))
    return out


def describe(entry: dict[str, Any]) -> str:
    """One line for logs and model cards: file name and options."""
    opts = []
    if entry.get("repeat", 1) != 1:
        opts.append(f"×{entry['repeat']}")
    if not entry.get("enhanced", True):
        opts.append("DEPS dropped")
    if entry.get("augment"):
        opts.append(f"synthetic {entry['augment']}")
    if entry.get("upgrade"):
        opts.append(f"upgraded from {entry['upgrade']}")
    if entry.get("tune_every"):
        opts.append(f"one sentence in {entry['tune_every']} held apart for tuning")
    return Path(entry["path"]).name + (f" ({', '.join(opts)})" if opts else "")


def read_split(entries: list[dict[str, Any]], tune_every: int) -> tuple[list[Sentence], list[str], dict[str, list[Sentence]]]:
    """Training sentences with their language codes, and the held-apart tuning slice per language.

    With ``tune_every`` = k > 0, every k-th sentence of each file (index % k == 0, counted before
    ``repeat``) is held apart for tuning and never trained on; 0 holds nothing apart.  A file's
    own ``tune_every`` overrides k for that file.
    """
    train: list[Sentence] = []
    langs: list[str] = []
    tune: dict[str, list[Sentence]] = {}
    for entry in entries:
        sentences = read_entry(entry)
        every = entry.get("tune_every", tune_every)
        if every:
            tune.setdefault(entry["lang"], []).extend(sentences[::every])
            sentences = [s for i, s in enumerate(sentences) if i % every]
        copies = sentences * int(entry.get("repeat", 1))
        train.extend(copies)
        langs.extend([entry["lang"]] * len(copies))
    return train, langs, tune
