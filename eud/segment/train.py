"""Training a segmenter package from CoNLL-U (``eud train --config`` with ``task = "segmenter"``).

Config keys (TOML or JSON, read by ``eud train``; paths are relative to the config file):

``train``, ``dev``       CoNLL-U files (``.xz`` ok); dev picks the best epoch.
``output``               the package folder to write (``config.json``, ``vocab.json``,
                         ``model.safetensors``, ``mwt.json``, ``abbreviations.json``, ``MODEL.md``).
``languages``            instead of ``train``/``dev``: a table language → list of CoNLL-U
                         files for one multilingual model with a language embedding.  Every
                         ``holdout``-th sentence (10) of each file is kept apart to pick the
                         epoch; ``output`` gets ``multi/`` (weights) and one folder per language.
``min_windows`` (0)      a smaller language's windows are repeated up to this many per epoch.
``epochs`` (12)          ``patience`` (4): stop after this many epochs without a dev gain.
``seed`` (1)             ``batch_size`` (32)  ``window`` (256 characters)  ``lr`` (0.002)
``hidden`` (64)          ``layers`` (2)  ``char_dim`` (48)  ``dropout`` (0.2)
``threads`` (1)           torch threads; on a busy 2-core machine 1 is often much faster.
``max_steps`` (none)     stop each epoch after this many steps (for tests).
``resume`` (true)        continue from the checkpoint folder if it is there.
``checkpoint``           checkpoint folder (default ``output/checkpoint``).
``command``              the command the model card names (default: ``eud train --config <file>``).
``mwt_suffix_weight``    a table language → weight of the treebank's multiword rates by word
                         ending beside the network (default 0: the network alone; see
                         eud.segment.mwt; chosen by ``python -m eval.segment.mwt_cv``).

Each epoch ends with a checkpoint (weights and optimizer state as tensors, no
pickled code); the best epoch on dev is what the package holds.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from eud.graph import Sentence
from eud.progress import progress
from eud.segment.abbreviations import Abbreviations
from eud.segment.data import SENT_MWT, TOKEN_MWT, Paragraph, paragraphs, read_paragraphs
from eud.segment.network import BREAK, CharSegmenter, Vocab

DEFAULTS = {
    "epochs": 12, "patience": 4, "seed": 1, "batch_size": 32, "window": 256, "lr": 0.002,
    "hidden": 64, "layers": 2, "char_dim": 48, "cat_dim": 8, "dropout": 0.2, "max_steps": None,
    "resume": True, "threads": 1, "min_char_count": 2, "max_sentence_tokens": 300,
    "holdout": 10, "min_windows": 0, "lang_dim": 8, "mwt_suffix_weight": {},
}
IGNORE = -100


def _stream(vocab: Vocab, paras: list[Paragraph]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """All paragraphs as one stream with BREAK between them: chars, cats, labels ``[N]``."""
    chars, cats, labels = [BREAK], [BREAK], [IGNORE]
    for p in paras:
        c, k = vocab.encode(p.text)
        chars += c + [BREAK]
        cats += k + [BREAK]
        labels += p.labels + [IGNORE]
    return torch.tensor(chars), torch.tensor(cats), torch.tensor(labels)


def _join(streams: list[tuple[torch.Tensor, ...]]) -> tuple[tuple[torch.Tensor, ...], list[tuple[int, int]]]:
    """One stream made of several, and the ``(start, end)`` of each part in it."""
    bounds, start = [], 0
    for chars, _, _ in streams:
        bounds.append((start, start + len(chars)))
        start += len(chars)
    return tuple(torch.cat([s[k] for s in streams]) for k in range(3)), bounds


def _batches(stream: tuple[torch.Tensor, ...], bounds: list[tuple[int, int]], window: int, batch_size: int,
             rng: random.Random, min_windows: int = 0):
    """Shuffled windows ``[B, window]`` of each part of the stream, from a random offset, with the part's index ``[B]``.

    Windows never cross parts; a part with fewer than ``min_windows`` windows
    has some repeated at random places.
    """
    chars, cats, labels = stream
    starts: list[tuple[int, int]] = []
    for n, (begin, end) in enumerate(bounds):
        offset = rng.randrange(window)
        mine = list(range(begin + offset, end - window, window))
        if end - begin > window and len(mine) < min_windows:
            mine += [rng.randrange(begin, end - window) for _ in range(min_windows - len(mine))]
        starts += [(n, x) for x in mine]
    rng.shuffle(starts)
    for b in range(0, len(starts), batch_size):
        group = starts[b:b + batch_size]
        idx = torch.tensor([x for _, x in group]).unsqueeze(1) + torch.arange(window)  # [B, window]
        yield chars[idx], cats[idx], labels[idx], torch.tensor([n for n, _ in group])


def decide(probs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Token end, sentence end and multiword flags ``[N]`` from class probabilities ``[N, 5]``."""
    end = probs[:, 1:].sum(-1)
    sent = probs[:, 3] + probs[:, 4]
    mwt = probs[:, 2] + probs[:, 4]
    token_end = end > 0.5
    return token_end, token_end & (sent > 0.5 * end), token_end & (mwt > 0.5 * end)


