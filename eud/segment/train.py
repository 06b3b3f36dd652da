"""Training a segmenter package from CoNLL-U (``eud train --config`` with ``task = "segmenter"``).

Config keys (TOML or JSON, read by ``eud train``; paths are relative to the config file):

``train``, ``dev``       CoNLL-U files (``.xz`` ok); dev picks the best epoch.
``output``               the package folder to write (``config.json``, ``vocab.json``,
                         ``model.safetensors``, ``mwt.json``, ``MODEL.md``).
``epochs`` (12)          ``patience`` (4): stop after this many epochs without a dev gain.
``seed`` (1)             ``batch_size`` (32)  ``window`` (256 characters)  ``lr`` (0.002)
``hidden`` (64)          ``layers`` (2)  ``char_dim`` (48)  ``dropout`` (0.2)
``threads`` (1)           torch threads; on a busy 2-core machine 1 is often much faster.
``max_steps`` (none)     stop each epoch after this many steps (for tests).
``resume`` (true)        continue from the checkpoint folder if it is there.
``checkpoint``           checkpoint folder (default ``output/checkpoint``).

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
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from eud.progress import progress
from eud.segment.data import Paragraph, read_paragraphs
from eud.segment.model import BREAK, CharSegmenter, Vocab

DEFAULTS = {
    "epochs": 12, "patience": 4, "seed": 1, "batch_size": 32, "window": 256, "lr": 0.002,
    "hidden": 64, "layers": 2, "char_dim": 48, "cat_dim": 8, "dropout": 0.2, "max_steps": None,
    "resume": True, "threads": 1, "min_char_count": 2, "max_sentence_tokens": 300,
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


def _batches(stream: tuple[torch.Tensor, ...], window: int, batch_size: int, rng: random.Random):
    """Shuffled windows of the stream, starting at a random offset each epoch."""
    chars, cats, labels = stream
    offset = rng.randrange(window)
    starts = list(range(offset, len(chars) - window, window))
    rng.shuffle(starts)
    for b in range(0, len(starts), batch_size):
        idx = torch.tensor(starts[b:b + batch_size]).unsqueeze(1) + torch.arange(window)  # [B, window]
        yield chars[idx], cats[idx], labels[idx]


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


def evaluate_chars(model: CharSegmenter, vocab: Vocab, paras: list[Paragraph]) -> dict[str, float]:
    """Character-level F1 of token ends, sentence ends and multiword tokens on labelled paragraphs."""
    from eud.segment.model import predict_many

    golds, preds = [], []
    for p, probs in zip(paras, predict_many(model, vocab, [p.text for p in paras])):
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


def save_package(out: Path, model: CharSegmenter, vocab: Vocab, settings: dict, mwt_json: dict) -> None:
    """Write the plain-data package: config.json, vocab.json, model.safetensors, mwt.json."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    (out / "vocab.json").write_text(json.dumps(vocab.to_json(), ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "mwt.json").write_text(json.dumps(mwt_json, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(out / "model.safetensors"))


def train_segmenter(config: dict, config_path: Path) -> int:
    """Train a segmenter from ``config`` (see the module doc) and write its package.

    Returns an exit code: 0, or 2 after printing a one-line message for a bad
    config or unreadable data.
    """
    from eud.conllu import ConlluError

    missing = [key for key in ("train", "dev", "output") if key not in config]
    unknown = sorted(set(config) - set(DEFAULTS) - {"task", "train", "dev", "output", "checkpoint"})
    if missing or unknown:
        problem = f"missing key(s) {', '.join(missing)}" if missing else f"unknown key(s) {', '.join(unknown)}"
        print(f"eud train: {config_path}: segmenter config: {problem}", file=sys.stderr)
        return 2
    for key in ("train", "dev"):
        if not _resolve(config, config_path, key).is_file():
            print(f"eud train: {config_path}: {key} file {_resolve(config, config_path, key)} not found", file=sys.stderr)
            return 2
    try:
        _train(config, config_path)
    except ConlluError as err:
        print(f"eud train: {err}", file=sys.stderr)
        return 2
    return 0


