"""The training loop behind ``eud train``: epochs, checkpoints, early stopping, the model card."""

from __future__ import annotations

import copy
import json
import shlex
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import torch

from eud.conllu import read_conllu, write_conllu
from eud.graph import Sentence
from eud.nn.averaging import WeightAverage
from eud.nn.batching import length_batches, make_batch
from eud.nn.config import full_config, log, seconds, seed_everything, setup_logging
from eud.nn.data import describe, file_entries, language_of, read_entries, read_entry, read_split
from eud.nn.lexicon import FILE as LEXICON
from eud.nn.lexicon import Lemmatizer, write_lexicon
from eud.nn.morphology import FILE as FEATS
from eud.nn.morphology import FeatsChoice, write_feats
from eud.nn.network import Parser, resolve_precision
from eud.nn.package import load_config, load_package, save_package, weights_storage
from eud.nn.predict import GRAPH_MODES, Predictor
from eud.nn.scoring import quick_scores
from eud.nn.vocab import Vocab, build_vocabs, vocabs_from_json, vocabs_to_json
from eud.progress import progress


def _read(path: str | dict[str, Any]) -> list[Sentence]:
    if isinstance(path, dict):
        return read_entry(path)
    return list(read_conllu(path))


def evaluate(predictor: Predictor, path: str | dict[str, Any], modes: tuple[str, ...],
             variants: dict[str, Predictor] | None = None, save: Path | None = None) -> dict[str, dict[str, float]]:
    """Quick scores of each graph mode (and of other predictors' writing) on one file; the network runs once.

    With ``save`` (a path prefix) each output is also written to ``{save}.{name}.conllu``
    so that ``eud evaluate`` can score it without parsing again.
    """
    gold = _read(path)
    inputs = _read(path)
    decoded = predictor.decode_all(inputs)
    out = {}
    saved = predictor.graph_mode
    writers = [(mode, predictor, mode) for mode in modes] + [(name, p, p.graph_mode) for name, p in (variants or {}).items()]
    for i, (name, writer, mode) in enumerate(writers):
        writer.graph_mode = mode
        pred = _read(path) if i else inputs
        for s, d in zip(pred, decoded):
            writer.write(s, d)
        out[name] = quick_scores(gold, pred)
        if save is not None:
            write_conllu(pred, f"{save}.{name.replace('/', '-')}.conllu")
    predictor.graph_mode = saved
    return out


def evaluate_tune(model: Parser, vocabs: dict[str, Vocab], cfg: dict[str, Any], tune: dict[str, list[Sentence]],
                  cap: int = 0, *, lemmatizers: bool = False, folder: Path | None = None,
                  per_language_lexicon: bool = True) -> dict[str, dict[str, float]]:
    """Quick scores per language on the tuning slice (its first ``cap`` sentences if > 0); the rules build graphs.

    With ``lemmatizers`` the package's lexicons (in ``folder``; one per language when
    ``per_language_lexicon``) decide lemmas and its FEATS tables limit FEATS, as at parse time.
    """
    out = {}
    for lang, gold in sorted(tune.items()):
        gold = gold[:cap] if cap else gold
        lemmatizer = feats = None
        if lemmatizers and folder is not None:
            table_lang = lang if per_language_lexicon else None
            lemmatizer = Lemmatizer.load(folder, lang=table_lang)
            feats = FeatsChoice.load(folder, vocabs["feats"], lang=table_lang)
        # A one-treebank model (language "et_ewt") is tuned with its treebank's profile, as it parses.
        profile = cfg["language"] if language_of(cfg.get("language") or "") == lang else lang
        predictor = Predictor(model, vocabs, {**cfg, "graph_mode": "rules"}, language=profile, lemmatizer=lemmatizer,
                              feats=feats)
        pred = copy.deepcopy(gold)
        predictor.annotate(pred)
        out[lang] = quick_scores(gold, pred)
        enhanced = [i for i, s in enumerate(gold) if s.enhanced]
        if enhanced and len(enhanced) < len(gold):
            # Some files of this language have no enhanced layer: ELAS over those that have one.
            out[lang]["ELAS"] = quick_scores([gold[i] for i in enhanced], [pred[i] for i in enhanced])["ELAS"]
        # Languages without enhanced gold (ru, fr here) are tuned on LAS.
        out[lang]["main"] = _main_score(out[lang], any(s.enhanced for s in gold))
    model.train()
    return out