def _f1(gold: torch.Tensor, pred: torch.Tensor) -> float:
    tp = (gold & pred).sum().item()
    denom = gold.sum().item() + pred.sum().item()
    return 100.0 * 2 * tp / denom if denom else 100.0


def evaluate_chars(model: CharSegmenter, vocab: Vocab, paras: list[Paragraph], lang: int | None = None) -> dict[str, float]:
    """Character-level F1 of token ends, sentence ends and multiword tokens on labelled paragraphs."""
    from eud.segment.network import predict_many

    golds, preds = [], []
    for p, probs in zip(paras, predict_many(model, vocab, [p.text for p in paras], lang=lang)):
        tok, sent, mwt = decide(probs)
        text = p.text
        # Whitespace ends a token whatever the model says; the paragraph end ends a sentence.
        follows_space = torch.tensor([i + 1 >= len(text) or text[i + 1].isspace() for i in range(len(text))])
        is_space = torch.tensor([ch.isspace() for ch in text])
        tok = (tok | follows_space) & ~is_space
        sent = sent & tok
        sent[len(text) - 1] = True
        gold = torch.tensor(p.labels)
        golds.append(torch.stack([gold > 0, gold >= 3, (gold == 2) | (gold == 4)]))
        preds.append(torch.stack([tok, sent, mwt & tok]))
    g = torch.cat(golds, 1)
    q = torch.cat(preds, 1)
    return {"tokens": _f1(g[0], q[0]), "sentences": _f1(g[1], q[1]), "mwt": _f1(g[2], q[2])}


def _resolve(config: dict, config_path: Path, key: str) -> Path:
    value = Path(config[key])
    return value if value.is_absolute() else (config_path.parent / value)