def _train(config: dict, config_path: Path) -> None:
    from eud.conllu import read_conllu
    from eud.segment.mwt import MwtExpander

    cfg = {**DEFAULTS, **config}
    train_path, dev_path = _resolve(cfg, config_path, "train"), _resolve(cfg, config_path, "dev")
    out = _resolve(cfg, config_path, "output")
    torch.set_num_threads(int(cfg["threads"]))
    random.seed(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    rng = random.Random(cfg["seed"])

    stats: dict[str, int] = {}
    train = read_paragraphs(train_path, stats)
    dev = read_paragraphs(dev_path)
    print(f"segmenter: {stats['paragraphs']} training paragraphs "
          f"({sum(len(p.text) for p in train)} characters, {stats['skipped']} skipped), "
          f"{len(dev)} dev paragraphs", file=sys.stderr)
    vocab = Vocab.build([p.text for p in train], cfg["min_char_count"])
    mwt = MwtExpander.build(read_conllu(train_path))
    settings = {
        "format": "eud-segmenter/1", "n_chars": len(vocab.chars), "n_cats": len(vocab.categories),
        "char_dim": cfg["char_dim"], "cat_dim": cfg["cat_dim"], "hidden": cfg["hidden"],
        "layers": cfg["layers"], "dropout": cfg["dropout"], "max_sentence_tokens": cfg["max_sentence_tokens"],
    }
    model = CharSegmenter(settings["n_chars"], settings["n_cats"], cfg["char_dim"], cfg["cat_dim"],
                          cfg["hidden"], cfg["layers"], cfg["dropout"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    stream = _stream(vocab, train)
    # Sentence ends are rare; weighting them up a little trades precision for recall.
    weights = torch.tensor([1.0, 1.0, 2.0, 3.0, 3.0])
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights, ignore_index=IGNORE)

    ckpt = _resolve(cfg, config_path, "checkpoint") if cfg.get("checkpoint") else out / "checkpoint"
    state = {"epoch": 0, "best": -1.0, "best_epoch": 0, "history": [], "stale": 0}
    if cfg["resume"] and (ckpt / "state.json").exists():
        state = json.loads((ckpt / "state.json").read_text())
        model.load_state_dict(load_file(str(ckpt / "last.safetensors")))
        optimizer.load_state_dict(torch.load(ckpt / "optimizer.pt", weights_only=True))
        rng.setstate(_rng_state(state["rng"]))
        print(f"segmenter: resuming after epoch {state['epoch']}", file=sys.stderr)
        _rescore(state, out, model, vocab, settings, mwt.to_json())
    ckpt.mkdir(parents=True, exist_ok=True)
    started = time.time()
    while state["epoch"] < cfg["epochs"] and state["stale"] < cfg["patience"]:
        epoch = state["epoch"] + 1
        model.train()
        total, steps = 0.0, 0
        n_batches = max(1, (len(stream[0]) // cfg["window"]) // cfg["batch_size"])
        for chars, cats, labels in progress(_batches(stream, cfg["window"], cfg["batch_size"], rng),
                                            f"epoch {epoch}", total=n_batches, unit="batch"):
            logits = model(chars, cats)  # [B, window, 5]
            loss = loss_fn(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            total += loss.item()
            steps += 1
            if cfg["max_steps"] and steps >= cfg["max_steps"]:
                break
        scores = evaluate_chars(model, vocab, dev)
        score = selection_score(scores)
        state["epoch"] = epoch
        state["history"].append({"epoch": epoch, "loss": total / max(1, steps), **scores})
        print(f"segmenter: epoch {epoch} loss {total / max(1, steps):.4f} dev tokens {scores['tokens']:.2f} "
              f"sentences {scores['sentences']:.2f} mwt {scores['mwt']:.2f}", file=sys.stderr)
        if score > state["best"]:
            state["best"], state["best_epoch"], state["stale"] = score, epoch, 0
            save_package(out, model, vocab, settings, mwt.to_json())
        else:
            state["stale"] += 1
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(ckpt / "last.safetensors"))
        torch.save(optimizer.state_dict(), ckpt / "optimizer.pt")
        state["rng"] = _rng_json(rng.getstate())
        state["seconds"] = state.get("seconds", 0.0) + time.time() - started
        started = time.time()
        (ckpt / "state.json").write_text(json.dumps(state) + "\n")
    best = state["history"][state["best_epoch"] - 1] if state["best_epoch"] else {}
    _write_card(out, cfg, config_path, train_path, dev_path, stats, best, state,
                state.get("seconds", 0.0) + time.time() - started)


def selection_score(scores: dict[str, float]) -> float:
    """Dev score that picks the best epoch: token ends weigh most (every word depends on them)."""
    return 3 * scores["tokens"] + scores["sentences"] + 0.3 * scores["mwt"]


def _rescore(state: dict, out: Path, model: CharSegmenter, vocab: Vocab, settings: dict, mwt_json: dict) -> None:
    """Recompute the best epoch with :func:`selection_score` (older checkpoints used another formula).

    If the last epoch, whose weights are loaded, is now the best, the package is rewritten from it.
    """
    history = state["history"]
    if not history:
        return
    best = max(history, key=selection_score)
    state["best"] = selection_score(best)
    if best["epoch"] != state["best_epoch"] and best["epoch"] == state["epoch"]:
        save_package(out, model, vocab, settings, mwt_json)
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
    command = "eud train --config " + shlex.quote(os.path.relpath(config_path))
    text = f"""# Segmenter: {out.parent.name}

Character-level BiLSTM that finds token ends, sentence ends and multiword
tokens in raw text (`eud.segment`), trained from CoNLL-U alone.

- Training data: `{train_path.name}` ({stats.get('paragraphs', 0)} paragraphs rebuilt from `# text`, `# newpar`, `# newdoc`)
- Dev data (best epoch): `{dev_path.name}`
- Command: `{command}`
- Settings: hidden {cfg['hidden']}, layers {cfg['layers']}, char_dim {cfg['char_dim']}, window {cfg['window']}, batch {cfg['batch_size']}, lr {cfg['lr']}, seed {cfg['seed']}, epochs run {state['epoch']}
- Weights: {size / 1e6:.2f} MB; training time: {seconds / 60:.1f} min with {cfg["threads"]} torch thread(s) on a shared 2-core CPU
- Best epoch: {state['best_epoch']} (dev character-level F1: tokens {best.get('tokens', 0):.2f}, sentences {best.get('sentences', 0):.2f}, multiword {best.get('mwt', 0):.2f})

Character-level F1 counts token and sentence *ends* per character; the UD
scores (Tokens, Words, Sentences F1 from `udeval`) are in `eval/RESULTS.md`.

| epoch | loss | dev tokens | dev sentences | dev multiword |
|---|---|---|---|---|
{rows}
"""
    (out / "MODEL.md").write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Train from a TOML or JSON config: ``python -m eud.segment.train CONFIG``."""
    import argparse
    import tomllib

    parser = argparse.ArgumentParser(prog="python -m eud.segment.train", description=main.__doc__)
    parser.add_argument("config", type=Path)
    args = parser.parse_args(argv)
    try:
        text = args.config.read_text(encoding="utf-8")
        config = json.loads(text) if args.config.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as err:
        print(f"{args.config}: cannot read config: {err}", file=sys.stderr)
        return 2
    return train_segmenter(config, args.config)


if __name__ == "__main__":
    sys.exit(main())