def macro(by_lang: dict[str, dict[str, float]]) -> dict[str, float]:
    """The mean over languages of each score; ``ELAS`` is the mean main score (ELAS, or LAS without enhanced gold)."""
    keys = [k for k in next(iter(by_lang.values())) if k != "main"]
    out = {k: sum(sc[k] for sc in by_lang.values()) / len(by_lang) for k in keys}
    out["ELAS"] = sum(sc["main"] for sc in by_lang.values()) / len(by_lang)
    return out


def _main_score(scores: dict[str, float], has_enhanced: bool) -> float:
    return scores["ELAS"] if has_enhanced else scores["LAS"]


def label_weight_vector(deprels: Vocab, weights: dict[str, float], key: str = "label_weights") -> torch.Tensor:
    """A config's ``label_weights`` or ``arc_weights`` ({relation: weight}, others 1) over the relation table.

    A rare relation the decoder should posit more readily (``orphan``: gapping) can weigh more in
    the loss instead of, or besides, a ``label_bias`` added at parse time.  ValueError for a
    relation the table lacks: a typo would otherwise train silently without it.
    """
    unknown = sorted(set(weights) - set(deprels.index))
    if unknown:
        raise ValueError(f"{key}: no such relation in the training data: {', '.join(unknown)}")
    vector = torch.ones(len(deprels))
    for label, value in weights.items():
        vector[deprels.index[label]] = float(value)
    return vector


def _optimizer(model: Parser, cfg: dict[str, Any]) -> torch.optim.Optimizer:
    enc_params = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("encoder.transformer.model.")]
    rest = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("encoder.transformer.model.")]
    groups = [{"params": rest, "lr": cfg["lr"]}]
    if enc_params:
        groups.append({"params": enc_params, "lr": cfg["encoder_lr"]})
    beta1, beta2 = (float(b) for b in cfg["adam_betas"])
    return torch.optim.AdamW(groups, betas=(beta1, beta2), weight_decay=cfg["weight_decay"])


def has_tuning_slice(cfg: dict[str, Any]) -> bool:
    """Whether the run holds a slice of its training files apart (config-wide or per file)."""
    return bool(cfg.get("tune_every")) or any(e.get("tune_every") for e in cfg.get("train_files", []))


def _slice_text(cfg: dict[str, Any]) -> str:
    """How the tuning slice was taken, for the card."""
    k = int(cfg.get("tune_every", 0))
    if k and not any("tune_every" in e for e in cfg["train_files"]):
        return f"Every {k}th sentence (index % {k} == 0, counted per file before repeats) of each training file above"
    parts = [f"one sentence in {e.get('tune_every', k)} of {Path(e['path']).name}"
             for e in cfg["train_files"] if e.get("tune_every", k)]
    return "The tuning slice (" + "; ".join(parts) + ", index % k == 0, counted before repeats)"