def write_mwt(folder: Path, mwt_json: dict) -> None:
    """Write a package's ``mwt.json`` (:meth:`eud.segment.mwt.MwtExpander.to_json`)."""
    (folder / "mwt.json").write_text(json.dumps(mwt_json, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def save_package(out: Path, model: CharSegmenter, vocab: Vocab, settings: dict, mwt_json: dict) -> None:
    """Write the plain-data package: config.json, vocab.json, model.safetensors, mwt.json."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    (out / "vocab.json").write_text(json.dumps(vocab.to_json(), ensure_ascii=False) + "\n", encoding="utf-8")
    write_mwt(out, mwt_json)
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(out / "model.safetensors"))


@dataclass
class _Corpus:
    """One language's labelled paragraphs (train and the slice that picks the epoch) and training sentences."""

    lang: str | None
    files: list[Path]
    train: list[Paragraph]
    dev: list[Paragraph]
    sentences: list[Sentence]
    stats: dict[str, int]


def train_segmenter(config: dict, config_path: Path) -> int:
    """Train a segmenter from ``config`` (see the module doc) and write its package.

    Returns an exit code: 0, or 2 after printing a one-line message for a bad
    config or unreadable data.
    """
    from eud.conllu import ConlluError

    multi = "languages" in config
    required = ("languages", "output") if multi else ("train", "dev", "output")
    missing = [key for key in required if key not in config]
    unknown = sorted(set(config) - set(DEFAULTS) - {"task", "checkpoint", "train", "dev", "output", "languages", "command"})
    if missing or unknown:
        problem = f"missing key(s) {', '.join(missing)}" if missing else f"unknown key(s) {', '.join(unknown)}"
        print(f"eud train: {config_path}: segmenter config: {problem}", file=sys.stderr)
        return 2
    files = [(key, _resolve(config, config_path, key)) for key in ("train", "dev")] if not multi else [
        (lang, _resolve({"f": f}, config_path, "f")) for lang, fs in config["languages"].items() for f in fs]
    for key, path in files:
        if not path.is_file():
            print(f"eud train: {config_path}: {key} file {path} not found", file=sys.stderr)
            return 2
    try:
        _train(config, config_path)
    except ConlluError as err:
        print(f"eud train: {err}", file=sys.stderr)
        return 2
    return 0


def _corpora(cfg: dict, config_path: Path) -> list[_Corpus]:
    """The training material: one corpus (train and dev files), or one per language with a held-out slice."""
    from eud.conllu import read_conllu

    if "languages" not in cfg:
        train_path, dev_path = _resolve(cfg, config_path, "train"), _resolve(cfg, config_path, "dev")
        stats: dict[str, int] = {}
        train = read_paragraphs(train_path, stats)
        return [_Corpus(None, [train_path, dev_path], train, read_paragraphs(dev_path),
                        list(read_conllu(train_path)), stats)]
    out = []
    every = int(cfg["holdout"])
    for lang, names in cfg["languages"].items():
        paths = [_resolve({"f": f}, config_path, "f") for f in names]
        kept: list[Sentence] = []
        held: list[Sentence] = []
        for path in paths:
            for i, sentence in enumerate(read_conllu(path)):
                (held if i % every == 0 else kept).append(sentence)
        stats = {}
        out.append(_Corpus(lang, paths, list(paragraphs(kept, stats)), list(paragraphs(held)), kept, stats))
    return out


def _suffix_weight(cfg: dict, lang: str | None) -> float:
    """A language's ``mwt_suffix_weight`` (a table of the config, by language; 0 when not set): how
    much the treebank's multiword rates by word ending count beside the network (eud.segment.mwt)."""
    return float(cfg["mwt_suffix_weight"].get(lang or "", 0.0))


def _train(config: dict, config_path: Path) -> None:
    from eud.segment.mwt import MwtExpander

    cfg = {**DEFAULTS, **config}
    out = _resolve(cfg, config_path, "output")
    torch.set_num_threads(int(cfg["threads"]))
    random.seed(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    rng = random.Random(cfg["seed"])

    corpora = _corpora(cfg, config_path)
    for c in corpora:
        print(f"segmenter{' ' + c.lang if c.lang else ''}: {c.stats['paragraphs']} training paragraphs "
              f"({sum(len(p.text) for p in c.train)} characters, {c.stats['skipped']} skipped), "
              f"{len(c.dev)} dev paragraphs", file=sys.stderr)
    langs = [c.lang for c in corpora if c.lang is not None]
    vocab = Vocab.build([p.text for c in corpora for p in c.train], cfg["min_char_count"])
    extras = [(MwtExpander.build(c.sentences, suffix_weight=_suffix_weight(cfg, c.lang)).to_json(),
               Abbreviations.learn(c.sentences)) for c in corpora]
    settings = {
        "format": "eud-segmenter/1", "n_chars": len(vocab.chars), "n_cats": len(vocab.categories),
        "char_dim": cfg["char_dim"], "cat_dim": cfg["cat_dim"], "hidden": cfg["hidden"],
        "layers": cfg["layers"], "dropout": cfg["dropout"], "max_sentence_tokens": cfg["max_sentence_tokens"],
    }
    if langs:
        settings.update(langs=langs, lang_dim=cfg["lang_dim"])
    model = CharSegmenter(settings["n_chars"], settings["n_cats"], cfg["char_dim"], cfg["cat_dim"],
                          cfg["hidden"], cfg["layers"], cfg["dropout"], len(langs), cfg["lang_dim"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    stream, bounds = _join([_stream(vocab, c.train) for c in corpora])
    # Sentence ends are rare; weighting them up a little trades precision for recall.
    weights = torch.tensor([1.0, 1.0, 2.0, 3.0, 3.0])
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights, ignore_index=IGNORE)

    def write() -> None:
        _save_all(out, model, vocab, settings, corpora, extras)

    # Languages whose tuning slice has multiword tokens: elsewhere one false alarm swings F1 from 100 to 0.
    with_mwt = {c.lang or "" for c in corpora if any(x in (TOKEN_MWT, SENT_MWT) for p in c.dev for x in p.labels)}

    ckpt = _resolve(cfg, config_path, "checkpoint") if cfg.get("checkpoint") else out / "checkpoint"
    state = {"epoch": 0, "best": -1.0, "best_epoch": 0, "history": [], "stale": 0}
    if cfg["resume"] and (ckpt / "state.json").exists():
        state = json.loads((ckpt / "state.json").read_text())
        model.load_state_dict(load_file(str(ckpt / "last.safetensors")))
        optimizer.load_state_dict(torch.load(ckpt / "optimizer.pt", weights_only=True))
        rng.setstate(_rng_state(state["rng"]))
        print(f"segmenter: resuming after epoch {state['epoch']}", file=sys.stderr)
        if langs:
            for entry in state["history"]:
                entry.update(_macro(entry["langs"], with_mwt))
        _rescore(state, write)
    ckpt.mkdir(parents=True, exist_ok=True)
    started = time.time()
    window, batch_size = cfg["window"], cfg["batch_size"]
    while state["epoch"] < cfg["epochs"] and state["stale"] < cfg["patience"]:
        epoch = state["epoch"] + 1
        model.train()
        total, steps = 0.0, 0
        per_part = [max((e - b) // window, cfg["min_windows"] if e - b > window else 0) for b, e in bounds]
        n_batches = max(1, sum(per_part) // batch_size)
        for chars, cats, labels, parts in progress(_batches(stream, bounds, window, batch_size, rng, cfg["min_windows"]),
                                                   f"epoch {epoch}", total=n_batches, unit="batch"):
            logits = model(chars, cats, parts if langs else None)  # [B, window, 5]
            loss = loss_fn(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            total += loss.item()
            steps += 1
            if cfg["max_steps"] and steps >= cfg["max_steps"]:
                break
        per_lang = {c.lang or "": evaluate_chars(model, vocab, c.dev, n if langs else None)
                    for n, c in enumerate(corpora)}
        scores = _macro(per_lang, with_mwt)
        score = selection_score(scores)
        state["epoch"] = epoch
        entry = {"epoch": epoch, "loss": total / max(1, steps), **scores}
        if langs:
            entry["langs"] = per_lang
        state["history"].append(entry)
        print(f"segmenter: epoch {epoch} loss {total / max(1, steps):.4f} dev tokens {scores['tokens']:.2f} "
              f"sentences {scores['sentences']:.2f} mwt {scores['mwt']:.2f}", file=sys.stderr)
        if score > state["best"]:
            state["best"], state["best_epoch"], state["stale"] = score, epoch, 0
            write()
        else:
            state["stale"] += 1
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(ckpt / "last.safetensors"))
        torch.save(optimizer.state_dict(), ckpt / "optimizer.pt")
        state["rng"] = _rng_json(rng.getstate())
        state["seconds"] = state.get("seconds", 0.0) + time.time() - started
        started = time.time()
        (ckpt / "state.json").write_text(json.dumps(state) + "\n")
    best = state["history"][state["best_epoch"] - 1] if state["best_epoch"] else {}
    seconds = state.get("seconds", 0.0) + time.time() - started
    if langs:
        _write_multi_cards(out, cfg, config_path, corpora, best, state, seconds)
    else:
        c = corpora[0]
        _write_card(out, cfg, config_path, c.files[0], c.files[1], c.stats, best, state, seconds)


def _save_all(out: Path, model: CharSegmenter, vocab: Vocab, settings: dict, corpora: list[_Corpus],
              extras: list[tuple[dict, Abbreviations]]) -> None:
    """Write the package (one folder), or ``multi/`` and a small folder per language."""
    if corpora[0].lang is None:
        save_package(out, model, vocab, settings, extras[0][0])
        extras[0][1].save(out)
        return
    save_package(out / "multi", model, vocab, settings, {"lexicon": {}, "rules": []})
    (out / "multi" / "mwt.json").unlink()
    for c, (mwt_json, abbreviations) in zip(corpora, extras):
        folder = out / str(c.lang)
        folder.mkdir(parents=True, exist_ok=True)
        local = {"format": settings["format"], "weights": "../multi", "lang": c.lang,
                 "max_sentence_tokens": settings["max_sentence_tokens"]}
        (folder / "config.json").write_text(json.dumps(local, indent=2) + "\n", encoding="utf-8")
        write_mwt(folder, mwt_json)
        abbreviations.save(folder)


def _macro(per_lang: dict[str, dict[str, float]], with_mwt: set[str]) -> dict[str, float]:
    """Average F1 over languages; multiword tokens only over languages that have some."""
    mwt = [s["mwt"] for lang, s in per_lang.items() if lang in with_mwt]
    return {"tokens": sum(s["tokens"] for s in per_lang.values()) / len(per_lang),
            "sentences": sum(s["sentences"] for s in per_lang.values()) / len(per_lang),
            "mwt": sum(mwt) / len(mwt) if mwt else 100.0}


def selection_score(scores: dict[str, float]) -> float:
    """Dev score that picks the best epoch: token ends weigh most (every word depends on them)."""
    return 3 * scores["tokens"] + scores["sentences"] + 0.3 * scores["mwt"]


def _rescore(state: dict, write) -> None:
    """Recompute the best epoch with :func:`selection_score` (older checkpoints used another formula).

    If the last epoch, whose weights are loaded, is now the best, the package is rewritten from it.
    """
    history = state["history"]
    if not history:
        return
    best = max(history, key=selection_score)
    state["best"] = selection_score(best)
    if best["epoch"] != state["best_epoch"] and best["epoch"] == state["epoch"]:
        write()
        state["best_epoch"] = best["epoch"]
    elif best["epoch"] != state["best_epoch"]:
        state["best"] = selection_score(history[state["best_epoch"] - 1])
    state["stale"] = state["epoch"] - state["best_epoch"]


def _rng_json(state: tuple) -> list:
    return [state[0], list(state[1]), state[2]]


def _rng_state(data: list) -> tuple:
    return (data[0], tuple(data[1]), data[2])


def _write_card(out: Path, cfg: dict, config_path: Path, train_path: Path, dev_path: Path,
                stats: dict, best: dict, state: dict, seconds: float) -> None:
    """MODEL.md: what the model was trained on, how, and how well it did on dev."""
    size = (out / "model.safetensors").stat().st_size if (out / "model.safetensors").exists() else 0
    rows = "\n".join(f"| {h['epoch']} | {h['loss']:.4f} | {h['tokens']:.2f} | {h['sentences']:.2f} | {h['mwt']:.2f} |"
                     for h in state["history"])
    command = cfg.get("command") or "eud train --config " + shlex.quote(os.path.relpath(config_path))
    text = f"""# Segmenter: {out.parent.name}

Character-level BiLSTM that finds token ends, sentence ends and multiword
tokens in raw text (`eud.segment`), trained from CoNLL-U alone.

- Training data: `{train_path.name}` ({stats.get('paragraphs', 0)} paragraphs rebuilt from `# text`, `# newpar`, `# newdoc`)
- Dev data (best epoch): `{dev_path.name}`
- Command: `{command}`
- Settings: hidden {cfg['hidden']}, layers {cfg['layers']}, char_dim {cfg['char_dim']}, window {cfg['window']}, batch {cfg['batch_size']}, lr {cfg['lr']}, seed {cfg['seed']}, epochs run {state['epoch']}
- Weights: {size / 1e6:.2f} MB; training time: {seconds / 60:.1f} min with {cfg["threads"]} torch thread(s) on a shared 2-core CPU
- Best epoch: {state['best_epoch']} (dev character-level F1: tokens {best.get('tokens', 0):.2f}, sentences {best.get('sentences', 0):.2f}, multiword {best.get('mwt', 0):.2f})
- Abbreviations (`abbreviations.json`, used by the sentence splitter): learnt from the same training file

Character-level F1 counts token and sentence *ends* per character; the UD
scores (Tokens, Words, Sentences F1 from `udeval`) are in `eval/RESULTS.md`.

| epoch | loss | dev tokens | dev sentences | dev multiword |
|---|---|---|---|---|
{rows}
"""
    (out / "MODEL.md").write_text(text, encoding="utf-8")


def _write_multi_cards(out: Path, cfg: dict, config_path: Path, corpora: list[_Corpus], best: dict,
                       state: dict, seconds: float) -> None:
    """MODEL.md for ``multi/`` (history, per-language scores) and for each language folder."""
    size = (out / "multi" / "model.safetensors").stat().st_size if (out / "multi" / "model.safetensors").exists() else 0
    command = cfg.get("command") or "eud train --config " + shlex.quote(os.path.relpath(config_path))
    rows = "\n".join(f"| {h['epoch']} | {h['loss']:.4f} | {h['tokens']:.2f} | {h['sentences']:.2f} | {h['mwt']:.2f} |"
                     for h in state["history"])
    scores = best.get("langs", {})

    def files(c: _Corpus) -> str:
        return ", ".join(f"`{p.name}`" for p in c.files)

    per_lang = "\n".join(
        f"| {c.lang} | {files(c)} | {c.stats['paragraphs']} | {sum(len(p.text) for p in c.train)} | "
        f"{scores.get(c.lang, {}).get('tokens', 0):.2f} | {scores.get(c.lang, {}).get('sentences', 0):.2f} | "
        f"{scores.get(c.lang, {}).get('mwt', 0):.2f} |" for c in corpora)
    every = cfg["holdout"]
    text = f"""# Segmenter: multilingual ({len(corpora)} languages)

One character-level BiLSTM for every language below, with a language
embedding ({cfg['lang_dim']} dimensions) added to each character's input
(`eud.segment`); each language's folder beside this one (`../<lang>/`) holds
its multiword-token lexicon (`mwt.json`) and abbreviations
(`abbreviations.json`) and points at these weights.

- Command: `{command}`
- Training data: every sentence of the files below except every {every}th (index % {every} == 0 in each file), which
  is held out as that language's tuning slice (it picks the epoch).  Where a treebank's only non-test split is its
  IWPT dev split, that dev split is training data here.  No test split was read.
- Settings: hidden {cfg['hidden']}, layers {cfg['layers']}, char_dim {cfg['char_dim']}, window {cfg['window']},
  batch {cfg['batch_size']}, lr {cfg['lr']}, seed {cfg['seed']}, min_windows {cfg['min_windows']}, epochs run {state['epoch']}
- Weights: {size / 1e6:.2f} MB; training time: {seconds / 60:.1f} min with {cfg["threads"]} torch thread(s) on a shared 2-core CPU
- Best epoch: {state['best_epoch']} (macro character-level F1 on the tuning slices: tokens {best.get('tokens', 0):.2f},
  sentences {best.get('sentences', 0):.2f}, multiword {best.get('mwt', 0):.2f})

## Per language at the best epoch (tuning slice, character-level F1)

| lang | files | paragraphs | characters | tokens | sentences | multiword |
|---|---|---|---|---|---|---|
{per_lang}

## History (macro average over languages)

| epoch | loss | dev tokens | dev sentences | dev multiword |
|---|---|---|---|---|
{rows}
"""
    (out / "multi").mkdir(parents=True, exist_ok=True)
    (out / "multi" / "MODEL.md").write_text(text, encoding="utf-8")
    for c in corpora:
        sc = scores.get(c.lang, {})
        card = f"""# Segmenter: {c.lang}

The {c.lang} language of the multilingual segmenter in `../multi/` (see its MODEL.md
for the command, settings and training history).

- Trained on: {files(c)}, every sentence except every {every}th of each file (held out to pick the epoch).
  Where a file is the treebank's IWPT dev split, it was used for training.
- Multiword tokens (`mwt.json`) and abbreviations (`abbreviations.json`) learnt from the same training sentences.
- Tuning slice, character-level F1 at the best epoch ({state['best_epoch']}): tokens {sc.get('tokens', 0):.2f},
  sentences {sc.get('sentences', 0):.2f}, multiword {sc.get('mwt', 0):.2f}.
"""
        (out / str(c.lang) / "MODEL.md").write_text(card, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Train from a TOML or JSON config: ``python -m eud.segment.train CONFIG``."""
    import argparse
    import tomllib

    parser = argparse.ArgumentParser(prog="python -m eud.segment.train", description=main.__doc__)
    parser.add_argument("config", type=Path)
    parser.add_argument("--abbreviations-only", action="store_true",
                        help="only rewrite abbreviations.json of the written package(s) from the same training sentences")
    parser.add_argument("--mwt-only", nargs="+", metavar="LANG",
                        help="only rewrite mwt.json of these languages' packages (or 'all') from the same training sentences")
    args = parser.parse_args(argv)
    try:
        text = args.config.read_text(encoding="utf-8")
        config = json.loads(text) if args.config.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as err:
        print(f"{args.config}: cannot read config: {err}", file=sys.stderr)
        return 2
    if args.abbreviations_only or args.mwt_only:
        return write_tables(config, args.config, mwt=args.mwt_only)
    return train_segmenter(config, args.config)


def write_tables(config: dict, config_path: Path, mwt: list[str] | None = None) -> int:
    """Rewrite a trained package's ``abbreviations.json``, or with ``mwt`` (languages, or ``all``) its ``mwt.json``.

    Each language's files of a multilingual package; nothing is trained.
    """
    from eud.segment.mwt import MwtExpander

    cfg = {**DEFAULTS, **config}
    out = _resolve(cfg, config_path, "output")
    for c in _corpora(cfg, config_path):
        folder = out / c.lang if c.lang else out
        if mwt and "all" not in mwt and c.lang not in mwt:
            continue
        if not (folder / "config.json").is_file():
            print(f"{folder}: not a segmenter package (train it first)", file=sys.stderr)
            return 2
        if mwt:
            expander = MwtExpander.build(c.sentences, suffix_weight=_suffix_weight(cfg, c.lang))
            write_mwt(folder, expander.to_json())
            print(f"{folder}: {len(expander.lexicon)} multiword forms, {len(expander.rules)} suffix rules",
                  file=sys.stderr)
            continue
        abbreviations = Abbreviations.learn(c.sentences)
        abbreviations.save(folder)
        print(f"{folder}: {len(abbreviations.to_json()['abbreviations'])} abbreviations", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