def train_parser(config: dict[str, Any], config_path: Path, *, fresh: bool = False,
                 argv: list[str] | None = None, finish_only: bool = False, export_checkpoint: bool = False) -> None:
    """Train, checkpointing every epoch, and write the best model package and its card."""
    base = config_path.resolve().parent
    try:
        train_entries = file_entries(config.get("train"), base, "train") if config.get("train") else []
        extra_dev = file_entries(config.get("extra_dev", []), base, "extra_dev")
    except ValueError as err:
        raise ValueError(f"{config_path}: {err}") from None
    init_from = config.get("init_from")
    cfg = full_config({**config, **({"train": train_entries[0]["path"]} if train_entries else {})}, config_path)
    cfg["train_files"] = train_entries
    cfg["extra_dev"] = extra_dev
    if init_from:
        cfg["init_from"] = str(base / init_from)
    work = Path(cfg["work_dir"])
    setup_logging(work)
    torch.set_num_threads(int(cfg["threads"]))
    if finish_only:
        ckpt = work / "checkpoint.pt"
        if not ckpt.exists():
            raise ValueError(f"{work}: no checkpoint, so no trained package to finish")
        saved = torch.load(ckpt, weights_only=True)
        state = json.loads(saved["state"])
        if export_checkpoint:
            vocabs = vocabs_from_json(json.loads((work / "vocab.json").read_text()))
            model = Parser(cfg, vocabs)
            model.load_state_dict(saved["model"])
            save_package(Path(cfg["output"]), model, vocabs, {**_package_config(cfg), "graph_mode": "graph"})
            log.info("exported the checkpoint after epoch %d to %s", state["epoch"], cfg["output"])
        finish_package(cfg, Path(cfg["output"]), state, _command_argv(argv))
        return
    seed_everything(int(cfg["seed"]))
    for entry in train_entries:
        log.info("reading %s", describe(entry))
    train, train_langs, tune = read_split(train_entries, int(cfg.get("tune_every", 0)))
    if tune:
        log.info("tuning slice: %s", ", ".join(f"{lang} {sum(len(s.words) for s in ss)} words" for lang, ss in sorted(tune.items())))
    has_enhanced = any(bool(s.enhanced) for s in train[:200])
    vocab_file = work / "vocab.json"
    checkpoint_file = work / "checkpoint.pt"
    if fresh and checkpoint_file.exists():
        checkpoint_file.unlink()
    start: Parser | None = None
    if vocab_file.exists() and checkpoint_file.exists():
        vocabs: dict[str, Vocab] = vocabs_from_json(json.loads(vocab_file.read_text()))
    elif cfg.get("init_from"):
        # Fine-tuning a shipped package: its tables and network shape, so its weights fit.
        start, vocabs, start_cfg = load_package(cfg["init_from"])
        cfg["encoder"], cfg["model"] = start_cfg["encoder"], start_cfg.get("model", {})
        vocab_file.write_text(json.dumps(vocabs_to_json(vocabs), ensure_ascii=False))
    else:
        vocabs = build_vocabs(train, min_word_count=int(cfg["min_word_count"]),
                              min_class_count=int(cfg.get("min_class_count", 1)))
        if cfg["encoder"].get("lang_dim"):
            vocabs["lang"] = Vocab(sorted(set(train_langs)))
        vocab_file.write_text(json.dumps(vocabs_to_json(vocabs), ensure_ascii=False))
    log.info("%d training sentences; tables: %s", len(train), ", ".join(f"{k} {len(v)}" for k, v in vocabs.items()))
    if cfg.get("init_from") and start is None:
        cfg["encoder"] = load_config(Path(cfg["init_from"]))["encoder"]
        cfg["model"] = load_config(Path(cfg["init_from"])).get("model", {})
    model = Parser(cfg, vocabs)
    if start is not None:
        model.load_state_dict(start.state_dict())
        log.info("starting from the weights of %s", cfg["init_from"])
        del start
    model.precision = resolve_precision(cfg["precision"])
    if cfg.get("label_weights"):
        model.deprel_weight = label_weight_vector(vocabs["deprel"], cfg["label_weights"])
        log.info("basic-relation loss weights: %s", cfg["label_weights"])
    if cfg.get("arc_weights"):
        model.arc_weight = label_weight_vector(vocabs["deprel"], cfg["arc_weights"], "arc_weights")
        log.info("attachment loss weights: %s", cfg["arc_weights"])
    enc = model.encoder.transformer
    if enc is not None and not enc.finetune:
        enc.cache = {}
    optimizer = _optimizer(model, cfg)
    lang_ids = [vocabs["lang"].index[c] for c in train_langs] if "lang" in vocabs else None
    lengths = [len(s.words) for s in train]
    # epoch_parts = k: an "epoch" is a k-th of a pass over the data, so that tuning and checkpoints come often.
    parts = max(1, int(cfg.get("epoch_parts", 1)))
    steps_per_epoch = -(-len(length_batches(lengths, int(cfg["batch_words"]))) // parts)
    total_steps = steps_per_epoch * int(cfg["max_epochs"])
    warmup = int(cfg["warmup_steps"])

    def schedule(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.05, 1.0 - (step - warmup) / max(1, total_steps - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    average = WeightAverage(model, float(cfg["ema"])) if cfg.get("ema") else None
    state = {"epoch": 0, "step": 0, "best": -1.0, "bad_epochs": 0, "history": []}
    if checkpoint_file.exists():
        ckpt = torch.load(checkpoint_file, weights_only=True)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        if average is not None and "average" in ckpt:
            average.load_state_dict(ckpt["average"])
        state = json.loads(ckpt["state"])
        log.info("resumed from %s after epoch %d (best %.2f)", checkpoint_file, state["epoch"], state["best"])
    output = Path(cfg["output"])
    max_steps = int(cfg["max_steps"])
    every = int(cfg.get("checkpoint_steps", 0))
    started = time.time()
    while state["epoch"] < int(cfg["max_epochs"]) and state["bad_epochs"] < int(cfg["patience"]):
        if max_steps and state["step"] >= max_steps:
            break
        epoch = state["epoch"] + 1
        model.train()
        pass_no, part = divmod(epoch - 1, parts)
        batches = length_batches(lengths, int(cfg["batch_words"]), shuffle=True,
                                 seed=int(cfg["seed"]) * 1000 + (epoch if parts == 1 else pass_no + 1))
        batches = batches[part * steps_per_epoch:(part + 1) * steps_per_epoch]
        t0, total, words = time.time(), 0.0, 0
        done = int(state.get("batch_in_epoch", 0))  # batches of this epoch already trained (mid-epoch resume)
        k = done
        for k, idx in enumerate(progress(batches[done:], f"epoch {epoch}", unit="batch"), done + 1):
            batch = make_batch(train, idx, vocabs, max_chars=cfg["encoder"]["max_chars"], with_targets=True,
                               langs=lang_ids)
            loss = model.loss(model(batch), batch)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), float(cfg["clip"]))
            optimizer.step()
            scheduler.step()
            if average is not None:
                average.update(model)
            state["step"] += 1
            total += float(loss.detach())
            words += int(batch.lengths.sum())
            if k % 100 == 0:
                log.info("epoch %d step %d/%d loss %.3f  %.0f words/s", epoch, k, len(batches), total / (k - done),
                         words / (time.time() - t0))
            if every and k % every == 0 and k < len(batches):
                state["batch_in_epoch"] = k
                _checkpoint(checkpoint_file, model, optimizer, scheduler, state, average)
            if max_steps and state["step"] >= max_steps:
                break
        log.info("epoch %d done: loss %.3f, %s", epoch, total / max(1, k - done), seconds(time.time() - t0))
        state["epoch"] = epoch
        state["batch_in_epoch"] = 0
        # With weight averaging on, tuning and the package use the averaged weights.
        with average.applied(model) if average is not None else nullcontext():
            scores, main_score = score_epoch(model, vocabs, cfg, tune, has_enhanced, epoch)
            state["history"].append({"epoch": epoch, "dev": scores, "seconds": round(time.time() - t0)})
            if main_score > state["best"]:
                state["best"] = main_score
                state["bad_epochs"] = 0
                save_package(output, model, vocabs, {**_package_config(cfg), "graph_mode": "graph"})
                log.info("saved %s (dev %.2f)", output, main_score)
            else:
                state["bad_epochs"] += 1
        _checkpoint(checkpoint_file, model, optimizer, scheduler, state, average)
    log.info("training finished after %d epochs (%s this run)", state["epoch"], seconds(time.time() - started))
    finish_package(cfg, output, state, _command_argv(argv))


def score_epoch(model: Parser, vocabs: dict[str, Vocab], cfg: dict[str, Any], tune: dict[str, list[Sentence]],
                has_enhanced: bool, epoch: int) -> tuple[dict[str, float], float]:
    """The epoch's scores on the tuning slice or the dev files, and the one figure that picks the epoch."""
    dev_path, extra_dev = cfg.get("dev"), cfg.get("extra_dev", [])
    scores: dict[str, float] = {}
    if tune and not dev_path:
        by_lang = evaluate_tune(model, vocabs, cfg, tune, int(cfg.get("tune_max_sentences", 0)))
        mean = macro(by_lang)
        scores = {**mean, **{f"{k} {lang}": v[k] for lang, v in by_lang.items() for k in ("LAS", "ELAS")}}
        for lang, sc in sorted(by_lang.items()):
            log.info("tune %s: %s", lang, "  ".join(f"{k} {v:.2f}" for k, v in sc.items()))
        main_score = mean["ELAS"]
        log.info("tune macro: %s", "  ".join(f"{k} {v:.2f}" for k, v in mean.items()))
    elif dev_path:
        predictor = Predictor(model, vocabs, {**cfg, "graph_mode": "graph"})
        # Select on the better of the graph scorer and the rules over the predicted tree.
        modes = _modes(predictor, ("graph", "rules"))
        by_mode = evaluate(predictor, dev_path, modes)
        scores = max(by_mode.values(), key=lambda sc: sc["ELAS"])
        for mode, sc in by_mode.items():
            log.info("dev %s: %s", mode, "  ".join(f"{k} {v:.2f}" for k, v in sc.items()))
        main_score = _main_score(scores, has_enhanced)
        # Extra dev files (e.g. a construction the main dev set lacks) join the selection
        # score as the mean of every file's main figure.
        extra_scores = []
        for entry in extra_dev:
            sc = evaluate(predictor, entry, ("rules",) if predictor.enhancer is not None else ("graph",))
            sc = next(iter(sc.values()))
            log.info("dev %s: %s", describe(entry), "  ".join(f"{k} {v:.2f}" for k, v in sc.items()))
            extra_scores.append(_main_score(sc, entry["enhanced"]))
            scores[f"LAS {Path(entry['path']).name}"] = sc["LAS"]
        main_score = (main_score + sum(extra_scores)) / (1 + len(extra_scores))
    else:
        main_score = float(epoch)  # no held-out data: every epoch is the newest best
    return scores, main_score


def _command_argv(argv: list[str] | None) -> list[str]:
    """The training command as a user would retype it (no one-off flags)."""
    return [a for a in (argv or []) if a not in ("--finish-only", "--fresh")]


def _checkpoint(path: Path, model: Parser, optimizer: torch.optim.Optimizer, scheduler: Any,
                state: dict[str, Any], average: WeightAverage | None = None) -> None:
    """Write a resumable checkpoint atomically (tensors and JSON only, loadable with weights_only)."""
    tmp = path.with_suffix(".tmp")
    saved = {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
             "scheduler": scheduler.state_dict(), "state": json.dumps(state)}
    if average is not None:
        saved["average"] = average.state_dict()
    torch.save(saved, tmp)
    tmp.replace(path)


def _modes(predictor: Predictor, wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The graph modes worth scoring: the rules alone without a graph scorer, the scorer alone without rules."""
    if predictor.enhancer is None:
        return ("graph",)
    if predictor.model.graph is None:
        return ("rules",)
    return wanted


def _package_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """What a package needs to rebuild the model (no data paths or run settings)."""
    keep = ("encoder", "model", "language", "graph_mode", "relex", "edge_threshold", "drop_below", "add_above",
            "fp16_weights", "weights")
    return {k: cfg[k] for k in keep if k in cfg}


def finish_multilingual(cfg: dict[str, Any], output: Path, state: dict[str, Any], argv: list[str] | None) -> None:
    """A multilingual package: score each language's whole tuning slice, list the languages, write the card."""
    model, vocabs, pcfg = load_package(output)
    torch.set_num_threads(int(cfg["threads"]))
    train, langs, tune = read_split(cfg["train_files"], int(cfg.get("tune_every", 0)))
    # Lemma lexicons from the training sentences only (the tuning slice stays unseen), one per language.
    (output / LEXICON).unlink(missing_ok=True)
    (output / FEATS).unlink(missing_ok=True)
    # A package with a language table keeps a lexicon per language; a one-language package one lexicon.
    multilingual = "lang" in vocabs
    if multilingual:
        for lang in sorted(set(langs)):
            sentences = [s for s, code in zip(train, langs) if code == lang]
            write_lexicon(output, sentences, lang=lang)
            write_feats(output, sentences, lang=lang)
    else:
        write_lexicon(output, train)
        write_feats(output, train)
    del train
    cap = int(cfg.get("tune_max_sentences", 0))
    by_lang = evaluate_tune(model, vocabs, cfg, tune, cap, lemmatizers=True, folder=output,
                            per_language_lexicon=multilingual)
    for lang, sc in by_lang.items():
        log.info("tune %s: %s", lang, "  ".join(f"{k} {v:.2f}" for k, v in sc.items()))
    pcfg.update(graph_mode="rules", relex="rules")
    if multilingual:
        pcfg["languages"] = vocabs["lang"].items
    elif not pcfg.get("language") and len(by_lang) == 1:
        pcfg["language"] = next(iter(by_lang))  # its profile builds the graphs at parse time
    pcfg.pop("format", None)
    (output / "config.json").write_text(json.dumps({"format": "eud-parser/1", **pcfg}, indent=2, ensure_ascii=False) + "\n")
    results = {f"tune {lang}": {"rules": sc} for lang, sc in by_lang.items()}
    write_card(cfg, output, state, results, "rules", argv)
    languages = f"Languages (a learnt vector each): {', '.join(vocabs['lang'].items)}.  " if multilingual else ""
    lexicons = "per-language lexicons" if multilingual else "a lexicon"
    chosen_by = "macro score over languages" if len(by_lang) > 1 else "score"
    note = [
        "## Tuning slice and data use", "",
        (f"{_slice_text(cfg)} "
         f"was held apart and never trained on; the epoch with the best {chosen_by} on that slice (ELAS, or "
         "LAS where a language has no enhanced gold) was kept, and the 'tune' rows above score the slice (its "
         f"first tune_max_sentences sentences per language when set: {cfg.get('tune_max_sentences') or 'all'}), "
         "with the package's lexicon.  The IWPT dev splits ARE training data here "
         "(for most treebanks the only non-test split); no test split was read in training.  "
         f"{languages}The enhanced graph comes from "
         "the rule-based enhancer over the predicted tree, with the profile of the language (or treebank) "
         f"being parsed; lemmas from {lexicons} (lexicon.json) of the training sentences."), "",
        *([f"Raw text goes through the segmenter `models/segmenters/{next(iter(by_lang))}`.", ""]
          if not multilingual and len(by_lang) == 1 else []),
    ]
    with (output / "MODEL.md").open("a", encoding="utf-8") as card:
        card.write("\n".join(note))


def finish_package(cfg: dict[str, Any], output: Path, state: dict[str, Any], argv: list[str] | None) -> None:
    """Pick the graph mode on dev, score dev and test, write the card."""
    if has_tuning_slice(cfg) and not cfg.get("dev"):
        finish_multilingual(cfg, output, state, argv)
        return
    if not (output / LEXICON).exists() or not (output / FEATS).exists():
        # Lemmas and FEATS of the training forms, as the slice-tuned packages get them (the files whole: nothing
        # is held apart).  The treebanks are read once for both.
        train = read_entries(cfg["train_files"])
        if not (output / LEXICON).exists():
            write_lexicon(output, train)
        if not (output / FEATS).exists():
            write_feats(output, train)
        del train
    model, vocabs, pcfg = load_package(output)
    model.precision = resolve_precision(cfg["precision"])
    torch.set_num_threads(int(cfg["threads"]))
    # The untuned threshold for every comparison, so that rerunning this step gives the same table.
    pcfg = {**pcfg, "edge_threshold": 0.5}
    predictor = Predictor(model, vocabs, {**pcfg, "graph_mode": "combined", "relex": "rules"})
    modes = _modes(predictor, GRAPH_MODES)
    results: dict[str, Any] = {}
    relex = "rules" if predictor.case_rule is not None else "own"
    if cfg.get("dev") and model.graph is None:
        results["dev"] = evaluate(predictor, cfg["dev"], modes, save=Path(cfg["work_dir"]) / "dev")
        chosen = "rules"
    elif cfg.get("dev"):
        variants = {}
        # The graph scorer with stricter thresholds for second heads (written from the same network output).
        thresholds = (0.7, 0.8, 0.9, 0.95)
        for t in thresholds:
            variants[f"graph@{t}"] = Predictor(model, vocabs, {**pcfg, "graph_mode": "graph", "edge_threshold": t})
        if predictor.case_rule is not None:
            # The graph scorer's labels spelt by eud.nn.labels instead of the enhancer's case rule.
            variants["graph/own-labels"] = Predictor(model, vocabs, {**pcfg, "graph_mode": "graph", "relex": "own"})
        dev = evaluate(predictor, cfg["dev"], modes, variants, save=Path(cfg["work_dir"]) / "dev")
        if "graph/own-labels" in dev and dev["graph/own-labels"]["ELAS"] > dev["graph"]["ELAS"]:
            relex = "own"
        best_t = max((0.5,) + thresholds, key=lambda t: dev["graph" if t == 0.5 else f"graph@{t}"]["ELAS"])
        pcfg["edge_threshold"] = best_t
        if best_t != 0.5:
            dev["graph"] = dev[f"graph@{best_t}"]
        results["dev"] = dev
        if cfg["graph_mode"] == "best":
            chosen = max(modes, key=lambda m: (dev[m]["ELAS"], m == "graph"))
        else:
            chosen = cfg["graph_mode"]
    else:
        chosen = modes[0] if cfg["graph_mode"] == "best" else cfg["graph_mode"]
    if cfg.get("test"):
        final = Predictor(model, vocabs, {**pcfg, "graph_mode": chosen, "relex": relex})
        results["test"] = evaluate(final, cfg["test"], (chosen,), save=Path(cfg["work_dir"]) / "test")
    pcfg["graph_mode"] = chosen
    pcfg["relex"] = relex
    pcfg.pop("format", None)
    (output / "config.json").write_text(json.dumps({"format": "eud-parser/1", **pcfg}, indent=2, ensure_ascii=False) + "\n")
    for split, by_mode in results.items():
        for mode, sc in by_mode.items():
            log.info("%s %s: %s", split, mode, "  ".join(f"{k} {v:.2f}" for k, v in sc.items()))
    write_card(cfg, output, state, results, chosen, argv)


def write_card(cfg: dict[str, Any], output: Path, state: dict[str, Any], results: dict[str, Any], chosen: str,
               argv: list[str] | None) -> None:
    """MODEL.md: data, encoder, the exact command, dev/test scores."""
    size = (output / "model.safetensors").stat().st_size / 2**20
    command = "eud train " + shlex.join(argv or [])
    enc = cfg["encoder"]
    lines = [
        f"# {output.name}", "",
        "An eud neural parser package: UPOS, XPOS, FEATS, lemmas, basic tree and enhanced graph.", "",
        "## Data", "",
        *(f"- train: `{describe(e)}`" for e in cfg.get("train_files") or [{"path": cfg["train"]}]),
        *(f"- starting weights: `{Path(cfg['init_from']).name}`" for _ in [1] if cfg.get("init_from")),
        *(f"- extra dev (model selection): `{describe(e)}`" for e in cfg.get("extra_dev", [])),
        f"- dev: `{Path(cfg['dev']).name if cfg.get('dev') else '-'}`",
        f"- test: `{Path(cfg['test']).name if cfg.get('test') else '-'}`", "",
        "## Model", "",
        (f"- encoder: `{enc['type']}` (transformer: {enc.get('transformer') or 'none'}, fine-tuned: "
         f"{bool(enc.get('transformer')) and enc.get('finetune')}, "
         f"chars: {enc.get('char_encoder', 'cnn') if enc['chars'] else False}, words: {enc['words']}, "
         f"BiLSTM layers: {enc['lstm_layers']})"),
        *([f"- weights averaged over training steps (ema {cfg['ema']}): tuning and this package use the average"]
          if cfg.get("ema") else []),
        f"- enhanced graph: `{chosen}` ({_graph_choice(chosen, results)})",
        (f"- encoder arithmetic in training: {resolve_precision(cfg['precision'])} (config: {cfg['precision']}); "
         "`eud parse --precision` chooses it at parse time"),
        f"- weights: model.safetensors, {size:.1f} MiB ({weights_storage(cfg)})",
        f"- epochs trained: {state['epoch']}, best dev: {state['best']:.2f}", "",
        "## Command", "", "```", command, "```", "",
        "(run from the repository root; the config's paths are relative to the config file)", "",
        "## Scores", "",
        ("Quick scores from training (gold tokenisation; ELAS counts edges between words only).  "
         "Official figures: `eval/RESULTS.md` (generated from `eval/results/`)."), "",
    ]
    cols = ("UPOS", "XPOS", "UFeats", "Lemmas", "UAS", "LAS", "ELAS")
    lines.append("| split | graph | " + " | ".join(cols) + " |")
    lines.append("|---|---|" + "---|" * len(cols))
    for split, by_mode in results.items():
        for mode, sc in by_mode.items():
            lines.append(f"| {split} | {mode} | " + " | ".join(f"{sc[c]:.2f}" for c in cols) + " |")
    lines.append("")
    lines += _history_table(state.get("history", []))
    (output / "MODEL.md").write_text("\n".join(lines))


def _graph_choice(chosen: str, results: dict[str, Any]) -> str:
    """How the card's graph source was chosen."""
    if results.get("dev"):
        return f"picked on dev among: {', '.join(results['dev'])}"
    return "the rules over the predicted tree: no dev file to choose on" if chosen == "rules" else "no dev file to choose on"


def _history_table(history: list[dict[str, Any]]) -> list[str]:
    """Card lines: dev scores after each epoch (the better graph source's), and the epoch's training time."""
    rows = [h for h in history if h.get("dev")]
    if not rows:
        return []
    cols = ("UPOS", "LAS", "ELAS")
    lines = ["## Training curve", "", "Dev after each epoch (the package keeps the best one):", "",
             "| epoch | " + " | ".join(cols) + " | train time |", "|---|" + "---|" * (len(cols) + 1)]
    for h in rows:
        took = seconds(h["seconds"]) if "seconds" in h else "-"
        lines.append(f"| {h['epoch']} | " + " | ".join(f"{h['dev'][c]:.2f}" for c in cols) + f" | {took} |")
    return lines + [""]
